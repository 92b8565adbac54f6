package verify

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
)

// Every simulator checks the design's properties (hdl's Assert, Assume
// and Cover) in every cycle out of reset, before the clock edge, and
// counts the cover points: the Go simulator itself, and the compiled Go,
// Verilator and Icarus harnesses on the wires the Verilog's FORMAL
// section computes (_assert_<name>, _assume_<name>, _cover_<name>). A
// harness stops at the first failing property of a cycle, in the
// Netlist's order as the Go simulator does, writing one line on stderr:
//
//	parmem: property failed in cycle <c> of the batch: <what>
//
// which proc.fail turns into a *PropertyError.

// PropertyError is a property that failed in a simulator: an assertion
// that did not hold, or an assumption the stimulus broke.
type PropertyError struct {
	Sim   string
	Cycle int    // within the batch given to Run
	What  string // the property, its Go line and message (sim.Violation.What)
}

func (e *PropertyError) Error() string {
	return fmt.Sprintf("%s: %s (cycle %d of the batch)", e.Sim, e.What, e.Cycle)
}

// propertyLine is how a harness reports the property that stopped it.
const propertyLine = "parmem: property failed in cycle %d of the batch: %s"

var propertyLineRE = regexp.MustCompile(`(?m)^parmem: property failed in cycle (\d+) of the batch: (.*)$`)

// parsePropertyError finds a harness's report of a failed property in
// what the process wrote on stderr.
func parsePropertyError(simName, stderr string) *PropertyError {
	m := propertyLineRE.FindStringSubmatch(stderr)
	if m == nil {
		return nil
	}
	c, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &PropertyError{Sim: simName, Cycle: c, What: m[2]}
}

// asPropertyError returns the property failure err carries, if any.
func asPropertyError(err error) *PropertyError {
	var pe *PropertyError
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// harnessProperty is a property as a harness checks it: the wire of its
// condition, where the Verilog declares it.
type harnessProperty struct {
	hdl.NetProperty
	Scope string // the instance path within the top ("" for the top's own)
	Wire  string // the wire's name in its module
	What  string // what the harness says when it fails
}

// harnessProperties lists the design's properties for a harness, in the
// Netlist's order, with whether any is a cover point.
func harnessProperties(nl *hdl.Netlist) []harnessProperty {
	var out []harnessProperty
	for _, p := range nl.Properties {
		hp := harnessProperty{NetProperty: p, Wire: p.Wire}
		if i := strings.LastIndexByte(p.Wire, '.'); i >= 0 {
			hp.Scope, hp.Wire = p.Wire[:i], p.Wire[i+1:]
		}
		if p.Kind != hdl.CoverPoint {
			hp.What = (&sim.Violation{NetProperty: p}).What()
		}
		out = append(out, hp)
	}
	return out
}

// coverCount is the number of cover points among props.
func coverCount(props []harnessProperty) int {
	n := 0
	for _, p := range props {
		if p.Kind == hdl.CoverPoint {
			n++
		}
	}
	return n
}

// octalString is s as a double-quoted string literal that C++ and Verilog
// both read: printable ASCII as itself, every other byte, the quote and
// the backslash as a three-digit octal escape.
func octalString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := range len(s) {
		c := s[i]
		if c < ' ' || c > '~' || c == '"' || c == '\\' || c == '%' {
			fmt.Fprintf(&b, "\\%03o", c)
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}

// coverCounter is a simulator that counts the cycles that reached each
// cover point, in the Netlist's order.
type coverCounter interface {
	coverHits() ([]uint64, error)
}

// coversOf is the design's cover points with the cycles of the run that
// reached each, as the Go simulator among sims counted them; every other
// simulator that counts them must have counted the same.
func coversOf(sims []Simulator) ([]sim.Cover, error) {
	var ref *GoSim
	for _, s := range sims {
		if g, ok := s.(*GoSim); ok {
			ref = g
			break
		}
	}
	if ref == nil {
		return nil, nil
	}
	covers := ref.sim.Covers()
	for _, s := range sims {
		cc, ok := s.(coverCounter)
		if !ok || s == Simulator(ref) {
			continue
		}
		hits, err := cc.coverHits()
		if err != nil {
			return covers, fmt.Errorf("lockstep: %s: cover counts: %w", s.Name(), err)
		}
		if len(hits) == 0 { // built without the properties' checks
			continue
		}
		if len(hits) != len(covers) {
			return covers, fmt.Errorf("lockstep: %s counts %d cover points, %s %d", s.Name(), len(hits), ref.Name(), len(covers))
		}
		for i, c := range covers {
			if hits[i] != c.Hits {
				return covers, fmt.Errorf("lockstep: cover point %s (%s) reached in %d cycles by %s, in %d by %s", c.Name, c.Pos, c.Hits, ref.Name(), hits[i], s.Name())
			}
		}
	}
	return covers, nil
}
