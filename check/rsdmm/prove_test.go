package rsdmm

import (
	"flag"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

// The blocks' properties (issue 46) proved by Yosys on their Verilog:
// every assertion by k-induction (the RPU's in one step: it is
// combinational), every cover point reached by a trace, at the sizes the
// family lists to prove (units.Family.Prove; -prove.all adds More).

var proveAll = flag.Bool("prove.all", false, "prove every configuration (make prove), not only the small ones")

// TestProveProperties requires every assertion proven and every cover
// point reached (none unreachable: that would be a wrong cover point or
// dead logic).
func TestProveProperties(t *testing.T) {
	f, err := units.LookupFamily("rsdmm")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Prove.All(*proveAll) {
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
