package smm2d

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units/internal/splitmem"
)

// Memory is the 2DSMM memory (thesis section 3.4.2, Figure 3.8 with the
// 2DSMM's AGU, ATU and router): L banks of 2^RW w-bit elements holding an
// M x N array; MemoryPorts are its ports (DESIGN.md, smm2d).
//
// A configuration loads vs, hs and the stride table k*VS, k*HS (k < L,
// Table 3.3) and is taken when no request is mid-way; a request waits in
// a cycle where a configuration is offered, so it sees the new one.
//
// Pipeline, the SAMS memory's (units/internal/splitmem): an accepted
// request is registered (stage 1); in stage 1 the AGU, ATU and inward
// router drive the banks, which write and read at the end of the cycle,
// and each lane's m_v, m_h are registered as the routing information
// (Table 3.3); in stage 2 the outward router takes the read data to the
// response registers. A read
// accepted at a clock edge is answered three edges later, one request
// accepted every cycle. Each stage-1 cycle serves the waiting lanes of
// which no lower waiting lane meets them in the router (model.go, Meet):
// every lane when the access satisfies Theorem 7's grouping, else a
// sub-access per cycle with req_ready low, lowest lanes first, so a write
// of several lanes to one element leaves the highest lane's value.
type Memory struct {
	Geometry
	W    int
	Post bool
	// NoBanks leaves the banks out for area reports (thesis Table 3.2
	// counts logic only): per bank b the ports bank<b>_* of BankPorts.
	NoBanks bool
}

// MemoryPorts are smm2d's ports (DESIGN.md, smm2d): the configuration,
// request and response channels, and the banks' ports when NoBanks.
type MemoryPorts struct {
	// Cfg loads vs, hs and the stride table (Table 3.3).
	Cfg hdl.Stream[MemoryConfig] `doc:"configuration"`
	// Req is an access of one of the six patterns (Figure 3.8's AGU
	// input), Resp its read data, one response per read in order.
	Req  hdl.Stream[MemoryRequest] `doc:"request"`
	Resp MemoryResponse            `doc:"response"`
	// Banks are bank b's SRAM ports bank<b>_* (NoBanks only).
	Banks []BankPorts `doc:"bank i (NoBanks)"`
}

// MemoryConfig is the configuration channel's payload: vs, hs and the
// strides VS, HS (Table 3.3's configuration state).
type MemoryConfig struct {
	VS      *hdl.Signal `doc:"[VW-1:0] vs"`
	HS      *hdl.Signal `doc:"[HW-1:0] hs"`
	VStride *hdl.Signal `doc:"[mb-1:0] VS"`
	HStride *hdl.Signal `doc:"[nb-1:0] HS"`
}

// MemoryRequest is the request channel's payload: the AGU's base, pattern
// and write (Figure 3.8), and each lane's mask and write data.
type MemoryRequest struct {
	Write   *hdl.Signal   `doc:"1 to write, 0 to read"`
	Pattern *hdl.Signal   `doc:"[2:0] pattern, as smm2d-agu's (Fig. 3.10)"`
	I       *hdl.Signal   `doc:"[mb-1:0] base vertical address"`
	J       *hdl.Signal   `doc:"[nb-1:0] base horizontal address"`
	Lanes   []RequestLane `doc:"lane i"`
}

// RequestLane is one lane's mask and write data.
type RequestLane struct {
	Mask  *hdl.Signal `doc:"takes part (mask)"`
	Wdata *hdl.Signal `doc:"[w-1:0] write data"`
}

// MemoryResponse is the response channel: valid and the lanes' read
// data, with no back-pressure.
type MemoryResponse = splitmem.Response

// BankPorts are one bank's synchronous SRAM ports outside the memory:
// row, we, wdata out and rdata in (read at the edge).
type BankPorts struct {
	Row   *hdl.Signal `doc:"[RW-1:0] row"`
	We    *hdl.Signal `doc:"write enable"`
	Wdata *hdl.Signal `doc:"[w-1:0] write data"`
	Rdata *hdl.Signal `doc:"[w-1:0] read data, of the row at the last edge"`
}

// stage1 is the 2DSMM's own part of the request being served (the rest
// is the split-access pipeline's): its pattern, (i, j) and write data.
type stage1 struct {
	Pattern, I, J *hdl.Signal
	Wdata         []*hdl.Signal
}

// inputs makes the request's and the configuration's inputs, valid and
// payload; their ready outputs come from the handshakes.
func (p Memory) inputs(m *hdl.Module) MemoryPorts {
	var ps MemoryPorts
	f := m.InputFields("req")
	ps.Req.Valid = f("valid", 1)
	req := MemoryRequest{Write: f("write", 1), Pattern: f("pattern", 3), I: f("i", p.MB), J: f("j", p.NB)}
	for k := range p.Lanes() {
		lane := m.InputFields("req", k)
		req.Lanes = append(req.Lanes, RequestLane{Mask: lane("mask", 1), Wdata: lane("wdata", p.W)})
	}
	ps.Req.Payload = req
	f = m.InputFields("cfg")
	ps.Cfg.Valid = f("valid", 1)
	ps.Cfg.Payload = MemoryConfig{VS: f("vs", p.VW()), HS: f("hs", p.HW()), VStride: f("vstride", p.MB), HStride: f("hstride", p.NB)}
	return ps
}

// configuration is vs, hs and the stride table, loaded when take is 1;
// after reset vs = hs = 0 and VS = HS = 1.
func (p Memory) configuration(m *hdl.Module, cfg MemoryConfig, take *hdl.Signal) (vs, hs *hdl.Signal, st strideTable) {
	vs, hs = m.Reg("vs", p.VW()), m.Reg("hs", p.HW())
	loaded := AGU{p.Geometry}.multiples(cfg.VStride, cfg.HStride)
	for k := range p.Lanes() {
		table := m.RegInitFields("", k)
		st.V = append(st.V, table("vmul", bitsOf(p.MB, uint64(k))))
		st.H = append(st.H, table("hmul", bitsOf(p.NB, uint64(k))))
	}
	m.If(take, func() {
		vs.Set(cfg.VS)
		hs.Set(cfg.HS)
		for k := range p.Lanes() {
			st.V[k].Set(loaded.V[k])
			st.H[k].Set(loaded.H[k])
		}
	})
	return vs, hs, st
}

// bitsOf is x mod 2^w as a reset value.
func bitsOf(w int, x uint64) hdl.Bits {
	b, err := hdl.U(w, x&mask(w))
	if err != nil {
		panic(err) // x is masked to w bits
	}
	return b
}

func (p Memory) stage1(m *hdl.Module) stage1 {
	f := m.RegFields("r1")
	return stage1{Pattern: f("pattern", 3), I: f("i", p.MB), J: f("j", p.NB), Wdata: f.Vec("wdata", p.Lanes(), p.W)}
}

// serve chooses this cycle's sub-access (model.go, Meet): a waiting lane
// is served unless a lower waiting lane meets it in the router: on the
// column path two lanes of one access row with equal m_h, or two lanes
// with equal banks; on the row path two lanes of one access column with
// equal m_v, or equal banks.
func (p Memory) serve(crow, pending *hdl.Signal, mv, mh []*hdl.Signal) []*hdl.Signal {
	served := make([]*hdl.Signal, p.Lanes())
	for k := range served {
		ak, ck := p.LaneAt(k)
		blocked := []*hdl.Signal{pending.Bit(k).Not()}
		for l := range k {
			al, cl := p.LaneAt(l)
			mvEq, mhEq := mv[k].Eq(mv[l]), mh[k].Eq(mh[l])
			column, row := mvEq.And(mhEq), mvEq.And(mhEq)
			if al == ak {
				column = mhEq
			}
			if cl == ck {
				row = mvEq
			}
			blocked = append(blocked, pending.Bit(l).And(hdl.Mux(crow, row, column)))
		}
		served[k] = lib.Bus(blocked).RedOr().Not()
	}
	return served
}

// Build makes the memory module called name.
func (p Memory) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the memory module called name, one flat module: the
// AGU, ATU and router are the blocks of agu.go, atu.go and route.go
// inlined; stage 1, stage 2, the responses and the handshake are the
// split-access pipeline's (units/internal/splitmem). It returns the ports.
func (p Memory) WithPorts(name string) (*hdl.Module, MemoryPorts) {
	lanes := p.Lanes()
	m := hdl.NewModule(name)
	ps := p.inputs(m)
	pipe := splitmem.New(m, lanes)
	r1 := p.stage1(m)
	take, ready := pipe.Offer("cfg", ps.Cfg.Valid, nil)
	ps.Cfg.Ready = ready
	vs, hs, st := p.configuration(m, ps.Cfg.Payload, take)

	// Stage 1: AGU, ATU, the sub-access choice and the inward router.
	is, js := AGU{p.Geometry}.generate(m, r1.I, r1.J, lib.NewDecoder(r1.Pattern), st)
	atu := ATU{p.Geometry, p.Post}
	d := atu.decode(vs, hs)
	var mv, mh, rows []*hdl.Signal
	for k := range lanes {
		v, h, r := atu.translate(d, is[k], js[k])
		mv, mh, rows = append(mv, v.Named(fmt.Sprintf("mv_%d", k))), append(mh, h.Named(fmt.Sprintf("mh_%d", k))), append(rows, r.Named(fmt.Sprintf("row_%d", k)))
	}
	crow := r1.Pattern.EqConst(uint64(ContinuousRow)).Named("crow")
	servedBits := p.serve(crow, pipe.Pending, mv, mh)
	pipe.Split(servedBits)

	route := Route{Geometry: p.Geometry}
	packets := make([]*hdl.Signal, lanes)
	for k := range lanes {
		packets[k] = hdl.Concat(pipe.Write, rows[k], r1.Wdata[k]) // {we, row, wdata}
	}
	atBank := route.inward(crow, laneInfo{MV: mv, MH: mh, En: servedBits}, packets)
	rdata := p.banks(m, atBank, &ps)

	// Stage 2: the routing information and the outward router, each
	// register next to what it takes; a read collects its lanes over its
	// sub-accesses and answers after the last.
	s2 := pipe.Stage2()
	s2Crow := m.Reg("s2_crow", 1)
	s2Crow.Drive(crow)
	back := laneInfo{En: lib.Split(s2.Served)}
	for k := range lanes {
		info := m.RegFields("route", k)
		v, h := info("mv", p.P), info("mh", p.Q)
		v.Drive(mv[k])
		h.Drive(mh[k])
		back.MV, back.MH = append(back.MV, v), append(back.MH, h)
	}
	ps.Resp = pipe.Respond(s2, s2.Read, route.outward(s2Crow, back, rdata))
	ps.Req.Ready = p.handshake(m, pipe, ps.Req, ps.Cfg.Valid, r1)
	pipe.Properties(s2)
	pipe.CoverConflicts()
	p.properties(m, ps, st)
	return m, ps
}

// properties states that the stride table holds the multiples k*VS, k*HS
// of its entries for k = 1 (Table 3.3: loaded from one configuration, and
// VS = HS = 1 after reset), and covers a configuration taken and one that
// goes before a request offered with it.
func (p Memory) properties(m *hdl.Module, ps MemoryPorts, st strideTable) {
	var multiples []*hdl.Signal
	for k := range p.Lanes() {
		if k == 1 {
			continue
		}
		multiples = append(multiples, st.V[k].Eq(st.V[1].MulConst(uint64(k)).Trunc(p.MB)), st.H[k].Eq(st.H[1].MulConst(uint64(k)).Trunc(p.NB)))
	}
	m.Assert(hdl.Concat(multiples...).RedAnd(), "stride_table_multiples", "a stride table entry k is not k times entry 1")
	m.Cover(ps.Cfg.Valid.And(ps.Cfg.Ready), "configured")
	m.Cover(ps.Cfg.Valid.And(ps.Req.Valid).And(ps.Cfg.Ready), "configuration_goes_first")
}

// banks are the L banks, each written and read at the row the inward
// router brings it (atBank[b] = {we, row, wdata}); it returns their read
// data. With NoBanks the banks are outside, behind ports bank<b>_*.
func (p Memory) banks(m *hdl.Module, atBank []*hdl.Signal, ps *MemoryPorts) []*hdl.Signal {
	w, rw := p.W, p.RW()
	rdata := make([]*hdl.Signal, len(atBank))
	for b, pk := range atBank {
		row, wdata, we := pk.Slice(w+rw-1, w), pk.Slice(w-1, 0), pk.Bit(w+rw)
		if p.NoBanks {
			out := m.OutputFields(bankName(b))
			bp := BankPorts{Row: out("row", rw), We: out("we", 1), Wdata: out("wdata", w)}
			bp.Row.Drive(row)
			bp.We.Drive(we)
			bp.Wdata.Drive(wdata)
			bp.Rdata = m.InputFields(bankName(b))("rdata", w)
			ps.Banks = append(ps.Banks, bp)
			rdata[b] = bp.Rdata
			continue
		}
		bank := m.Mem(bankName(b), rw, w)
		bank.Write(row, wdata, we)
		rdata[b] = bank.ReadSync(row, nil)
	}
	return rdata
}

// bankName is bank b's memory, or its ports' prefix with NoBanks.
func bankName(b int) string { return fmt.Sprintf("bank%d", b) }

// handshake accepts requests into stage 1: not while a request has
// sub-accesses left, nor while a configuration is offered. It returns
// the port req_ready.
func (p Memory) handshake(m *hdl.Module, pipe *splitmem.Pipeline, in hdl.Stream[MemoryRequest], cfgValid *hdl.Signal, r1 stage1) *hdl.Signal {
	take, ready := pipe.Offer("req", in.Valid, cfgValid)
	req := in.Payload
	mask := make([]*hdl.Signal, len(req.Lanes))
	for k, lane := range req.Lanes {
		mask[k] = lane.Mask
	}
	pipe.Accept(take, req.Write, lib.Bus(mask).And(take.Repl(p.Lanes())))
	m.If(take, func() {
		r1.Pattern.Set(req.Pattern)
		r1.I.Set(req.I)
		r1.J.Set(req.J)
		for k, lane := range req.Lanes {
			r1.Wdata[k].Set(lane.Wdata)
		}
	})
	return ready
}
