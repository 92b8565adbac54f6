package vmshr

import (
	"io"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The registry entry of the vmshr family: each unit's parameters,
// defaults and ranges (the contracts in DESIGN.md), the reports, the
// canonical RTL and the lockstep configurations.

var (
	paramM    = units.IntParam("m", "PMSHR entries (fully associative)", MSHRs, 1, 128)
	paramS    = units.IntParam("s", "SMSHRs per PMSHR", SMSHRs, 1, 4)
	paramHmax = units.IntParam("hmax", "log2 of the largest hyper block ratio (3: 256 B)", HyperMax, 0, 4)
	paramAw   = units.Param{Name: "aw", Doc: "normal-block address bits (byte address / 32)", Default: units.Const(27),
		Range: func(v units.Values) (int, int) { return v["hmax"] + 1, 58 }}
	paramAwBase = units.IntParam("aw", "normal-block address bits (byte address / 32)", 27, 1, 58)
	paramDw     = units.IntParam("dw", "bits of a normal block's data", 8*NormalBlock, 1, 1024)
	paramTw     = units.IntParam("tw", "hardware thread id bits (Tid)", 7, 1, 16)
	paramRw     = units.IntParam("rw", "destination register bits (R)", 6, 1, 16)
	paramOw     = units.IntParam("ow", "offset-in-block bits (O)", 5, 1, 16)
	paramFw     = units.IntParam("fw", "format bits (F)", 3, 1, 16)
	paramBase   = units.Param{Name: "base", Doc: "the baseline's search: no cover match (cov_<i> = 0)", Kind: units.Bool}
)

var vmshrReports = []*units.Report{
	{
		Name: "vmshr", Doc: "the cycle model's evaluation beside thesis Figs. 6.7-6.10: baseline against adaptive granularity",
		Time: 10 * time.Second, // measured 7 s on 2 cores: both interconnects, 2 and 1 VCs
		Params: units.Params{
			{Name: "vcs", Doc: "interconnect virtual channels (Table 6.2: 2; 6.5.6: 1)", Default: units.Const(2), Range: units.Fixed(1, 2)},
			{Name: "icnt", Doc: "interconnect topology (Table 6.2: a 2-ary 5-fly butterfly; crossbar: one crossbar stage)", Kind: units.Choice, Choices: IcntNames},
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return evaluationReport(Icnt(v["icnt"]), v["vcs"], progress)
		},
	},
	{
		Name: "granularity", Doc: "Alg. 6.1 on the worked example of 6.3.3, across blockDim.x, and on the model's kernels beside Table 6.4",
		Time: time.Second,
		Run:  func(units.Values, io.Writer) ([]*table.Table, error) { return granularityReport(), nil },
	},
	{
		Name: "vmshr-cost", Doc: "the elastic tag search's added gates and depths beside Table 6.1, the MSHR files' storage, and what the elastic file adds block by block (tag search, fill path)",
		Yosys: true, Time: time.Minute,
		Configs: func(units.Values) []units.Config { return costConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}

func mshrBlock(v units.Values, base bool) MSHRBlock {
	return MSHRBlock{M: v["m"], S: v["s"], Hmax: v["hmax"], Aw: v["aw"], Dw: v["dw"],
		Tw: v["tw"], Rw: v["rw"], Ow: v["ow"], Fw: v["fw"], Base: base}
}

func vmshrUnits() []*units.Unit {
	return []*units.Unit{
		{
			Name: "vmshr-match", Doc: "PMSHR tag search: hits, hyper-block cover and the primary NOR (thesis chapter 6, Fig. 6.5, Table 6.1)",
			Params: units.Params{paramM, paramHmax, paramAw, paramBase},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return MatchBlock{M: v["m"], Hmax: v["hmax"], Aw: v["aw"], Base: v["base"] == 1}.Build(name), nil
			},
		},
		{
			Name: "vmshr-elastic", Doc: "elastic vector MSHR file with deferred reservation (thesis chapter 6, Fig. 6.5(b))",
			Params: units.Params{paramM, paramS, paramHmax, paramAw, paramDw, paramTw, paramRw, paramOw, paramFw},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return mshrBlock(v, false).Build(name), nil
			},
		},
		{
			Name: "vmshr-base", Doc: "baseline vector MSHR file of normal blocks (thesis chapter 6, Fig. 6.5(a))",
			Params: units.Params{paramM, paramS, paramAwBase, paramDw, paramTw, paramRw, paramOw, paramFw},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return mshrBlock(v, true).Build(name), nil
			},
		},
	}
}

// small are the narrow request and data fields of the small MSHR files.
func small(v units.Values) units.Values {
	for k, x := range map[string]int{"tw": 3, "rw": 2, "ow": 2, "fw": 1} {
		if _, ok := v[k]; !ok {
			v[k] = x
		}
	}
	return v
}

// lockstepConfigs runs every unit at its defaults and at small sizes
// whose few address bits make random blocks hit, cover and fill one
// another; vmshr-elastic also at hmax 0 and 4.
func lockstepConfigs() []units.Config {
	return []units.Config{
		{Unit: "vmshr-match", Values: units.Values{}},
		{Unit: "vmshr-match", Values: units.Values{"m": 5, "hmax": 2, "aw": 6}},
		{Unit: "vmshr-match", Values: units.Values{"m": 3, "hmax": 0, "aw": 4, "base": 1}},
		{Unit: "vmshr-match", Values: units.Values{"m": 1, "hmax": 4, "aw": 5}},
		{Unit: "vmshr-elastic", Values: units.Values{}},
		{Unit: "vmshr-elastic", Values: small(units.Values{"m": 4, "s": 2, "hmax": 2, "aw": 6, "dw": 8})},
		{Unit: "vmshr-elastic", Values: small(units.Values{"m": 3, "s": 1, "hmax": 1, "aw": 5, "dw": 5})},
		{Unit: "vmshr-elastic", Values: small(units.Values{"m": 8, "s": 3, "hmax": 0, "aw": 4, "dw": 6})},
		{Unit: "vmshr-elastic", Values: small(units.Values{"m": 4, "s": 4, "hmax": 4, "aw": 7, "dw": 4})},
		{Unit: "vmshr-base", Values: units.Values{}},
		{Unit: "vmshr-base", Values: small(units.Values{"m": 4, "s": 3, "aw": 5, "dw": 8})},
		{Unit: "vmshr-base", Values: small(units.Values{"m": 2, "s": 1, "aw": 3, "dw": 3})},
	}
}

func init() {
	units.RegisterFamily(&units.Family{
		Name:      "vmshr",
		Doc:       "elastic vector MSHR with deferred reservation (Gou's thesis, chapter 6)",
		Units:     vmshrUnits(),
		Reports:   vmshrReports,
		Claims:    vmshrClaims,
		Canonical: units.AtDefaults("vmshr", vmshrUnits()),
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 5000},
		Speed:     []units.Config{{Unit: "vmshr-elastic", Values: units.Values{}}, {Unit: "vmshr-base", Values: units.Values{}}},
		Examples: []string{
			"-unit vmshr-elastic -m 64 -hmax 3 > vmshr.v",
			"-unit vmshr-match -m 16 -base",
			"-report vmshr -vcs 1",
		},
	})
}
