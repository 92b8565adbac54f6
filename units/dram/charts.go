package dram

import (
	"fmt"
	"math"
	"strings"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The DRAM reports' figures (gen -report NAME -format html), drawn from
// their tables: Li's Figs. 6.1-6.9 per skeleton under the four policies,
// with the class means the thesis prints beside ours, Figs. 6.10 and
// 6.11's sweeps, and the score logic's growth with its fitted law.

func init() {
	units.AttachCharts(dramReports, "dram",
		relativeChart("IPC", "Figs. 6.1-6.3: IPC", "IPC change over FR-FCFS (%)",
			map[Class]string{HIL: "IPC (Fig. 6.1)", LIL: "IPC (Fig. 6.2)", Insensitive: "IPC (Fig. 6.3)"}),
		relativeChart("reservation fails", "Fig. 6.4: L2 reservation fails", "reservation fails over FR-FCFS (% change)",
			map[Class]string{HIL: "L2 reservation fails (Fig. 6.4)", LIL: "L2 reservation fails (Fig. 6.4)"}),
		absoluteChart("max latency", "Fig. 6.5: the maximum memory latency", "max latency (core cycles)"),
		relativeChart("avg latency", "Fig. 6.6: the average memory latency", "average latency over FR-FCFS (% change)",
			map[Class]string{HIL: "average memory latency (Fig. 6.6)"}),
		relativeChart("stall cycles", "Fig. 6.7: data dependency stalls", "stall cycles over FR-FCFS (% change)",
			map[Class]string{HIL: "data dependency stalls (Fig. 6.7)", LIL: "data dependency stalls (Fig. 6.7)"}),
		absoluteChart("row locality", "Fig. 6.8: row locality", "column commands per ACT"),
		absoluteChart("bandwidth", "Fig. 6.9: DRAM bandwidth utilization", "bandwidth utilization (%)"),
		sweepChart("Fig. 6.10 on the cycle model", "L2-to-DRAM latency", "L2-to-DRAM latency (core cycles)"),
		sweepChart("Fig. 6.11 on the cycle model", "read queue", "read queue (entries)"))
	units.AttachCharts(dramReports, "dram-cost", scoreLogicChart)
}

const (
	chapter6Title = "Chapter 6 on the cycle model"
	findingsTitle = "Chapter 6's findings"
)

// policyFills keeps each policy's fill in every chart, FR-FCFS's too
// where it is not drawn.
func policyFills() []string {
	var names []string
	for _, p := range Policies {
		names = append(names, p.String())
	}
	return names
}

// relativeChart draws column col's change over FR-FCFS (the "vs FR-FCFS"
// column after it) per skeleton under the three MSHR policies, then each
// class's mean: MSHR-S+A's beside the thesis's, from the findings' claims
// (a claim's result holds keys[class] and the class's name).
func relativeChart(col, fig, yLabel string, keys map[Class]string) units.Chart {
	return func(ts []*table.Table) (chart.Chart, error) {
		r := chart.Read(ts)
		t, findings := r.Table(chapter6Title), r.Table(findingsTitle)
		skel, pol := r.Index(t, "skeleton"), r.Index(t, "policy")
		rel := r.IndexAfter(t, col, "vs FR-FCFS")
		if r.Err() != nil {
			return nil, r.Err()
		}
		cats, policies, vals := chart.Pivot(t, skel, pol, rel, func(row []string) bool { return row[pol] != "FR-FCFS" })
		n := len(cats)
		var series []chart.Series
		for i, p := range policies {
			series = append(series, chart.Series{Name: p, Values: vals[i]})
		}
		paper := chart.Series{Name: "Li, class mean", Paper: true, Values: chart.NaNs(n)}
		var means []string
		for _, c := range Classes {
			key, ok := keys[c]
			if !ok {
				continue
			}
			p, ours := r.Claim(findings, key, ", "+c.String()+" (")
			if r.Err() != nil {
				return nil, r.Err()
			}
			cats = append(cats, c.String()+" mean")
			means = append(means, c.String())
			for i := range series {
				v := math.NaN()
				if series[i].Name == MSHRSA.String() {
					v = ours
				}
				series[i].Values = append(series[i].Values, v)
			}
			paper.Values = append(paper.Values, p)
		}
		return &chart.Bars{
			Caption: chart.Caption{Title: fig + " per skeleton under the MSHR policies, their change over FR-FCFS, ours, and the class means beside Li's",
				Note:   "At a class's mean: MSHR-S+A's harmonic mean over the class's skeletons against FR-FCFS, beside the thesis's for the class (the chapter's claims). The thesis prints no skeleton's bars.",
				Source: findings.Title},
			XLabel:     "benchmark skeleton, then " + classMeans(means),
			YLabel:     yLabel,
			Categories: cats, Series: append(series, paper), FillOrder: policyFills(), Width: 7.6 * 72, Height: chart.TallHeight,
		}, nil
	}
}

// classMeans names the class means a chart ends with.
func classMeans(classes []string) string {
	if len(classes) == 1 {
		return "the class mean (" + classes[0] + ")"
	}
	return "the class means (" + strings.Join(classes, ", ") + ")"
}

// absoluteChart draws column col per skeleton under the four policies.
func absoluteChart(col, fig, yLabel string) units.Chart {
	return func(ts []*table.Table) (chart.Chart, error) {
		r := chart.Read(ts)
		t := r.Table(chapter6Title)
		skel, pol, k := r.Index(t, "skeleton"), r.Index(t, "policy"), r.Index(t, col)
		if r.Err() != nil {
			return nil, r.Err()
		}
		cats, policies, vals := chart.Pivot(t, skel, pol, k, nil)
		var series []chart.Series
		for i, p := range policies {
			series = append(series, chart.Series{Name: p, Values: vals[i]})
		}
		return &chart.Bars{
			Caption: chart.Caption{Title: fig + " per skeleton under the four policies, ours",
				Note:   "The thesis states this figure's findings in words (the chapter's claims in the findings table).",
				Source: t.Title},
			XLabel: "benchmark skeleton", YLabel: yLabel,
			Categories: cats, Series: series, FillOrder: policyFills(), Width: 7.6 * 72,
		}, nil
	}
}

// sweepChart draws a sweep table (Figs. 6.10, 6.11): MSHR-S+A against
// FR-FCFS per class over the swept value, ours as curves and the
// thesis's values as points.
func sweepChart(title, col, xLabel string) units.Chart {
	return func(ts []*table.Table) (chart.Chart, error) {
		r := chart.Read(ts)
		t := r.Table(title)
		classes, xs := r.Strings(t, "class"), r.Numbers(t, col)
		ours, thesis := r.Numbers(t, "MSHR-S+A vs FR-FCFS"), r.Numbers(t, "thesis")
		if r.Err() != nil {
			return nil, r.Err()
		}
		var curves, papers []chart.Curve
		for _, c := range chart.Distinct(classes) {
			o, p := chart.Curve{Name: c + ", ours"}, chart.Curve{Name: "Li, " + c, Paper: true, Of: c + ", ours"}
			for i := range classes {
				if classes[i] == c {
					o.X, o.Y = append(o.X, xs[i]), append(o.Y, ours[i])
					p.X, p.Y = append(p.X, xs[i]), append(p.Y, thesis[i])
				}
			}
			curves, papers = append(curves, o), append(papers, p)
		}
		return &chart.Lines{
			Caption: chart.Caption{Title: fmt.Sprintf("%s: MSHR-S+A's IPC change over FR-FCFS per class against the %s, ours beside Li's", t.Title[:len("Fig. 6.1x")], col),
				Note:   "Ours: harmonic means over the class's skeletons. Li's: the chapter's figures where it prints one, hollow, in the marker of the class's curve.",
				Source: t.Title},
			XLabel: xLabel, YLabel: "IPC change over FR-FCFS (%)",
			Curves: append(curves, papers...),
		}, nil
	}
}

// scoreLogicChart: the score logic's gates against the entries, each
// setting with the law the report fits.
func scoreLogicChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("dram-cost: the score logic's growth")
	entries, laws := r.Strings(t, "entries"), r.Strings(t, "table's score logic")
	tableLogic, sumLogic := r.Numbers(t, "table's score logic"), r.Numbers(t, "sum's score logic")
	sumLaws := r.Strings(t, "sum's score logic")
	if r.Err() != nil {
		return nil, r.Err()
	}
	xs := make([]float64, len(entries))
	var tableLaw, sumLaw string
	for i, e := range entries {
		xs[i] = chart.Number(e)
		if e == "growth law" {
			tableLaw, sumLaw = laws[i], sumLaws[i]
		}
	}
	curves := []chart.Curve{{Name: "-rowscore table", X: xs, Y: tableLogic}, {Name: "-rowscore sum", X: xs, Y: sumLogic}}
	for i, l := range []string{tableLaw, sumLaw} {
		e, ok := chart.Exponent(l, "entries")
		if !ok {
			return nil, fmt.Errorf("table %q: no growth law entries^e in its last row", t.Title)
		}
		curves = append(curves, chart.FitCurve(chart.Fit{Name: l, Law: chart.Power(e)}, curves[i]))
	}
	return &chart.Lines{
		Caption: chart.Caption{Title: "dram-cost: the score logic's gates against the row-score entries, with the report's growth laws",
			Note:   "Score logic: dram-sched's gates (gates_noabc.ys) at a setting minus -rowscore none's. Dashed: gates = c entries^k, k as the report fits it. Log scales.",
			Source: t.Title},
		XLabel: "entries", YLabel: "score logic (gates)", LogX: true, LogY: true,
		Curves: curves,
	}, nil
}
