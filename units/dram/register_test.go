package dram

import (
	"errors"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// TestBadParameters: values out of their ranges, including the ranges
// that depend on other parameters (hiwm on wentries, lowm on hiwm, bgbits
// on bankbits), are input errors naming the flag and its valid range.
func TestBadParameters(t *testing.T) {
	for _, c := range []struct {
		unit   string
		values units.Values
		want   string
	}{
		{"dram-sched", units.Values{"hiwm": 200}, "-hiwm=200 is out of range for unit dram-sched: valid 1..128 (with -wentries 128)"},
		{"dram-sched", units.Values{"wentries": 64, "hiwm": 65}, "-hiwm=65 is out of range for unit dram-sched: valid 1..64"},
		{"dram-sched", units.Values{"lowm": 96}, "-lowm=96 is out of range for unit dram-sched: valid 0..95"},
		{"dram-cmdq", units.Values{"bankbits": 2, "bgbits": 3}, "-bgbits=3 is out of range for unit dram-cmdq: valid 0..2 (with -bankbits 2)"},
		{"dram-cmdq", units.Values{"tburst": 64}, "-tburst=64 is out of range for unit dram-cmdq: valid 1..63"},
		{"dram-pick", units.Values{"entries": 129}, "-entries=129 is out of range for unit dram-pick: valid 2..128"},
		{"dram-l2mib", units.Values{"merges": 1}, "-merges=1 is out of range for unit dram-l2mib: valid 2..256"},
		{"dram-mib", units.Values{"agebits": 33}, "-agebits=33 is out of range for unit dram-mib: valid 1..32"},
	} {
		_, _, err := units.Config{Unit: c.unit, Values: c.values}.Resolve()
		var in *units.InputError
		require.True(t, errors.As(err, &in), "%s %v: %v", c.unit, c.values, err)
		require.Contains(t, err.Error(), c.want)
	}
	// The watermarks' defaults follow a smaller write queue.
	_, v, err := units.Config{Unit: "dram-sched", Values: units.Values{"wentries": 16}}.Resolve()
	require.NoError(t, err)
	require.Equal(t, [2]int{12, 10}, [2]int{v["hiwm"], v["lowm"]})
	_, v, err = units.Config{Unit: "dram-sched", Values: units.Values{"wentries": 2}}.Resolve()
	require.NoError(t, err)
	require.Equal(t, [2]int{1, 0}, [2]int{v["hiwm"], v["lowm"]})
}
