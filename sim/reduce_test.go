package sim_test

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// TestReductionsOfConcatenationsAreTrees: an OR, AND or XOR reduction of
// a concatenation of more than 32 bits that only reductions read is a
// tree over the concatenation's operands (and those of a concatenation
// among them): no value is wider than the widest operand, so a design
// whose values are wider than 32 bits only there runs sixteen streams a
// vector; every output keeps its value (checked against math/bits on
// random inputs). An AND over operands of different widths keeps its
// concatenation.
func TestReductionsOfConcatenationsAreTrees(t *testing.T) {
	bus := func(name string, kept bool) *hdl.Module {
		m := hdl.NewModule(name)
		a, b, c := m.Input("a", 32), m.Input("b", 32), m.Input("c", 3)
		var lanes []*hdl.Signal
		for i := range 32 {
			lanes = append(lanes, a.Bit(i).And(b.Bit(31-i)))
		}
		hits := hdl.Concat(lanes...) // 32 bits, as 32 operands
		words := hdl.Concat(a, b, c) // 67 bits: a wide concatenation
		m.Output("any", 1).Drive(hdl.Concat(hits, c).RedOr())
		m.Output("all", 1).Drive(hdl.Concat(lanes[0], lanes[5], a.Bit(7), b.Bit(9), c.Bit(2)).RedAnd())
		m.Output("odd", 1).Drive(words.RedXor())
		m.Output("some", 1).Drive(words.RedOr())
		m.Output("every", 1).Drive(hdl.Concat(a, b).RedAnd())
		if kept {
			m.Output("mixed", 1).Drive(hdl.Concat(a, c).RedAnd()) // operands of 32 and 3 bits
		}
		return m
	}
	d, err := hdl.Elaborate(bus("bus", false))
	require.NoError(t, err)
	s := sim.New(d)
	require.Equal(t, 32, s.StreamLaneBits(), "no value over 32 bits")
	// 65 slices and 32 ANDs; any: an OR tree of 33 operands (32 ORs) and
	// a reduction; all: its concatenation of 5 bits and a reduction; odd
	// and some: a tree over a, b and c (two operations) and a reduction
	// each; every: one AND and a reduction.
	require.Equal(t, 65+32+33+2+3+3+2, s.Ops())
	withMixed, err := hdl.Elaborate(bus("bus_kept", true))
	require.NoError(t, err)
	require.Equal(t, 64, sim.New(withMixed).StreamLaneBits(), "the 35-bit concatenation of a and c stays")

	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a, b, c := r.Uint64()&0xffffffff, r.Uint64()&0xffffffff, r.Uint64()&7
		switch r.IntN(4) { // reductions of all ones need inputs of all ones
		case 0:
			a, b, c = 0xffffffff, 0xffffffff, 7
		case 1:
			a, b = 0, 0
		}
		hits := a & uint64(bits.Reverse32(uint32(b))) // bit i: a[i] & b[31-i]
		lane := func(i int) uint64 { return (a >> i) & (b >> (31 - i)) & 1 }
		one := func(x bool) uint64 { return map[bool]uint64{true: 1}[x] }
		requireOutputs(t, s, map[string]uint64{"a": a, "b": b, "c": c}, map[string]uint64{
			"any":   one(hits != 0 || c != 0),
			"all":   lane(0) & lane(5) & (a >> 7) & (b >> 9) & (c >> 2) & 1,
			"odd":   uint64(bits.OnesCount64(a)+bits.OnesCount64(b)+bits.OnesCount64(c)) & 1,
			"some":  one(a|b|c != 0),
			"every": one(a == 0xffffffff && b == 0xffffffff),
		})
	}
}
