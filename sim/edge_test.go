package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"

	"github.com/stretchr/testify/require"
)

// TestRegistersLoadOnTheirEnables: at a clock edge, registers sharing an
// enable (grouped, Sim.groupEnRegs), registers with one of their own, and
// wide registers (which skip the shadow when they hold) load their inputs
// exactly when their enable is set, all reading the values before the
// edge: a shift chain through all three kinds, on random enables, against
// a plain-Go model.
func TestRegistersLoadOnTheirEnables(t *testing.T) {
	m := hdl.NewModule("edges")
	x := m.Input("x", 70)
	a, b := m.Input("a", 1), m.Input("b", 1)
	wide := m.Reg("wide", 70) // on a
	wide.Drive(x)
	wide.Enable(a)
	g0 := m.Reg("g0", 8) // on a, with g1
	g0.Drive(wide.Slice(7, 0))
	g0.Enable(a)
	g1 := m.Reg("g1", 8)
	g1.Drive(g0)
	g1.Enable(a)
	alone := m.Reg("alone", 8) // on b alone
	alone.Drive(g1.Xor(wide.Slice(69, 62)))
	alone.Enable(b)
	back := m.Reg("back", 70) // on b: reads alone and the wide register
	back.Drive(wide.Xor(alone.Zext(70)))
	back.Enable(b)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	sim := New(d)
	require.Len(t, sim.enGroups, 1, "g0 and g1 share a: one group")
	require.Equal(t, 1, sim.enAlone, "alone's enable is its own among the one-word registers")

	type state struct {
		wide, back    [2]uint64
		g0, g1, alone uint64
	}
	var want state
	r := rand.New(rand.NewPCG(1, 2))
	for cycle := range 2000 {
		xw := [2]uint64{r.Uint64(), r.Uint64() & 0x3f}
		xv, err := hdl.FromWords(70, xw[:])
		require.NoError(t, err)
		av, bv := r.IntN(3) == 0, r.IntN(2) == 0
		require.NoError(t, sim.Set("x", xv))
		require.NoError(t, sim.SetU("a", kernel.FromBool(av)))
		require.NoError(t, sim.SetU("b", kernel.FromBool(bv)))
		sim.Step()
		next := want
		if av {
			next.wide, next.g0, next.g1 = xw, want.wide[0]&0xff, want.g0
		}
		if bv {
			next.alone = want.g1 ^ (want.wide[0]>>62|want.wide[1]<<2)&0xff
			next.back = [2]uint64{want.wide[0] ^ want.alone, want.wide[1]}
		}
		want = next
		for name, v := range map[string]uint64{"g0": want.g0, "g1": want.g1, "alone": want.alone} {
			got, err := sim.Peek(name)
			require.NoError(t, err)
			require.Equal(t, v, got.Uint64(), "%s after cycle %d", name, cycle)
		}
		for name, v := range map[string][2]uint64{"wide": want.wide, "back": want.back} {
			got, err := sim.Peek(name)
			require.NoError(t, err)
			require.Equal(t, v[:], got.Words(), "%s after cycle %d", name, cycle)
		}
	}
}

// TestPortWordsMoveEveryWord: PortWords puts every input word and gets
// every output word, narrow and wide ports alike, as PutWords and Words
// do port by port; the register behind an output sees the inputs put.
func TestPortWordsMoveEveryWord(t *testing.T) {
	m := hdl.NewModule("io")
	a, b := m.Input("a", 100), m.Input("b", 7)
	r := m.Reg("r", 7)
	r.Drive(b)
	m.Output("y", 100).Drive(a.Not())
	m.Output("z", 7).Drive(b.Xor(r))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := New(d)
	var ins []InputRef
	for _, name := range []string{"a", "b"} {
		in, err := s.Input(name)
		require.NoError(t, err)
		ins = append(ins, in)
	}
	var outs []SignalRef
	for _, name := range []string{"y", "r", "z"} {
		out, err := s.Signal(name)
		require.NoError(t, err)
		outs = append(outs, out)
	}
	io := s.PortWords(ins, outs)
	got := make([]uint64, 4)
	prev := uint64(0)
	for c := range uint64(50) {
		var bv uint64
		for k := range uint64(2) { // a second Put in the cycle changes the outputs again
			lo, hi := (2*c+k)*0x9e3779b97f4a7c15, (2*c+k)&(1<<36-1)
			bv = (2*c + k) * 5 & 127
			io.Put([]uint64{lo, hi, bv})
			io.Get(got)
			require.Equal(t, []uint64{^lo, ^hi & (1<<36 - 1), prev, bv ^ prev}, got, "cycle %d, put %d", c, k)
			for i, o := range outs {
				require.Equal(t, got[i+min(i, 1):][:len(s.Words(o))], s.Words(o), "output %d in cycle %d", i, c)
			}
		}
		s.Step()
		prev = bv
	}
}
