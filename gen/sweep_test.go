package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/stretchr/testify/require"
)

// Every registered report can be sharded: listing its jobs (sweep.Plan,
// which runs none and hands the report zero results, as a shard has for
// other shards' jobs) does not fail, and every job's result can travel in
// a shard file (sweep.Map refuses a type gob would not carry whole).
func TestEveryReportListsItsJobs(t *testing.T) {
	for _, r := range reg.Reports() {
		t.Run(r.Name, func(t *testing.T) {
			start := time.Now()
			n, err := sweep.Plan(func(w io.Writer) error { _, err := r.Run(r.Params.Defaults(), w); return err })
			require.NoError(t, err)
			t.Logf("%d jobs, listed in %v", n, time.Since(start))
		})
	}
}

// A report run in three shards (-shard i/3 -o FILE) and merged (-merge)
// gives byte for byte the tables of one run; the shards show their
// progress on stderr, the merge runs nothing.
func TestShardedReportMergesToOneRun(t *testing.T) {
	args := []string{"-report", "rsdmm-patterns", "-rounds", "10"}
	code, one, errs := runGen(append(args, "-format", "markdown")...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, errs, "rsdmm-patterns: 36/36 jobs, ")
	dir := t.TempDir()
	var parts []string
	for i := range 3 {
		part := filepath.Join(dir, fmt.Sprintf("part_%d", i))
		code, out, errs := runGen(append(args, "-shard", fmt.Sprintf("%d/3", i), "-o", part)...)
		require.Equal(t, 0, code, errs)
		require.Empty(t, out)
		require.Contains(t, errs, fmt.Sprintf("rsdmm-patterns shard %d/3: 12/12 jobs, ", i))
		parts = append(parts, part)
	}
	code, merged, errs := runGen(append(args, "-format", "markdown", "-merge", strings.Join(parts, ","))...)
	require.Equal(t, 0, code, errs)
	require.Empty(t, errs, "nothing runs")
	require.Equal(t, one, merged)

	// Bad input: one line naming the flag, status 2, nothing written.
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(args, "-shard", "3/3"), `-shard="3/3" is not ` + sweep.ShardRange},
		{append(args, "-shard", "x"), `-shard="x" is not ` + sweep.ShardRange},
		{append(args, "-shard", "0/2", "-merge", parts[0]), "-shard and -merge are separate steps: run each shard with -shard i/N -o FILE, then merge the files with -merge"},
		{append(args, "-shard", "0/2", "-format", "csv"), "-format does not apply to -shard: a shard writes a file for -merge, which formats the tables"},
		{append(args, "-merge", parts[0]+","+parts[2]), "-merge: shard 1/3 is missing: 2 files given of 3"},
		{append(args, "-merge", strings.Join(append(parts, parts[1]), ",")), fmt.Sprintf("-merge: shard 1/3 is given twice: %s and %s", parts[1], parts[1])},
		{[]string{"-report", "rsdmm-patterns", "-merge", strings.Join(parts, ",")},
			fmt.Sprintf(`-merge: %s is a shard of "gen -report rsdmm-patterns -rounds 10", not of "gen -report rsdmm-patterns -rounds 10000"`, parts[0])},
		{[]string{"-unit", "sams", "-shard", "0/2"}, "-shard does not apply to gen -unit"},
		{append(args, "-shard", "0/2", "-results", out+".json"), "-results belongs to a whole run: it writes the results the run used, which a shard or a merge does not have"},
		{append(args, "-merge", strings.Join(parts, ","), "-results", out+".json"), "-results belongs to a whole run: it writes the results the run used, which a shard or a merge does not have"},
	} {
		code, stdout, errs := runGen(append(c.args, "-o", out)...)
		require.Equal(t, 2, code, "%v: %s", c.args, errs)
		require.Empty(t, stdout)
		require.Equal(t, "gen: "+c.want+"\n", errs, "%v", c.args)
		require.NoFileExists(t, out)
		require.NoFileExists(t, out+".json")
	}
}
