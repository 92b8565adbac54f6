package rsdmm

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/table"
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

// tableIIWidths are Table II's columns.
var tableIIWidths = []int{16, 32, 64, 128, 256}

// cell is one Table II measurement.
type cell struct {
	n, w, s int
	shift   bool
}

// congestionReport runs every cell of Table II for rounds rounds, without
// and with the random shift, on all CPUs.
func congestionReport(rounds int, progress io.Writer) ([]*table.Table, error) {
	var cells []cell
	for _, n := range []int{1 << 10, 1 << 20} {
		for _, w := range tableIIWidths {
			for s := 1; s <= 10; s++ {
				cells = append(cells, cell{n, w, s, false}, cell{n, w, s, true})
			}
		}
	}
	ratios, err := sweep.Map(progress, "rsdmm-congestion", cells, func(c cell) (float64, error) {
		seed := uint64(c.n)<<20 | uint64(c.w)<<8 | uint64(c.s)<<1
		if c.shift {
			seed |= 1
		}
		return CongestionRatio(c.w, c.s, c.n, rounds, c.shift, rand.New(rand.NewPCG(seed, 13))), nil
	})
	if err != nil {
		return nil, err
	}
	got := map[cell]float64{}
	for i, c := range cells {
		got[c] = ratios[i]
	}
	var ts []*table.Table
	worst := 0.0
	for _, n := range []int{1 << 10, 1 << 20} {
		t := &table.Table{
			Title:  fmt.Sprintf("Table II, n = %d: the congestion ratio E[Y]/s over %d rounds, ours (no shift / random shift) beside the paper's", n, rounds),
			Header: []string{"s"},
			Notes: []string{
				"Every thread reads a uniformly random address; equal addresses merge across the super warp. The shift is a bijection, so uniform addresses stay uniform: the two columns measure the SDMM and the RSDMM alike (issue 13, reading 1).",
				"A cell is marked * when ours is more than 3% from the paper's.",
			},
		}
		for _, w := range tableIIWidths {
			t.Header = append(t.Header, fmt.Sprintf("w=%d paper", w), fmt.Sprintf("w=%d ours", w))
		}
		for s := 1; s <= 10; s++ {
			row := []string{fmt.Sprint(s)}
			for wi, w := range tableIIWidths {
				paper := TableII[n][s-1][wi]
				mark := func(x float64) string {
					d := abs(x-paper) / paper
					worst = max(worst, d)
					if d > 0.03 {
						return fmt.Sprintf("%.3f*", x)
					}
					return fmt.Sprintf("%.3f", x)
				}
				row = append(row, fmt.Sprintf("%.3f", paper), mark(got[cell{n, w, s, false}])+" / "+mark(got[cell{n, w, s, true}]))
			}
			t.Add(row...)
		}
		ts = append(ts, t)
	}
	f := &table.Table{
		Title:  "Table II's f_w(s)/(es) = 2(log s + 1) log w / (s (log log w + 1)), Theorem 6's bound",
		Header: []string{"s", "w=16", "w=32", "w=64", "w=128", "w=256"},
		Notes:  []string{fmt.Sprintf("The largest difference of any measured cell from the paper's: %.2f%%.", 100*worst)},
	}
	for s := 1; s <= 10; s++ {
		row := []string{fmt.Sprint(s)}
		for _, w := range tableIIWidths {
			row = append(row, fmt.Sprintf("%.3f", FOverES(float64(w), float64(s))))
		}
		f.Add(row...)
	}
	return append(ts, f), nil
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
		Time: 3 * time.Minute,
		Params: units.Params{
			units.IntParam("rounds", "rounds (super warps) per cell (the paper: 1,000,000)", 100_000, 1000, 10_000_000),
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return congestionReport(v["rounds"], progress)
		},
	},
	{
		Name: "rsdmm-patterns", Doc: "access patterns on the DMM, SDMM and RSDMM (table and H3 shifts): congestion per warp beside II-IV's figures and Table II",
		Time: 20 * time.Second,
		Params: units.Params{
			units.IntParam("rounds", "rounds of p = 1,024 threads per pattern and machine", 10_000, 10, 1_000_000),
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return patternsReport(v["rounds"], progress)
		},
	},
	{
		Name: "rsdmm-transpose", Doc: "Table I: the Naive and Diagonal Transposes on the DMM, SDMM and RSDMM, Lemma 1 and the cycle model beside the paper's times",
		Time: 30 * time.Second,
		Params: units.Params{
			units.IntParam("lgmax", "log2 of the largest sqrt(n) (from 16)", 12, 4, 12),
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return transposeReport(v["lgmax"], progress)
		},
	},
	{
		Name: "rsdmm-cost", Doc: "Figure 1's RSU (table or H3 keys) beside the memory it shifts, and the RPU's sort against all pairs over N, through Yosys",
		Yosys: true, Time: 7 * time.Minute,
		Configs: func(units.Values) []units.Config { return costConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}
