package hdl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// digit is a decimal digit counter with properties: one true inside an If
// (the counter wraps at 9), one false (it reaches 9), an assumption on
// its input and cover points, one of them unreachable.
func digit() *hdl.Module {
	m := hdl.NewModule("digit")
	en, hold := m.Input("en", 1), m.Input("hold", 1)
	c := m.Reg("c", 4)
	m.Assume(en.And(hold).Not(), "not_both")
	m.If(en, func() {
		m.If(c.EqConst(9), func() { c.SetU(0) }).Else(func() { c.Set(c.Add(m.ConstU(4, 1))) })
		m.Assert(c.Le(m.ConstU(4, 9)), "in_range", "c stays a decimal digit")
	})
	m.Assert(c.Le(m.ConstU(4, 8)), "below_nine", "c stays below 9")
	m.Cover(c.EqConst(9), "nine")
	m.Cover(c.EqConst(12), "twelve")
	m.Output("q", 4).Drive(c)
	return m
}

// The Go simulator checks every property before each clock edge out of
// reset: the first failure is kept with its cycle, name, message and Go
// line; cover points count the cycles that reach them; a stimulus that
// breaks an assumption is reported as such.
func TestPropertiesInSimulation(t *testing.T) {
	d, err := hdl.Elaborate(digit())
	require.NoError(t, err)
	s := sim.New(d)
	s.Reset()
	require.NoError(t, s.SetU("en", 1))
	for range 9 {
		s.Step()
	}
	require.Nil(t, s.Violation(), "c is 0..8 in cycles 1..9 (Reset is cycle 0)")
	s.Step()
	v := s.Violation()
	require.NotNil(t, v)
	require.Equal(t, uint64(10), v.Cycle, "c is 9 in cycle 10")
	require.Equal(t, "below_nine", v.Name)
	require.Regexp(t, `^cycle 10: assertion below_nine failed \(property_test.go:\d+\): c stays below 9$`, v.Error())
	for range 25 {
		s.Step()
	}
	require.Equal(t, "below_nine", s.Violation().Name, "the first failure is kept")
	hits := map[string]uint64{}
	for _, c := range s.Covers() {
		hits[c.Name] = c.Hits
	}
	require.Equal(t, map[string]uint64{"nine": 3, "twelve": 0}, hits, "c is 9 in cycles 10, 20 and 30")

	s = sim.New(d)
	s.Reset()
	require.NoError(t, s.SetU("en", 1))
	require.NoError(t, s.SetU("hold", 1))
	s.Step()
	require.Regexp(t, `^cycle 1: assumption not_both failed`, s.Violation().Error())

	s = sim.New(d)
	require.NoError(t, s.SetU("rst", 1))
	require.NoError(t, s.SetU("en", 1))
	for range 40 {
		s.Step()
	}
	require.Nil(t, s.Violation(), "nothing is checked in reset")
}

// Without FORMAL the Verilog is the hardware alone; under it, the
// properties, their path conditions and the logic only they read. Both
// forms pass Verilator's lint, and Icarus compiles the first.
func TestPropertiesInVerilog(t *testing.T) {
	m := digit()
	ghost := m.Reg("ghost", 4) // only a property reads it
	ghost.Set(ghost.Add(m.ConstU(4, 1)))
	m.Assert(ghost.Ne(m.ConstU(4, 15)).Or(ghost.EqConst(15)), "ghost_any", "")
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	v := string(d.Verilog())
	hardware, formal, ok := strings.Cut(v, "`ifdef FORMAL\n")
	require.True(t, ok)
	require.NotContains(t, hardware, "ghost", "ghost state is verification-only")
	require.Contains(t, formal, "reg [3:0] ghost;")
	require.Contains(t, formal, "wire _assert_in_range = rst | ")
	require.Contains(t, formal, "    assume (_assume_not_both);\n    assert (_assert_in_range);\n    assert (_assert_below_nine);\n")
	require.Contains(t, formal, "wire _cover_nine = ~rst & ")
	require.Empty(t, d.StateElements()[1:], "the ghost is no state of the hardware")
	require.Equal(t, []hdl.StateElement{{Path: "ghost", Width: 4}}, d.GhostState(), "but a bench that defines FORMAL zeroes it")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "digit.v"), d.Verilog(), 0o644))
	tools.LintClean(t, dir, "digit.v") // both forms
	tools.IverilogCompile(t, dir, os.DevNull, "digit.v")
}

// Property mistakes are errors at the caller's line.
// Stating properties renames no wire of the hardware: the Verilog
// without FORMAL is the same with or without them, the If bodies they sit
// in and the ghost logic they read.
func TestPropertiesRenameNoHardware(t *testing.T) {
	build := func(props bool) string {
		m := hdl.NewModule("digit")
		en := m.Input("en", 1)
		c := m.Reg("c", 4)
		if props {
			m.Assert(c.Le(m.ConstU(4, 9)), "in_range", "")
			ghost := m.Reg("ghost", 4)
			ghost.Set(ghost.Add(m.ConstU(4, 1)))
			m.Cover(ghost.EqConst(3).And(c.EqConst(2)), "three_two")
		}
		m.If(en, func() {
			if props {
				m.Assert(c.Ne(m.ConstU(4, 12)), "not_twelve", "")
			}
			m.If(c.EqConst(9), func() { c.SetU(0) }).Else(func() { c.Set(c.Add(m.ConstU(4, 1))) })
		})
		m.Output("q", 4).Drive(c.Add(m.ConstU(4, 3)))
		d, err := hdl.Elaborate(m)
		require.NoError(t, err)
		hardware, formal, _ := strings.Cut(string(d.Verilog()), "`ifdef FORMAL\n")
		_, after, _ := strings.Cut(formal, "`endif\n")
		return hardware + after
	}
	require.Equal(t, build(false), build(true))
}

func TestPropertyMistakes(t *testing.T) {
	m := hdl.NewModule("bad")
	x := m.Input("x", 2)
	m.Assert(x, "wide", "")                                   // bad: width
	m.Assert(x.RedOr(), "1st", "")                            // bad: name
	m.Cover(x.RedOr(), "twice")                               //
	m.Cover(x.RedAnd(), "twice")                              // bad: duplicate
	m.Assume(hdl.NewModule("other").Input("y", 1), "foreign") // bad: module
	_, err := hdl.Elaborate(m)
	require.Error(t, err)
	for _, want := range []string{
		`property_test.go:\d+: module bad: assert "wide" is 2 bits, want 1`,
		`property_test.go:\d+: module bad: assert "1st": `,
		`property_test.go:\d+: module bad: cover "twice": module bad already has a property of that name \(cover at property_test.go:\d+\)`,
		`property_test.go:\d+: module bad: assume "foreign" belongs to module other`,
	} {
		require.Regexp(t, want, err.Error())
	}
}
