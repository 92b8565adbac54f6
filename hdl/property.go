package hdl

import "fmt"

// Properties: what a block promises, stated once in Go beside the logic.
// An assertion must hold, an assumption restricts what a proof may feed
// the inputs, and a cover point is a condition the stimulus should reach.
// Each is a 1-bit condition, sampled in every cycle in which rst is 0 (in
// every evaluation of a module without state), on that cycle's values
// before the clock edge. Inside an If or Switch body a property applies
// only on that path: an assertion then holds wherever the path is taken,
// a cover point is reached where the path is taken and the condition is 1.
//
// Package sim checks every property of the design on every cycle it runs
// and counts the cover points; the Verilog carries them, with the logic
// that only they read (ghost state: a shadow counter, a copy of what a
// queue must hold), inside `ifdef FORMAL, where Yosys's read_verilog
// -formal finds them (gen -prove).
//
//	count := m.Reg("count", 4)
//	m.Assert(count.Le(m.ConstU(4, 9)), "in_range", "count stays a decimal digit")
//	m.If(push, func() { m.Assert(full.Not(), "no_overflow", "no push into a full queue") })
//	m.Cover(full, "full")

// PropertyKind is what a property asks of the design.
type PropertyKind uint8

const (
	Assertion  PropertyKind = iota // must hold in every cycle
	Assumption                     // a proof may rely on it; simulation checks the stimulus keeps it
	CoverPoint                     // should be reached
)

func (k PropertyKind) String() string {
	return [...]string{"assert", "assume", "cover"}[k]
}

// property is one property of a module. cond is the condition as it
// applies, the path around it included: for an assertion or assumption
// 1 where it holds, for a cover point 1 where it is reached.
type property struct {
	kind    PropertyKind
	name    string
	message string
	cond    *Signal
	pos     Pos
}

// Assert states that cond (1 bit) holds in every cycle, on the paths of the
// If and Switch bodies around the call. name identifies it in reports and
// in the Verilog (an identifier, unique among the module's properties);
// message says what went wrong when it fails.
func (m *Module) Assert(cond *Signal, name, message string) {
	m.property(callerPos(), Assertion, cond, name, message)
}

// Assume states that cond (1 bit) holds in every cycle, as Assert; a proof
// considers only the inputs that keep it, and simulation reports a cycle
// whose stimulus breaks it.
func (m *Module) Assume(cond *Signal, name string) {
	m.property(callerPos(), Assumption, cond, name, "")
}

// Cover names a condition (1 bit) the stimulus should reach, on the paths
// of the If and Switch bodies around the call; simulation counts the
// cycles that reach it and a proof finds a trace to it or shows it
// unreachable.
func (m *Module) Cover(cond *Signal, name string) {
	m.property(callerPos(), CoverPoint, cond, name, "")
}

func (m *Module) property(pos Pos, kind PropertyKind, cond *Signal, name, message string) {
	what := fmt.Sprintf("%s %q", kind, name)
	if why := CheckName(name); why != "" {
		m.errorf(pos, "%s: %s", what, why)
		return
	}
	for _, p := range m.props {
		if p.name == name {
			m.errorf(pos, "%s: module %s already has a property of that name (%s at %s)", what, m.name, p.kind, p.pos)
			return
		}
	}
	if !m.check1(pos, what, cond) {
		return
	}
	if m.lowered {
		m.errorf(pos, "%s: module %s was already elaborated; finish building it first", what, m.name)
		return
	}
	if on := m.pathHere(pos); on != nil {
		if kind == CoverPoint {
			cond = on.And(cond)
		} else {
			cond = on.Not().Or(cond)
		}
	}
	m.props = append(m.props, property{kind: kind, name: name, message: message, cond: cond, pos: pos})
}

// pathHere is a 1-bit wire that is 1 exactly on the paths that reach the
// current If or Switch body, nil outside any: a wire assigned 0 before
// everything else and 1 here, lowered like every assignment.
func (m *Module) pathHere(pos Pos) *Signal {
	if len(m.open) == 0 {
		return nil
	}
	on := m.add(pos, OpWire, 1, "", nil)
	zero, one := m.add(pos, OpConst, 1, ""), m.add(pos, OpConst, 1, "")
	zero.val, one.val = MustU(1, 0), MustU(1, 1)
	if m.setPos == nil {
		m.setPos = map[*Signal]Pos{}
	}
	m.setPos[on] = pos
	m.targets = append(m.targets, on)
	m.root.stmts = append([]stmt{{dst: on, src: zero, pos: pos}}, m.root.stmts...)
	b := m.current()
	b.stmts = append(b.stmts, stmt{dst: on, src: one, pos: pos})
	return on
}
