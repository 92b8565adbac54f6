package lib

import (
	"fmt"
	"io"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
)

// The lib report: every component at its defaults through scripts/ice40.ys
// and placed and routed on the iCE40 HX8K, the building blocks' own
// area and delay beside the families' units that use them.

var libReports = []*units.Report{{
	Name: "lib", Doc: "every component at its defaults on iCE40: LUTs, carries, flip-flops, LUT levels and the critical path in ns after place and route",
	Yosys: true, Time: 30 * time.Second,
	Configs: func(units.Values) []units.Config { return reportConfigs() },
	Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return libReport(progress) },
}}

// reportConfigs are the lib units at their defaults, in libUnits' order.
func reportConfigs() []units.Config {
	var cs []units.Config
	for _, u := range libUnits() {
		cs = append(cs, units.Config{Unit: u.Name, Values: units.Values{}})
	}
	return cs
}

func libReport(progress io.Writer) ([]*table.Table, error) {
	cs := reportConfigs()
	ices, err := reports.MeasureAll("lib ice40", cs, progress, reports.ICE40)
	if err != nil {
		return nil, err
	}
	pnr, err := reports.MeasureAll("lib place and route", cs, progress, reports.PlaceRoute)
	if err != nil {
		return nil, err
	}
	t := &table.Table{
		Title:  "hdl/lib's components at their defaults on iCE40 (scripts/ice40.ys), placed and routed on the HX8K, ours",
		Header: []string{"configuration", "SB_LUT4", "SB_CARRY", "SB_DFF", "LUT levels", reports.NSHeader, reports.PathHeader},
		Notes:  []string{reports.NSNote},
	}
	for i, c := range cs {
		_, v, err := c.Resolve()
		if err != nil {
			return nil, err
		}
		t.Add(units.Config{Unit: c.Unit, Values: v}.String(), fmt.Sprint(ices[i].LUT4), fmt.Sprint(ices[i].Carry), fmt.Sprint(ices[i].Flops),
			fmt.Sprint(ices[i].LUTLevels), reports.NS(pnr[i]), reports.Path(pnr[i]))
	}
	return []*table.Table{t}, nil
}
