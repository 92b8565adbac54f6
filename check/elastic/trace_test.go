package elastic

import (
	"testing"

	"github.com/parmem/parmem/units"
	el "github.com/parmem/parmem/units/elastic"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestModelTracesOnBlocks replays the cycle model's back-end traces (what
// EXE and the interconnect offered each cycle, elastic+aware on the
// elastic pipeline, the baseline on the unified one) of every kernel on
// elastic-pipe and elastic-basepipe at Table 5.4's sizes, and requires
// the block's ex_ready and writeback to be the model's in every cycle:
// the evaluation's back ends are the hardware's.
func TestModelTracesOnBlocks(t *testing.T) {
	core := el.Table54()
	n := el.PrememDepth(core.Warp, core.Lanes)
	for _, setup := range []struct {
		run  el.Run
		unit units.Config
	}{
		{el.Run{Core: core, BackEnd: el.Elastic, Scheduling: el.Aware, Trace: true},
			units.Config{Unit: "elastic-pipe", Values: units.Values{"lanes": core.Lanes, "w": 1, "mstages": core.MStages,
				"premem": n, "nonmem": el.DefaultNonmem(core.MStages, n), "tw": 5}}},
		{el.Run{Core: core, BackEnd: el.Unified, Scheduling: el.RoundRobin, Trace: true},
			units.Config{Unit: "elastic-basepipe", Values: units.Values{"lanes": core.Lanes, "w": 1, "mstages": core.MStages, "tw": 5}}},
	} {
		for _, k := range append(el.Kernels(), el.ConflictFreeKernels()...) {
			t.Run(setup.unit.Unit+"/"+k.Name, func(t *testing.T) {
				t.Parallel()
				r, err := setup.run.Kernel(k)
				require.NoError(t, err)
				replay(t, setup.unit, r.Trace)
			})
		}
	}
}

// replay drives the block with trace and compares its outputs.
func replay(t *testing.T, c units.Config, trace []el.TraceCycle) {
	b, ports, _ := pipeOnBench(t, c)
	b.DontRecord()
	exValid, exMem, exHold, exTag := in(b, ports.Ex.Valid), in(b, ports.Ex.Payload.Mem), in(b, ports.Ex.Payload.Hold), in(b, ports.Ex.Payload.Tag)
	icValid, icTag := in(b, ports.ICValid), in(b, ports.IC.Tag)
	exReady, wbValid, wbSrc, wbTag := out(b, ports.Ex.Ready), out(b, ports.WBValid), out(b, ports.WBSrc), out(b, ports.WB.Tag)
	b.Before(func(cycle uint64) {
		tc := trace[cycle]
		b.Set(exValid, verify.Bit(tc.ExValid))
		b.Set(exMem, verify.Bit(tc.Ex.Mem))
		b.Set(exHold, uint64(tc.Ex.Hold))
		b.Set(exTag, uint64(tc.Ex.Tag))
		b.Set(icValid, verify.Bit(tc.IC >= 0))
		b.Set(icTag, uint64(max(tc.IC, 0)))
	})
	b.After(func(cycle uint64) {
		tc := trace[cycle]
		got := el.Writeback{Valid: b.Get(wbValid) == 1, Src: int(b.Get(wbSrc)), Tag: int(b.Get(wbTag))}
		want := tc.WB
		if !want.Valid { // src and tag are don't-cares
			got.Src, got.Tag, want.Src, want.Tag = 0, 0, 0, 0
		}
		if got != want || (tc.ExValid && (b.Get(exReady) == 1) != tc.Ready) {
			t.Fatalf("cycle %d: offered %+v: block ready %d writeback %+v, model ready %v writeback %+v",
				cycle, tc, b.Get(exReady), got, tc.Ready, want)
		}
	})
	b.Run(len(trace))
	require.Positive(t, len(trace))
}
