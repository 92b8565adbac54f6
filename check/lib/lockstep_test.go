// Package lib checks the component library's units end to end.
package lib

import (
	"testing"

	_ "github.com/parmem/parmem/units/lib"
	"github.com/parmem/parmem/verify"
)

// TestUnitsInLockstep runs every registered lib configuration (FIFO depths
// 1, 2 and 5, a 100-bit FIFO, the arbiters, argmax, CAM, LRU, ...) packed
// under one top on the Go simulator, Verilator and Icarus in lockstep.
func TestUnitsInLockstep(t *testing.T) { verify.LockstepFamily(t, "lib") }
