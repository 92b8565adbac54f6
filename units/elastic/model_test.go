package elastic

import (
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The cycle model against the paper's results (section 5.6) and figures
// (Figs. 5.4, 5.5). The evaluation runs once for all tests.

var (
	evalOnce sync.Once
	eval     *Evaluation
	evalErr  error
)

func evaluation(t *testing.T) *Evaluation {
	t.Helper()
	evalOnce.Do(func() { eval, evalErr = Evaluate(Table54(), io.Discard) })
	require.NoError(t, evalErr)
	return eval
}

func TestKernelsMatchTable55(t *testing.T) {
	e := evaluation(t)
	for i, k := range e.Conflicting {
		p, b := Table55[i], k.By[SetupBaseline]
		require.Equal(t, p.Name, k.Kernel.Name)
		require.Equal(t, p.Irregular, k.Kernel.Irregular, k.Kernel.Name)
		require.InEpsilon(t, p.R, b.R(), 0.05, "%s: r", p.Name)
		require.InEpsilon(t, p.Degree, b.Degree(), 0.05, "%s: average degree", p.Name)
		require.Less(t, b.R()*b.Degree(), 1.0, "%s: Eq. 5.2, shared memory bandwidth is not the bound", p.Name)
		require.InDelta(t, p.Theoretic-1, k.Theoretic(), 0.05*(p.Theoretic-1)+0.01, "%s: theoretic speedup", p.Name)
	}
	for _, k := range e.ConflictFree {
		b := k.By[SetupBaseline]
		require.Equal(t, 1.0, b.Degree(), "%s: the padded layout is conflict free", k.Kernel.Name)
		twin := slices.IndexFunc(Table55, func(p PaperKernel) bool { return p.Name+"*" == k.Kernel.Name })
		require.GreaterOrEqual(t, twin, 0, k.Kernel.Name)
		require.InDelta(t, e.Conflicting[twin].By[SetupBaseline].R(), b.R(), 1e-9, "%s: the padding changes no instruction", k.Kernel.Name)
	}
}

// TestAwareRemovesBankStalls: section 5.6.1, bank-conflict stalls almost
// completely removed. The paper keeps many on AES, whose irregular gathers
// the history cache mispredicts; the model's AES mispredicts most too, but
// PREMEM absorbs a warp's under-prediction of up to K - 1 cycles, and
// under- and over-predictions come about equally often, so the model
// removes as many there (aesNote).
func TestAwareRemovesBankStalls(t *testing.T) {
	e := evaluation(t)
	mispredicted := func(r Result) float64 { return float64(r.Under+r.Over) / float64(r.Exact+r.Under+r.Over) }
	for _, k := range e.Conflicting {
		require.GreaterOrEqual(t, k.BankStallsRemoved(SetupAware), 0.9, "%s: bank stalls removed by elastic+aware", k.Kernel.Name)
		if k.Kernel.Irregular {
			continue
		}
		for _, aes := range e.Conflicting[:2] {
			require.True(t, strings.HasPrefix(aes.Kernel.Name, "AES"))
			require.Greater(t, mispredicted(aes.By[SetupAware]), 2*mispredicted(k.By[SetupAware]),
				"%s mispredicts more than %s", aes.Kernel.Name, k.Kernel.Name)
		}
	}
}

// TestHistoryCacheHoldsEveryPC: section 5.5.4, the 256-set 2-way cache
// removes "all capacity and conflict misses for all kernels": every
// kernel's elastic+aware run hits exactly as often as with a cache in
// which no two of its PCs share a set.
func TestHistoryCacheHoldsEveryPC(t *testing.T) {
	roomy := Table54()
	roomy.Sets, roomy.Ways = 1024, 4
	rs, err := RunAll(roomy, Kernels(), Setups[SetupAware:SetupAware+1], io.Discard)
	require.NoError(t, err)
	for i, k := range evaluation(t).Conflicting {
		require.Equal(t, rs[i].By[0].Hits, k.By[SetupAware].Hits, "%s: history cache hits", k.Kernel.Name)
	}
}

// TestSchedulersOrder: Fig. 5.9, elastic+RR is not slower than the
// baseline and elastic+aware beats it.
func TestSchedulersOrder(t *testing.T) {
	for _, k := range evaluation(t).Conflicting {
		rr, aware := k.Speedup(SetupRR), k.Speedup(SetupAware)
		require.GreaterOrEqual(t, rr, 0.0, "%s: elastic+RR against the baseline", k.Kernel.Name)
		require.Greater(t, aware, rr, "%s: elastic+aware against elastic+RR", k.Kernel.Name)
	}
}

// TestAwareReachesHalfTheGain: on the regular kernels elastic+aware gains
// at least half the theoretic speedup.
func TestAwareReachesHalfTheGain(t *testing.T) {
	n := 0
	for _, k := range evaluation(t).Conflicting {
		if k.Kernel.Irregular {
			continue
		}
		require.GreaterOrEqual(t, k.Speedup(SetupAware), k.Theoretic()/2, k.Kernel.Name)
		n++
	}
	require.Equal(t, 5, n)
}

// TestFixedLatencyLocksCTAsInStep: with every load taking the same time,
// Transpose's CTAs meet their column reads together and neither elastic
// scheduler gains anything (spreadNote), while the spread lets it gain.
func TestFixedLatencyLocksCTAsInStep(t *testing.T) {
	transpose := Kernels()[3]
	require.Equal(t, "Transpose", transpose.Name)
	fixed := Table54()
	fixed.Spread = 0
	rs, err := RunAll(fixed, []Kernel{transpose}, Setups[:SetupAware+1], io.Discard)
	require.NoError(t, err)
	require.InDelta(t, 0, rs[0].Speedup(SetupRR), 0.002)
	require.InDelta(t, 0, rs[0].Speedup(SetupAware), 0.002)
	require.Greater(t, rs[0].BankStallsRemoved(SetupAware), 0.9, "the stalls move to scheduling fails")
	require.Greater(t, evaluation(t).Conflicting[3].Speedup(SetupAware), 0.1)
}

// TestConflictFreeKernels: Fig. 5.11, the elastic pipeline changes
// conflict-free kernels by less than 2%.
func TestConflictFreeKernels(t *testing.T) {
	for _, k := range evaluation(t).ConflictFree {
		for _, s := range []int{SetupRR, SetupAware, SetupVariant} {
			require.Less(t, math.Abs(k.Speedup(s)), 0.02, "%s on %s", k.Kernel.Name, Setups[s].Name)
		}
		for s, r := range k.By {
			require.Zero(t, r.Stalls[BankStall], "%s on %s: no conflict, no bank stall", k.Kernel.Name, Setups[s].Name)
		}
	}
}

func TestModelIsDeterministic(t *testing.T) {
	k := Kernels()[2]
	r := Run{Core: Table54(), BackEnd: Elastic, Scheduling: Aware}
	a, err := r.Kernel(k)
	require.NoError(t, err)
	b, err := r.Kernel(k)
	require.NoError(t, err)
	require.Equal(t, a, b)
	require.Equal(t, a.Cycles, a.Issued+a.TotalStalls(), "every cycle issues a subwarp or stalls")
}

func TestModelRejectsBadCores(t *testing.T) {
	k := Kernels()[0]
	for _, c := range []func(*Core){
		func(c *Core) { c.Lanes = 3 },
		func(c *Core) { c.Stages = c.MStages + 1 },
		func(c *Core) { c.Latency = 0 },
		func(c *Core) { c.Spread = -1 },
		func(c *Core) { c.Warps = 8 }, // AES needs 2 CTAs of 8 warps
	} {
		core := Table54()
		c(&core)
		_, err := Run{Core: core}.Kernel(k)
		require.Error(t, err)
	}
}

// Fig. 5.4 transcribed from the thesis: per cycle t_{i-1}..t_{i+7}, the
// instruction in IF, ID, EXE, the two memory stages and WB, as offsets
// from W_i; "-" empty (the figures' X bubbles in a stage), "?" illegible
// or an earlier instruction the figure does not name (skipped). In (b) a
// stage column holds both MEM_k and NONMEM_k, so a cell may list two; the
// text layer reads (b)'s MEM1/NONMEM1 cell at t_{i+5} as "With", W_i over
// W_{i+1}, which the text confirms: both reach their paths' ends then and
// conflict for writeback at the start of t_{i+6} (section 5.3.2).
var (
	fig54a = [][]string{
		{"-1", "?", "-", "-", "-", "-"},
		{"0", "-1", "?", "-", "-", "-"},
		{"1", "0", "-1", "?", "-", "-"},
		{"2", "1", "0", "-1", "?", "-"},
		{"3", "2", "1", "0", "-1", "?"},
		{"3", "2", "1", "0", "-", "-1"},
		{"?", "?", "?", "1", "0", "X"},
		{"?", "?", "?", "?", "1", "0"},
		{"?", "?", "?", "?", "?", "1"},
	}
	fig54b = [][]string{
		{"-1", "?", "-", "-", "-", "-"},
		{"0", "-1", "?", "-", "-", "-"},
		{"1", "0", "-1", "?", "-", "-"},
		{"?", "1", "0", "-1", "?", "-"},
		{"?", "?", "1", "0", "-1", "?"},
		{"?", "?", "?", "0 1", "-", "-1"},
		{"5", "4", "3", "2", "0 1", "X"},
		{"5", "4", "3", "2", "1", "0"},
		{"?", "?", "?", "?", "?", "1"},
	}
)

// figureCells folds a picture into the figures' six columns: the
// instructions (offsets from W_i, sorted) in IF, ID, EXE, stage 0 (MEM0
// and NONMEM0), stage 1 and WB, "X" for an empty WB after the first
// writeback.
func figureCells(p Picture) [][]string {
	var rows [][]string
	written := false
	for _, r := range p.Rows {
		cells := make([][]int, 6)
		for c, tag := range r {
			col := p.Cols[c]
			i := slices.Index([]string{"IF", "ID", "EXE"}, col)
			switch {
			case i >= 0:
			case col == "WB":
				i = 5
			default:
				i = 3 + int(col[len(col)-1]-'0')
			}
			if tag >= 0 {
				cells[i] = append(cells[i], tag-1)
			}
		}
		row := make([]string, 6)
		for i, c := range cells {
			slices.Sort(c)
			var s []string
			for _, x := range c {
				s = append(s, strconv.Itoa(x))
			}
			row[i] = strings.Join(s, " ")
			switch {
			case row[i] == "" && i == 5 && written:
				row[i] = "X"
			case row[i] == "":
				row[i] = "-"
			}
		}
		if row[5] != "-" && row[5] != "X" {
			written = true
		}
		rows = append(rows, row)
	}
	return rows
}

func TestPipelinePicturesMatchFig54(t *testing.T) {
	for _, c := range []struct {
		b   BackEndKind
		fig [][]string
	}{{Unified, fig54a}, {Split, fig54b}} {
		got := figureCells(DrawPipeline(c.b, 2, 2, pipelineRows(2, 2)))
		require.Len(t, got, len(c.fig))
		for r, row := range c.fig {
			for i, want := range row {
				if want != "?" {
					require.Equal(t, want, got[r][i], "%s: cycle t_%s, column %d", c.b, index(r-1), i)
				}
			}
		}
	}
}

// TestPipelinePictureElastic: Fig. 5.5, the elastic back end removes the
// split baseline's writeback conflict and its stall, and commits W_{i+1}
// before W_i.
func TestPipelinePictureElastic(t *testing.T) {
	p := DrawPipeline(Elastic, 2, 2, pipelineRows(2, 2))
	require.NotContains(t, p.Stalled, true)
	var order []int
	for _, r := range p.Rows {
		if wb := r[len(r)-1]; wb >= 0 {
			order = append(order, wb-1)
		}
	}
	require.Equal(t, -1, order[0])
	require.Less(t, slices.Index(order, 1), slices.Index(order, 0), "out-of-order commitment (section 5.4)")
	// Fig. 5.5 is a drawing without a text layer; its text says W_i is
	// pending at MEM0 in cycle i+4 (5.4.1), after entering it in i+3 as in
	// Fig. 5.4, and that W_{i+1}, not a memory instruction, is not blocked.
	cells := figureCells(p)
	require.Equal(t, "0", cells[4][3], "W_i enters MEM0 at t_{i+3}")
	require.Equal(t, "0", cells[5][3], "W_i pending at MEM0 at t_{i+4}")
	for _, row := range cells {
		require.NotContains(t, strings.Fields(row[3]+" "+row[4]), "1", "W_{i+1} never enters the MEM stages")
	}
	split := DrawPipeline(Split, 2, 2, pipelineRows(2, 2))
	require.Contains(t, split.Stalled, true)
}

// TestPipelineTable: the picture's rows as gen -pipeline prints them: the
// stalled cycle starred, the writeback bubble an X.
func TestPipelineTable(t *testing.T) {
	tb := pipelineTable(DrawPipeline(Split, 2, 2, pipelineRows(2, 2)), Split, 2, 2)
	require.Equal(t, []string{"cycle", "IF", "ID", "EXE", "MEM0", "MEM1", "NONMEM0", "NONMEM1", "WB"}, tb.Header)
	require.Equal(t, []string{"t_i+5", "W_i+5", "W_i+4", "W_i+3", "", "W_i", "W_i+2", "W_i+1", "X"}, tb.Rows[6])
	require.Equal(t, []string{"t_i+6 *", "W_i+5", "W_i+4", "W_i+3", "", "", "W_i+2", "W_i+1", "W_i"}, tb.Rows[7])
	var sb strings.Builder
	require.NoError(t, tb.Write(&sb, "csv"))
	require.Contains(t, sb.String(), "t_i+6 *,W_i+5,W_i+4,W_i+3,,,W_i+2,W_i+1,W_i\n")
}

// TestSubwarpDegreeIsTheSpec: the model's array count is ConflictDegree
// without broadcast, inactive lanes (negative addresses) disabled.
func TestSubwarpDegreeIsTheSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		banks := 1 << rng.IntN(8)
		addrs := make([]int, 1+rng.IntN(32))
		en := make([]bool, len(addrs))
		for i := range addrs {
			addrs[i] = rng.IntN(64) - 8
			en[i] = addrs[i] >= 0
		}
		require.Equal(t, ConflictDegree(addrs, en, banks, false), subwarpDegree(addrs, banks), "%v on %d banks", addrs, banks)
	}
}
