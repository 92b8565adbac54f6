package smm2d_test

import (
	"testing"

	_ "github.com/parmem/parmem/units/smm2d" // registers the smm2d family
	"github.com/parmem/parmem/verify"
)

// TestUnitsInLockstep runs every lockstep configuration the smm2d family
// registers (units/smm2d/register.go: every unit at (p, q) = (1, 2),
// (2, 2), (1, 3) with mb = nb = 10, both forms of m_v, the router both
// ways, the AGU and ATU at (2, 4) with mb = nb = 32) on the Go simulator,
// Verilator and Icarus.
func TestUnitsInLockstep(t *testing.T) {
	verify.LockstepFamily(t, "smm2d")
}
