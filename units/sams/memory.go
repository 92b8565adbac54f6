package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units/internal/splitmem"
)

// Memory is the SAMS multi-layout memory (thesis chapter 4, Fig. 4.5b):
// 2^q banks of two-element rows, an inbound path (AGU, ATU, InSwitch), an
// outbound path (OutSwitch), a conflict detector and a splitter that serves
// a conflicting access as conflict-free sub-accesses, element-granular
// writes, and the wide port. Ports follow DESIGN.md (sams) plus the wide
// channel:
//
//	narrow request  req_valid, req_ready, req_write, req_mode[1:0],
//	                req_base[n-1:0], req_stride[n-1:0], req_mask_<i>,
//	                req_wdata_<i>[w-1:0]                      (i < 2^q)
//	narrow response resp_valid, resp_rdata_<i>[w-1:0]
//	wide request    wide_valid, wide_ready, wide_write, wide_row[n-q-2:0],
//	                wide_mask_<j>, wide_wdata_<j>[w-1:0]       (j < 2^(q+1))
//	wide response   wide_resp_valid, wide_rdata_<j>[w-1:0]
//
// The wide port moves one whole row of every bank: element j is bank j/2,
// offset j%2 (the internal order; sams-prs and sams-pws convert to and from
// linear order). A wide request takes priority over a narrow one in the
// same cycle; requests take effect in the order they are accepted.
//
// Pipeline: a request is registered when accepted (stage 1 holds it); in
// stage 1 the AGU, ATU, splitter and InSwitch drive the banks, which write
// and read at the end of the cycle; in stage 2 the OutSwitch routes the
// read data into the response registers, which show it in the next cycle.
// A conflict-free read accepted at a clock edge is answered three edges
// later, with one request accepted every cycle. A conflicting access stays
// in stage 1 for one cycle per sub-access (req_ready low meanwhile); each
// cycle serves, in every bank, the row of the lowest lane still waiting
// for that bank, and every waiting lane that wants that row. The number of
// sub-accesses is the largest number of distinct rows any bank is asked
// for.
type Memory struct {
	Q, N, W int
	Matched bool
}

// element is one element of a request: whether it takes part (mask) and
// what it writes (wdata[w-1:0]). A narrow request has one per lane
// (req_mask_<i>, req_wdata_<i>), a wide one one per bank slot.
type element struct {
	Mask, Wdata *hdl.Signal
}

// request is the narrow request channel: req_valid, req_write,
// req_mode[1:0], req_base[n-1:0], req_stride[n-1:0] and the lanes.
type request struct {
	Valid, Write, Mode, Base, Stride *hdl.Signal
	Lanes                            []element
}

// wideRequest is the wide channel: wide_valid, wide_write,
// wide_row[n-q-2:0] and one element per bank slot.
type wideRequest struct {
	Valid, Write, Row *hdl.Signal
	Slots             []element
}

// stage1 is the SAMS memory's own part of the request being served (the
// rest, and the handshake, are the split-access pipeline's): the narrow
// request's fields or the wide one's. Its registers are loaded by the
// handshake at the end of Build, because the AGU, the splitter and the
// banks read them first.
type stage1 struct {
	Wide, Mode, Base, Stride, Row, WideMask *hdl.Signal
	Wdata, WideWdata                        []*hdl.Signal
}

// lanePath is where the inbound path sends each lane: bank[q-1:0],
// row[n-q-2:0] and offset in the bank's two-element row.
type lanePath struct {
	Banks, Rows, Offsets []*hdl.Signal
}

func (p Memory) element(f hdl.Fields) element {
	return element{Mask: f("mask", 1), Wdata: f("wdata", p.W)}
}

func (p Memory) ports(m *hdl.Module) (request, wideRequest) {
	lanes, slots := 1<<uint(p.Q), 2<<uint(p.Q)
	f := m.InputFields("req")
	req := request{Valid: f("valid", 1), Write: f("write", 1), Mode: f("mode", 2), Base: f("base", p.N), Stride: f("stride", p.N)}
	for i := range lanes {
		req.Lanes = append(req.Lanes, p.element(m.InputFields("req", i)))
	}
	f = m.InputFields("wide")
	wide := wideRequest{Valid: f("valid", 1), Write: f("write", 1), Row: f("row", p.N-p.Q-1)}
	for j := range slots {
		wide.Slots = append(wide.Slots, p.element(m.InputFields("wide", j)))
	}
	return req, wide
}

func (p Memory) stage1(m *hdl.Module) stage1 {
	q, n, w := p.Q, p.N, p.W
	lanes, slots, rw := 1<<uint(q), 2<<uint(q), n-q-1
	r1 := stage1{
		Wide: m.Reg("r1_wide", 1), Mode: m.Reg("r1_mode", 2), Base: m.Reg("r1_base", n), Stride: m.Reg("r1_stride", n),
		Row: m.Reg("r1_row", rw), WideMask: m.Reg("r1_wide_mask", slots),
	}
	for i := range lanes {
		r1.Wdata = append(r1.Wdata, m.Reg(fmt.Sprintf("r1_wdata_%d", i), w))
	}
	for j := range slots {
		r1.WideWdata = append(r1.WideWdata, m.Reg(fmt.Sprintf("r1_wide_wdata_%d", j), w))
	}
	return r1
}

// inbound is the AGU and the ATU (thesis Fig. 4.5b): the bank, row and
// offset of every lane of the stage-1 request.
func (p Memory) inbound(m *hdl.Module, name string, r1 stage1) lanePath {
	q, n := p.Q, p.N
	lanes := 1 << uint(q)
	agu := m.Instance("agu", AGU{q, n}.Build(name+"_agu"))
	agu.Connect("base", r1.Base)
	agu.Connect("stride", r1.Stride)
	agu.Connect("mode", r1.Mode)
	family, nas := agu.Out("family"), agu.Out("nas")
	if p.Matched { // thesis 3.2.4: the layout is family q whatever the stride
		family = hdl.Mux(nas, family, m.ConstU(family.Width(), uint64(q)))
	}
	atu := m.Instance("atu", ATU{q, n, lanes}.Build(name+"_atu"))
	atu.Connect("family", family)
	atu.Connect("nas", nas)
	var path lanePath
	for i := range lanes {
		atu.Connect(fmt.Sprintf("addr_%d", i), agu.Out(fmt.Sprintf("addr_%d", i)))
		path.Banks = append(path.Banks, atu.Out(fmt.Sprintf("bank_%d", i)).Named(fmt.Sprintf("bank_%d", i)))
		path.Rows = append(path.Rows, atu.Out(fmt.Sprintf("row_%d", i)).Named(fmt.Sprintf("row_%d", i)))
		path.Offsets = append(path.Offsets, atu.Out(fmt.Sprintf("offset_%d", i)).Named(fmt.Sprintf("offset_%d", i)))
	}
	return path
}

// split chooses this cycle's sub-access: each bank serves the row of its
// lowest waiting lane (pending), and every waiting lane that wants that
// row is served. It returns the lanes served, one bit each.
func (p Memory) split(pending *hdl.Signal, path lanePath) []*hdl.Signal {
	lanes := 1 << uint(p.Q)
	chosen := make([]*hdl.Signal, lanes) // per bank
	for b := range lanes {
		wants := make([]*hdl.Signal, lanes)
		for i := range lanes {
			wants[i] = pending.Bit(i).And(path.Banks[i].EqConst(uint64(b)))
		}
		chosen[b] = hdl.OneHotSelect(lib.FirstOneHot(wants, false), path.Rows...)
	}
	served := make([]*hdl.Signal, lanes)
	for i := range lanes {
		served[i] = pending.Bit(i).And(path.Rows[i].Eq(hdl.Select(path.Banks[i], chosen...)))
	}
	return served
}

// Build makes the memory module called name; its sub-modules are called
// name_agu, name_atu, name_inswitch and name_outswitch. Stage 1, stage 2,
// the narrow responses and the handshake are the split-access pipeline's
// (units/internal/splitmem).
func (p Memory) Build(name string) *hdl.Module {
	q, w := p.Q, p.W
	lanes, slots := 1<<uint(q), 2<<uint(q)
	m := hdl.NewModule(name)
	req, wide := p.ports(m)
	pipe := splitmem.New(m, lanes)
	r1 := p.stage1(m)
	path := p.inbound(m, name, r1)

	// The conflict splitter: a narrow request stays in stage 1 while lanes
	// remain.
	servedBits := p.split(pipe.Pending, path)
	pipe.Split(servedBits)
	narrow := pipe.Valid.And(r1.Wide.Not())

	sw, swLanes := InSwitch{q, p.N, w}.build(name + "_inswitch")
	in := m.Instance("inswitch", sw)
	for i := range lanes {
		en := servedBits[i].And(narrow)
		hdl.ConnectRecord(in, swLanes[i], inLane{En: en, We: en.And(pipe.Write), Bank: path.Banks[i], Row: path.Rows[i], Offset: path.Offsets[i], Wdata: r1.Wdata[i]})
	}

	// The banks: per bank two memories, one per offset, so that each
	// element has its own write enable. The wide port bypasses the switch.
	wideWrites := pipe.Valid.And(r1.Wide).And(pipe.Write)
	rdata := make([]*hdl.Signal, slots)
	for j := range slots {
		b := j / 2
		row := hdl.Mux(r1.Wide, r1.Row, in.Out(fmt.Sprintf("bank_row_%d", b)))
		we := hdl.Mux(r1.Wide, wideWrites.And(r1.WideMask.Bit(j)), in.Out(fmt.Sprintf("slot_we_%d", j)))
		data := hdl.Mux(r1.Wide, r1.WideWdata[j], in.Out(fmt.Sprintf("slot_wdata_%d", j)))
		bank := m.Mem(fmt.Sprintf("bank%d_%d", b, j%2), p.N-q-1, w)
		bank.Write(row, data, we)
		rdata[j] = bank.ReadSync(row, nil)
	}

	// Stage 2: the outbound path, each register next to what it takes.
	s2 := pipe.Stage2()
	s2Wide := m.Reg("s2_wide", 1)
	s2Wide.Drive(r1.Wide)
	ow, owLanes := OutSwitch{q, w}.build(name + "_outswitch")
	out := m.Instance("outswitch", ow)
	for j := range slots {
		out.Connect(fmt.Sprintf("slot_rdata_%d", j), rdata[j])
	}
	for i := range lanes {
		back := OutSwitch{q, w}.lane(m.RegFields("s2", i))
		hdl.DriveRecord(back, outLane{Bank: path.Banks[i], Offset: path.Offsets[i]})
		hdl.ConnectRecord(out, owLanes[i], back)
	}

	p.respond(m, pipe, s2, s2Wide, out, rdata)
	p.handshake(m, pipe, req, wide, r1)
	return m
}

// respond: a narrow read collects its lanes over its sub-accesses and
// answers after the last (the pipeline's responses); a wide read answers
// at once. s2Wide is stage 2's r1_wide, out the outbound switch, rdata
// the banks' read data.
func (p Memory) respond(m *hdl.Module, pipe *splitmem.Pipeline, s2 splitmem.Stage2, s2Wide *hdl.Signal, out *hdl.Instance, rdata []*hdl.Signal) {
	w, lanes := p.W, 1<<uint(p.Q)
	data := make([]*hdl.Signal, lanes)
	for i := range lanes {
		data[i] = out.Out(fmt.Sprintf("lane_rdata_%d", i))
	}
	pipe.Respond(s2, s2.Read.And(s2Wide.Not()), data)
	wideRead := s2.Read.And(s2Wide)
	wideRespValid := m.Reg("wide_resp_valid_q", 1)
	wideRespValid.Drive(wideRead)
	m.Output("wide_resp_valid", 1).Drive(wideRespValid)
	for j, d := range rdata {
		q := m.Reg(fmt.Sprintf("wide_rdata_q_%d", j), w)
		m.If(wideRead, func() { q.Set(d) })
		m.Output(fmt.Sprintf("wide_rdata_%d", j), w).Drive(q)
	}
}

// handshake accepts requests into stage 1: a wide request goes first; a
// conflicting request holds stage 1 (ready low) until its last
// sub-access. Only a narrow request has lanes to wait for.
func (p Memory) handshake(m *hdl.Module, pipe *splitmem.Pipeline, req request, wide wideRequest, r1 stage1) {
	takeWide := pipe.Offer("wide", wide.Valid, nil)
	takeNarrow := pipe.Offer("req", req.Valid, wide.Valid)
	take := takeWide.Or(takeNarrow)
	masks := make([]*hdl.Signal, len(req.Lanes))
	for i, l := range req.Lanes {
		masks[i] = l.Mask
	}
	pipe.Accept(take, hdl.Mux(takeWide, wide.Write, req.Write), lib.Bus(masks).And(takeNarrow.Repl(len(masks))))
	m.If(take, func() { r1.Wide.Set(takeWide) })
	m.If(takeNarrow, func() {
		// Mode 01 (the wide port's mode) means NaS on the narrow port.
		r1.Mode.Set(hdl.Concat(req.Mode.Bit(1), req.Mode.Bit(0).And(req.Mode.Bit(1))))
		r1.Base.Set(req.Base)
		r1.Stride.Set(req.Stride)
		for i, l := range req.Lanes {
			r1.Wdata[i].Set(l.Wdata)
		}
	})
	m.If(takeWide, func() {
		wideMasks := make([]*hdl.Signal, len(wide.Slots))
		for j, s := range wide.Slots {
			wideMasks[j] = s.Mask
			r1.WideWdata[j].Set(s.Wdata)
		}
		r1.Row.Set(wide.Row)
		r1.WideMask.Set(lib.Bus(wideMasks))
	})
}
