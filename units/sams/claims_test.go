package sams

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/stretchr/testify/require"
)

// claim is the claim of cs at where whose what has the prefix.
func claim(t *testing.T, cs []verdict.Claim, where, prefix string) verdict.Claim {
	t.Helper()
	for _, c := range cs {
		if c.Where == where && strings.HasPrefix(c.What, prefix) {
			return c
		}
	}
	t.Fatalf("no claim %s: %s...", where, prefix)
	return verdict.Claim{}
}

// table42AsPrinted is a measurement of Table 4.2 that gives the thesis's
// gates and, in a 10-cell adder, its inbound delays in adders.
func table42AsPrinted() table42Measured {
	m := table42Measured{ripple: synth.Gates{Gates: 165, Depth: 62}, ks: synth.GE{Area: 1000, Depth: 10},
		pnr: make([]synth.Timing, 2*len(thesisTable42))}
	for _, r := range thesisTable42 {
		m.gates = append(m.gates, synth.Gates{Gates: r.gates}, synth.Gates{Depth: 40})
		m.ges = append(m.ges, synth.GE{Area: float64(r.gates)}, synth.GE{Depth: int(math.Round(r.delayAdders * 10))})
	}
	return m
}

// Each claim follows the runs it is made from: a wrong "ours" planted into
// a copy of a measurement (the atu report's LUTs, Table 4.2's gates and
// inbound depth, a proof of appendix A) changes that row's verdict.
func TestClaimsFollowTheRuns(t *testing.T) {
	proofs, err := appendixProofs(&bytes.Buffer{})
	require.NoError(t, err)
	ices, err := measureATU(&bytes.Buffer{})
	require.NoError(t, err)
	times := make([]synth.Timing, len(thesisTable31)) // (not placed here: the claims take their notes from them)
	m := table42AsPrinted()
	cs := samsClaimsOf(proofs, ices, times, m)
	n := 1 + 2*len(thesisTable31) + 1 + 4*len(thesisTable42) + len(thesisTable46) + len(appendixA) - 1
	require.Len(t, cs, n, "a claim per result")
	for _, c := range cs {
		require.Equal(t, verdict.Thesis, c.Paper)
		if !c.Verdict.AtLeast(verdict.Matches) {
			require.NotEmpty(t, c.Why, "%s %s: %s short of matches without a cause", c.Where, c.What, c.Verdict)
		}
	}

	// Table 3.1, n = 16, q = 3: the thesis's 71 LUTs.
	lut := func(ices []synth.ICE40) verdict.Claim {
		return claim(t, samsClaimsOf(proofs, ices, times, m), "Table 3.1", "ATU LUTs, one address, n = 16, q = 3")
	}
	require.Equal(t, "71", lut(ices).Printed)
	planted := slices.Clone(ices)
	planted[1].LUT4 = 71
	require.Equal(t, verdict.Exact, lut(planted).Verdict)
	planted[1].LUT4 = 75
	require.Equal(t, verdict.Matches, lut(planted).Verdict)
	planted[1].LUT4 = 200
	require.Equal(t, verdict.DirectionOnly, lut(planted).Verdict)
	require.Equal(t, "200 SB_LUT4", lut(planted).Ours)

	// Table 4.2, q = 3: 26,784 gates, 2.3 adders deep.
	gates := func(m table42Measured) verdict.Claim {
		return claim(t, samsClaimsOf(proofs, ices, times, m), "Table 4.2", "memory logic gates (NAND2 equivalents), q = 3")
	}
	delay := func(m table42Measured) verdict.Claim {
		return claim(t, samsClaimsOf(proofs, ices, times, m), "Table 4.2", "inbound path delay in 32-bit adders, q = 3")
	}
	require.Equal(t, "26,784", gates(m).Printed)
	require.Equal(t, verdict.Exact, gates(m).Verdict)
	require.Equal(t, verdict.Exact, delay(m).Verdict)
	wrong := table42AsPrinted()
	wrong.ges = slices.Clone(m.ges)
	wrong.ges[2].Area = 13392 // half
	wrong.ges[3].Depth = 70   // 3x
	require.Equal(t, verdict.Close, gates(wrong).Verdict)
	require.Equal(t, verdict.DirectionOnly, delay(wrong).Verdict)

	// Theorem 2: holds, exactly, until a proof has a counterexample.
	unit := func(proofs []proof) verdict.Claim {
		return claim(t, samsClaimsOf(proofs, ices, times, m), "Theorem 2", "conflict-free for unit stride")
	}
	require.Equal(t, verdict.Exact, unit(proofs).Verdict)
	broken := slices.Clone(proofs)
	for i, r := range appendixA {
		if r.where == "Theorem 2" && strings.HasPrefix(r.what, "conflict-free for unit stride") {
			broken[i].Fail = "q=3 n=8 s=1: stride 1 from base 5 conflicts"
		}
	}
	require.Equal(t, verdict.Differs, unit(broken).Verdict)
	require.Equal(t, "fails: q=3 n=8 s=1: stride 1 from base 5 conflicts", unit(broken).Ours)
}
