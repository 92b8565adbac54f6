package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/internal/vcd"
	"github.com/stretchr/testify/require"
)

// counterDigit is a decimal digit counter in a sub-module, with an
// assertion that holds, two that fail (the second only on a trace that
// fails the first before), a cover point reached, one unreachable, and
// an assertion that needs more induction steps than a small bound allows.
func counterDigit() *hdl.Module {
	sub := hdl.NewModule("digit")
	en := sub.Input("en", 1)
	c := sub.Reg("c", 4)
	sub.If(en, func() {
		sub.If(c.EqConst(9), func() { c.SetU(0) }).Else(func() { c.Set(c.Add(sub.ConstU(4, 1))) })
	})
	sub.Assert(c.Le(sub.ConstU(4, 9)), "in_range", "c stays a decimal digit")
	sub.Assert(c.Le(sub.ConstU(4, 7)), "below_eight", "c stays below 8")
	sub.Assert(c.Le(sub.ConstU(4, 8)), "below_nine", "c stays below 9") // fails after below_eight
	sub.Cover(c.EqConst(5), "five")
	sub.Cover(c.EqConst(12), "twelve")
	sub.Output("q", 4).Drive(c)

	top := hdl.NewModule("top")
	go_ := top.Input("go", 1)
	u := top.Instance("u", sub)
	u.Connect("en", go_)
	q := u.Out("q")
	// slow counts up to 40 and stays: it never is 50, but from the
	// unreachable 41 it would be 9 steps later, so no induction shorter
	// than 10 steps shows it.
	slow := top.Reg("slow", 6)
	top.If(slow.Ne(top.ConstU(6, 40)), func() { slow.Set(slow.Add(top.ConstU(6, 1))) })
	top.Assert(slow.Ne(top.ConstU(6, 50)), "slow_never_50", "")
	top.Output("q", 4).Drive(q)
	return top
}

// Yosys proves what holds by k-induction, finds a counterexample for
// what fails, a trace to a reachable cover point, shows the unreachable
// one unreachable and leaves open what the bound cannot settle; the Go
// simulator replays the counterexample to the same assertion in the same
// cycle, and its waveform shows the failing value.
func TestProveProperties(t *testing.T) {
	tools.Need(t, "yosys")
	d, err := hdl.Elaborate(counterDigit())
	require.NoError(t, err)
	results, err := ProveProperties(d, ProveOptions{Depth: 12})
	require.NoError(t, err)
	got := map[string]PropertyResult{}
	for _, r := range results {
		got[r.Name] = r
	}
	require.Len(t, got, 6)
	require.Equal(t, Failed, got["u.below_nine"].Verdict)
	require.Len(t, got["u.below_nine"].Trace, 11, "reset, then nine counts")
	require.Equal(t, Proven, got["u.in_range"].Verdict)
	require.Equal(t, Reached, got["u.five"].Verdict)
	require.Equal(t, Unreachable, got["u.twelve"].Verdict, "with the proven in_range as a constraint")
	require.Equal(t, Proven, got["slow_never_50"].Verdict)
	require.Equal(t, 10, got["slow_never_50"].Steps, "10 steps show it")
	shallow, err := ProveProperties(d, ProveOptions{Depth: 8})
	require.NoError(t, err)
	require.Equal(t, "slow_never_50", shallow[0].Name, "the top's properties come first")
	require.Equal(t, Open, shallow[0].Verdict, "8 steps neither show it nor refute it")
	require.Equal(t, 8, shallow[0].Steps)

	fail := got["u.below_eight"]
	require.Equal(t, Failed, fail.Verdict)
	require.Len(t, fail.Trace, 10, "reset, then eight counts: c is 8 in the ninth cycle out of reset")
	require.Equal(t, uint64(1), fail.Trace[0][hdl.ResetName].Uint64())
	path := filepath.Join(t.TempDir(), "cex.vcd")
	s, err := Replay(d, fail.Trace, path)
	require.NoError(t, err)
	v := s.Violation()
	require.NotNil(t, v)
	require.Equal(t, "u.below_eight", v.Name)
	require.Equal(t, uint64(len(fail.Trace)-1), v.Cycle)

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	w, err := vcd.Parse(f)
	require.NoError(t, err)
	c := w.Vars["top.u.c"]
	require.NotNil(t, c, "the waveform has the sub-module's register: %v", w.Paths())
	require.Equal(t, "1000", c.At(10*v.Cycle), "and shows it at 8 in the failing cycle")
}

// Lockstep reports a property that fails in the Go simulator as it does a
// mismatch: the cycle, the property with its message and Go line, and the
// last inputs, in the fast (hashed) mode as in the full one.
func TestLockstepReportsAFailedProperty(t *testing.T) {
	d, err := hdl.Elaborate(counterDigit())
	require.NoError(t, err)
	for _, batch := range []int{0, 16} {
		_, err = Lockstep(Config{Backends: []Backend{GoBackend(d)}, Seed: 3, Cycles: 5000, Batch: batch})
		require.Error(t, err)
		require.Regexp(t, `^lockstep: cycle \d+: go: assertion u.below_eight failed \(formal_test.go:\d+\): c stays below 8\nlast inputs:\n`, err.Error())
	}
}

// A counterexample's inputs of more than 32 bits come from the binary
// column of Yosys's table (it prints -- as their decimal and hex).
func TestProveReadsWideInputs(t *testing.T) {
	tools.Need(t, "yosys")
	m := hdl.NewModule("wide")
	a := m.Input("a", 40)
	m.Assert(a.Ne(m.ConstU(40, 0xab_1234_5678)), "not_the_key", "")
	m.Output("y", 1).Drive(a.RedXor())
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	results, err := ProveProperties(d, ProveOptions{})
	require.NoError(t, err)
	require.Equal(t, Failed, results[0].Verdict)
	require.Equal(t, uint64(0xab_1234_5678), results[0].Trace[0]["a"].Uint64())
}
