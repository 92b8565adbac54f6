package elastic

import (
	"bytes"
	"io"
	"math/bits"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The registry entry of the elastic family: each block's parameters, its
// Params method (names, docs, defaults and ranges: the contracts in
// DESIGN.md), and the units; the reports and the pipeline picture with
// theirs; the canonical RTL and the lockstep configurations.

func log2(x int) int { return bits.Len(uint(x - 1)) }

// lanesParam declares lanes, the SIMD width.
func lanesParam(x *int, d *units.Decl) { d.Int(x, "lanes", "SIMD lanes (simd_width)", 8, 1, 32) }

// warpParam declares warp, the threads of a warp.
func warpParam(x *int, d *units.Decl) { d.Pow2(x, "warp", "threads per warp (warp_size)", 32, 2, 64) }

// historyCacheParams declares the history cache's sets, ways and PC bits
// (Table 5.3).
func historyCacheParams(sets, ways, pcw *int, d *units.Decl) {
	d.Pow2(sets, "sets", "history cache sets", 256, 1, 1024)
	d.Int(ways, "ways", "history cache ways", 2, 1, 4)
	d.Int(pcw, "pcw", "PC bits (Table 5.3 assumes 14)", 14, log2(*sets)+1, 32)
}

func (b *BankConflict) Params(d *units.Decl) {
	lanesParam(&b.Lanes, d)
	d.Pow2(&b.Banks, "banks", "shared-memory banks", 8, 1, 64)
	d.Int(&b.Aw, "aw", "word address bits", 12, max(1, log2(b.Banks)), 32)
	d.Int(&b.Ports, "ports", "ports per bank (Eq. 5.3's #shared_memory_ports)", 1, 1, 4)
	d.Bool(&b.Broadcast, "broadcast", "lanes reading one word are served together")
}

func (c *HistoryCacheBlock) Params(d *units.Decl) {
	historyCacheParams(&c.Sets, &c.Ways, &c.Pcw, d)
	warpParam(&c.Warp, d)
}

func (w *WarpMaskBlock) Params(d *units.Decl) {
	d.Int(&w.Warps, "warps", "warp contexts per core", 32, 1, 64)
	warpParam(&w.Warp, d)
	d.Pow2(&w.Lanes, "lanes", "SIMD lanes (simd_width)", 8, 1, w.Warp)
	historyCacheParams(&w.Sets, &w.Ways, &w.Pcw, d)
}

// Params declares the back end's parameters; the baseline (Base) has no
// PREMEM and NONMEM queues.
func (p *Pipe) Params(d *units.Decl) {
	lanesParam(&p.Lanes, d)
	d.Int(&p.W, "w", "bits per lane's word", 32, 1, 64)
	d.Int(&p.MStages, "mstages", "memory stages M (Eq. 5.4)", 4, 1, 8)
	if !p.Base {
		d.Int(&p.Premem, "premem", "PREMEM queue entries N (Eq. 5.5: warp/lanes - 1)", 3, 0, 7)
		d.Int(&p.Nonmem, "nonmem", "NONMEM queue entries (M, at least N+1 so a warp's subwarps fit)",
			DefaultNonmem(p.MStages, p.Premem), 1, 16)
	}
	d.Int(&p.Tw, "tw", "instruction tag bits", 5, 1, 8)
}

// evaluationParams are the elastic report's parameters: the figures'
// global loads.
type evaluationParams struct {
	Latency, Spread int
	Memory          Memory
}

func (e *evaluationParams) Params(d *units.Decl) {
	d.Int(&e.Latency, "latency", "global loads' shortest round trip in cycles", DefaultLatency, 1, 10000)
	d.Int(&e.Spread, "spread", "global loads take latency to latency+spread cycles", DefaultSpread, 0, 10000)
	d.Choice(&e.Memory, "memory", "the figures' global loads: fixed (latency, spread) or gddr (16 cores sharing 4 GDDR3 channels, Table 5.4); the shared-DRAM table runs both",
		MemoryNames, int(FixedLatency))
}

var elasticReports = []*units.Report{
	{
		Name: "elastic", Doc: "the cycle model's evaluation beside thesis Tables 5.1 and 5.5 and Figs. 5.3 and 5.8-5.12",
		Time:   45 * time.Second,
		Params: units.ParamsOf((*evaluationParams).Params),
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			e := units.Fill(v, (*evaluationParams).Params)
			return evaluationReport(e.Latency, e.Spread, e.Memory, progress)
		},
	},
	{
		Name: "elastic-cost", Doc: "history cache storage, warp-mask logic and elastic back-end flip-flops beside thesis Tables 5.2 and 5.3 and section 5.5.4; the back ends' and elastic-bkconf's ns on iCE40",
		Yosys: true, Time: 3 * time.Minute,
		Configs: func(units.Values) []units.Config { return append(costConfigs(), bkconfConfigs()...) },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}

// pipelineRows is how many cycles a pipeline picture shows: from
// t_{i-1} to the cycle after W_{i+1}'s writeback in the split baseline
// (t_{i+7} in Fig. 5.4 at M = D = 2).
func pipelineRows(mstages, degree int) int { return 5 + mstages + degree }

// pipelineView is the pipeline picture's parameters.
type pipelineView struct {
	Pipeline        BackEndKind
	MStages, Degree int
}

func (p *pipelineView) Params(d *units.Decl) {
	d.Choice(&p.Pipeline, "pipeline", "the back end", BackEndNames, int(Elastic))
	d.Int(&p.MStages, "mstages", "memory stages M", 2, 1, 8)
	d.Int(&p.Degree, "degree", "W_i's bank conflict degree", 2, 1, 8)
}

var pipelinePicture = &units.Picture{
	Kind: "pipeline", Unit: "elastic-pipe", Default: true,
	Doc:     "the stage-by-cycle diagram of thesis Figs. 5.4(a) (unified), 5.4(b) (split) and 5.5 (elastic) from the cycle model",
	Params:  units.ParamsOf((*pipelineView).Params),
	Formats: table.Formats,
	Draw: func(v units.Values, format string) ([]byte, error) {
		p := units.Fill(v, (*pipelineView).Params)
		b, m, d := p.Pipeline, p.MStages, p.Degree
		var out bytes.Buffer
		err := pipelineTable(DrawPipeline(b, m, d, pipelineRows(m, d)), b, m, d).Write(&out, format)
		return out.Bytes(), err
	},
}

func elasticUnits() []*units.Unit {
	return []*units.Unit{
		units.NewUnit("elastic-bkconf", "bank conflict degree of a SIMD shared-memory access and its MEM0 cycles (5.3.1, Eq. 5.3)",
			(*BankConflict).Params, BankConflict.Build),
		units.NewUnit("elastic-bchc", "bank conflict history cache: last warp conflict degree per PC, true LRU (5.5.2, Table 5.3)",
			(*HistoryCacheBlock).Params, HistoryCacheBlock.Build),
		units.NewUnit("elastic-warpmask", "bank-conflict aware warp ready mask with its history cache (Fig. 5.7)",
			(*WarpMaskBlock).Params, WarpMaskBlock.Build),
		units.NewUnit("elastic-pipe", "elastic back end: PREMEM and NONMEM queues beside the MEM stages (Figs. 5.5, 5.6)",
			(*Pipe).Params, Pipe.Build),
		units.NewUnit("elastic-basepipe", "baseline back end: unified memory stages (Fig. 5.4(a))",
			func(p *Pipe, d *units.Decl) { p.Base = true; p.Params(d) }, Pipe.Build),
	}
}

// lockstepConfigs runs every unit at its defaults and at least two other
// configurations: the history cache at one and four sets (so replacement
// is hit), the pipes at one memory stage, without PREMEM and at the
// smallest NONMEM.
func lockstepConfigs() []units.Config {
	return []units.Config{
		{Unit: "elastic-bkconf", Values: units.Values{}},
		{Unit: "elastic-bkconf", Values: units.Values{"lanes": 5, "banks": 4, "aw": 3, "ports": 2, "broadcast": 1}},
		{Unit: "elastic-bkconf", Values: units.Values{"lanes": 32, "banks": 16, "aw": 6, "ports": 3}},
		{Unit: "elastic-bkconf", Values: units.Values{"lanes": 1, "banks": 1, "aw": 1}},
		{Unit: "elastic-bchc", Values: units.Values{}},
		{Unit: "elastic-bchc", Values: units.Values{"sets": 16, "pcw": 6}},
		{Unit: "elastic-bchc", Values: units.Values{"sets": 1, "ways": 3, "pcw": 3, "warp": 8}},
		{Unit: "elastic-bchc", Values: units.Values{"sets": 4, "ways": 4, "pcw": 5}},
		{Unit: "elastic-bchc", Values: units.Values{"sets": 2, "ways": 1, "pcw": 3, "warp": 4}},
		{Unit: "elastic-warpmask", Values: units.Values{}},
		{Unit: "elastic-warpmask", Values: units.Values{"warps": 8, "sets": 4, "pcw": 4}},
		{Unit: "elastic-warpmask", Values: units.Values{"warps": 3, "warp": 8, "lanes": 2, "sets": 1, "ways": 2, "pcw": 2}},
		{Unit: "elastic-warpmask", Values: units.Values{"warps": 5, "warp": 16, "lanes": 16, "sets": 2, "ways": 1, "pcw": 3}},
		{Unit: "elastic-pipe", Values: units.Values{}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 8, "mstages": 1, "premem": 0, "nonmem": 1, "tw": 3}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 3, "w": 4, "mstages": 2, "premem": 3, "nonmem": 2, "tw": 4}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 4, "w": 64, "mstages": 3, "premem": 1, "nonmem": 5}},
		{Unit: "elastic-basepipe", Values: units.Values{}},
		{Unit: "elastic-basepipe", Values: units.Values{"lanes": 2, "w": 8, "mstages": 1, "tw": 3}},
		{Unit: "elastic-basepipe", Values: units.Values{"lanes": 5, "w": 3, "mstages": 3}},
	}
}

func init() {
	units.RegisterFamily(&units.Family{
		Name:      "elastic",
		Doc:       "elastic pipeline with bank-conflict aware warp scheduling (Gou's thesis, chapter 5)",
		Units:     elasticUnits(),
		Reports:   elasticReports,
		Claims:    elasticClaims,
		Pictures:  []*units.Picture{pipelinePicture},
		Canonical: units.AtDefaults("elastic", elasticUnits()),
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 5000},
		Speed:     []units.Config{{Unit: "elastic-pipe", Values: units.Values{}}, {Unit: "elastic-warpmask", Values: units.Values{}}},
		Examples: []string{
			"-unit elastic-pipe -mstages 4 -premem 3 > pipe.v",
			"-pipeline split",
		},
	})
}
