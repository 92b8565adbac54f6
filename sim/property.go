package sim

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// Properties (hdl's Module.Assert, Assume and Cover): Step samples every
// one of them before the clock edge of each cycle in which rst is 0, on
// that cycle's values. The first assertion or assumption that fails is
// kept as the Violation; cover points count the cycles that reach them.

// propertyCheck is a property and the state word of its condition.
type propertyCheck struct {
	hdl.NetProperty
	slot   int32
	hits   uint64 // cover points: cycles that reached it
	failed bool   // assertions and assumptions: it has failed (Violations)
}

func (s *Sim) propertyChecks() []propertyCheck {
	var out []propertyCheck
	s.propWires = map[string]bool{}
	for _, p := range s.nl.Properties {
		out = append(out, propertyCheck{NetProperty: p, slot: s.slot[p.Node]})
		s.byName[p.Wire], s.width[p.Wire], s.propWires[p.Wire] = s.slot[p.Node], 1, true
	}
	return out
}

// Violation is a property that failed: an assertion that did not hold, or
// an assumption that the stimulus broke.
type Violation struct {
	Cycle uint64 // the cycle whose values broke it (Cycle() before its Step)
	hdl.NetProperty
}

func (v *Violation) Error() string { return fmt.Sprintf("cycle %d: %s", v.Cycle, v.What()) }

// What says which property failed, where it was made and its message.
func (v *Violation) What() string {
	what := "assertion"
	if v.Kind == hdl.Assumption {
		what = "assumption"
	}
	msg := fmt.Sprintf("%s %s failed (%s)", what, v.Name, v.Pos)
	if v.Message != "" {
		msg += ": " + v.Message
	}
	return msg
}

func (s *Sim) checkProperties() {
	st := s.kn.St
	for i := range s.props {
		p := &s.props[i]
		switch {
		case p.Kind == hdl.CoverPoint:
			p.hits += st[p.slot]
		case st[p.slot] == 0 && !p.failed:
			p.failed = true
			s.failures = append(s.failures, &Violation{Cycle: s.cycle, NetProperty: p.NetProperty})
		}
	}
}

// Violation returns the first property that failed, or nil while none
// has. Simulation goes on after it; a checker stops at it.
func (s *Sim) Violation() *Violation {
	if len(s.failures) == 0 {
		return nil
	}
	return s.failures[0]
}

// Violations returns the first failure of each property that has failed,
// in the order they happened (in one cycle, in the Netlist's order).
func (s *Sim) Violations() []*Violation { return s.failures }

// Cover is a cover point and the cycles that reached it.
type Cover struct {
	hdl.NetProperty
	Hits uint64
}

// Covers lists the design's cover points, in the Netlist's order, with
// the cycles that reached each so far.
func (s *Sim) Covers() []Cover {
	var out []Cover
	for _, p := range s.props {
		if p.Kind == hdl.CoverPoint {
			out = append(out, Cover{NetProperty: p.NetProperty, Hits: p.hits})
		}
	}
	return out
}
