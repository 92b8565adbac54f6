package rsdmm

import (
	"fmt"
	"math/bits"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// RPUBlock is the rsdmm-rpu unit: the Request Packing Unit of Figure 1
// (B) (contract rsdmm-rpu). For the N = s*w requests of a super warp it
// gives each request its pipeline stage (the rank of its row among the
// distinct rows its bank is asked for), the requests that go to the banks
// (one per distinct address, the highest thread), each bank's load and
// the congestion (section IV).
//
//	in valid_<i>, bank_<i>[lw-1:0], row_<i>[rb-1:0] for i < N
//	out stage_<i>[XB(N)-1:0], lead_<i>; out load_<b>[CB-1:0] for b < w, cong[CB-1:0]
//
// By default a sorting network: Batcher's odd-even merge sort of (valid,
// bank, row, index), a scan numbering the distinct rows within each bank,
// and a second network keyed by index returning each stage. AllPairs
// builds the O(N^2) comparator matrix instead.
type RPUBlock struct {
	LW, S, RB int
	AllPairs  bool
}

// rpuPorts are the unit's inputs, one per request.
type rpuPorts struct {
	Valid, Bank, Row []*hdl.Signal
}

// N is the requests of a super warp.
func (c RPUBlock) N() int { return c.S << c.LW }

// Build makes the module called name.
func (c RPUBlock) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	n, w := c.N(), 1<<c.LW
	sw, cw := lib.IndexWidth(n), lib.CountWidth(n) // XB(N), CB
	var p rpuPorts
	for i := range n {
		p.Valid = append(p.Valid, m.Input(fmt.Sprintf("valid_%d", i), 1))
		p.Bank = append(p.Bank, m.Input(fmt.Sprintf("bank_%d", i), c.LW))
		p.Row = append(p.Row, m.Input(fmt.Sprintf("row_%d", i), c.RB))
	}
	var stage, lead, load []*hdl.Signal
	if c.AllPairs {
		stage, lead, load = allPairs(p, w, sw)
	} else {
		stage, lead, load = sorted(p, w, sw, cw)
	}
	for i := range n {
		m.Output(fmt.Sprintf("stage_%d", i), sw).Drive(stage[i])
		m.Output(fmt.Sprintf("lead_%d", i), 1).Drive(lead[i])
	}
	cong := m.ConstU(cw, 0)
	for b := range w {
		m.Output(fmt.Sprintf("load_%d", b), cw).Drive(load[b])
		cong = hdl.Mux(load[b].Gt(cong), load[b], cong)
	}
	m.Output("cong", cw).Drive(cong)
	return m
}

// allPairs compares every pair: i leads when no valid higher request has
// its address; its stage counts the leaders of its bank with a lower row;
// a bank's load counts its leaders.
func allPairs(p rpuPorts, w, sw int) (stage, lead, load []*hdl.Signal) {
	n := len(p.Valid)
	sameBank := func(i, j int) *hdl.Signal { return p.Bank[i].Eq(p.Bank[j]) }
	for i := range n {
		var later []*hdl.Signal
		for j := i + 1; j < n; j++ {
			later = append(later, p.Valid[j].And(sameBank(i, j)).And(p.Row[i].Eq(p.Row[j])))
		}
		l := p.Valid[i]
		if len(later) > 0 {
			l = l.And(lib.Bus(later).RedOr().Not())
		}
		lead = append(lead, l)
	}
	for i := range n {
		below := make([]*hdl.Signal, n)
		for j := range n {
			below[j] = lead[j].And(sameBank(i, j)).And(p.Row[j].Lt(p.Row[i]))
		}
		stage = append(stage, lib.PopCount(lib.Bus(below)).Trunc(sw).And(p.Valid[i].Repl(sw))) // at most N-1
	}
	for b := range w {
		mine := make([]*hdl.Signal, n)
		for j := range n {
			mine[j] = lead[j].And(p.Bank[j].EqConst(uint64(b)))
		}
		load = append(load, lib.PopCount(lib.Bus(mine)))
	}
	return stage, lead, load
}

// sorted is the sorting-network RPU: sort by (invalid, bank, row, index)
// so each bank's requests are consecutive with equal rows together, the
// last of an address its leader (the highest index); number the distinct
// rows along each bank's run; a bank's load is the stage of its run's
// last request plus one; sort back by index.
func sorted(p rpuPorts, w, sw, cw int) (stage, lead, load []*hdl.Signal) {
	n := len(p.Valid)
	m := p.Valid[0].Module()
	size := 1 << bits.Len(uint(n-1)) // padded to a power of two
	iw := lib.IndexWidth(size)
	lw, rb := p.Bank[0].Width(), p.Row[0].Width()
	keys := make([]*hdl.Signal, size)
	for i := range size {
		if i < n {
			keys[i] = hdl.Concat(p.Valid[i].Not(), p.Bank[i], p.Row[i], m.ConstU(iw, uint64(i)))
		} else {
			keys[i] = hdl.Concat(m.ConstU(1+lw+rb, 1<<(lw+rb)), m.ConstU(iw, uint64(i))) // invalid, last
		}
	}
	sk, _ := lib.Sort(keys, nil)
	// The sorted records' fields, once each.
	valid, bank, row, index := make([]*hdl.Signal, size), make([]*hdl.Signal, size), make([]*hdl.Signal, size), make([]*hdl.Signal, size)
	for q, k := range sk {
		top := k.Width() - 1
		valid[q], bank[q], row[q], index[q] = k.Bit(top).Not(), k.Slice(top-1, top-lw), k.Slice(top-lw-1, iw), k.Slice(iw-1, 0)
	}
	st := make([]*hdl.Signal, size)
	ld := make([]*hdl.Signal, size)
	last := make([]*hdl.Signal, size) // the last request of its bank's run
	for q := range size {
		st[q] = m.ConstU(sw, 0)
		if q > 0 {
			sameBank := valid[q].And(valid[q-1]).And(bank[q].Eq(bank[q-1]))
			st[q] = hdl.Mux(sameBank, st[q-1].Add(row[q].Ne(row[q-1]).Zext(sw)), m.ConstU(sw, 0))
		}
		ld[q], last[q] = valid[q], valid[q]
		if q+1 < size {
			sameBankNext := valid[q+1].And(bank[q+1].Eq(bank[q]))
			ld[q] = valid[q].And(sameBankNext.And(row[q+1].Eq(row[q])).Not())
			last[q] = valid[q].And(sameBankNext.Not())
		}
	}
	count := make([]*hdl.Signal, size) // the distinct rows up to q: stage + 1
	for q := range size {
		count[q] = st[q].Zext(cw).Add(m.ConstU(cw, 1))
	}
	for b := range w {
		hits := make([]*hdl.Signal, size) // at most one: bank b's run ends once
		for q := range size {
			hits[q] = last[q].And(bank[q].EqConst(uint64(b)))
		}
		load = append(load, hdl.OneHotSelect(lib.Bus(hits), count...))
	}
	// Back to thread order: sort (index; stage, lead) by index.
	pay := make([]*hdl.Signal, size)
	for q := range size {
		pay[q] = hdl.Concat(st[q], ld[q])
	}
	_, out := lib.Sort(index, pay)
	for i := range n {
		stage = append(stage, out[i].Slice(sw, 1))
		lead = append(lead, out[i].Bit(0))
	}
	return stage, lead, load
}
