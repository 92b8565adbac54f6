package sams

import (
	"fmt"
	"math/bits"

	"github.com/parmem/parmem/hdl"
)

// FamilyWidth is FW, the width of a family input: enough bits to hold n-q.
func FamilyWidth(n, q int) int { return max(1, bits.Len(uint(n-q))) }

// ATU is the address translation unit (thesis section 3.4.1, Fig. 3.9):
// lanes addresses to (module, row, offset) under the layout that family
// and nas select. Ports (DESIGN.md, sams-atu): family[FW-1:0], nas,
// addr_<i>[n-1:0] in; bank_<i>[q-1:0], row_<i>[n-q-2:0], offset_<i> out.
//
// Structure, as the thesis describes it: the family is decoded once into
// select lines shared by all lanes; each module bit is then an AND-OR
// multiplexer over a few terms fed by 2-input XOR gates; the row is an
// (n-q)-bit incrementer and a 2:1 multiplexer; the offset a small AND-OR
// multiplexer.
type ATU struct {
	Q, N, Lanes int
}

// atuDecode holds the select lines decoded once from family and nas.
type atuDecode struct {
	// per module bit k: the terms (as functions of a lane's address) and
	// the select line of each
	moduleTerms [][]atuTerm
	// offset: select lines of a_0 .. a_q-1, a_q, and NOT a_q
	offsetSel []*hdl.Signal
	inc       *hdl.Signal // row = ((a/2^q)+1)/2: s > q, not NaS
}

// atuTerm is one input of a module-bit multiplexer: a_x, or a_x XOR a_y
// when y >= 0.
type atuTerm struct {
	x, y int
	sel  *hdl.Signal
}

// decode builds the shared select lines (thesis: "the comparisons ... could
// be done and stored a priori, therefore they are not in the critical
// path").
func (p ATU) decode(m *hdl.Module, family, nas *hdl.Signal) *atuDecode {
	q, n := p.Q, p.N
	fw := family.Width()
	top := 1<<uint(fw) - 1 // largest family value the input can carry
	notNaS := nas.Not()
	is := func(s int) *hdl.Signal { return family.EqConst(uint64(s)).And(notNaS) }
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
		var terms []atuTerm
		// Eq. 3.1: s = 0 gives a_k; so does s > q when a_(k+s) lies past
		// the address (it reads as 0), and k+2 <= s <= q when a_(k+q+1) does.
		keep := []*hdl.Signal{is(0), inRange(max(n-k, q+1), top)}
		if k+q+1 >= n {
			keep = append(keep, inRange(k+2, q))
		} else {
			terms = append(terms, atuTerm{x: k, y: k + q + 1, sel: inRange(k+2, q)})
		}
		terms = append(terms, atuTerm{x: k, y: -1, sel: hdl.Concat(keep...).RedOr()})
		// 1 <= s <= k+1 (the high part <a_q..a_s> reaches bit k) and NaS
		// ((a/2) % 2^q) both give a_(k+1).
		terms = append(terms, atuTerm{x: k + 1, y: -1, sel: inRange(1, k+1).Or(nas)})
		for s := q + 1; s < n-k && s <= top; s++ {
			terms = append(terms, atuTerm{x: k, y: k + s, sel: is(s)})
		}
		d.moduleTerms = append(d.moduleTerms, terms)
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
	for k, terms := range d.moduleTerms {
		sels := make([]*hdl.Signal, len(terms))
		vals := make([]*hdl.Signal, len(terms))
		for t, term := range terms {
			sels[t] = term.sel
			vals[t] = a.Bit(term.x)
			if term.y >= 0 {
				vals[t] = vals[t].Xor(a.Bit(term.y))
			}
		}
		modBits[q-1-k] = hdl.OneHotSelect(hdl.Concat(reverse(sels)...), vals...)
	}
	bank = hdl.Concat(modBits...)
	// Eq. 3.2: a/2^(q+1), or ((a/2^q + 1) % 2^(n-q)) / 2 for s > q.
	high := a.Slice(n-1, q)
	incremented := high.Add(m.ConstU(n-q, 1)).Slice(n-q-1, 1)
	row = hdl.Mux(d.inc, incremented, high.Slice(n-q-1, 1))
	offTerms := make([]*hdl.Signal, 0, q+2)
	for j := range q {
		offTerms = append(offTerms, a.Bit(j))
	}
	offTerms = append(offTerms, a.Bit(q), a.Bit(q).Not())
	offset = hdl.OneHotSelect(hdl.Concat(reverse(d.offsetSel)...), offTerms...)
	return bank, row, offset
}

// reverse returns sels with the first last, so that in Concat (most
// significant first) sels[i] lands on bit i.
func reverse(sels []*hdl.Signal) []*hdl.Signal {
	r := make([]*hdl.Signal, len(sels))
	for i, s := range sels {
		r[len(sels)-1-i] = s
	}
	return r
}

// Build makes the ATU module called name.
func (p ATU) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	family := m.Input("family", FamilyWidth(p.N, p.Q))
	nas := m.Input("nas", 1)
	d := p.decode(m, family, nas)
	for i := range p.Lanes {
		bank, row, offset := p.translate(m, d, m.Input(fmt.Sprintf("addr_%d", i), p.N))
		m.Output(fmt.Sprintf("bank_%d", i), p.Q).Drive(bank)
		m.Output(fmt.Sprintf("row_%d", i), p.N-p.Q-1).Drive(row)
		m.Output(fmt.Sprintf("offset_%d", i), 1).Drive(offset)
	}
	return m
}
