package sams

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// The data switches of thesis section 4.4.1: "the InSwitch is a
// 2^q x 2^(q+1) crossbar, while the OutSwitch is a 2^(q+1) x 2^q crossbar".
// A bank slot j = 2*bank + offset is one element of one module's two-element
// row.

// InSwitch routes lane requests to banks; InSwitchPorts are its ports.
// Lanes that reach one bank share its row (the splitter sees to it); when
// several writing lanes reach one slot, the highest lane wins.
type InSwitch struct {
	Q, N, W int
}

// InLane is one lane's request into the InSwitch: whether the lane takes
// part and writes, and where, with its write data.
type InLane struct {
	En     *hdl.Signal `doc:"takes part"`
	We     *hdl.Signal `doc:"writes"`
	Bank   *hdl.Signal `doc:"[q-1:0] module (Eq. 3.1)"`
	Row    *hdl.Signal `doc:"[n-q-2:0] row (Eq. 3.2)"`
	Offset *hdl.Signal `doc:"offset in the module's row (Eq. 3.3)"`
	Wdata  *hdl.Signal `doc:"[w-1:0] write data"`
}

// lane makes one lane's fields.
func (p InSwitch) lane(f hdl.Fields) InLane {
	return InLane{En: f("en", 1), We: f("we", 1), Bank: f("bank", p.Q), Row: f("row", p.N-p.Q-1), Offset: f("offset", 1), Wdata: f("wdata", p.W)}
}

// route builds the crossbar in m and returns the bank rows and the slot
// write enables and data.
func (p InSwitch) route(m *hdl.Module, lanes []InLane) (rows, we, wdata []*hdl.Signal) {
	banks := 1 << uint(p.Q)
	for b := range banks {
		hits := make([]*hdl.Signal, len(lanes))
		laneRows := make([]*hdl.Signal, len(lanes))
		for i, l := range lanes {
			hits[i] = l.En.And(l.Bank.EqConst(uint64(b)))
			laneRows[i] = l.Row
		}
		rows = append(rows, hdl.OneHotSelect(lib.Bus(hits), laneRows...))
		for o := range 2 {
			writes := make([]*hdl.Signal, len(lanes))
			data := make([]*hdl.Signal, len(lanes))
			for i, l := range lanes {
				at := l.Offset
				if o == 0 {
					at = at.Not()
				}
				writes[i] = hits[i].And(l.We).And(at)
				data[i] = l.Wdata
			}
			we = append(we, hdl.Concat(writes...).RedOr())
			wdata = append(wdata, hdl.OneHotSelect(lib.FirstOneHot(writes, true), data...))
		}
	}
	return rows, we, wdata
}

// InSwitchPorts are the InSwitch's ports (thesis section 4.4.1: the
// 2^q x 2^(q+1) crossbar).
type InSwitchPorts struct {
	Lanes   []InLane      `doc:"lane i"`
	BankRow []*hdl.Signal `doc:"[n-q-2:0] row bank i serves"`
	Slots   []SlotWrite   `doc:"slot i (bank i/2, offset i%2)"`
}

// SlotWrite is one bank slot's write: enable and data.
type SlotWrite struct {
	We    *hdl.Signal `doc:"write enable"`
	Wdata *hdl.Signal `doc:"[w-1:0] write data"`
}

// slotWrite makes one slot's fields.
func slotWrite(f hdl.Fields, w int) SlotWrite {
	return SlotWrite{We: f("we", 1), Wdata: f("wdata", w)}
}

// Build makes the InSwitch module called name.
func (p InSwitch) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the InSwitch module called name and returns its ports.
func (p InSwitch) WithPorts(name string) (*hdl.Module, InSwitchPorts) {
	m := hdl.NewModule(name)
	var ports InSwitchPorts
	for i := range 1 << uint(p.Q) {
		ports.Lanes = append(ports.Lanes, p.lane(m.InputFields("lane", i)))
	}
	rows, we, wdata := p.route(m, ports.Lanes)
	ports.BankRow = m.OutputFields("bank").Vec("row", len(rows), p.N-p.Q-1)
	hdl.DriveRecord(ports.BankRow, rows)
	for j := range we {
		s := slotWrite(m.OutputFields("slot", j), p.W)
		hdl.DriveRecord(s, SlotWrite{We: we[j], Wdata: wdata[j]})
		ports.Slots = append(ports.Slots, s)
	}
	return m, ports
}

// OutSwitch routes bank read data back to lanes; OutSwitchPorts are its
// ports.
type OutSwitch struct {
	Q, W int
}

// OutLane is where one lane reads: module and offset.
type OutLane struct {
	Bank   *hdl.Signal `doc:"[q-1:0] module to read"`
	Offset *hdl.Signal `doc:"offset to read"`
}

// lane makes one lane's fields.
func (p OutSwitch) lane(f hdl.Fields) OutLane {
	return OutLane{Bank: f("bank", p.Q), Offset: f("offset", 1)}
}

// route builds the crossbar: lane i reads slot 2*bank_i + offset_i.
func (p OutSwitch) route(slots []*hdl.Signal, lanes []OutLane) []*hdl.Signal {
	out := make([]*hdl.Signal, len(lanes))
	for i, l := range lanes {
		out[i] = hdl.Select(hdl.Concat(l.Bank, l.Offset), slots...)
	}
	return out
}

// OutSwitchPorts are the OutSwitch's ports (thesis section 4.4.1: the
// 2^(q+1) x 2^q crossbar).
type OutSwitchPorts struct {
	SlotRdata []*hdl.Signal `doc:"[w-1:0] read data of slot i (bank i/2, offset i%2)"`
	Lanes     []OutLane     `doc:"lane i"`
	Rdata     []*hdl.Signal `doc:"[w-1:0] read data of lane i"`
}

// Build makes the OutSwitch module called name.
func (p OutSwitch) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the OutSwitch module called name and returns its ports.
func (p OutSwitch) WithPorts(name string) (*hdl.Module, OutSwitchPorts) {
	m := hdl.NewModule(name)
	lanes := 1 << uint(p.Q)
	ports := OutSwitchPorts{SlotRdata: m.InputFields("slot").Vec("rdata", 2*lanes, p.W)}
	for i := range lanes {
		ports.Lanes = append(ports.Lanes, p.lane(m.InputFields("lane", i)))
	}
	rdata := p.route(ports.SlotRdata, ports.Lanes)
	ports.Rdata = m.OutputFields("lane").Vec("rdata", lanes, p.W)
	hdl.DriveRecord(ports.Rdata, rdata)
	return m, ports
}
