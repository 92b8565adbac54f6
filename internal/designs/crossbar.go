package designs

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// CrossbarSources is the number of sources of Crossbar designs.
const CrossbarSources = 8

// Crossbar routes CrossbarSources sources to banks by their 3-bit index,
// as a memory's issue stage sends each request to the bank it addresses
// (units/rsdmm): bank b's data and row are one-hot multiplexers over the
// sources whose select bit i is valid_i & (index_i == b). Several sources
// may address one bank (their data OR together); source 0's condition is
// the constant 1 and source 1's data the constant 0x5a. Beside it sit a
// routing of the same sources to only `few` banks by a 2-bit index, and
// one that sends source i to bank index_i - i (mod 8), which decodes a
// different index for each source. Compiled Go computes the 8-bank routing
// as a scatter (hdl/gocrossbar.go). Bank b's en_b (whether any source
// addresses it) and all_valid reduce buses of single bits, which compiled
// Go ORs and ANDs bit by bit (fuseSelects).
func Crossbar(name string, banks, few int) *hdl.Module {
	m := hdl.NewModule(name)
	valid := make([]*hdl.Signal, CrossbarSources)
	index := make([]*hdl.Signal, CrossbarSources)
	data := make([]*hdl.Signal, CrossbarSources)
	row := make([]*hdl.Signal, CrossbarSources)
	for i := range CrossbarSources {
		valid[i] = m.Input(fmt.Sprintf("valid%d", i), 1)
		index[i] = m.Input(fmt.Sprintf("index%d", i), 3)
		data[i] = m.Input(fmt.Sprintf("data%d", i), 32)
		row[i] = m.Input(fmt.Sprintf("row%d", i), 9)
	}
	valid[0] = m.ConstU(1, 1)
	data[1] = m.ConstU(32, 0x5a)
	for b := range banks {
		sel := make([]*hdl.Signal, CrossbarSources)
		for i := range sel {
			sel[i] = valid[i].And(index[i].EqConst(uint64(b)))
		}
		m.Output(fmt.Sprintf("data_b%d", b), 32).Drive(hdl.OneHotSelect(lib.Bus(sel), data...))
		m.Output(fmt.Sprintf("row_b%d", b), 9).Drive(hdl.OneHotSelect(lib.Bus(sel), row...))
		m.Output(fmt.Sprintf("en_b%d", b), 1).Drive(lib.Bus(sel).RedOr())
	}
	for b := range banks { // source i to bank b+i: not a crossbar of the indices
		sel := make([]*hdl.Signal, CrossbarSources)
		for i := range sel {
			sel[i] = valid[i].And(index[i].EqConst(uint64(b+i) % 8))
		}
		m.Output(fmt.Sprintf("rot_b%d", b), 32).Drive(hdl.OneHotSelect(lib.Bus(sel), data...))
	}
	m.Output("all_valid", 1).Drive(lib.Bus(valid).RedAnd())
	for b := range few {
		sel := make([]*hdl.Signal, CrossbarSources)
		for i := range sel {
			sel[i] = valid[i].And(index[i].Slice(1, 0).EqConst(uint64(b)))
		}
		m.Output(fmt.Sprintf("few_b%d", b), 32).Drive(hdl.OneHotSelect(lib.Bus(sel), data...))
	}
	return m
}

// PriorityCrossbar routes CrossbarSources sources to 8 banks of two slots
// each where one source wins each destination, as the SAMS memory serves
// the lowest waiting lane's row and its InSwitch lets the highest lane
// write a bank slot (thesis Fig. 4.3): first_b is the data of the lowest
// source with valid_i & (index_i == b), and last_b<b>_s<s> that of the
// highest with valid_i & (index_i == b) & we_i & (slot_i == s), the slot
// test a bit or its NOT. Each is a one-hot multiplexer over
// lib.FirstOneHot's grants, which compiled Go writes as a priority scatter
// (hdl/gocrossbar.go). Source 0's valid is the constant 1 and source 1's
// data the constant 0x5a, as in Crossbar.
func PriorityCrossbar(name string) *hdl.Module {
	m := hdl.NewModule(name)
	var valid, we, index, slot, data [CrossbarSources]*hdl.Signal
	for i := range CrossbarSources {
		valid[i] = m.Input(fmt.Sprintf("valid%d", i), 1)
		we[i] = m.Input(fmt.Sprintf("we%d", i), 1)
		index[i] = m.Input(fmt.Sprintf("index%d", i), 3)
		slot[i] = m.Input(fmt.Sprintf("slot%d", i), 1)
		data[i] = m.Input(fmt.Sprintf("data%d", i), 32)
	}
	valid[0] = m.ConstU(1, 1)
	data[1] = m.ConstU(32, 0x5a)
	for b := range 8 {
		wants := make([]*hdl.Signal, CrossbarSources)
		for i := range wants {
			wants[i] = valid[i].And(index[i].EqConst(uint64(b)))
		}
		m.Output(fmt.Sprintf("first_b%d", b), 32).Drive(hdl.OneHotSelect(lib.FirstOneHot(wants, false), data[:]...))
		for s := range 2 {
			writes := make([]*hdl.Signal, CrossbarSources)
			for i := range writes {
				at := slot[i]
				if s == 0 {
					at = at.Not()
				}
				writes[i] = wants[i].And(we[i]).And(at)
			}
			m.Output(fmt.Sprintf("last_b%d_s%d", b, s), 32).Drive(hdl.OneHotSelect(lib.FirstOneHot(writes, true), data[:]...))
		}
	}
	return m
}
