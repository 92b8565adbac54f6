package dram

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/verdict"
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
	keys := reportRuns.keys(Presets)
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

// The fidelity report's runs (findingRuns) are all the findings read, and
// the findings follow ours: planting MSHR-S+A's IPC at the thesis's
// +10.9% over FR-FCFS on every HIL skeleton turns that finding into
// "exact" or "matches", and planting a 10% loss into "differs".
func TestFindingsFollowTheRuns(t *testing.T) {
	e, err := evaluate(Workloads, 3000, findingRuns, &bytes.Buffer{})
	require.NoError(t, err)
	cs := e.findings()
	require.Len(t, cs, 34)
	hilIPC := func(cs []verdict.Claim) verdict.Claim {
		for _, c := range cs {
			if strings.HasPrefix(c.What, "IPC (Fig. 6.1), HIL") {
				return c
			}
		}
		t.Fatal("no HIL IPC finding")
		return verdict.Claim{}
	}
	plant := func(gain float64) verdict.Claim {
		for _, w := range e.members(HIL) {
			k := baseKey(w, MSHRSA)
			r := *e.runs[k] // the runs are shared (memo): plant into a copy
			r.Instructions = int64(math.Round(float64(e.base(w, FRFCFS).Instructions) * (1 + gain)))
			e.runs[k] = &r
		}
		return hilIPC(e.findings())
	}
	assert.Contains(t, []verdict.Verdict{verdict.Exact, verdict.Matches}, plant(0.109).Verdict)
	assert.Equal(t, verdict.Differs, plant(-0.1).Verdict)
	assert.Equal(t, "+10.9%", hilIPC(cs).Printed)
}
