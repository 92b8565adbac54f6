package main

import (
	"io"
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
