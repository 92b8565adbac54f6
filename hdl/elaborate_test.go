package hdl_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/stretchr/testify/require"
)

// here returns the line it is called from, so a test can record where it
// makes a mistake on the very line that makes it.
func here() int {
	_, _, line, _ := runtime.Caller(1)
	return line
}

// wantError is one expected problem: its line in this file and words from
// its message.
type wantError struct {
	line  int
	words []string
}

// requireErrors checks that err holds exactly the expected problems, in any
// order, each at the right line of this file.
func requireErrors(t *testing.T, err error, want []wantError) {
	t.Helper()
	require.Error(t, err)
	got := hdl.Errors(err)
	var lines []string
	for _, e := range got {
		lines = append(lines, e.Error())
	}
	all := strings.Join(lines, "\n")
	require.Equalf(t, len(want), len(got), "problems reported:\n%s", all)
	for _, w := range want {
		found := false
		for _, e := range got {
			he, ok := e.(*hdl.Error)
			require.Truef(t, ok, "%v is an *hdl.Error", e)
			if he.Pos.File != "elaborate_test.go" || he.Pos.Line != w.line {
				continue
			}
			matches := true
			for _, word := range w.words {
				matches = matches && strings.Contains(he.Msg, word)
			}
			found = found || matches
		}
		require.Truef(t, found, "no problem at elaborate_test.go:%d mentioning %q among:\n%s", w.line, w.words, all)
	}
}

func TestElaborateReportsEveryProblemWithItsLine(t *testing.T) {
	var want []wantError
	expect := func(line int, words ...string) { want = append(want, wantError{line, words}) }

	sub := hdl.NewModule("pass")
	sub.Output("y", 8).Drive(sub.Input("a", 8))

	m := hdl.NewModule("broken")
	a, b := m.Input("a", 8), m.Input("b", 4)
	_, l := a.Add(b), here()
	expect(l, "Add", "widths differ", "8 and 4", "Zext")
	_, l = m.Output("never", 8), here()
	expect(l, "never driven", "never")
	_, l = m.Wire("floating", 3), here()
	expect(l, "never driven", "floating")
	twice := m.Output("twice", 8)
	twice.Drive(a)
	l = here()
	twice.Drive(a.Not())
	expect(l+1, "two drivers", "twice")
	_, l = m.Input("a", 2), here()
	expect(l, `"a" is already used`)
	_, l = m.Input("module", 1), here()
	expect(l, "keyword")
	_, l = m.Input("9lives", 1), here()
	expect(l, "must start with a letter")
	_, l = m.Input("x-y", 1), here()
	expect(l, "'-'")
	_, l = m.Input("_hidden", 1), here()
	expect(l, "reserved for generated names")
	_, l = m.Input("clk", 1), here()
	expect(l, "implicit clock or reset")
	_, l = a.Slice(9, 2), here()
	expect(l, "Slice [9:2]")
	_, l = a.Add(nil), here()
	expect(l, "operand 2 is a nil signal")
	_, l = a.Add(sub.Input("stray", 8)), here()
	expect(l, "belongs to module pass")
	_, l = hdl.Mux(a, a, a), here()
	expect(l, "Mux select is 8 bits, want 1")
	_, l = m.ConstU(4, 99), here()
	expect(l, "does not fit in 4 bits")
	_, l = m.Mem("unread", 2, 8), here()
	expect(l, "never written")
	expect(l, "never read")

	u, l := m.Instance("u", sub), here()
	expect(l, `input "stray" of module pass is not connected`)
	expect(l, `input "a" of module pass is not connected`)
	u.Connect("b", a)
	expect(here()-1, `no input "b"`)
	_, l = u.Out("z"), here()
	expect(l, `no output "z"`)

	// A loop through two wires, and a second one through the instance.
	w1, l := m.Wire("w1", 8), here()
	w2 := m.Wire("w2", 8)
	w1.Drive(w2.Add(a))
	w2.Drive(w1.Xor(a))
	expect(l, "combinational loop: w1 -> xor(elaborate_test.go", "-> w2 -> add(", "-> w1")
	v, l := m.Instance("v", sub), here()
	expect(l, `instance v: input "stray" of module pass is not connected`)
	loop, l := m.Wire("loop", 8), here()
	v.Connect("a", loop)
	loop.Drive(v.Out("y"))
	expect(l, "combinational loop: loop -> v.a -> v.y -> inst_out(", "-> loop")

	_, err := hdl.Elaborate(m)
	requireErrors(t, err, want)
	require.Contains(t, err.Error(), fmt.Sprintf("%d problems:", len(want)))
}

func TestElaborateReportsSelfLoopAndRecursion(t *testing.T) {
	m := hdl.NewModule("selfish")
	w, l := m.Wire("w", 1), here()
	w.Drive(w)
	m.Output("y", 1).Drive(w)
	r, rl := m.Instance("me", m), here()
	_ = r
	_, err := hdl.Elaborate(m)
	requireErrors(t, err, []wantError{
		{l, []string{"combinational loop: w -> w"}},
		{rl, []string{"module selfish contains itself"}},
	})
}

func TestElaborateRejectsTwoModulesWithOneName(t *testing.T) {
	a, l := hdl.NewModule("same"), here()
	a.Output("y", 1).Drive(a.ConstU(1, 1))
	b := hdl.NewModule("same")
	b.Output("y", 1).Drive(b.ConstU(1, 0))
	top := hdl.NewModule("top")
	top.Instance("ua", a)
	top.Instance("ub", b)
	_, err := hdl.Elaborate(top)
	require.Error(t, err)
	require.Contains(t, err.Error(), `two different modules are named "same"`)
	require.Contains(t, err.Error(), fmt.Sprintf("elaborate_test.go:%d", l))
}

func TestConstructionMistakesDoNotPanic(t *testing.T) {
	m := hdl.NewModule("m")
	var nilSig *hdl.Signal
	require.NotPanics(t, func() {
		nilSig.Add(nilSig)
		nilSig.Drive(nil)
		hdl.Concat()
		hdl.Select(nil)
		m.Reg("r", 0).Enable(nil)
		m.Input("i", -3).Repl(1 << 20)
		m.Input("j", 4).Zext(2)
		m.Input("k", 4).Trunc(9)
		m.Input("l", 4).Shl(-1)
		var mem *hdl.Mem
		mem.Read(nil)
		m.Mem("big", 99, 8)
		var inst *hdl.Instance
		inst.Out("x")
		m.Instance("n", nil)
	})
	_, err := hdl.Elaborate(m)
	require.Error(t, err)
	require.GreaterOrEqual(t, len(hdl.Errors(err)), 8)
}

// TestAdders counts the adders and subtractors that drive an output, by
// width, and leaves out one that drives nothing.
func TestAdders(t *testing.T) {
	m := hdl.NewModule("arith")
	a, b := m.Input("a", 8), m.Input("b", 8)
	c, e := m.Input("c", 4), m.Input("e", 4)
	m.Output("sum", 8).Drive(a.Add(b))
	m.Output("diff", 4).Drive(c.Sub(e).Add(e))
	_ = a.Sub(b) // drives nothing
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	require.Equal(t, map[int]int{8: 1, 4: 2}, d.Adders())
}

// TestComparators counts the magnitude comparators that drive an output
// by operand width, signed or not, and leaves out equalities and one that
// drives nothing.
func TestComparators(t *testing.T) {
	m := hdl.NewModule("cmp")
	a, b := m.Input("a", 8), m.Input("b", 8)
	c, e := m.Input("c", 3), m.Input("e", 3)
	m.Output("lt", 1).Drive(a.Lt(b).Or(a.GeS(b)))
	m.Output("gt", 1).Drive(c.Gt(e).And(c.Eq(e).Not()))
	_ = a.Le(b) // drives nothing
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	require.Equal(t, map[int]int{8: 2, 3: 1}, d.Comparators())
}
