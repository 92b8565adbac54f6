// Package table renders the tables parmem prints for design reviews (speed,
// area, latency) as text, Markdown or CSV, with one look everywhere.
package table

import (
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Formats lists the formats Write accepts.
var Formats = []string{"text", "markdown", "csv"}

// Table is a titled grid of cells with notes under it.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Notes  []string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// figures reports whether every non-empty cell of column i starts with a
// number ("42", "0.96", "-3", "5..64", "2 min").
func (t *Table) figures(i int) bool {
	for _, r := range t.Rows {
		if i >= len(r) || r[i] == "" {
			continue
		}
		c := strings.TrimLeft(r[i], "+-")
		if c == "" || c[0] < '0' || c[0] > '9' {
			return false
		}
	}
	return true
}

// Write renders the table in format ("text", "markdown" or "csv").
func (t *Table) Write(w io.Writer, format string) error {
	switch format {
	case "csv":
		c := csv.NewWriter(w)
		c.Write(t.Header)
		c.WriteAll(t.Rows)
		return c.Error()
	case "text", "markdown":
	default:
		return fmt.Errorf("format %q is not one of text, markdown, csv", format)
	}
	// Headers as written, left aligned; the first column (names) left
	// aligned; of the rest, columns of figures right aligned and columns
	// of words left aligned.
	pad := tw.CellPadding{Global: tw.Padding{Left: " ", Right: " "}}
	align := make([]tw.Align, len(t.Header))
	for i := range align {
		align[i] = tw.AlignRight
		if i == 0 || !t.figures(i) {
			align[i] = tw.AlignLeft
		}
	}
	opts := []tablewriter.Option{
		tablewriter.WithHeaderConfig(tw.CellConfig{
			Formatting: tw.CellFormatting{AutoFormat: tw.Off},
			Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
			Padding:    pad,
		}),
		tablewriter.WithRowConfig(tw.CellConfig{
			Alignment: tw.CellAlignment{PerColumn: align},
			Padding:   pad,
		}),
	}
	if format == "markdown" {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
		if t.Title != "" {
			fmt.Fprintf(w, "### %s\n\n", t.Title)
		}
	} else if t.Title != "" {
		fmt.Fprintf(w, "%s\n", t.Title)
	}
	tab := tablewriter.NewTable(w, opts...)
	tab.Header(t.Header)
	if err := tab.Bulk(t.Rows); err != nil {
		return err
	}
	if err := tab.Render(); err != nil {
		return err
	}
	for _, n := range t.Notes {
		fmt.Fprintf(w, "%s\n", n)
	}
	return nil
}

// WriteHTML renders the table as an HTML fragment for a page: the
// title as a heading, the grid (columns of figures right aligned, as in
// the other formats) in a box that scrolls sideways when it is wider
// than the page, and the notes as paragraphs. Every text is escaped.
func (t *Table) WriteHTML(w io.Writer) error {
	var b strings.Builder
	b.WriteString("<div class=\"table\">\n")
	if t.Title != "" {
		fmt.Fprintf(&b, "<h3>%s</h3>\n", html.EscapeString(t.Title))
	}
	b.WriteString("<div class=\"scroll\"><table>\n<thead><tr>")
	for _, h := range t.Header {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	num := make([]bool, len(t.Header))
	for i := range num {
		num[i] = i > 0 && t.figures(i)
	}
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for i, c := range r {
			if i < len(num) && num[i] {
				fmt.Fprintf(&b, "<td class=\"num\">%s</td>", html.EscapeString(c))
			} else {
				fmt.Fprintf(&b, "<td>%s</td>", html.EscapeString(c))
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(n))
	}
	b.WriteString("</div>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Pct formats a fraction as a percentage cell: 0.423 -> "42.3%".
func Pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// SignedPct formats a change as a signed percentage cell: 0.123 -> "+12.3%".
func SignedPct(x float64) string { return fmt.Sprintf("%+.1f%%", 100*x) }

// Holds is a check's cell: "yes", or "NO" so that a failed check stands
// out in a review table.
func Holds(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}
