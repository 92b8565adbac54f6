package dram

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
)

// The dram report (gen -report dram): chapter 6's experiments run on the
// cycle model of model.go for the workloads of workload.go, each beside
// the thesis's figures.

// DefaultCycles is the report's core cycles per run: the whole report
// (380 runs) takes about 7 minutes on 2 cores.
const DefaultCycles = 300_000

// The sensitivity sweeps of 6.3, each run under FR-FCFS and MSHR-S+A.
var (
	SweepLatencies = []int{0, 20, 50, 100}  // L2-to-DRAM latency (Fig. 6.10)
	SweepQueues    = []int{16, 32, 64, 128} // read queue entries (Fig. 6.11)
	sweepPolicies  = []Policy{FRFCFS, MSHRSA}
	// CmdQDepths are the command queue depths of the choice table.
	CmdQDepths = []int{1, 2, 4}
	// Seeds are the warps' random streams of the spread table (0 is the
	// other tables').
	Seeds = []uint64{0, 1, 2, 3}
)

// The thesis's figures for MSHR-S+A against FR-FCFS, per class (chapter 6
// and the abstract).
var (
	thesisIPC        = map[Class]float64{HIL: 0.109, LIL: 0.026, Insensitive: 0.007} // Figs. 6.1-6.3
	thesisLatency    = map[Class]float64{HIL: -0.28}                                 // abstract, Fig. 6.6
	thesisFails      = map[Class]float64{HIL: -0.35, LIL: -0.105}                    // Fig. 6.4
	thesisStalls     = map[Class]float64{HIL: -0.18, LIL: -0.02}                     // Fig. 6.7
	thesisLatency100 = map[Class]float64{HIL: 0.06, LIL: 0.02}                       // Fig. 6.10, IPC at latency 100
	thesisQueue16    = map[Class]float64{HIL: 0.04, LIL: 0.01}                       // Fig. 6.11, IPC at 16 entries
	thesisQueue128   = map[Class]float64{HIL: 0.11, LIL: 0.04}                       // Fig. 6.11, IPC at 128 entries
)

// runKey is one run of the report.
type runKey struct {
	workload              string
	pol                   Policy
	perfect               bool
	latency, queue, depth int
	seed                  uint64
}

// baseKey is a run at Table 5.1's latency and read queue and the model's
// command queue depth.
func baseKey(w string, p Policy) runKey {
	return runKey{workload: w, pol: p, latency: L2ToDRAMLatency, queue: Table51Sched().Entries, depth: DefaultCmdQDepth}
}

// perfectKey is workload w's run with perfect DRAM.
func perfectKey(w string) runKey {
	k := baseKey(w, FRFCFS)
	k.perfect = true
	return k
}

func (k runKey) String() string {
	if k.perfect {
		return k.workload + ", perfect DRAM"
	}
	return fmt.Sprintf("%s, %s, L2-to-DRAM latency %d, read queue %d, command queues %d deep, seed %d", k.workload, k.pol, k.latency, k.queue, k.depth, k.seed)
}

// runSet is which runs an evaluation makes beyond each workload's perfect
// DRAM and every policy at Table 5.1's setup: command queue depths (the
// choice table), and for the memory sensitive workloads (Table 5.2's
// classes) the seeds of the spread table and 6.3's sweeps of the L2-to-
// DRAM latency and the read queue, under FR-FCFS and MSHR-S+A.
type runSet struct{ depths, latencies, queues []int }

// reportRuns are the dram report's; findingRuns only those chapter 6's
// findings need (Fig. 6.10's latency 100; Fig. 6.11's queue sizes).
var (
	reportRuns  = runSet{CmdQDepths, SweepLatencies, SweepQueues}
	findingRuns = runSet{latencies: []int{100}, queues: SweepQueues}
)

// keys are the runs of the set for workloads.
func (set runSet) keys(workloads []Workload) []runKey {
	var keys []runKey
	add := func(k runKey) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, w := range workloads {
		add(perfectKey(w.Name))
	}
	for _, w := range workloads {
		for _, p := range Policies {
			add(baseKey(w.Name, p))
			for _, d := range set.depths {
				k := baseKey(w.Name, p)
				k.depth = d
				add(k)
			}
		}
		if w.Class == Insensitive {
			continue
		}
		for _, p := range sweepPolicies {
			for _, s := range Seeds[1:] {
				k := baseKey(w.Name, p)
				k.seed = s
				add(k)
			}
			for _, l := range set.latencies {
				k := baseKey(w.Name, p)
				k.latency = l
				add(k)
			}
			for _, q := range set.queues {
				k := baseKey(w.Name, p)
				k.queue = q
				add(k)
			}
		}
	}
	return keys
}

// evaluation is the report's runs.
type evaluation struct {
	workloads []Workload
	runs      map[runKey]*Result
}

// evaluate makes the runs of set for the workloads of those names.
func evaluate(workloads []string, cycles int, set runSet, progress io.Writer) (*evaluation, error) {
	e := &evaluation{}
	for _, name := range workloads {
		w, err := Preset(name)
		if err != nil {
			return nil, err
		}
		e.workloads = append(e.workloads, w)
	}
	runs, err := runAll(set.keys(e.workloads), cycles, progress)
	e.runs = runs
	return e, err
}

// memo holds every run this process made, so that the dram report and the
// fidelity report (gen -report all runs both) share their runs.
var memo sweep.Memo[memoKey, *Result]

type memoKey struct {
	runKey
	cycles int
}

// runAll runs every run of keys, cycles core cycles each, in parallel,
// writing a progress line as each finishes.
func runAll(keys []runKey, cycles int, progress io.Writer) (map[runKey]*Result, error) {
	rs, err := sweep.Map(progress, "dram model", keys, func(k runKey) (*Result, error) {
		return memo.Get(memoKey{k, cycles}, func() (*Result, error) {
			w, err := Preset(k.workload)
			if err != nil {
				return nil, err
			}
			cfg := Table51Config(w, k.pol, cycles)
			cfg.Perfect, cfg.L2Latency, cfg.ReadQueue, cfg.CmdQDepth, cfg.Seed = k.perfect, k.latency, k.queue, k.depth, k.seed
			return Run(cfg)
		})
	})
	if err != nil {
		return nil, err
	}
	runs := map[runKey]*Result{}
	for i, k := range keys {
		runs[k] = rs[i]
	}
	return runs, nil
}

func (e *evaluation) base(w string, p Policy) *Result { return e.runs[baseKey(w, p)] }

func (e *evaluation) perfect(w string) *Result { return e.runs[perfectKey(w)] }

// perfectSpeedup is Fig. 5.1's speedup with perfect DRAM, less one.
func (e *evaluation) perfectSpeedup(w string) float64 {
	return e.perfect(w).IPC()/e.base(w, FRFCFS).IPC() - 1
}

// class is the class the model measures for workload w (5.2).
func (e *evaluation) class(w string) Class {
	return Classify(e.perfectSpeedup(w), e.base(w, FRFCFS).MergeShare())
}

// members are the report's workloads of class c (Table 5.2's).
func (e *evaluation) members(c Class) []string {
	var ws []string
	for _, w := range e.workloads {
		if w.Class == c {
			ws = append(ws, w.Name)
		}
	}
	return ws
}

// hmean is the harmonic mean, the thesis's average (chapter 6); NaN when
// a value is not positive or there is none.
func hmean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		if !(x > 0) {
			return math.NaN()
		}
		sum += 1 / x
	}
	return float64(len(xs)) / sum
}

// classRatio is the harmonic mean over class c of metric under the run
// of key(w) against FR-FCFS's run at the same key.
func (e *evaluation) classRatio(c Class, metric func(*Result) float64, key func(w string) runKey) float64 {
	var xs []float64
	for _, w := range e.members(c) {
		k := key(w)
		f := k
		f.pol = FRFCFS
		xs = append(xs, metric(e.runs[k])/metric(e.runs[f]))
	}
	return hmean(xs)
}

// at is the key of a run at Table 5.1's setup under policy p.
func at(p Policy) func(string) runKey { return func(w string) runKey { return baseKey(w, p) } }

// meanOf is the arithmetic mean over class c's workloads of metric under
// the run of key(w).
func (e *evaluation) meanOf(c Class, metric func(*Result) float64, key func(string) runKey) float64 {
	ws := e.members(c)
	sum := 0.0
	for _, w := range ws {
		sum += metric(e.runs[key(w)])
	}
	return sum / float64(len(ws))
}

// pct is a signed change cell, n/a when NaN, with two decimals below 1%
// so that a change the verdict takes for a direction does not read +0.0%.
func pct(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.Abs(x) < 0.01:
		return fmt.Sprintf("%+.2f%%", 100*x)
	}
	return table.SignedPct(x)
}

// evaluationReport runs the report's experiments for the workloads of
// those names, cycles core cycles each.
func evaluationReport(workloads []string, cycles int, progress io.Writer) ([]*table.Table, error) {
	e, err := evaluate(workloads, cycles, reportRuns, progress)
	if err != nil {
		return nil, err
	}
	return []*table.Table{e.classTable(), e.policyTable(), e.choiceTable(), e.thesisTable(), e.spreadTable(),
		e.sweepTable("Fig. 6.10 on the cycle model: MSHR-S+A against FR-FCFS across the L2-to-DRAM latency", "L2-to-DRAM latency", SweepLatencies,
			func(k *runKey, v int) { k.latency = v }, map[int]map[Class]float64{L2ToDRAMLatency: thesisIPC, 100: thesisLatency100}),
		e.sweepTable("Fig. 6.11 on the cycle model: MSHR-S+A against FR-FCFS across the read queue's size", "read queue", SweepQueues,
			func(k *runKey, v int) { k.queue = v }, map[int]map[Class]float64{16: thesisQueue16, Table51Sched().Entries: thesisIPC, 128: thesisQueue128}),
	}, nil
}

// change is a's change over b as a signed percentage cell.
func change(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	return table.SignedPct(a/b - 1)
}

func (e *evaluation) classTable() *table.Table {
	t := &table.Table{
		Title: "Section 5.2's classification of the benchmark skeletons, measured under FR-FCFS at Table 5.1's setup",
		Header: []string{"skeleton", "benchmark", "Table 5.2", "merge length > 1 (Fig. 5.2)", "perfect-DRAM speedup (Fig. 5.1)",
			"measured class", "holds", "how its knobs were set"},
		Notes: []string{
			fmt.Sprintf("Merge length > 1: the share of cycles an L2 sub-partition's MSHR holds an entry merging requests of more than one core, over all sub-partitions (Fig. 5.2's black bars); HIL above %s.", table.Pct(HILMergeShare)),
			fmt.Sprintf("Perfect DRAM (5.2): a read is complete the cycle it reaches the DRAM controller; the speedup is its IPC over FR-FCFS's, less one; memory sensitive above %s.", table.Pct(SensitiveSpeedup)),
			"The skeletons are workload.go's: a work item's memory instructions, each a line, from the benchmark's loop; the knobs are set from what the benchmark does, and where the model measured another class than Table 5.2's, the knob that decides the class (the instructions per access, or how many lines the cores share) was moved until it measured Table 5.2's, never by the policies' results.",
		},
	}
	for _, w := range e.workloads {
		c := e.class(w.Name)
		t.Add(w.Name, w.Bench, w.Class.String(), table.Pct(e.base(w.Name, FRFCFS).MergeShare()),
			table.SignedPct(e.perfectSpeedup(w.Name)), c.String(), table.Holds(c == w.Class), w.How)
	}
	return t
}

func (e *evaluation) policyTable() *table.Table {
	t := &table.Table{
		Title: "Chapter 6 on the cycle model: each skeleton under the four policies at Table 5.1's setup (Figs. 6.1-6.9)",
		Header: []string{"skeleton", "policy", "IPC", "vs FR-FCFS", "avg latency", "vs FR-FCFS", "max latency", "row locality",
			"bandwidth", "reservation fails", "vs FR-FCFS", "warps/read", "stall cycles", "vs FR-FCFS", "dummies", "dummies dropped",
			"read queue holds", "command queues hold"},
		Notes: []string{
			"IPC: instructions of all 15 cores per core cycle. Latencies: core cycles from a load's issue to its data's return. Row locality: column commands per ACT (Fig. 6.8). Bandwidth: the share of DRAM cycles with data on the bus, column commands x tburst over DRAM cycles (Fig. 6.9).",
			"Reservation fails: L2 cycles a request could not reserve an MSHR entry, a merge or a miss queue slot (6.4). Warps/read: warps a DRAM read woke. Stall cycles: core cycles with every warp waiting on a load (Fig. 6.7).",
			"Dummies dropped: dummies that reached the DRAM controller with their read not in the read queue: still in flight, or already issued to the command queues (the MIB keeps no entry for either).",
		},
	}
	for _, w := range e.workloads {
		f := e.base(w.Name, FRFCFS)
		for _, p := range Policies {
			r := e.base(w.Name, p)
			dropped := ""
			if r.Dummies > 0 {
				dropped = table.Pct(float64(r.DummiesDropped) / float64(r.Dummies))
			}
			t.Add(w.Name, p.String(), fmt.Sprintf("%.3f", r.IPC()), change(r.IPC(), f.IPC()),
				fmt.Sprintf("%.0f", r.AvgLatency()), change(r.AvgLatency(), f.AvgLatency()), fmt.Sprint(r.MaxLatency),
				fmt.Sprintf("%.2f", r.RowLocality()), table.Pct(r.BandwidthUtil()),
				fmt.Sprint(r.ReservationFails), change(float64(r.ReservationFails), float64(f.ReservationFails)),
				fmt.Sprintf("%.2f", r.WarpsPerRead()), fmt.Sprint(r.StallCycles), change(float64(r.StallCycles), float64(f.StallCycles)),
				fmt.Sprint(r.Dummies), dropped, fmt.Sprintf("%.1f", r.ReadQueueOccupancy()), fmt.Sprintf("%.1f", r.CmdQueueOccupancy()))
		}
	}
	return t
}

// choiceTable is what Rule 1 chooses among, per class, command queue
// depth and policy (issue 43's item 3: why the policies differ little).
func (e *evaluation) choiceTable() *table.Table {
	t := &table.Table{
		Title: "What Rule 1 chooses among, by the command queues' depth (requests per bank), per class",
		Header: []string{"class", "depth", "policy", "IPC vs FR-FCFS", "avg latency vs FR-FCFS", "eligible reads per read issued",
			"their distinct rows", "issues with one eligible read", "read row hits", "read queue holds", "command queues hold"},
		Notes: []string{
			"Per read the scheduler issues: the reads in the read queue whose bank's command queue has room (Rule 1's candidates), their distinct (bank, row), and whether the read hit its bank's open row. Changes are harmonic means over the class's skeletons of the ratio to FR-FCFS at the same depth; the other columns arithmetic means.",
			fmt.Sprintf("The model's depth is %d (the policy and findings tables): section 2.3 gives each bank a command queue the scheduler's chosen request is translated into, served in order, without a depth; GPGPU-Sim 3.2.2, which the thesis modified (5.1), holds one request per bank until its column command issues and schedules a bank's next request only then. Deeper queues let the scheduler hand a bank its next requests while the first waits, so it chooses among fewer reads (more issues with a single candidate) and the policies matter less.", DefaultCmdQDepth),
			"Rule 1's row score decides only when no candidate hits and the candidates lie in more than one row: with most candidates in one row (the distinct rows column) and most issues row hits, the four policies issue nearly the same reads, which is why they differ little here.",
		},
	}
	for _, c := range Classes {
		if len(e.members(c)) == 0 {
			continue
		}
		for _, d := range CmdQDepths {
			for _, p := range Policies {
				key := func(w string) runKey {
					k := baseKey(w, p)
					k.depth = d
					return k
				}
				mean := func(metric func(*Result) float64) float64 { return e.meanOf(c, metric, key) }
				t.Add(c.String(), fmt.Sprint(d), p.String(), pct(e.classRatio(c, (*Result).IPC, key)-1),
					pct(e.classRatio(c, (*Result).AvgLatency, key)-1),
					fmt.Sprintf("%.1f", mean((*Result).AvgChoiceReads)), fmt.Sprintf("%.1f", mean((*Result).AvgChoiceRows)),
					table.Pct(mean((*Result).SoleChoiceShare)), table.Pct(mean((*Result).ReadHitRate)),
					fmt.Sprintf("%.1f", mean((*Result).ReadQueueOccupancy)), fmt.Sprintf("%.1f", mean((*Result).CmdQueueOccupancy)))
			}
		}
	}
	return t
}

// findings are chapter 6's findings that name a number or a direction,
// each beside ours under verdict's rule (internal/verdict).
type findings struct {
	e  *evaluation
	cs []verdict.Claim
}

// add is a finding of class c: Where the section, What the finding with
// the class and its skeletons. A finding that differs with no cause
// beside it gets the class's measured cause: how few rows Rule 1's
// candidates span, how many reads hit (the choice table at the model's
// depth), and the seeds' spread of MSHR-S+A's IPC gain (the spread table).
func (f *findings) add(c Class, cl verdict.Claim) {
	if cl.Verdict == verdict.Differs && cl.Why == "" && c != Insensitive {
		lo, hi := f.e.gainSpread(c, (*Result).IPC)
		cl.Why = fmt.Sprintf("candidates in %.1f rows per read issued, %s of reads row hits; IPC gain %s to %s over the seeds",
			f.e.meanOf(c, (*Result).AvgChoiceRows, at(MSHRSA)), table.Pct(f.e.meanOf(c, (*Result).ReadHitRate, at(MSHRSA))), pct(lo), pct(hi))
	}
	cl.What = fmt.Sprintf("%s, %s (%s)", cl.What, c, strings.Join(f.e.members(c), " "))
	f.cs = append(f.cs, cl)
}

// printed is a change as chapter 6 prints it: "+10.9%", "-35%".
func printed(x float64) string { return fmt.Sprintf("%+.3g%%", 100*x) }

// value is a finding with a number: the thesis's change paper for class c
// against ours, the class's harmonic mean of metric under p over FR-FCFS,
// less one.
func (f *findings) value(section, finding string, c Class, paper float64, metric func(*Result) float64, p Policy, measured string) {
	if len(f.e.members(c)) == 0 {
		return
	}
	o := f.e.classRatio(c, metric, at(p)) - 1
	f.add(c, verdict.Measured(verdict.Li, section, finding, printed(paper), paper, o, pct(o)).Because(measured))
}

// direction is a finding with a direction only: holds says whether ours
// holds it and shows ours.
func (f *findings) direction(section, finding string, c Class, thesis string, holds func() (bool, string)) {
	if len(f.e.members(c)) == 0 {
		return
	}
	h, ours := holds()
	f.add(c, verdict.Stated(verdict.Li, section, finding, thesis, h, false, ours))
}

// thesisTable lists chapter 6's findings beside the model's.
func (e *evaluation) thesisTable() *table.Table {
	return verdict.Table("Chapter 6's findings: the thesis beside the model, under one rule", e.findings(),
		"Both the thesis's figures and ours are harmonic means over the class's benchmarks (ours: their skeletons) of the ratio to FR-FCFS, less one; MSHR-S+A against FR-FCFS unless the row names another policy.",
		"Why: for the class's IPC, fails, stalls and latency, the class's harmonic means of MSHR-S+A against FR-FCFS for L2 reservation fails, stall cycles (every warp waiting on a load) and average latency, and its mean read row-hit rate under both; for a finding that differs, how few rows Rule 1 chooses among.")
}

// findings are chapter 6's findings beside the model's.
func (e *evaluation) findings() []verdict.Claim {
	f := &findings{e: e}
	fails := func(r *Result) float64 { return float64(r.ReservationFails) }
	stalls := func(r *Result) float64 { return float64(r.StallCycles) }
	ipc, avgLat, maxLat := (*Result).IPC, (*Result).AvgLatency, func(r *Result) float64 { return float64(r.MaxLatency) }
	ratio := func(c Class, metric func(*Result) float64, p Policy) float64 { return e.classRatio(c, metric, at(p)) }
	beside := func(c Class) string {
		return fmt.Sprintf("fails %s, stalls %s, latency %s, row hits %s -> %s", pct(ratio(c, fails, MSHRSA)-1),
			pct(ratio(c, stalls, MSHRSA)-1), pct(ratio(c, avgLat, MSHRSA)-1),
			table.Pct(e.meanOf(c, (*Result).ReadHitRate, at(FRFCFS))), table.Pct(e.meanOf(c, (*Result).ReadHitRate, at(MSHRSA))))
	}
	each := func(c Class, ok func(w string) bool) (bool, []string) {
		all, cells := true, []string(nil)
		for _, w := range e.members(c) {
			d := e.base(w, MSHRSA).IPC()/e.base(w, FRFCFS).IPC() - 1
			all = all && ok(w)
			cells = append(cells, w+" "+table.SignedPct(d))
		}
		return all, cells
	}
	gain := func(w string) float64 { return e.base(w, MSHRSA).IPC()/e.base(w, FRFCFS).IPC() - 1 }
	sweepGain := func(c Class, set func(*runKey)) float64 {
		return e.classRatio(c, ipc, func(w string) runKey {
			k := baseKey(w, MSHRSA)
			set(&k)
			return k
		}) - 1
	}

	// 6.1, Figs. 6.1-6.3.
	for _, c := range Classes {
		f.value("6.1", fmt.Sprintf("IPC (Fig. 6.%d)", int(c)+1), c, thesisIPC[c], ipc, MSHRSA, beside(c))
	}
	f.direction("6.1", "MSHR-S+A has the best IPC of the four policies (Fig. 6.2)", LIL, "best", func() (bool, string) {
		best := slices.MaxFunc(Policies, func(a, b Policy) int { return cmp.Compare(ratio(LIL, ipc, a), ratio(LIL, ipc, b)) })
		return best == MSHRSA, fmt.Sprintf("best: %s (%s)", best, pct(ratio(LIL, ipc, best)-1))
	})
	f.direction("6.1", "no benchmark slows under MSHR-S+A (Fig. 6.2)", LIL, "none slows", func() (bool, string) {
		ok, cells := each(LIL, func(w string) bool { return gain(w) >= 0 })
		return ok, strings.Join(cells, ", ")
	})
	f.direction("6.1", "MSHR-S still improves IPC (Fig. 6.2)", LIL, "up", func() (bool, string) {
		d := ratio(LIL, ipc, MSHRS) - 1
		return d > 0, pct(d)
	})
	f.direction("6.1", "slowdowns below 1% (only KMN slows) (Fig. 6.3)", Insensitive, "above -1%", func() (bool, string) {
		ok, cells := each(Insensitive, func(w string) bool { return gain(w) > -0.01 })
		return ok, strings.Join(cells, ", ")
	})
	// 6.2, Figs. 6.4-6.9.
	for _, c := range []Class{HIL, LIL} {
		f.value("6.2", "L2 reservation fails (Fig. 6.4)", c, thesisFails[c], fails, MSHRSA, "")
	}
	for _, c := range []Class{HIL, LIL} {
		for _, p := range Policies[1:] {
			f.direction("6.2", fmt.Sprintf("%s raises the max latency over FR-FCFS (Fig. 6.5)", p), c, "up", func() (bool, string) {
				d := ratio(c, maxLat, p) - 1
				return d > 0, pct(d)
			})
		}
		f.direction("6.2", "MSHR-S+A has the lowest max latency of the three (Fig. 6.5)", c, "lowest", func() (bool, string) {
			m, s, a := ratio(c, maxLat, MSHRM), ratio(c, maxLat, MSHRS), ratio(c, maxLat, MSHRSA)
			return a < m && a < s, fmt.Sprintf("M %s, S %s, S+A %s", pct(m-1), pct(s-1), pct(a-1))
		})
	}
	f.value("abstract", "average memory latency (Fig. 6.6)", HIL, thesisLatency[HIL], avgLat, MSHRSA, beside(HIL))
	for _, c := range []Class{HIL, LIL} {
		f.direction("6.2", "MSHR-S+A lowers the average latency more than MSHR-S (Fig. 6.6)", c, "S+A < S < FR-FCFS", func() (bool, string) {
			s, a := ratio(c, avgLat, MSHRS)-1, ratio(c, avgLat, MSHRSA)-1
			return a < s && s < 0, fmt.Sprintf("S %s, S+A %s", pct(s), pct(a))
		})
	}
	for _, c := range []Class{HIL, LIL} {
		f.value("6.2", "data dependency stalls (Fig. 6.7)", c, thesisStalls[c], stalls, MSHRSA, beside(c))
	}
	f.direction("6.2", "MSHR-S cuts stalls the most (Fig. 6.7)", HIL, "S lowest", func() (bool, string) {
		least := slices.MinFunc(Policies[1:], func(a, b Policy) int { return cmp.Compare(ratio(HIL, stalls, a), ratio(HIL, stalls, b)) })
		return least == MSHRS, fmt.Sprintf("lowest: %s (%s)", least, pct(ratio(HIL, stalls, least)-1))
	})
	f.direction("6.2", "MSHR-S raises row locality (Fig. 6.8)", LIL, "up", func() (bool, string) {
		d := ratio(LIL, (*Result).RowLocality, MSHRS) - 1
		return d > 0, pct(d)
	})
	for _, c := range []Class{HIL, LIL} { // "similar": our ratio against 1
		if len(e.members(c)) > 0 {
			r := ratio(c, (*Result).BandwidthUtil, MSHRSA)
			f.add(c, verdict.Measured(verdict.Li, "6.2", "DRAM bandwidth utilization about the same (Fig. 6.9)", "similar", 1, r, pct(r-1)))
		}
	}
	// 6.3, Figs. 6.10-6.11.
	for _, c := range []Class{HIL, LIL} {
		if len(e.members(c)) == 0 {
			continue
		}
		o := sweepGain(c, func(k *runKey) { k.latency = 100 })
		f.add(c, verdict.Measured(verdict.Li, "6.3.1", "IPC at L2-to-DRAM latency 100 (Fig. 6.10)", printed(thesisLatency100[c]),
			thesisLatency100[c], o, pct(o)))
	}
	f.direction("6.3.1", "a longer L2-to-DRAM latency lowers the gain (Fig. 6.10)", HIL, "+6% at 100 < +10.9% at 20", func() (bool, string) {
		at100, at20 := sweepGain(HIL, func(k *runKey) { k.latency = 100 }), sweepGain(HIL, func(*runKey) {})
		return at100 < at20, fmt.Sprintf("%s at 100, %s at 20", pct(at100), pct(at20))
	})
	for _, c := range []Class{HIL, LIL} {
		if len(e.members(c)) == 0 {
			continue
		}
		for _, q := range []struct {
			size   int
			thesis map[Class]float64
		}{{16, thesisQueue16}, {128, thesisQueue128}} {
			o := sweepGain(c, func(k *runKey) { k.queue = q.size })
			f.add(c, verdict.Measured(verdict.Li, "6.3.2", fmt.Sprintf("IPC at read queue %d (Fig. 6.11)", q.size), printed(q.thesis[c]),
				q.thesis[c], o, pct(o)))
		}
	}
	f.direction("6.3.2", "a larger read queue, a larger gain (Fig. 6.11)", HIL, "grows with the queue", func() (bool, string) {
		var gains []string
		grows := true
		prev := math.Inf(-1)
		for _, q := range SweepQueues {
			g := sweepGain(HIL, func(k *runKey) { k.queue = q })
			grows = grows && g > prev
			prev = g
			gains = append(gains, fmt.Sprintf("%d: %s", q, pct(g)))
		}
		return grows, strings.Join(gains, ", ")
	})
	return f.cs
}

// seedGain is class c's harmonic mean of metric under MSHR-S+A over
// FR-FCFS, less one, at the base setup with the warps' seed s.
func (e *evaluation) seedGain(c Class, metric func(*Result) float64, s uint64) float64 {
	return e.classRatio(c, metric, func(w string) runKey {
		k := baseKey(w, MSHRSA)
		k.seed = s
		return k
	}) - 1
}

// gainSpread is the smallest and largest seedGain over Seeds.
func (e *evaluation) gainSpread(c Class, metric func(*Result) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range Seeds {
		g := e.seedGain(c, metric, s)
		lo, hi = min(lo, g), max(hi, g)
	}
	return lo, hi
}

// spreadTable is the run-to-run spread of MSHR-S+A's gain over FR-FCFS
// per memory sensitive class: the same runs with the warps' random
// choices drawn from other seeds.
func (e *evaluation) spreadTable() *table.Table {
	t := &table.Table{
		Title:  "The run-to-run spread of MSHR-S+A against FR-FCFS: the class's harmonic mean under other random streams",
		Header: []string{"class", "IPC vs FR-FCFS by seed", "spread (max - min)", "avg latency vs FR-FCFS by seed", "spread (max - min)"},
		Notes:  []string{"Seed 0 is the other tables' runs; the others draw every warp's random choices (which line of a window, a neighbour, a pointer) from another stream, the workload otherwise the same. A finding whose gap to the thesis is within the spread is not settled by the model."},
	}
	for _, c := range []Class{HIL, LIL} {
		if len(e.members(c)) == 0 {
			continue
		}
		row := []string{c.String()}
		for _, metric := range []func(*Result) float64{(*Result).IPC, (*Result).AvgLatency} {
			var cells []string
			for _, s := range Seeds {
				cells = append(cells, fmt.Sprintf("%d: %s", s, pct(e.seedGain(c, metric, s))))
			}
			lo, hi := e.gainSpread(c, metric)
			row = append(row, strings.Join(cells, ", "), fmt.Sprintf("%.2f points", 100*(hi-lo)))
		}
		t.Add(row...)
	}
	return t
}

// sweepTable is a sensitivity sweep (6.3): per memory sensitive class and
// value, the class's harmonic mean of MSHR-S+A's IPC over FR-FCFS's with
// set applying the value to a run, and the thesis's figure where it gives
// one.
func (e *evaluation) sweepTable(title, param string, values []int, set func(*runKey, int), thesis map[int]map[Class]float64) *table.Table {
	t := &table.Table{
		Title:  title,
		Header: []string{"class", param, "MSHR-S+A vs FR-FCFS", "thesis", "per skeleton"},
		Notes:  []string{"Harmonic means over the class's skeletons, as the thesis averages. Thesis: chapter 6's figure for the class where it gives one: Figs. 6.1-6.2 at Table 5.1's setup, section 6.3's text at other values."},
	}
	for _, c := range []Class{HIL, LIL} {
		if len(e.members(c)) == 0 {
			continue
		}
		for _, v := range values {
			key := func(w string) runKey {
				k := baseKey(w, MSHRSA)
				set(&k, v)
				return k
			}
			th := ""
			if x, ok := thesis[v][c]; ok {
				th = table.SignedPct(x)
			}
			var each []string
			for _, w := range e.members(c) {
				k := key(w)
				fk := k
				fk.pol = FRFCFS
				each = append(each, w+" "+change(e.runs[k].IPC(), e.runs[fk].IPC()))
			}
			t.Add(c.String(), fmt.Sprint(v), pct(e.classRatio(c, (*Result).IPC, key)-1), th, strings.Join(each, ", "))
		}
	}
	return t
}
