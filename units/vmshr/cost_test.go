package vmshr

import (
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// Deferred reservation in the RTL: vmshr-elastic holds exactly the Data
// bits of vmshr-base (m normal blocks, not m hyper blocks), m x GW HBS
// flip-flops more, and otherwise the same state.
func TestElasticStorageEqualsBase(t *testing.T) {
	for _, v := range []units.Values{{}, {"m": 16, "dw": 32}, {"m": 5, "s": 3, "dw": 7}} {
		bits := func(unit string) (data, hbs, other int) {
			d, err := units.Config{Unit: unit, Values: v}.Build("dut")
			require.NoError(t, err)
			return stateBits(d)
		}
		ed, eh, eo := bits("vmshr-elastic")
		bd, bh, bo := bits("vmshr-base")
		m, dw := MSHRs, 8*NormalBlock
		if x, ok := v["m"]; ok {
			m = x
		}
		if x, ok := v["dw"]; ok {
			dw = x
		}
		require.Equal(t, m*dw, ed, "%v: elastic Data bits", v)
		require.Equal(t, ed, bd, "%v: equal Data bits", v)
		require.Equal(t, m*hbsWidth(HyperMax), eh, "%v: HBS flip-flops", v)
		require.Zero(t, bh, "%v: the base has no HBS", v)
		require.Equal(t, bo, eo, "%v: the rest of the state", v)
	}
}
