package elastic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// sharedCore is Table 5.4's core with its loads on a shared DRAM of the
// given cores and channels.
func sharedCore(cores, channels int) Core {
	c := Table54()
	c.Memory, c.DRAM.Cores, c.DRAM.Channels = SharedDRAM, cores, channels
	return c
}

// TestSharedDRAMKeepsTheWork: on the shared DRAM every kernel runs to
// completion and each core issues what the one-core fixed-latency model
// does (the work is the same, only its timing moves), and no load comes
// back faster than the interconnect and a row hit allow.
func TestSharedDRAMKeepsTheWork(t *testing.T) {
	e := evaluation(t)
	const cores = 2
	c := sharedCore(cores, 1)
	for _, k := range e.Conflicting {
		fixed := k.By[SetupAware]
		r, err := Run{Core: c, BackEnd: Elastic, Scheduling: Aware}.Kernel(k.Kernel)
		require.NoError(t, err, k.Kernel.Name)
		name := k.Kernel.Name
		require.Equal(t, cores, r.Cores, name)
		require.Equal(t, cores*fixed.Issued, r.Issued, name)
		require.Equal(t, cores*fixed.SharedAccesses, r.SharedAccesses, name)
		require.Equal(t, cores*fixed.SharedCycles, r.SharedCycles, name)
		require.Equal(t, cores*fixed.Loads, r.Loads, name)
		require.Positive(t, r.Loads, name)
		require.GreaterOrEqual(t, r.LoadMin, c.DRAM.MinLoad(c.Lanes*WordBytes), name)
		require.GreaterOrEqual(t, r.Cycles*cores, r.Issued+r.TotalStalls(), "%s: a finished core stops counting", name)
	}
}

// TestIdleDRAMIsTheFixedMinimum: Table 5.4's interconnect makes a load to
// an idle closed bank the fixed model's shortest round trip.
func TestIdleDRAMIsTheFixedMinimum(t *testing.T) {
	d := Table54DRAM()
	require.Equal(t, DefaultLatency, d.Interconnect+d.IdleMiss(Lanes*WordBytes))
	require.Less(t, d.MinLoad(Lanes*WordBytes), DefaultLatency)
	require.NoError(t, d.check(Lanes))
}

// TestMoreCoresNeverFaster: more cores sharing one channel never make a
// kernel finish sooner.
func TestMoreCoresNeverFaster(t *testing.T) {
	for _, k := range []Kernel{Kernels()[3], Kernels()[4]} { // Transpose, DCT
		for _, s := range []Setup{Setups[SetupBaseline], Setups[SetupAware]} {
			last := 0
			for _, cores := range []int{1, 2, 4, 8} {
				r, err := Run{Core: sharedCore(cores, 1), BackEnd: s.BackEnd, Scheduling: s.Scheduling}.Kernel(k)
				require.NoError(t, err)
				require.GreaterOrEqual(t, r.Cycles, last, "%s on %s, %d cores", k.Name, s.Name, cores)
				last = r.Cycles
			}
		}
	}
}

// TestSharedDRAMRejectsBadMemories: the shared DRAM's knobs are checked.
func TestSharedDRAMRejectsBadMemories(t *testing.T) {
	for _, f := range []func(*DRAM){
		func(d *DRAM) { d.Cores = 0 },
		func(d *DRAM) { d.Channels = 0 },
		func(d *DRAM) { d.BusMHz = 0 },
		func(d *DRAM) { d.Interconnect = -1 },
		func(d *DRAM) { d.Interleave = 16 },
		func(d *DRAM) { d.Channel.Queue = 0 },
	} {
		c := sharedCore(2, 1)
		f(&c.DRAM)
		_, err := Run{Core: c}.Kernel(Kernels()[3])
		require.Error(t, err)
	}
}
