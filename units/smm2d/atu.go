package smm2d

import (
	"math/bits"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// ATU is the address translation unit (thesis section 3.4.2, Figure
// 3.12): every lane's (i, j) to its bank (m_v, m_h) and row; ATUPorts are
// its ports.
//
// What depends only on vs and hs is computed once for all lanes (the
// thesis: "calculated in advance"): the shift amounts and which low bits
// have an XOR partner. Each lane's dynamic bit selections are shifts by
// those amounts.
type ATU struct {
	Geometry
	Post bool // m_v in section 3.3's post-add form
}

// xorShape is what Xor(x, n, e) needs of a runtime exponent e: bit k of x
// is XORed with bit k+max(n,e) when k < e, that is bit k of
// (x >> max(n,e)) where partnered[k] = (e > k).
type xorShape struct {
	n         int
	shift     *hdl.Signal // max(n, e)
	partnered *hdl.Signal // n bits: bit k is e > k
}

func newXorShape(e *hdl.Signal, n int) xorShape {
	m := e.Module()
	w := max(e.Width(), bits.Len(uint(n)))
	ew := e.Zext(w)
	nw := m.ConstU(w, uint64(n))
	above := make([]*hdl.Signal, n)
	for k := range n {
		above[k] = ew.Gt(m.ConstU(w, uint64(k)))
	}
	return xorShape{n: n, shift: hdl.Mux(ew.Gt(nw), ew, nw), partnered: lib.Bus(above)}
}

// apply is Xor(x, n, e) (thesis 3.2.2).
func (s xorShape) apply(x *hdl.Signal) *hdl.Signal {
	return x.Trunc(s.n).Xor(low(x.ShrBy(s.shift), s.n).And(s.partnered))
}

// low is the n low bits of x, zero-extended when x is narrower.
func low(x *hdl.Signal, n int) *hdl.Signal {
	if x.Width() >= n {
		return x.Trunc(n)
	}
	return x.Zext(n)
}

// atuDecode is the logic every lane shares.
type atuDecode struct {
	mh, mv xorShape
	vs, hs *hdl.Signal
	// betaShift is p - min(p, hs), the left shift of beta; carryShift is
	// p - min(p, vs), where the pre-add form finds an XOR partner in t.
	betaShift, carryShift *hdl.Signal
}

func (p ATU) decode(vs, hs *hdl.Signal) atuDecode {
	return atuDecode{mh: newXorShape(hs, p.Q), mv: newXorShape(vs, p.P), vs: vs, hs: hs,
		betaShift: lessMin(hs, p.P), carryShift: lessMin(vs, p.P)}
}

// lessMin is p - min(p, e), p.Bits wide.
func lessMin(e *hdl.Signal, p int) *hdl.Signal {
	m := e.Module()
	w := max(e.Width(), bits.Len(uint(p)))
	ew, pw := e.Zext(w), m.ConstU(w, uint64(p))
	return hdl.Mux(ew.Lt(pw), pw.Sub(ew), m.ConstU(w, 0))
}

// rotation is (alpha + beta) % 2^p of section 3.3: alpha = (j >>
// (q+hs)) % 2^p, beta = ((j >> q) << (p - min(p,hs))) % 2^p.
func (p ATU) rotation(d atuDecode, j *hdl.Signal) *hdl.Signal {
	above := j.Slice(p.NB-1, p.Q) // j / 2^q: fixed wiring
	alpha := low(above.ShrBy(d.hs), p.P)
	beta := low(above, p.P).ShlBy(d.betaShift)
	return alpha.Add(beta)
}

// moduleV is m_v. Post-add: (Xor(i, p, vs) + rot) % 2^p. Pre-add (Figure
// 3.12): Xor(s, p, vs) with s = i + rot*2^vs. Below bit vs, s is i; from
// bit vs up it is t = (i >> vs) + rot, of which the XOR scheme reads only
// bits below 2p: a selection of i's bits by vs and a 2p-bit adder. Bit k
// of s (k < p) is then bit k of (t << vs) above vs and i_k below; its
// partner s_(k+max(p,vs)) is bit k of t >> (p - min(p,vs)).
func (p ATU) moduleV(d atuDecode, i, rot *hdl.Signal) *hdl.Signal {
	if p.Post {
		return d.mv.apply(i).Add(rot)
	}
	t := low(i.ShrBy(d.vs), 2*p.P).Add(rot.Zext(2 * p.P))
	below := d.mv.partnered // bit k: vs > k
	own := low(t.ShlBy(d.vs), p.P).And(below.Not()).Or(i.Trunc(p.P).And(below))
	partner := low(t.ShrBy(d.carryShift), p.P).And(below)
	return own.Xor(partner)
}

// translate builds one lane's m_v, m_h and row.
func (p ATU) translate(d atuDecode, i, j *hdl.Signal) (mv, mh, row *hdl.Signal) {
	mv = p.moduleV(d, i, p.rotation(d, j))
	mh = d.mh.apply(j)
	row = hdl.Concat(i.Slice(p.MB-1, p.P), j.Slice(p.NB-1, p.Q)) // r(i,j): the point 2
	return mv, mh, row
}

// ATUPorts are smm2d-atu's ports (DESIGN.md, smm2d-atu).
type ATUPorts struct {
	// VS, HS are the XOR scheme's exponents vs, hs (section 3.3).
	VS *hdl.Signal `doc:"[VW-1:0] vs, the vertical XOR exponent"`
	HS *hdl.Signal `doc:"[HW-1:0] hs, the horizontal XOR exponent"`
	// Addr is every lane's address in, Place its bank and row out
	// (Figure 3.12).
	Addr  []Address   `doc:"lane i"`
	Place []Placement `doc:"lane i"`
}

// Placement is where a lane's element lives: bank (m_v, m_h) and row
// r(i, j) (section 3.3).
type Placement struct {
	MV  *hdl.Signal `doc:"[p-1:0] m_v, the bank's vertical index (Fig. 3.12)"`
	MH  *hdl.Signal `doc:"[q-1:0] m_h = xor(j, q, hs), its horizontal index"`
	Row *hdl.Signal `doc:"[RW-1:0] row r in the bank (section 3.3)"`
}

// Build makes the ATU module called name.
func (p ATU) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the ATU module called name and returns its ports.
func (p ATU) WithPorts(name string) (*hdl.Module, ATUPorts) {
	m := hdl.NewModule(name)
	f := m.InputFields("")
	ps := ATUPorts{VS: f("vs", p.VW()), HS: f("hs", p.HW())}
	d := p.decode(ps.VS, ps.HS)
	var places []Placement
	for k := range p.Lanes() {
		in, out := m.InputFields("", k), m.OutputFields("", k)
		addr := Address{I: in("i", p.MB), J: in("j", p.NB)}
		mv, mh, row := p.translate(d, addr.I, addr.J)
		place := Placement{MV: out("mv", p.P), MH: out("mh", p.Q), Row: out("row", p.RW())}
		place.MV.Drive(mv)
		place.MH.Drive(mh)
		place.Row.Drive(row)
		ps.Addr, ps.Place = append(ps.Addr, addr), append(ps.Place, place)
		places = append(places, Placement{MV: mv, MH: mh, Row: row})
	}
	p.properties(m, ps, places)
	return m, ps
}

// properties states that the block's lanes are placed one to one
// (section 3.3: (i, j) -> (m_v, m_h, r) is a bijection of the M x N
// elements onto the banks' rows): for vs <= mb-p and hs <= nb-q, two lanes
// with different addresses (i, j) never share a bank and row (places[k],
// lane k's).
func (p ATU) properties(m *hdl.Module, ps ATUPorts, places []Placement) {
	inRange := ps.VS.Le(m.ConstU(p.VW(), uint64(p.MB-p.P))).And(ps.HS.Le(m.ConstU(p.HW(), uint64(p.NB-p.Q))))
	elems, slots := make([]*hdl.Signal, len(places)), make([]*hdl.Signal, len(places))
	for k := range places {
		elems[k], slots[k] = hdl.Pack(ps.Addr[k]), hdl.Pack(places[k])
	}
	var pairs []*hdl.Signal
	for k := range places {
		for l := k + 1; l < len(places); l++ {
			pairs = append(pairs, elems[k].Eq(elems[l]).Or(slots[k].Ne(slots[l])))
		}
	}
	m.Assert(inRange.Not().Or(hdl.Concat(pairs...).RedAnd()), "injective", "two lanes with different (i, j) share a bank and row (section 3.3)")
}
