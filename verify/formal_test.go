package verify

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// Lockstep reports a property that fails as it does a mismatch: the
// cycle, what each simulator made of it (every one of them checks the
// properties: the Go simulator, compiled Go, and Verilator and Icarus on
// the Verilog's FORMAL wires), the last inputs and the waveforms, in the
// fast (hashed) mode as in the full one.
func TestLockstepReportsAFailedProperty(t *testing.T) {
	tools.Need(t, "verilator", "iverilog")
	d, err := hdl.Elaborate(counterDigit())
	require.NoError(t, err)
	backends := []Backend{GoBackend(d), GoCompiledBackend(d), VerilatorBackend(d, VerilatorOptions{Lint: true, Trace: true}), IcarusBackend(d)}
	cycle := uint64(0)
	for _, batch := range []int{0, 16} {
		_, err = Lockstep(Config{Backends: backends, Seed: 3, Cycles: 5000, Batch: batch, ReportDir: t.TempDir()})
		var mm *MismatchError
		require.ErrorAs(t, err, &mm)
		m := mm.M
		require.Regexp(t, `^lockstep: property failed at cycle \d+ \(counted after the initial reset\):\n`, m.Text())
		require.Regexp(t, `^assertion u.below_eight failed \(formal_test.go:\d+\): c stays below 8$`, m.Property)
		require.Len(t, m.Values, 4)
		for _, v := range m.Values {
			require.Equal(t, m.Property, v.Value, "%s stops at it", v.Sim)
		}
		if cycle == 0 {
			cycle = m.Cycle
		}
		require.Equal(t, cycle, m.Cycle, "the same cycle in both modes")
		require.Len(t, m.Waveforms, 3, "go, verilator and icarus")
		for _, path := range m.Waveforms {
			f, err := os.Open(path)
			require.NoError(t, err)
			w, err := vcd.Parse(f)
			f.Close()
			require.NoError(t, err, path)
			var c *vcd.Var
			for _, name := range w.Paths() {
				if strings.HasSuffix(name, "u.c") {
					c = w.Vars[name]
				}
			}
			require.NotNil(t, c, "%s has the counter: %v", path, w.Paths())
			require.Equal(t, "1000", c.At(10*(m.Cycle+1)), "%s shows c at 8 in the failing cycle", path)
		}
	}
}

// A property that fails in the Verilog alone (here a broken wire of the
// FORMAL section) stops the RTL simulator, and the report says the Go
// simulator ran the cycle without a failure.
func TestLockstepReportsAPropertyOnlyTheVerilogFails(t *testing.T) {
	tools.Need(t, "iverilog")
	d, err := hdl.Elaborate(counterDigit())
	require.NoError(t, err)
	good := string(d.Verilog())
	re := regexp.MustCompile(`(wire _assert_in_range = )[^;]*;`)
	require.Regexp(t, re, good)
	bad := re.ReplaceAllString(good, "${1}rst | (c != 4'd3);")
	icarus := func(bool) (Simulator, error) { return NewIcarusVerilog(d, []byte(bad)) }
	_, err = Lockstep(Config{Backends: []Backend{GoBackend(d), icarus}, Seed: 3, Cycles: 5000, NoReplay: true})
	var mm *MismatchError
	require.ErrorAs(t, err, &mm)
	require.Equal(t, []SimValue{{"go", "(no property fails)"}, {"icarus", mm.M.Property}}, mm.M.Values)
	require.Regexp(t, `^assertion u.in_range failed \(formal_test.go:\d+\): c stays a decimal digit$`, mm.M.Property)
}

// The cover counts of every simulator agree with the Go simulator's.
func TestEverySimulatorCountsTheCoverPoints(t *testing.T) {
	tools.Need(t, "verilator", "iverilog")
	m := hdl.NewModule("top")
	x := m.Input("x", 2)
	r := m.Reg("r", 2)
	r.Set(x)
	m.Cover(r.EqConst(3), "three")
	m.Cover(x.EqConst(0), "zero")
	m.Output("y", 2).Drive(r)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d), VerilatorBackend(d, VerilatorOptions{}), IcarusBackend(d)}, Seed: 5, Cycles: 3000})
	require.NoError(t, err)
	require.Len(t, res.Covers, 2)
	for _, c := range res.Covers {
		require.Greater(t, c.Hits, uint64(100), c.Name)
	}
	for _, s := range []func() (coverCounter, error){
		func() (coverCounter, error) { return NewVerilator(d, VerilatorOptions{}) },
		func() (coverCounter, error) { return NewIcarus(d) },
		func() (coverCounter, error) { return NewGoCompiled(d) },
	} {
		cc, err := s()
		require.NoError(t, err)
		sim := cc.(Simulator)
		require.NoError(t, Reset(sim))
		// rst, then x: 3 in two cycles, 0 in one.
		_, err = sim.Run([]Vector{{0, 3}, {0, 3}, {0, 0}, {1, 0}, {0, 1}})
		require.NoError(t, err)
		hits, err := cc.coverHits()
		require.NoError(t, err)
		require.Equal(t, []uint64{2, 1}, hits, sim.Name())
		require.NoError(t, sim.Close())
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
