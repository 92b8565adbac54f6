package sim

import (
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"

	"github.com/stretchr/testify/require"
)

// TestEvalFunctionsCutWhereFewValuesCross: an eval function ends within a
// quarter chunk of its size where the fewest of its results are read
// after the cut, not at the size itself; and never inside a sunk run.
func TestEvalFunctionsCutWhereFewValuesCross(t *testing.T) {
	m := hdl.NewModule("cuts")
	m.Output("y", 8).Drive(m.Input("x", 8))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := New(d)
	in := s.byName["x"]
	add := func(dst, a, b int32) kernel.Instr {
		return kernel.NarrowInstr(hdl.OpAdd, dst, []int32{a, b}, []int{8, 8}, 8, 0, -1, 0)
	}
	// prog[0:20] is a chain, each step reading the one before: one value
	// crosses a cut inside it, none the cut at 20. prog[20:30] are ten
	// values that prog[30:40] read pairwise: a cut at 24 would make four
	// of them cross.
	const base = 1000
	var prog []kernel.Instr
	prog = append(prog, add(base, in, in))
	for i := int32(1); i < 20; i++ {
		prog = append(prog, add(base+i, base+i-1, in))
	}
	for i := int32(20); i < 30; i++ {
		prog = append(prog, add(base+i, in, in))
	}
	for i := int32(30); i < 40; i++ {
		prog = append(prog, add(base+i, base+20+(i-30), base+20+(i-30+1)%10))
	}
	g := &gosrc{s: s, prog: prog, propsFrom: len(prog)}
	require.Equal(t, []int{0, 20}, g.cuts(24), "the chain's end, where nothing crosses")

	g.sunk = []sunkRun{{en: in, from: 15, to: 25}}
	require.Equal(t, []int{0, 25}, g.cuts(24), "not inside the sunk run: after it, the window's best outside it")
}
