package table

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func sample() *Table {
	t := &Table{Title: "Speed", Header: []string{"simulator", "cycles/s"}, Notes: []string{"note one"}}
	t.Add("go", "297203")
	t.Add("verilator, built", "1776026")
	return t
}

func TestFormats(t *testing.T) {
	var text, md, csv bytes.Buffer
	require.NoError(t, sample().Write(&text, "text"))
	require.NoError(t, sample().Write(&md, "markdown"))
	require.NoError(t, sample().Write(&csv, "csv"))
	require.Contains(t, text.String(), "simulator", "headers keep their case")
	require.Contains(t, text.String(), "note one")
	require.True(t, strings.HasPrefix(md.String(), "### Speed\n"))
	require.Contains(t, md.String(), "| simulator")
	require.Equal(t, "simulator,cycles/s\ngo,297203\n\"verilator, built\",1776026\n", csv.String())
	require.Error(t, sample().Write(&text, "html"))
}

// Columns of figures are right aligned, columns of words left aligned.
func TestAlignment(t *testing.T) {
	tab := &Table{Header: []string{"name", "count", "what"}}
	tab.Add("a", "7", "short")
	tab.Add("bb", "-12.5", "a longer text")
	var md bytes.Buffer
	require.NoError(t, tab.Write(&md, "markdown"))
	require.Contains(t, md.String(), "|:-----|------:|:--------------|", "name and what left, count right")
	require.Contains(t, md.String(), "|     7 |")
	require.Contains(t, md.String(), "| short         |")
}

// TestCellFormats: percentages, signed changes and a check's cell.
func TestCellFormats(t *testing.T) {
	require.Equal(t, "42.3%", Pct(0.423))
	require.Equal(t, "+12.3%", SignedPct(0.123))
	require.Equal(t, "-24.4%", SignedPct(-0.244))
	require.Equal(t, "yes", Holds(true))
	require.Equal(t, "NO", Holds(false))
}

// TestHTML: the page's fragment escapes every text, heads the grid with
// the title and puts the notes under it; columns of figures are marked
// to align right, as in the other formats.
func TestHTML(t *testing.T) {
	tab := sample()
	tab.Add("<b>&", "12 < 13")
	var b bytes.Buffer
	require.NoError(t, tab.WriteHTML(&b))
	h := b.String()
	require.True(t, strings.HasPrefix(h, "<div class=\"table\">\n<h3>Speed</h3>\n"))
	require.Contains(t, h, "<th>simulator</th><th>cycles/s</th>")
	require.Contains(t, h, "<td>go</td><td class=\"num\">297203</td>")
	require.Contains(t, h, "<td>&lt;b&gt;&amp;</td><td class=\"num\">12 &lt; 13</td>")
	require.Contains(t, h, "<p class=\"note\">note one</p>")
	require.NotContains(t, h, "<b>&")
}
