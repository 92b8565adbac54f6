package main

import (
	"bufio"
	"encoding/xml"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/table"
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
