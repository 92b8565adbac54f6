package sams

import (
	"io"
	"slices"
	"time"

	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
)

// samsClaims are the thesis's SAMS results beside ours (gen -report
// fidelity), in the thesis's order: section 3.2.4's worked example,
// Table 3.1 (the atu report's runs), Table 4.2 (the sams report's),
// Table 4.6, which we do not reproduce, and appendix A's properties,
// theorems and corollary, checked on the Go model (theorems.go).
var samsClaims = &units.Claims{
	Yosys: true,
	// The model checks take seconds, the Yosys runs as long when the tool
	// cache has them (rtl/synth-results.json); synthesizing the memory
	// logic at q = 4 anew takes minutes.
	Time: 20 * time.Second,
	Run: func(progress io.Writer) ([]verdict.Claim, error) {
		proofs, err := appendixProofs(progress)
		if err != nil {
			return nil, err
		}
		ices, err := measureATU(progress)
		if err != nil {
			return nil, err
		}
		times, err := placeRouteATU(progress)
		if err != nil {
			return nil, err
		}
		m, err := measure42(progress)
		if err != nil {
			return nil, err
		}
		return samsClaimsOf(proofs, ices, times, m), nil
	},
}

// samsClaimsOf are samsClaims from the runs: appendixProofs',
// measureATU's, placeRouteATU's and measure42's.
func samsClaimsOf(proofs []proof, ices []synth.ICE40, times []synth.Timing, m table42Measured) []verdict.Claim {
	a := appendixClaims(proofs) // a[0], section 3.2.4's example, comes before Table 3.1
	return slices.Concat(a[:1], table31Claims(ices, times), table42Claims(m), table46Claims(), a[1:])
}

// thesisTable46 is thesis Table 4.6's execution-time reductions (column R
// of "Execution Time"), the SAMS SPE against the original on CellSim.
var thesisTable46 = []struct{ benchmark, reduction string }{
	{"streamcluster", "11%"},
	{"fluidanimate", "22%"},
	{"Wilson-Dirac Operator", "18%"},
	{"complex multiplication", "24%"},
	{"matrix transpose", "37%"},
}

// table46Claims are thesis Table 4.6's reductions, none reproduced.
func table46Claims() []verdict.Claim {
	var cs []verdict.Claim
	for _, r := range thesisTable46 {
		cs = append(cs, verdict.Missing(verdict.Thesis, "Table 4.6", "execution time reduction, SAMS SPE over the original Cell SPE, "+r.benchmark, r.reduction,
			"It needs a Cell/BE full-system simulator (CellSim, modified for the SAMS local store's latencies and instructions, Table 4.4) running the benchmarks of Table 4.3 compiled by the extended spu-gcc; the family models the memory, not the SPU."))
	}
	return cs
}
