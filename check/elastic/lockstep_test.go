// Package elastic checks the elastic pipeline family end to end: every
// unit in lockstep on Go, Verilator and Icarus, the blocks against the
// plain-Go models of their contracts, and the back ends under a
// scoreboard.
package elastic

import (
	"testing"

	_ "github.com/parmem/parmem/units/elastic"
	"github.com/parmem/parmem/verify"
)

// TestUnitsInLockstep runs every registered elastic configuration (each
// unit at its defaults and at least two others: the history cache at one
// and four sets, the pipes at one memory stage and without PREMEM) packed
// under one top on the Go simulator, Verilator and Icarus in lockstep.
func TestUnitsInLockstep(t *testing.T) { verify.LockstepFamily(t, "elastic") }
