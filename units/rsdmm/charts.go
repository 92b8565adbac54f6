package rsdmm

import (
	"fmt"
	"strings"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The RSDMM reports' figures (gen -report NAME -format html), drawn from
// their tables: Table II's congestion ratios as heat maps of ours over
// the paper's, Table I's transposes' times against sqrt(n), and the
// request packing unit's gates over N with the laws the report fits.

func init() {
	units.AttachCharts(rsdmmReports, "rsdmm-congestion", table2Chart("Table II, n = 1024:"), table2Chart("Table II, n = 1048576:"))
	units.AttachCharts(rsdmmReports, "rsdmm-transpose", transposeChart("Naive"), transposeChart("Diagonal"))
	units.AttachCharts(rsdmmReports, "rsdmm-cost", rpuChart)
}

// table2Chart draws one n's block of Table II: each cell ours (the
// random shift) over the paper's, printed as the difference.
func table2Chart(prefix string) units.Chart {
	return func(ts []*table.Table) (chart.Chart, error) {
		r := chart.Read(ts)
		t := r.Table(prefix)
		ss := r.Strings(t, "s")
		if r.Err() != nil {
			return nil, r.Err()
		}
		var ws []string
		for _, h := range t.Header {
			if w, ok := strings.CutSuffix(h, " paper"); ok {
				ws = append(ws, w)
			}
		}
		g := &chart.Grid{
			Caption: chart.Caption{Title: prefix + " E[Y]/s on the RSDMM (random shift), ours over the paper's, cell by cell",
				Note:   "Each cell prints ours less the paper's, in % of the paper's (100,000 rounds a cell); the shade deepens with the difference, red where ours is larger. The paper's values are Table II's as printed.",
				Source: t.Title},
			XLabel: "banks w", YLabel: "super warp s (warps)", Cols: ws, Rows: ss,
			Center: 1, Legend: "ours against the paper's:",
			Format: func(v float64) string { return fmt.Sprintf("%+.2f%%", 100*(v-1)) },
		}
		for range ss {
			g.Values, g.Text = append(g.Values, nil), append(g.Text, nil)
		}
		for _, w := range ws {
			paper, ours := r.Numbers(t, w+" paper"), r.Strings(t, w+" ours")
			if r.Err() != nil {
				return nil, r.Err()
			}
			for i := range ss {
				_, shifted, _ := strings.Cut(ours[i], " / ")
				v := chart.Number(shifted) / paper[i]
				g.Values[i] = append(g.Values[i], v)
				g.Text[i] = append(g.Text[i], fmt.Sprintf("%+.2f%%", 100*(v-1)))
			}
		}
		return g, nil
	}
}

// transposeChart draws a transpose's time against sqrt(n) on each
// machine (Table I), ours from Lemma 1 over the simulated congestions.
func transposeChart(name string) units.Chart {
	return func(ts []*table.Table) (chart.Chart, error) {
		r := chart.Read(ts)
		t := r.Table("Table I, the " + name + " Transpose")
		sqrtN, machine, lemma := r.Index(t, "sqrt(n)"), r.Index(t, "machine"), r.Index(t, "ours: Lemma 1")
		if r.Err() != nil {
			return nil, r.Err()
		}
		sizes, machines, vals := chart.Pivot(t, sqrtN, machine, lemma, nil)
		xs := make([]float64, len(sizes))
		for i, s := range sizes {
			xs[i] = chart.Number(s)
		}
		var curves []chart.Curve
		for i, m := range machines {
			curves = append(curves, chart.Curve{Name: m, X: xs, Y: vals[i]})
		}
		return &chart.Lines{
			Caption: chart.Caption{Title: "Table I: the " + name + " Transpose's time against sqrt(n) on each machine, ours",
				Note:   "Ours: Lemma 1's C + (l-1)T over the simulated congestions (w = 16, s = 4, l = 16, p = 256). Table I prints O() bounds only; the closed forms are in the table. Log scales.",
				Source: t.Title},
			XLabel: "sqrt(n) (matrix side)", YLabel: "time units", LogX: true, LogY: true,
			Curves: curves,
		}, nil
	}
}

// rpuChart: the request packing unit's gates against N, the sort and
// the all-pairs matrix, with the laws the report fits.
func rpuChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("rsdmm-cost: the request packing unit")
	ns, sortGates, pairGates := r.Numbers(t, "N"), r.Numbers(t, "sort gates"), r.Numbers(t, "all-pairs gates")
	if r.Err() != nil {
		return nil, r.Err()
	}
	_, sorts, okS := strings.Cut(chart.Notes(t), "sort gates ~")
	_, pairs, okP := strings.Cut(chart.Notes(t), "all-pairs gates ~")
	sortE, okSE := chart.Exponent(sorts, "N")
	pairE, okPE := chart.Exponent(pairs, "N")
	if !okS || !okP || !okSE || !okPE {
		return nil, fmt.Errorf("table %q: no growth laws sort gates ~ N^a, all-pairs gates ~ N^b in its notes", t.Title)
	}
	sortC := chart.Curve{Name: "sort (Batcher)", X: ns, Y: sortGates}
	pairC := chart.Curve{Name: "all pairs", X: ns, Y: pairGates}
	return &chart.Lines{
		Caption: chart.Caption{Title: "rsdmm-cost: the request packing unit's gates against the requests N, the sort against the all-pairs matrix",
			Note:   "Yosys's own gates (gates_noabc.ys). Dashed: the report's laws fitted over N = 8..64. The paper gives no count (\"few additional circuits\"). Log scales.",
			Source: t.Title},
		XLabel: "requests N = s w", YLabel: "gates (count)", LogX: true, LogY: true,
		Curves: []chart.Curve{sortC, pairC,
			chart.FitCurve(chart.Fit{Name: fmt.Sprintf("N^%g", sortE), Law: chart.Power(sortE)}, sortC),
			chart.FitCurve(chart.Fit{Name: fmt.Sprintf("N^%g", pairE), Law: chart.Power(pairE)}, pairC)},
	}, nil
}
