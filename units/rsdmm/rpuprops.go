package rsdmm

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// properties states what the RPU promises (DESIGN.md, rsdmm-rpu; Nakano,
// section IV): the super warp's stages equal its congestion c, the
// largest bank load: every valid request's stage is below c and every
// stage below c holds a request; two valid requests to one bank share a
// stage exactly when they share a row (a stage asks each bank for one
// row, and equal addresses go once); each address has one leader, its
// highest request; a bank's load is its leaders; an invalid request
// rests in stage 0. Cover points: no request, full congestion (one bank
// asked for N rows, or every row), two requests of one address, and a stage past 0.
func (c RPUBlock) properties(m *hdl.Module, p RPUPorts) {
	n, cw := c.N(), p.Cong.Width()
	sameAddr := func(i, j int) *hdl.Signal {
		return p.In[i].Valid.And(p.In[j].Valid).And(p.In[i].Bank.Eq(p.In[j].Bank)).And(p.In[i].Row.Eq(p.In[j].Row))
	}
	anyShared := m.ConstU(1, 0)
	for i, r := range p.In {
		st := p.Out[i].Stage
		m.Assert(r.Valid.Not().Or(st.Zext(cw).Lt(p.Cong)), fmt.Sprintf("stage_below_cong_%d", i), "a request's stage is not below the congestion")
		m.Assert(r.Valid.Or(st.EqConst(0).And(p.Out[i].Lead.Not())), fmt.Sprintf("invalid_rests_%d", i), "an invalid request has a stage or leads")
		later := m.ConstU(1, 0)
		for j := i + 1; j < n; j++ {
			later = later.Or(sameAddr(i, j))
			oneBank := r.Valid.And(p.In[j].Valid).And(r.Bank.Eq(p.In[j].Bank))
			m.Assert(oneBank.Not().Or(r.Row.Eq(p.In[j].Row).Eq(st.Eq(p.Out[j].Stage))), fmt.Sprintf("stage_per_row_%d_%d", i, j),
				"two requests to one bank share a stage with different rows, or one row in different stages")
		}
		anyShared = anyShared.Or(later)
		m.Assert(p.Out[i].Lead.Eq(r.Valid.And(later.Not())), fmt.Sprintf("leads_its_address_%d", i), "a request leads that is not its address's highest")
	}
	for s := range n {
		used := m.ConstU(1, 0)
		for i := range n {
			used = used.Or(p.In[i].Valid.And(p.Out[i].Stage.EqConst(uint64(s))))
		}
		m.Assert(m.ConstU(cw, uint64(s)).Lt(p.Cong).Not().Or(used), fmt.Sprintf("stage_%d_used", s), "a stage below the congestion holds no request")
	}
	for b, load := range p.Load {
		leads := make([]*hdl.Signal, n)
		for i := range n {
			leads[i] = p.Out[i].Lead.And(p.In[i].Bank.EqConst(uint64(b)))
		}
		m.Assert(load.Eq(lib.PopCount(lib.Bus(leads)).Zext(cw)), fmt.Sprintf("load_is_leaders_%d", b), "a bank's load is not the rows asked of it")
		m.Assert(load.Le(p.Cong), fmt.Sprintf("load_le_cong_%d", b), "a bank's load is above the congestion")
	}
	if n <= 8 { // a random stimulus leaves all of more requests invalid too rarely to show it
		m.Cover(p.Cong.EqConst(0), "no_request")
	}
	m.Cover(p.Cong.EqConst(uint64(min(n, 1<<c.RB))), "full_congestion")
	m.Cover(anyShared, "shared_address")
	m.Cover(p.Cong.Gt(m.ConstU(cw, 1)), "two_stages")
}
