package sim

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"

	"github.com/stretchr/testify/require"
)

// TestPropertiesSplitFromEval: compiled Go computes in Eval what the
// outputs and registers read, and in Properties exactly what only the
// properties read; a value both read stays in Eval, and one that a
// property and a register under an enable read is computed on every cycle.
// The compiled streams, which never check properties, drop them.
func TestPropertiesSplitFromEval(t *testing.T) {
	m := hdl.NewModule("props")
	x, y := m.Input("x", 8), m.Input("y", 8)
	e := m.Input("e", 1)
	sum := x.Add(y) // an output and a property read it
	m.Output("sum", 8).Drive(sum)
	diff := x.Sub(y) // a register under e and a property read it
	r := m.Reg("r", 8)
	r.Drive(diff)
	r.Enable(e)
	m.Output("r_q", 8).Drive(r)
	m.Assert(x.Mul(y).Trunc(8).Ne(m.ConstU(8, 3)), "product", "only the property reads the product")
	m.Assert(sum.Ne(m.ConstU(8, 0)), "sum", "")
	m.Cover(diff.Lt(m.ConstU(8, 200)), "diff")
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	sim := New(d)

	g := newGosrc(sim, &bytes.Buffer{})
	g.loadEnables()
	g.dropUnread()
	g.sinkIntoEnables()
	g.splitProperties()
	ops := func(prog []kernel.Instr) map[hdl.Op]int {
		n := map[hdl.Op]int{}
		for _, in := range prog {
			n[in.Op]++
		}
		return n
	}
	require.Equal(t, map[hdl.Op]int{hdl.OpMul: 1, hdl.OpSlice: 1, hdl.OpNe: 2, hdl.OpLt: 1}, ops(g.prog[g.propsFrom:]),
		"the product, its truncation and the three conditions")
	for _, run := range g.sunk {
		require.LessOrEqual(t, run.to, g.propsFrom)
		for _, in := range g.prog[run.from:run.to] {
			require.NotEqual(t, hdl.OpSub, in.Op, "x-y is read on every cycle, by the cover point")
		}
	}
	require.Contains(t, ops(g.prog[:g.propsFrom]), hdl.OpAdd)
	require.Contains(t, ops(g.prog[:g.propsFrom]), hdl.OpSub)

	src, err := sim.GoSource("main")
	require.NoError(t, err)
	called := func(fn string) string { // the bodies of the eval functions fn calls
		body := regexp.MustCompile(`(?s)func \(d \*Design\) ` + fn + `\(\) \{\n(.*?)\n\}`).FindSubmatch(src)
		require.NotNil(t, body, fn)
		var code strings.Builder
		for _, call := range regexp.MustCompile(`d\.(eval\d+)\(\)`).FindAllSubmatch(body[1], -1) {
			code.Write(regexp.MustCompile(`(?s)func \(d \*Design\) ` + string(call[1]) + `\(\) \{\n(.*?)\n\}`).FindSubmatch(src)[1])
		}
		return code.String()
	}
	require.NotContains(t, called("Eval"), " * ", "Eval multiplies")
	require.Contains(t, called("Properties"), " * ")

	streams, err := sim.GoStreamsSource("main", "parmemsim/vec")
	require.NoError(t, err)
	require.True(t, strings.Contains(string(streams), "vec.Sub("))
	require.False(t, strings.Contains(string(streams), "vec.Mul("), "the compiled streams multiply")
}
