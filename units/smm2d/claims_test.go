package smm2d

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/stretchr/testify/require"
)

// planned is a measurement's structure with every job's result a
// placeholder (sweep.Plan: zero values), for a test to fill.
func planned[T any](t *testing.T, measure func(io.Writer) (T, error)) T {
	t.Helper()
	var m T
	_, err := sweep.Plan(func(w io.Writer) error {
		var err error
		m, err = measure(w)
		return err
	})
	require.NoError(t, err)
	return m
}

// The claims are the thesis's results in its order, each with a cause
// when short of matches, listed without running anything (the
// placeholders of sweep.Plan).
func TestClaimsListTheThesissResults(t *testing.T) {
	cs := planned(t, smm2dClaims.Run)
	want := []string{"Fig. 3.6"}
	for _, n := range []struct {
		where string
		times int
	}{{"Table 3.2", 8}, {"Table 3.3", 2}, {"Fig. 3.17", 3}, {"Fig. 3.18", 1}, {"Fig. 3.19", 3}, {"Fig. 3.20", 3}} {
		for range n.times {
			want = append(want, n.where)
		}
	}
	for _, th := range []string{"1", "2", "3", "4", "5", "6", "7", "6"} {
		want = append(want, "App. B Theorem "+th)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Where)
		require.Equal(t, verdict.Thesis, c.Paper)
		require.NotEmpty(t, c.Printed, "%s %s", c.Where, c.What)
		if !c.Verdict.AtLeast(verdict.Matches) {
			require.NotEmpty(t, c.Why, "%s %s: %s without a cause", c.Where, c.What, c.Verdict)
		}
	}
	require.Equal(t, want, got)
}

// filledReview is the smm2d report's measurement with the AGU as deep as
// the thesis's path, Table 3.2's adders and Table 3.3's bits as the
// thesis's rules give them.
func filledReview(t *testing.T) *review {
	r := planned(t, measureReview)
	r.gates[blockAGU].Depth, r.gates[len(r.blocks)+rowAGU].Depth = 24, 24
	r.decl[blockAGU].Adders = map[int]int{10: 8, 9: 8}
	tab, route := fig312.Table33()
	r.decl[len(r.blocks)] = declared{Table: tab, Routing: route, All: 732}
	return r
}

// linearSweep fills a sweep with results linear in its axis: every
// memory's and every unit's LUT4 and declared storage k*x.
func linearSweep(sw *memSweep) {
	for i, p := range sw.mems {
		x := 1 << uint(sw.log2x(p))
		sw.ices[i].LUT4 = 100 * x
		sw.decl[i].Table = 10 * x
		if sw.byUnit {
			for u := range sw.units[i] {
				sw.units[i][u].LUT4 = (u + 1) * 10 * x
			}
		}
	}
}

// Each claim follows the measurements it is made from: a wrong "ours"
// planted into a copy of a result (a unit's depth, an adder, the declared
// bits, a unit's LUT4 at one point, a cell of the layout, a conflict of
// the exhaustive check) changes that row's verdict, and the report's
// verdict column with it.
func TestClaimsFollowTheMeasurements(t *testing.T) {
	r := filledReview(t)
	require.Equal(t, verdict.Exact, r.pathClaim(blockAGU).Verdict)
	require.Equal(t, verdict.Exact, r.adderClaim(blockAGU).Verdict)
	for _, c := range r.storageClaims() {
		require.Equal(t, verdict.Exact, c.Verdict, c.What)
	}
	require.Equal(t, "exact", r.pathsTable().Rows[blockAGU][6])

	deep := *r
	deep.gates = slices.Clone(r.gates)
	deep.gates[blockAGU].Depth = 60 // 2.5x the thesis's path
	require.Equal(t, verdict.DirectionOnly, deep.pathClaim(blockAGU).Verdict)
	require.Contains(t, deep.pathClaim(blockAGU).Why, "deepest outputs")
	require.Equal(t, "direction only", deep.pathsTable().Rows[blockAGU][6])

	wide := *r
	wide.decl = slices.Clone(r.decl)
	wide.decl[blockAGU].Adders = map[int]int{16: 8}
	require.Equal(t, verdict.Close, wide.adderClaim(blockAGU).Verdict)

	bits := *r
	bits.decl = slices.Clone(r.decl)
	bits.decl[len(r.blocks)].Table++
	require.Equal(t, verdict.Matches, bits.storageClaims()[0].Verdict)
	require.Equal(t, verdict.Exact, bits.storageClaims()[1].Verdict)
	require.Equal(t, "matches", bits.storageTable().Rows[0][4])

	s := planned(t, measureScaling)
	linearSweep(s.width)
	linearSweep(s.banks)
	agu := func(s *scaling) verdict.Claim { return s.logicClaims()[0] }
	fig319 := func(s *scaling) verdict.Claim { return s.trendClaims()[5] }
	require.Equal(t, "Fig. 3.19", fig319(s).Where)
	require.True(t, agu(s).Verdict.AtLeast(verdict.Matches), agu(s).Ours)
	require.True(t, fig319(s).Verdict.AtLeast(verdict.Matches), fig319(s).Ours)

	last := len(s.banks.mems) - 1
	planted := *s.banks
	planted.units = slices.Clone(s.banks.units)
	planted.units[last] = slices.Clone(s.banks.units[last])
	planted.units[last][unitAGU].LUT4 *= 64 // the AGU 64 times larger at 64 banks
	grown := *s
	grown.banks = &planted
	require.False(t, agu(&grown).Verdict.AtLeast(verdict.Matches), agu(&grown).Ours)
	require.Equal(t, s.logicClaims()[1].Verdict, grown.logicClaims()[1].Verdict, "the ATU's row keeps its verdict")

	flat := *s.width
	flat.ices = slices.Clone(s.width.ices)
	for i := range flat.ices {
		flat.ices[i].LUT4 = 1000
	}
	narrow := *s
	narrow.width = &flat
	require.Equal(t, verdict.Differs, fig319(&narrow).Verdict, fig319(&narrow).Ours)
}

// Figure 3.6's claim is exact on the layout picture's cells and differs
// when a cell of the figure is changed.
func TestFig36ClaimFollowsTheCells(t *testing.T) {
	require.Equal(t, verdict.Exact, fig36Claim().Verdict)
	require.Equal(t, "66 of 66 cells equal (gen -layout)", fig36Claim().Ours)
	wrong := slices.Clone(fig36)
	wrong[2] = strings.Replace(wrong[2], "1,0", "0,0", 1)
	c := fig36Against(wrong)
	require.Equal(t, verdict.Differs, c.Verdict)
	require.Contains(t, c.Why, "(2, 0): ours 1,0, the figure 0,0")
}

// Appendix B's claims are exact on the exhaustive check, and a conflict
// planted into a copy of its counts changes that theorem's row only.
func TestTheoremClaimsFollowTheCheck(t *testing.T) {
	found, err := checkAllTheorems(io.Discard)
	require.NoError(t, err)
	cs := theoremClaims(found)
	require.Len(t, cs, 8)
	for _, c := range cs {
		require.Equal(t, verdict.Exact, c.Verdict, "%s: %s (%s)", c.Where, c.Ours, c.Why)
	}
	planted := found
	planted.Conflicting[StridedBlock]++
	for i, c := range theoremClaims(planted) {
		want := verdict.Exact
		if c.Where == "App. B Theorem 5" {
			want = verdict.Differs
		}
		require.Equal(t, want, c.Verdict, "%d %s", i, c.Where)
	}
	planted = found
	planted.Collisions = 1
	require.Equal(t, verdict.Differs, theoremClaims(planted)[7].Verdict)
}

// The reports' tables are made from placeholders without failing, each
// row as wide as its header, and the verdict columns name verdicts.
func TestReportTablesOnPlaceholders(t *testing.T) {
	var tables []*table.Table
	tables = append(tables, planned(t, measureReview).tables()...)
	tables = append(tables, planned(t, measureScaling).tables()...)
	require.Len(t, tables, 12)
	verdicts := map[string]bool{}
	for v := verdict.Exact; v <= verdict.NotReproduced; v++ {
		verdicts[v.String()] = true
	}
	for _, tb := range tables {
		for _, row := range tb.Rows {
			require.Len(t, row, len(tb.Header), tb.Title)
			for i, h := range tb.Header {
				if h == "verdict" {
					require.True(t, verdicts[row[i]], "%s: %q", tb.Title, row[i])
				}
			}
		}
	}
}
