package main

import (
	"bufio"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// markdownTables reads back the tables of a markdown review (make
// tables's rtl/REPORT.md): each "### title", its grid and the notes
// under it.
func markdownTables(t *testing.T, path string) []*table.Table {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var ts []*table.Table
	var cur *table.Table
	cells := func(line string) []string {
		parts := strings.Split(strings.Trim(line, "|"), "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "### "):
			cur = &table.Table{Title: strings.TrimPrefix(line, "### ")}
			ts = append(ts, cur)
		case cur == nil || line == "":
		case strings.HasPrefix(line, "|") && cur.Header == nil:
			cur.Header = cells(line)
		case strings.HasPrefix(line, "|:") || strings.HasPrefix(line, "|-"):
		case strings.HasPrefix(line, "|"):
			cur.Rows = append(cur.Rows, cells(line))
		default:
			cur.Notes = append(cur.Notes, line)
		}
	}
	require.NoError(t, sc.Err())
	return ts
}

// wellFormed fails unless svg parses as XML from its <svg> root.
func wellFormed(t *testing.T, what string, svg []byte) {
	t.Helper()
	require.True(t, strings.HasPrefix(string(svg), "<svg"), "%s: inline SVG starts with <svg", what)
	d := xml.NewDecoder(strings.NewReader(string(svg)))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		require.NoError(t, err, what)
	}
}

// TestChartsDrawTheCommittedReport draws every report's charts from the
// tables of rtl/REPORT.md (make tables's run): each finds its tables and
// columns and draws a well-formed SVG. A report whose table it reads
// was renamed, or lost a column, fails here.
func TestChartsDrawTheCommittedReport(t *testing.T) {
	ts := markdownTables(t, "../rtl/REPORT.md")
	require.Greater(t, len(ts), 50)
	n := 0
	for _, r := range reg.Reports() {
		for i, draw := range r.Charts {
			c, err := draw(ts)
			require.NoError(t, err, "report %s, chart %d", r.Name, i+1)
			svg, err := c.SVG()
			require.NoError(t, err, "report %s, chart %d", r.Name, i+1)
			wellFormed(t, r.Name+": "+c.Heading().Title, svg)
			n++
		}
	}
	require.Greater(t, n, 20)
}

// zzCountChart draws the zz family's counting table.
func zzCountChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("counting")
	is, squares := r.Strings(t, "i"), r.Numbers(t, "i*i")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{Caption: chart.Caption{Title: "squares", Source: t.Title}, XLabel: "i", YLabel: "i*i (count)",
		Categories: is, Series: []chart.Series{{Name: "i*i", Values: squares}}}, nil
}

// TestReportPage: gen -report NAME -format html writes one page that
// fetches nothing: the report's tables (with or without charts), each
// chart after the table it draws, a table of contents, the parameters,
// the tools and the date.
func TestReportPage(t *testing.T) {
	withZZ(t)
	selfContained := func(page string) {
		t.Helper()
		require.True(t, strings.HasPrefix(page, "<!DOCTYPE html>\n"))
		require.True(t, strings.HasSuffix(page, "</html>\n"))
		for _, fetch := range []string{"<script", "src=", "<link", "url(", "@import", "href=\"http"} {
			require.NotContains(t, page, fetch)
		}
	}
	code, out, errs := runGen("-report", "zz-count", "-rows", "3", "-format", "html")
	require.Equal(t, 0, code, errs)
	selfContained(out)
	require.Contains(t, out, "<h3>counting</h3>", "a report without charts still writes its tables")
	require.Contains(t, out, "<td class=\"num\">4</td>")
	require.Contains(t, out, `<a href="#report-zz-count">zz-count</a>: counts to -rows (1 tables, 0 figures)`)
	require.Contains(t, out, "<code>-rows 3</code>", "the configuration")
	require.Contains(t, out, "Go "+runtime.Version())
	require.Contains(t, out, time.Now().UTC().Format("2006-01-02"), "the date")
	require.NotContains(t, out, "<svg")

	rep, err := reg.Report("zz-count")
	require.NoError(t, err)
	rep.Charts = []units.Chart{zzCountChart, func([]*table.Table) (chart.Chart, error) { return nil, errors.New("no such table") }}
	code, out, errs = runGen("-report", "zz-count", "-format", "html")
	require.Equal(t, 0, code, errs)
	selfContained(out)
	require.Equal(t, 1, strings.Count(out, `<figure class="chart"`))
	require.Equal(t, 1, strings.Count(out, "<svg"))
	require.Less(t, strings.Index(out, "<h3>counting</h3>"), strings.Index(out, `<figure class="chart" id="fig-1">`), "after its table")
	require.Contains(t, out, "<b>Figure 1.</b> squares")
	require.Contains(t, out, `<p class="nochart" id="fig-2">Figure 2 (chart 2 of zz-count) not drawn: no such table</p>`)
	require.Contains(t, errs, "gen: report zz-count: chart 2 not drawn: no such table\n")
	require.Contains(t, out, "(1 tables, 2 figures)")
}

// TestReportOutputs: -format takes several formats with as many -o
// files, from one run; an unwritable -o is one line and exit 2 before
// the report runs, and nothing is written.
func TestReportOutputs(t *testing.T) {
	withZZ(t)
	dir := t.TempDir()
	md, page := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.html")
	code, out, errs := runGen("-report", "zz-count", "-format", "markdown,html", "-o", md+","+page)
	require.Equal(t, 0, code, errs)
	require.Empty(t, out)
	require.Equal(t, 1, strings.Count(errs, "zz-count: 1\n"), "one run: its progress once")
	text, err := os.ReadFile(md)
	require.NoError(t, err)
	require.Contains(t, string(text), "### counting\n")
	text, err = os.ReadFile(page)
	require.NoError(t, err)
	require.Contains(t, string(text), "<h3>counting</h3>")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "html", "-o", filepath.Join(dir, "no", "such", "dir", "r.html")}, "gen: -o " + filepath.Join(dir, "no", "such", "dir", "r.html") + ": cannot write in " + filepath.Join(dir, "no", "such", "dir") + ": no such file or directory\n"},
		{[]string{"-format", "html", "-o", dir}, "gen: -o " + dir + ": not a regular file\n"},
		{[]string{"-format", "markdown,html", "-o", md}, "gen: -format markdown,html names 2 formats: give -o as many files, comma-separated, one per format\n"},
		{[]string{"-format", "markdown,html"}, "gen: -format markdown,html names 2 formats: give -o as many files, comma-separated, one per format\n"},
		{[]string{"-format", "markdown,html", "-o", md + "," + md}, "gen: -o " + md + ": a file given twice\n"},
		{[]string{"-format", "pdf"}, "gen: -format=\"pdf\" is not one of text, markdown, csv, html for gen -report\n"},
	} {
		code, out, errs := runGen(append([]string{"-report", "zz-count"}, c.args...)...)
		require.Equal(t, 2, code, c.args)
		require.Empty(t, out, c.args)
		require.Equal(t, c.want, errs, "one line, and the report did not run: %v", c.args)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "nothing half-written")
}
