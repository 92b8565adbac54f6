package rsdmm

import (
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// The contract's s*w <= 512 is the ranges' product: the largest request
// packing unit, lw 6 and s 8, is valid. (Every unit's ranges are tested
// from their declarations in gen.)
func TestLargestRPUIsValid(t *testing.T) {
	_, _, err := units.Config{Unit: "rsdmm-rpu", Values: units.Values{"lw": 6, "s": 8}}.Resolve()
	require.NoError(t, err)
}
