package lib_test

import (
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/stretchr/testify/require"
)

// A Decoder multiplexer on a 3-bit index: values 0, 2 and 6 pick a,
// values 1 and 7 pick b, 3 picks c and the rest 0; every index and a
// spread of inputs against the table.
func TestDecoderPicksAndMerges(t *testing.T) {
	m := hdl.NewModule("dec")
	idx, a, b, c := m.Input("idx", 3), m.Input("a", 4), m.Input("b", 4), m.Input("c", 4)
	d := lib.NewDecoder(idx)
	require.Equal(t, 8, d.Values())
	out := d.Pick(m.ConstU(4, 0), func(v int) *hdl.Signal {
		switch v {
		case 0, 2, 6:
			return a
		case 1, 7:
			return b
		case 3:
			return c
		}
		return nil
	})
	m.Output("out", 4).Drive(out)
	m.Output("any", 1).Drive(d.Any([]int{1, 7}))
	m.Output("all", 4).Drive(d.Pick(m.ConstU(4, 0), func(int) *hdl.Signal { return c }))
	u := newDUT(t, m)
	for v := range uint64(8) {
		for _, in := range [][3]uint64{{1, 2, 4}, {15, 0, 9}, {6, 11, 3}} {
			u.set("idx", v)
			u.set("a", in[0])
			u.set("b", in[1])
			u.set("c", in[2])
			u.s.Eval()
			want := map[uint64]uint64{0: in[0], 2: in[0], 6: in[0], 1: in[1], 7: in[1], 3: in[2]}[v]
			require.Equal(t, want, u.get("out"), "idx %d", v)
			require.Equal(t, b2u(v == 1 || v == 7), u.get("any"), "idx %d", v)
			require.Equal(t, in[2], u.get("all"), "a choice of every value is that signal")
		}
	}
}
