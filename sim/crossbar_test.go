package sim_test

import (
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// TestCrossbarsScatter: compiled Go computes the eight banks' data and
// rows of a crossbar as two scatters of the eight sources, and the
// three-bank routing beside it, below minCrossbar, as one-hot
// multiplexers (verify's TestCompiledCrossbars checks the values).
func TestCrossbarsScatter(t *testing.T) {
	src := crossbarSource(t)
	require.Equal(t, 2, strings.Count(src, "var o [8]uint64"), "the data and the rows")
	require.Equal(t, 2*designs.CrossbarSources, strings.Count(src, "\t\to["), "a statement per source")
}

// TestBusReductionsReadTheBits: the OR and AND reductions of a bus of
// single bits (each bank's en_b, all_valid) read the bits rather than pack
// them into a word and compare it; no reduction compares a word (verify's
// TestCompiledCrossbars checks the values).
func TestBusReductionsReadTheBits(t *testing.T) {
	eval, _, _ := strings.Cut(crossbarSource(t), "func (d *Design) Step()")
	require.NotContains(t, eval, "!= 0)", "an OR reduction of a word")
	require.NotContains(t, eval, "<<1 |", "a bus packed into a word")
	require.Contains(t, eval, "] = st[4] & st[8] & st[12] & st[16] & st[20] & st[24] & st[28]\n", "all_valid, without valid0's constant 1")
}

// crossbarSource is the compiled Go of designs.Crossbar with 8 and 3 banks.
func crossbarSource(t *testing.T) string {
	d, err := hdl.Elaborate(designs.Crossbar("xbar", 8, 3))
	require.NoError(t, err)
	src, err := sim.New(d).GoSource("main")
	require.NoError(t, err)
	return string(src)
}

// TestPriorityCrossbarsScatter: compiled Go computes designs.PriorityCrossbar's
// three groups of eight one-hot multiplexers over arbiter grants as three
// priority scatters, each source writing its entry (or the unread half) in
// order of rising priority, and keeps none of the arbiters' ripple chains
// (verify's TestCompiledPriorityCrossbars checks the values).
func TestPriorityCrossbarsScatter(t *testing.T) {
	d, err := hdl.Elaborate(designs.PriorityCrossbar("pxbar"))
	require.NoError(t, err)
	src, err := sim.New(d).GoSource("main")
	require.NoError(t, err)
	eval, _, _ := strings.Cut(string(src), "func (d *Design) Step()")
	require.Equal(t, 3, strings.Count(eval, "var o [16]uint64 // entries 8 on: the sources not routed"), "first_b, last_b*_s0, last_b*_s1")
	// Every source writes once per scatter; source 0 (always valid) of
	// first_b writes its entry unconditionally, and last, as the winner.
	require.Equal(t, 3*designs.CrossbarSources, strings.Count(eval, "\t\to["), "a statement per source")
	require.Regexp(t, `o\[st\[\d+\]&0x7\] = st\[\d+\]\n\t\tst\[`, eval, "source 0 of first_b, unconditional and last")
	require.NotContains(t, eval, " | ", "an arbiter's chain of ORs")
	// A design with a priority crossbar keeps the interpreter's state
	// numbering (compactState).
	sm := sim.New(d)
	_, slot, err := sm.GoSourceSlots("main")
	require.NoError(t, err)
	for _, name := range []string{"valid1", "data7", "first_b3", "last_b7_s1"} {
		require.Equal(t, sm.StateSlot(name), slot(name), name)
	}
}
