package rsdmm

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// properties states what the RSU promises (DESIGN.md, rsdmm-rsu; Nakano,
// section V): an address keeps its row j and only its column moves,
// (k + r_j) mod w; two lanes of one row are shifted by the same r_j, so
// the shift is a rotation of the row and two addresses never meet in a
// bank; a write to the table (or to H3 key b) is seen from the next
// cycle by every address of row j (of row 2^b); with the H3 keys row 0
// is never shifted. Ghost registers keep the last cycle's write. Cover
// points: a write, a shifted address, and one read of the value just
// written.
func (c RSUBlock) properties(m *hdl.Module, p RSUPorts) {
	row := func(a *hdl.Signal) *hdl.Signal { return a.Slice(c.AB-1, c.LW) }
	shift := func(i int) *hdl.Signal { return p.SAddr[i].Slice(c.LW-1, 0).Sub(p.Addr[i].Slice(c.LW-1, 0)) } // r_j, mod w
	wrote, idx, val := m.Reg("ghost_written", 1), m.Reg("ghost_idx", p.Tbl.Idx.Width()), m.Reg("ghost_val", c.LW)
	wrote.Set(p.Tbl.We)
	idx.Set(p.Tbl.Idx)
	val.Set(p.Tbl.Val)
	written := func(j *hdl.Signal) *hdl.Signal { // row j is the one whose shift was just written
		if !c.Hash {
			return wrote.And(j.Eq(idx))
		}
		hit := m.ConstU(1, 0) // key b sets r_j of row 2^b; a key past the row bits is ignored
		for b := range c.AB - c.LW {
			hit = hit.Or(idx.EqConst(uint64(b)).And(j.EqConst(1 << b)))
		}
		return wrote.And(hit)
	}
	seen := m.ConstU(1, 0)
	for i, a := range p.Addr {
		m.Assert(row(p.SAddr[i]).Eq(row(a)), fmt.Sprintf("row_kept_%d", i), "a shifted address left its row")
		for j := i + 1; j < len(p.Addr); j++ {
			m.Assert(row(a).Ne(row(p.Addr[j])).Or(shift(i).Eq(shift(j))), fmt.Sprintf("one_shift_per_row_%d_%d", i, j),
				"two addresses of one row are shifted by different r_j")
		}
		reads := written(row(a))
		if c.Hash {
			m.Assert(row(a).EqConst(0).Not().Or(p.SAddr[i].Eq(a)), fmt.Sprintf("row_0_unshifted_%d", i), "H3 shifted row 0")
		}
		m.If(reads, func() {
			m.Assert(shift(i).Eq(val), fmt.Sprintf("write_seen_%d", i), "an address of the row just written is not shifted by the value written")
		})
		seen = seen.Or(reads)
	}
	m.Cover(p.Tbl.We, "write")
	m.Cover(p.SAddr[0].Ne(p.Addr[0]), "shifted")
	m.Cover(seen, "written_value_read")
}
