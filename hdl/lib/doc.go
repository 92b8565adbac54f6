// Package lib is parmem's component library: the queues, encoders,
// arbiters, selectors and replacement state that control-heavy blocks are
// made of, each in one file with the families that use it.
//
// Most components come in two forms. A function builds the logic inline,
// in the caller's module (Priority, RoundRobin, Argmax, NewAgeMatrix,
// TrueLRU, ...): registers it makes are named after the name it is given.
// A unit type (FIFO, Prio, RRArb, LRU, ...) builds a stand-alone module
// whose name carries its parameters (lib_fifo_d5_w8), so two parents that
// use the same component share one module; the lib family registers these
// units with gen (units/lib). Model.go holds each component's behaviour in
// plain Go, the reference the tests compare the hardware against.
// Temporal.go holds no hardware: helpers for the properties written most
// (OneHot, NeverBoth, WithinN, StableUntil, ...), built from ghost
// registers and immediate assertions.
//
// Widths follow ../contracts/lib.md: IW = IndexWidth(n) = max(1,
// ceil(log2 n)) bits index n things; a count up to n takes CountWidth(n)
// bits.
package lib

import (
	"math/bits"

	"github.com/parmem/parmem/hdl"
)

// IndexWidth is the width of an index over n things: max(1, ceil(log2 n)).
func IndexWidth(n int) int { return max(1, bits.Len(uint(n-1))) }

// CountWidth is the width of a count from 0 to n: bits to hold n.
func CountWidth(n int) int { return max(1, bits.Len(uint(n))) }

// plant returns s. The planted-bug tests (plant_test.go) set it to change
// one signal of a component, at one site each: the FIFO's not-full test
// ("fifo.not_full"), the round-robin pointer's next value
// ("rrarb.next_ptr") and the way an LRU touch makes the most recent
// ("lru.touch_way"); they show that a proof of the component's properties
// finds the bug. Left as it is, it changes neither the logic nor the
// Verilog.
var plant = func(site string, s *hdl.Signal) *hdl.Signal { return s }

// drivenBy drives the output port out with v and returns out.
func drivenBy(out, v *hdl.Signal) *hdl.Signal {
	out.Drive(v)
	return out
}

// Split returns the bits of s, bit 0 first.
func Split(s *hdl.Signal) []*hdl.Signal {
	out := make([]*hdl.Signal, s.Width())
	for i := range out {
		out[i] = s.Bit(i)
	}
	return out
}

// Bus joins bits into one signal, bits[0] the least significant (the
// inverse of Split).
func Bus(bits []*hdl.Signal) *hdl.Signal {
	msbFirst := make([]*hdl.Signal, len(bits))
	for i, b := range bits {
		msbFirst[len(bits)-1-i] = b
	}
	return hdl.Concat(msbFirst...)
}
