package smm2d

import (
	"io"
	"strconv"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/stretchr/testify/require"
)

// The declared storage of the memory is thesis Table 3.3's: the stride
// table 2^(p+q) * log2(M*N) bits and the routing information 2^(p+q) *
// (p+q) bits, at Fig. 3.12's configuration (144 and 24) and others.
func TestStorageIsTable33(t *testing.T) {
	tab, route := fig312.Table33()
	require.Equal(t, 8*18, tab, "Table 3.3 at Fig. 3.12: 8 * 18")
	require.Equal(t, 8*3, route, "Table 3.3 at Fig. 3.12: 8 * 3")
	ms := []Memory{fig312, {Geometry: Geometry{P: 2, Q: 2, MB: 8, NB: 8}, W: 16}, {Geometry: Geometry{P: 1, Q: 3, MB: 6, NB: 9}, W: 8}}
	var ds []design
	for _, p := range ms {
		ds = append(ds, memoryDesign(p))
	}
	decl, err := declare("storage", ds, io.Discard)
	require.NoError(t, err)
	for i, p := range ms {
		tab, route := p.Table33()
		require.Equal(t, tab, decl[i].Table, "%+v: stride table", p.Geometry)
		require.Equal(t, route, decl[i].Routing, "%+v: routing information", p.Geometry)
		require.Greater(t, decl[i].All, decl[i].storage())
	}
}

// The model's table: every supported pattern takes one cycle (the
// thesis's claim), and accesses of other strides take more.
func TestCyclesTableFromTheModel(t *testing.T) {
	tab := cyclesTable()
	require.Len(t, tab.Rows, len(Patterns))
	for i, row := range tab.Rows {
		require.Equal(t, Patterns[i].String(), row[0])
		require.Equal(t, "1.00", row[1], "%s: supported accesses take one cycle", row[0])
		unsupported, err := strconv.ParseFloat(row[2], 64)
		require.NoError(t, err)
		require.Greater(t, unsupported, 1.0, "%s: unsupported accesses split", row[0])
		worst, err := strconv.Atoi(row[3])
		require.NoError(t, err)
		require.LessOrEqual(t, worst, fig312.Lanes(), "at most L sub-accesses")
	}
}

// Every design the reports synthesize elaborates (the reports themselves
// run Yosys for minutes: gen -report smm2d, smm2d-scaling).
func TestReportDesignsBuild(t *testing.T) {
	g := fig312.Geometry
	big := scalingMemory(3, 3, 14, 16)
	require.Equal(t, 14, big.RW())
	ds := append([]design{atuDesign(g, true), memoryDesign(fig312), memoryDesign(big), memoryDesign(scalingMemory(1, 2, 17, 64))}, thesisPaths(g)...)
	ds = append(ds, unitDesigns(big)...)
	for _, d := range append(ds, unitDesigns(fig312)...) {
		_, err := hdl.Elaborate(d.build("dut"))
		require.NoError(t, err, d.label)
	}
}
