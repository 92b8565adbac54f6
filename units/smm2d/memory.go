package smm2d

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units/internal/splitmem"
)

// Memory is the 2DSMM memory (thesis section 3.4.2, Figure 3.8 with the
// 2DSMM's AGU, ATU and router): L banks of 2^RW w-bit elements holding an
// M x N array. Ports (DESIGN.md, smm2d):
//
//	configuration  cfg_valid, cfg_ready, cfg_vs[VW-1:0], cfg_hs[HW-1:0],
//	               cfg_vstride[mb-1:0], cfg_hstride[nb-1:0]
//	request        req_valid, req_ready, req_write, req_pattern[2:0],
//	               req_i[mb-1:0], req_j[nb-1:0], req_mask_<k>,
//	               req_wdata_<k>[w-1:0]                          (k < L)
//	response       resp_valid, resp_rdata_<k>[w-1:0]
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
	// counts logic only): per bank b the ports bank<b>_row[RW-1:0],
	// bank<b>_we, bank<b>_wdata[w-1:0] out and bank<b>_rdata[w-1:0] in, the
	// data a synchronous SRAM reads at the edge.
	NoBanks bool
}

// request is the request channel.
type request struct {
	Valid, Write, Pattern, I, J *hdl.Signal
	Mask, Wdata                 []*hdl.Signal
}

// config is the configuration channel.
type config struct {
	Valid, VS, HS, VStride, HStride *hdl.Signal
}

// stage1 is the 2DSMM's own part of the request being served (the rest
// is the split-access pipeline's): its pattern, (i, j) and write data.
type stage1 struct {
	Pattern, I, J *hdl.Signal
	Wdata         []*hdl.Signal
}

func (p Memory) ports(m *hdl.Module) (request, config) {
	f := m.InputFields("req")
	req := request{Valid: f("valid", 1), Write: f("write", 1), Pattern: f("pattern", 3), I: f("i", p.MB), J: f("j", p.NB)}
	for k := range p.Lanes() {
		req.Mask = append(req.Mask, m.Input(fmt.Sprintf("req_mask_%d", k), 1))
		req.Wdata = append(req.Wdata, m.Input(fmt.Sprintf("req_wdata_%d", k), p.W))
	}
	f = m.InputFields("cfg")
	cfg := config{Valid: f("valid", 1), VS: f("vs", p.VW()), HS: f("hs", p.HW()), VStride: f("vstride", p.MB), HStride: f("hstride", p.NB)}
	return req, cfg
}

// configuration is vs, hs and the stride table, loaded when take is 1;
// after reset vs = hs = 0 and VS = HS = 1.
func (p Memory) configuration(m *hdl.Module, cfg config, take *hdl.Signal) (vs, hs *hdl.Signal, st strideTable) {
	vs, hs = m.Reg("vs", p.VW()), m.Reg("hs", p.HW())
	loaded := AGU{p.Geometry}.multiples(cfg.VStride, cfg.HStride)
	for k := range p.Lanes() {
		st.V = append(st.V, m.RegInit(fmt.Sprintf("vmul_%d", k), bitsOf(p.MB, uint64(k))))
		st.H = append(st.H, m.RegInit(fmt.Sprintf("hmul_%d", k), bitsOf(p.NB, uint64(k))))
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
	r1 := stage1{Pattern: m.Reg("r1_pattern", 3), I: m.Reg("r1_i", p.MB), J: m.Reg("r1_j", p.NB)}
	for k := range p.Lanes() {
		r1.Wdata = append(r1.Wdata, m.Reg(fmt.Sprintf("r1_wdata_%d", k), p.W))
	}
	return r1
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

// Build makes the memory module called name, one flat module: the AGU,
// ATU and router are the blocks of agu.go, atu.go and route.go inlined;
// stage 1, stage 2, the responses and the handshake are the split-access
// pipeline's (units/internal/splitmem).
func (p Memory) Build(name string) *hdl.Module {
	lanes, w, rw := p.Lanes(), p.W, p.RW()
	m := hdl.NewModule(name)
	req, cfg := p.ports(m)
	pipe := splitmem.New(m, lanes)
	r1 := p.stage1(m)
	vs, hs, st := p.configuration(m, cfg, pipe.Offer("cfg", cfg.Valid, nil))

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
	rdata := make([]*hdl.Signal, lanes)
	for b := range lanes {
		pk := atBank[b]
		row, wdata, we := pk.Slice(w+rw-1, w), pk.Slice(w-1, 0), pk.Bit(w+rw)
		if p.NoBanks {
			m.Output(fmt.Sprintf("bank%d_row", b), rw).Drive(row)
			m.Output(fmt.Sprintf("bank%d_we", b), 1).Drive(we)
			m.Output(fmt.Sprintf("bank%d_wdata", b), w).Drive(wdata)
			rdata[b] = m.Input(fmt.Sprintf("bank%d_rdata", b), w)
			continue
		}
		bank := m.Mem(fmt.Sprintf("bank%d", b), rw, w)
		bank.Write(row, wdata, we)
		rdata[b] = bank.ReadSync(row, nil)
	}

	// Stage 2: the routing information and the outward router, each
	// register next to what it takes; a read collects its lanes over its
	// sub-accesses and answers after the last.
	s2 := pipe.Stage2()
	s2Crow := m.Reg("s2_crow", 1)
	s2Crow.Drive(crow)
	back := laneInfo{En: lib.Split(s2.Served)}
	for k := range lanes {
		v, h := m.Reg(fmt.Sprintf("route_mv_%d", k), p.P), m.Reg(fmt.Sprintf("route_mh_%d", k), p.Q)
		v.Drive(mv[k])
		h.Drive(mh[k])
		back.MV, back.MH = append(back.MV, v), append(back.MH, h)
	}
	pipe.Respond(s2, s2.Read, route.outward(s2Crow, back, rdata))
	p.handshake(m, pipe, req, cfg.Valid, r1)
	return m
}

// handshake accepts requests into stage 1: not while a request has
// sub-accesses left, nor while a configuration is offered.
func (p Memory) handshake(m *hdl.Module, pipe *splitmem.Pipeline, req request, cfgValid *hdl.Signal, r1 stage1) {
	take := pipe.Offer("req", req.Valid, cfgValid)
	pipe.Accept(take, req.Write, lib.Bus(req.Mask).And(take.Repl(p.Lanes())))
	m.If(take, func() {
		r1.Pattern.Set(req.Pattern)
		r1.I.Set(req.I)
		r1.J.Set(req.J)
		for k, d := range req.Wdata {
			r1.Wdata[k].Set(d)
		}
	})
}
