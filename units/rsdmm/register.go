package rsdmm

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
)

// The registry entry of the rsdmm family: each unit's parameters,
// defaults and ranges (../contracts/rsdmm.md), the canonical RTL and the
// lockstep configurations.

var (
	paramRSULW = units.IntParam("lw", "log2 of the width w: banks, threads per warp", 5, 1, 8)
	paramHash  = units.Param{Name: "hash", Doc: "r_j from H3 keys instead of a table of shifts", Kind: units.Bool}
	paramAB    = units.Param{Name: "ab", Doc: "address bits (row j = addr >> lw)", Default: units.Const(16),
		Range: func(v units.Values) (int, int) {
			if v["hash"] == 1 {
				return v["lw"] + 1, 32
			}
			return v["lw"] + 1, 20 // a table of 2^(ab-lw) shifts
		}}
	paramLanes = units.Param{Name: "lanes", Doc: "addresses shifted per cycle (default w)",
		Default: func(v units.Values) int { return 1 << v["lw"] }, Range: units.Fixed(1, 256)}
	paramSeed = units.IntParam("seed", "splitmix64 seed of the H3 keys after reset", 1, 0, 1<<32-1)

	paramRPULW    = units.IntParam("lw", "log2 of the width w: banks, threads per warp", 3, 1, 6)
	paramS        = units.IntParam("s", "warps per super warp (s*w <= 512 at every lw)", 3, 1, 8)
	paramRB       = units.IntParam("rb", "row bits of a request", 8, 1, 16)
	paramAllPairs = units.Param{Name: "allpairs", Doc: "the O(N^2) comparator matrix instead of the sorting network", Kind: units.Bool}

	paramMemLW = units.IntParam("lw", "log2 of the width w: banks, threads per warp", 3, 1, 5)
	paramMemS  = units.IntParam("s", "warps per super warp", 3, 1, 8)
	paramMemAB = units.Param{Name: "ab", Doc: "address bits: a flat memory of 2^ab words", Default: units.Const(12),
		Range: func(v units.Values) (int, int) { return v["lw"] + 1, 20 }}
	paramDW    = units.IntParam("dw", "data bits of a word", 32, 1, 64)
	paramL     = units.IntParam("l", "stages of the MMU pipeline (Lemma 1's l)", 4, 1, 32)
	paramShift = units.IntParam("shift", "0 none (the SDMM; the DMM with s = 1), 1 the RSU's table, 2 its H3 keys", 1, 0, 2)
)

func rsdmmUnits() []*units.Unit {
	return []*units.Unit{
		{
			Name: "rsdmm-rsu", Doc: "the random shift unit: bank (k + r_j) mod w by a table or H3 keys (Nakano, V, Figure 1 (C))",
			Params: units.Params{paramRSULW, paramHash, paramAB, paramLanes, paramSeed},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return RSUBlock{LW: v["lw"], AB: v["ab"], Lanes: v["lanes"], Hash: v["hash"] == 1, Seed: uint64(v["seed"])}.Build(name), nil
			},
		},
		{
			Name: "rsdmm-rpu", Doc: "the request packing unit: stages, leaders, bank loads and congestion of a super warp (Nakano, IV, Figure 1 (B))",
			Params: units.Params{paramRPULW, paramS, paramRB, paramAllPairs},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return RPUBlock{LW: v["lw"], S: v["s"], RB: v["rb"], AllPairs: v["allpairs"] == 1}.Build(name), nil
			},
		},
		{
			Name: "rsdmm", Doc: "the memory: RSU, RPU, the l-stage MMU pipeline and w banks, a flat memory to its user (Nakano, Figure 1, Lemma 1)",
			Params: units.Params{paramMemLW, paramMemS, paramMemAB, paramDW, paramL, paramShift, paramSeed, paramAllPairs},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return MemoryBlock{LW: v["lw"], S: v["s"], AB: v["ab"], DW: v["dw"], L: v["l"], Shift: ShiftKind(v["shift"]),
					Seed: uint64(v["seed"]), AllPairs: v["allpairs"] == 1}.Build(name), nil
			},
		},
	}
}

// lockstepConfigs runs the memory at its defaults with each shift, the
// shift unit at lw 2 and 5, ab 10 and 16, both modes, and the packing unit
// at (lw, s) = (2, 3) and (4, 2), both circuits, with few row bits so that
// addresses repeat.
func lockstepConfigs() []units.Config {
	var cs []units.Config
	for _, ls := range [][2]int{{2, 3}, {4, 2}} {
		for _, all := range []int{0, 1} {
			cs = append(cs, units.Config{Unit: "rsdmm-rpu", Values: units.Values{"lw": ls[0], "s": ls[1], "rb": 2, "allpairs": all}})
		}
	}
	for shift := range 3 {
		cs = append(cs, units.Config{Unit: "rsdmm", Values: units.Values{"shift": shift}})
	}
	for _, v := range []units.Values{{"lw": 2, "ab": 10}, {}} {
		for _, hash := range []int{0, 1} {
			c := units.Values{"hash": hash}
			for k, x := range v {
				c[k] = x
			}
			cs = append(cs, units.Config{Unit: "rsdmm-rsu", Values: c})
		}
	}
	return cs
}

// longLockstepConfigs are the packing unit at (lw, s) = (5, 5), N = 160,
// both circuits: 108,000 and 563,000 lines of Verilog, a minute and two
// and a half minutes of Verilator's build, so they run in make long; make
// test checks them against the spec on the Go simulator (check/rsdmm).
func longLockstepConfigs() []units.Config {
	var cs []units.Config
	for _, all := range []int{0, 1} {
		cs = append(cs, units.Config{Unit: "rsdmm-rpu", Values: units.Values{"lw": 5, "s": 5, "rb": 4, "allpairs": all}})
	}
	return cs
}

func init() {
	units.RegisterFamily(&units.Family{
		Name:      "rsdmm",
		Doc:       "random address shift memory machines: DMM, SDMM, RSDMM (Nakano)",
		Units:     rsdmmUnits(),
		Reports:   rsdmmReports,
		Claims:    rsdmmClaims,
		Canonical: units.AtDefaults("rsdmm", rsdmmUnits()),
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 3000, Long: longLockstepConfigs(), LongCycles: 1000},
		Speed:     []units.Config{{Unit: "rsdmm", Values: units.Values{}}, {Unit: "rsdmm-rpu", Values: units.Values{}}},
		Examples:  []string{"-unit rsdmm -shift 2 -s 4 > rsdmm.v", "-unit rsdmm-rsu -lw 5 -ab 16 > rsu.v", "-unit rsdmm-rsu -hash -ab 32 -seed 7", "-report rsdmm-congestion -rounds 2000"},
	})
}
