package vmshr

import (
	"testing"

	_ "github.com/parmem/parmem/units/vmshr" // registers the family
	"github.com/parmem/parmem/verify"
)

// BenchmarkSpeed times the family's largest designs on every simulator
// (make bench): the Go interpreter, compiled Go, Verilator and Icarus.
func BenchmarkSpeed(b *testing.B) { verify.SpeedFamily(b, "vmshr") }
