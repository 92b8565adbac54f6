package sams

import "github.com/parmem/parmem/hdl"

// Logic is the SAMS memory logic as thesis Table 4.2 measures it, without
// banks or pipeline registers: the inbound path (AGU -> ATU -> InSwitch,
// chained combinationally) and, unless InboundOnly, the OutSwitch beside
// it, fed by the ATU's bank and offset. LogicPorts are its ports.
type Logic struct {
	Q, N, W     int
	InboundOnly bool
}

// LogicPorts are the memory logic's ports.
type LogicPorts struct {
	// Base, Stride and Mode are the AGU's access (Table 4.1).
	Base   *hdl.Signal `doc:"[n-1:0] base address"`
	Stride *hdl.Signal `doc:"[n-1:0] stride"`
	Mode   *hdl.Signal `doc:"[1:0] {use_stride_family, use_stride} (Table 4.1)"`
	Write  *hdl.Signal `doc:"1 to write, 0 to read"`
	Lanes  []Element   `doc:"lane i"`
	// BankRow and Slots are the InSwitch's.
	BankRow []*hdl.Signal `doc:"[n-q-2:0] row bank i serves"`
	Slots   []SlotWrite   `doc:"slot i (bank i/2, offset i%2)"`
	// SlotRdata and Rdata are the OutSwitch's; none when InboundOnly.
	SlotRdata []*hdl.Signal `doc:"[w-1:0] read data of slot i"`
	Rdata     []*hdl.Signal `doc:"[w-1:0] read data of lane i"`
}

// Build makes the logic module called name.
func (p Logic) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the logic module called name and returns its ports; its
// parts are name_agu, name_atu, name_inswitch and name_outswitch.
func (p Logic) WithPorts(name string) (*hdl.Module, LogicPorts) {
	q, n, w := p.Q, p.N, p.W
	lanes := 1 << uint(q)
	m := hdl.NewModule(name)
	f := m.InputFields("")
	ports := LogicPorts{Base: f("base", n), Stride: f("stride", n), Mode: f("mode", 2), Write: f("write", 1)}
	aguMod, ag := AGU{q, n}.WithPorts(name + "_agu")
	agu := m.Instance("agu", aguMod)
	hdl.ConnectRecord(agu, []*hdl.Signal{ag.Base, ag.Stride, ag.Mode}, []*hdl.Signal{ports.Base, ports.Stride, ports.Mode})
	atuMod, at := ATU{q, n, lanes}.WithPorts(name + "_atu")
	atu := m.Instance("atu", atuMod)
	hdl.ConnectRecord(atu, []*hdl.Signal{at.Family, at.NaS}, hdl.OutRecord(agu, []*hdl.Signal{ag.Family, ag.NaS}))
	swMod, sw := InSwitch{q, n, w}.WithPorts(name + "_inswitch")
	in := m.Instance("inswitch", swMod)
	reads := make([]OutLane, lanes) // the ATU's bank and offset, for the OutSwitch
	for i := range lanes {
		hdl.ConnectRecord(atu, at.Addr[i], hdl.OutRecord(agu, ag.Addr[i]))
		reads[i] = OutLane{Bank: hdl.OutRecord(atu, at.Lanes[i].Bank), Offset: hdl.OutRecord(atu, at.Lanes[i].Offset)}
		lane := m.InputFields("", i)
		en := lane("mask", 1)
		req := InLane{En: en, We: en.And(ports.Write), Bank: reads[i].Bank, Row: hdl.OutRecord(atu, at.Lanes[i].Row), Offset: reads[i].Offset, Wdata: lane("wdata", w)}
		hdl.ConnectRecord(in, sw.Lanes[i], req)
		ports.Lanes = append(ports.Lanes, Element{Mask: en, Wdata: req.Wdata})
	}
	for b, r := range sw.BankRow {
		row := m.OutputFields("bank", b)("row", r.Width())
		row.Drive(hdl.OutRecord(in, r))
		ports.BankRow = append(ports.BankRow, row)
	}
	for j, sl := range sw.Slots { // each port beside the switch output it shows
		f := m.OutputFields("slot", j)
		we := f("we", 1)
		we.Drive(hdl.OutRecord(in, sl.We))
		wdata := f("wdata", w)
		wdata.Drive(hdl.OutRecord(in, sl.Wdata))
		ports.Slots = append(ports.Slots, SlotWrite{We: we, Wdata: wdata})
	}
	if !p.InboundOnly {
		p.outbound(m, name, reads, &ports)
	}
	return m, ports
}

// outbound places the OutSwitch, reading where the ATU placed each lane.
func (p Logic) outbound(m *hdl.Module, name string, reads []OutLane, ports *LogicPorts) {
	owMod, ow := OutSwitch{p.Q, p.W}.WithPorts(name + "_outswitch")
	out := m.Instance("outswitch", owMod)
	for j, sl := range ow.SlotRdata {
		d := m.InputFields("slot", j)("rdata", p.W)
		hdl.ConnectRecord(out, sl, d)
		ports.SlotRdata = append(ports.SlotRdata, d)
	}
	for i, r := range reads {
		hdl.ConnectRecord(out, ow.Lanes[i], r)
		d := m.OutputFields("", i)("rdata", p.W)
		d.Drive(hdl.OutRecord(out, ow.Rdata[i]))
		ports.Rdata = append(ports.Rdata, d)
	}
}
