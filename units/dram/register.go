package dram

import (
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units"
)

// The registry entry of the dram family: each block's parameters, its
// Params method (names, docs, defaults and ranges: ../contracts/dram.md),
// the units, the reports, the canonical RTL and the lockstep
// configurations. The functions before the methods declare the
// parameters that several blocks share.

func entriesParam(x *int, d *units.Decl) {
	d.Int(x, "entries", "read queue slots (Table 5.1: 64)", 64, 2, 128)
}

func bankBitsParam(x *int, d *units.Decl) {
	d.Int(x, "bankbits", "log2 of the banks (Table 5.1: 16 banks)", 4, 1, 6)
}

func rowBitsParam(x *int, d *units.Decl) {
	d.Int(x, "rowbits", "row address bits (Table 5.1: 4096 rows)", 12, 1, 20)
}

func mlBitsParam(x *int, d *units.Decl) {
	d.Int(x, "mlbits", "merge length bits (bits(16) = 5)", 5, 1, 8)
}

func ageBitsParam(x *int, d *units.Decl) {
	d.Int(x, "agebits", "Age_MSHR bits, saturating (4.5: 15)", 15, 1, 32)
}

func blkBitsParam(x *int, d *units.Decl) {
	d.Int(x, "blkbits", "block address bits (4.5: 24; 25 for 32-bit addresses over 128 B lines)", 24, 1, 40)
}

func mergesParam(x *int, d *units.Decl, lo, hi int) {
	d.Int(x, "merges", "merges per L2 MSHR entry (Table 5.1: 16)", 16, lo, hi)
}

func (b *PickBlock) Params(d *units.Decl) {
	entriesParam(&b.Entries, d)
	bankBitsParam(&b.BankBits, d)
	rowBitsParam(&b.RowBits, d)
	mlBitsParam(&b.MlBits, d)
	ageBitsParam(&b.AgeBits, d)
	d.Bool(&b.FRFCFSOnly, "frfcfs", "FR-FCFS only, without the score logic (the baseline of dram-cost; pol is ignored)")
}

func (b *MIBBlock) Params(d *units.Decl) {
	entriesParam(&b.Entries, d)
	blkBitsParam(&b.BlkBits, d)
	mergesParam(&b.Merges, d, 1, 255)
	ageBitsParam(&b.AgeBits, d)
}

func (b *L2MIBBlock) Params(d *units.Decl) {
	d.Int(&b.Entries, "entries", "L2 MSHR entries, one MIB entry each (Table 5.1: 64)", 64, 1, 256)
	mergesParam(&b.Merges, d, 2, 256)
	ageBitsParam(&b.AgeBits, d)
}

func (b *RowTabBlock) Params(d *units.Decl) {
	entriesParam(&b.Entries, d)
	bankBitsParam(&b.BankBits, d)
	rowBitsParam(&b.RowBits, d)
	mlBitsParam(&b.MlBits, d)
	ageBitsParam(&b.AgeBits, d)
}

// Params declares the scheduler's queues and their write drain, whose
// watermarks default to Table 5.1's fractions of the write queue.
func (b *SchedBlock) Params(d *units.Decl) {
	entriesParam(&b.Entries, d)
	d.Int(&b.WEntries, "wentries", "write queue slots (Table 5.1: 128)", 128, 2, 256)
	d.Int(&b.HiWM, "hiwm", "writes that start a drain (Table 5.1: 96; default 3/4 of wentries)",
		max(1, b.WEntries*3/4), 1, b.WEntries)
	d.Int(&b.LoWM, "lowm", "writes that end a drain (Table 5.1: 80; default 5/8 of wentries)",
		min(b.WEntries*5/8, b.HiWM-1), 0, b.HiWM-1)
	bankBitsParam(&b.BankBits, d)
	rowBitsParam(&b.RowBits, d)
	blkBitsParam(&b.BlkBits, d)
	mergesParam(&b.Merges, d, 1, 255)
	ageBitsParam(&b.AgeBits, d)
	d.Choice(&b.Scores, "rowscore", "row scores summed over the queue every cycle, kept in a row-score table (4.5), or none (FR-FCFS: the cost baseline)",
		RowScoreNames, int(SummedScores))
}

func (b *CmdQBlock) Params(d *units.Decl) {
	bankBitsParam(&b.BankBits, d)
	d.Int(&b.BGBits, "bgbits", "log2 of the bank groups (Table 5.1: 4 groups)", 2, 0, b.BankBits)
	d.Int(&b.Depth, "depth", "requests per bank command queue", 4, 2, 16)
	rowBitsParam(&b.RowBits, d)
	d.Int(&b.TagBits, "tagbits", "request tag bits", 8, 1, 16)
	b.T.Params(d)
}

// Params declares Table 5.1's GDDR5 timings in DRAM cycles and the burst.
func (t *Timing) Params(d *units.Decl) {
	t51 := Table51()
	for _, p := range []struct {
		field     *int
		name, doc string
		def       int
	}{
		{&t.RCD, "trcd", "ACT to RD/WR, one bank", t51.RCD}, {&t.RP, "trp", "PRE to ACT, one bank", t51.RP},
		{&t.CL, "tcl", "RD to its data", t51.CL}, {&t.RAS, "tras", "ACT to PRE, one bank", t51.RAS},
		{&t.RC, "trc", "ACT to ACT, one bank", t51.RC}, {&t.CCDL, "tccdl", "column to column, one bank group", t51.CCDL},
		{&t.CCDS, "tccds", "column to column, any banks", t51.CCDS}, {&t.RRD, "trrd", "ACT to ACT, any banks", t51.RRD},
		{&t.WL, "twl", "WR to its data", t51.WL}, {&t.CDLR, "tcdlr", "last write data to RD (stands for tWTR)", t51.CDLR},
		{&t.WR, "twr", "last write data to PRE", t51.WR}, {&t.RTPL, "trtpl", "RD to PRE", t51.RTPL},
		{&t.Burst, "tburst", "data cycles per request", t51.Burst},
	} {
		d.Int(p.field, p.name, p.doc+" (Table 5.1)", p.def, 1, 63)
	}
}

func dramUnits() []*units.Unit {
	return []*units.Unit{
		units.NewUnit("dram-pick", "Rule 1 over the read queue: FR-FCFS, MSHR-M, MSHR-S, MSHR-S+A (Li, 4.1-4.3)",
			(*PickBlock).Params, PickBlock.Build),
		units.NewUnit("dram-mib", "the DRAM controller's Merge Information Buffer (Li, 4.4, Figure 4.2)",
			(*MIBBlock).Params, MIBBlock.Build),
		units.NewUnit("dram-l2mib", "the L2 cache's Merge Information Buffer and its dummy requests (Li, 4.4)",
			(*L2MIBBlock).Params, L2MIBBlock.Build),
		units.NewUnit("dram-rowtab", "the row-score table: per row its reads' merge length and age sums, kept by events (Li, 4.5)",
			(*RowTabBlock).Params, RowTabBlock.Build),
		units.NewUnit("dram-sched", "read/write request scheduler with the MIB and the write drain (Li, Figures 2.3, 4.2)",
			(*SchedBlock).Params, SchedBlock.Build),
		units.NewUnit("dram-cmdq", "per-bank GDDR5 command queues, round robin, Table 5.1 timing (Li, 2.3)",
			(*CmdQBlock).Params, CmdQBlock.Build),
	}
}

// lockstepConfigs runs every unit at 4 and 16 entries (the MIB at 4 and 3
// slots; the command queues at small depths and timings, so that every
// constraint binds), for 1,000 cycles, then for 3,000 of shaped stimulus
// (lockstepShapes) on Go and Verilator; the long random runs are
// check/dram's, on the Go simulator against the contracts in plain Go.
// The units at their defaults are longLockstepConfigs.
//
// The stimulus is random and resets the pack about once in 64 cycles, so
// the small configurations are shaped for their cover points to be
// reached between resets, whatever the seed. Random inputs allocate and
// free the MIB's slots alike, each valid about half the time: at 3 and 4
// slots all are valid at once now and then (at 3, index 3 names no slot),
// at 16 almost never. The L2 MIB's entries take 3 merges: random merges
// saturate a count, 2 merges into one entry with no free or allocation
// between. The row-score table has four times as many rows as entries: a
// full table then drops a read (with as many rows as entries it holds
// every row). At 16 entries the scheduler's drain starts at a full write
// queue and runs down to a quarter of it: below hiwm the drain keeps the
// queue from filling, as random readiness leaves some bank ready almost
// every cycle, and a long drain is what fills the read queue. The command
// queues have e/2 banks of e/2 requests, so that a bank pops its queue's
// depth between resets.
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
	for _, size := range []struct {
		e, mib        int
		rowtab, sched units.Values
	}{
		{4, 4, units.Values{"bankbits": 2, "rowbits": 2}, units.Values{}},
		{16, 3, units.Values{"bankbits": 3, "rowbits": 3}, units.Values{"hiwm": 16, "lowm": 4}},
	} {
		e := size.e
		sched := with(small, with(size.sched, units.Values{"entries": e, "wentries": e}))
		cs = append(cs,
			units.Config{Unit: "dram-pick", Values: units.Values{"entries": e, "bankbits": 2, "rowbits": 2, "mlbits": 3, "agebits": 6}},
			units.Config{Unit: "dram-mib", Values: units.Values{"entries": size.mib, "blkbits": 3, "merges": 5, "agebits": 5}},
			units.Config{Unit: "dram-l2mib", Values: units.Values{"entries": e, "merges": 3, "agebits": 6}},
			units.Config{Unit: "dram-rowtab", Values: with(size.rowtab, units.Values{"entries": e, "mlbits": 3, "agebits": 6})},
			units.Config{Unit: "dram-sched", Values: sched},
			units.Config{Unit: "dram-sched", Values: with(sched, units.Values{"rowscore": int(TableScores)})},
			units.Config{Unit: "dram-cmdq", Values: units.Values{"bankbits": lib.IndexWidth(e) - 1, "bgbits": 1, "depth": e / 2, "rowbits": 2,
				"tagbits": 4, "trcd": 3, "trp": 2, "tcl": 4, "tras": 6, "trc": 8, "tccdl": 3, "tccds": 2, "trrd": 2,
				"twl": 2, "tcdlr": 2, "twr": 3, "trtpl": 2, "tburst": 2}},
		)
	}
	return cs
}

// longLockstepConfigs are every unit at its defaults, Table 5.1's sizes
// and timing, and the scheduler with the row-score table: 340,000 lines
// of Verilog, about three CPU minutes of Verilator's and g++'s build, so
// they run in make long; make test checks them against the contracts on
// the Go simulator (check/dram). Random inputs fill none of their 64 read
// and 128 write slots, saturate no count of 16 merges, and seldom let a
// bank pop its whole command queue between resets: the shaped run's fill
// and drain phases do.
func longLockstepConfigs() []units.Config {
	var cs []units.Config
	for _, u := range []string{"dram-pick", "dram-mib", "dram-l2mib", "dram-rowtab", "dram-sched", "dram-cmdq"} {
		cs = append(cs, units.Config{Unit: u, Values: units.Values{}})
	}
	return append(cs, units.Config{Unit: "dram-sched", Values: units.Values{"rowscore": int(TableScores)}})
}

func init() {
	units.RegisterFamily(&units.Family{
		Name:      "dram",
		Doc:       "inter-core locality aware DRAM scheduling (Li's thesis)",
		Units:     dramUnits(),
		Reports:   dramReports,
		Claims:    dramClaims,
		Canonical: units.AtDefaults("dram", dramUnits()),
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 1000, Shapes: lockstepShapes(), ShapedCycles: 3000, Long: longLockstepConfigs(), LongCycles: 1000},
		Speed:     []units.Config{{Unit: "dram-sched", Values: units.Values{}}, {Unit: "dram-pick", Values: units.Values{}}},
		Examples: []string{
			"-unit dram-sched > dram_sched.v",
			"-unit dram-pick -entries 16 -bankbits 2",
			"-unit dram-cmdq -bgbits 0 -tburst 4",
			"-report dram -workload bfs -cycles 20000",
		},
	})
}
