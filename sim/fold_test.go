package sim_test

import (
	"fmt"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// TestBuildTimeFolding: operations on constants only, multiplexers and
// Selects with a constant select, and repeated operations cost no
// operation when the simulator runs, and every output keeps its value.
func TestBuildTimeFolding(t *testing.T) {
	m := hdl.NewModule("folds")
	x, y := m.Input("x", 8), m.Input("y", 8)
	five, one := m.ConstU(8, 5), m.ConstU(1, 1)
	m.Output("not5", 8).Drive(five.Not())                                // folded: 0xfa
	m.Output("sum", 8).Drive(five.Add(five.Not()))                       // folded: 0xff
	m.Output("mux", 8).Drive(hdl.Mux(one, x, y))                         // x
	m.Output("sel", 8).Drive(hdl.Select(m.ConstU(2, 2), x, y, five))     // 5
	m.Output("sel_out", 8).Drive(hdl.Select(m.ConstU(2, 3), x, y, five)) // 0: one operation
	m.Output("twice", 8).Drive(x.Xor(y).Add(x.Xor(y)))                   // one XOR, one add
	m.Output("eq", 1).Drive(hdl.Mux(one.Not(), x, y).Eq(five))           // y == 5: one compare
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	require.Equal(t, 4, s.Ops(), "the out-of-range Select, the XOR, the add and the compare")
	for _, v := range [][2]uint64{{3, 5}, {0x80, 0x7f}, {5, 9}} {
		requireOutputs(t, s, map[string]uint64{"x": v[0], "y": v[1]}, map[string]uint64{"not5": 0xfa, "sum": 0xff, "mux": v[0], "sel": 5, "sel_out": 0,
			"twice": (v[0] ^ v[1]) * 2 & 0xff, "eq": map[bool]uint64{true: 1}[v[1] == 5]})
	}
}

// TestEqualConstantsMerge: operations on equal constants made apart merge
// (one multiplexer for four lines that each load s ? 0 : d), except
// comparisons (two decoders of x == 3 stay two).
func TestEqualConstantsMerge(t *testing.T) {
	m := hdl.NewModule("constants")
	sel, d, x := m.Input("s", 1), m.Input("d", 8), m.Input("x", 4)
	for k := range 4 {
		m.Output(fmt.Sprintf("line%d", k), 8).Drive(hdl.Mux(sel, m.ConstU(8, 0), d))
	}
	m.Output("valid_hit", 1).Drive(x.Eq(m.ConstU(4, 3)))
	m.Output("age_hit", 1).Drive(x.Eq(m.ConstU(4, 3)))
	e, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(e)
	require.Equal(t, 3, s.Ops(), "one multiplexer, two compares")
	for _, v := range [][3]uint64{{0, 0x5a, 3}, {1, 0x5a, 2}, {1, 0xff, 3}} {
		line := map[bool]uint64{false: v[1]}[v[0] == 1]
		hit := map[bool]uint64{true: 1}[v[2] == 3]
		requireOutputs(t, s, map[string]uint64{"s": v[0], "d": v[1], "x": v[2]}, map[string]uint64{
			"line0": line, "line1": line, "line2": line, "line3": line, "valid_hit": hit, "age_hit": hit})
	}
}

// requireOutputs sets the inputs of s and checks the outputs it wants.
func requireOutputs(t *testing.T, s *sim.Sim, inputs, want map[string]uint64) {
	t.Helper()
	for name, v := range inputs {
		require.NoError(t, s.SetU(name, v))
	}
	for name, w := range want {
		got, err := s.GetU(name)
		require.NoError(t, err)
		require.Equalf(t, w, got, "%s with inputs %v", name, inputs)
	}
}

// TestIdentitiesCostNothing: an operation that passes an operand on
// (x | 0, x ^ 0, x & ones, x + 0, x - 0, a multiplexer of one operand
// twice) or gives a constant (x & 0, x | ones) costs no operation, while
// 0 - x, and an AND with a constant that is neither, still cost one; every
// output keeps its value.
func TestIdentitiesCostNothing(t *testing.T) {
	m := hdl.NewModule("identities")
	x, s := m.Input("x", 8), m.Input("s", 1)
	zero, ones, five := m.ConstU(8, 0), m.ConstU(8, 0xff), m.ConstU(8, 5)
	m.Output("or0", 8).Drive(zero.Or(x))
	m.Output("xor0", 8).Drive(x.Xor(zero))
	m.Output("and1", 8).Drive(x.And(ones))
	m.Output("add0", 8).Drive(zero.Add(x))
	m.Output("sub0", 8).Drive(x.Sub(zero))
	m.Output("mux", 8).Drive(hdl.Mux(s, x, x))
	m.Output("and0", 8).Drive(x.And(zero))
	m.Output("or1", 8).Drive(ones.Or(x))
	m.Output("neg", 8).Drive(zero.Sub(x))  // one operation
	m.Output("and5", 8).Drive(x.And(five)) // one operation
	m.Output("one_bit", 1).Drive(s.And(m.ConstU(1, 1)))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	sm := sim.New(d)
	require.Equal(t, 2, sm.Ops(), "0 - x and x & 5")
	for _, v := range [][2]uint64{{3, 0}, {0x80, 1}, {0xff, 1}} {
		requireOutputs(t, sm, map[string]uint64{"x": v[0], "s": v[1]}, map[string]uint64{"or0": v[0], "xor0": v[0], "and1": v[0], "add0": v[0], "sub0": v[0], "mux": v[0],
			"and0": 0, "or1": 0xff, "neg": -v[0] & 0xff, "and5": v[0] & 5, "one_bit": v[1]})
	}
}

// TestSlicesOfConcatenations: a slice that takes exactly one operand of a
// concatenation (through wires, and through a NOT, which costs one NOT)
// reads that operand, and the concatenation costs nothing once no reader
// is left; a slice across operands, or of part of one, stays a slice; a
// named concatenation (or one a named wire carries) is still computed,
// for Peek.
func TestSlicesOfConcatenations(t *testing.T) {
	m := hdl.NewModule("cats")
	a, b, c := m.Input("a", 3), m.Input("b", 5), m.Input("c", 1)
	packed := hdl.Concat(a, b, c) // a is bits 8..6, b 5..1, c 0
	m.Output("a_out", 3).Drive(packed.Slice(8, 6))
	m.Output("b_out", 5).Drive(packed.Slice(5, 1))
	m.Output("not_b", 5).Drive(packed.Not().Slice(5, 1))
	wired := m.Wire("wired", 9)
	wired.Drive(hdl.Concat(c, b, a))
	m.Output("c_out", 1).Drive(wired.Slice(8, 8))
	named := hdl.Concat(b, c).Named("named")
	m.Output("across", 2).Drive(named.Slice(1, 0))          // b's low bit and c: stays
	m.Output("part", 2).Drive(hdl.Concat(a, b).Slice(2, 1)) // part of b: stays
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	require.Equal(t, 6, s.Ops(), "the NOT of b, the wire's and the named concatenations, the slice of the named one, the last concatenation and its slice")
	for _, v := range [][3]uint64{{5, 0x13, 1}, {2, 0x0c, 0}, {7, 0x1f, 1}} {
		for i, name := range []string{"a", "b", "c"} {
			require.NoError(t, s.SetU(name, v[i]))
		}
		want := map[string]uint64{"a_out": v[0], "b_out": v[1], "c_out": v[2], "not_b": ^v[1] & 0x1f,
			"across": (v[1]&1)<<1 | v[2], "part": v[1] >> 1 & 3, "named": v[1]<<1 | v[2], "wired": v[2]<<8 | v[1]<<3 | v[0]}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s with a, b, c = %#x", name, v)
		}
	}
}
