package elastic

import (
	"bytes"
	"io"
	"math/bits"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The registry entry of the elastic family: each unit's parameters,
// defaults and ranges (the contracts in DESIGN.md), declared once for gen
// -list, flag checking and the builders; the reports and the pipeline
// picture; the canonical RTL and the lockstep configurations.

func pow2(name, doc string, def, lo, hi int) units.Param {
	p := units.IntParam(name, doc, def, lo, hi)
	p.Kind = units.Pow2
	return p
}

func log2(x int) int { return bits.Len(uint(x - 1)) }

var (
	paramLanes  = units.IntParam("lanes", "SIMD lanes (simd_width)", 8, 1, 32)
	paramBanks  = pow2("banks", "shared-memory banks", 8, 1, 64)
	paramAw     = units.Param{Name: "aw", Doc: "word address bits", Default: units.Const(12), Range: func(v units.Values) (int, int) { return max(1, log2(v["banks"])), 32 }}
	paramPorts  = units.IntParam("ports", "ports per bank (Eq. 5.3's #shared_memory_ports)", 1, 1, 4)
	paramBcast  = units.Param{Name: "broadcast", Doc: "lanes reading one word are served together", Kind: units.Bool}
	paramSets   = pow2("sets", "history cache sets", 256, 1, 1024)
	paramWays   = units.IntParam("ways", "history cache ways", 2, 1, 4)
	paramPcw    = units.Param{Name: "pcw", Doc: "PC bits (Table 5.3 assumes 14)", Default: units.Const(14), Range: func(v units.Values) (int, int) { return log2(v["sets"]) + 1, 32 }}
	paramWarp   = pow2("warp", "threads per warp (warp_size)", 32, 2, 64)
	paramWarps  = units.IntParam("warps", "warp contexts per core", 32, 1, 64)
	paramLanesW = units.Param{Name: "lanes", Doc: "SIMD lanes (simd_width)", Kind: units.Pow2, Default: units.Const(8), Range: func(v units.Values) (int, int) { return 1, v["warp"] }}
	paramW      = units.IntParam("w", "bits per lane's word", 32, 1, 64)
	paramM      = units.IntParam("mstages", "memory stages M (Eq. 5.4)", 4, 1, 8)
	paramPremem = units.IntParam("premem", "PREMEM queue entries N (Eq. 5.5: warp/lanes - 1)", 3, 0, 7)
	paramNonmem = units.Param{Name: "nonmem", Doc: "NONMEM queue entries (M, at least N+1 so a warp's subwarps fit)",
		Default: func(v units.Values) int { return DefaultNonmem(v["mstages"], v["premem"]) }, Range: units.Fixed(1, 16)}
	paramTw = units.IntParam("tw", "instruction tag bits", 5, 1, 8)
)

var elasticReports = []*units.Report{
	{
		Name: "elastic", Doc: "the cycle model's evaluation beside thesis Tables 5.1 and 5.5 and Figs. 5.3 and 5.8-5.12",
		Time: 45 * time.Second,
		Params: units.Params{
			{Name: "latency", Doc: "global loads' shortest round trip in cycles", Default: units.Const(DefaultLatency), Range: units.Fixed(1, 10000)},
			{Name: "spread", Doc: "global loads take latency to latency+spread cycles", Default: units.Const(DefaultSpread), Range: units.Fixed(0, 10000)},
			{Name: "memory", Doc: "the figures' global loads: fixed (latency, spread) or gddr (16 cores sharing 4 GDDR3 channels, Table 5.4); the shared-DRAM table runs both", Kind: units.Choice, Choices: MemoryNames, Default: units.Const(int(FixedLatency))},
		},
		Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
			return evaluationReport(v["latency"], v["spread"], Memory(v["memory"]), progress)
		},
	},
	{
		Name: "elastic-cost", Doc: "history cache storage, warp-mask logic and elastic back-end flip-flops beside thesis Tables 5.2 and 5.3 and section 5.5.4",
		Yosys: true, Time: time.Minute,
		Configs: func(units.Values) []units.Config { return costConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return costReport(progress) },
	},
}

// pipelineRows is how many cycles a pipeline picture shows: from
// t_{i-1} to the cycle after W_{i+1}'s writeback in the split baseline
// (t_{i+7} in Fig. 5.4 at M = D = 2).
func pipelineRows(mstages, degree int) int { return 5 + mstages + degree }

var pipelinePicture = &units.Picture{
	Kind: "pipeline", Unit: "elastic-pipe", Default: true,
	Doc: "the stage-by-cycle diagram of thesis Figs. 5.4(a) (unified), 5.4(b) (split) and 5.5 (elastic) from the cycle model",
	Params: units.Params{
		{Name: "pipeline", Doc: "the back end", Kind: units.Choice, Choices: BackEndNames, Default: units.Const(int(Elastic))},
		{Name: "mstages", Doc: "memory stages M", Default: units.Const(2), Range: units.Fixed(1, 8)},
		{Name: "degree", Doc: "W_i's bank conflict degree", Default: units.Const(2), Range: units.Fixed(1, 8)},
	},
	Formats: table.Formats,
	Draw: func(v units.Values, format string) ([]byte, error) {
		b, m, d := BackEndKind(v["pipeline"]), v["mstages"], v["degree"]
		var out bytes.Buffer
		err := pipelineTable(DrawPipeline(b, m, d, pipelineRows(m, d)), b, m, d).Write(&out, format)
		return out.Bytes(), err
	},
}

func elasticUnits() []*units.Unit {
	return []*units.Unit{
		{
			Name: "elastic-bkconf", Doc: "bank conflict degree of a SIMD shared-memory access and its MEM0 cycles (5.3.1, Eq. 5.3)",
			Params: units.Params{paramLanes, paramBanks, paramAw, paramPorts, paramBcast},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return BankConflict{Lanes: v["lanes"], Banks: v["banks"], Aw: v["aw"], Ports: v["ports"], Broadcast: v["broadcast"] == 1}.Build(name), nil
			},
		},
		{
			Name: "elastic-bchc", Doc: "bank conflict history cache: last warp conflict degree per PC, true LRU (5.5.2, Table 5.3)",
			Params: units.Params{paramSets, paramWays, paramPcw, paramWarp},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return historyCache(v).Build(name), nil
			},
		},
		{
			Name: "elastic-warpmask", Doc: "bank-conflict aware warp ready mask with its history cache (Fig. 5.7)",
			Params: units.Params{paramWarps, paramWarp, paramLanesW, paramSets, paramWays, paramPcw},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return WarpMaskBlock{Warps: v["warps"], Warp: v["warp"], Lanes: v["lanes"], Sets: v["sets"], Ways: v["ways"], Pcw: v["pcw"]}.Build(name), nil
			},
		},
		{
			Name: "elastic-pipe", Doc: "elastic back end: PREMEM and NONMEM queues beside the MEM stages (Figs. 5.5, 5.6)",
			Params: units.Params{paramLanes, paramW, paramM, paramPremem, paramNonmem, paramTw},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return pipe(v, false).Build(name), nil
			},
		},
		{
			Name: "elastic-basepipe", Doc: "baseline back end: unified memory stages (Fig. 5.4(a))",
			Params: units.Params{paramLanes, paramW, paramM, paramTw},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return pipe(v, true).Build(name), nil
			},
		},
	}
}

func historyCache(v units.Values) HistoryCacheBlock {
	return HistoryCacheBlock{Sets: v["sets"], Ways: v["ways"], Pcw: v["pcw"], Warp: v["warp"]}
}

func pipe(v units.Values, base bool) Pipe {
	return Pipe{Lanes: v["lanes"], W: v["w"], MStages: v["mstages"], Premem: v["premem"], Nonmem: v["nonmem"], Tw: v["tw"], Base: base}
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
