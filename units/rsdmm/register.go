package rsdmm

import "github.com/parmem/parmem/units"

// The registry entry of the rsdmm family: each block's parameters, its
// Params method (names, docs, defaults and ranges: ../contracts/rsdmm.md),
// the units, the canonical RTL and the lockstep configurations.

// lwParam declares lw, the log2 of the machine's width.
func lwParam(x *int, d *units.Decl, def, hi int) {
	d.Int(x, "lw", "log2 of the width w: banks, threads per warp", def, 1, hi)
}

func seedParam(x *uint64, d *units.Decl) {
	d.Int(x, "seed", "splitmix64 seed of the H3 keys after reset", 1, 0, 1<<32-1)
}

func allPairsParam(x *bool, d *units.Decl) {
	d.Bool(x, "allpairs", "the O(N^2) comparator matrix instead of the sorting network")
}

func (b *RSUBlock) Params(d *units.Decl) {
	lwParam(&b.LW, d, 5, 8)
	d.Bool(&b.Hash, "hash", "r_j from H3 keys instead of a table of shifts")
	maxAB := 20 // a table of 2^(ab-lw) shifts
	if b.Hash {
		maxAB = 32
	}
	d.Int(&b.AB, "ab", "address bits (row j = addr >> lw)", 16, b.LW+1, maxAB)
	d.Int(&b.Lanes, "lanes", "addresses shifted per cycle (default w)", 1<<b.LW, 1, 256)
	seedParam(&b.Seed, d)
}

func (b *RPUBlock) Params(d *units.Decl) {
	lwParam(&b.LW, d, 3, 6)
	d.Int(&b.S, "s", "warps per super warp (s*w <= 512 at every lw)", 3, 1, 8)
	d.Int(&b.RB, "rb", "row bits of a request", 8, 1, 16)
	allPairsParam(&b.AllPairs, d)
}

func (b *MemoryBlock) Params(d *units.Decl) {
	lwParam(&b.LW, d, 3, 5)
	d.Int(&b.S, "s", "warps per super warp", 3, 1, 8)
	d.Int(&b.AB, "ab", "address bits: a flat memory of 2^ab words", 12, b.LW+1, 20)
	d.Int(&b.DW, "dw", "data bits of a word", 32, 1, 64)
	d.Int(&b.L, "l", "stages of the MMU pipeline (Lemma 1's l)", 4, 1, 32)
	d.Int(&b.Shift, "shift", "0 none (the SDMM; the DMM with s = 1), 1 the RSU's table, 2 its H3 keys", 1, 0, 2)
	seedParam(&b.Seed, d)
	allPairsParam(&b.AllPairs, d)
}

func rsdmmUnits() []*units.Unit {
	return []*units.Unit{
		units.NewUnit("rsdmm-rsu", "the random shift unit: bank (k + r_j) mod w by a table or H3 keys (Nakano, V, Figure 1 (C))",
			(*RSUBlock).Params, RSUBlock.Build),
		units.NewUnit("rsdmm-rpu", "the request packing unit: stages, leaders, bank loads and congestion of a super warp (Nakano, IV, Figure 1 (B))",
			(*RPUBlock).Params, RPUBlock.Build),
		units.NewUnit("rsdmm", "the memory: RSU, RPU, the l-stage MMU pipeline and w banks, a flat memory to its user (Nakano, Figure 1, Lemma 1)",
			(*MemoryBlock).Params, MemoryBlock.Build),
	}
}

// lockstepConfigs runs the memory at its defaults with each shift, the
// shift unit at lw 2 and 5, ab 10 and 16, both modes, and the packing unit
// at (lw, s) = (2, 3) and (4, 2), both circuits, with few row bits so that
// addresses repeat; then a shaped run (lockstepShapes) congests the
// memory's banks fully.
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
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 3000, Shapes: lockstepShapes(), ShapedCycles: 2250, Long: longLockstepConfigs(), LongCycles: 1000},
		Prove:     proveConfigs,
		Speed:     []units.Config{{Unit: "rsdmm", Values: units.Values{}}, {Unit: "rsdmm-rpu", Values: units.Values{}}},
		Examples:  []string{"-unit rsdmm -shift 2 -s 4 > rsdmm.v", "-unit rsdmm-rsu -lw 5 -ab 16 > rsu.v", "-unit rsdmm-rsu -hash -ab 32 -seed 7", "-report rsdmm-congestion -rounds 2000"},
	})
}

// proveConfigs are the sizes at which check/rsdmm proves the blocks'
// properties: the RPU at N = 4 (both circuits), the RSU with its table and
// with its keys, and the memory at w = 2, s = 2, l = 2; More adds the
// memory with each shift and other pipeline depths, and the RPU at N = 6.
var proveConfigs = units.Prove{
	Configs: []units.Config{
		{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 2, "rb": 2}},
		{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 2, "rb": 2, "allpairs": 1}},
		{Unit: "rsdmm-rsu", Values: units.Values{"lw": 1, "ab": 3}},
		{Unit: "rsdmm-rsu", Values: units.Values{"lw": 2, "ab": 4, "hash": 1}},
		{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 2, "ab": 3, "dw": 1, "l": 2, "shift": 0}},
	},
	More: []units.Config{
		{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 2, "ab": 3, "dw": 1, "l": 1, "shift": 1}},
		{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 1, "ab": 3, "dw": 1, "l": 3, "shift": 2}},
		{Unit: "rsdmm", Values: units.Values{"lw": 1, "s": 3, "ab": 3, "dw": 1, "l": 2, "shift": 1}},
		{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 3, "rb": 1}},
		{Unit: "rsdmm-rsu", Values: units.Values{"lw": 2, "ab": 5, "hash": 1}},
	},
}
