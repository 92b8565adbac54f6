package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parmem/parmem/internal/tools"
	"github.com/stretchr/testify/require"
)

// gen -prove proves a unit's properties on its Verilog and says how each
// was settled; a cover point's trace is replayed in the Go simulator and
// written as a waveform.
func TestProve(t *testing.T) {
	tools.Need(t, "yosys")
	dir := t.TempDir()
	code, out, errs := runGen("-unit", "lib-fifo", "-depth", "3", "-width", "4", "-prove", "-vcd", dir)
	require.Equal(t, 0, code, errs)
	require.Regexp(t, `count_le_depth +│ assert +│ proven +│ k-induction, k = \d+`, out)
	require.Regexp(t, `full +│ cover +│ reached +│ trace of \d+ cycles`, out)
	require.Contains(t, out, "The Go simulator reaches it on this trace too")
	require.Contains(t, errs, "gen: 1/", "progress on stderr, one line a property")
	_, err := os.Stat(filepath.Join(dir, "full.vcd"))
	require.NoError(t, err)
}

// gen -prove's bad input: one line, exit 2, nothing on stdout.
func TestProveBadInput(t *testing.T) {
	withZZ(t) // zz-test states no properties
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-unit", "lib-fifo", "-prove", "-bound", "0"}, "gen: -bound=0 is out of range: 1 to 1000 time steps\n"},
		{[]string{"-unit", "lib-fifo", "-bound", "5"}, "gen: -bound does not apply to gen -unit without -prove\n"},
		{[]string{"-unit", "lib-fifo", "-prove", "-portlist"}, "gen: -portlist and -prove are separate commands; give one\n"},
		{[]string{"-unit", "lib-fifo", "-prove", "-vcd", "/nonexistent/dir"}, "gen: -vcd /nonexistent/dir: not a directory\n"},
		{[]string{"-unit", "zz-test", "-prove"}, "gen: -prove: unit zz-test states no properties\n"},
	} {
		code, out, errs := runGen(c.args...)
		require.Equal(t, 2, code, "%v", c.args)
		require.Empty(t, out, "%v", c.args)
		require.Equal(t, c.want, errs, "%v", c.args)
	}
}
