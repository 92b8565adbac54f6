package dram

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Section 5.2's thresholds.
func TestEvaluationClassify(t *testing.T) {
	assert.Equal(t, Insensitive, Classify(0.19, 0.5))
	assert.Equal(t, HIL, Classify(0.21, 0.11))
	assert.Equal(t, LIL, Classify(0.21, 0.09))
}

// The skeletons land in their Table 5.2 class by section 5.2's rules: the
// model measures the memory sensitive ones sped up by more than 20% by
// perfect DRAM (Fig. 5.1) and the others not; the HIL ones with a merge
// length > 1 in more than 10% of the cycles (Fig. 5.2), the LIL ones in
// fewer.
func TestEvaluationPresetClasses(t *testing.T) {
	runs := presetRuns(t)
	e := &evaluation{workloads: Presets, runs: runs}
	for _, w := range Presets {
		t.Logf("%s: perfect-DRAM speedup %+.1f%%, merge length > 1 in %.1f%% of the cycles",
			w.Name, 100*e.perfectSpeedup(w.Name), 100*e.base(w.Name, FRFCFS).MergeShare())
		assert.Equal(t, w.Class, e.class(w.Name), w.Name)
	}
}

// The report runs every run once (the progress counts them: per skeleton
// perfect DRAM and the four policies at three depths, 13 runs; per memory
// sensitive one 12 more for the sweeps and 6 for the spread's seeds), and
// gives its seven tables; the findings table gives every finding a
// verdict.
func TestEvaluationReport(t *testing.T) {
	var progress bytes.Buffer
	tables, err := evaluationReport(Workloads, 3000, &progress)
	require.NoError(t, err)
	sensitive := 0
	for _, w := range Presets {
		if w.Class != Insensitive {
			sensitive++
		}
	}
	keys := reportKeys(Presets)
	runs := 13*len(Presets) + 18*sensitive
	assert.Len(t, keys, runs)
	assert.Contains(t, progress.String(), fmt.Sprintf("dram model: %d/%d jobs, ", runs, runs))
	require.Len(t, tables, 7)
	class, policies, choices, thesis, spread, latency, queue := tables[0], tables[1], tables[2], tables[3], tables[4], tables[5], tables[6]
	assert.Len(t, spread.Rows, 2) // HIL and LIL
	assert.Len(t, class.Rows, len(Presets))
	assert.Len(t, policies.Rows, len(Presets)*len(Policies))
	assert.Len(t, choices.Rows, len(Classes)*len(CmdQDepths)*len(Policies))
	assert.Len(t, latency.Rows, 2*len(SweepLatencies)) // HIL and LIL
	assert.Len(t, queue.Rows, 2*len(SweepQueues))
	assert.Len(t, thesis.Rows, 34)
	for _, tb := range tables {
		for _, r := range tb.Rows {
			assert.Len(t, r, len(tb.Header), tb.Title)
		}
	}
	verdicts := []string{"exact", "matches", "close", "direction only", "differs", "not reproduced"}
	for _, r := range thesis.Rows {
		assert.Contains(t, verdicts, r[5], r[1])
	}
	var text bytes.Buffer
	for _, tb := range tables {
		require.NoError(t, tb.Write(&text, "text"))
	}
}

// A report of one workload compares with the thesis for its class only;
// an unknown workload is an error.
func TestEvaluationReportSubset(t *testing.T) {
	tables, err := evaluationReport([]string{"kmn"}, 2000, &bytes.Buffer{})
	require.NoError(t, err)
	require.Len(t, tables[3].Rows, 2) // Fig. 6.3's number and its slowdown bound
	for _, r := range tables[3].Rows {
		assert.Contains(t, r[1], "insensitive")
	}
	_, err = evaluationReport([]string{"bfs", "nope"}, 2000, &bytes.Buffer{})
	assert.ErrorContains(t, err, "nope")
}
