package sams_test

import (
	"testing"

	_ "github.com/parmem/parmem/units/sams" // registers the SAMS family
	"github.com/parmem/parmem/verify"
)

// TestUnitsInLockstep runs every lockstep configuration the SAMS family
// registers (units/sams/register.go: every block at q = 2, 3, 4, the
// Table 4.2 measurement units, the Matched memory, the AGU and ATU at
// q = 5 and n = 23, 32, 64) on the Go simulator, Verilator and Icarus.
func TestUnitsInLockstep(t *testing.T) {
	verify.LockstepFamily(t, "sams")
}
