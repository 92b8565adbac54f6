package smm2d

import (
	"fmt"
	"strings"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The 2DSMM reports' figures (gen -report NAME -format html), drawn from
// their tables: Table 3.2's critical paths beside the thesis's as built,
// the cycles per access, the layout of thesis Figs. 3.6 and 3.7, and
// Figs. 3.17-3.20's growth with the laws the scaling report fits.

func init() {
	units.AttachCharts(smm2dReports, "smm2d", criticalPathChart, cyclesChart,
		units.PictureChart(layoutView, units.Values{"mb": 4, "nb": 5, "pattern": 2, "bi": 1, "bj": 3, "vstride": 2, "hstride": 6},
			"Thesis Figs. 3.6 and 3.7: the 2DSMM layout at p = 1, q = 2 (2 x 4 banks), 16 x 32 elements, and a forward-diagonal access",
			"Each element's bank m_v,m_h; the marked lanes are the access of pattern 2 from (1, 3) at strides 2 and 6 (gen -layout -unit smm2d -mb 4 -nb 5 -pattern 2 -bi 1 -bj 3 -vstride 2 -hstride 6)."))
	units.AttachCharts(smm2dReports, "smm2d-scaling", depthChart, byUnitBarsChart,
		byUnitChart("Fig. 3.19", "data width w (bits)"), byUnitChart("Fig. 3.20", "banks"))
}

// criticalPathChart: Table 3.2's units' gate depths beside the thesis's
// critical paths as we built and mapped them.
func criticalPathChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("Table 3.2: critical paths")
	unitNames := r.Strings(t, "unit")
	ours, thesis := r.Numbers(t, "gate depth, ours"), r.Numbers(t, "thesis's path built and mapped, gates (derived)")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Table 3.2: each unit's critical path in gates, ours beside the thesis's path as described",
			Note:   "Gates on the longest path (gates.ys). The thesis describes each path in words; the second bar is that description built as a module and mapped by the same flow (derived, not a number the thesis prints).",
			Source: t.Title},
		XLabel: "unit at Fig. 3.12's configuration", YLabel: "critical path (gates)",
		Categories: unitNames,
		Series:     []chart.Series{{Name: "ours", Values: ours}, {Name: "the thesis's path, built and mapped (derived)", Values: thesis}},
	}, nil
}

// cyclesChart: the cycles an access takes, supported or not.
func cyclesChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("Cycles per access from the cycle-level model")
	patterns := r.Strings(t, "pattern")
	supported, mean, worst := r.Numbers(t, "supported, mean"), r.Numbers(t, "unsupported, mean"), r.Numbers(t, "unsupported, worst")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Cycles per access by pattern: the accesses the theorems make conflict-free against the others, ours",
			Note:   "Supported accesses take one cycle (appendix B's theorems); the thesis leaves the others undefined: ours serve them in sub-accesses.",
			Source: t.Title},
		XLabel: "access pattern (Fig. 3.10)", YLabel: "cycles per access",
		Categories: patterns,
		Series: []chart.Series{{Name: "supported, mean", Values: supported}, {Name: "unsupported, mean", Values: mean},
			{Name: "unsupported, worst", Values: worst}},
	}, nil
}

// depthChart is Fig. 3.17: the memory's LUT4 against the bank depth, with
// the law the report fits.
func depthChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("Fig. 3.17, ours:")
	depths, luts := r.Numbers(t, "depth"), r.Numbers(t, "LUT4")
	if r.Err() != nil {
		return nil, r.Err()
	}
	e, ok := chart.Exponent(chart.Notes(t), "depth")
	if !ok {
		return nil, fmt.Errorf("table %q: no law LUT4 ~ depth^e in its notes", t.Title)
	}
	cur := chart.Curve{Name: "memory (banks outside)", X: depths, Y: luts}
	var ticks []chart.Tick
	for _, d := range r.Strings(t, "depth") {
		ticks = append(ticks, chart.Tick{Value: chart.Number(d), Label: d})
	}
	return &chart.Lines{
		Caption: chart.Caption{Title: "Fig. 3.17: the memory's logic against the bank depth, ours",
			Note:   fmt.Sprintf("iCE40 LUT4 (banks not counted), p = 1, q = 2, w = 64; the thesis: no remarkable change (Stratix II ALUTs). Dashed: the report's law, LUT4 ~ depth^%g.", e),
			Source: t.Title},
		XLabel: "bank depth (words)", YLabel: "logic (iCE40 LUT4)", LogX: true,
		Curves: []chart.Curve{cur, chart.FitCurve(chart.Fit{Name: fmt.Sprintf("depth^%g", e), Law: chart.Power(e)}, cur)},
		XTicks: ticks,
	}, nil
}

// byUnitBarsChart is Fig. 3.18: each unit's LUT4 at depth 8192.
func byUnitBarsChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("Fig. 3.18, ours:")
	names, luts := r.Strings(t, "unit"), r.Numbers(t, "LUT4")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fig. 3.18: the logic by unit at depth 8192, ours",
			Note:   "iCE40 LUT4 of each unit synthesized alone, and of the memory (banks outside); the rest is the memory's less the units', negative where synthesis shares logic. The thesis gives the routing unit the overwhelming majority.",
			Source: t.Title},
		XLabel: "unit", YLabel: "logic (iCE40 LUT4)",
		Categories: names,
		Series:     []chart.Series{{Name: "LUT4", Values: luts}},
	}, nil
}

// byUnitChart draws a sweep's by-unit table (Figs. 3.19, 3.20): each
// unit's LUT4 against the swept value, with the unit's fitted exponent.
func byUnitChart(fig, xLabel string) units.Chart {
	return func(ts []*table.Table) (chart.Chart, error) {
		r := chart.Read(ts)
		t := r.Table(fig + " by unit, ours:")
		names := r.Strings(t, "unit")
		if r.Err() != nil {
			return nil, r.Err()
		}
		var xs []float64
		var cols []int
		var ticks []chart.Tick
		eCol := -1
		for k, h := range t.Header[1:] {
			switch {
			case strings.HasPrefix(h, "e in LUT4"):
				eCol = k + 1
			case !strings.HasPrefix(h, "share"):
				x := chart.Number(h)
				xs, cols, ticks = append(xs, x), append(cols, k+1), append(ticks, chart.Tick{Value: x, Label: h})
			}
		}
		if eCol < 0 || len(cols) == 0 {
			return nil, fmt.Errorf("table %q: no sweep columns and exponent", t.Title)
		}
		var curves, fits []chart.Curve
		for i, n := range names {
			c := chart.Curve{Name: n, X: xs}
			for _, k := range cols {
				c.Y = append(c.Y, chart.Number(t.Rows[i][k]))
			}
			e := chart.Number(t.Rows[i][eCol])
			f := chart.FitCurve(chart.Fit{Law: chart.Power(e)}, c)
			f.Name = ""
			if len(fits) == 0 {
				f.Name = "fit: each unit's e (the report's)"
			}
			curves, fits = append(curves, c), append(fits, f)
		}
		return &chart.Lines{
			Caption: chart.Caption{Title: fig + ": each unit's logic against the " + xLabel + ", ours",
				Note:   "iCE40 LUT4 of each unit synthesized alone, their sum and the memory (banks outside). Dashed: LUT4 ~ x^e with each unit's e as the report fits it. Log scales.",
				Source: t.Title},
			XLabel: xLabel, YLabel: "logic (iCE40 LUT4)", LogX: true, LogY: true,
			Curves: append(curves, fits...), XTicks: ticks, Height: chart.TallHeight,
		}, nil
	}
}
