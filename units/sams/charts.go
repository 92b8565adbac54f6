package sams

import (
	"fmt"
	"math"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The SAMS reports' figures (gen -report NAME -format html), drawn from
// their tables: Table 3.1's LUTs and Table 4.2's gates and delays beside
// the thesis's, the growth of the ATU and the memory logic with the laws
// the scaling report fits, and the layout of thesis Figs. 3.3 and 3.4.

func init() {
	units.AttachCharts(samsReports, "atu", table31Chart)
	units.AttachCharts(samsReports, "sams", table42GatesChart, table42DelayChart,
		units.PictureChart(layoutPicture, units.Values{"q": 2, "family": 2, "base": 1, "stride": 3, "mode": 3},
			"Thesis Figs. 3.3 and 3.4: the SAMS layout at q = 2 (4 banks), n = 5, stride family 2, and an access of stride 3 from address 1",
			"Each bank slot holds the address stored there; the shaded slots are the access's (gen -layout -q 2 -family 2 -base 1 -stride 3 -mode 3)."))
	units.AttachCharts(samsReports, "scaling", atuScalingChart, logicScalingChart)
}

// table31Chart: sams-atu's LUTs beside thesis Table 3.1's, row by row.
func table31Chart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("sams-atu, one lane, iCE40")
	ns, qs := r.Strings(t, "n"), r.Strings(t, "q")
	ours, thesis := r.Numbers(t, "our SB_LUT4"), r.Numbers(t, "thesis LUTs")
	if r.Err() != nil {
		return nil, r.Err()
	}
	cats := make([]string, len(ns))
	for i := range ns {
		cats[i] = fmt.Sprintf("n=%s q=%s", ns[i], qs[i])
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Thesis Table 3.1: sams-atu's LUTs (one lane), ours beside the thesis's",
			Note:   "Ours: iCE40 SB_LUT4 after synth_ice40; the thesis's: Virtex-II Pro LUTs after ISE 9.1i. Both are 4-input LUTs.",
			Source: t.Title},
		XLabel: "configuration (address bits n, 2^q banks)", YLabel: "LUTs (count)",
		Categories: cats,
		Series:     []chart.Series{{Name: "ours, SB_LUT4", Values: ours}, {Name: "thesis Table 3.1", Values: thesis, Paper: true}},
	}, nil
}

// The two tables of the sams report beside thesis Table 4.2.
const (
	table42GatesTitle = "SAMS memory logic (n=16, w=32; AGU"
	table42EquivTitle = "SAMS memory logic (n=16, w=32) in gate equivalents"
)

// table42GatesChart: the memory logic's gates, by both of our flows,
// beside thesis Table 4.2's.
func table42GatesChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	gates, ge := r.Table(table42GatesTitle), r.Table(table42EquivTitle)
	qs := r.Strings(gates, "q")
	ours, thesis, equiv := r.Numbers(gates, "our gates"), r.Numbers(gates, "thesis gates"), r.Numbers(ge, "our gate equivalents")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Thesis Table 4.2: the memory logic's gates (n = 16, w = 32), ours beside the thesis's",
			Note:   "Ours: Yosys gates (synth; abc -g) and NAND2 gate equivalents (scripts/ge.ys); the thesis's: TSMC 90 nm gates. Log scale.",
			Source: ge.Title},
		XLabel: "2^q banks", YLabel: "gates (count)", LogY: true,
		Categories: chart.Prefixed("q=", qs),
		Series: []chart.Series{
			{Name: "ours, gates (abc -g)", Values: ours},
			{Name: "ours, gate equivalents (ge.ys)", Values: equiv},
			{Name: "thesis Table 4.2", Values: thesis, Paper: true},
		},
	}, nil
}

// table42DelayChart: the inbound path's delay in 32-bit adders, ours in
// two adder units, beside thesis Table 4.2's.
func table42DelayChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	gates, ge := r.Table(table42GatesTitle), r.Table(table42EquivTitle)
	qs := r.Strings(gates, "q")
	thesis, ripple := r.Numbers(gates, "thesis inbound delay (adders)"), r.Numbers(gates, "our inbound depth (adders)")
	ks := r.Numbers(ge, "our inbound delay (KS adders)")
	if r.Err() != nil {
		return nil, r.Err()
	}
	return &chart.Bars{
		Caption: chart.Caption{Title: "Thesis Table 4.2: the inbound path's delay in 32-bit adders, ours beside the thesis's",
			Note:   "Ours: the path's depth over the depth of a 32-bit adder through the same flow, a ripple-carry adder (abc -g) or a Kogge-Stone one (ge.ys); the thesis's unit is a fast 90 nm adder (0.38 ns).",
			Source: ge.Title},
		XLabel: "2^q banks", YLabel: "inbound delay (32-bit adders)",
		Categories: chart.Prefixed("q=", qs),
		Series: []chart.Series{
			{Name: "ours, in ripple-carry adders", Values: ripple},
			{Name: "ours, in Kogge-Stone adders", Values: ks},
			{Name: "thesis Table 4.2", Values: thesis, Paper: true},
		},
	}, nil
}

// atuScalingChart: sams-atu's gates against n, a curve per q, with the
// law the report fits (gates ~ b^q (n-q)^e) scaled to all the points.
func atuScalingChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("Scaling: sams-atu (2^q lanes)")
	qs, ns, gates := r.Numbers(t, "q"), r.Numbers(t, "n"), r.Numbers(t, "gates")
	if r.Err() != nil {
		return nil, r.Err()
	}
	b, okB := chart.Base(chart.Notes(t), "q")
	e, okE := chart.Exponent(chart.Notes(t), "(n-q)")
	if !okB || !okE {
		return nil, fmt.Errorf("table %q: no growth law b^q x (n-q)^e in its notes", t.Title)
	}
	law := func(q, n float64) float64 { return math.Pow(b, q) * math.Pow(n-q, e) }
	idx := make([]float64, len(qs)) // the points' indices: the law is of q and n
	for i := range idx {
		idx[i] = float64(i)
	}
	c := chart.Fit{Law: func(i float64) float64 { return law(qs[int(i)], ns[int(i)]) }}.Scale(idx, gates)
	var curves []chart.Curve
	for _, q := range chart.Distinct(qs) {
		cur := chart.Curve{Name: fmt.Sprintf("q=%g (%d lanes)", q, 1<<int(q))}
		for i := range qs {
			if qs[i] == q {
				cur.X, cur.Y = append(cur.X, ns[i]), append(cur.Y, gates[i])
			}
		}
		name := "" // the law is one: named once in the legend
		if len(curves) == 0 {
			name = "fit: the report's law"
		}
		curves = append(curves, cur, chart.LawCurve(name, cur, func(n float64) float64 { return c * law(q, n) }))
	}
	return &chart.Lines{
		Caption: chart.Caption{Title: "Scaling: sams-atu's gates against the address bits n, a curve per q",
			Note:   fmt.Sprintf("Yosys gates (synth; abc -g). Dashed: the report's law, gates ~ %g^q x (n-q)^%g, scaled to all the points. Log scales.", b, e),
			Source: t.Title},
		XLabel: "address bits n", YLabel: "gates (count)", LogX: true, LogY: true,
		Curves: curves,
	}, nil
}

// logicScalingChart: the memory logic's gates against q, with the law
// the report fits (gates ~ b^q).
func logicScalingChart(ts []*table.Table) (chart.Chart, error) {
	r := chart.Read(ts)
	t := r.Table("Scaling: SAMS memory logic")
	qs, gates := r.Numbers(t, "q"), r.Numbers(t, "gates")
	if r.Err() != nil {
		return nil, r.Err()
	}
	b, ok := chart.Base(chart.Notes(t), "q")
	if !ok {
		return nil, fmt.Errorf("table %q: no growth law b^q in its notes", t.Title)
	}
	cur := chart.Curve{Name: "memory logic", X: qs, Y: gates}
	return &chart.Lines{
		Caption: chart.Caption{Title: "Scaling: the SAMS memory logic's gates against q",
			Note:   fmt.Sprintf("Yosys gates (synth; abc -g). Dashed: the report's law, gates ~ %g^q, scaled to the points. Log scale.", b),
			Source: t.Title},
		XLabel: "q (2^q banks)", YLabel: "gates (count)", LogY: true,
		Curves: []chart.Curve{cur, chart.FitCurve(chart.Fit{Name: fmt.Sprintf("%g^q", b), Law: func(q float64) float64 { return math.Pow(b, q) }}, cur)},
	}, nil
}
