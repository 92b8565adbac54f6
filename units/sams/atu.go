package sams

import (
	"math/bits"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// FamilyWidth is FW, the width of a family input: enough bits to hold n-q.
func FamilyWidth(n, q int) int { return max(1, bits.Len(uint(n-q))) }

// ATU is the address translation unit (thesis section 3.4.1, Fig. 3.9):
// lanes addresses to (module, row, offset) under the layout that family
// and nas select; ATUPorts are its ports.
//
// Structure, as the thesis describes it: the family is decoded once into
// select lines shared by all lanes; each module bit is then a multiplexer
// fed by 2-input XOR gates (a_k XOR the partner bit the family selects, or
// a_(k+1)); the row is an (n-q)-bit incrementer and a 2:1 multiplexer,
// built as one adder whose carry in is the select; the offset a small
// AND-OR multiplexer.
type ATU struct {
	Q, N, Lanes int
}

// atuDecode holds the select lines decoded once from family and nas.
type atuDecode struct {
	up       []*hdl.Signal  // per module bit k: take a_(k+1) (NaS, or 1 <= s <= k+1)
	partners [][]atuPartner // per module bit k: the bits XORed into a_k otherwise
	// offset: select lines of a_0 .. a_q-1, a_q, and NOT a_q
	offsetSel []*hdl.Signal
	inc       *hdl.Signal // row = ((a/2^q)+1)/2: s > q, not NaS
}

// atuPartner is an address bit XORed into a module bit, with its select.
type atuPartner struct {
	bit int
	sel *hdl.Signal
}

// decode builds the shared select lines (thesis: "the comparisons ... could
// be done and stored a priori, therefore they are not in the critical
// path").
func (p ATU) decode(m *hdl.Module, family, nas *hdl.Signal) *atuDecode {
	q, n := p.Q, p.N
	fw := family.Width()
	top := 1<<uint(fw) - 1 // largest family value the input can carry
	notNaS := nas.Not()
	is := func(s int) *hdl.Signal {
		if s > top { // a family the input cannot carry
			return m.ConstU(1, 0)
		}
		return family.EqConst(uint64(s)).And(notNaS)
	}
	// inRange is 1 when lo <= family <= hi (and not NaS).
	inRange := func(lo, hi int) *hdl.Signal {
		var any []*hdl.Signal
		for s := lo; s <= min(hi, top); s++ {
			any = append(any, is(s))
		}
		if len(any) == 0 {
			return m.ConstU(1, 0)
		}
		return hdl.Concat(any...).RedOr()
	}
	d := &atuDecode{}
	for k := range q {
		// Eq. 3.1, bit k of m(a): a_(k+1) when the high part <a_q..a_s>
		// reaches bit k (1 <= s <= k+1) and for NaS ((a/2) % 2^q); else a_k,
		// XORed with a_(k+q+1) for k+2 <= s <= q (T_H(s-1,q+1)) and with
		// a_(k+s) for s > q (T_H(q,s)). Partners past the address read as 0.
		d.up = append(d.up, inRange(1, k+1).Or(nas))
		var partners []atuPartner
		if k+q+1 < n {
			partners = append(partners, atuPartner{k + q + 1, inRange(k+2, q)})
		}
		for s := q + 1; s < n-k && s <= top; s++ {
			partners = append(partners, atuPartner{k + s, is(s)})
		}
		d.partners = append(d.partners, partners)
	}
	// Eq. 3.3: a_(s-1) for 1 <= s <= q (a_0 also for NaS), a_q for s = 0,
	// NOT a_q for s > q.
	for j := range q {
		sel := is(j + 1)
		if j == 0 {
			sel = sel.Or(nas)
		}
		d.offsetSel = append(d.offsetSel, sel)
	}
	d.inc = inRange(q+1, top)
	d.offsetSel = append(d.offsetSel, is(0), d.inc)
	return d
}

// translate builds one lane's module, row and offset from its address.
func (p ATU) translate(m *hdl.Module, d *atuDecode, a *hdl.Signal) (bank, row, offset *hdl.Signal) {
	q, n := p.Q, p.N
	modBits := make([]*hdl.Signal, q)
	for k := range q {
		own := a.Bit(k)
		if ps := d.partners[k]; len(ps) > 0 {
			sels, bits := make([]*hdl.Signal, len(ps)), make([]*hdl.Signal, len(ps))
			for t, pt := range ps {
				sels[t], bits[t] = pt.sel, a.Bit(pt.bit)
			}
			own = own.Xor(hdl.OneHotSelect(lib.Bus(sels), bits...))
		}
		modBits[q-1-k] = hdl.Mux(d.up[k], a.Bit(k+1), own)
	}
	bank = hdl.Concat(modBits...)
	// Eq. 3.2: a/2^(q+1), or ((a/2^q + 1) % 2^(n-q)) / 2 for s > q: the
	// thesis's incrementer and 2:1 multiplexer, as one adder whose carry in
	// is the select.
	row = a.Slice(n-1, q).Add(d.inc.Zext(n-q)).Slice(n-q-1, 1)
	offTerms := make([]*hdl.Signal, 0, q+2)
	for j := range q {
		offTerms = append(offTerms, a.Bit(j))
	}
	offTerms = append(offTerms, a.Bit(q), a.Bit(q).Not())
	offset = hdl.OneHotSelect(lib.Bus(d.offsetSel), offTerms...)
	return bank, row, offset
}

// ATUPorts are the ATU's ports (DESIGN.md, sams-atu).
type ATUPorts struct {
	// Family and NaS select the layout (Eq. 3.1-3.3).
	Family *hdl.Signal `doc:"[FW-1:0] layout family s (Eq. 3.1-3.3)"`
	NaS    *hdl.Signal `doc:"1: the NaS layout (section 4.3.2), whatever family"`
	// Addr are the lanes' addresses.
	Addr []*hdl.Signal `doc:"[n-1:0] address of lane i"`
	// Lanes are where each address lives.
	Lanes []ATUPlace `doc:"lane i"`
}

// ATUPlace is one lane's translated address: the module (Eq. 3.1), the
// row (Eq. 3.2) and the offset in the module's two-element row (Eq. 3.3).
type ATUPlace struct {
	Bank   *hdl.Signal `doc:"[q-1:0] module (Eq. 3.1)"`
	Row    *hdl.Signal `doc:"[n-q-2:0] row (Eq. 3.2)"`
	Offset *hdl.Signal `doc:"offset in the module's row (Eq. 3.3)"`
}

// Build makes the ATU module called name.
func (p ATU) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the ATU module called name and returns its ports.
func (p ATU) WithPorts(name string) (*hdl.Module, ATUPorts) {
	m := hdl.NewModule(name)
	in := m.InputFields("")
	ports := ATUPorts{Family: in("family", FamilyWidth(p.N, p.Q)), NaS: in("nas", 1)}
	d := p.decode(m, ports.Family, ports.NaS)
	var places []ATUPlace
	for i := range p.Lanes { // each lane's address beside its translation
		a := m.InputFields("", i)("addr", p.N)
		bank, row, offset := p.translate(m, d, a)
		f := m.OutputFields("", i)
		place, own := ATUPlace{Bank: f("bank", p.Q), Row: f("row", p.N-p.Q-1), Offset: f("offset", 1)}, ATUPlace{Bank: bank, Row: row, Offset: offset}
		hdl.DriveRecord(place, own)
		ports.Addr, ports.Lanes, places = append(ports.Addr, a), append(ports.Lanes, place), append(places, own)
	}
	p.properties(m, ports, places)
	return m, ports
}

// properties states Theorem 1 (appendix A) for the block's own lanes: in
// a layout the thesis defines (a family 0..n-q, or NaS) two lanes with
// different addresses never share a (module, row, offset) (places[i],
// lane i's).
func (p ATU) properties(m *hdl.Module, ports ATUPorts, places []ATUPlace) {
	if len(places) < 2 {
		return // no pair of lanes (and no logic made that nothing would read)
	}
	legal := ports.Family.Le(m.ConstU(ports.Family.Width(), uint64(p.N-p.Q))).Or(ports.NaS)
	slots := make([]*hdl.Signal, len(places))
	for i, pl := range places {
		slots[i] = hdl.Pack(pl)
	}
	var pairs []*hdl.Signal
	for i := range slots {
		for j := i + 1; j < len(slots); j++ {
			pairs = append(pairs, ports.Addr[i].Eq(ports.Addr[j]).Or(slots[i].Ne(slots[j])))
		}
	}
	m.Assert(legal.Not().Or(hdl.Concat(pairs...).RedAnd()), "injective", "two lanes with different addresses share a (module, row, offset) (Theorem 1)")
}
