package smm2d

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// AGU is the address generation unit (thesis section 3.4.2, Figures 3.10
// and 3.11): the L addresses of an access from its base, pattern and
// strides; AGUPorts are its ports.
//
// Lane k = a*2^q + c adds to the base one of a few offsets the pattern
// selects (Figure 3.11's multiplexer before one adder per coordinate):
//
//	pattern  i offset   j offset
//	0        0          k*HS      strided row (6, 7 too)
//	1        a*VS       c*HS      strided block
//	2        k*VS       k*HS      forward diagonal
//	3        k*VS       -k*HS     backward diagonal
//	4        0          k         continuous row
//	5        a          c         continuous block
//
// The multiples k*VS, k*HS are the stride table: the standalone unit
// multiplies by constants; the memory holds them in registers loaded at
// configuration (Table 3.3).
type AGU struct {
	Geometry
}

// strideTable is k*VS mod M and k*HS mod N for k < L.
type strideTable struct {
	V, H []*hdl.Signal
}

// multiples computes the stride table from the strides (shifts and adds:
// the thesis's footnote 7).
func (p AGU) multiples(vstride, hstride *hdl.Signal) strideTable {
	var st strideTable
	for k := range p.Lanes() {
		st.V = append(st.V, vstride.MulConst(uint64(k)).Trunc(p.MB))
		st.H = append(st.H, hstride.MulConst(uint64(k)).Trunc(p.NB))
	}
	return st
}

// generate builds the L addresses on the decoded pattern.
func (p AGU) generate(m *hdl.Module, bi, bj *hdl.Signal, pattern *lib.Decoder, st strideTable) (is, js []*hdl.Signal) {
	zeroI, zeroJ := m.ConstU(p.MB, 0), m.ConstU(p.NB, 0)
	backward := pattern.Is(int(BackwardDiagonal))
	for k := range p.Lanes() {
		a, c := p.LaneAt(k)
		rowI, colJ := m.ConstU(p.MB, uint64(a)&mask(p.MB)), m.ConstU(p.NB, uint64(c))
		unitJ := m.ConstU(p.NB, uint64(k)&mask(p.NB))
		di := pattern.Pick(zeroI, func(v int) *hdl.Signal {
			switch Pattern(v) {
			case StridedBlock:
				return st.V[a]
			case ForwardDiagonal, BackwardDiagonal:
				return st.V[k]
			case ContinuousBlock:
				return rowI
			}
			return nil
		})
		dj := pattern.Pick(zeroJ, func(v int) *hdl.Signal {
			switch Pattern(v) {
			case StridedBlock:
				return st.H[c]
			case ContinuousRow:
				return unitJ
			case ContinuousBlock:
				return colJ
			}
			return st.H[k] // strided row (and 6, 7), both diagonals
		})
		is = append(is, bi.Add(di))
		js = append(js, addSub(bj, dj, backward))
	}
	return is, js
}

// addSub is x + y, or x - y when sub is 1, as one adder with a carry in:
// {x, 1} + {y ^ sub, sub}, dropping the low bit.
func addSub(x, y, sub *hdl.Signal) *hdl.Signal {
	w := x.Width()
	one := x.Module().ConstU(1, 1)
	return hdl.Concat(x, one).Add(hdl.Concat(y.Xor(sub.Repl(w)), sub)).Slice(w, 1)
}

// AGUPorts are smm2d-agu's ports (DESIGN.md, smm2d-agu).
type AGUPorts struct {
	// BaseI, BaseJ are the access's base address (i, j); VStride, HStride
	// its strides VS, HS (Figure 3.10's inputs).
	BaseI   *hdl.Signal `doc:"[mb-1:0] base vertical address"`
	BaseJ   *hdl.Signal `doc:"[nb-1:0] base horizontal address"`
	VStride *hdl.Signal `doc:"[mb-1:0] vertical stride VS"`
	HStride *hdl.Signal `doc:"[nb-1:0] horizontal stride HS"`
	// Pattern selects one of the six patterns (section 3.4.2's table).
	Pattern *hdl.Signal `doc:"[2:0] pattern (Fig. 3.10; 6, 7 as 0)"`
	// Addr are the L addresses (Figure 3.11).
	Addr []Address `doc:"lane i"`
}

// Address is one lane's element address (i, j): the AGU's output and the
// ATU's input (Figure 3.8).
type Address struct {
	I *hdl.Signal `doc:"[mb-1:0] vertical address"`
	J *hdl.Signal `doc:"[nb-1:0] horizontal address"`
}

// Build makes the AGU module called name.
func (p AGU) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the AGU module called name and returns its ports.
func (p AGU) WithPorts(name string) (*hdl.Module, AGUPorts) {
	m := hdl.NewModule(name)
	f := m.InputFields("")
	ps := AGUPorts{BaseI: f("base_i", p.MB), BaseJ: f("base_j", p.NB), VStride: f("vstride", p.MB), HStride: f("hstride", p.NB)}
	st := p.multiples(ps.VStride, ps.HStride)
	ps.Pattern = f("pattern", 3)
	ps.Addr = p.outputs(p.generate(m, ps.BaseI, ps.BaseJ, lib.NewDecoder(ps.Pattern), st))
	return m, ps
}

// outputs drives the lanes' address ports i_<k>, j_<k> with is, js.
func (p AGU) outputs(is, js []*hdl.Signal) []Address {
	m := is[0].Module()
	addrs := make([]Address, len(is))
	for k := range is {
		out := m.OutputFields("", k)
		addrs[k] = Address{I: out("i", p.MB), J: out("j", p.NB)}
		addrs[k].I.Drive(is[k])
		addrs[k].J.Drive(js[k])
	}
	return addrs
}
