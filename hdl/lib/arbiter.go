package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// RoundRobin is a round-robin arbiter over the bus req with its pointer p
// a register of m called name (IW bits, reset to 0): it grants the first
// requester at or after p, cyclically, and at an edge where valid and ack
// are 1, p moves past the granted requester. valid = req != 0; grant is
// one-hot of idx; idx and grant are 0 when nothing is requested.
//
// For a fixed priority (the lowest requester always wins) use Priority.
// For the papers' shared ports: the elastic pipeline's writeback, the
// vector MSHR's fill port, the DRAM command queues (families to come).
func RoundRobin(m *hdl.Module, name string, req, ack *hdl.Signal) (valid, idx, grant *hdl.Signal) {
	valid, idx, grant, _ = roundRobin(m, name, req, ack)
	return valid, idx, grant
}

// roundRobin is RoundRobin that also returns the pointer.
func roundRobin(m *hdl.Module, name string, req, ack *hdl.Signal) (valid, idx, grant, p *hdl.Signal) {
	n := req.Width()
	p = m.Reg(name, IndexWidth(n))
	atOrAfter := req.And(m.ConstU(1, 1).Repl(n).ShlBy(p)) // requesters numbered p and up
	first := hdl.Mux(atOrAfter.RedOr(), atOrAfter, req)
	valid, idx, grant = Priority(first, false)
	m.If(valid.And(ack), func() { p.Set(plant("rrarb.next_ptr", wrapInc(idx, n))) })
	return valid, idx, grant, p
}

// wrapInc is (x + 1) mod n for x < n.
func wrapInc(x *hdl.Signal, n int) *hdl.Signal {
	m := x.Module()
	next := x.Add(m.ConstU(x.Width(), 1))
	if n == 1<<uint(x.Width()) {
		return next
	}
	return hdl.Mux(x.EqConst(uint64(n-1)), m.ConstU(x.Width(), 0), next)
}

// below is 1 when x < n.
func below(x *hdl.Signal, n int) *hdl.Signal {
	if x.Width() < 64 && n >= 1<<uint(x.Width()) {
		return x.Module().ConstU(1, 1)
	}
	return x.Lt(x.Module().ConstU(x.Width(), uint64(n)))
}

// RRArb is the lib-rrarb unit: a round-robin arbiter of N requests
// (RoundRobin); RRArbPorts are its ports.
type RRArb struct{ N int }

// ModuleName is the module's name with its parameters: lib_rrarb_n4.
func (a RRArb) ModuleName() string { return fmt.Sprintf("lib_rrarb_n%d", a.N) }

// RRArbPorts are lib-rrarb's ports (DESIGN.md, lib-rrarb).
type RRArbPorts struct {
	Req   *hdl.Signal `doc:"[n-1:0] the requests"`
	Ack   *hdl.Signal `doc:"the grant is taken: the pointer moves past idx"`
	Valid *hdl.Signal `doc:"a request is set: req != 0"`
	Idx   *hdl.Signal `doc:"[IW-1:0] the first requester at or after the pointer"`
	Grant *hdl.Signal `doc:"[n-1:0] one-hot of idx, 0 when none"`
}

// Build makes the module called name.
func (a RRArb) Build(name string) *hdl.Module { return hdl.ModuleOf(a.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (a RRArb) WithPorts(name string) (*hdl.Module, RRArbPorts) {
	m := hdl.NewModule(name)
	ports := RRArbPorts{Req: m.Input("req", a.N), Ack: m.Input("ack", 1)}
	valid, idx, grant, ptr := roundRobin(m, "ptr", ports.Req, ports.Ack)
	ports.Valid = drivenBy(m.Output("valid", 1), valid)
	ports.Idx = drivenBy(m.Output("idx", IndexWidth(a.N)), idx)
	ports.Grant = drivenBy(m.Output("grant", a.N), grant)
	a.properties(m, ports, ptr)
	return m, ports
}

// properties states what the arbiter promises (DESIGN.md, lib-rrarb): one
// grant while a request is set (none otherwise follows from
// grant_to_requester), only to a requester, idx its index, and a
// requester that keeps its request is served within n grants: at most
// n-1 grants to others pass it (WithinNTicks, a tick a grant taken).
//
// A grant passes over only requesters between the pointer and the
// winner, and moves the pointer past the winner, closer to each of them;
// so the grants that passed a requester plus its distance from the
// pointer stay below n (waits_within_distance), the lemma that makes the
// fairness inductive.
func (a RRArb) properties(m *hdl.Module, p RRArbPorts, ptr *hdl.Signal) {
	n, cw := a.N, CountWidth(2*a.N) // a wait plus a distance
	m.If(p.Valid, func() { OneHot(m, p.Grant, "grant_one_hot", "not exactly one grant while a request is set") })
	m.Assert(p.Grant.And(p.Req.Not()).RedOr().Not(), "grant_to_requester", "a requester that does not request is granted")
	m.Assert(p.Grant.Eq(BinaryToOneHot(p.Idx, n).And(p.Valid.Repl(n))), "idx_is_grant", "idx does not name the granted requester (or is not 0 with none)")
	m.Assert(ptr.Zext(cw).Lt(m.ConstU(cw, uint64(n))), "pointer_in_range", "the pointer names no requester")
	taken := p.Valid.And(p.Ack)
	within := make([]*hdl.Signal, n)
	var longest []*hdl.Signal
	for i := range n {
		req, granted := p.Req.Bit(i), p.Grant.Bit(i).And(p.Ack)
		d := WithinNTicks(m, req, req.Not().Or(granted), taken, n-1, fmt.Sprintf("served_within_n_grants_%d", i),
			fmt.Sprintf("requester %d kept its request while n grants went to others", i))
		me, at := m.ConstU(cw, uint64(i)), ptr.Zext(cw)
		distance := hdl.Mux(me.Ge(at), me.Sub(at), me.Add(m.ConstU(cw, uint64(n))).Sub(at))
		within[i] = d.Waited.Zext(cw).Add(distance).Lt(m.ConstU(cw, uint64(n)))
		m.Cover(granted, fmt.Sprintf("granted_%d", i))
		longest = append(longest, granted.And(d.Worst()))
	}
	m.Assert(Bus(within).RedAnd(), "waits_within_distance", "a requester that kept its request was passed over by more grants than its distance from the pointer allows")
	m.Cover(Bus(longest).RedOr(), "served_after_n_minus_1")
	m.Cover(taken.And(p.Idx.Lt(ptr)), "wraps_to_lowest")
	m.Cover(p.Req.RedAnd().And(p.Ack), "all_request")
}
