package dram

import (
	"io"
	"slices"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// dramReports are the family's design-review reports.
var dramReports = []*units.Report{
	{
		Name: "dram", Doc: "the cycle model's chapter 6 beside the thesis: four policies, perfect DRAM, Figs. 6.10-6.11's sweeps",
		Time: 7 * time.Minute,
		Params: units.Params{
			{Name: "workload", Doc: "the benchmark skeleton (Table 5.2's abbreviations) or all",
				Kind: units.Choice, Choices: append(slices.Clone(Workloads), "all"), Default: units.Const(len(Workloads))},
			units.IntParam("cycles", "core cycles per run", DefaultCycles, 10_000, 10_000_000),
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			ws := Workloads
			if w := v["workload"]; w < len(Workloads) {
				ws = Workloads[w : w+1]
			}
			return evaluationReport(ws, v["cycles"], progress)
		},
	},
	{
		Name: "dram-cost", Doc: "the canonical units through Yosys, their storage and adders beside section 4.5",
		Yosys: true, Time: 25 * time.Minute,
		Configs: func(units.Values) []units.Config { return costConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}
