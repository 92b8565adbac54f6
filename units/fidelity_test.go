package units

import (
	"io"
	"testing"
	"time"

	"github.com/parmem/parmem/internal/verdict"
	"github.com/stretchr/testify/require"
)

// The fidelity report counts each family's verdicts, lists every claim
// and puts the farthest results first among its gaps: differs before
// direction only, the opposite sign before a factor, a factor before a
// result without a magnitude.
func TestFidelityTables(t *testing.T) {
	li, th := verdict.Li, verdict.Thesis
	cs := []FamilyClaim{
		{"a", verdict.Measured(li, "6.1", "ten x off", "+10%", 0.1, 0.01, "+1%")},
		{"a", verdict.Measured(li, "6.1", "matches", "+10%", 0.1, 0.105, "+10.5%")},
		{"b", verdict.Stated(th, "A", "a theorem", "", true, true, "proven")},
		{"b", verdict.Stated(th, "5", "an order", "up", false, false, "down")},
		{"b", verdict.Measured(th, "5", "opposite", "+6%", 0.06, -0.01, "-1%")},
		{"b", verdict.Measured(th, "5", "three x off", "+6%", 0.06, 0.02, "+2%")},
		{"b", verdict.Missing(th, "Table 4.6", "not here", "-11%", "needs CellSim")},
	}
	ts := FidelityTables(cs)
	require.Len(t, ts, 3)
	per, all, gaps := ts[0], ts[1], ts[2]
	require.Equal(t, [][]string{
		{"a", "2", "0", "1", "0", "1", "0", "0", "1"},
		{"b", "5", "1", "0", "0", "1", "2", "1", "1"},
		{"all", "7", "1", "1", "0", "2", "2", "1", "2"},
	}, per.Rows)
	require.Len(t, all.Rows, len(cs))
	require.Contains(t, all.Notes[0], "7 results: 1 exact, 1 matches, 0 close, 2 direction only, 2 differs, 1 not reproduced")
	var order []string
	for _, r := range gaps.Rows {
		order = append(order, r[2])
	}
	require.Equal(t, []string{"opposite", "an order", "ten x off", "three x off"}, order)
}

// gen -report fidelity exists only when a family declares claims; -family
// picks one; a family's claims need Run and Time.
func TestFidelityReportRegistration(t *testing.T) {
	r := NewRegistry()
	require.NotContains(t, r.ReportNames(), FidelityName)
	f := testFamily("fam")
	f.Claims = &Claims{Time: time.Second, Run: func(io.Writer) ([]verdict.Claim, error) {
		return []verdict.Claim{verdict.Measured(verdict.Nakano, "Lemma 1", "a bound", "2", 2, 2, "2")}, nil
	}}
	require.NoError(t, r.Register(f))
	require.Equal(t, FidelityName, r.ReportNames()[0])
	rep, err := r.Report(FidelityName)
	require.NoError(t, err)
	require.Equal(t, []string{"fam", "all"}, rep.Params.Lookup("family").Choices)
	ts, err := rep.Run(Values{"family": 0}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "exact", ts[1].Rows[0][6])
	g := testFamily("gam")
	g.Claims = &Claims{Time: time.Second}
	require.ErrorContains(t, r.Register(g), "family gam: claims without Run or Time")
}
