package rsdmm

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
)

// The rsdmm-congestion report: section VI's experiment (Table II) run on
// the spec, beside the paper's table and f_w(s)/(es).

// TableII is the paper's Table II, E[Y]/s by n, then s = 1..10 (rows) and
// w = 16..256 (columns).
var TableII = map[int][10][5]float64{
	1 << 10: {
		{3.038, 3.433, 3.714, 3.808, 3.458}, {2.358, 2.574, 2.678, 2.572, 1.999},
		{2.064, 2.201, 2.217, 2.016, 1.333}, {1.888, 1.975, 1.936, 1.674, 1.000},
		{1.766, 1.819, 1.738, 1.438, 0.800}, {1.675, 1.700, 1.587, 1.256, 0.667},
		{1.603, 1.604, 1.466, 1.118, 0.571}, {1.542, 1.526, 1.365, 0.996, 0.500},
		{1.492, 1.458, 1.279, 0.889, 0.444}, {1.448, 1.399, 1.204, 0.800, 0.400},
	},
	1 << 20: {
		{3.080, 3.533, 3.959, 4.379, 4.766}, {2.416, 2.708, 2.982, 3.246, 3.494},
		{2.134, 2.363, 2.576, 2.778, 2.971}, {1.970, 2.163, 2.342, 2.511, 2.671},
		{1.861, 2.029, 2.186, 2.333, 2.472}, {1.781, 1.932, 2.072, 2.205, 2.329},
		{1.719, 1.857, 1.986, 2.106, 2.218}, {1.670, 1.798, 1.917, 2.027, 2.131},
		{1.629, 1.749, 1.859, 1.963, 2.059}, {1.595, 1.708, 1.812, 1.909, 1.999},
	},
}

// TableIIBound is Table II's third block as printed, f_w(s)/(es) by s =
// 1..10 (rows) and w = 16..256 (columns).
var TableIIBound = [10][5]float64{
	{2.667, 3.010, 3.347, 3.677, 4.000}, {2.667, 3.010, 3.347, 3.677, 4.000},
	{2.298, 2.594, 2.884, 3.168, 3.447}, {2.000, 2.258, 2.510, 2.758, 3.000},
	{1.772, 2.000, 2.224, 2.443, 2.658}, {1.593, 1.799, 2.000, 2.197, 2.390},
	{1.450, 1.637, 1.821, 2.000, 2.176}, {1.333, 1.505, 1.674, 1.839, 2.000},
	{1.236, 1.395, 1.551, 1.704, 1.853}, {1.153, 1.301, 1.447, 1.589, 1.729},
}

// tableIIWidths and tableIISizes are Table II's columns: w, and the
// memory's n of its two blocks.
var (
	tableIIWidths = []int{16, 32, 64, 128, 256}
	tableIISizes  = []int{1 << 10, 1 << 20}
)

// The reports' defaults, which the claims (claims.go) run with too.
const (
	congestionRounds = 100_000
	patternsRounds   = 10_000
	transposeLgMax   = 12
)

// cell is one Table II measurement.
type cell struct {
	n, w, s int
	shift   bool
}

// tableIICells are every cell of Table II with each of shifts.
func tableIICells(shifts ...bool) []cell {
	var cells []cell
	for _, n := range tableIISizes {
		for _, w := range tableIIWidths {
			for s := 1; s <= 10; s++ {
				for _, shift := range shifts {
					cells = append(cells, cell{n, w, s, shift})
				}
			}
		}
	}
	return cells
}

// measure runs the cell for rounds rounds on its own seed.
func (c cell) measure(rounds int) float64 {
	seed := uint64(c.n)<<20 | uint64(c.w)<<8 | uint64(c.s)<<1
	if c.shift {
		seed |= 1
	}
	return CongestionRatio(c.w, c.s, c.n, rounds, c.shift, rand.New(rand.NewPCG(seed, 13)))
}

// congestions are Table II's cells as measured, E[Y]/s, over rounds
// rounds each.
type congestions struct {
	rounds int
	got    map[cell]float64
}

type cellRun struct {
	cell
	rounds int
}

var cellRuns sweep.Memo[cellRun, float64]

// measureCongestions runs cells for rounds rounds each, on all CPUs.
func measureCongestions(cells []cell, rounds int, progress io.Writer) (congestions, error) {
	ratios, err := sweep.Map(progress, "rsdmm-congestion", cells, func(c cell) (float64, error) {
		return cellRuns.Get(cellRun{c, rounds}, func() (float64, error) { return c.measure(rounds), nil })
	})
	if err != nil {
		return congestions{}, err
	}
	g := congestions{rounds: rounds, got: map[cell]float64{}}
	for i, c := range cells {
		g.got[c] = ratios[i]
	}
	return g, nil
}

// paper is the cell's Table II value.
func (c cell) paper() float64 { return TableII[c.n][c.s-1][slices.Index(tableIIWidths, c.w)] }

// congestionReport runs every cell of Table II for rounds rounds, without
// and with the random shift, on all CPUs, and sets the cells with the
// shift beside Table II and section VI under verdict's rule.
func congestionReport(rounds int, progress io.Writer) ([]*table.Table, error) {
	g, err := measureCongestions(tableIICells(false, true), rounds, progress)
	if err != nil {
		return nil, err
	}
	var ts []*table.Table
	worst := 0.0
	for _, n := range tableIISizes {
		t := &table.Table{
			Title:  fmt.Sprintf("Table II, n = %d: the congestion ratio E[Y]/s over %d rounds, ours (no shift / random shift) beside the paper's", n, rounds),
			Header: []string{"s"},
			Notes: []string{
				"Every thread reads a uniformly random address; equal addresses merge across the super warp. The shift is a bijection, so uniform addresses stay uniform: the two columns measure the SDMM and the RSDMM alike (issue 13, reading 1).",
				"The verdicts, of the random shift's cells column by column, are in the last table.",
			},
		}
		for _, w := range tableIIWidths {
			t.Header = append(t.Header, fmt.Sprintf("w=%d paper", w), fmt.Sprintf("w=%d ours", w))
		}
		for s := 1; s <= 10; s++ {
			row := []string{fmt.Sprint(s)}
			for _, w := range tableIIWidths {
				paper := cell{n, w, s, false}.paper()
				none, shifted := g.got[cell{n, w, s, false}], g.got[cell{n, w, s, true}]
				worst = max(worst, abs(none/paper-1), abs(shifted/paper-1))
				row = append(row, fmt.Sprintf("%.3f", paper), fmt.Sprintf("%.3f / %.3f", none, shifted))
			}
			t.Add(row...)
		}
		ts = append(ts, t)
	}
	f := &table.Table{
		Title:  "Table II's f_w(s)/(es) = 2(log s + 1) log w / (s (log log w + 1)), Theorem 6's bound, ours from the formula",
		Header: []string{"s", "w=16", "w=32", "w=64", "w=128", "w=256"},
		Notes:  []string{fmt.Sprintf("The largest difference of any measured cell, with or without the shift, from the paper's: %.2f%%.", 100*worst)},
	}
	for s := 1; s <= 10; s++ {
		row := []string{fmt.Sprint(s)}
		for _, w := range tableIIWidths {
			row = append(row, fmt.Sprintf("%.3f", FOverES(float64(w), float64(s))))
		}
		f.Add(row...)
	}
	return append(ts, f, verdict.Table("Table II and section VI beside ours, under one rule", g.claims())), nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

var rsdmmReports = []*units.Report{
	{
		Name: "rsdmm-congestion", Doc: "section VI's experiment: Table II's congestion ratio, without and with the random shift, beside the paper",
		Time: 40 * time.Second,
		Params: units.Params{
			units.IntParam("rounds", "rounds (super warps) per cell (the paper: 1,000,000)", congestionRounds, 1000, 10_000_000),
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return congestionReport(v["rounds"], progress)
		},
	},
	{
		Name: "rsdmm-patterns", Doc: "access patterns on the DMM, SDMM and RSDMM (table and H3 shifts): congestion per warp beside II-IV's figures and Table II",
		Time: 10 * time.Second,
		Params: units.Params{
			units.IntParam("rounds", "rounds of p = 1,024 threads per pattern and machine", patternsRounds, 10, 1_000_000),
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return patternsReport(v["rounds"], progress)
		},
	},
	{
		Name: "rsdmm-transpose", Doc: "Table I: the Naive and Diagonal Transposes on the DMM, SDMM and RSDMM, Lemma 1 and the cycle model beside the paper's times",
		Time: 15 * time.Second,
		Params: units.Params{
			units.IntParam("lgmax", "log2 of the largest sqrt(n) (from 16)", transposeLgMax, 4, 12),
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return transposeReport(v["lgmax"], progress)
		},
	},
	{
		Name: "rsdmm-cost", Doc: "Figure 1's RSU (table or H3 keys) beside the memory it shifts, and the RPU's sort against all pairs over N, through Yosys",
		Yosys: true, Time: 12 * time.Minute,
		Configs: func(units.Values) []units.Config { return costConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}
