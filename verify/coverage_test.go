package verify

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// covCounter counts up while en is 1 and wraps after limit: it reaches
// at_limit, and never beyond (limit+3, which 4 bits hold).
type covCounter struct{ Limit int }

func (c *covCounter) params(d *units.Decl) {
	d.Int(&c.Limit, "limit", "the counter's last value", 9, 1, 12)
}

func (c covCounter) build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	en := m.Input("en", 1)
	n := m.Reg("n", 4)
	m.If(en, func() {
		m.If(n.EqConst(uint64(c.Limit)), func() { n.SetU(0) }).Else(func() { n.Set(n.Add(m.ConstU(4, 1))) })
	})
	m.Cover(n.EqConst(uint64(c.Limit)), "at_limit")
	m.Cover(n.EqConst(uint64(c.Limit+3)), "beyond")
	m.Output("q", 4).Drive(n)
	return m
}

// covPlain is a unit without cover points.
func covPlain(name string) *hdl.Module {
	m := hdl.NewModule(name)
	m.Output("y", 1).Drive(m.Input("a", 1).Not())
	return m
}

func init() {
	units.RegisterFamily(&units.Family{
		Name: "covtest", Doc: "verify's coverage record test",
		Units: []*units.Unit{
			units.NewUnit("covtest", "a counter with cover points", (*covCounter).params, covCounter.build),
			{Name: "covtest-plain", Doc: "an inverter without cover points", Build: func(_ units.Values, name string) (*hdl.Module, error) { return covPlain(name), nil }},
		},
		Lockstep: units.Lockstep{Cycles: 300, Configs: []units.Config{
			{Unit: "covtest", Values: units.Values{"limit": 5}},
			{Unit: "covtest-plain"},
			{Unit: "covtest", Values: units.Values{"limit": 9}},
		}},
	})
}

// A pack's run records its coverage: the configurations, each cover point
// with the configuration holding it and its hits, and the never-hit ones
// proven unreachable; ReadCoverage reads it back, and a second run
// replaces it whole.
func TestFamilyPackRecordsItsCoverage(t *testing.T) {
	tools.Need(t, "verilator", "iverilog", "yosys")
	dir := t.TempDir()
	coverageDir = func() (string, error) { return dir, nil }
	defer func() { coverageDir = CoverageDir }()
	for run := range 2 {
		start := time.Now()
		LockstepFamily(t, "covtest")
		recs, err := ReadCoverage(dir)
		require.NoError(t, err)
		require.Len(t, recs, 1, "run %d", run)
		rec := recs[0]
		require.Equal(t, "covtest_units", rec.Pack)
		require.Equal(t, 300, rec.Cycles)
		require.False(t, rec.Date.Before(start), "the record is of this run")
		require.Equal(t, []units.Config{
			{Unit: "covtest", Values: units.Values{"limit": 5}},
			{Unit: "covtest-plain"},
			{Unit: "covtest", Values: units.Values{"limit": 9}},
		}, rec.Configs)
		require.Len(t, rec.Points, 4)
		for i, want := range []CoverPoint{
			{Module: "covtest_limit5", Name: "at_limit", Configs: []int{0}},
			{Module: "covtest_limit5", Name: "beyond", Configs: []int{0}, Verdict: CoverUnreachable},
			{Module: "covtest_limit9", Name: "at_limit", Configs: []int{2}},
			{Module: "covtest_limit9", Name: "beyond", Configs: []int{2}, Verdict: CoverUnreachable},
		} {
			got := rec.Points[i]
			if want.Verdict == "" {
				require.Greater(t, got.Hits, uint64(0), "%s.%s is reached", got.Module, got.Name)
				require.Less(t, got.Hits, uint64(300))
				want.Hits = got.Hits
			}
			require.Equal(t, want, got)
		}
		files, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Len(t, files, 1, "no temporary file is left")
		require.Equal(t, "covtest_units.json", files[0].Name())
	}
}

// ReadCoverage reads nothing from a missing directory, and refuses a
// record that is not JSON or names another pack than its file.
func TestReadCoverageRefusesABadRecord(t *testing.T) {
	dir := t.TempDir()
	recs, err := ReadCoverage(filepath.Join(dir, "none"))
	require.NoError(t, err)
	require.Empty(t, recs)
	require.NoError(t, WriteCoverage(dir, CoverageRecord{Pack: "a_units"}))
	require.NoError(t, os.Rename(filepath.Join(dir, "a_units.json"), filepath.Join(dir, "b_units.json")))
	_, err = ReadCoverage(dir)
	require.ErrorContains(t, err, `b_units.json: the record of pack "a_units"`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b_units.json"), []byte("{"), 0o644))
	_, err = ReadCoverage(dir)
	require.ErrorContains(t, err, "b_units.json: unexpected end of JSON input")
}
