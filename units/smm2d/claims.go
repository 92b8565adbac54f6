package smm2d

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
)

// smm2dClaims are the thesis's 2DSMM results beside ours (gen -report
// fidelity), in the thesis's order: Figure 3.6's module assignment (the
// layout picture's cells), Tables 3.2 and 3.3 (the smm2d report's
// measurements), Figures 3.17-3.20 and Table 3.2's logic column (the
// smm2d-scaling report's), and appendix B's theorems (the exhaustive
// check of theorems.go).
var smm2dClaims = &units.Claims{
	Yosys: true, Time: 10 * time.Second,
	Run: func(progress io.Writer) ([]verdict.Claim, error) {
		r, err := measureReview(progress)
		if err != nil {
			return nil, err
		}
		s, err := measureScaling(progress)
		if err != nil {
			return nil, err
		}
		found, err := checkAllTheorems(progress)
		if err != nil {
			return nil, err
		}
		cs := []verdict.Claim{fig36Claim()}
		for _, b := range []int{blockAGU, blockATU, blockInward} {
			cs = append(cs, r.pathClaim(b))
		}
		cs = append(cs, r.adderClaim(blockAGU), r.adderClaim(blockATU))
		cs = append(cs, s.logicClaims()...)
		cs = append(cs, r.storageClaims()...)
		cs = append(cs, s.trendClaims()...)
		return append(cs, theoremClaims(found)...), nil
	},
}

// fig36 is thesis Figure 3.6 as printed: m_v,m_h of rows i = 0..3 and
// the start of row 4, for N = 16, 2^p = 2, 2^q = 4, 2^vs = 2, 2^hs = 2.
var fig36 = []string{
	"0,0 0,1 0,2 0,3 1,1 1,0 1,3 1,2 1,0 1,1 1,2 1,3 0,1 0,0 0,3 0,2",
	"1,0 1,1 1,2 1,3 0,1 0,0 0,3 0,2 0,0 0,1 0,2 0,3 1,1 1,0 1,3 1,2",
	"1,0 1,1 1,2 1,3 0,1 0,0 0,3 0,2 0,0 0,1 0,2 0,3 1,1 1,0 1,3 1,2",
	"0,0 0,1 0,2 0,3 1,1 1,0 1,3 1,2 1,0 1,1 1,2 1,3 0,1 0,0 0,3 0,2",
	"0,0 0,1",
}

// fig36Scheme is Figure 3.6's scheme in the hardware's pre-add form (the
// forms agree for p = 1); the figure leaves M open, 8 holds its rows.
var fig36Scheme = Scheme{Geometry: Geometry{P: 1, Q: 2, MB: 3, NB: 4}, VS: 1, HS: 1}

// fig36Claim sets Figure 3.6's cells beside the layout picture's (gen
// -layout -unit smm2d -p 1 -q 2 -mb 3 -nb 4 -vs 1 -hs 1).
func fig36Claim() verdict.Claim { return fig36Against(fig36) }

// fig36Against sets the cells of a figure printed as rows of "m_v,m_h"
// beside the layout picture's.
func fig36Against(rows []string) verdict.Claim {
	pic := picture{s: fig36Scheme}
	cells, equal := 0, 0
	var first string
	for i, row := range rows {
		for j, want := range strings.Fields(row) {
			cells++
			if got, _ := pic.cell(uint64(i), uint64(j)); got == want {
				equal++
			} else if first == "" {
				first = fmt.Sprintf("first difference at (%d, %d): ours %s, the figure %s", i, j, got, want)
			}
		}
	}
	c := verdict.Stated(verdict.Thesis, "Fig. 3.6",
		"module assignment m_v,m_h for N = 16, 2^p = 2, 2^q = 4, 2^vs = 2, 2^hs = 2, every cell printed (rows i = 0..3 and two of row 4; row 0 shown)",
		rows[0], equal == cells, true, fmt.Sprintf("%d of %d cells equal (gen -layout)", equal, cells))
	return orNotMeasured(c, first)
}

// theorems are appendix B's results the check covers, in the thesis's
// order, with the pattern each of Theorems 1-6 is about.
var theorems = []struct {
	where, what, printed string
	pattern              Pattern
}{
	{"App. B Theorem 1", "every strided row of 2^(p+q) with HS = sigma_h*2^hs is conflict-free", "accessed in parallel", StridedRow},
	{"App. B Theorem 2", "every continuous row of 2^(p+q) from a horizontal base at 2^(q+min(p,hs)) boundaries is conflict-free", "accessed in parallel", ContinuousRow},
	{"App. B Theorem 3", "every forward diagonal of 2^(p+q) with VS = sigma_v*2^vs, HS = sigma_h*2^hs is conflict-free", "accessed in parallel", ForwardDiagonal},
	{"App. B Theorem 4", "every backward diagonal of 2^(p+q) with VS = sigma_v*2^vs, HS = sigma_h*2^hs is conflict-free", "accessed in parallel", BackwardDiagonal},
	{"App. B Theorem 5", "every strided block of 2^p x 2^q with VS = sigma_v*2^vs, HS = sigma_h*2^hs is conflict-free", "accessed in parallel", StridedBlock},
	{"App. B Theorem 6", "every continuous block of 2^p x 2^q from bases at 2^min(p,vs), 2^min(q,hs) boundaries is conflict-free", "accessed in parallel", ContinuousBlock},
}

// theoremClaims are appendix B's theorems beside the exhaustive check.
func theoremClaims(found TheoremCheck) []verdict.Claim {
	accepted := 0
	for _, n := range found.Accepted {
		accepted += n
	}
	checked := fmt.Sprintf("checked exhaustively on the spec model (theorems.go): %d accesses Supported accepts, over every geometry 1 <= p <= q, p+q <= 5 (mb = p+3, nb = p+q+2), both forms of m_v, every vs, hs and base, sigma in {1, 3, -1}, addresses wrapping mod M and N; Yosys's SAT solver proves Theorems 1-6 on the AGU and ATU netlists at p = 1, q = 2, mb = nb = 6 (check/smm2d, make prove)",
		accepted)
	why := func(c verdict.Claim) verdict.Claim {
		if len(found.Failures) > 0 {
			return c.Because(checked + "; failed: " + strings.Join(found.Failures, "; "))
		}
		return c.Because(checked)
	}
	var cs []verdict.Claim
	for _, th := range theorems {
		pat := th.pattern
		cs = append(cs, why(verdict.Stated(verdict.Thesis, th.where, th.what, th.printed, found.Holds(pat), true,
			fmt.Sprintf("%d of %d accesses conflict-free", found.Accepted[pat]-found.Conflicting[pat], found.Accepted[pat]))))
	}
	unroutable := 0
	for _, n := range found.Unroutable {
		unroutable += n
	}
	cs = append(cs, why(verdict.Stated(verdict.Thesis, "App. B Theorem 7",
		"the lanes of every access of Theorems 1-6, arranged 2^p x 2^q, share m_h down a column (m_v along a row for the continuous row): the router's grouping",
		"assigned to same m_h", accepted > 0 && unroutable == 0, true, fmt.Sprintf("%d of %d accesses routable", accepted-unroutable, accepted))))
	cs = append(cs, why(verdict.Stated(verdict.Thesis, "App. B Theorem 6",
		"the row function r(i,j) that Theorem 6 justifies: (i, j) -> (bank, r(i,j)) is one to one",
		"assigned to different memory modules", found.Schemes > 0 && found.Collisions == 0, true,
		fmt.Sprintf("one to one on %d of %d schemes", found.Schemes-found.Collisions, found.Schemes))))
	return cs
}
