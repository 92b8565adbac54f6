package dram

import (
	"testing"

	"github.com/parmem/parmem/units"
	d "github.com/parmem/parmem/units/dram"
	"github.com/stretchr/testify/require"
)

// TestSchedUnderModelTraffic runs the cycle model (hil, Table 5.1) and
// records channel 0's scheduler inputs and issues, then drives dram-sched
// at its defaults with those inputs: every cycle it must issue what the
// model's scheduler issued.
func TestSchedUnderModelTraffic(t *testing.T) {
	t.Parallel()
	const dramCycles = 12_000
	for _, pol := range []d.Policy{d.MSHRS, d.MSHRSA} {
		t.Run(pol.String(), func(t *testing.T) {
			t.Parallel()
			type step struct {
				in  d.SchedIn
				out d.Issued
			}
			var trace []step
			w, err := d.Preset("bfs")
			require.NoError(t, err)
			cfg := d.Table51Config(w, pol, dramCycles*d.CoreMHz/d.DRAMMHz)
			cfg.SchedTrace = func(channel int, in d.SchedIn, out d.Issued) {
				if channel == 0 {
					trace = append(trace, step{in, out})
				}
			}
			_, err = d.Run(cfg)
			require.NoError(t, err)
			require.Greater(t, len(trace), dramCycles)

			s := newSchedBench(t, units.Config{Unit: "dram-sched", Values: units.Values{}})
			issued := 0
			for i, st := range trace[:dramCycles] {
				got := s.step(t, st.in)
				require.Equal(t, st.out.Valid, got.Valid, "DRAM cycle %d", i)
				if got.Valid {
					require.Equal(t, [3]any{st.out.Write, st.out.Request, st.out.Mlen}, [3]any{got.Write, got.Request, got.Mlen}, "DRAM cycle %d", i)
					issued++
				}
			}
			t.Logf("%v: %d requests issued in %d DRAM cycles: %v", pol, issued, dramCycles, s.counts)
			require.Positive(t, s.counts["write=false hit=true"])
			require.Positive(t, s.counts["write=true hit=false"]+s.counts["write=true hit=true"])
		})
	}
}
