package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// The data switches of thesis section 4.4.1: "the InSwitch is a
// 2^q x 2^(q+1) crossbar, while the OutSwitch is a 2^(q+1) x 2^q crossbar".
// A bank slot j = 2*bank + offset is one element of one module's two-element
// row.

// InSwitch routes lane requests to banks. Ports: per lane i
// lane_en_<i> (the lane takes part), lane_we_<i> (it writes),
// lane_bank_<i>[q-1:0], lane_row_<i>[n-q-2:0], lane_offset_<i>,
// lane_wdata_<i>[w-1:0] in; per bank b bank_row_<b>[n-q-2:0], per slot j
// slot_we_<j>, slot_wdata_<j>[w-1:0] out. Lanes that reach one bank share
// its row (the splitter sees to it); when several writing lanes reach one
// slot, the highest lane wins.
type InSwitch struct {
	Q, N, W int
}

// inLane is one lane's request into the InSwitch.
type inLane struct {
	en, we, bank, row, offset, wdata *hdl.Signal
}

// route builds the crossbar in m and returns the bank rows and the slot
// write enables and data.
func (p InSwitch) route(m *hdl.Module, lanes []inLane) (rows, we, wdata []*hdl.Signal) {
	banks := 1 << uint(p.Q)
	for b := range banks {
		hits := make([]*hdl.Signal, len(lanes))
		laneRows := make([]*hdl.Signal, len(lanes))
		for i, l := range lanes {
			hits[i] = l.en.And(l.bank.EqConst(uint64(b)))
			laneRows[i] = l.row
		}
		rows = append(rows, hdl.OneHotSelect(hdl.Concat(reverse(hits)...), laneRows...))
		for o := range 2 {
			writes := make([]*hdl.Signal, len(lanes))
			data := make([]*hdl.Signal, len(lanes))
			for i, l := range lanes {
				at := l.offset
				if o == 0 {
					at = at.Not()
				}
				writes[i] = hits[i].And(l.we).And(at)
				data[i] = l.wdata
			}
			we = append(we, hdl.Concat(writes...).RedOr())
			wdata = append(wdata, hdl.OneHotSelect(highestFirst(m, writes), data...))
		}
	}
	return rows, we, wdata
}

// highestFirst turns request bits into a one-hot select (bit i for lane i)
// of the highest requesting lane.
func highestFirst(m *hdl.Module, req []*hdl.Signal) *hdl.Signal {
	grant := make([]*hdl.Signal, len(req))
	above := m.ConstU(1, 0)
	for i := len(req) - 1; i >= 0; i-- {
		grant[i] = req[i].And(above.Not())
		above = above.Or(req[i])
	}
	return hdl.Concat(reverse(grant)...)
}

// Build makes the InSwitch module called name.
func (p InSwitch) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	var lanes []inLane
	for i := range 1 << uint(p.Q) {
		lanes = append(lanes, inLane{
			en:     m.Input(fmt.Sprintf("lane_en_%d", i), 1),
			we:     m.Input(fmt.Sprintf("lane_we_%d", i), 1),
			bank:   m.Input(fmt.Sprintf("lane_bank_%d", i), p.Q),
			row:    m.Input(fmt.Sprintf("lane_row_%d", i), p.N-p.Q-1),
			offset: m.Input(fmt.Sprintf("lane_offset_%d", i), 1),
			wdata:  m.Input(fmt.Sprintf("lane_wdata_%d", i), p.W),
		})
	}
	rows, we, wdata := p.route(m, lanes)
	for b, r := range rows {
		m.Output(fmt.Sprintf("bank_row_%d", b), p.N-p.Q-1).Drive(r)
	}
	for j := range we {
		m.Output(fmt.Sprintf("slot_we_%d", j), 1).Drive(we[j])
		m.Output(fmt.Sprintf("slot_wdata_%d", j), p.W).Drive(wdata[j])
	}
	return m
}

// OutSwitch routes bank read data back to lanes. Ports: per slot j
// slot_rdata_<j>[w-1:0], per lane i lane_bank_<i>[q-1:0] and
// lane_offset_<i> in; per lane lane_rdata_<i>[w-1:0] out.
type OutSwitch struct {
	Q, W int
}

// route builds the crossbar: lane i reads slot 2*bank_i + offset_i.
func (p OutSwitch) route(slots []*hdl.Signal, banks, offsets []*hdl.Signal) []*hdl.Signal {
	out := make([]*hdl.Signal, len(banks))
	for i := range banks {
		out[i] = hdl.Select(hdl.Concat(banks[i], offsets[i]), slots...)
	}
	return out
}

// Build makes the OutSwitch module called name.
func (p OutSwitch) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	var slots, banks, offsets []*hdl.Signal
	for j := range 2 << uint(p.Q) {
		slots = append(slots, m.Input(fmt.Sprintf("slot_rdata_%d", j), p.W))
	}
	for i := range 1 << uint(p.Q) {
		banks = append(banks, m.Input(fmt.Sprintf("lane_bank_%d", i), p.Q))
		offsets = append(offsets, m.Input(fmt.Sprintf("lane_offset_%d", i), 1))
	}
	for i, d := range p.route(slots, banks, offsets) {
		m.Output(fmt.Sprintf("lane_rdata_%d", i), p.W).Drive(d)
	}
	return m
}
