package vmshr

import (
	"io"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The registry entry of the vmshr family: each block's parameters, its
// Params method (names, docs, defaults and ranges: the contracts in
// DESIGN.md), and the units; the reports, the canonical RTL and the
// lockstep configurations.

func mParam(x *int, d *units.Decl) { d.Int(x, "m", "PMSHR entries (fully associative)", MSHRs, 1, 128) }

func hmaxParam(x *int, d *units.Decl) {
	d.Int(x, "hmax", "log2 of the largest hyper block ratio (3: 256 B)", HyperMax, 0, 4)
}

// awParam declares aw, which holds a hyper block's address above its hmax
// bits.
func awParam(x *int, d *units.Decl, hmax int) {
	d.Int(x, "aw", "normal-block address bits (byte address / 32)", 27, hmax+1, 58)
}

func (b *MatchBlock) Params(d *units.Decl) {
	mParam(&b.M, d)
	hmaxParam(&b.Hmax, d)
	awParam(&b.Aw, d, b.Hmax)
	d.Bool(&b.Base, "base", "the baseline's search: no cover match (cov_<i> = 0)")
}

// Params declares the MSHR file's parameters; the baseline's (Base) has
// no hyper blocks, so no hmax.
func (b *MSHRBlock) Params(d *units.Decl) {
	mParam(&b.M, d)
	d.Int(&b.S, "s", "SMSHRs per PMSHR", SMSHRs, 1, 4)
	if !b.Base {
		hmaxParam(&b.Hmax, d)
	}
	awParam(&b.Aw, d, b.Hmax)
	d.Int(&b.Dw, "dw", "bits of a normal block's data", 8*NormalBlock, 1, 1024)
	d.Int(&b.Tw, "tw", "hardware thread id bits (Tid)", 7, 1, 16)
	d.Int(&b.Rw, "rw", "destination register bits (R)", 6, 1, 16)
	d.Int(&b.Ow, "ow", "offset-in-block bits (O)", 5, 1, 16)
	d.Int(&b.Fw, "fw", "format bits (F)", 3, 1, 16)
}

// evaluationParams are the vmshr report's parameters: the interconnect.
type evaluationParams struct {
	VCs  int
	Icnt Icnt
}

func (e *evaluationParams) Params(d *units.Decl) {
	d.Int(&e.VCs, "vcs", "interconnect virtual channels (Table 6.2: 2; 6.5.6: 1)", 2, 1, 2)
	d.Choice(&e.Icnt, "icnt", "interconnect topology (Table 6.2: a 2-ary 5-fly butterfly; crossbar: one crossbar stage)",
		IcntNames, int(Butterfly))
}

var vmshrReports = []*units.Report{
	{
		Name: "vmshr", Doc: "the cycle model's evaluation beside thesis Figs. 6.7-6.10: baseline against adaptive granularity",
		Time:   10 * time.Second, // measured 7 s on 2 cores: both interconnects, 2 and 1 VCs
		Params: units.ParamsOf((*evaluationParams).Params),
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			e := units.Fill(v, (*evaluationParams).Params)
			return evaluationReport(e.Icnt, e.VCs, progress)
		},
	},
	{
		Name: "granularity", Doc: "Alg. 6.1 on the worked example of 6.3.3, across blockDim.x, and on the model's kernels beside Table 6.4",
		Time: time.Second,
		Run:  func(units.Values, io.Writer) ([]*table.Table, error) { return granularityReport(), nil },
	},
	{
		Name: "vmshr-cost", Doc: "the elastic tag search's added gates and depths beside Table 6.1, the MSHR files' storage, and what the elastic file adds block by block (tag search, fill path), ns on iCE40",
		Yosys: true, Time: 5 * time.Minute,
		Configs: func(units.Values) []units.Config { return costConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}

func vmshrUnits() []*units.Unit {
	return []*units.Unit{
		units.NewUnit("vmshr-match", "PMSHR tag search: hits, hyper-block cover and the primary NOR (thesis chapter 6, Fig. 6.5, Table 6.1)",
			(*MatchBlock).Params, MatchBlock.Build),
		units.NewUnit("vmshr-elastic", "elastic vector MSHR file with deferred reservation (thesis chapter 6, Fig. 6.5(b))",
			(*MSHRBlock).Params, MSHRBlock.Build),
		units.NewUnit("vmshr-base", "baseline vector MSHR file of normal blocks (thesis chapter 6, Fig. 6.5(a))",
			func(b *MSHRBlock, d *units.Decl) { b.Base = true; b.Params(d) }, MSHRBlock.Build),
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
