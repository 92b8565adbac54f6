package hdl_test

import (
	"testing"

	"github.com/parmem/parmem/hdl"
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
	s := hdl.NewSim(d)
	require.Equal(t, 4, s.Ops(), "the out-of-range Select, the XOR, the add and the compare")
	for _, v := range [][2]uint64{{3, 5}, {0x80, 0x7f}, {5, 9}} {
		require.NoError(t, s.SetU("x", v[0]))
		require.NoError(t, s.SetU("y", v[1]))
		want := map[string]uint64{"not5": 0xfa, "sum": 0xff, "mux": v[0], "sel": 5, "sel_out": 0,
			"twice": (v[0] ^ v[1]) * 2 & 0xff, "eq": map[bool]uint64{true: 1}[v[1] == 5]}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s with x=%#x y=%#x", name, v[0], v[1])
		}
	}
}
