package verdict

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestValue holds the rule to the cases it is written for: the examples
// of issue 43 and the bounds of each verdict, on both signs.
func TestValue(t *testing.T) {
	for _, tc := range []struct {
		paper, ours float64
		want        Verdict
	}{
		{160, 160, Exact},
		{0, 0, Exact},
		{0.109, 0.011, DirectionOnly}, // +1.1 % against +10.9 %: 10x off
		{0.11, 0.01, DirectionOnly},   // +1 % against +11 %
		{0.42, 0.29, Close},           // 1.29X against 1.42X
		{100, 110, Matches},
		{100, 90, Matches},
		{100, 111, Close},
		{100, 200, Close},
		{100, 50, Close},
		{100, 201, DirectionOnly},
		{100, 49, DirectionOnly},
		{-0.28, -0.011, DirectionOnly},
		{-0.28, -0.26, Matches},
		{-0.28, -0.15, Close},
		{-0.28, 0.01, Differs},
		{0.109, -0.028, Differs},
		{0.1, 0, Differs},
		{0, 0.1, Differs},
		{math.NaN(), 1, NotReproduced},
		{1, math.NaN(), NotReproduced},
	} {
		require.Equal(t, tc.want, Value(tc.paper, tc.ours), "paper %v, ours %v", tc.paper, tc.ours)
	}
	require.Equal(t, Close, Gain(1.42, 1.29))
	require.Equal(t, Matches, Gain(1.42, 1.40))
	require.Equal(t, Differs, Gain(1.42, 0.98))
}

// TestDirection: a direction that holds is as far as it can go; one that
// does not differs.
func TestDirection(t *testing.T) {
	require.Equal(t, DirectionOnly, Direction(true))
	require.Equal(t, Differs, Direction(false))
}

// TestNamesAndRank: each verdict's name, and AtLeast's order.
func TestNamesAndRank(t *testing.T) {
	require.Equal(t, []string{"exact", "matches", "close", "direction only", "differs", "not reproduced"},
		[]string{Exact.String(), Matches.String(), Close.String(), DirectionOnly.String(), Differs.String(), NotReproduced.String()})
	require.True(t, Close.AtLeast(DirectionOnly))
	require.False(t, Differs.AtLeast(DirectionOnly))
	require.True(t, DirectionOnly.AtLeast(DirectionOnly))
}

// TestClaims: a claim's ratio, as shown and as a distance, and the
// summary's counts.
func TestClaims(t *testing.T) {
	c := Measured(Li, "6.1", "IPC, HIL", "+10.9%", 0.109, 0.0028, "+0.28%")
	require.Equal(t, DirectionOnly, c.Verdict)
	require.Equal(t, "0.0257x", c.Gap())
	require.InDelta(t, math.Log(0.109/0.0028), c.Distance(), 1e-9)
	require.Equal(t, "opposite sign", Measured(Li, "", "", "", 0.06, -0.001, "").Gap())
	require.True(t, math.IsInf(Measured(Li, "", "", "", 0.06, -0.001, "").Distance(), 1))
	require.Equal(t, "<0.01x", Measured(Li, "", "", "", 0.11, 0.00001, "").Gap())
	require.Equal(t, "1x", Measured(Li, "", "", "", 160, 160, "").Gap())
	require.Equal(t, Exact, Measured(Li, "", "", "", 160, 160, "").Verdict)
	s := Stated(Thesis, "A", "Theorem 1", "", true, true, "proven")
	require.Equal(t, Exact, s.Verdict)
	require.True(t, math.IsNaN(s.Distance()))
	require.Equal(t, DirectionOnly, Stated(Li, "", "", "up", true, false, "").Verdict)
	require.Equal(t, Differs, Stated(Li, "", "", "up", false, true, "").Verdict)
	m := Missing(Thesis, "Table 4.6", "SAMS in the Cell SPE", "-11%", "needs CellSim")
	require.Equal(t, NotReproduced, m.Verdict)
	require.Equal(t, "thesis Table 4.6", m.Source())
	require.Equal(t, "4 results: 2 exact, 0 matches, 0 close, 1 direction only, 0 differs, 1 not reproduced",
		Summary([]Claim{c, s, m, Measured(Li, "", "", "", 1, 1, "")}))
}
