package sim

import (
	"bytes"
	"testing"

	"github.com/parmem/parmem/hdl"

	"github.com/stretchr/testify/require"
)

// TestLoadsSinkIntoEnables: compiled Go turns a register that holds its
// value through a multiplexer into one that loads on the multiplexer's
// select, dropping the multiplexer unless something else reads it, and
// computes under a register's enable exactly the operations that only
// registers loading on that enable need.
func TestLoadsSinkIntoEnables(t *testing.T) {
	m := hdl.NewModule("sinks")
	x, y := m.Input("x", 8), m.Input("y", 8)
	s, e := m.Input("s", 1), m.Input("e", 1)

	held := m.Reg("held", 8) // held <= s ? (x+y)^y : held
	held.Drive(hdl.Mux(s, x.Add(y).Xor(y), held))
	kept := m.Reg("kept", 8) // the same, with its multiplexer read by an output
	keptMux := hdl.Mux(s, x.Sub(y), kept)
	kept.Drive(keptMux)
	m.Output("kept_next", 8).Drive(keptMux)
	inverted := m.Reg("inverted", 8) // holds on s = 1: not a load on s
	inverted.Drive(hdl.Mux(s, inverted, x.And(y)))

	shared := x.Or(y)              // read on every cycle (by every) and under e
	enabled := m.Reg("enabled", 8) // enabled <= (x|y) * y on e
	enabled.Drive(shared.Mul(y).Trunc(8))
	enabled.Enable(e)
	every := m.Reg("every", 8)
	every.Drive(shared.Not())
	for _, r := range []*hdl.Signal{held, kept, inverted, enabled, every} {
		m.Output(r.Name()+"_q", 8).Drive(r)
	}
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	sim := New(d)

	g := newGosrc(sim, &bytes.Buffer{})
	ops := len(g.prog)
	g.loadEnables()
	g.dropUnread()
	require.Equal(t, ops-1, len(g.prog), "held's multiplexer is dropped, kept's stays")
	enables := map[string]int32{}
	for _, name := range []string{"held", "kept", "inverted", "enabled", "every"} {
		for _, r := range g.regs {
			if r.slot == sim.byName[name] {
				enables[name] = r.en
			}
		}
	}
	slot := func(name string) int32 { return sim.byName[name] }
	require.Equal(t, map[string]int32{"held": slot("s"), "kept": slot("s"), "inverted": -1, "enabled": slot("e"), "every": -1}, enables)

	g.sinkIntoEnables()
	sunk := map[int32]int{}
	for _, run := range g.sunk {
		sunk[run.en] += run.to - run.from
		for _, in := range g.prog[run.from:run.to] {
			require.NotEqual(t, hdl.OpOr, in.Op, "x|y is read on every cycle")
		}
	}
	require.Equal(t, map[int32]int{slot("s"): 2, slot("e"): 2}, sunk, "s: the add and the XOR (not kept's subtract, which an output reads); e: the multiply and its truncation")
}
