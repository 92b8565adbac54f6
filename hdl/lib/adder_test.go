package lib_test

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/stretchr/testify/require"
)

// TestKoggeStoneAdd: the prefix adder is a + b modulo 2^w, exhaustively up
// to 5 bits and on random and carry-chain operands at 8, 32 and 64.
func TestKoggeStoneAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, w := range []int{1, 2, 3, 4, 5, 8, 32, 64} {
		m := hdl.NewModule("ks")
		m.Output("y", w).Drive(lib.KoggeStoneAdd(m.Input("a", w), m.Input("b", w)))
		d := newDUT(t, m)
		check := func(a, b uint64) {
			d.set("a", a)
			d.set("b", b)
			require.Equal(t, (a+b)&mask(w), d.get("y"), "w %d: %#x + %#x", w, a, b)
		}
		if w <= 5 {
			for a := range uint64(1) << w {
				for b := range uint64(1) << w {
					check(a, b)
				}
			}
			continue
		}
		check(mask(w), 1) // the carry runs the whole width
		for _, a := range patterns(r, w, 2000) {
			check(a, r.Uint64()&mask(w))
		}
	}
}
