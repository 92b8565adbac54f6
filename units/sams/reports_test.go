package sams

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
	"github.com/stretchr/testify/require"
)

// Every configuration the reports measure still builds (the full runs need
// minutes of Yosys and are make tables' job).
func TestRegistryReportConfigsBuild(t *testing.T) {
	f, err := units.LookupFamily("sams")
	require.NoError(t, err)
	require.Len(t, f.Reports, 3)
	for _, r := range f.Reports {
		require.NotNil(t, r.Configs, r.Name)
		cs := r.Configs(r.Params.Defaults())
		require.NotEmpty(t, cs)
		for _, c := range cs {
			_, err := c.Build("top")
			require.NoErrorf(t, err, "report %s: %s", r.Name, c)
		}
	}
}

func TestLatency(t *testing.T) {
	for q := 2; q <= 4; q++ {
		read, write, err := latency(q)
		require.NoError(t, err)
		require.Equal(t, 3, read, "q=%d", q)
		require.Equal(t, 1, write, "q=%d", q)
	}
}

// The ATU report runs end to end (a few seconds of Yosys), its place and
// route from the committed results (make tables places and routes; make
// test runs nextpnr-ice40 once, in internal/synth), whose rows it then
// shows too.
func TestATUReport(t *testing.T) {
	require.NoError(t, synth.ImportResults(filepath.Join("..", "..", "rtl", "synth-results.json")))
	var out, progress bytes.Buffer
	tables, err := samsReports[0].Run(nil, &progress)
	require.NoError(t, err)
	for _, tb := range tables {
		require.NoError(t, tb.Write(&out, "markdown"))
	}
	text := out.String()
	require.Regexp(t, `\| 16 +\| 3 +\| +71 \|`, text, "the thesis's row beside ours")
	// The verdict column is the rule's on the row's LUTs.
	col := func(name string) int { return slices.Index(tables[0].Header, name) }
	for _, row := range tables[0].Rows {
		thesis, err := strconv.Atoi(row[col("thesis LUTs")])
		require.NoError(t, err)
		ours, err := strconv.Atoi(row[col("our SB_LUT4")])
		require.NoError(t, err)
		require.Equal(t, verdict.Value(float64(thesis), float64(ours)).String(), row[col("verdict (LUTs)")], "row %v", row)
		ns, err := strconv.ParseFloat(row[col(reports.NSHeader)], 64)
		require.NoError(t, err, "row %v: placed and routed", row)
		require.Greater(t, ns, 1.0)
		require.Regexp(t, `^in \S+ -> out \S+$`, row[col(reports.PathHeader)], "a combinational unit's path: input to output")
	}
	n := len(thesisTable31)
	require.Contains(t, progress.String(), fmt.Sprintf("atu: %d/%d jobs, ", n, n), "a job per row, counted")
	require.Contains(t, progress.String(), fmt.Sprintf("atu place and route: %d/%d jobs, ", n, n), "and its place and route")
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
	require.Contains(t, text, "in gate equivalents (scripts/ge.ys)", "Table 4.2 in gate equivalents: run make tables")
	for _, r := range thesisTable42 {
		num := `[0-9.]+`
		require.Regexp(t, row(r.q, r.gates, num, num, fmt.Sprintf("%.1f", r.areaAdds), num, num, fmt.Sprintf("%.1f", r.delayAdders)), text,
			"Table 4.2 row q=%d in gate equivalents (with its ratio columns): run make tables", r.q)
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
