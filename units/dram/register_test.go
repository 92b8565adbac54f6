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
	_, v, err := units.Config{Unit: "dram-sched", Values: units.Values{"wentries": 16}}.Resolve()
	require.NoError(t, err)
	require.Equal(t, [2]int{12, 10}, [2]int{v["hiwm"], v["lowm"]})
	_, v, err = units.Config{Unit: "dram-sched", Values: units.Values{"wentries": 2}}.Resolve()
	require.NoError(t, err)
	require.Equal(t, [2]int{1, 0}, [2]int{v["hiwm"], v["lowm"]})
}
