package rsdmm

import (
	"errors"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// TestBadParameters: every unit's ranges as the contract gives them,
// including those that depend on another parameter (ab on lw and -hash),
// and parameters a unit lacks, are input errors naming the flag and its
// valid range (gen prints them as one line and exits with status 2).
func TestBadParameters(t *testing.T) {
	for _, c := range []struct {
		unit   string
		values units.Values
		want   string
	}{
		{"rsdmm-rsu", units.Values{"lw": 9}, "-lw=9 is out of range for unit rsdmm-rsu: valid 1..8"},
		{"rsdmm-rsu", units.Values{"ab": 21}, "-ab=21 is out of range for unit rsdmm-rsu: valid 6..20 (with -lw 5, -hash false)"},
		{"rsdmm-rsu", units.Values{"ab": 33, "hash": 1}, "-ab=33 is out of range for unit rsdmm-rsu: valid 6..32 (with -lw 5, -hash true)"},
		{"rsdmm-rsu", units.Values{"lw": 2, "ab": 2}, "-ab=2 is out of range for unit rsdmm-rsu: valid 3..20"},
		{"rsdmm-rsu", units.Values{"lanes": 257}, "-lanes=257 is out of range for unit rsdmm-rsu: valid 1..256"},
		{"rsdmm-rsu", units.Values{"seed": 1 << 32}, "-seed=4294967296 is out of range for unit rsdmm-rsu: valid 0..4294967295"},
		{"rsdmm-rpu", units.Values{"lw": 7}, "-lw=7 is out of range for unit rsdmm-rpu: valid 1..6"},
		{"rsdmm-rpu", units.Values{"s": 9}, "-s=9 is out of range for unit rsdmm-rpu: valid 1..8"},
		{"rsdmm-rpu", units.Values{"rb": 17}, "-rb=17 is out of range for unit rsdmm-rpu: valid 1..16"},
		{"rsdmm-rpu", units.Values{"shift": 1}, "unit rsdmm-rpu has no parameter -shift"},
		{"rsdmm", units.Values{"lw": 6}, "-lw=6 is out of range for unit rsdmm: valid 1..5"},
		{"rsdmm", units.Values{"s": 0}, "-s=0 is out of range for unit rsdmm: valid 1..8"},
		{"rsdmm", units.Values{"ab": 21}, "-ab=21 is out of range for unit rsdmm: valid 4..20 (with -lw 3)"},
		{"rsdmm", units.Values{"lw": 5, "ab": 5}, "-ab=5 is out of range for unit rsdmm: valid 6..20 (with -lw 5)"},
		{"rsdmm", units.Values{"dw": 65}, "-dw=65 is out of range for unit rsdmm: valid 1..64"},
		{"rsdmm", units.Values{"l": 33}, "-l=33 is out of range for unit rsdmm: valid 1..32"},
		{"rsdmm", units.Values{"shift": 3}, "-shift=3 is out of range for unit rsdmm: valid 0..2"},
		{"rsdmm", units.Values{"hash": 1}, "unit rsdmm has no parameter -hash (it has -lw, -s, -ab, -dw, -l, -shift, -seed, -allpairs)"},
		{"rsdmm", units.Values{"rb": 4}, "unit rsdmm has no parameter -rb"},
	} {
		_, _, err := units.Config{Unit: c.unit, Values: c.values}.Resolve()
		var in *units.InputError
		require.True(t, errors.As(err, &in), "%s %v: %v", c.unit, c.values, err)
		require.Contains(t, err.Error(), c.want)
	}
	// The contract's s*w <= 512 is the ranges' product: the largest
	// configuration, lw 6 and s 8, is valid.
	_, _, err := units.Config{Unit: "rsdmm-rpu", Values: units.Values{"lw": 6, "s": 8}}.Resolve()
	require.NoError(t, err)
}
