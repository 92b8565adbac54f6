package sams_test

import (
	"testing"

	_ "github.com/parmem/parmem/units/sams" // registers the SAMS family
	"github.com/parmem/parmem/verify"
)

// TestUnitsInLockstep runs every lockstep configuration the SAMS family
// registers (units/sams/register.go: every block at q = 2, 3, the small
// ones at q = 4, the Table 4.2 measurement units, the Matched memory, the
// AGU at q = 5, the AGU and ATU at n = 23, 32, 64; with -verify.long, as
// make long runs it, also the large blocks at q = 4 and the ATU at q = 5)
// on the Go simulator, Verilator and Icarus.
func TestUnitsInLockstep(t *testing.T) {
	verify.LockstepFamily(t, "sams")
}
