package main

import (
	"fmt"
	"html"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/parmem/parmem/internal/cache"
	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// ranReport is one report of a run: its values and tables.
type ranReport struct {
	r      *units.Report
	v      units.Values
	tables []*table.Table
}

// figure is a chart drawn for a page, or why it was not.
type figure struct {
	caption chart.Caption
	svg     []byte
	err     error
}

// drawCharts draws each chart of the report from its tables.
func drawCharts(rr ranReport) []figure {
	figs := make([]figure, len(rr.r.Charts))
	for i, draw := range rr.r.Charts {
		c, err := draw(rr.tables)
		if err == nil {
			figs[i].caption = c.Heading()
			figs[i].svg, err = c.SVG()
		}
		figs[i].err = err
	}
	return figs
}

// pageStyle is the page's whole style sheet: it fetches nothing.
const pageStyle = `body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;color:#111;max-width:1200px;margin:0 auto;padding:0 16px 48px;line-height:1.35}
h1{font-size:26px;margin:24px 0 8px}h2{font-size:21px;margin:36px 0 4px;border-bottom:2px solid #333;padding-bottom:3px}h3{font-size:15px;margin:22px 0 6px}
code{font-family:"Liberation Mono",monospace;font-size:13px;background:#f2f2f2;padding:0 3px}
.made,.doc{color:#333;margin:4px 0}
.config{border-collapse:collapse;font-size:13px;margin:10px 0}.config th{text-align:left;padding:2px 12px 2px 0;vertical-align:top;font-weight:600}.config td{padding:2px 0}
nav ol{padding-left:22px;margin:4px 0}nav li{margin:2px 0}nav ol ol{font-size:13px}
.scroll{overflow-x:auto;max-width:100%}
.table table{border-collapse:collapse;font-size:12px}
.table th{background:#e8e8e8;text-align:left;padding:3px 6px;border:1px solid #bbb;vertical-align:bottom}
.table td{padding:2px 6px;border:1px solid #ccc;vertical-align:top}
.table td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.table tbody tr:nth-child(even){background:#f7f7f7}
.note{font-size:12px;color:#444;margin:3px 0;max-width:1100px}
figure.chart{margin:18px 0 26px;padding:8px;border:1px solid #ccc;page-break-inside:avoid}
figure.chart svg{display:block;max-width:100%;height:auto;overflow:visible}
figcaption{font-size:14px;margin-bottom:6px}figcaption .fnote{display:block;font-size:12px;color:#444;margin-top:2px}
.nochart{color:#a00;font-weight:600}
@media print{body{max-width:none}nav{page-break-after:always}}
`

// pageInfo is what the page says made it.
type pageInfo struct {
	command string    // the gen command line
	when    time.Time // when it ran
	yosys   bool      // some report ran Yosys
}

// writePage writes one self-contained HTML page: the reports' tables and
// charts in order (each chart after the table it reads), a table of
// contents, the configuration and tool versions that made it, and the
// date. A chart that cannot be drawn is a line on the page saying why,
// and a warning on warn. It returns the number of charts drawn.
func writePage(w io.Writer, reports []ranReport, info pageInfo, warn io.Writer) (int, error) {
	figs := make([][]figure, len(reports))
	for i, rr := range reports {
		figs[i] = drawCharts(rr)
	}
	var b strings.Builder
	esc := html.EscapeString
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<title>parmem design review</title>\n<style>\n" + pageStyle + "</style>\n</head>\n<body>\n")
	b.WriteString("<header>\n<h1>parmem design review: the reports' tables and figures beside the papers'</h1>\n")
	fmt.Fprintf(&b, "<p class=\"made\">Made %s by <code>%s</code>. The figures draw the numbers of the tables beside them; a paper's values are hollow or cross-hatched and marked (paper).</p>\n",
		esc(info.when.UTC().Format("2006-01-02 15:04 MST")), esc(info.command))
	writeConfig(&b, reports, info)
	b.WriteString("</header>\n")
	writeContents(&b, reports, figs)
	b.WriteString("<main>\n")
	drawn, base := 0, 0 // figures are numbered in chart order over the reports
	for i, rr := range reports {
		fmt.Fprintf(&b, "<section id=\"%s\">\n<h2>%s</h2>\n<p class=\"doc\">%s</p>\n", reportID(rr.r), esc(rr.r.Name), esc(rr.r.Doc))
		placed := make([]bool, len(figs[i]))
		put := func(k int) {
			placed[k] = true
			n := base + k + 1
			f := figs[i][k]
			if f.err != nil {
				fmt.Fprintf(&b, "<p class=\"nochart\" id=\"fig-%d\">Figure %d (chart %d of %s) not drawn: %s</p>\n", n, n, k+1, esc(rr.r.Name), esc(f.err.Error()))
				fmt.Fprintf(warn, "gen: report %s: chart %d not drawn: %v\n", rr.r.Name, k+1, f.err)
				return
			}
			drawn++
			fmt.Fprintf(&b, "<figure class=\"chart\" id=\"fig-%d\">\n<figcaption><b>Figure %d.</b> %s", n, n, esc(f.caption.Title))
			if f.caption.Note != "" {
				fmt.Fprintf(&b, "<span class=\"fnote\">%s</span>", esc(f.caption.Note))
			}
			b.WriteString("</figcaption>\n")
			b.Write(f.svg)
			b.WriteString("\n</figure>\n")
		}
		for _, t := range rr.tables {
			if err := t.WriteHTML(&b); err != nil {
				return 0, err
			}
			for k, f := range figs[i] {
				if !placed[k] && f.err == nil && f.caption.Source != "" && f.caption.Source == t.Title {
					put(k)
				}
			}
		}
		for k := range figs[i] { // pictures, and the charts of tables the run did not make
			if !placed[k] {
				put(k)
			}
		}
		base += len(figs[i])
		b.WriteString("</section>\n")
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return drawn, err
}

// reportID is a report's anchor on the page.
func reportID(r *units.Report) string { return "report-" + r.Name }

// writeConfig lists the reports' parameters and the tools' versions.
func writeConfig(b *strings.Builder, reports []ranReport, info pageInfo) {
	esc := html.EscapeString
	b.WriteString("<table class=\"config\">\n")
	tools := "Go " + runtime.Version() + " (" + runtime.GOOS + "/" + runtime.GOARCH + ")"
	if info.yosys {
		tools += "; " + cache.ToolVersion("yosys", "-V")
	}
	fmt.Fprintf(b, "<tr><th>tools</th><td>%s</td></tr>\n", esc(tools))
	for _, rr := range reports {
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(rr.v)) {
			ps = append(ps, fmt.Sprintf("-%s %s", k, paramText(rr.r.Params.Lookup(k), rr.v[k])))
		}
		conf := "no parameters"
		if len(ps) > 0 {
			conf = strings.Join(ps, " ")
		}
		fmt.Fprintf(b, "<tr><th>%s</th><td><code>%s</code></td></tr>\n", esc(rr.r.Name), esc(conf))
	}
	b.WriteString("</table>\n")
}

// paramText is a parameter's value as gen's flag takes it.
func paramText(p *units.Param, v int) string {
	if p != nil {
		switch p.Kind {
		case units.Choice:
			if v >= 0 && v < len(p.Choices) {
				return p.Choices[v]
			}
		case units.Bool:
			return fmt.Sprint(v != 0)
		}
	}
	return fmt.Sprint(v)
}

// writeContents is the table of contents: each report and its figures.
func writeContents(b *strings.Builder, reports []ranReport, figs [][]figure) {
	esc := html.EscapeString
	b.WriteString("<nav>\n<h2>Contents</h2>\n<ol>\n")
	n := 0
	for i, rr := range reports {
		fmt.Fprintf(b, "<li><a href=\"#%s\">%s</a>: %s (%d tables, %d figures)", reportID(rr.r), esc(rr.r.Name), esc(rr.r.Doc), len(rr.tables), len(figs[i]))
		if len(figs[i]) > 0 {
			b.WriteString("\n<ol>\n")
			for _, f := range figs[i] {
				n++
				title := f.caption.Title
				if f.err != nil {
					title = "not drawn"
				}
				fmt.Fprintf(b, "<li value=\"%d\"><a href=\"#fig-%d\">%s</a></li>\n", n, n, esc(title))
			}
			b.WriteString("</ol>\n")
		}
		b.WriteString("</li>\n")
	}
	b.WriteString("</ol>\n</nav>\n")
}
