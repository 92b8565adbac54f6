package reports

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parmem/parmem/units"
	_ "github.com/parmem/parmem/units/sams"
	"github.com/stretchr/testify/require"
)

// Every configuration the reports measure still builds (the full runs need
// minutes of Yosys and are make tables' job).
func TestReportConfigsBuild(t *testing.T) {
	for _, r := range Names {
		cs, err := Configs(r)
		require.NoError(t, err)
		require.NotEmpty(t, cs)
		for _, c := range cs {
			_, err := c.Build("top")
			require.NoErrorf(t, err, "report %s: %s %v", r, c.Unit, c.Values)
		}
	}
	_, err := Configs("nope")
	require.Error(t, err)
}

func TestLatency(t *testing.T) {
	for q := 2; q <= 4; q++ {
		read, write, err := latency(q)
		require.NoError(t, err)
		require.Equal(t, 3, read, "q=%d", q)
		require.Equal(t, 1, write, "q=%d", q)
	}
}

// The ATU report runs end to end (a few seconds of Yosys).
func TestATUReport(t *testing.T) {
	var out, progress bytes.Buffer
	require.NoError(t, Write(&out, "atu", "markdown", &progress))
	text := out.String()
	require.Regexp(t, `\| 16 +\| 3 +\| +71 \|`, text, "the thesis's row beside ours")
	require.Equal(t, len(thesisTable31), strings.Count(progress.String(), "atu: "))
}

func TestFitRecoversExponents(t *testing.T) {
	var pts []fitPoint
	for q := 2; q <= 5; q++ {
		for _, n := range []int{8, 16, 32} {
			pts = append(pts, fitPoint{q, n, 3 * float64(int(1)<<uint(2*q)) * float64(n)})
		}
	}
	a, b := fit(pts)
	require.InDelta(t, 2.0, a, 1e-9)
	require.InDelta(t, 1.0, b, 1e-9)

	// One size: the q exponent alone.
	var oneSize []fitPoint
	for q := 2; q <= 6; q++ {
		oneSize = append(oneSize, fitPoint{q, 16, 5 * math.Pow(3, float64(q))})
	}
	a, b = fit(oneSize)
	require.InDelta(t, math.Log2(3), a, 1e-9)
	require.Zero(t, b)
}

// The gate flow runs on a unit configuration (the smallest of the sams
// report).
func TestGatesOfUnit(t *testing.T) {
	g, err := gatesOf(Config{"sams-inbound", map[string]int{"q": 2, "n": 8, "w": 4}})
	require.NoError(t, err)
	require.Greater(t, g.Gates, 100)
	require.Greater(t, g.Depth, 5)
}

func TestMeasureAllKeepsOrderAndReportsErrors(t *testing.T) {
	var cs []Config
	for q := 1; q <= 9; q++ {
		cs = append(cs, Config{"u", units.Values{"q": q}})
	}
	var progress bytes.Buffer
	got, err := measureAll("test", cs, &progress, func(c Config) (int, error) { return 10 * c.Values["q"], nil })
	require.NoError(t, err)
	require.Equal(t, []int{10, 20, 30, 40, 50, 60, 70, 80, 90}, got)
	require.Contains(t, progress.String(), "test: u -q 7\n")
	require.Equal(t, 9, strings.Count(progress.String(), "test: "))

	_, err = measureAll("test", cs, io.Discard, func(c Config) (int, error) {
		if c.Values["q"]%3 == 0 {
			return 0, fmt.Errorf("q=%d fails", c.Values["q"])
		}
		return 0, nil
	})
	require.EqualError(t, err, "q=3 fails", "the first failure in list order")
}

// The committed rtl/REPORT.md has a row for every configuration the
// reports measure today (make tables regenerates it).
func TestCommittedReportCoversEveryRow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "rtl", "REPORT.md"))
	require.NoError(t, err, "rtl/REPORT.md is missing: run make tables")
	text := string(b)
	row := func(cells ...any) string {
		var re strings.Builder
		re.WriteString(`(?m)^\|`)
		for _, c := range cells {
			fmt.Fprintf(&re, ` +%v +\|`, c)
		}
		return re.String()
	}
	for _, r := range thesisTable31 {
		require.Regexp(t, row(r.n, r.q, r.luts), text, "Table 3.1 row n=%d q=%d: run make tables", r.n, r.q)
	}
	for _, r := range thesisTable42 {
		require.Regexp(t, row(r.q, r.gates), text, "Table 4.2 row q=%d: run make tables", r.q)
	}
	for _, p := range scalingPoints() {
		require.Regexp(t, row(p.q, p.n, `\d+`, `\d+`), text, "scaling row sams-atu q=%d n=%d: run make tables", p.q, p.n)
	}
	for _, q := range scalingLogicQs() {
		require.Regexp(t, row(q, `\d+`, `\d+`, `[\d.]+`), text, "scaling row sams-logic q=%d: run make tables", q)
	}
}
