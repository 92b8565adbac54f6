package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// The data switches of thesis section 4.4.1: "the InSwitch is a
// 2^q x 2^(q+1) crossbar, while the OutSwitch is a 2^(q+1) x 2^q crossbar".
// A bank slot j = 2*bank + offset is one element of one module's two-element
// row.

// InSwitch routes lane requests to banks. Ports: per lane i the inLane
// record lane_<field>_<i> in; per bank b bank_row_<b>[n-q-2:0], per slot j
// slot_we_<j>, slot_wdata_<j>[w-1:0] out. Lanes that reach one bank share
// its row (the splitter sees to it); when several writing lanes reach one
// slot, the highest lane wins.
type InSwitch struct {
	Q, N, W int
}

// inLane is one lane's request into the InSwitch: whether the lane takes
// part (en) and writes (we), and where: bank[q-1:0], row[n-q-2:0], offset,
// with its write data wdata[w-1:0].
type inLane struct {
	En, We, Bank, Row, Offset, Wdata *hdl.Signal
}

// lane makes one lane's fields.
func (p InSwitch) lane(f hdl.Fields) inLane {
	return inLane{En: f("en", 1), We: f("we", 1), Bank: f("bank", p.Q), Row: f("row", p.N-p.Q-1), Offset: f("offset", 1), Wdata: f("wdata", p.W)}
}

// route builds the crossbar in m and returns the bank rows and the slot
// write enables and data.
func (p InSwitch) route(m *hdl.Module, lanes []inLane) (rows, we, wdata []*hdl.Signal) {
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

// Build makes the InSwitch module called name.
func (p InSwitch) Build(name string) *hdl.Module {
	m, _ := p.build(name)
	return m
}

// build makes the module and returns its lane input ports, which the
// module's users connect with hdl.ConnectRecord.
func (p InSwitch) build(name string) (*hdl.Module, []inLane) {
	m := hdl.NewModule(name)
	var lanes []inLane
	for i := range 1 << uint(p.Q) {
		lanes = append(lanes, p.lane(m.InputFields("lane", i)))
	}
	rows, we, wdata := p.route(m, lanes)
	for b, r := range rows {
		m.Output(fmt.Sprintf("bank_row_%d", b), p.N-p.Q-1).Drive(r)
	}
	for j := range we {
		m.Output(fmt.Sprintf("slot_we_%d", j), 1).Drive(we[j])
		m.Output(fmt.Sprintf("slot_wdata_%d", j), p.W).Drive(wdata[j])
	}
	return m, lanes
}

// OutSwitch routes bank read data back to lanes. Ports: per slot j
// slot_rdata_<j>[w-1:0], per lane i the outLane record lane_<field>_<i>
// in; per lane lane_rdata_<i>[w-1:0] out.
type OutSwitch struct {
	Q, W int
}

// outLane is where one lane reads: bank[q-1:0] and offset.
type outLane struct {
	Bank, Offset *hdl.Signal
}

// lane makes one lane's fields.
func (p OutSwitch) lane(f hdl.Fields) outLane {
	return outLane{Bank: f("bank", p.Q), Offset: f("offset", 1)}
}

// route builds the crossbar: lane i reads slot 2*bank_i + offset_i.
func (p OutSwitch) route(slots []*hdl.Signal, lanes []outLane) []*hdl.Signal {
	out := make([]*hdl.Signal, len(lanes))
	for i, l := range lanes {
		out[i] = hdl.Select(hdl.Concat(l.Bank, l.Offset), slots...)
	}
	return out
}

// Build makes the OutSwitch module called name.
func (p OutSwitch) Build(name string) *hdl.Module {
	m, _ := p.build(name)
	return m
}

// build makes the module and returns its lane input ports.
func (p OutSwitch) build(name string) (*hdl.Module, []outLane) {
	m := hdl.NewModule(name)
	var slots []*hdl.Signal
	for j := range 2 << uint(p.Q) {
		slots = append(slots, m.Input(fmt.Sprintf("slot_rdata_%d", j), p.W))
	}
	var lanes []outLane
	for i := range 1 << uint(p.Q) {
		lanes = append(lanes, p.lane(m.InputFields("lane", i)))
	}
	for i, d := range p.route(slots, lanes) {
		m.Output(fmt.Sprintf("lane_rdata_%d", i), p.W).Drive(d)
	}
	return m, lanes
}
