package vmshr

import (
	"io"
	"slices"
	"time"

	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
)

// vmshrClaims are the thesis's chapter 6 results beside ours (gen -report
// fidelity), in the thesis's order: Alg. 6.1's worked example (6.3.3),
// Table 6.1 and 6.4.2's cost and timing on vmshr-cost's Yosys runs, Table
// 6.4 and 6.5.2 on the model's kernels, and section 6.5's findings on the
// vmshr report's runs (2 and 1 virtual channels, on Table 6.2's butterfly,
// the crossbar's beside the 1-VC rows).
var vmshrClaims = &units.Claims{
	Yosys: true,
	// Measured: 33 s (24 s of CPU) on two busy cores from
	// rtl/synth-results.json alone, FillBlock's and the whole units' abc
	// -fast runs not in it; 8 s with the tool cache warm.
	Time: 30 * time.Second,
	Run: func(progress io.Writer) ([]verdict.Claim, error) {
		c, err := measureCosts(progress)
		if err != nil {
			return nil, err
		}
		rs, err := EvaluateAll(progress)
		if err != nil {
			return nil, err
		}
		return slices.Concat([]verdict.Claim{workedClaim()}, costClaims(c), table64Claims(Kernels()), findings(rs, Butterfly)), nil
	},
}
