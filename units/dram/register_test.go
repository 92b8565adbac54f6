package dram

import (
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// The write drain's watermarks default to fractions of the write queue
// (Table 5.1's 96 and 80 of 128), so a smaller queue keeps valid ones.
// (Every unit's ranges are tested from their declarations in gen.)
func TestWatermarkDefaultsFollowTheWriteQueue(t *testing.T) {
	for wentries, want := range map[int][2]int{16: {12, 10}, 2: {1, 0}} {
		_, v, err := units.Config{Unit: "dram-sched", Values: units.Values{"wentries": wentries}}.Resolve()
		require.NoError(t, err)
		b := units.Fill(v, (*SchedBlock).Params)
		require.Equal(t, want, [2]int{b.HiWM, b.LoWM}, "wentries %d", wentries)
	}
}
