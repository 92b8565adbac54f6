package elastic

import (
	"fmt"
	"math"
	"strings"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The elastic report's figures (gen -report elastic -format html), drawn
// from its tables: Tables 5.1 and 5.5's r and degree beside the thesis's,
// Fig. 5.8's stalls by cause, Figs. 5.8-5.9's per-kernel results beside
// the means the thesis prints, the speedups as the latency spreads, and
// Figs. 5.10-5.11.

func init() {
	units.AttachCharts(elasticReports, "elastic", intensityChart, degreeChart, stallsChart, speedupChart,
		stallsRemovedChart, spreadChart, unoptimisedChart, conflictFreeChart)
}

// The report's tables, by the start of their titles.
const (
	table51Title    = "Tables 5.1 and 5.5: shared-memory intensity r"
	fig58Title      = "Fig. 5.8: pipeline stalls by cause"
	fig59Title      = "Fig. 5.9: speedup over the baseline"
	fixedGDDRTitle  = "Figs. 5.8-5.9: fixed latency"
	spreadTitle     = "Fig. 5.9's speedups over the baseline as the global-load latency spreads"
	fig510Title     = "Fig. 5.10: unoptimised kernels"
	fig511Title     = "Fig. 5.11: the conflict-free kernels"
	perKernelYLabel = "kernel (CUDA SDK, Table 5.1)"
)

// table51Chart is one quantity of Tables 5.1 and 5.5, ours beside the
// thesis's, per kernel.
func table51Chart(ts []*table.Table, col, title, unit, note string) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(table51Title)
	kernels := r.Strings(t, "kernel")
	thesis, ours := r.Numbers(t, col+", thesis"), r.Numbers(t, col+", ours")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: title, Note: note, Source: t.Title},
		XLabel:  perKernelYLabel, YLabel: unit,
		Categories: kernels,
		Series:     []chart.Series{{Name: "ours, on the baseline", Values: ours}, {Name: "thesis Tables 5.1 and 5.5", Values: thesis, Paper: true}},
	}, nil
}

func intensityChart(ts []*table.Table) (chart.Chart, error) {
	return table51Chart(ts, "r", "Table 5.1: shared-memory intensity r per kernel, ours beside the thesis's", "r (% of issued subwarps)",
		"r: shared-memory subwarps with an enabled lane over issued subwarps, measured on the baseline.")
}

func degreeChart(ts []*table.Table) (chart.Chart, error) {
	return table51Chart(ts, "degree", "Tables 5.1 and 5.5: average bank-conflict degree per kernel, ours beside the thesis's", "degree (MEM0 cycles per access)",
		"Degree: MEM0 cycles per shared-memory subwarp (Eq. 5.3), measured on the baseline.")
}

// stallsChart is Fig. 5.8: each kernel's stalls by cause under the three
// setups, a bar each, normalized to the baseline's total.
func stallsChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(fig58Title)
	kernel, setup := r.Index(t, "kernel"), r.Index(t, "setup")
	causes := []string{"sched fail", "bank conflict", "other"}
	cols := make([]int, len(causes))
	for i, c := range causes {
		cols[i] = r.Index(t, c)
	}
	if r.Err() != nil {
		return nil, r.Err()
	}
	keep := func(row []string) bool { return row[kernel] != "mean" }
	var series []chart.Series
	var kernels []string
	for i, c := range causes {
		cats, setups, vals := chart.Pivot(t, kernel, setup, cols[i], keep)
		kernels = cats
		for k, s := range setups {
			series = append(series, chart.Series{Name: c, Stack: shortSetup(s), Values: vals[k]})
		}
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fig. 5.8: pipeline stalls by cause per kernel, ours: baseline (base), elastic+RR (RR) and elastic+aware (aware)",
			Note:   "Each bar piles the stall cycles of one setup by cause, over the baseline's total; the thesis prints no kernel's bars (its means are in the next figures).",
			Source: t.Title},
		XLabel: perKernelYLabel, YLabel: "stalls (of the baseline's total)",
		Categories: kernels, Series: series, StackLabels: true, Height: chart.TallHeight,
	}, nil
}

// shortSetup names a setup on its bar.
func shortSetup(s string) string {
	return map[string]string{"baseline": "base", "elastic+RR": "RR", "elastic+aware": "aware"}[s]
}

// speedupChart is Fig. 5.9: each kernel's speedups, ours with the
// theoretic bound, and the thesis's means (it prints no kernel's).
func speedupChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t, means := r.Table(fig59Title), r.Table(fixedGDDRTitle)
	kernels := r.Strings(t, "kernel")
	rr, aware, bound := r.Numbers(t, "elastic+RR"), r.Numbers(t, "elastic+aware"), r.Numbers(t, "theoretic, ours")
	thesisRR, thesisAware := meanRow(r, means, "speedup elastic+RR: thesis"), meanRow(r, means, "speedup elastic+aware: thesis")
	if r.Err() != nil {
		return nil, r.Err()
	}
	thesis := chart.NaNs(len(kernels))
	for i, k := range kernels {
		if k == "mean" {
			thesis[i] = thesisAware
		}
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fig. 5.9: speedup over the baseline per kernel, ours, with the theoretic bound and the thesis's means",
			Note:   "Ours: the fixed-latency model, one core. The thesis prints only the means: elastic+aware's as a bar at mean, elastic+RR's as the dashed line. Theoretic: 1 + r(degree - 1) from our r and degree (Table 5.5).",
			Source: means.Title},
		XLabel: perKernelYLabel, YLabel: "speedup over the baseline (%)",
		Categories: kernels,
		Series: []chart.Series{
			{Name: "elastic+RR", Values: rr}, {Name: "elastic+aware", Values: aware}, {Name: "theoretic bound", Values: bound},
			{Name: "thesis, elastic+aware mean", Values: thesis, Paper: true},
		},
		Refs: []chart.Ref{{Name: "thesis, elastic+RR mean", Value: thesisRR, Paper: true}},
	}, nil
}

// meanRow reads the number in column name of the table's mean row.
func meanRow(r *chart.Reader, t *table.Table, name string) float64 {
	kernels, vals := r.Strings(t, "kernel"), r.Numbers(t, name)
	for i, k := range kernels {
		if k == "mean" {
			return vals[i]
		}
	}
	return math.NaN()
}

// stallsRemovedChart is Fig. 5.8's stalls removed by elastic+aware per
// kernel, on the fixed latency and the shared GDDR model, beside the
// thesis's mean.
func stallsRemovedChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(fixedGDDRTitle)
	kernels := r.Strings(t, "kernel")
	thesis := r.Numbers(t, "stalls removed (aware): thesis")
	fixed, gddr := r.NumbersAfter(t, "stalls removed (aware): thesis", "fixed"), r.NumbersAfter(t, "stalls removed (aware): thesis", "gddr")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fig. 5.8: pipeline stalls removed by elastic+aware per kernel, ours on two memories beside the thesis's mean",
			Note:   "Fixed: one core whose loads take 400 to 1200 cycles; gddr: 16 cores sharing 4 GDDR3 channels. The thesis prints only the mean (42.3%).",
			Source: t.Title},
		XLabel: perKernelYLabel, YLabel: "stalls removed (%)",
		Categories: kernels,
		Series: []chart.Series{
			{Name: "ours, fixed latency", Values: fixed}, {Name: "ours, shared GDDR", Values: gddr},
			{Name: "thesis mean", Values: thesis, Paper: true},
		},
	}, nil
}

// spreadChart: elastic+aware's speedup per kernel as the global-load
// latency spreads.
func spreadChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(spreadTitle)
	kernels := r.Strings(t, "kernel")
	if r.Err() != nil {
		return nil, r.Err()
	}
	var spreads []float64
	var cols []int
	for k, h := range t.Header {
		if s, ok := strings.CutPrefix(h, "aware, spread "); ok {
			spreads, cols = append(spreads, chart.Number(s)), append(cols, k)
		}
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("table %q has no column \"aware, spread N\"", t.Title)
	}
	var curves []chart.Curve
	for i, k := range kernels {
		c := chart.Curve{Name: k, X: spreads}
		for _, col := range cols {
			c.Y = append(c.Y, chart.Number(t.Rows[i][col]))
		}
		curves = append(curves, c)
	}
	return &chart.Lines{
		Caption: chart.Caption{Title: "Fig. 5.9's elastic+aware speedup per kernel as the global-load latency spreads, ours",
			Note:   "Loads take 400 to 400 + spread cycles, uniformly. The thesis's figure has one memory; these curves show how much ours depends on the spread.",
			Source: t.Title},
		XLabel: "latency spread (cycles)", YLabel: "speedup over the baseline (%)",
		Curves: curves, Height: chart.TallHeight,
	}, nil
}

// unoptimisedChart is Fig. 5.10: the unoptimised kernels on elastic+aware
// against the hand-optimised ones on the baseline, beside the one
// kernel's change the thesis prints.
func unoptimisedChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(fig510Title)
	kernels, thesisText := r.Strings(t, "kernel"), r.Strings(t, "thesis (5.6.2)")
	ours := r.Numbers(t, "ours: IPC change")
	if r.Err() != nil {
		return nil, r.Err()
	}
	thesis := make([]float64, len(kernels))
	for i, s := range thesisText {
		thesis[i] = chart.Number(s)
		if strings.HasSuffix(s, "% less") { // "14.9% less": a fall
			thesis[i] = -thesis[i]
		}
		if !strings.HasSuffix(s, "% less") && !strings.HasSuffix(s, "%") {
			thesis[i] = math.NaN() // words: "quite large", "on par"
		}
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fig. 5.10: IPC of the unoptimised kernels on elastic+aware against the hand-optimised ones on the baseline, ours beside the thesis's",
			Note:   "The thesis prints IDCT's number only (14.9% less); of DCT it says the gap is quite large, of the mean that it is on par.",
			Source: t.Title},
		XLabel: perKernelYLabel, YLabel: "IPC change (%)",
		Categories: kernels,
		Series:     []chart.Series{{Name: "ours", Values: ours}, {Name: "thesis 5.6.2", Values: thesis, Paper: true}},
	}, nil
}

// conflictFreeChart is Fig. 5.11: the conflict-free kernels' speedups on
// the elastic pipeline, which the thesis calls negligible.
func conflictFreeChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(fig511Title)
	kernels := r.Strings(t, "kernel")
	rr, aware := r.Numbers(t, "ours: speedup elastic+RR"), r.Numbers(t, "ours: speedup elastic+aware")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fig. 5.11: the conflict-free kernels (the SDK's padded layouts) on the elastic pipeline, ours",
			Note:   "The thesis prints no number: it calls the difference negligible.",
			Source: t.Title},
		XLabel: "kernel (padded layout)", YLabel: "speedup over the baseline (%)",
		Categories: kernels,
		Series:     []chart.Series{{Name: "elastic+RR", Values: rr}, {Name: "elastic+aware", Values: aware}},
	}, nil
}
