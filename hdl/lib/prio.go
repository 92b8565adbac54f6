package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// FirstOneHot is a fixed-priority arbiter over request bits: a one-hot
// grant (bit i for req[i]) of the lowest requester, or the highest with
// highest, and 0 when nothing is requested. Each grant is its request
// ANDed with "no request before it", a ripple chain of ORs.
//
// Used by units/sams: the InSwitch lets the highest lane win a bank slot
// (thesis Fig. 4.3), the memory serves the lowest waiting lane's row.
func FirstOneHot(req []*hdl.Signal, highest bool) *hdl.Signal {
	m := req[0].Module()
	grant := make([]*hdl.Signal, len(req))
	before := m.ConstU(1, 0)
	for k := range req {
		i := k
		if highest {
			i = len(req) - 1 - k
		}
		grant[i] = req[i].And(before.Not())
		before = before.Or(req[i])
	}
	return Bus(grant)
}

// Priority is a priority encoder over the bus req: the lowest set bit (the
// highest with highest) as a one-hot and as an index, and valid = req != 0.
// With no bit set, idx and onehot are 0.
func Priority(req *hdl.Signal, highest bool) (valid, idx, onehot *hdl.Signal) {
	onehot = FirstOneHot(Split(req), highest)
	return req.RedOr(), OneHotToBinary(onehot), onehot
}

// Prio is the lib-prio unit: a priority encoder of N requests; PrioPorts
// are its ports.
type Prio struct {
	N   int
	MSB bool // the highest set bit wins
}

// ModuleName is the module's name with its parameters: lib_prio_n8_msb0.
func (p Prio) ModuleName() string { return fmt.Sprintf("lib_prio_n%d_msb%d", p.N, b2i(p.MSB)) }

// PrioPorts are lib-prio's ports (DESIGN.md, lib-prio): idx and onehot
// are the lowest set bit of req (the highest with MSB), both 0 when none
// is.
type PrioPorts struct {
	Req    *hdl.Signal `doc:"[n-1:0] the requests"`
	Valid  *hdl.Signal `doc:"a request is set: req != 0"`
	Idx    *hdl.Signal `doc:"[IW-1:0] the first set bit's index, 0 when none"`
	Onehot *hdl.Signal `doc:"[n-1:0] the first set bit alone, 0 when none"`
}

// Build makes the module called name.
func (p Prio) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (p Prio) WithPorts(name string) (*hdl.Module, PrioPorts) {
	m := hdl.NewModule(name)
	ports := PrioPorts{Req: m.Input("req", p.N)}
	valid, idx, onehot := Priority(ports.Req, p.MSB)
	ports.Valid = drivenBy(m.Output("valid", 1), valid)
	ports.Idx = drivenBy(m.Output("idx", IndexWidth(p.N)), idx)
	ports.Onehot = drivenBy(m.Output("onehot", p.N), onehot)
	p.properties(m, ports)
	return m, ports
}

// properties states what the encoder promises (DESIGN.md, lib-prio):
// valid says whether a request is set, onehot is one of the requests
// (one-hot while one is set; none otherwise, as it picks only requests)
// and idx its index, and no request comes before it (below it, or above
// it with MSB).
func (p Prio) properties(m *hdl.Module, ports PrioPorts) {
	req, onehot := ports.Req, ports.Onehot
	m.Assert(ports.Valid.Eq(req.RedOr()), "valid_iff_request", "valid does not say whether a request is set")
	m.If(ports.Valid, func() { OneHot(m, onehot, "onehot_one_hot", "not exactly one bit while a request is set") })
	m.Assert(onehot.And(req.Not()).RedOr().Not(), "onehot_is_a_request", "onehot picks a bit that is not requested")
	m.Assert(onehot.Eq(BinaryToOneHot(ports.Idx, p.N).And(ports.Valid.Repl(p.N))), "idx_is_onehot", "idx is not onehot's index (or not 0 with no request)")
	under := onehot.Sub(m.ConstU(p.N, 1)) // the bits below the one picked (all with none)
	before := req.And(under)
	if p.MSB {
		before = req.And(under.Or(onehot).Not())
	}
	m.Assert(before.RedOr().Not(), "first_request", "a request comes before the one picked")
	m.Cover(ports.Valid.Not(), "none")
	if p.N > 1 {
		m.Cover(req.And(req.Sub(m.ConstU(p.N, 1))).RedOr(), "several")
	}
	m.Cover(onehot.Bit(p.N-1), "top_picked")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
