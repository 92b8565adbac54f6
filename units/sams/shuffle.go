package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// The wide port's shuffles (thesis section 4.4.2, Fig. 4.6b): a wide access
// moves one row of every bank, 2^(q+1) elements in the internal order (slot
// j is bank j/2, offset j%2). The Post-Read Shuffle (sams-prs) turns such a
// line into linear order; the Pre-Write Shuffle (sams-pws) does the
// inverse.
//
// Row r of a layout holds 2^(q+1) consecutive linear addresses starting at
// L(r) = r * 2^(q+1) for NaS and families s <= q, and at
// L(r) = (2r - 1) * 2^q (mod 2^n) for s > q (Eq. 3.2: a/2^q + 1 is 2r or
// 2r+1). Linear element k of the line is address L(r) + k, which the ATU
// places in slot 2*m(L+k) + o(L+k).
//
// Ports of both: family[FW-1:0], nas, row[n-q-2:0] in, base[n-1:0] out
// (L(r), the linear address of element 0); sams-prs: line_<j>[w-1:0] in,
// lin_<k>[w-1:0] out; sams-pws: lin_<k> in, line_<j> out.
type Shuffle struct {
	Q, N, W int
	Write   bool // true for the pre-write shuffle (sams-pws)
}

// Build makes the shuffle module called name, with its ATU as name_atu.
func (p Shuffle) Build(name string) *hdl.Module {
	q, n := p.Q, p.N
	elems := 2 << uint(q)
	m := hdl.NewModule(name)
	family, nas := m.Input("family", FamilyWidth(n, q)), m.Input("nas", 1)
	row := m.Input("row", n-q-1)
	in := make([]*hdl.Signal, elems)
	inName, outName := "line", "lin"
	if p.Write {
		inName, outName = "lin", "line"
	}
	for j := range in {
		in[j] = m.Input(fmt.Sprintf("%s_%d", inName, j), p.W)
	}

	// L(r): row*2^(q+1), or (2*row - 1)*2^q when s > q.
	aligned := hdl.Concat(row, m.ConstU(q+1, 0))
	shifted := hdl.Concat(hdl.Concat(row, m.ConstU(1, 0)).Sub(m.ConstU(n-q, 1)), m.ConstU(q, 0))
	high := family.Gt(m.ConstU(family.Width(), uint64(q))).And(nas.Not())
	base := hdl.Mux(high, shifted, aligned).Named("line_base")
	m.Output("base", n).Drive(base)

	atu := m.Instance("atu", ATU{q, n, elems}.Build(name+"_atu"))
	atu.Connect("family", family)
	atu.Connect("nas", nas)
	slot := make([]*hdl.Signal, elems) // slot of linear element k
	for k := range elems {
		atu.Connect(fmt.Sprintf("addr_%d", k), base.Add(m.ConstU(n, uint64(k))))
		slot[k] = hdl.Concat(atu.Out(fmt.Sprintf("bank_%d", k)), atu.Out(fmt.Sprintf("offset_%d", k)))
	}
	for x := range elems {
		var out *hdl.Signal
		if p.Write { // slot x takes the linear element placed there
			hits := make([]*hdl.Signal, elems)
			for k := range elems {
				hits[k] = slot[k].EqConst(uint64(x))
			}
			out = hdl.OneHotSelect(lib.Bus(hits), in...)
		} else { // linear element x comes from its slot
			out = hdl.Select(slot[x], in...)
		}
		m.Output(fmt.Sprintf("%s_%d", outName, x), p.W).Drive(out)
	}
	return m
}
