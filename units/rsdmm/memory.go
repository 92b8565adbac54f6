package rsdmm

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// MemoryBlock is the rsdmm unit: the memory machine of Figure 1 (A)-(C)
// with w = 2^LW banks of 2^(AB-LW) words of DW bits (contract rsdmm).
// Warps arrive one per cycle and pass the RSU (Shift); every S of them
// form a super warp, which the RPU packs into c stages (section IV); the
// stages enter the L-stage MMU pipeline one per cycle and reach the banks
// c + L - 1 cycles after the first entered (Lemma 1).
//
//	clk, rst
//	cfg_valid, cfg_ready, cfg_idx, cfg_val[lw-1:0]      an RSU write, while idle
//	req_valid, req_ready, req_write, req_mask_<i>,
//	req_addr_<i>[ab-1:0], req_wdata_<i>[dw-1:0]        one warp (i < w)
//	resp_valid, resp_rdata_<i>[dw-1:0]                  one per read warp, in order
//	cong_valid, cong[CB-1:0]                            once per super warp
//
// Its stations, each a set of registers:
//
//	collect  the super warp being gathered, its addresses already shifted
//	issue    the super warp being packed and issued: its window is
//	         max(S, c) cycles and its c stages issue in the last c of them,
//	         so windows follow each other at the rate warps arrive and each
//	         super warp's last stage comes at least S cycles after the
//	         previous one's
//	mmu1..   the MMU pipeline (L-1 registers): one stage, a command per bank
//	banks    one memory per bank, cell j of bank (k + r_j) mod w (section V)
//	ret      the stage's read hits, one cycle after the banks
//	capture  the read super warp's data, gathered over its stages
//	emit     the finished read super warp, one warp per cycle on resp
//
// A read super warp's responses start two cycles after its last stage
// reaches the banks; the next one's last stage comes at least S cycles
// later, so the responses of one never overlap the next.
type MemoryBlock struct {
	LW, S, AB, DW, L int
	Shift            ShiftKind // -shift: none (the SDMM, the DMM with s = 1), the RSU's table of r_j, or its H3 keys
	Seed             uint64
	AllPairs         bool
}

// N is the requests of a super warp.
func (p MemoryBlock) N() int { return p.S << p.LW }

// rsu is the shift unit at the request port (nil settings for NoShift).
func (p MemoryBlock) rsu() RSUBlock {
	return RSUBlock{LW: p.LW, AB: p.AB, Lanes: 1 << p.LW, Hash: p.Shift == HashShift, Seed: p.Seed}
}

// lane is one thread's request: in the collect and issue stations, its
// enable (mask), its shifted address and the data it writes.
type lane struct {
	Mask, Addr, Wdata *hdl.Signal
}

func (p MemoryBlock) lane(f hdl.Fields) lane {
	return lane{Mask: f("mask", 1), Addr: f("addr", p.AB), Wdata: f("wdata", p.DW)}
}

// bankCmd is what one bank does in one stage: access cell Row (En),
// writing Wdata (We).
type bankCmd struct {
	En, We, Row, Wdata *hdl.Signal
}

// hit is one request's part in a stage: it is served (Hit) by bank Bank.
type hit struct {
	Hit, Bank *hdl.Signal
}

// mmuStage is one packed stage in the MMU pipeline: whether it holds one
// (Valid), the super warp's kind (Read), whether it is its first and last
// stage, a command per bank and every request's hit.
type mmuStage struct {
	Valid, Read, First, Last *hdl.Signal
	Cmds                     []bankCmd
	Hits                     []hit
}

// stage makes an mmuStage's fields with mk (a module's RegFields or
// WireFields) under prefix.
func (p MemoryBlock) stage(mk func(prefix string, lane ...int) hdl.Fields, prefix string) mmuStage {
	f := mk(prefix)
	s := mmuStage{Valid: f("valid", 1), Read: f("read", 1), First: f("first", 1), Last: f("last", 1)}
	for b := range 1 << p.LW {
		f := mk(prefix, b)
		s.Cmds = append(s.Cmds, bankCmd{En: f("en", 1), We: f("we", 1), Row: f("row", p.AB-p.LW), Wdata: f("wdata", p.DW)})
	}
	for i := range p.N() {
		f := mk(prefix, i)
		s.Hits = append(s.Hits, hit{Hit: f("hit", 1), Bank: f("bank", p.LW)})
	}
	return s
}

// Build makes the module called name; its sub-modules are name_rsu (with
// a shift) and name_rpu.
func (p MemoryBlock) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	w, n := 1<<p.LW, p.N()
	f := m.InputFields("cfg")
	cfgValid, cfgIdx, cfgVal := f("valid", 1), f("idx", p.rsu().idxWidth()), f("val", p.LW)
	f = m.InputFields("req")
	reqValid, reqWrite := f("valid", 1), f("write", 1)
	var in []lane
	for i := range w {
		in = append(in, p.lane(m.InputFields("req", i)))
	}

	// Every station's occupancy, for cfg_ready: declared here, driven below.
	collected := m.Reg("collected", lib.CountWidth(p.S))
	busy := m.Reg("busy", 1)
	inFlight := m.Wire("in_flight", 1)
	cfgReady := collected.EqConst(0).And(busy.Not()).And(inFlight.Not())
	m.Output("cfg_ready", 1).Drive(cfgReady)
	cfgTake := cfgValid.And(cfgReady)

	// The RSU (section V): each warp's addresses are shifted as they
	// arrive; a configuration write changes r_j from the next cycle.
	shifted := make([]*hdl.Signal, w)
	for i, l := range in {
		shifted[i] = l.Addr
	}
	if p.Shift != NoShift {
		rsu := m.Instance("rsu", p.rsu().Build(name+"_rsu"))
		rsu.Connect("tbl_we", cfgTake)
		rsu.Connect("tbl_idx", cfgIdx)
		rsu.Connect("tbl_val", cfgVal)
		for i, l := range in {
			rsu.Connect(fmt.Sprintf("addr_%d", i), l.Addr)
			shifted[i] = rsu.Out(fmt.Sprintf("saddr_%d", i))
		}
	}

	// collect: warp q of the super warp lands in slots q*w .. q*w+w-1; the
	// first warp's req_write is the super warp's. A full station moves to
	// issue when issue's window ends, and takes a new warp in the same
	// cycle. A configuration write goes first.
	issueFree := m.Wire("issue_free", 1)
	full := collected.EqConst(uint64(p.S))
	transfer := full.And(issueFree).Named("transfer")
	reqReady := full.Not().Or(transfer).And(cfgTake.Not())
	m.Output("req_ready", 1).Drive(reqReady)
	take := reqValid.And(reqReady)
	slot := hdl.Mux(full, m.ConstU(collected.Width(), 0), collected) // the arriving warp's place
	collected.Drive(hdl.Mux(transfer, take.Zext(collected.Width()), collected.Add(take.Zext(collected.Width()))))
	col := make([]lane, n)
	for i := range n {
		col[i] = p.lane(m.RegFields("col", i))
	}
	colWrite := m.Reg("col_write", 1)
	slotIs := lib.NewDecoder(slot)
	m.If(take, func() {
		m.If(slotIs.Is(0), func() { colWrite.Set(reqWrite) })
		for q := range p.S {
			m.If(slotIs.Is(q), func() {
				for k := range w {
					hdl.SetRecord(col[q*w+k], lane{Mask: in[k].Mask, Addr: shifted[k], Wdata: in[k].Wdata})
				}
			})
		}
	})

	// issue: the RPU packs the super warp (section IV). Its window t = 0 ..
	// max(S, c')-1 issues stage t - (window - c') in its last c' cycles,
	// c' = max(c, 1): a super warp with no enabled request still passes
	// one empty stage, which carries its responses.
	iss := make([]lane, n)
	for i := range n {
		iss[i] = p.lane(m.RegFields("iss", i))
		iss[i].Mask.Drive(col[i].Mask)
		iss[i].Addr.Drive(col[i].Addr)
		iss[i].Wdata.Drive(col[i].Wdata)
		for _, r := range hdl.Signals(iss[i]) {
			r.Enable(transfer)
		}
	}
	issWrite := m.Reg("iss_write", 1)
	issWrite.Drive(colWrite)
	issWrite.Enable(transfer)
	rb := p.AB - p.LW
	rpu := m.Instance("rpu", RPUBlock{LW: p.LW, S: p.S, RB: rb, AllPairs: p.AllPairs}.Build(name+"_rpu"))
	banks, rows, stages, leads := make([]*hdl.Signal, n), make([]*hdl.Signal, n), make([]*hdl.Signal, n), make([]*hdl.Signal, n)
	for i, r := range iss {
		banks[i], rows[i] = r.Addr.Slice(p.LW-1, 0), r.Addr.Slice(p.AB-1, p.LW)
		rpu.Connect(fmt.Sprintf("valid_%d", i), r.Mask)
		rpu.Connect(fmt.Sprintf("bank_%d", i), banks[i])
		rpu.Connect(fmt.Sprintf("row_%d", i), rows[i])
		stages[i], leads[i] = rpu.Out(fmt.Sprintf("stage_%d", i)), rpu.Out(fmt.Sprintf("lead_%d", i))
	}
	cong := rpu.Out("cong")
	cw := cong.Width()
	one := m.ConstU(cw, 1)
	stagesC := hdl.Mux(cong.EqConst(0), one, cong).Named("stages") // c'
	sC := m.ConstU(cw, uint64(p.S))
	window := hdl.Mux(stagesC.Gt(sC), stagesC, sC).Named("window")
	wait := window.Sub(stagesC) // the window's cycles before its first stage
	t := m.Reg("t", cw)
	lastCycle := busy.And(t.Eq(window.Sub(one))).Named("window_end")
	issueFree.Drive(busy.Not().Or(lastCycle))
	busy.Drive(transfer.Or(busy.And(lastCycle.Not())))
	t.Drive(hdl.Mux(transfer, m.ConstU(cw, 0), t.Add(one)))
	t.Enable(transfer.Or(busy))
	issuing := busy.And(t.Ge(wait)).Named("issuing")
	k := t.Sub(wait).Trunc(stages[0].Width()).Named("k") // the stage issued: k < c' <= N
	m.Output("cong_valid", 1).Drive(busy.And(t.EqConst(0)))
	m.Output("cong", cw).Drive(cong)

	// Stage k: request i is served when its stage is k; bank b's command
	// comes from its leader (the highest thread of its address, whose
	// data a write keeps).
	s0 := p.stage(m.WireFields, "s0")
	s0.Valid.Drive(issuing)
	s0.Read.Drive(issWrite.Not())
	s0.First.Drive(k.EqConst(0))
	s0.Last.Drive(lastCycle)
	served := make([]*hdl.Signal, n)
	for i := range n {
		served[i] = issuing.And(iss[i].Mask).And(stages[i].Eq(k))
		hdl.DriveRecord(s0.Hits[i], hit{Hit: served[i], Bank: banks[i]})
	}
	wdata := make([]*hdl.Signal, n)
	for i := range n {
		wdata[i] = iss[i].Wdata
	}
	for b := range w {
		sel := make([]*hdl.Signal, n)
		for i := range n {
			sel[i] = served[i].And(leads[i]).And(banks[i].EqConst(uint64(b)))
		}
		en := lib.Bus(sel).RedOr()
		hdl.DriveRecord(s0.Cmds[b], bankCmd{En: en, We: en.And(issWrite), Row: hdl.OneHotSelect(lib.Bus(sel), rows...), Wdata: hdl.OneHotSelect(lib.Bus(sel), wdata...)})
	}

	// The MMU: L-1 pipeline registers from the issue to the banks.
	at, pending := s0, []*hdl.Signal{}
	for d := 1; d < p.L; d++ {
		next := p.stage(m.RegFields, fmt.Sprintf("mmu%d", d))
		hdl.DriveRecord(next, at)
		pending = append(pending, next.Valid)
		at = next
	}

	// The banks: address j*w + k lives in cell j of bank k (+ r_j).
	rdata := make([]*hdl.Signal, w)
	for b, c := range at.Cmds {
		mem := m.Mem(fmt.Sprintf("bank%d", b), rb, p.DW)
		mem.Write(c.Row, c.Wdata, c.We.And(at.Valid))
		rdata[b] = mem.ReadSync(c.Row, c.En.And(at.Valid).And(at.Read))
	}

	// ret: a read stage one cycle on, when its data leaves the banks.
	retRead, retFirst, retLast := m.Reg("ret_read", 1), m.Reg("ret_first", 1), m.Reg("ret_last", 1)
	retRead.Drive(at.Valid.And(at.Read))
	retFirst.Drive(at.First)
	retLast.Drive(at.Last)
	pending = append(pending, retRead)

	// capture and emit: request i takes its bank's data in its stage; the
	// other requests of the first stage start from 0 (masked lanes read 0).
	// The last stage moves the whole super warp to emit, which answers one
	// warp per cycle; the next read super warp's last stage is at least S
	// cycles later.
	left := m.Reg("emit_left", lib.CountWidth(p.S)) // warps still to answer
	emitting := left.EqConst(0).Not()
	done := retRead.And(retLast)
	left.Drive(hdl.Mux(done, m.ConstU(left.Width(), uint64(p.S)), left.Sub(emitting.Zext(left.Width()))))
	pending = append(pending, emitting)
	emit := make([]*hdl.Signal, n)
	for i := range n {
		emit[i] = m.Reg(fmt.Sprintf("emit_%d", i), p.DW)
	}
	zero := m.ConstU(p.DW, 0)
	for i, h := range at.Hits {
		rh := hit{Hit: m.Reg(fmt.Sprintf("ret_hit_%d", i), 1), Bank: m.Reg(fmt.Sprintf("ret_bank_%d", i), p.LW)}
		hdl.DriveRecord(rh, h)
		capt := m.Reg(fmt.Sprintf("capture_%d", i), p.DW)
		got := hdl.Mux(rh.Hit, hdl.Select(rh.Bank, rdata...), hdl.Mux(retFirst, zero, capt))
		capt.Drive(got)
		capt.Enable(retRead)
		down := zero // emit's next warp moves down
		if i+w < n {
			down = emit[i+w]
		}
		emit[i].Drive(hdl.Mux(done, got, down))
		emit[i].Enable(done.Or(emitting))
	}
	inFlight.Drive(lib.Bus(pending).RedOr())
	m.Output("resp_valid", 1).Drive(emitting)
	for i := range w {
		m.Output(fmt.Sprintf("resp_rdata_%d", i), p.DW).Drive(emit[i])
	}
	return m
}
