package units

import (
	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
)

// fidelityCharts are the fidelity report's figures: the verdicts per
// family, from its first table.
var fidelityCharts = []Chart{verdictsChart}

// verdictsChart piles each family's results by verdict, from the
// fidelity report's table of verdicts per family.
func verdictsChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("Fidelity: the verdicts per family")
	families := r.Strings(t, "family")
	var series []chart.Series
	for v := verdict.Exact; v <= verdict.NotReproduced; v++ {
		series = append(series, chart.Series{Name: v.String(), Stack: "verdicts", Values: r.Numbers(t, v.String())})
	}
	if r.Err() != nil {
		return nil, r.Err()
	}
	keep := len(families)
	if keep > 0 && families[keep-1] == "all" { // the sum would dwarf the families
		keep--
	}
	for i := range series {
		series[i].Values = series[i].Values[:keep]
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fidelity: each family's results by verdict",
			Note:   "Every result a family reproduces from its papers, piled by the project's one rule's verdict (internal/verdict), exact at the bottom.",
			Source: t.Title},
		XLabel: "family", YLabel: "results (count)",
		Categories: families[:keep], Series: series,
	}, nil
}
