package rsdmm

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/table"
	"github.com/stretchr/testify/require"
)

// cellOf is the cell of column col in the row whose first two cells are
// first and machine.
func cellOf(t *testing.T, tb *table.Table, first, machine, col string) string {
	t.Helper()
	c := -1
	for i, h := range tb.Header {
		if h == col {
			c = i
		}
	}
	require.GreaterOrEqual(t, c, 0, col)
	for _, r := range tb.Rows {
		if r[0] == first && r[1] == machine {
			return r[c]
		}
	}
	t.Fatalf("%s: no row %s, %s", tb.Title, first, machine)
	return ""
}

func number(t *testing.T, cell string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(strings.TrimPrefix(cell, "~"), 64)
	require.NoError(t, err, cell)
	return x
}

// TestPatternsReport: a row per pattern and machine, the paper's figure
// beside ours; on the DMM and SDMM (w = 32, s = 4, sqrt n = 1024) ours is
// II-IV's exact congestion per warp, and the RSDMM's column-major writes
// are near Table II's 2.163.
func TestPatternsReport(t *testing.T) {
	var progress bytes.Buffer
	ts, err := patternsReport(40, &progress)
	require.NoError(t, err)
	require.Len(t, ts, 2)
	tb := ts[0]
	require.Len(t, tb.Rows, 9*4)
	for _, r := range tb.Rows {
		require.Len(t, r, len(tb.Header))
	}
	require.Equal(t, []string{"pattern", "machine", "closed form (II-IV) or Table II", "source", "ours mean", "ours max", "verdict", "note"}, tb.Header)
	require.Len(t, ts[1].Rows, 7, "II, III's three, IV's two and Theorem 6")
	require.Contains(t, progress.String(), "rsdmm-patterns: 36/36 jobs, ")
	const w, s = 32, 4
	for _, c := range []struct {
		pattern  string
		dmm, sdm float64 // the congestion per warp on the DMM and SDMM
	}{
		{"stride 1 (row-major)", 1, 1},
		{"stride w/2", w / 2, w / 2},     // two banks
		{"stride w", w, w},               // one bank
		{"stride w+1", 1, 1},             // w+1 odd
		{"column (stride sqrt n)", w, w}, // sw = 128 <= sqrt n: one bank
		{"Naive transpose writes", w, w},
		{"Diagonal transpose writes", 1, 1},
		{"broadcast", 1, 1.0 / s},
	} {
		for machine, want := range map[string]float64{"DMM": c.dmm, "SDMM": c.sdm} {
			for _, col := range []string{"closed form (II-IV) or Table II", "ours mean", "ours max"} {
				require.Equal(t, fmt.Sprintf("%.3f", want), cellOf(t, tb, c.pattern, machine, col), "%s on the %s, %s", c.pattern, machine, col)
			}
			require.Equal(t, "exact", cellOf(t, tb, c.pattern, machine, "verdict"))
			require.Empty(t, cellOf(t, tb, c.pattern, machine, "note"))
		}
	}
	require.Equal(t, "2.163", cellOf(t, tb, "Naive transpose writes", "RSDMM table", "closed form (II-IV) or Table II"))
	require.InEpsilon(t, 2.163, number(t, cellOf(t, tb, "Naive transpose writes", "RSDMM table", "ours mean")), 0.05)
	require.InEpsilon(t, 2.163, number(t, cellOf(t, tb, "random", "RSDMM table", "ours mean")), 0.05)
	require.Equal(t, "3.533", cellOf(t, tb, "random", "DMM", "closed form (II-IV) or Table II"), "Table II at s = 1")
	require.Equal(t, "0.250", cellOf(t, tb, "broadcast", "RSDMM hash", "ours mean"))
	require.Equal(t, "1.000", cellOf(t, tb, "stride 1 (row-major)", "RSDMM table", "ours max"), "whole rows")
}

// TestTransposeReport: Table I's rows for sqrt(n) = 16..128 and the sweep
// over w, the closed form beside ours, then the claims; on the DMM and
// SDMM ours is Lemma 1 over
// the exact congestions, Naive n/w + min(n, n sqrt(n)/(sw)) + 2(l-1)n/p
// and Diagonal 2n/w + 2(l-1)n/p; the cycle model without barriers never
// takes longer; the RSDMM's Naive is near (1 + E[Y]/s)n/w + 2(l-1)n/p.
func TestTransposeReport(t *testing.T) {
	var progress bytes.Buffer
	ts, err := transposeReport(7, &progress)
	require.NoError(t, err)
	require.Len(t, ts, 4)
	require.Len(t, ts[3].Rows, 12, "Table I's six laws and lower bound, I, Lemma 1, Theorems 2, 3 and 8")
	ts = ts[:3]
	require.Contains(t, progress.String(), fmt.Sprintf("rsdmm-transpose: %d/%d jobs, ", 4*4*2+5*4, 4*4*2+5*4))
	const l, p = 16, 256
	naive := func(sqrtN, w, s int) int {
		n := sqrtN * sqrtN
		return n/w + min(n, n*sqrtN/(s*w)) + 2*(l-1)*n/p
	}
	diagonal := func(sqrtN, w int) int {
		n := sqrtN * sqrtN
		return 2*n/w + 2*(l-1)*n/p
	}
	for k, tb := range ts {
		require.Len(t, tb.Rows, 4*4+k/2*4, tb.Title)
		for _, r := range tb.Rows {
			require.Len(t, r, len(tb.Header))
			require.LessOrEqual(t, number(t, r[4]), number(t, r[3]), "no barrier <= Lemma 1: %v", r)
		}
	}
	for _, sqrtN := range []int{16, 32, 64, 128} {
		row := fmt.Sprint(sqrtN)
		for _, c := range []struct {
			tb      int
			machine string
			want    int
		}{
			{0, "DMM", naive(sqrtN, 16, 1)}, {0, "SDMM", naive(sqrtN, 16, 4)},
			{1, "DMM", diagonal(sqrtN, 16)}, {1, "SDMM", diagonal(sqrtN, 16)},
		} {
			for _, col := range []string{"closed form (Lemma 1)", "ours: Lemma 1"} {
				require.Equal(t, fmt.Sprint(c.want), cellOf(t, ts[c.tb], row, c.machine, col), "%s sqrt(n)=%d %s", ts[c.tb].Title, sqrtN, c.machine)
			}
			require.Equal(t, "exact", cellOf(t, ts[c.tb], row, c.machine, "verdict"))
		}
	}
	require.Equal(t, "302", cellOf(t, ts[0], "16", "DMM", "closed form (Lemma 1)"), "16 + 256 + 30")
	require.Equal(t, "110", cellOf(t, ts[0], "16", "SDMM", "closed form (Lemma 1)"), "16 + 64 + 30: Case 2")
	n := 1024 * 1024
	for _, w := range []int{4, 8, 16, 32, 64} {
		row := fmt.Sprint(w)
		for _, machine := range []string{"DMM", "SDMM"} {
			require.Equal(t, fmt.Sprint(naive(1024, w, 1)), cellOf(t, ts[2], row, machine, "ours: Lemma 1"), "w=%d %s: sw <= sqrt n, n like the DMM", w, machine)
		}
	}
	for w, ratio := range map[int]float64{16: 1.970, 32: 2.163} {
		want := (1+ratio)*float64(n/w) + float64(2*(l-1)*n/p)
		row := fmt.Sprint(w)
		require.InEpsilon(t, want, number(t, cellOf(t, ts[2], row, "RSDMM table", "closed form (Lemma 1)")), 1e-3)
		require.InEpsilon(t, want, number(t, cellOf(t, ts[2], row, "RSDMM table", "ours: Lemma 1")), 0.03)
	}
	require.Equal(t, "-", cellOf(t, ts[2], "4", "RSDMM table", "closed form (Lemma 1)"), "Table II starts at w = 16")
	require.Empty(t, cellOf(t, ts[2], "4", "RSDMM table", "verdict"))
}
