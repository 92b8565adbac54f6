package dram

import (
	"bytes"
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

// The presets are what they stand for: the model measures hil and lil
// memory sensitive (perfect DRAM speeds them up by more than 20%, Fig.
// 5.1) and ins not; hil has a merge length > 1 in more than 10% of the
// cycles (Fig. 5.2), lil in fewer.
func TestEvaluationPresetClasses(t *testing.T) {
	runs := presetRuns(t)
	e := &evaluation{workloads: Presets, runs: runs}
	for _, w := range Presets {
		t.Logf("%s: perfect-DRAM speedup %+.1f%%, merge length > 1 in %.1f%% of the cycles",
			w.Name, 100*e.perfectSpeedup(w.Name), 100*e.base(w.Name, FRFCFS).MergeShare())
		assert.Equal(t, w.Class, e.class(w.Name), w.Name)
	}
}

// The report runs every run once (the progress counts them: 51 of the
// policies and sweeps, 24 more for the choice table's other depths), and
// gives its six tables; the findings table gives every finding a verdict.
func TestEvaluationReport(t *testing.T) {
	var progress bytes.Buffer
	tables, err := evaluationReport(Workloads, 3000, &progress)
	require.NoError(t, err)
	keys := reportKeys(Workloads)
	assert.Len(t, keys, 75)
	assert.Contains(t, progress.String(), "dram model: 75/75 jobs, ")
	require.Len(t, tables, 6)
	class, policies, choices, thesis, latency, queue := tables[0], tables[1], tables[2], tables[3], tables[4], tables[5]
	assert.Len(t, class.Rows, len(Workloads))
	assert.Len(t, policies.Rows, len(Workloads)*len(Policies))
	assert.Len(t, choices.Rows, len(Workloads)*len(CmdQDepths)*len(Policies))
	assert.Len(t, latency.Rows, len(Workloads)*len(SweepLatencies))
	assert.Len(t, queue.Rows, len(Workloads)*len(SweepQueues))
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
	tables, err := evaluationReport([]string{"ins"}, 2000, &bytes.Buffer{})
	require.NoError(t, err)
	require.Len(t, tables[3].Rows, 2) // Fig. 6.3's number and its slowdown bound
	for _, r := range tables[3].Rows {
		assert.Contains(t, r[1], "insensitive")
	}
	_, err = evaluationReport([]string{"hil", "nope"}, 2000, &bytes.Buffer{})
	assert.ErrorContains(t, err, "nope")
}
