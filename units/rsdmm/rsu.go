package rsdmm

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// RSUBlock is the rsdmm-rsu unit: the Random Shift Unit of Figure 1 (C)
// and section V (contract rsdmm-rsu). Every lane's address j*w + k leaves
// as j*w + (k + r_j) mod w. Without Hash, r_j is entry j of a table of
// 2^(ab-lw) shifts that every lane reads (lanes read ports); with Hash,
// r_j is the XOR of key_b over the set bits b of j (H3), keys reset to
// splitmix64(Seed)'s top lw bits.
//
//	clk, rst; in addr_<i>[ab-1:0], out saddr_<i>[ab-1:0] for i < lanes
//	in tbl_we, tbl_idx, tbl_val[lw-1:0]: a table entry, or a key, written at the edge
type RSUBlock struct {
	LW, AB, Lanes int
	Hash          bool
	Seed          uint64
}

// idxWidth is tbl_idx's width: the row bits for the table, XB(ab-lw)
// (the bits to hold ab-lw-1, at least 1) for the keys.
func (c RSUBlock) idxWidth() int {
	if c.Hash {
		return lib.IndexWidth(c.AB - c.LW)
	}
	return c.AB - c.LW
}

// Build makes the module called name.
func (c RSUBlock) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	we, idx, val := m.Input("tbl_we", 1), m.Input("tbl_idx", c.idxWidth()), m.Input("tbl_val", c.LW)
	shiftOf := c.table(m, we, idx, val)
	if c.Hash {
		shiftOf = c.keys(m, we, idx, val)
	}
	for i := range c.Lanes {
		a := m.Input(fmt.Sprintf("addr_%d", i), c.AB)
		j, k := a.Slice(c.AB-1, c.LW), a.Slice(c.LW-1, 0)
		m.Output(fmt.Sprintf("saddr_%d", i), c.AB).Drive(hdl.Concat(j, k.Add(shiftOf(j)))) // (k + r_j) mod w
	}
	return m
}

// table is the paper's r_0, r_1, ...: a memory written by the port, read
// by every lane. It is built only without Hash.
func (c RSUBlock) table(m *hdl.Module, we, idx, val *hdl.Signal) func(j *hdl.Signal) *hdl.Signal {
	if c.Hash {
		return nil
	}
	t := m.Mem("shifts", c.AB-c.LW, c.LW)
	t.Write(idx, val, we)
	return t.Read
}

// keys are the H3 keys, one register per row bit, reset to splitmix64's
// outputs; a write to an index past the row bits is ignored.
func (c RSUBlock) keys(m *hdl.Module, we, idx, val *hdl.Signal) func(j *hdl.Signal) *hdl.Signal {
	init := HashKeys(c.LW, c.AB-c.LW, c.Seed)
	keys := make([]*hdl.Signal, len(init))
	for b, k := range init {
		keys[b] = m.RegInit(fmt.Sprintf("key_%d", b), hdl.MustU(c.LW, uint64(k)))
		m.If(we.And(idx.EqConst(uint64(b))), func() { keys[b].Set(val) })
	}
	return func(j *hdl.Signal) *hdl.Signal {
		r := m.ConstU(c.LW, 0)
		for b, k := range keys {
			r = r.Xor(k.And(j.Bit(b).Repl(c.LW)))
		}
		return r
	}
}
