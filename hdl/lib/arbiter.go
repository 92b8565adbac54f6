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
	n := req.Width()
	p := m.Reg(name, IndexWidth(n))
	atOrAfter := req.And(m.ConstU(1, 1).Repl(n).ShlBy(p)) // requesters numbered p and up
	first := hdl.Mux(atOrAfter.RedOr(), atOrAfter, req)
	valid, idx, grant = Priority(first, false)
	m.If(valid.And(ack), func() { p.Set(wrapInc(idx, n)) })
	return valid, idx, grant
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
	valid, idx, grant := RoundRobin(m, "ptr", ports.Req, ports.Ack)
	ports.Valid = drivenBy(m.Output("valid", 1), valid)
	ports.Idx = drivenBy(m.Output("idx", IndexWidth(a.N)), idx)
	ports.Grant = drivenBy(m.Output("grant", a.N), grant)
	return m, ports
}
