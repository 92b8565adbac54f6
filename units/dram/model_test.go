package dram

import (
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testCycles is the core cycles of the model tests' runs.
const testCycles = 60_000

// Every preset under every policy and with perfect DRAM at Table 5.1's
// setup is run once for every test that reads it.
var (
	testOnce sync.Once
	testRuns map[runKey]*Result
	testErr  error
)

func presetRuns(t *testing.T) map[runKey]*Result {
	testOnce.Do(func() {
		var keys []runKey
		for _, w := range Presets {
			keys = append(keys, perfectKey(w.Name))
			for _, p := range Policies {
				keys = append(keys, baseKey(w.Name, p))
			}
		}
		testRuns, testErr = runAll(keys, testCycles, io.Discard)
	})
	require.NoError(t, testErr)
	return testRuns
}

// Every load returns exactly once: each is an L1 merge, an L2 hit, an L2
// merge or an L2 miss, each miss is a DRAM read, each wakes its warp
// once; every store is a DRAM write.
func TestModelConservation(t *testing.T) {
	for k, r := range presetRuns(t) {
		assert.Positive(t, r.Loads, "%s", k)
		assert.Equal(t, r.Loads, r.Returns, "%s: loads returned", k)
		assert.Equal(t, r.Loads, r.L1Merges+r.L2Hits+r.Merges+r.L2Misses, "%s: loads at the L1 and the L2", k)
		assert.Equal(t, r.L2Misses, r.DRAMReads, "%s: a DRAM read per miss", k)
		assert.Equal(t, r.Stores, r.DRAMWrites, "%s: a DRAM write per store", k)
		assert.GreaterOrEqual(t, r.WarpsReleased, r.DRAMReads, "%s: a DRAM read wakes its warps", k)
		assert.Less(t, r.DrainCycles, int64(testCycles), "%s: drain", k)
	}
}

// The L1 MSHR keeps a core's loads of a line it already misses: every L2
// merge comes from another core (2.2), and TRANS's tiles, reading each
// line twice, merge.
func TestModelMergesAcrossCores(t *testing.T) {
	runs := presetRuns(t)
	for _, p := range Policies {
		r := runs[baseKey("trans", p)]
		assert.Positive(t, r.Merges, "%s", p)
		assert.Positive(t, r.L1Merges, "%s", p)
		assert.Zero(t, r.SameCoreMerges, "%s", p)
		assert.Greater(t, r.WarpsPerRead(), 1.5, "%s: a read wakes warps of several cores", p)
	}
}

// Perfect DRAM (5.2) is at least as fast as every policy.
func TestModelPerfectDRAM(t *testing.T) {
	runs := presetRuns(t)
	for _, w := range Presets {
		pf := runs[perfectKey(w.Name)]
		assert.Zero(t, pf.Dummies, w.Name)
		for _, p := range Policies {
			assert.GreaterOrEqual(t, pf.IPC(), runs[baseKey(w.Name, p)].IPC(), "%s, %s", w.Name, p)
			assert.Less(t, pf.AvgLatency(), runs[baseKey(w.Name, p)].AvgLatency(), "%s, %s", w.Name, p)
		}
	}
}

// On BFS MSHR-S+A serves the reads many warps wait for first, so the
// average latency falls (Fig. 6.6), and its age keeps the maximum latency
// below MSHR-S's (Fig. 6.5). Its IPC against the thesis's is the dram
// report's verdict, not a test's.
func TestModelHILLatencies(t *testing.T) {
	runs := presetRuns(t)
	f, s, a := runs[baseKey("bfs", FRFCFS)], runs[baseKey("bfs", MSHRS)], runs[baseKey("bfs", MSHRSA)]
	t.Logf("IPC %.3f -> %.3f, latency %.1f -> %.1f, max latency S %d S+A %d",
		f.IPC(), a.IPC(), f.AvgLatency(), a.AvgLatency(), s.MaxLatency, a.MaxLatency)
	assert.Less(t, a.AvgLatency(), f.AvgLatency())
	assert.Less(t, a.MaxLatency, s.MaxLatency)
}

// FR-FCFS sends no dummies; the MSHR policies do. Every Sched cycle of
// every channel reaches the trace hook with a Rdy of its own, and the
// DRAM completes what the schedulers issued.
func TestModelSchedTrace(t *testing.T) {
	hil, err := Preset("bfs")
	require.NoError(t, err)
	for _, p := range []Policy{FRFCFS, MSHRSA} {
		var dummies, reads, writes int
		rdys := map[*bool]bool{}
		cfg := Table51Config(hil, p, 10_000)
		cfg.SchedTrace = func(ch int, in SchedIn, out Issued) {
			require.Less(t, ch, DRAMChannels)
			require.Equal(t, p, in.Pol)
			require.Len(t, in.Rdy, DRAMBanks)
			if in.Dummy != nil {
				dummies++
			}
			if out.Valid && out.Write {
				writes++
			} else if out.Valid {
				reads++
			}
			require.False(t, rdys[&in.Rdy[0]], "%s: Rdy is a copy", p)
			rdys[&in.Rdy[0]] = true
		}
		r, err := Run(cfg)
		require.NoError(t, err)
		assert.Equal(t, r.DRAMReads, int64(reads), "%s: reads issued", p)
		assert.Equal(t, r.DRAMWrites, int64(writes), "%s: writes issued", p)
		if p == FRFCFS {
			assert.Zero(t, dummies)
			assert.Zero(t, r.Dummies)
		} else {
			assert.Positive(t, dummies)
			assert.LessOrEqual(t, int64(dummies), r.Dummies)
		}
	}
}

// Line interleaving: consecutive lines go to consecutive sub-partitions;
// 96 consecutive lines from a multiple of 96 x 16 fill one row of one bank
// in every channel.
func TestModelLineMap(t *testing.T) {
	rows := map[[3]int]int{}
	for line := uint64(96 * 16 * 7); line < 96*16*7+96; line++ {
		sp, bank, row := lineMap(line)
		assert.Equal(t, int(line%SubPartitions), sp)
		rows[[3]int{sp / 2, bank, row}]++
	}
	assert.Len(t, rows, DRAMChannels)
	for k, n := range rows {
		assert.Equal(t, RowLines, n, "channel %d bank %d row %d", k[0], k[1], k[2])
	}
}

// Run refuses configurations it cannot model.
func TestModelRejectsBadConfig(t *testing.T) {
	hil, err := Preset("bfs")
	require.NoError(t, err)
	for _, cfg := range []Config{
		Table51Config(hil, FRFCFS, 0),
		{Workload: hil, Cycles: 10, L2Latency: -1, ReadQueue: 64, CmdQDepth: 1},
		{Workload: hil, Cycles: 10, ReadQueue: 1, CmdQDepth: 1},
		{Workload: hil, Cycles: 10, ReadQueue: 64}, // no command queue depth
		Table51Config(Workload{Name: "bad", Steps: []Step{{Kind: Window, Count: 1, Lines: 0, Advance: 1}}}, FRFCFS, 10),
	} {
		_, err := Run(cfg)
		assert.Error(t, err)
	}
	_, err = Preset("nope")
	assert.ErrorContains(t, err, "nope")
}
