package dram

import (
	"io"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// dramReports are the family's design-review reports.
var dramReports = []*units.Report{
	{
		Name: "dram-cost", Doc: "the canonical units through Yosys, their storage and adders beside section 4.5",
		Yosys: true, Time: 5 * time.Minute,
		Configs: func(units.Values) []units.Config { return costConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}
