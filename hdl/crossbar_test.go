package hdl_test

import (
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/stretchr/testify/require"
)

// TestCrossbarsScatter: compiled Go computes the eight banks' data and
// rows of a crossbar as two scatters of the eight sources, and the
// three-bank routing beside it, below minCrossbar, as one-hot
// multiplexers (verify's TestCompiledCrossbars checks the values).
func TestCrossbarsScatter(t *testing.T) {
	d, err := hdl.Elaborate(designs.Crossbar("xbar", 8, 3))
	require.NoError(t, err)
	src, err := hdl.NewSim(d).GoSource("main")
	require.NoError(t, err)
	require.Equal(t, 2, strings.Count(string(src), "var o [8]uint64"), "the data and the rows")
	require.Equal(t, 2*designs.CrossbarSources, strings.Count(string(src), "\t\to["), "a statement per source")
}
