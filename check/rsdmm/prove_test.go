package rsdmm

import (
	"flag"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

// The blocks' properties (issue 46) proved by Yosys on their Verilog:
// every assertion by k-induction (the RPU's in one step: it is
// combinational), every cover point reached by a trace. make test proves
// the RPU at N = 4 (both circuits), the RSU with its table and its keys,
// and the memory at w = 2, s = 2, l = 2; -prove.all adds the memory with
// each shift and other pipeline depths, and the RPU at N = 6.

var proveAll = flag.Bool("prove.all", false, "prove every configuration (make prove), not only the small ones")

func proveConfigs() []units.Config {
	cs := []units.Config{
		{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 2, "rb": 2}},
		{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 2, "rb": 2, "allpairs": 1}},
		{Unit: "rsdmm-rsu", Values: units.Values{"lw": 1, "ab": 3}},
		{Unit: "rsdmm-rsu", Values: units.Values{"lw": 2, "ab": 4, "hash": 1}},
		{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 2, "ab": 3, "dw": 1, "l": 2, "shift": 0}},
	}
	if !*proveAll {
		return cs
	}
	return append(cs,
		units.Config{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 2, "ab": 3, "dw": 1, "l": 1, "shift": 1}},
		units.Config{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 1, "ab": 3, "dw": 1, "l": 3, "shift": 2}},
		units.Config{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 3, "ab": 3, "dw": 1, "l": 2, "shift": 1}},
		units.Config{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 3, "rb": 1}},
		units.Config{Unit: "rsdmm-rsu", Values: units.Values{"lw": 2, "ab": 5, "hash": 1}},
	)
}

// TestProveProperties requires every assertion proven and every cover
// point reached (none unreachable: that would be a wrong cover point or
// dead logic).
func TestProveProperties(t *testing.T) {
	for _, c := range proveConfigs() {
		t.Run(c.String(), func(t *testing.T) { verify.RequireProperties(t, c, nil) })
	}
}

// propertiesHold makes the test fail, at its end, if a property of the
// bench's design failed on its stimulus.
func propertiesHold(t *testing.T, b *verify.Bench) {
	t.Cleanup(func() {
		if v := b.Sim().Violation(); v != nil {
			t.Errorf("%v", v)
		}
	})
}
