package rsdmm

import (
	"math/bits"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// RPUBlock is the rsdmm-rpu unit: the Request Packing Unit of Figure 1
// (B) (contract rsdmm-rpu). For the N = s*w requests of a super warp it
// gives each request its pipeline stage (the rank of its row among the
// distinct rows its bank is asked for), the requests that go to the banks
// (one per distinct address, the highest thread), each bank's load and
// the congestion (section IV). RPUPorts are its ports.
//
// By default a sorting network: Batcher's odd-even merge sort of (valid,
// bank, row, index), a scan numbering the distinct rows within each bank,
// and a second network keyed by index returning each stage. AllPairs
// builds the O(N^2) comparator matrix instead.
type RPUBlock struct {
	LW, S, RB int
	AllPairs  bool
}

// RPUPorts are rsdmm-rpu's ports (contract rsdmm-rpu), requests i < N
// and banks b < w.
type RPUPorts struct {
	// In is request i of the super warp.
	In []RPURequest
	// Out is request i's stage and whether it leads its address (goes to
	// the bank for every request of it, section IV).
	Out  []RPUStage
	Load []*hdl.Signal `doc:"[CB-1:0] load of bank i: the distinct rows asked of it"`
	Cong *hdl.Signal   `doc:"[CB-1:0] congestion c, the largest load (section IV)"`
}

// RPURequest is one request: its enable, bank and row.
type RPURequest struct {
	Valid *hdl.Signal `doc:"request i is enabled"`
	Bank  *hdl.Signal `doc:"[lw-1:0] bank of request i"`
	Row   *hdl.Signal `doc:"[rb-1:0] row of request i"`
}

// RPUStage is one request's packing: its pipeline stage and whether it
// leads.
type RPUStage struct {
	Stage *hdl.Signal `doc:"[XB(N)-1:0] pipeline stage of request i"`
	Lead  *hdl.Signal `doc:"request i goes to the bank"`
}

// N is the requests of a super warp.
func (c RPUBlock) N() int { return c.S << c.LW }

// Build makes the module called name.
func (c RPUBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (c RPUBlock) WithPorts(name string) (*hdl.Module, RPUPorts) {
	m := hdl.NewModule(name)
	n, w := c.N(), 1<<c.LW
	sw, cw := lib.IndexWidth(n), lib.CountWidth(n) // XB(N), CB
	var p RPUPorts
	for i := range n {
		p.In = append(p.In, c.request(m.InputFields("", i)))
	}
	var stage, lead, load []*hdl.Signal
	if c.AllPairs {
		stage, lead, load = allPairs(p.In, w, sw)
	} else {
		stage, lead, load = sorted(p.In, w, sw, cw)
	}
	for i := range n {
		f := m.OutputFields("", i)
		o := RPUStage{Stage: f("stage", sw), Lead: f("lead", 1)}
		hdl.DriveRecord(o, RPUStage{Stage: stage[i], Lead: lead[i]})
		p.Out = append(p.Out, o)
	}
	cong := m.ConstU(cw, 0)
	for b := range w {
		l := m.OutputFields("", b)("load", cw)
		l.Drive(load[b])
		p.Load = append(p.Load, l)
		cong = hdl.Mux(load[b].Gt(cong), load[b], cong)
	}
	p.Cong = m.Output("cong", cw)
	p.Cong.Drive(cong)
	c.properties(m, p)
	return m, p
}

// request makes an RPURequest's fields with f.
func (c RPUBlock) request(f hdl.Fields) RPURequest {
	return RPURequest{Valid: f("valid", 1), Bank: f("bank", c.LW), Row: f("row", c.RB)}
}

// allPairs compares every pair: i leads when no valid higher request has
// its address; its stage counts the leaders of its bank with a lower row;
// a bank's load counts its leaders.
func allPairs(in []RPURequest, w, sw int) (stage, lead, load []*hdl.Signal) {
	n := len(in)
	sameBank := func(i, j int) *hdl.Signal { return in[i].Bank.Eq(in[j].Bank) }
	for i := range n {
		var later []*hdl.Signal
		for j := i + 1; j < n; j++ {
			later = append(later, in[j].Valid.And(sameBank(i, j)).And(in[i].Row.Eq(in[j].Row)))
		}
		l := in[i].Valid
		if len(later) > 0 {
			l = l.And(lib.Bus(later).RedOr().Not())
		}
		lead = append(lead, l)
	}
	for i := range n {
		below := make([]*hdl.Signal, n)
		for j := range n {
			below[j] = lead[j].And(sameBank(i, j)).And(in[j].Row.Lt(in[i].Row))
		}
		stage = append(stage, lib.PopCount(lib.Bus(below)).Trunc(sw).And(in[i].Valid.Repl(sw))) // at most N-1
	}
	for b := range w {
		mine := make([]*hdl.Signal, n)
		for j := range n {
			mine[j] = lead[j].And(in[j].Bank.EqConst(uint64(b)))
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
func sorted(in []RPURequest, w, sw, cw int) (stage, lead, load []*hdl.Signal) {
	n := len(in)
	m := in[0].Valid.Module()
	size := 1 << bits.Len(uint(n-1)) // padded to a power of two
	iw := lib.IndexWidth(size)
	lw, rb := in[0].Bank.Width(), in[0].Row.Width()
	keys := make([]*hdl.Signal, size)
	for i := range size {
		if i < n {
			keys[i] = hdl.Concat(in[i].Valid.Not(), in[i].Bank, in[i].Row, m.ConstU(iw, uint64(i)))
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
