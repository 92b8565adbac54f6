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
// writes, and the wide port. MemoryPorts are its ports: DESIGN.md's
// (sams) plus the wide channel.
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

// Element is one element of a request: whether it takes part and what it
// writes. A narrow request has one per lane, a wide one one per bank slot.
type Element struct {
	Mask  *hdl.Signal `doc:"takes part (mask)"`
	Wdata *hdl.Signal `doc:"[w-1:0] write data"`
}

// Request is the narrow request channel's payload: the AGU's access and
// the lanes.
type Request struct {
	Write  *hdl.Signal `doc:"1 to write, 0 to read"`
	Mode   *hdl.Signal `doc:"[1:0] as sams-agu's (Table 4.1); 01 means 00 here"`
	Base   *hdl.Signal `doc:"[n-1:0] base address"`
	Stride *hdl.Signal `doc:"[n-1:0] stride"`
	Lanes  []Element   `doc:"lane i"`
}

// WideRequest is the wide channel's payload: one row of every bank, one
// element per bank slot.
type WideRequest struct {
	Write *hdl.Signal `doc:"1 to write, 0 to read"`
	Row   *hdl.Signal `doc:"[n-q-2:0] row of every bank"`
	Slots []Element   `doc:"slot i (bank i/2, offset i%2)"`
}

// Response is the narrow response channel: valid and one read data per
// lane.
type Response = splitmem.Response

// WideResponse is the wide response channel: valid and one read data per
// bank slot.
type WideResponse struct {
	Valid *hdl.Signal   `doc:"valid"`
	Rdata []*hdl.Signal `doc:"[w-1:0] read data of slot i (bank i/2, offset i%2)"`
}

// MemoryPorts are the memory's ports (DESIGN.md, sams, and the wide
// channel; see Memory). The requests are streams; the responses have no
// back-pressure.
type MemoryPorts struct {
	Req      hdl.Stream[Request]     `doc:"request"`
	Wide     hdl.Stream[WideRequest] `doc:"wide request"`
	Resp     Response                `doc:"response"`
	WideResp WideResponse            `doc:"wide response"`
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

// element makes one element's fields.
func element(f hdl.Fields, w int) Element {
	return Element{Mask: f("mask", 1), Wdata: f("wdata", w)}
}

// inputs makes the requests' inputs, valid and payload; their ready
// outputs come last, from the handshake.
func (p Memory) inputs(m *hdl.Module) (req hdl.Stream[Request], wide hdl.Stream[WideRequest]) {
	lanes, slots := 1<<uint(p.Q), 2<<uint(p.Q)
	f := m.InputFields("req")
	req.Valid = f("valid", 1)
	req.Payload = Request{Write: f("write", 1), Mode: f("mode", 2), Base: f("base", p.N), Stride: f("stride", p.N)}
	for i := range lanes {
		req.Payload.Lanes = append(req.Payload.Lanes, element(m.InputFields("req", i), p.W))
	}
	f = m.InputFields("wide")
	wide.Valid = f("valid", 1)
	wide.Payload = WideRequest{Write: f("write", 1), Row: f("row", p.N-p.Q-1)}
	for j := range slots {
		wide.Payload.Slots = append(wide.Payload.Slots, element(m.InputFields("wide", j), p.W))
	}
	return req, wide
}

func (p Memory) stage1(m *hdl.Module) stage1 {
	q, n, w := p.Q, p.N, p.W
	lanes, slots, rw := 1<<uint(q), 2<<uint(q), n-q-1
	f := m.RegFields("r1")
	return stage1{
		Wide: f("wide", 1), Mode: f("mode", 2), Base: f("base", n), Stride: f("stride", n),
		Row: f("row", rw), WideMask: f("wide_mask", slots),
		Wdata: f.Vec("wdata", lanes, w), WideWdata: f.Vec("wide_wdata", slots, w),
	}
}

// inbound is the AGU and the ATU (thesis Fig. 4.5b): the bank, row and
// offset of every lane of the stage-1 request.
func (p Memory) inbound(m *hdl.Module, name string, r1 stage1) lanePath {
	q, n := p.Q, p.N
	lanes := 1 << uint(q)
	aguMod, ag := AGU{q, n}.WithPorts(name + "_agu")
	agu := m.Instance("agu", aguMod)
	hdl.ConnectRecord(agu, []*hdl.Signal{ag.Base, ag.Stride, ag.Mode}, []*hdl.Signal{r1.Base, r1.Stride, r1.Mode})
	family, nas := hdl.OutRecord(agu, ag.Family), hdl.OutRecord(agu, ag.NaS)
	if p.Matched { // thesis 3.2.4: the layout is family q whatever the stride
		family = hdl.Mux(nas, family, m.ConstU(family.Width(), uint64(q)))
	}
	atuMod, at := ATU{q, n, lanes}.WithPorts(name + "_atu")
	atu := m.Instance("atu", atuMod)
	hdl.ConnectRecord(atu, []*hdl.Signal{at.Family, at.NaS}, []*hdl.Signal{family, nas})
	var path lanePath
	for i, sub := range at.Lanes {
		hdl.ConnectRecord(atu, at.Addr[i], hdl.OutRecord(agu, ag.Addr[i]))
		// Each lane's place as the parent's wires bank_<i>, row_<i>, offset_<i>.
		path.Banks = append(path.Banks, hdl.OutRecord(atu, sub.Bank).Named(sub.Bank.Name()))
		path.Rows = append(path.Rows, hdl.OutRecord(atu, sub.Row).Named(sub.Row.Name()))
		path.Offsets = append(path.Offsets, hdl.OutRecord(atu, sub.Offset).Named(sub.Offset.Name()))
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
func (p Memory) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the memory module called name (see Build) and returns
// its ports.
func (p Memory) WithPorts(name string) (*hdl.Module, MemoryPorts) {
	q, w := p.Q, p.W
	lanes, slots := 1<<uint(q), 2<<uint(q)
	m := hdl.NewModule(name)
	var ports MemoryPorts
	ports.Req, ports.Wide = p.inputs(m)
	pipe := splitmem.New(m, lanes)
	r1 := p.stage1(m)
	path := p.inbound(m, name, r1)

	// The conflict splitter: a narrow request stays in stage 1 while lanes
	// remain.
	servedBits := p.split(pipe.Pending, path)
	pipe.Split(servedBits)
	narrow := pipe.Valid.And(r1.Wide.Not())

	swMod, sw := InSwitch{q, p.N, w}.WithPorts(name + "_inswitch")
	in := m.Instance("inswitch", swMod)
	for i := range lanes {
		en := servedBits[i].And(narrow)
		hdl.ConnectRecord(in, sw.Lanes[i], InLane{En: en, We: en.And(pipe.Write), Bank: path.Banks[i], Row: path.Rows[i], Offset: path.Offsets[i], Wdata: r1.Wdata[i]})
	}

	// The banks: per bank two memories, one per offset, so that each
	// element has its own write enable. The wide port bypasses the switch.
	wideWrites := pipe.Valid.And(r1.Wide).And(pipe.Write)
	rdata := make([]*hdl.Signal, slots)
	for j := range slots {
		b := j / 2
		row := hdl.Mux(r1.Wide, r1.Row, hdl.OutRecord(in, sw.BankRow[b]))
		we := hdl.Mux(r1.Wide, wideWrites.And(r1.WideMask.Bit(j)), hdl.OutRecord(in, sw.Slots[j].We))
		data := hdl.Mux(r1.Wide, r1.WideWdata[j], hdl.OutRecord(in, sw.Slots[j].Wdata))
		bank := m.Mem(fmt.Sprintf("bank%d_%d", b, j%2), p.N-q-1, w)
		bank.Write(row, data, we)
		rdata[j] = bank.ReadSync(row, nil)
	}

	// Stage 2: the outbound path, each register next to what it takes.
	s2 := pipe.Stage2()
	s2Wide := m.Reg("s2_wide", 1)
	s2Wide.Drive(r1.Wide)
	owMod, ow := OutSwitch{q, w}.WithPorts(name + "_outswitch")
	out := m.Instance("outswitch", owMod)
	hdl.ConnectRecord(out, ow.SlotRdata, rdata)
	for i := range lanes {
		back := OutSwitch{q, w}.lane(m.RegFields("s2", i))
		hdl.DriveRecord(back, OutLane{Bank: path.Banks[i], Offset: path.Offsets[i]})
		hdl.ConnectRecord(out, ow.Lanes[i], back)
	}

	ports.Resp, ports.WideResp = p.respond(m, pipe, s2, s2Wide, hdl.OutRecord(out, ow.Rdata), rdata)
	ports.Wide.Ready, ports.Req.Ready = p.handshake(m, pipe, ports.Req, ports.Wide, r1)
	pipe.Properties(s2, ports.WideResp.Valid)
	p.properties(m, pipe, r1, ports)
	return m, ports
}

// properties states the memory's own promises beside the pipeline's
// (splitmem) and covers the wide port's cases. Without Matched every
// access is conflict-free (Theorem 2: a strided access in the layout of
// its stride's family, a unit-stride one in every layout, thesis appendix
// A), so the splitter never stalls; Matched layouts conflict for strides
// outside Corollary 1's set, and the stall is covered. A wide request
// bypasses the splitter (Fig. 4.5b: it moves one row of every bank), so
// no lanes wait while stage 1 holds one; it goes first when both are
// offered.
func (p Memory) properties(m *hdl.Module, pipe *splitmem.Pipeline, r1 stage1, ports MemoryPorts) {
	if p.Matched {
		pipe.CoverConflicts()
	} else {
		m.Assert(pipe.Stall.Not(), "conflict_free", "an access conflicts in the layout of its stride's family (Theorem 2)")
	}
	lib.NeverBoth(m, r1.Wide, pipe.Pending.RedOr(), "wide_has_no_waiting_lanes", "no lanes wait while stage 1 holds a wide request")
	m.Cover(pipe.Valid.And(r1.Wide).And(pipe.Write), "wide_write")
	m.Cover(ports.WideResp.Valid, "wide_response")
	m.Cover(ports.Wide.Valid.And(ports.Req.Valid).And(ports.Wide.Ready), "wide_goes_first")
}

// respond: a narrow read collects its lanes over its sub-accesses and
// answers after the last (the pipeline's responses); a wide read answers
// at once. s2Wide is stage 2's r1_wide, data the outbound switch's lanes,
// rdata the banks' read data.
func (p Memory) respond(m *hdl.Module, pipe *splitmem.Pipeline, s2 splitmem.Stage2, s2Wide *hdl.Signal, data, rdata []*hdl.Signal) (narrow Response, wide WideResponse) {
	narrow = pipe.Respond(s2, s2.Read.And(s2Wide.Not()), data)
	wideRead := s2.Read.And(s2Wide)
	wideRespValid := m.Reg("wide_resp_valid_q", 1)
	wideRespValid.Drive(wideRead)
	wide.Valid = m.Output("wide_resp_valid", 1)
	wide.Valid.Drive(wideRespValid)
	for j, d := range rdata { // each register beside its port
		q := m.RegFields("wide_rdata", j)("q", p.W)
		m.If(wideRead, func() { q.Set(d) })
		wide.Rdata = append(wide.Rdata, m.OutputFields("wide", j)("rdata", p.W))
		wide.Rdata[j].Drive(q)
	}
	return narrow, wide
}

// handshake accepts requests into stage 1: a wide request goes first; a
// conflicting request holds stage 1 (ready low) until its last
// sub-access. Only a narrow request has lanes to wait for. It returns the
// ready ports.
func (p Memory) handshake(m *hdl.Module, pipe *splitmem.Pipeline, reqIn hdl.Stream[Request], wideIn hdl.Stream[WideRequest], r1 stage1) (wideReady, reqReady *hdl.Signal) {
	takeWide, wideReady := pipe.Offer("wide", wideIn.Valid, nil)
	takeNarrow, reqReady := pipe.Offer("req", reqIn.Valid, wideIn.Valid)
	req, wide := reqIn.Payload, wideIn.Payload
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
	return wideReady, reqReady
}
