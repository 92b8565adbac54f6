package sams

import (
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
// places in slot 2*m(L+k) + o(L+k). ShufflePorts are the ports of both.
type Shuffle struct {
	Q, N, W int
	Write   bool // true for the pre-write shuffle (sams-pws)
}

// ShufflePorts are a shuffle's ports.
type ShufflePorts struct {
	// Family, NaS and Row name the layout and the line.
	Family *hdl.Signal `doc:"[FW-1:0] layout family s"`
	NaS    *hdl.Signal `doc:"1: the NaS layout, whatever family"`
	Row    *hdl.Signal `doc:"[n-q-2:0] row r of every bank"`
	// In is the line in: line_<j> (sams-prs) or lin_<k> (sams-pws).
	In []*hdl.Signal `doc:"[w-1:0] element i in (prs: slot i; pws: linear)"`
	// Base is L(r).
	Base *hdl.Signal `doc:"[n-1:0] L(r), the linear address of element 0"`
	// Out is the line out: lin_<k> (sams-prs) or line_<j> (sams-pws).
	Out []*hdl.Signal `doc:"[w-1:0] element i out (prs: linear; pws: slot i)"`
}

// Build makes the shuffle module called name.
func (p Shuffle) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the shuffle module called name, with its ATU as
// name_atu, and returns its ports.
func (p Shuffle) WithPorts(name string) (*hdl.Module, ShufflePorts) {
	q, n := p.Q, p.N
	elems := 2 << uint(q)
	m := hdl.NewModule(name)
	f := m.InputFields("")
	ports := ShufflePorts{Family: f("family", FamilyWidth(n, q)), NaS: f("nas", 1), Row: f("row", n-q-1)}
	inName, outName := "line", "lin"
	if p.Write {
		inName, outName = "lin", "line"
	}
	ports.In = f.Vec(inName, elems, p.W)

	// L(r): row*2^(q+1), or (2*row - 1)*2^q when s > q.
	row, family := ports.Row, ports.Family
	aligned := hdl.Concat(row, m.ConstU(q+1, 0))
	shifted := hdl.Concat(hdl.Concat(row, m.ConstU(1, 0)).Sub(m.ConstU(n-q, 1)), m.ConstU(q, 0))
	high := family.Gt(m.ConstU(family.Width(), uint64(q))).And(ports.NaS.Not())
	base := hdl.Mux(high, shifted, aligned).Named("line_base")
	ports.Base = m.Output("base", n)
	ports.Base.Drive(base)

	atuMod, at := ATU{q, n, elems}.WithPorts(name + "_atu")
	atu := m.Instance("atu", atuMod)
	hdl.ConnectRecord(atu, []*hdl.Signal{at.Family, at.NaS}, []*hdl.Signal{family, ports.NaS})
	slot := make([]*hdl.Signal, elems) // slot of linear element k
	for k, place := range at.Lanes {
		hdl.ConnectRecord(atu, at.Addr[k], base.Add(m.ConstU(n, uint64(k))))
		slot[k] = hdl.Concat(hdl.OutRecord(atu, place.Bank), hdl.OutRecord(atu, place.Offset))
	}
	for x := range elems {
		var out *hdl.Signal
		if p.Write { // slot x takes the linear element placed there
			hits := make([]*hdl.Signal, elems)
			for k := range elems {
				hits[k] = slot[k].EqConst(uint64(x))
			}
			out = hdl.OneHotSelect(lib.Bus(hits), ports.In...)
		} else { // linear element x comes from its slot
			out = hdl.Select(slot[x], ports.In...)
		}
		ports.Out = append(ports.Out, m.OutputFields("", x)(outName, p.W))
		ports.Out[x].Drive(out)
	}
	return m, ports
}
