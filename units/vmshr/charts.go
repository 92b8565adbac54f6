package vmshr

import (
	"fmt"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The VMSHR reports' figures (gen -report NAME -format html), drawn from
// their tables: Figs. 6.7-6.9 per kernel with the means the thesis
// prints, the two interconnects beside Figs. 6.8 and 6.10's means, and
// the gates the elastic tag search adds beside Table 6.1's list.

func init() {
	units.AttachCharts(vmshrReports, "vmshr", speedupChart, efficiencyChart, utilizationChart, interconnectChart)
	units.AttachCharts(vmshrReports, "vmshr-cost", tagSearchChart)
}

const (
	kernelTitle   = "Figs. 6.7-6.9 on the cycle model"
	findingsTitle = "Section 6.5's findings"
	icntTitle     = "The two interconnects on the kernels' means"
	kernelLabel   = "kernel (the Table 6.3 benchmarks it stands for)"
)

// perKernel is a per-kernel column of the kernel table as a series, and
// the thesis's mean (the findings' claim with keys) at the mean row.
func perKernel(ts []*table.Table, col string, keys []string, title, note, yLabel string) (chart.Chart, error) {
	r := chart.Read(ts)
	t, findings := r.Table(kernelTitle), r.Table(findingsTitle)
	kernels, stands := r.Strings(t, "kernel"), r.Strings(t, "stands for")
	ours := r.Numbers(t, col)
	paper, _ := r.Claim(findings, keys...)
	if r.Err() != nil {
		return nil, r.Err()
	}
	cats := make([]string, len(kernels))
	thesis := chart.NaNs(len(kernels))
	for i, k := range kernels {
		cats[i] = k
		if stands[i] != "" {
			cats[i] = fmt.Sprintf("%s (%s)", k, stands[i])
		}
		if k == "mean" {
			thesis[i] = paper
		}
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: title, Note: note, Source: findings.Title},
		XLabel:  kernelLabel, YLabel: yLabel,
		Categories: cats,
		Series:     []chart.Series{{Name: "ours, 2 VCs", Values: ours}, {Name: "thesis, mean", Values: thesis, Paper: true}},
	}, nil
}

func speedupChart(ts []*table.Table) (chart.Chart, error) {
	return perKernel(ts, "speedup", []string{"speedup over the baseline, mean over the kernels, 2 VCs"},
		"Fig. 6.8: speedup of adaptive granularity over the baseline per kernel, ours beside the thesis's mean",
		"Ours: skeleton kernels standing for Table 6.3's benchmarks on the butterfly with 2 virtual channels; the thesis prints the mean over its 17 benchmarks (12.3%).",
		"speedup over the baseline (%)")
}

func efficiencyChart(ts []*table.Table) (chart.Chart, error) {
	return perKernel(ts, "E_tot gain", []string{"DRAM efficiency (E_tot) gain, mean over the kernels, 2 VCs"},
		"Fig. 6.7: DRAM efficiency (E_tot) gain per kernel, ours beside the thesis's mean",
		"E_tot: 6.5.3's transfers over twice the active bus cycles; the gain is adaptive's over the baseline's. The thesis prints the mean (1.42X).",
		"E_tot gain (adaptive / baseline)")
}

// utilizationChart is Fig. 6.9: each kernel's memory access utilization
// on both files (the thesis states its findings in words).
func utilizationChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(kernelTitle)
	kernels := r.Strings(t, "kernel")
	base, adaptive := r.Numbers(t, "base utilization"), r.Numbers(t, "adaptive utilization")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Fig. 6.9: memory access utilization per kernel, baseline against adaptive granularity, ours",
			Note:   "Utilization: the loaded bytes the lanes used over the bytes read. The thesis prints no number: the mean does not substantially decrease, BFS and LPS (divergent) lose much.",
			Source: t.Title},
		XLabel: kernelLabel, YLabel: "utilization (%)",
		Categories: kernels,
		Series:     []chart.Series{{Name: "baseline (32 B loads)", Values: base}, {Name: "adaptive (Alg. 6.1)", Values: adaptive}},
	}, nil
}

// interconnectChart is Figs. 6.8 and 6.10's means on both interconnects
// and virtual-channel counts, beside the thesis's.
func interconnectChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table(icntTitle)
	icnts, vcs := r.Strings(t, "interconnect"), r.Strings(t, "VCs")
	ours, thesis := r.Numbers(t, "mean speedup"), r.Numbers(t, "thesis speedup")
	if r.Err() != nil {
		return nil, r.Err()
	}
	cats := make([]string, len(icnts))
	for i := range icnts {
		cats[i] = fmt.Sprintf("%s, %s VC", icnts[i], vcs[i])
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Figs. 6.8 and 6.10: mean speedup by interconnect and virtual channels, ours beside the thesis's",
			Note:   "The thesis's interconnect is Table 6.2's butterfly: Fig. 6.8's 12.3% with 2 virtual channels, Fig. 6.10's 77.2% with 1; the crossbar rows set the same numbers beside ours for comparison.",
			Source: t.Title},
		XLabel: "interconnect, virtual channels", YLabel: "mean speedup (%)",
		Categories: cats,
		Series:     []chart.Series{{Name: "ours", Values: ours}, {Name: "thesis Figs. 6.8, 6.10", Values: thesis, Paper: true}},
	}, nil
}

// tagSearchChart: the gates the elastic tag search adds against m, by
// both flows, beside Table 6.1's list counted in two-input gates.
func tagSearchChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("vmshr-match: the elastic tag search minus the baseline's")
	ms := r.Numbers(t, "m")
	derived := r.Numbers(t, "Table 6.1's list, derived (14M - 1 two-input gates)")
	added, fast := r.Numbers(t, "added gates"), r.Numbers(t, "added gates, abc -fast")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Lines{
		Caption: chart.Caption{Title: "Thesis Table 6.1: the gates the elastic tag search adds against the PMSHRs m, ours beside the table's list",
			Note:   "Ours: vmshr-match minus vmshr-match -base through gates.ys (ABC's default script restructures the two netlists, and comes out below zero) and gates_fast.ys (abc -fast keeps the structure). Table 6.1 prints a list of gates; counted in two-input gates it is 14M - 1.",
			Source: t.Title},
		XLabel: "PMSHRs m", YLabel: "added gates (count)",
		Curves: []chart.Curve{
			{Name: "ours, abc -fast", X: ms, Y: fast},
			{Name: "ours, gates.ys (abc)", X: ms, Y: added},
			{Name: "Table 6.1's list, derived", X: ms, Y: derived, Paper: true},
		},
	}, nil
}
