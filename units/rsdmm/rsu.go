package rsdmm

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// RSUBlock is the rsdmm-rsu unit: the Random Shift Unit of Figure 1 (C)
// and section V (contract rsdmm-rsu). Every lane's address j*w + k leaves
// as j*w + (k + r_j) mod w. Without Hash, r_j is entry j of a table of
// 2^(ab-lw) shifts that every lane reads (lanes read ports); with Hash,
// r_j is the XOR of key_b over the set bits b of j (H3), keys reset to
// splitmix64(Seed)'s top lw bits. RSUPorts are its ports.
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

// RSUPorts are rsdmm-rsu's ports (contract rsdmm-rsu), lanes i < lanes.
type RSUPorts struct {
	// Tbl is the write port of r_j (section V).
	Tbl   RSUWrite
	Addr  []*hdl.Signal `doc:"[ab-1:0] address j*w + k of lane i"`
	SAddr []*hdl.Signal `doc:"[ab-1:0] shifted address of lane i: {j, (k + r_j) mod w}"`
}

// RSUWrite writes Val to table entry Idx, or to H3 key Idx, at the edge
// when We is set.
type RSUWrite struct {
	We  *hdl.Signal `doc:"write tbl_val at tbl_idx at the edge"`
	Idx *hdl.Signal `doc:"[ab-lw-1:0] table entry j (hash: [XB(ab-lw)-1:0] key b)"`
	Val *hdl.Signal `doc:"[lw-1:0] the shift r_j, or key b"`
}

// Build makes the module called name.
func (c RSUBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (c RSUBlock) WithPorts(name string) (*hdl.Module, RSUPorts) {
	m := hdl.NewModule(name)
	f := m.InputFields("tbl")
	p := RSUPorts{Tbl: RSUWrite{We: f("we", 1), Idx: f("idx", c.idxWidth()), Val: f("val", c.LW)}}
	shiftOf := c.table(m, p.Tbl)
	if c.Hash {
		shiftOf = c.keys(m, p.Tbl)
	}
	for i := range c.Lanes {
		a := m.InputFields("", i)("addr", c.AB)
		j, k := a.Slice(c.AB-1, c.LW), a.Slice(c.LW-1, 0)
		s := m.OutputFields("", i)("saddr", c.AB)
		s.Drive(hdl.Concat(j, k.Add(shiftOf(j)))) // (k + r_j) mod w
		p.Addr, p.SAddr = append(p.Addr, a), append(p.SAddr, s)
	}
	c.properties(m, p)
	return m, p
}

// table is the paper's r_0, r_1, ...: a memory written by the port, read
// by every lane. It is built only without Hash.
func (c RSUBlock) table(m *hdl.Module, wr RSUWrite) func(j *hdl.Signal) *hdl.Signal {
	if c.Hash {
		return nil
	}
	t := m.Mem("shifts", c.AB-c.LW, c.LW)
	t.Write(wr.Idx, wr.Val, wr.We)
	return t.Read
}

// keys are the H3 keys key_<b>, one register per row bit, reset to
// splitmix64's outputs; a write to an index past the row bits is ignored.
func (c RSUBlock) keys(m *hdl.Module, wr RSUWrite) func(j *hdl.Signal) *hdl.Signal {
	reset := HashKeys(c.LW, c.AB-c.LW, c.Seed)
	b := 0 // the key Vec makes next: its reset value, and the index that writes it
	key := func(name string, width int) *hdl.Signal {
		k := m.RegInit(name, hdl.MustU(width, uint64(reset[b])))
		m.If(wr.We.And(wr.Idx.EqConst(uint64(b))), func() { k.Set(wr.Val) })
		b++
		return k
	}
	keys := hdl.Fields(key).Vec("key", len(reset), c.LW)
	return func(j *hdl.Signal) *hdl.Signal {
		r := m.ConstU(c.LW, 0)
		for b, k := range keys {
			r = r.Xor(k.And(j.Bit(b).Repl(c.LW)))
		}
		return r
	}
}
