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
// c + L - 1 cycles after the first entered (Lemma 1). MemoryPorts are
// its ports.
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

// MemoryPorts are rsdmm's ports (contract rsdmm), lanes i < w.
type MemoryPorts struct {
	// Cfg writes r_j (or an H3 key) into the RSU (section V) while the
	// memory is idle.
	Cfg hdl.Stream[MemoryCfg] `doc:"RSU write"`
	// Req is one warp's request (Figure 1 (A)).
	Req hdl.Stream[MemoryReq] `doc:"warp"`
	// Resp is one read warp's data, in order.
	Resp MemoryResp
	// Cong is a super warp's congestion c (section IV), once per super
	// warp.
	Cong MemoryCong
}

// MemoryCfg is a configuration write: Val at Idx.
type MemoryCfg struct {
	Idx *hdl.Signal `doc:"[ab-lw-1:0] table entry j (hash: [XB(ab-lw)-1:0] key b)"`
	Val *hdl.Signal `doc:"[lw-1:0] the shift r_j, or key b"`
}

// MemoryReq is a warp that writes (Write) or reads.
type MemoryReq struct {
	Write *hdl.Signal `doc:"a write, else a read"`
	Lanes []MemoryLane
}

// MemoryResp is the response port: Rdata[i] is thread i's word.
type MemoryResp struct {
	Valid *hdl.Signal   `doc:"a read warp's response"`
	Rdata []*hdl.Signal `doc:"[dw-1:0] the word of thread i, 0 if masked"`
}

// MemoryCong is the congestion port.
type MemoryCong struct {
	Valid *hdl.Signal `doc:"a super warp's congestion"`
	Cong  *hdl.Signal `doc:"[CB-1:0] the congestion c (section IV)"`
}

// MemoryLane is one thread's request: at the port, and in the collect and
// issue stations, its enable (mask), its address (shifted in the
// stations) and the data it writes.
type MemoryLane struct {
	Mask  *hdl.Signal `doc:"thread i is enabled"`
	Addr  *hdl.Signal `doc:"[ab-1:0] address of thread i"`
	Wdata *hdl.Signal `doc:"[dw-1:0] write data of thread i"`
}

func (p MemoryBlock) lane(f hdl.Fields) MemoryLane {
	return MemoryLane{Mask: f("mask", 1), Addr: f("addr", p.AB), Wdata: f("wdata", p.DW)}
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
// a shift) and name_rpu. The memory is built in the order a super warp
// passes Figure 1's parts: the RSU shifts each warp's addresses as it
// arrives, collect gathers the S warps, the RPU packs them into stages
// that issue one per cycle, the MMU pipeline carries a stage to the
// banks, and emit answers one warp per cycle.
func (p MemoryBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the module called name (as Build) and returns it with
// its ports, and states its properties.
func (p MemoryBlock) WithPorts(name string) (*hdl.Module, MemoryPorts) {
	b := &memoryBuild{p: p, m: hdl.NewModule(name), w: 1 << p.LW, n: p.N()}
	b.ports()
	shifted := b.shift(name)
	b.collect(shifted)
	s0 := b.issue(name)
	at := b.mmu(s0)
	b.respond(at, b.bankArray(at))
	b.properties(b.watch)
	return b.m, b.io
}

// memoryBuild is the memory under construction: the signals its parts
// share.
type memoryBuild struct {
	p    MemoryBlock
	m    *hdl.Module
	w, n int
	io   MemoryPorts // made by the parts as they use them

	// A configuration write taken, and the occupancy cfg_ready waits on.
	cfgTake    *hdl.Signal
	collected  *hdl.Signal // collect's warps
	issueState *hdl.FSM    // issue: Idle, or a super warp's Window
	busy       *hdl.Signal // issue's window running
	inFlight   *hdl.Signal // a stage in the MMU, ret or emit (driven by respond)

	// collect -> issue: the collected super warp and its move to issue.
	col       []MemoryLane
	colWrite  *hdl.Signal
	issueFree *hdl.Signal // issue's window ends (driven by issue)
	transfer  *hdl.Signal

	pending []*hdl.Signal // the stages on their way: the MMU's, ret's, emit's

	watch memoryWatch // what the properties read
}

// ports declares the inputs and cfg_ready: a configuration write is taken
// while nothing is collected, issued or in flight.
func (b *memoryBuild) ports() {
	p, m, cfg, req := b.p, b.m, &b.io.Cfg, &b.io.Req
	f := m.InputFields("cfg")
	cfg.Valid, cfg.Payload.Idx, cfg.Payload.Val = f("valid", 1), f("idx", p.rsu().idxWidth()), f("val", p.LW)
	f = m.InputFields("req")
	req.Valid, req.Payload.Write = f("valid", 1), f("write", 1)
	for i := range b.w {
		req.Payload.Lanes = append(req.Payload.Lanes, p.lane(m.InputFields("req", i)))
	}

	// Every station's occupancy, for cfg_ready: declared here, driven below.
	b.collected = m.Reg("collected", lib.CountWidth(p.S))
	b.issueState = m.FSM("issue", "Idle", "Window")
	b.busy = b.issueState.Is("Window")
	b.inFlight = m.Wire("in_flight", 1)
	cfgReady := b.collected.EqConst(0).And(b.busy.Not()).And(b.inFlight.Not())
	cfg.Ready = m.OutputFields("cfg")("ready", 1)
	cfg.Ready.Drive(cfgReady)
	b.cfgTake = cfg.Valid.And(cfgReady)
}

// shift is the RSU (section V): each warp's addresses are shifted as they
// arrive; a configuration write changes r_j from the next cycle.
func (b *memoryBuild) shift(name string) []*hdl.Signal {
	addr := make([]*hdl.Signal, b.w)
	for i, l := range b.io.Req.Payload.Lanes {
		addr[i] = l.Addr
	}
	if b.p.Shift == NoShift {
		return addr
	}
	sub, ports := b.p.rsu().WithPorts(name + "_rsu")
	rsu := b.m.Instance("rsu", sub)
	cfg := b.io.Cfg
	hdl.ConnectRecord(rsu, ports.Tbl, RSUWrite{We: b.cfgTake, Idx: cfg.Payload.Idx, Val: cfg.Payload.Val})
	hdl.ConnectRecord(rsu, ports.Addr, addr)
	return hdl.OutRecord(rsu, ports.SAddr)
}

// collect: warp q of the super warp lands in slots q*w .. q*w+w-1, after
// which q+1 warps are collected; the first warp's req_write is the super
// warp's. A full station moves to issue when issue's window ends, and
// takes a new warp (its warp 0) in the same cycle, or is empty after it.
// A configuration write goes first.
func (b *memoryBuild) collect(shifted []*hdl.Signal) {
	p, m, collected, req := b.p, b.m, b.collected, &b.io.Req
	b.issueFree = m.Wire("issue_free", 1)
	full := collected.EqConst(uint64(p.S))
	b.transfer = full.And(b.issueFree).Named("transfer")
	reqReady := full.Not().Or(b.transfer).And(b.cfgTake.Not())
	req.Ready = m.OutputFields("req")("ready", 1)
	req.Ready.Drive(reqReady)
	take := req.Valid.And(reqReady)
	slot := hdl.Mux(full, m.ConstU(collected.Width(), 0), collected) // the arriving warp's place
	b.col = make([]MemoryLane, b.n)
	for i := range b.n {
		b.col[i] = p.lane(m.RegFields("col", i))
	}
	b.colWrite = m.Reg("col_write", 1)
	slotIs := lib.NewDecoder(slot)
	m.If(take, func() {
		collected.Set(slot.Add(m.ConstU(collected.Width(), 1)))
		m.If(slotIs.Is(0), func() { b.colWrite.Set(req.Payload.Write) })
		for q := range p.S {
			m.If(slotIs.Is(q), func() {
				for k := range b.w {
					in := req.Payload.Lanes[k]
					hdl.SetRecord(b.col[q*b.w+k], MemoryLane{Mask: in.Mask, Addr: shifted[k], Wdata: in.Wdata})
				}
			})
		}
	}).Elif(b.transfer, func() { collected.SetU(0) })
	b.watch.take, b.watch.full = take, full
}

// issue: the RPU packs the super warp (section IV). Its window t = 0 ..
// max(S, c')-1 issues stage t - (window - c') in its last c' cycles,
// c' = max(c, 1): a super warp with no enabled request still passes
// one empty stage, which carries its responses. It returns stage k as it
// leaves for the MMU.
func (b *memoryBuild) issue(name string) mmuStage {
	p, m, n, busy, st := b.p, b.m, b.n, b.busy, b.issueState
	iss := make([]MemoryLane, n)
	for i := range n {
		iss[i] = p.lane(m.RegFields("iss", i))
	}
	issWrite := m.Reg("iss_write", 1)
	rb := p.AB - p.LW
	sub, ports := RPUBlock{LW: p.LW, S: p.S, RB: rb, AllPairs: p.AllPairs}.WithPorts(name + "_rpu")
	rpu := m.Instance("rpu", sub)
	banks, rows, stages, leads := make([]*hdl.Signal, n), make([]*hdl.Signal, n), make([]*hdl.Signal, n), make([]*hdl.Signal, n)
	for i, r := range iss {
		banks[i], rows[i] = r.Addr.Slice(p.LW-1, 0), r.Addr.Slice(p.AB-1, p.LW)
		hdl.ConnectRecord(rpu, ports.In[i], RPURequest{Valid: r.Mask, Bank: banks[i], Row: rows[i]})
		o := hdl.OutRecord(rpu, ports.Out[i])
		stages[i], leads[i] = o.Stage, o.Lead
	}
	cong := hdl.OutRecord(rpu, ports.Cong)
	cw := cong.Width()
	one := m.ConstU(cw, 1)
	stagesC := hdl.Mux(cong.EqConst(0), one, cong).Named("stages") // c'
	sC := m.ConstU(cw, uint64(p.S))
	window := hdl.Mux(stagesC.Gt(sC), stagesC, sC).Named("window")
	wait := window.Sub(stagesC) // the window's cycles before its first stage
	t := m.Reg("t", cw)
	lastCycle := busy.And(t.Eq(window.Sub(one))).Named("window_end")
	b.issueFree.Drive(busy.Not().Or(lastCycle))
	b.watch.issWrite, b.watch.t, b.watch.window, b.watch.lastCycle = issWrite, t, window, lastCycle

	// The window's cycles: Idle until collect moves a super warp in, which
	// opens its Window at t = 0; t counts the window's cycles and the
	// last returns to Idle, unless the next super warp moves in at that
	// edge and opens its own.
	st.When("Window", func() {
		t.Set(t.Add(one))
		m.If(lastCycle, func() { st.Goto("Idle") })
	})
	m.If(b.transfer, func() {
		for i := range n {
			hdl.SetRecord(iss[i], b.col[i])
		}
		issWrite.Set(b.colWrite)
		t.SetU(0)
		st.Goto("Window")
	})
	issuing := busy.And(t.Ge(wait)).Named("issuing")
	k := t.Sub(wait).Trunc(stages[0].Width()).Named("k") // the stage issued: k < c' <= N
	f := m.OutputFields("")
	b.io.Cong.Valid = f("cong_valid", 1)
	b.io.Cong.Valid.Drive(busy.And(t.EqConst(0)))
	b.io.Cong.Cong = f("cong", cw)
	b.io.Cong.Cong.Drive(cong)

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
	for bk := range b.w {
		sel := make([]*hdl.Signal, n)
		for i := range n {
			sel[i] = served[i].And(leads[i]).And(banks[i].EqConst(uint64(bk)))
		}
		en := lib.Bus(sel).RedOr()
		hdl.DriveRecord(s0.Cmds[bk], bankCmd{En: en, We: en.And(issWrite), Row: hdl.OneHotSelect(lib.Bus(sel), rows...), Wdata: hdl.OneHotSelect(lib.Bus(sel), wdata...)})
	}
	return s0
}

// mmu is the MMU: L-1 pipeline registers from the issue to the banks. It
// returns the stage as it reaches the banks.
func (b *memoryBuild) mmu(s0 mmuStage) mmuStage {
	at := s0
	for d := 1; d < b.p.L; d++ {
		next := b.p.stage(b.m.RegFields, fmt.Sprintf("mmu%d", d))
		hdl.DriveRecord(next, at)
		b.pending = append(b.pending, next.Valid)
		b.watch.mmu = append(b.watch.mmu, next)
		at = next
	}
	return at
}

// bankArray is the banks: address j*w + k lives in cell j of bank k
// (+ r_j). It returns each bank's read data, a cycle after the stage.
func (b *memoryBuild) bankArray(at mmuStage) []*hdl.Signal {
	rdata := make([]*hdl.Signal, b.w)
	for bk, c := range at.Cmds {
		mem := b.m.Mem(fmt.Sprintf("bank%d", bk), b.p.AB-b.p.LW, b.p.DW)
		mem.Write(c.Row, c.Wdata, c.We.And(at.Valid))
		rdata[bk] = mem.ReadSync(c.Row, c.En.And(at.Valid).And(at.Read))
	}
	return rdata
}

// respond: ret holds a read stage one cycle on, when its data leaves the
// banks; capture and emit: request i takes its bank's data in its stage;
// the other requests of the first stage start from 0 (masked lanes read
// 0). The last stage moves the whole super warp to emit, which answers
// one warp per cycle, the rest moving down a warp; the next read super
// warp's last stage is at least S cycles later.
func (b *memoryBuild) respond(at mmuStage, rdata []*hdl.Signal) {
	p, m, w, n := b.p, b.m, b.w, b.n
	retRead, retFirst, retLast := m.Reg("ret_read", 1), m.Reg("ret_first", 1), m.Reg("ret_last", 1)
	retRead.Drive(at.Valid.And(at.Read))
	retFirst.Drive(at.First)
	retLast.Drive(at.Last)
	b.pending = append(b.pending, retRead)

	left := m.Reg("emit_left", lib.CountWidth(p.S)) // warps still to answer
	emitting := left.EqConst(0).Not()
	done := retRead.And(retLast)
	b.pending = append(b.pending, emitting)
	emit, got := m.RegFields("").Vec("emit", n, p.DW), make([]*hdl.Signal, n)
	zero := m.ConstU(p.DW, 0)
	for i, h := range at.Hits {
		f := m.RegFields("ret", i)
		rh := hit{Hit: f("hit", 1), Bank: f("bank", p.LW)}
		hdl.DriveRecord(rh, h)
		capt := m.RegFields("", i)("capture", p.DW)
		// Request i's data with this stage's: capture's next value, and
		// emit's after the last stage.
		got[i] = hdl.Mux(rh.Hit, hdl.Select(rh.Bank, rdata...), hdl.Mux(retFirst, zero, capt))
		m.If(retRead, func() { capt.Set(got[i]) })
	}
	m.If(done, func() {
		left.SetU(uint64(p.S))
		for i := range n {
			emit[i].Set(got[i])
		}
	}).Elif(emitting, func() {
		left.Set(left.Sub(m.ConstU(left.Width(), 1)))
		for i := range n {
			if i+w < n {
				emit[i].Set(emit[i+w])
			} else {
				emit[i].Set(zero)
			}
		}
	})
	b.inFlight.Drive(lib.Bus(b.pending).RedOr())
	b.watch.retRead, b.watch.retLast, b.watch.left = retRead, retLast, left
	f := m.OutputFields("resp")
	b.io.Resp = MemoryResp{Valid: f("valid", 1), Rdata: f.Vec("rdata", w, p.DW)}
	hdl.DriveRecord(b.io.Resp, MemoryResp{Valid: emitting, Rdata: emit[:w]})
}
