package hdl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSuperinstructions: a NOT or an equality that only an AND reads is
// fused into it in the interpreter's program; one the user named, one
// read twice (the same equality made twice is one operation) or one a
// register loads stays; every output and name keeps its value.
func TestSuperinstructions(t *testing.T) {
	m := NewModule("fuse")
	x, y := m.Input("x", 3), m.Input("y", 3)
	c, d := m.Input("c", 1), m.Input("d", 1)
	m.Output("and_not", 1).Drive(c.And(d.Not()))              // fused
	m.Output("and_eq", 1).Drive(c.And(x.Eq(m.ConstU(3, 5))))  // fused
	m.Output("and_named", 1).Drive(d.And(x.Eq(y).Named("e"))) // stays: named
	twice := x.Eq(y.Not())
	m.Output("twice_a", 1).Drive(c.And(twice)) // stays: read twice
	m.Output("twice_b", 1).Drive(d.And(twice))
	loaded := x.Eq(m.ConstU(3, 6))
	m.Output("and_loaded", 1).Drive(c.And(loaded)) // stays: a register loads it
	r := m.Reg("r", 1)
	r.Drive(loaded)
	m.Output("r_out", 1).Drive(r)
	// A chain of ANDs, fused and not, that each read the one before: one
	// stretch that must keep its order.
	first := c.And(y.Eq(m.ConstU(3, 2)))
	m.Output("chain", 1).Drive(first.And(x.Bit(0).Not()).And(d))
	dsn, err := Elaborate(m)
	require.NoError(t, err)
	s := NewSim(dsn)
	count := func(op kind) (n int) {
		for _, r := range s.runs {
			if r.op == op {
				n += int(r.hi - r.lo)
			}
		}
		return n
	}
	require.Equal(t, 2, count(opAndNot))
	require.Equal(t, 2, count(opAndEq))
	require.Equal(t, len(s.prog)-4, len(s.code), "the fused NOTs and equalities cost no instruction of their own")
	for v := range uint64(1 << 8) {
		in := map[string]uint64{"x": v & 7, "y": v >> 3 & 7, "c": v >> 6 & 1, "d": v >> 7}
		for name, val := range in {
			require.NoError(t, s.SetU(name, val))
		}
		eq := map[bool]uint64{true: 1}[in["x"] == in["y"]]
		eqNot := map[bool]uint64{true: 1}[in["x"] == ^in["y"]&7]
		is := func(b bool) uint64 { return map[bool]uint64{true: 1}[b] }
		want := map[string]uint64{"and_not": in["c"] &^ in["d"], "and_eq": in["c"] & is(in["x"] == 5), "and_named": in["d"] & eq, "e": eq,
			"twice_a": in["c"] & eqNot, "twice_b": in["d"] & eqNot, "and_loaded": in["c"] & is(in["x"] == 6),
			"chain": in["c"] & is(in["y"] == 2) &^ (in["x"] & 1) & in["d"]}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s at %#x", name, v)
		}
		s.Step()
		got, err := s.GetU("r_out")
		require.NoError(t, err)
		require.Equalf(t, is(in["x"] == 6), got, "r_out at %#x", v)
	}
}
