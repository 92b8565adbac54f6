package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// Logic is the SAMS memory logic as thesis Table 4.2 measures it, without
// banks or pipeline registers: the inbound path (AGU -> ATU -> InSwitch,
// chained combinationally) and, unless InboundOnly, the OutSwitch beside
// it, fed by the ATU's bank and offset. Ports: base, stride, mode, write,
// mask_<i>, wdata_<i> in, bank_row_<b>, slot_we_<j>, slot_wdata_<j> out;
// with the OutSwitch also slot_rdata_<j> in and rdata_<i> out.
type Logic struct {
	Q, N, W     int
	InboundOnly bool
}

// Build makes the logic module called name; its parts are name_agu,
// name_atu, name_inswitch and name_outswitch.
func (p Logic) Build(name string) *hdl.Module {
	q, n, w := p.Q, p.N, p.W
	lanes, slots := 1<<uint(q), 2<<uint(q)
	m := hdl.NewModule(name)
	base, stride, mode, write := m.Input("base", n), m.Input("stride", n), m.Input("mode", 2), m.Input("write", 1)
	agu := m.Instance("agu", AGU{q, n}.Build(name+"_agu"))
	agu.Connect("base", base)
	agu.Connect("stride", stride)
	agu.Connect("mode", mode)
	atu := m.Instance("atu", ATU{q, n, lanes}.Build(name+"_atu"))
	atu.Connect("family", agu.Out("family"))
	atu.Connect("nas", agu.Out("nas"))
	sw, swLanes := InSwitch{q, n, w}.build(name + "_inswitch")
	in := m.Instance("inswitch", sw)
	banks, offsets := make([]*hdl.Signal, lanes), make([]*hdl.Signal, lanes)
	for i := range lanes {
		atu.Connect(fmt.Sprintf("addr_%d", i), agu.Out(fmt.Sprintf("addr_%d", i)))
		banks[i], offsets[i] = atu.Out(fmt.Sprintf("bank_%d", i)), atu.Out(fmt.Sprintf("offset_%d", i))
		en := m.Input(fmt.Sprintf("mask_%d", i), 1)
		hdl.ConnectRecord(in, swLanes[i], inLane{En: en, We: en.And(write), Bank: banks[i], Row: atu.Out(fmt.Sprintf("row_%d", i)),
			Offset: offsets[i], Wdata: m.Input(fmt.Sprintf("wdata_%d", i), w)})
	}
	for b := range lanes {
		m.Output(fmt.Sprintf("bank_row_%d", b), n-q-1).Drive(in.Out(fmt.Sprintf("bank_row_%d", b)))
	}
	for j := range slots {
		m.Output(fmt.Sprintf("slot_we_%d", j), 1).Drive(in.Out(fmt.Sprintf("slot_we_%d", j)))
		m.Output(fmt.Sprintf("slot_wdata_%d", j), w).Drive(in.Out(fmt.Sprintf("slot_wdata_%d", j)))
	}
	if p.InboundOnly {
		return m
	}
	ow, owLanes := OutSwitch{q, w}.build(name + "_outswitch")
	out := m.Instance("outswitch", ow)
	for j := range slots {
		out.Connect(fmt.Sprintf("slot_rdata_%d", j), m.Input(fmt.Sprintf("slot_rdata_%d", j), w))
	}
	for i := range lanes {
		hdl.ConnectRecord(out, owLanes[i], outLane{Bank: banks[i], Offset: offsets[i]})
		m.Output(fmt.Sprintf("rdata_%d", i), w).Drive(out.Out(fmt.Sprintf("lane_rdata_%d", i)))
	}
	return m
}
