package main

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// useCoverageDir points gen -report coverage at dir for the test.
func useCoverageDir(t *testing.T, dir string) {
	coverageDir = func() (string, error) { return dir, nil }
	t.Cleanup(func() { coverageDir = verify.CoverageDir })
}

// gen -report coverage sums up hand-made records per unit: each unit from
// the latest run of a pack that has it (lib-lru from the long pack, a day
// later), a point held by two units' configurations in both rows, a unit
// without cover points, and a unit no longer registered last; the rows in
// the registry's order, then the total, and under them each gap and the
// families whose packs have no record.
func TestCoverageReportSumsUpTheRecords(t *testing.T) {
	dir := t.TempDir()
	useCoverageDir(t, dir)
	day := func(d, h int) time.Time { return time.Date(2025, 3, d, h, 0, 0, 0, time.UTC) }
	for _, rec := range []verify.CoverageRecord{
		{Pack: "lib_units", Date: day(1, 10), Cycles: 5000,
			Configs: []units.Config{{Unit: "lib-fifo", Values: units.Values{"depth": 2}}, {Unit: "lib-lru", Values: units.Values{"ways": 2}},
				{Unit: "lib-fifo", Values: units.Values{"depth": 5}}},
			Points: []verify.CoverPoint{
				{Module: "lib_fifo_d2", Name: "full", Configs: []int{0}, Hits: 40},
				{Module: "lib_fifo_d2", Name: "head_wraps", Configs: []int{0}, Verdict: verify.CoverUnreachable},
				{Module: "lib_fifo_d5", Name: "full", Configs: []int{2}, Hits: 7},
				{Module: "lib_fifo_d5", Name: "push_refused", Configs: []int{2}, Verdict: verify.CoverGap, Why: "no answer within 5 s"},
				{Module: "lib_lru_w2", Name: "victim_0", Configs: []int{1}, Hits: 12},
				{Module: "lib_lru_w2", Name: "victim_1", Configs: []int{1}, Verdict: verify.CoverGap, Why: "a run older than lib-lru's last"},
				{Module: "lib_shared", Name: "busy", Configs: []int{0, 1}, Hits: 3},
			}},
		{Pack: "lib_units_long", Date: day(2, 8), Cycles: 20000,
			Configs: []units.Config{{Unit: "lib-lru", Values: units.Values{"ways": 8}}},
			Points: []verify.CoverPoint{
				{Module: "lib_lru_w8", Name: "victim_7", Configs: []int{0}, Verdict: verify.CoverGap, Why: "Yosys reaches victim_7 (trace of 9 cycles): the pack fails"},
			}},
		{Pack: "sams_units", Date: day(1, 9), Cycles: 3000,
			Configs: []units.Config{{Unit: "sams-agu"}, {Unit: "sams", Values: units.Values{"q": 2}}},
			Points:  []verify.CoverPoint{{Module: "sams_q2", Name: "response", Configs: []int{1}, Hits: 304}}},
		{Pack: "old_units", Date: day(1, 0), Cycles: 100,
			Configs: []units.Config{{Unit: "old-unit"}},
			Points:  []verify.CoverPoint{{Module: "old_unit", Name: "never", Configs: []int{0}, Verdict: verify.CoverUnreachable}}},
	} {
		require.NoError(t, verify.WriteCoverage(dir, rec))
	}

	code, out, errs := runGen("-report", "coverage", "-format", "csv")
	require.Equal(t, 0, code, errs)
	require.Empty(t, errs)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"unit", "family", "configurations", "cover points", "reached", "proven unreachable", "gaps", "fewest hits", "pack", "run (UTC)"},
		{"lib-fifo", "lib", "2", "5", "3", "1", "1", "3", "lib_units", "2025-03-01 10:00"},
		{"lib-lru", "lib", "1", "1", "0", "0", "1", "", "lib_units_long", "2025-03-02 08:00"},
		{"sams-agu", "sams", "1", "0", "0", "0", "0", "", "sams_units", "2025-03-01 09:00"},
		{"sams", "sams", "1", "1", "1", "0", "0", "304", "sams_units", "2025-03-01 09:00"},
		{"old-unit", "", "1", "1", "0", "1", "0", "", "old_units", "2025-03-01 00:00"},
		{"total", "", "6", "8", "4", "2", "2", "3", "4 packs", ""},
	}, rows)

	code, out, errs = runGen("-report", "coverage")
	require.Equal(t, 0, code, errs)
	for _, want := range []string{
		"gap: lib-fifo: lib_fifo_d5.push_refused in lib-fifo -depth 5: no answer within 5 s\n",
		"gap: lib-lru: lib_lru_w8.victim_7 in lib-lru -ways 8: Yosys reaches victim_7 (trace of 9 cycles): the pack fails\n",
	} {
		require.Contains(t, out, want)
	}
	require.Equal(t, 2, strings.Count(out, "\ngap: "), "the gaps of the runs shown, not lib-lru's in lib_units")
	require.Regexp(t, `\nNo run recorded of the packs of [a-z0-9, -]*\bdram\b[a-z0-9, -]* \(make test runs every pack\)\.\n`, out)
	require.NotRegexp(t, `No run recorded of the packs of .*\b(lib|sams)\b`, out)

	code, out, errs = runGen("-report", "coverage", "-format", "markdown")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "| lib-fifo ")
}

// With no record, gen -report coverage says what to run, with status 2
// and nothing on stdout; it takes no flag of the other reports.
func TestCoverageReportWithoutRecords(t *testing.T) {
	dir := t.TempDir()
	useCoverageDir(t, dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "gen: no lockstep pack has recorded its coverage in " + dir + ": run make test, or a family's pack (go test ./check/lib)\n"},
		{[]string{"-shard", "0/2"}, "gen: -shard does not apply to gen -report coverage\n"},
		{[]string{"-rounds", "2"}, "gen: -rounds does not apply to gen -report coverage\n"},
		{[]string{"-format", "svg"}, `gen: -format="svg" is not one of text, markdown, csv for gen -report` + "\n"},
	} {
		code, out, errs := runGen(append([]string{"-report", "coverage"}, c.args...)...)
		require.Equal(t, 2, code, "%v", c.args)
		require.Empty(t, out, "%v", c.args)
		require.Equal(t, c.want, errs, "%v", c.args)
	}
	require.NotContains(t, reg.ReportNames(), coverageReport, "no family may register a report gen -report coverage hides")
}
