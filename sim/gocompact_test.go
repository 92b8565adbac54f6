package sim_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// TestCompiledStateHoldsOnlyNamedWords: compiled Go's state array of the
// 1,000-node random design holds the words its statements name, fewer
// than half the interpreter's (which the compiled streams keep); every
// index it names is inside the array, and GoSourceSlots gives each port
// the index the source's own slots table has (verify's compiled lockstep
// and fuzz tests check the values).
func TestCompiledStateHoldsOnlyNamedWords(t *testing.T) {
	d, err := hdl.Elaborate(designs.RandomComb("comb1000", 1000, 32, 1))
	require.NoError(t, err)
	sm := sim.New(d)
	src, slot, err := sm.GoSourceSlots("main")
	require.NoError(t, err)
	lanes, err := sm.GoStreamsSource("main", "parmemsim/vec16")
	require.NoError(t, err)
	size := func(src []byte, decl string) int {
		m := regexp.MustCompile(decl).FindSubmatch(src)
		require.NotNil(t, m, decl)
		n, err := strconv.Atoi(string(m[1]))
		require.NoError(t, err)
		return n
	}
	words, all := size(src, `\nvar st \[(\d+)\]uint64\n`), size(lanes, `\n\tst +\[(\d+)\]\[vec\.N\]vec\.Word\n`)
	require.Less(t, 2*words, all, "compiled state words against the interpreter's")
	for _, m := range regexp.MustCompile(`\bst\[(\d+)\]`).FindAllSubmatch(src, -1) {
		x, _ := strconv.Atoi(string(m[1]))
		require.Less(t, x, words)
	}
	entries := regexp.MustCompile(`\n\t"(\w+)": +(\d+),`).FindAllSubmatch(src, -1)
	require.NotEmpty(t, entries)
	for _, e := range entries {
		x, _ := strconv.Atoi(string(e[2]))
		require.Equal(t, x, slot(string(e[1])), "port %s", e[1])
	}
	require.Equal(t, -1, slot("no_such_port"))
}
