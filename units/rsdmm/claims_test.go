package rsdmm

import (
	"bytes"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/stretchr/testify/require"
)

// claimOf is the claim from where whose result starts with what.
func claimOf(t *testing.T, cs []verdict.Claim, where, what string) verdict.Claim {
	t.Helper()
	i := slices.IndexFunc(cs, func(c verdict.Claim) bool { return c.Where == where && strings.HasPrefix(c.What, what) })
	require.GreaterOrEqual(t, i, 0, "no claim %s: %s...", where, what)
	return cs[i]
}

// TestClaimsFollowTheRuns: every claim comes from the runs it is given, so
// planting a wrong "ours" into a copy of a run changes its row's verdict:
// a Table II cell off by half, a DMM transpose one time unit slower, a
// barrier that does not hold, Theorem 6's worst pattern twice as
// congested, the RSDMM's Naive Transpose slower by sqrt(n).
func TestClaimsFollowTheRuns(t *testing.T) {
	var progress bytes.Buffer
	ts, err := runTransposes(7, &progress)
	require.NoError(t, err)
	pr, err := runPatterns(40, &progress)
	require.NoError(t, err)
	g, err := measureCongestions(tableIICells(true), 2000, &progress)
	require.NoError(t, err)
	rsu := costMeasured{Adders: map[int]int{5: 32}}
	cs := nakano(ts, pr, g, rsu)
	require.Len(t, cs, 39)
	for _, c := range cs {
		require.Equal(t, verdict.Nakano, c.Paper)
		require.NotEmpty(t, c.Printed, c.What)
		if !c.Verdict.AtLeast(verdict.Matches) {
			require.NotEmpty(t, c.Why, "%s: %s is %s without a cause", c.Source(), c.What, c.Verdict)
		}
	}

	// Table II, n = 1024, w = 16: every cell within 10%, until one is not.
	column := func(g congestions) verdict.Claim {
		return claimOf(t, g.claims(), "Table II", "E[Y]/s on the RSDMM (random shift), n = 1024, w = 16,")
	}
	require.Equal(t, verdict.Matches, column(g).Verdict)
	planted := congestions{rounds: g.rounds, got: maps.Clone(g.got)}
	planted.got[cell{1 << 10, 16, 3, true}] = 1.5 * 2.064
	require.Equal(t, verdict.Close, column(planted).Verdict)
	require.Equal(t, "2.064", column(planted).Printed)
	require.Contains(t, column(planted).What, "(s = 3); 9 of 10 cells within 10%")

	// Theorem 2: the DMM's transposes exactly as III derives them.
	theorem2 := func(ts *transposes) verdict.Claim { return claimOf(t, ts.claims(), "Theorem 2", "") }
	require.Equal(t, verdict.Exact, theorem2(ts).Verdict)
	i := slices.IndexFunc(ts.runs, func(tr transposeRun) bool { return tr.mc == machines[0] && tr.sqrtN == 64 })
	slower := &transposes{runs: ts.runs, got: slices.Clone(ts.got), sizes: ts.sizes}
	slower.got[i].Lemma1++
	require.Equal(t, verdict.Differs, theorem2(slower).Verdict)

	// Lemma 1: the cycle model with barriers takes C + (l-1)T.
	lemma1 := func(ts *transposes) verdict.Claim { return claimOf(t, ts.claims(), "Lemma 1", "") }
	require.Equal(t, verdict.Exact, lemma1(ts).Verdict)
	late := &transposes{runs: ts.runs, got: slices.Clone(ts.got), sizes: ts.sizes}
	late.got[i].Barrier++
	require.Equal(t, verdict.Differs, lemma1(late).Verdict)

	// Table I: the RSDMM's Naive Transpose grows as n/w + nl/p, until it
	// takes sqrt(n) times longer.
	naive := func(ts *transposes) verdict.Claim {
		return claimOf(t, ts.claims(), "Table I", "the Naive Transpose on the RSDMM")
	}
	require.Contains(t, []verdict.Verdict{verdict.Exact, verdict.Matches}, naive(ts).Verdict)
	steeper := &transposes{runs: ts.runs, got: slices.Clone(ts.got), sizes: ts.sizes}
	for k, tr := range ts.runs[:ts.sizes] {
		if tr.mc == machines[2] && !tr.diagonal {
			steeper.got[k].Lemma1 *= tr.sqrtN
		}
	}
	require.Equal(t, verdict.Close, naive(steeper).Verdict, "a = 1.5")

	// Theorem 6: the largest mean of any pattern on the RSDMM beside
	// f_w(s)/(es) = 2.258 at w = 32, s = 4.
	theorem6 := func(pr *patternRuns) verdict.Claim { return claimOf(t, pr.claims(), "Theorem 6", "") }
	require.Equal(t, verdict.Matches, theorem6(pr).Verdict)
	require.Equal(t, "2.258", theorem6(pr).Printed)
	k := slices.IndexFunc(pr.jobs, func(j patternJob) bool { return j.pt.name == "random" && j.mc == machines[2] })
	crowded := &patternRuns{rounds: pr.rounds, jobs: pr.jobs, times: slices.Clone(pr.times)}
	crowded.times[k].Congestion *= 2
	require.Equal(t, verdict.Close, theorem6(crowded).Verdict)

	// V: the RSU adds once a lane; a second adder a lane breaks it.
	require.Equal(t, verdict.Exact, rsuClaim(rsu).Verdict)
	require.Equal(t, verdict.Differs, rsuClaim(costMeasured{Adders: map[int]int{5: 64}}).Verdict)
}

// TestClaimsOnPlaceholders: the claims list their jobs on zero results
// (sweep.Plan, as the fidelity report's test and a shard do) without
// failing, and run no job of the reports' while listing.
func TestClaimsOnPlaceholders(t *testing.T) {
	var cs []verdict.Claim
	jobs, err := sweep.Plan(func(w io.Writer) error {
		var err error
		cs, err = rsdmmClaims.Run(w)
		return err
	})
	require.NoError(t, err)
	require.Equal(t, 92+36+100+1, jobs, "rsdmm-transpose's, rsdmm-patterns', Table II's cells with the shift, the RSU")
	require.Len(t, cs, 39)
	lemma5 := claimOf(t, cs, "Lemma 5", "")
	require.Equal(t, verdict.Differs, lemma5.Verdict, "computed, not run")
	require.Contains(t, lemma5.Ours, "in 5 of 120 cases (s = 2, w = 8..128)")
	require.Equal(t, verdict.Exact, claimOf(t, cs, "Fig. 4", "").Verdict)
	require.Equal(t, verdict.Exact, claimOf(t, cs, "Fig. 6", "").Verdict)
	require.True(t, math.IsNaN(claimOf(t, cs, "Fig. 7", "").Ratio))
}

// TestSlope: the fit of Table I's claims finds a power law's exponent.
func TestSlope(t *testing.T) {
	xs := []float64{1, 10, 100, 1000}
	var ys []float64
	for _, x := range xs {
		ys = append(ys, 3*math.Pow(x, 1.5))
	}
	require.InDelta(t, 1.5, slope(xs, ys), 1e-12)
}
