package elastic

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claimAt is the one claim of cs at where whose What starts with what.
func claimAt(t *testing.T, cs []verdict.Claim, where, what string) verdict.Claim {
	t.Helper()
	var found []verdict.Claim
	for _, c := range cs {
		if c.Where == where && strings.HasPrefix(c.What, what) {
			found = append(found, c)
		}
	}
	require.Len(t, found, 1, "%s: %s", where, what)
	return found[0]
}

// planted is a copy of e with kernel name's run on setup s edited: the
// runs are shared by the tests, so the plant goes into copies.
func planted(e *Evaluation, name string, s int, edit func(r *Result)) *Evaluation {
	c := *e
	c.Conflicting = slices.Clone(e.Conflicting)
	i := slices.IndexFunc(c.Conflicting, func(k KernelResults) bool { return k.Kernel.Name == name })
	c.Conflicting[i].By = slices.Clone(c.Conflicting[i].By)
	edit(&c.Conflicting[i].By[s])
	return &c
}

// TestClaimsFollowTheRuns: the claims are made from the runs, so a wrong
// "ours" planted into a copy of a run changes that row's verdict: AES's
// bank stalls (decided: the model removes about 96%, the thesis keeps a
// large number; the row differs), IDCT's Fig. 5.10 bar and a kernel's
// Table 5.5 intensity.
func TestClaimsFollowTheRuns(t *testing.T) {
	e := evaluation(t)
	const aes, aesRow = "AES_encypt", "AES_encypt: bank-conflict stalls"
	require.Equal(t, verdict.Differs, claimAt(t, e.claims(nil), "Fig. 5.8", aesRow).Verdict)
	keepHalf := planted(e, aes, SetupAware, func(r *Result) {
		r.Stalls[BankStall] = e.Named(aes).By[SetupBaseline].Stalls[BankStall] / 2
	})
	assert.Equal(t, verdict.DirectionOnly, claimAt(t, keepHalf.claims(nil), "Fig. 5.8", aesRow).Verdict)

	// Fig. 5.10: IDCT unoptimised on elastic+aware at an IPC 14.9% under
	// the hand-optimised baseline's, then 14.9% over it.
	hand := e.HandPairs()[slices.IndexFunc(e.HandPairs(), func(p HandPair) bool { return p.Unoptimised.Kernel.Name == "IDCT" })]
	idctAt := func(change float64) verdict.Claim {
		ipc := hand.Optimised.By[SetupBaseline].IPC() * (1 + change)
		p := planted(e, "IDCT", SetupAware, func(r *Result) { r.Cycles = int(math.Round(float64(r.Issued) / ipc)) })
		return claimAt(t, p.claims(nil), "Fig. 5.10", "IDCT:")
	}
	assert.Contains(t, []verdict.Verdict{verdict.Exact, verdict.Matches}, idctAt(-0.149).Verdict)
	assert.Equal(t, verdict.Differs, idctAt(0.149).Verdict)
	assert.Equal(t, "14.9% less", idctAt(0).Printed)

	// Table 5.5: Transpose's intensity r at the thesis's 3.7%, then at
	// three times as much.
	rAt := func(r float64) verdict.Claim {
		p := planted(e, "Transpose", SetupBaseline, func(b *Result) { b.SharedAccesses = int(math.Round(r * float64(b.Issued))) })
		return claimAt(t, p.claims(nil), "Table 5.1", "Transpose: shared-memory intensity")
	}
	assert.Contains(t, []verdict.Verdict{verdict.Exact, verdict.Matches}, rAt(0.037).Verdict)
	assert.Equal(t, verdict.DirectionOnly, rAt(3*0.037).Verdict)
}

// TestBoundSplitsTheSpeedup: Bound's parts give the speedup over the
// theoretic bound exactly (every cycle issues or stalls), and the
// kernels the thesis says exceed it are flagged from that split.
func TestBoundSplitsTheSpeedup(t *testing.T) {
	for _, k := range evaluation(t).Conflicting {
		b := k.Bound(SetupAware)
		require.InDelta(t, k.Theoretic(), b.Extra, 1e-12, k.Kernel.Name)
		require.InDelta(t, 1+k.Speedup(SetupAware), (1+b.Extra+b.LeftOut)/(1+b.Kept()), 1e-12, k.Kernel.Name)
		require.Equal(t, boundRatio(k) > 1, b.LeftOut > (1+b.Extra)*b.Kept(), k.Kernel.Name)
	}
}

// TestCostClaimsFollowTheRTL: 5.5.4's 704 bytes is the elaborated cache's,
// and a wrong count planted into a copy of its row changes the verdict.
func TestCostClaimsFollowTheRTL(t *testing.T) {
	rows, err := testStorage()
	require.NoError(t, err)
	gates := make([]synth.Gates, len(costConfigs())) // no Yosys: the storage claims need none
	require.Equal(t, verdict.Exact, claimAt(t, costClaims(rows, gates), "5.5.4", "history cache bytes").Verdict)
	rows = slices.Clone(rows)
	rows[storageAt(HistorySets, HistoryWays)].Lines /= 2
	assert.Equal(t, verdict.Close, claimAt(t, costClaims(rows, gates), "5.5.4", "history cache bytes").Verdict)
	assert.Equal(t, verdict.Differs, claimAt(t, costClaims(rows, gates), "Table 5.3", "the history cache's tag and value bits").Verdict)
}
