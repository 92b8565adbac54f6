// Package vmshr checks the elastic vector MSHR family end to end: every
// unit in lockstep on Go, Verilator and Icarus, the tag search and the
// MSHR files against their contracts in plain Go (units/vmshr's File)
// under random traffic, vmshr-elastic at hmax 0 against vmshr-base, and
// the cycle model's port traces replayed on vmshr-elastic.
package vmshr

import (
	"testing"

	_ "github.com/parmem/parmem/units/vmshr"
	"github.com/parmem/parmem/verify"
)

// TestUnitsInLockstep runs every registered vmshr configuration (each unit
// at its defaults and at small sizes whose few address bits make random
// blocks hit and cover one another; vmshr-elastic also at hmax 0 and 4)
// packed under one top on the Go simulator, Verilator and Icarus in
// lockstep.
func TestUnitsInLockstep(t *testing.T) {
	t.Parallel() // Verilator and Icarus run beside the Go benches
	verify.LockstepFamily(t, "vmshr")
}
