package dram

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
)

// The registry entry of the dram family: each unit's parameters, defaults
// and ranges (../contracts/dram.md), the reports, the canonical RTL and
// the lockstep configurations.

var (
	paramEntries  = units.IntParam("entries", "read queue slots (Table 5.1: 64)", 64, 2, 128)
	paramMSHRs    = units.IntParam("entries", "L2 MSHR entries, one MIB entry each (Table 5.1: 64)", 64, 1, 256)
	paramWEntries = units.IntParam("wentries", "write queue slots (Table 5.1: 128)", 128, 2, 256)
	paramHiWM     = units.Param{Name: "hiwm", Doc: "writes that start a drain (Table 5.1: 96; default 3/4 of wentries)",
		Default: func(v units.Values) int { return max(1, v["wentries"]*3/4) },
		Range:   func(v units.Values) (int, int) { return 1, v["wentries"] }}
	paramLoWM = units.Param{Name: "lowm", Doc: "writes that end a drain (Table 5.1: 80; default 5/8 of wentries)",
		Default: func(v units.Values) int { return min(v["wentries"]*5/8, v["hiwm"]-1) },
		Range:   func(v units.Values) (int, int) { return 0, v["hiwm"] - 1 }}
	paramBankBits = units.IntParam("bankbits", "log2 of the banks (Table 5.1: 16 banks)", 4, 1, 6)
	paramRowBits  = units.IntParam("rowbits", "row address bits (Table 5.1: 4096 rows)", 12, 1, 20)
	paramMlBits   = units.IntParam("mlbits", "merge length bits (bits(16) = 5)", 5, 1, 8)
	paramAgeBits  = units.IntParam("agebits", "Age_MSHR bits, saturating (4.5: 15)", 15, 1, 32)
	paramBlkBits  = units.IntParam("blkbits", "block address bits (4.5: 24; 25 for 32-bit addresses over 128 B lines)", 24, 1, 40)
	paramMerges   = units.IntParam("merges", "merges per L2 MSHR entry (Table 5.1: 16)", 16, 1, 255)
	paramL2Merges = units.IntParam("merges", "merges per L2 MSHR entry (Table 5.1: 16)", 16, 2, 256)
	paramBGBits   = units.Param{Name: "bgbits", Doc: "log2 of the bank groups (Table 5.1: 4 groups)", Default: units.Const(2),
		Range: func(v units.Values) (int, int) { return 0, v["bankbits"] }}
	paramFRFCFS   = units.Param{Name: "frfcfs", Doc: "FR-FCFS only, without the score logic (the baseline of dram-cost; pol is ignored)", Kind: units.Bool}
	paramDepth    = units.IntParam("depth", "requests per bank command queue", 4, 2, 16)
	paramTagBits  = units.IntParam("tagbits", "request tag bits", 8, 1, 16)
	paramRowScore = units.Param{Name: "rowscore", Kind: units.Choice, Choices: RowScoreNames, Default: units.Const(int(SummedScores)),
		Doc: "row scores summed over the queue every cycle, kept in a row-score table (4.5), or none (FR-FCFS: the cost baseline)"}
)

// timingParams are Table 5.1's GDDR5 timings in DRAM cycles and the burst.
func timingParams() units.Params {
	t := Table51()
	var ps units.Params
	for _, p := range []struct {
		name, doc string
		v         int
	}{
		{"trcd", "ACT to RD/WR, one bank", t.RCD}, {"trp", "PRE to ACT, one bank", t.RP},
		{"tcl", "RD to its data", t.CL}, {"tras", "ACT to PRE, one bank", t.RAS},
		{"trc", "ACT to ACT, one bank", t.RC}, {"tccdl", "column to column, one bank group", t.CCDL},
		{"tccds", "column to column, any banks", t.CCDS}, {"trrd", "ACT to ACT, any banks", t.RRD},
		{"twl", "WR to its data", t.WL}, {"tcdlr", "last write data to RD (stands for tWTR)", t.CDLR},
		{"twr", "last write data to PRE", t.WR}, {"trtpl", "RD to PRE", t.RTPL},
		{"tburst", "data cycles per request", t.Burst},
	} {
		ps = append(ps, units.IntParam(p.name, p.doc+" (Table 5.1)", p.v, 1, 63))
	}
	return ps
}

func timingOf(v units.Values) Timing {
	return Timing{RCD: v["trcd"], RP: v["trp"], CL: v["tcl"], RAS: v["tras"], RC: v["trc"], CCDL: v["tccdl"],
		CCDS: v["tccds"], RRD: v["trrd"], WL: v["twl"], CDLR: v["tcdlr"], WR: v["twr"], RTPL: v["trtpl"], Burst: v["tburst"]}
}

func schedBlock(v units.Values) SchedBlock {
	return SchedBlock{Entries: v["entries"], WEntries: v["wentries"], HiWM: v["hiwm"], LoWM: v["lowm"],
		BankBits: v["bankbits"], RowBits: v["rowbits"], BlkBits: v["blkbits"], Merges: v["merges"], AgeBits: v["agebits"],
		Scores: RowScores(v["rowscore"])}
}

func cmdqBlock(v units.Values) CmdQBlock {
	return CmdQBlock{BankBits: v["bankbits"], BGBits: v["bgbits"], Depth: v["depth"], RowBits: v["rowbits"],
		TagBits: v["tagbits"], T: timingOf(v)}
}

func dramUnits() []*units.Unit {
	built := func(m *hdl.Module) (*hdl.Module, error) { return m, nil }
	return []*units.Unit{
		{
			Name: "dram-pick", Doc: "Rule 1 over the read queue: FR-FCFS, MSHR-M, MSHR-S, MSHR-S+A (Li, 4.1-4.3)",
			Params: units.Params{paramEntries, paramBankBits, paramRowBits, paramMlBits, paramAgeBits, paramFRFCFS},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return built(PickBlock{Entries: v["entries"], BankBits: v["bankbits"], RowBits: v["rowbits"],
					MlBits: v["mlbits"], AgeBits: v["agebits"], FRFCFSOnly: v["frfcfs"] == 1}.Build(name))
			},
		},
		{
			Name: "dram-mib", Doc: "the DRAM controller's Merge Information Buffer (Li, 4.4, Figure 4.2)",
			Params: units.Params{paramEntries, paramBlkBits, paramMerges, paramAgeBits},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return built(MIBBlock{Entries: v["entries"], BlkBits: v["blkbits"], Merges: v["merges"], AgeBits: v["agebits"]}.Build(name))
			},
		},
		{
			Name: "dram-l2mib", Doc: "the L2 cache's Merge Information Buffer and its dummy requests (Li, 4.4)",
			Params: units.Params{paramMSHRs, paramL2Merges, paramAgeBits},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return built(L2MIBBlock{Entries: v["entries"], Merges: v["merges"], AgeBits: v["agebits"]}.Build(name))
			},
		},
		{
			Name: "dram-rowtab", Doc: "the row-score table: per row its reads' merge length and age sums, kept by events (Li, 4.5)",
			Params: units.Params{paramEntries, paramBankBits, paramRowBits, paramMlBits, paramAgeBits},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return built(RowTabBlock{Entries: v["entries"], BankBits: v["bankbits"], RowBits: v["rowbits"],
					MlBits: v["mlbits"], AgeBits: v["agebits"]}.Build(name))
			},
		},
		{
			Name: "dram-sched", Doc: "read/write request scheduler with the MIB and the write drain (Li, Figures 2.3, 4.2)",
			Params: units.Params{paramEntries, paramWEntries, paramHiWM, paramLoWM, paramBankBits, paramRowBits,
				paramBlkBits, paramMerges, paramAgeBits, paramRowScore},
			Build: func(v units.Values, name string) (*hdl.Module, error) { return built(schedBlock(v).Build(name)) },
		},
		{
			Name: "dram-cmdq", Doc: "per-bank GDDR5 command queues, round robin, Table 5.1 timing (Li, 2.3)",
			Params: append(units.Params{paramBankBits, paramBGBits, paramDepth, paramRowBits, paramTagBits}, timingParams()...),
			Build:  func(v units.Values, name string) (*hdl.Module, error) { return built(cmdqBlock(v).Build(name)) },
		},
	}
}

// lockstepConfigs runs every unit at its defaults and at 4 and 16 entries
// (the command queues at small depths and timings, so that every
// constraint binds). 1,000 cycles fill every queue of the pack many times
// (the three back-ends take about 35 ms a cycle together on the
// defaults' 140,000 lines of Verilog); the long random runs are
// check/dram's, on the Go simulator against the contracts in plain Go.
func lockstepConfigs() []units.Config {
	small := units.Values{"bankbits": 2, "rowbits": 2, "agebits": 6, "blkbits": 4, "merges": 5}
	with := func(v units.Values, extra units.Values) units.Values {
		out := units.Values{}
		for _, m := range []units.Values{v, extra} {
			for k, x := range m {
				out[k] = x
			}
		}
		return out
	}
	var cs []units.Config
	for _, e := range []int{4, 16} {
		cs = append(cs,
			units.Config{Unit: "dram-pick", Values: units.Values{"entries": e, "bankbits": 2, "rowbits": 2, "mlbits": 3, "agebits": 6}},
			units.Config{Unit: "dram-mib", Values: units.Values{"entries": e, "blkbits": 3, "merges": 5, "agebits": 5}},
			units.Config{Unit: "dram-l2mib", Values: units.Values{"entries": e, "merges": 5, "agebits": 6}},
			units.Config{Unit: "dram-rowtab", Values: units.Values{"entries": e, "bankbits": 2, "rowbits": 2, "mlbits": 3, "agebits": 6}},
			units.Config{Unit: "dram-sched", Values: with(small, units.Values{"entries": e, "wentries": e})},
			units.Config{Unit: "dram-sched", Values: with(small, units.Values{"entries": e, "wentries": e, "rowscore": int(TableScores)})},
			units.Config{Unit: "dram-cmdq", Values: units.Values{"bankbits": e / 4, "bgbits": 1, "depth": e / 4 * 2, "rowbits": 2,
				"tagbits": 4, "trcd": 3, "trp": 2, "tcl": 4, "tras": 6, "trc": 8, "tccdl": 3, "tccds": 2, "trrd": 2,
				"twl": 2, "tcdlr": 2, "twr": 3, "trtpl": 2, "tburst": 2}},
		)
	}
	for _, u := range []string{"dram-pick", "dram-mib", "dram-l2mib", "dram-rowtab", "dram-sched", "dram-cmdq"} {
		cs = append(cs, units.Config{Unit: u, Values: units.Values{}})
	}
	cs = append(cs, units.Config{Unit: "dram-sched", Values: units.Values{"rowscore": int(TableScores)}})
	return cs
}

func init() {
	units.RegisterFamily(&units.Family{
		Name:      "dram",
		Doc:       "inter-core locality aware DRAM scheduling (Li's thesis)",
		Units:     dramUnits(),
		Reports:   dramReports,
		Claims:    dramClaims,
		Canonical: units.AtDefaults("dram", dramUnits()),
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 1000},
		Speed:     []units.Config{{Unit: "dram-sched", Values: units.Values{}}, {Unit: "dram-pick", Values: units.Values{}}},
		Examples: []string{
			"-unit dram-sched > dram_sched.v",
			"-unit dram-pick -entries 16 -bankbits 2",
			"-unit dram-cmdq -bgbits 0 -tburst 4",
			"-report dram -workload bfs -cycles 20000",
		},
	})
}
