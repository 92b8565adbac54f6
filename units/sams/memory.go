package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
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

// Build makes the memory module called name; its sub-modules are called
// name_agu, name_atu, name_inswitch and name_outswitch.
func (p Memory) Build(name string) *hdl.Module {
	q, n, w := p.Q, p.N, p.W
	lanes, slots, rw := 1<<uint(q), 2<<uint(q), n-q-1
	m := hdl.NewModule(name)

	reqValid, reqWrite := m.Input("req_valid", 1), m.Input("req_write", 1)
	reqMode, reqBase, reqStride := m.Input("req_mode", 2), m.Input("req_base", n), m.Input("req_stride", n)
	var reqMask, reqData []*hdl.Signal
	for i := range lanes {
		reqMask = append(reqMask, m.Input(fmt.Sprintf("req_mask_%d", i), 1))
		reqData = append(reqData, m.Input(fmt.Sprintf("req_wdata_%d", i), w))
	}
	wideValid, wideWrite, wideRow := m.Input("wide_valid", 1), m.Input("wide_write", 1), m.Input("wide_row", rw)
	var wideMask, wideData []*hdl.Signal
	for j := range slots {
		wideMask = append(wideMask, m.Input(fmt.Sprintf("wide_mask_%d", j), 1))
		wideData = append(wideData, m.Input(fmt.Sprintf("wide_wdata_%d", j), w))
	}

	// Stage 1: the request being served.
	r1Valid, r1Wide, r1Write := m.Reg("r1_valid", 1), m.Reg("r1_wide", 1), m.Reg("r1_write", 1)
	r1Mode, r1Base, r1Stride := m.Reg("r1_mode", 2), m.Reg("r1_base", n), m.Reg("r1_stride", n)
	r1Row, r1WideMask := m.Reg("r1_row", rw), m.Reg("r1_wide_mask", slots)
	pending, first := m.Reg("pending", lanes), m.Reg("first", 1)
	r1Data := make([]*hdl.Signal, lanes)
	for i := range r1Data {
		r1Data[i] = m.Reg(fmt.Sprintf("r1_wdata_%d", i), w)
	}
	r1WideData := make([]*hdl.Signal, slots)
	for j := range r1WideData {
		r1WideData[j] = m.Reg(fmt.Sprintf("r1_wide_wdata_%d", j), w)
	}

	// Inbound path: AGU, then ATU.
	agu := m.Instance("agu", AGU{q, n}.Build(name+"_agu"))
	agu.Connect("base", r1Base)
	agu.Connect("stride", r1Stride)
	agu.Connect("mode", r1Mode)
	family, nas := agu.Out("family"), agu.Out("nas")
	if p.Matched { // thesis 3.2.4: the layout is family q whatever the stride
		family = hdl.Mux(nas, family, m.ConstU(family.Width(), uint64(q)))
	}
	atu := m.Instance("atu", ATU{q, n, lanes}.Build(name+"_atu"))
	atu.Connect("family", family)
	atu.Connect("nas", nas)
	banks, rows, offsets := make([]*hdl.Signal, lanes), make([]*hdl.Signal, lanes), make([]*hdl.Signal, lanes)
	for i := range lanes {
		atu.Connect(fmt.Sprintf("addr_%d", i), agu.Out(fmt.Sprintf("addr_%d", i)))
		banks[i] = atu.Out(fmt.Sprintf("bank_%d", i)).Named(fmt.Sprintf("bank_%d", i))
		rows[i] = atu.Out(fmt.Sprintf("row_%d", i)).Named(fmt.Sprintf("row_%d", i))
		offsets[i] = atu.Out(fmt.Sprintf("offset_%d", i)).Named(fmt.Sprintf("offset_%d", i))
	}

	// Conflict splitter: each bank serves the row of its lowest waiting lane.
	chosen := make([]*hdl.Signal, lanes) // per bank
	for b := range lanes {
		wants := make([]*hdl.Signal, lanes)
		for i := range lanes {
			wants[i] = pending.Bit(i).And(banks[i].EqConst(uint64(b)))
		}
		lowest := make([]*hdl.Signal, lanes)
		below := m.ConstU(1, 0)
		for i := range lanes {
			lowest[i] = wants[i].And(below.Not())
			below = below.Or(wants[i])
		}
		chosen[b] = hdl.OneHotSelect(hdl.Concat(reverse(lowest)...), rows...)
	}
	servedBits := make([]*hdl.Signal, lanes)
	for i := range lanes {
		servedBits[i] = pending.Bit(i).And(rows[i].Eq(hdl.Select(banks[i], chosen...)))
	}
	served := hdl.Concat(reverse(servedBits)...).Named("served")
	remaining := pending.And(served.Not())
	narrow := r1Valid.And(r1Wide.Not())
	stall := narrow.And(remaining.RedOr()).Named("conflict_stall")

	in := m.Instance("inswitch", InSwitch{q, n, w}.Build(name+"_inswitch"))
	for i := range lanes {
		en := servedBits[i].And(narrow)
		in.Connect(fmt.Sprintf("lane_en_%d", i), en)
		in.Connect(fmt.Sprintf("lane_we_%d", i), en.And(r1Write))
		in.Connect(fmt.Sprintf("lane_bank_%d", i), banks[i])
		in.Connect(fmt.Sprintf("lane_row_%d", i), rows[i])
		in.Connect(fmt.Sprintf("lane_offset_%d", i), offsets[i])
		in.Connect(fmt.Sprintf("lane_wdata_%d", i), r1Data[i])
	}

	// The banks: per bank two memories, one per offset, so that each
	// element has its own write enable. The wide port bypasses the switch.
	wideWrites := r1Valid.And(r1Wide).And(r1Write)
	rdata := make([]*hdl.Signal, slots)
	for j := range slots {
		b := j / 2
		row := hdl.Mux(r1Wide, r1Row, in.Out(fmt.Sprintf("bank_row_%d", b)))
		we := hdl.Mux(r1Wide, wideWrites.And(r1WideMask.Bit(j)), in.Out(fmt.Sprintf("slot_we_%d", j)))
		data := hdl.Mux(r1Wide, r1WideData[j], in.Out(fmt.Sprintf("slot_wdata_%d", j)))
		bank := m.Mem(fmt.Sprintf("bank%d_%d", b, j%2), rw, w)
		bank.Write(row, data, we)
		rdata[j] = bank.ReadSync(row, nil)
	}

	// Stage 2: the outbound path.
	s2Read, s2Wide, s2First, s2Last := m.Reg("s2_read", 1), m.Reg("s2_wide", 1), m.Reg("s2_first", 1), m.Reg("s2_last", 1)
	s2Served := m.Reg("s2_served", lanes)
	s2Read.Drive(r1Valid.And(r1Write.Not()))
	s2Wide.Drive(r1Wide)
	s2First.Drive(first)
	s2Last.Drive(stall.Not())
	s2Served.Drive(served)
	out := m.Instance("outswitch", OutSwitch{q, w}.Build(name+"_outswitch"))
	for j := range slots {
		out.Connect(fmt.Sprintf("slot_rdata_%d", j), rdata[j])
	}
	for i := range lanes {
		s2Bank, s2Offset := m.Reg(fmt.Sprintf("s2_bank_%d", i), q), m.Reg(fmt.Sprintf("s2_offset_%d", i), 1)
		s2Bank.Drive(banks[i])
		s2Offset.Drive(offsets[i])
		out.Connect(fmt.Sprintf("lane_bank_%d", i), s2Bank)
		out.Connect(fmt.Sprintf("lane_offset_%d", i), s2Offset)
	}
	narrowRead := s2Read.And(s2Wide.Not())
	respValid := m.Reg("resp_valid_q", 1)
	respValid.Drive(narrowRead.And(s2Last))
	m.Output("resp_valid", 1).Drive(respValid)
	zero := m.ConstU(w, 0)
	for i := range lanes {
		coll := m.Reg(fmt.Sprintf("resp_rdata_q_%d", i), w)
		kept := hdl.Mux(s2First, zero, coll) // masked lanes read as 0
		coll.Drive(hdl.Mux(narrowRead, hdl.Mux(s2Served.Bit(i), out.Out(fmt.Sprintf("lane_rdata_%d", i)), kept), coll))
		m.Output(fmt.Sprintf("resp_rdata_%d", i), w).Drive(coll)
	}
	wideRead := s2Read.And(s2Wide)
	wideRespValid := m.Reg("wide_resp_valid_q", 1)
	wideRespValid.Drive(wideRead)
	m.Output("wide_resp_valid", 1).Drive(wideRespValid)
	for j := range slots {
		d := m.Reg(fmt.Sprintf("wide_rdata_q_%d", j), w)
		d.Drive(rdata[j])
		d.Enable(wideRead)
		m.Output(fmt.Sprintf("wide_rdata_%d", j), w).Drive(d)
	}

	// Handshakes and stage-1 loading. A wide request goes first.
	wideReady := stall.Not()
	reqReady := stall.Not().And(wideValid.Not())
	m.Output("wide_ready", 1).Drive(wideReady)
	m.Output("req_ready", 1).Drive(reqReady)
	takeWide, takeNarrow := wideValid.And(wideReady), reqValid.And(reqReady)
	take := takeWide.Or(takeNarrow)
	r1Valid.Drive(stall.Or(take))
	r1Wide.Drive(takeWide)
	r1Wide.Enable(take)
	r1Write.Drive(hdl.Mux(takeWide, wideWrite, reqWrite))
	r1Write.Enable(take)
	// Mode 01 (the wide port's mode) means NaS on the narrow port.
	r1Mode.Drive(hdl.Concat(reqMode.Bit(1), reqMode.Bit(0).And(reqMode.Bit(1))))
	for _, r := range []*hdl.Signal{r1Mode, r1Base, r1Stride} {
		r.Enable(takeNarrow)
	}
	r1Base.Drive(reqBase)
	r1Stride.Drive(reqStride)
	for i := range lanes {
		r1Data[i].Drive(reqData[i])
		r1Data[i].Enable(takeNarrow)
	}
	r1Row.Drive(wideRow)
	r1Row.Enable(takeWide)
	r1WideMask.Drive(hdl.Concat(reverse(wideMask)...))
	r1WideMask.Enable(takeWide)
	for j := range slots {
		r1WideData[j].Drive(wideData[j])
		r1WideData[j].Enable(takeWide)
	}
	pending.Drive(hdl.Mux(stall, remaining, hdl.Concat(reverse(reqMask)...).And(takeNarrow.Repl(lanes))))
	first.Drive(stall.Not())
	return m
}
