package rsdmm

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
)

// The rsdmm-patterns and rsdmm-transpose reports: the machine models
// (model.go) on access patterns and on Table I's transposes, beside the
// paper's figures.

// machine is one of the four machines the reports compare.
type machine struct {
	name  string
	dmm   bool // super warps of one warp
	shift ShiftKind
}

var machines = []machine{
	{"DMM", true, NoShift},
	{"SDMM", false, NoShift},
	{"RSDMM table", false, TableShift},
	{"RSDMM hash", false, HashShift},
}

// warps is the machine's s: 1 on the DMM.
func (mc machine) warps(s int) int {
	if mc.dmm {
		return 1
	}
	return s
}

// tableII is Table II's E[Y]/s at n = 2^20 (addresses almost never
// repeat) for w and s, and whether the table has the cell.
func tableII(w, s int) (float64, bool) {
	i := slices.Index(tableIIWidths, w)
	if i < 0 || s < 1 || s > 10 {
		return 0, false
	}
	return TableII[1<<20][s-1][i], true
}

// pctDiff is ours against the paper's as a signed percentage.
func pctDiff(ours, paper float64) string { return table.SignedPct(ours/paper - 1) }

// The rsdmm-patterns report's machine: w = 32, s = 4, a memory of n = 2^20
// words (sqrt(n) = 1024 >= sw, IV's Case 1), p = 1024 threads (8 super
// warps a round).
const (
	patternsLW    = 5
	patternsS     = 4
	patternsSqrtN = 1 << 10
	patternsP     = 1 << 10
	patternsL     = 16 // the congestions do not depend on it
)

// Why ours differs from the paper's estimate on the RSDMM.
const (
	whySample = "Sampling: the mean over the run's super warps, whose r_j are drawn once a run (V's expectation is over the shifts)."
	whyRows   = "A super warp of stride 1 asks s whole rows, and the shift permutes each row's w banks: every bank is asked exactly s times, the ratio exactly 1."
	whyPairs  = "Stride w/2 asks each row twice, at k and k + w/2, which any shift keeps w/2 banks apart: bank b gets the rows with r_j = b mod w/2, sw/2 balls in w/2 bins, more even than Table II's sw balls in w bins."
	whyRepeat = "Stride sqrt(n) mod n asks the same sqrt(n) addresses, sqrt(n)/(sw) super warps, every round: the mean is over those few draws of the r_j, not fresh ones (V's expectation is over the shifts)."
	whyH3     = "H3 is linear (reading 4): the rows of a super warp are (nearly) an aligned block j0 + i*2^b, i < 2^m, whose r_j are r_j0 XOR the span of m keys: every bank equally often when those keys span all lw bits (the ratio 1), unevenly when they do not; each run draws its own keys."
	whySpan   = "sqrt(n) < sw: a super warp spans sw/sqrt(n) columns and asks some rows more than once, and the shift keeps one row's requests in distinct banks: fewer independent r_j than Table II's sw."
)

// footnotes numbers the reasons a table cites, in order of first use.
type footnotes []string

func (f *footnotes) cite(why string) string {
	i := slices.Index(*f, why)
	if i < 0 {
		*f = append(*f, why)
		i = len(*f) - 1
	}
	return fmt.Sprintf("(%d)", i+1)
}

func (f footnotes) notes() []string {
	var ns []string
	for i, why := range f {
		ns = append(ns, fmt.Sprintf("(%d) %s", i+1, why))
	}
	return ns
}

// pattern is an access pattern of the rsdmm-patterns report.
type pattern struct {
	name   string
	access func(n, w, sqrtN int, r *rand.Rand) Access
	// exact is II-IV's congestion per warp without a shift, for s warps a
	// super warp (s = 1: the DMM), and where it comes from; nil for random
	// addresses (Table II's).
	exact func(w, s int) (float64, string)
	// merged: exact holds with a shift too (every thread one address).
	merged bool
	// table and hash say why the RSDMM's ratio differs from Table II's,
	// when the reason is not sampling.
	table, hash string
}

func stride(k func(w, sqrtN int) int) func(n, w, sqrtN int, _ *rand.Rand) Access {
	return func(n, w, sqrtN int, _ *rand.Rand) Access {
		d := k(w, sqrtN)
		return func(t int) int { return t * d % n }
	}
}

func exactly(x float64, src string) func(w, s int) (float64, string) {
	return func(int, int) (float64, string) { return x, src }
}

// column is III's and IV's column-major congestion per warp: w while sw <=
// sqrt(n) (Case 1), which the report's machine keeps.
func column(w, _ int) (float64, string) { return float64(w), "III; IV Case 1 (sw <= sqrt n)" }

var patterns = []pattern{
	{
		name:   "random",
		access: func(n, _, _ int, r *rand.Rand) Access { return func(int) int { return r.IntN(n) } },
	},
	{
		name:   "stride 1 (row-major)",
		access: stride(func(int, int) int { return 1 }),
		exact:  exactly(1, "III, IV: n/w in all"),
		table:  whyRows, hash: whyRows,
	},
	{
		name:   "stride w/2",
		access: stride(func(w, _ int) int { return w / 2 }),
		exact:  func(w, _ int) (float64, string) { return float64(w / 2), "II: two banks" },
		table:  whyPairs, hash: whyH3,
	},
	{
		name:   "stride w",
		access: stride(func(w, _ int) int { return w }),
		exact:  func(w, _ int) (float64, string) { return float64(w), "II: one bank" },
		hash:   whyH3,
	},
	{
		name:   "stride w+1",
		access: stride(func(w, _ int) int { return w + 1 }),
		exact:  exactly(1, "II: w+1 odd, w banks"),
		hash:   whyH3,
	},
	{
		name:   "column (stride sqrt n)",
		access: stride(func(_, sqrtN int) int { return sqrtN }),
		exact:  column,
		table:  whyRepeat, hash: whyH3,
	},
	{
		name:   "Naive transpose writes",
		access: func(_, _, sqrtN int, _ *rand.Rand) Access { return ColumnMajor(sqrtN) },
		exact:  column,
		hash:   whyH3,
	},
	{
		name:   "Diagonal transpose writes",
		access: func(_, _, sqrtN int, _ *rand.Rand) Access { return Diagonal(sqrtN) },
		exact:  exactly(1, "III, IV: n/w in all"),
		hash:   whyH3,
	},
	{
		name:   "broadcast",
		access: func(int, int, int, *rand.Rand) Access { return func(int) int { return 0 } },
		exact:  func(_, s int) (float64, string) { return 1 / float64(s), "II merge; IV: 1/s" },
		merged: true,
	},
}

// expected is the congestion per warp for a pattern on a machine, its
// source and whether it is exact: II-IV's closed form, or Table II's
// expectation for random addresses and for every pattern on the RSDMM
// (Theorem 6).
func (pt pattern) expected(mc machine, w, s int) (float64, string, bool) {
	s = mc.warps(s)
	if pt.exact != nil && (mc.shift == NoShift || pt.merged) {
		x, src := pt.exact(w, s)
		return x, src, true
	}
	x, _ := tableII(w, s)
	if pt.exact == nil {
		return x, "Table II (VI)", false
	}
	return x, "Table II; Theorem 6", false
}

// why is the reason ours differs from Table II's on a shifted machine.
func (pt pattern) why(mc machine) string {
	why := pt.table
	if mc.shift == HashShift {
		why = pt.hash
	}
	if why == "" {
		return whySample
	}
	return why
}

// patternJob is one pattern on one machine, the i-th run of the
// rsdmm-patterns report (i is its seed).
type patternJob struct {
	pt pattern
	mc machine
	i  int
}

// patternRuns are the rsdmm-patterns report's runs: every pattern on every
// machine for rounds rounds of p threads.
type patternRuns struct {
	rounds int
	jobs   []patternJob
	times  []Time
}

type patternRun struct{ i, rounds int }

var patternMemo sweep.Memo[patternRun, Time]

// runPatterns makes the report's runs on all CPUs.
func runPatterns(rounds int, progress io.Writer) (*patternRuns, error) {
	m := Machine{LW: patternsLW}
	w, sqrtN, p := m.W(), patternsSqrtN, patternsP
	n := sqrtN * sqrtN
	pr := &patternRuns{rounds: rounds}
	for _, pt := range patterns {
		for _, mc := range machines {
			pr.jobs = append(pr.jobs, patternJob{pt, mc, len(pr.jobs)})
		}
	}
	var err error
	pr.times, err = sweep.Map(progress, "rsdmm-patterns", pr.jobs, func(j patternJob) (Time, error) {
		return patternMemo.Get(patternRun{j.i, rounds}, func() (Time, error) {
			seed := uint64(j.i)
			md := NewModel(m, patternsL, p, j.mc.warps(patternsS), j.mc.shift, n, seed)
			return md.Run(rounds, Stream(j.pt.access(n, w, sqrtN, rand.New(rand.NewPCG(seed, 17))), p)), nil
		})
	})
	return pr, err
}

// patternRow is a run's figures: the expected congestion per warp (II-IV's
// closed form, or Table II's E[Y]/s), its source and whether it is exact,
// and ours, the mean and largest congestion per warp (C/s a super warp).
type patternRow struct {
	expected   float64
	src        string
	exact      bool
	mean, most float64
}

func (pr *patternRuns) row(k int) patternRow {
	j, tm := pr.jobs[k], pr.times[k]
	r := patternRow{}
	r.expected, r.src, r.exact = j.pt.expected(j.mc, Machine{LW: patternsLW}.W(), patternsS)
	ss := float64(j.mc.warps(patternsS))
	r.mean = float64(tm.Congestion) / float64(tm.Batches) / ss
	r.most = float64(tm.Most) / ss
	return r
}

// verdict sets ours beside the expected congestion.
func (r patternRow) verdict() verdict.Verdict { return verdict.Value(r.expected, r.mean) }

// table is the report's table: the expected congestion per warp beside
// ours, with the verdict.
func (pr *patternRuns) table() *table.Table {
	w := Machine{LW: patternsLW}.W()
	t := &table.Table{
		Title: fmt.Sprintf("Access patterns on the DMM, SDMM and RSDMM: congestion per warp (C/s a super warp, Table II's E[Y]/s), w = %d, s = %d, n = %d (sqrt n = %d), %d rounds of p = %d threads",
			w, patternsS, patternsSqrtN*patternsSqrtN, patternsSqrtN, pr.rounds, patternsP),
		Header: []string{"pattern", "machine", "closed form (II-IV) or Table II", "source", "ours mean", "ours max", "verdict", "note"},
		Notes: []string{
			"Thread i of round t asks pattern(t*p + i); a stride k pattern asks (t*p + i)*k mod n. Equal addresses merge across a super warp (reading 1).",
			fmt.Sprintf("Closed form: II-IV's congestion per warp at w = %d, s = %d, exact on the DMM and SDMM (1, w and 1/s as II-IV state them for any w and s; w/2, two banks, by II's definition); on the RSDMM Table II's printed E[Y]/s (n = 2^20) for random addresses, which Theorem 6 bounds for any access. Verdict: ours mean beside it (internal/verdict).", w, patternsS),
			"A note gives the difference when ours is more than 3% from it, and why:",
		},
	}
	var fn footnotes
	for k, j := range pr.jobs {
		r := pr.row(k)
		note := ""
		if d := r.mean/r.expected - 1; r.verdict() != verdict.Exact && abs(d) > 0.03 {
			note = pctDiff(r.mean, r.expected)
			if !r.exact {
				note += " " + fn.cite(j.pt.why(j.mc))
			}
		}
		t.Add(j.pt.name, j.mc.name, fmt.Sprintf("%.3f", r.expected), r.src, fmt.Sprintf("%.3f", r.mean), fmt.Sprintf("%.3f", r.most),
			r.verdict().String(), note)
	}
	t.Notes = append(t.Notes, fn.notes()...)
	return t
}

// patternsReport runs every pattern on every machine for rounds rounds of
// p threads and sets the mean and largest congestion per warp (C/s a super
// warp, Table II's E[Y]/s) beside the expected, with the claims of II-V
// they reproduce.
func patternsReport(rounds int, progress io.Writer) ([]*table.Table, error) {
	pr, err := runPatterns(rounds, progress)
	if err != nil {
		return nil, err
	}
	return []*table.Table{pr.table(), verdict.Table("Sections II-V beside the patterns, under one rule", pr.claims())}, nil
}

// Table I's machine in the rsdmm-transpose report: w = 16, s = log w = 4
// warps a super warp, l = 16, p = 256 threads.
const (
	transposeLW = 4
	transposeS  = 4
	transposeL  = 16
	transposeP  = 256
	// transposeWidthsSqrtN is sqrt(n) of the sweep over w.
	transposeWidthsSqrtN = 1 << 10
)

// transposeRun is one transpose on one machine.
type transposeRun struct {
	lw, sqrtN int
	mc        machine
	diagonal  bool
}

// words is the memory: a at 0, b at n.
func (tr transposeRun) words() int { return 2 * tr.sqrtN * tr.sqrtN }

func (tr transposeRun) name() string {
	if tr.diagonal {
		return "Diagonal"
	}
	return "Naive"
}

func (tr transposeRun) run(seed uint64) Time {
	n, p := tr.sqrtN*tr.sqrtN, transposeP
	read, write := RowMajor(tr.sqrtN), ColumnMajor(tr.sqrtN)
	if tr.diagonal {
		read, write = DiagonalRead(tr.sqrtN), Diagonal(tr.sqrtN)
	}
	md := NewModel(Machine{LW: tr.lw}, transposeL, p, tr.mc.warps(transposeS), tr.mc.shift, tr.words(), seed)
	return md.Run(2*n/p, Transpose(read, write, n, p))
}

// closedForm is the running time by Lemma 1 over II-IV's congestions: on
// the DMM and SDMM exact, reads n/w, Naive writes min(n, n sqrt(n)/(sw))
// (Theorems 2-3), Diagonal writes n/w, and 2n/p rounds; on the RSDMM the
// same with Table II's E[Y]/s for every phase that is not row-major
// (Theorem 8), when Table II has w.
func (tr transposeRun) closedForm() (float64, bool) {
	w, s := 1<<tr.lw, tr.mc.warps(transposeS)
	n := tr.sqrtN * tr.sqrtN
	latency := float64(2 * (transposeL - 1) * n / transposeP)
	if tr.mc.shift == NoShift {
		c := n/w + n/w
		if !tr.diagonal {
			c = n/w + NaiveColumnCongestion(tr.sqrtN, w, s)
		}
		return float64(c) + latency, true
	}
	ratio, ok := tableII(w, s)
	if tr.diagonal {
		return 2*ratio*float64(n/w) + latency, ok
	}
	return (1+ratio)*float64(n/w) + latency, ok // the row-major reads cost n/w
}

// law is Table I's bound for the run with unit constants: the Naive
// Transpose's n + nl/p on the DMM and n/w + min(n, n sqrt(n)/(w log w)) +
// nl/p on the SDMM (s = log w at w = 16), every other n/w + nl/p.
func (tr transposeRun) law() float64 {
	n, w := float64(tr.sqrtN*tr.sqrtN), float64(int(1)<<tr.lw)
	switch {
	case tr.diagonal || tr.mc.shift != NoShift:
		return tr.bound()
	case tr.mc.dmm:
		return n + n*transposeL/transposeP
	}
	return tr.bound() + min(n, n*float64(tr.sqrtN)/(w*math.Log2(w)))
}

// bound is III's lower bound n/w + nl/p.
func (tr transposeRun) bound() float64 {
	n := tr.sqrtN * tr.sqrtN
	return float64(n)/float64(int(1)<<tr.lw) + float64(n*transposeL)/transposeP
}

// row is the report's row for a run: the closed form's time, ours by
// Lemma 1 (the cycle model with barriers, which must agree) and without
// barriers, the congestion over n/w, both times over the lower bound, the
// verdict on ours beside the closed form, and a note.
func (tr transposeRun) row(first string, tm Time, fn *footnotes) []string {
	n, w := tr.sqrtN*tr.sqrtN, 1<<tr.lw
	closed, ok := tr.closedForm()
	ours := fmt.Sprint(tm.Lemma1)
	if tm.Barrier != tm.Lemma1 {
		ours += fmt.Sprintf(" (cycle model %d)", tm.Barrier)
	}
	cell, v, note := "-", "", ""
	if ok {
		cell, v = fmt.Sprintf("%.0f", closed), verdict.Value(closed, float64(tm.Lemma1)).String()
		if tr.mc.shift != NoShift {
			cell = "~" + cell
		}
		if d := float64(tm.Lemma1)/closed - 1; d != 0 && (tr.mc.shift == NoShift || abs(d) > 0.03) {
			note = pctDiff(float64(tm.Lemma1), closed)
			if tr.mc.shift != NoShift {
				note += " " + fn.cite(tr.why())
			}
		}
	}
	b := tr.bound()
	return []string{first, tr.mc.name, cell, ours, fmt.Sprint(tm.Free),
		fmt.Sprintf("%.3f", float64(tm.Congestion)/float64(n/w)),
		fmt.Sprintf("%.2f", float64(tm.Lemma1)/b), fmt.Sprintf("%.2f", float64(tm.Free)/b), v, note}
}

// why explains an RSDMM time away from the Table II estimate.
func (tr transposeRun) why() string {
	switch {
	case tr.mc.shift == HashShift:
		return whyH3
	case tr.sqrtN < transposeS<<tr.lw:
		return whySpan
	}
	return whySample
}

// transposes are the rsdmm-transpose report's runs: Table I's on the four
// machines for sqrt(n) = 16 .. 2^lgMax at w = 16 (runs[:sizes]), then the
// Naive Transpose's over w = 4..64 at sqrt(n) = 1024.
type transposes struct {
	runs  []transposeRun
	got   []Time
	sizes int
}

type transposeSeeded struct {
	transposeRun
	seed uint64
}

var transposeMemo sweep.Memo[transposeSeeded, Time]

// runTransposes makes the runs on all CPUs, each run i on seed i.
func runTransposes(lgMax int, progress io.Writer) (*transposes, error) {
	ts := &transposes{}
	for lg := 4; lg <= lgMax; lg++ {
		for _, diagonal := range []bool{false, true} {
			for _, mc := range machines {
				ts.runs = append(ts.runs, transposeRun{transposeLW, 1 << lg, mc, diagonal})
			}
		}
	}
	ts.sizes = len(ts.runs)
	for lw := 2; lw <= 6; lw++ {
		for _, mc := range machines {
			ts.runs = append(ts.runs, transposeRun{lw, transposeWidthsSqrtN, mc, false})
		}
	}
	// sweep.Map (parallel.Map) starts at the end: the largest runs first.
	order := make([]int, len(ts.runs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return ts.runs[a].words() - ts.runs[b].words() })
	times, err := sweep.Map(progress, "rsdmm-transpose", order, func(i int) (Time, error) {
		return transposeMemo.Get(transposeSeeded{ts.runs[i], uint64(i)}, func() (Time, error) { return ts.runs[i].run(uint64(i)), nil })
	})
	if err != nil {
		return nil, err
	}
	ts.got = make([]Time, len(ts.runs))
	for k, i := range order {
		ts.got[i] = times[k]
	}
	return ts, nil
}

// tables are Table I for each transpose, then the Naive Transpose over w.
func (ts *transposes) tables() []*table.Table {
	header := []string{"sqrt(n)", "machine", "closed form (Lemma 1)", "ours: Lemma 1", "no barrier", "C/(n/w)", "÷ bound", "no barrier ÷ bound", "verdict", "note"}
	notes := []string{
		"closed form (Lemma 1): ours from the paper's formulas, not a number it prints (Table I gives only O() bounds): Lemma 1 over II-IV's exact congestions, 2n/p rounds (a read and a write each): Naive n/w + min(n, n sqrt(n)/(sw)) + 2(l-1)n/p (s = 1 on the DMM), Diagonal 2n/w + 2(l-1)n/p; on the RSDMM ~ the same with Table II's E[Y]/s (n = 2^20) as the congestion per warp of each phase that is not row-major (Theorem 8).",
		"ours: Lemma 1's C + (l-1)T from the simulated congestions, beside the cycle model with a barrier per round when the two differ; no barrier: the cycle model dispatching the (super) warps round-robin without barriers. bound: III's n/w + nl/p. Verdict: ours beside the closed form (internal/verdict).",
		"A note gives the difference from an exact closed form, or from the RSDMM's estimate when more than 3%, and why:",
	}
	var out []*table.Table
	for _, diagonal := range []bool{false, true} {
		name := "Naive"
		if diagonal {
			name = "Diagonal"
		}
		t := &table.Table{
			Title:  fmt.Sprintf("Table I, the %s Transpose: time units on w = %d, s = %d, l = %d, p = %d", name, 1<<transposeLW, transposeS, transposeL, transposeP),
			Header: header,
		}
		var fn footnotes
		for i, tr := range ts.runs[:ts.sizes] {
			if tr.diagonal == diagonal {
				t.Add(tr.row(fmt.Sprint(tr.sqrtN), ts.got[i], &fn)...)
			}
		}
		t.Notes = append(slices.Clone(notes), fn.notes()...)
		out = append(out, t)
	}
	t := &table.Table{
		Title:  fmt.Sprintf("The Naive Transpose over w at sqrt(n) = %d: s = %d, l = %d, p = %d", transposeWidthsSqrtN, transposeS, transposeL, transposeP),
		Header: append([]string{"w"}, header[1:]...),
	}
	var fn footnotes
	for i, tr := range ts.runs[ts.sizes:] {
		t.Add(tr.row(fmt.Sprint(1<<tr.lw), ts.got[ts.sizes+i], &fn)...)
	}
	t.Notes = append([]string{"sw <= sqrt(n) throughout (IV's Case 1): the SDMM's writes cost n like the DMM's. s = 4 is log w at w = 16 only; Table II starts at w = 16."}, fn.notes()...)
	return append(out, t)
}

// transposeReport is Table I on the four machines for sqrt(n) = 16 ..
// 2^lgMax, then the Naive Transpose over w = 4..64 at sqrt(n) = 1024, and
// the claims of Table I and sections I-V they reproduce.
func transposeReport(lgMax int, progress io.Writer) ([]*table.Table, error) {
	ts, err := runTransposes(lgMax, progress)
	if err != nil {
		return nil, err
	}
	return append(ts.tables(), verdict.Table("Table I and the theorems behind it beside the transposes, under one rule", ts.claims())), nil
}
