package dram

import (
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

// Workloads are the report's workloads: Presets' names.
var Workloads = []string{"hil", "lil", "ins"}

// DefaultCycles is the report's core cycles per run: the whole report
// (51 runs) takes about 4 minutes on 2 cores.
const DefaultCycles = 300_000

// The sensitivity sweeps of 6.3, each run under FR-FCFS and MSHR-S+A.
var (
	SweepLatencies = []int{0, 20, 50, 100}  // L2-to-DRAM latency (Fig. 6.10)
	SweepQueues    = []int{16, 32, 64, 128} // read queue entries (Fig. 6.11)
	sweepPolicies  = []Policy{FRFCFS, MSHRSA}
	// CmdQDepths are the command queue depths of the choice table.
	CmdQDepths = []int{1, 2, 4}
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
	return fmt.Sprintf("%s, %s, L2-to-DRAM latency %d, read queue %d, command queues %d deep", k.workload, k.pol, k.latency, k.queue, k.depth)
}

// reportKeys are the runs of the report, cheap ones first (parallel.Map
// starts from the end).
func reportKeys(workloads []string) []runKey {
	var keys []runKey
	add := func(k runKey) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, w := range workloads {
		add(perfectKey(w))
	}
	for _, w := range workloads {
		for _, p := range Policies {
			add(baseKey(w, p))
			for _, d := range CmdQDepths {
				k := baseKey(w, p)
				k.depth = d
				add(k)
			}
		}
		for _, p := range sweepPolicies {
			for _, l := range SweepLatencies {
				k := baseKey(w, p)
				k.latency = l
				add(k)
			}
			for _, q := range SweepQueues {
				k := baseKey(w, p)
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

// evaluate runs the report's runs for the workloads of those names.
func evaluate(workloads []string, cycles int, progress io.Writer) (*evaluation, error) {
	e := &evaluation{}
	for _, name := range workloads {
		w, err := Preset(name)
		if err != nil {
			return nil, err
		}
		e.workloads = append(e.workloads, w)
	}
	runs, err := runAll(reportKeys(workloads), cycles, progress)
	e.runs = runs
	return e, err
}

// runAll runs every run of keys, cycles core cycles each, in parallel,
// writing a progress line as each finishes.
func runAll(keys []runKey, cycles int, progress io.Writer) (map[runKey]*Result, error) {
	rs, err := sweep.Map(progress, "dram model", keys, func(k runKey) (*Result, error) {
		w, err := Preset(k.workload)
		if err != nil {
			return nil, err
		}
		cfg := Table51Config(w, k.pol, cycles)
		cfg.Perfect, cfg.L2Latency, cfg.ReadQueue, cfg.CmdQDepth = k.perfect, k.latency, k.queue, k.depth
		return Run(cfg)
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

// speedup is MSHR-S+A's IPC over FR-FCFS's, less one, for the runs at k's
// latency and queue.
func (e *evaluation) speedup(k runKey) float64 {
	k.pol = FRFCFS
	f := e.runs[k]
	k.pol = MSHRSA
	return e.runs[k].IPC()/f.IPC() - 1
}

// perfectSpeedup is Fig. 5.1's speedup with perfect DRAM, less one.
func (e *evaluation) perfectSpeedup(w string) float64 {
	return e.perfect(w).IPC()/e.base(w, FRFCFS).IPC() - 1
}

// class is the class the model measures for workload w (5.2).
func (e *evaluation) class(w string) Class {
	return Classify(e.perfectSpeedup(w), e.base(w, FRFCFS).MergeShare())
}

// evaluationReport runs the report's experiments for the workloads of
// those names, cycles core cycles each.
func evaluationReport(workloads []string, cycles int, progress io.Writer) ([]*table.Table, error) {
	e, err := evaluate(workloads, cycles, progress)
	if err != nil {
		return nil, err
	}
	return []*table.Table{e.classTable(), e.policyTable(), e.choiceTable(), e.thesisTable(),
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
		Title: "Section 5.2's classification of the model's workloads, measured under FR-FCFS at Table 5.1's setup",
		Header: []string{"workload", "description", "merge length > 1 (Fig. 5.2)", "HIL above", "perfect-DRAM speedup (Fig. 5.1)",
			"sensitive above", "measured class", "stands for", "holds"},
		Notes: []string{
			"Merge length > 1: the share of cycles an L2 sub-partition's MSHR holds an entry merging requests of more than one core, over all sub-partitions (Fig. 5.2's black bars).",
			"Perfect DRAM (5.2): a read is complete the cycle it reaches the DRAM controller; the speedup is its IPC over FR-FCFS's, less one.",
		},
	}
	for _, w := range e.workloads {
		c := e.class(w.Name)
		t.Add(w.Name, w.Doc, table.Pct(e.base(w.Name, FRFCFS).MergeShare()), table.Pct(HILMergeShare),
			table.SignedPct(e.perfectSpeedup(w.Name)), table.Pct(SensitiveSpeedup), c.String(), w.Class.String(), table.Holds(c == w.Class))
	}
	return t
}

func (e *evaluation) policyTable() *table.Table {
	t := &table.Table{
		Title: "Chapter 6 on the cycle model: the four policies at Table 5.1's setup (Figs. 6.1-6.9)",
		Header: []string{"workload", "policy", "IPC", "vs FR-FCFS", "avg latency", "vs FR-FCFS", "max latency", "row locality",
			"bandwidth", "reservation fails", "vs FR-FCFS", "warps/read", "stall cycles", "vs FR-FCFS", "dummies", "dummies dropped",
			"read queue holds", "command queues hold"},
		Notes: []string{
			"IPC: instructions of all 15 cores per core cycle. Latencies: core cycles from a load's issue to its data's return. Row locality: column commands per ACT (Fig. 6.8). Bandwidth: the share of DRAM cycles with data on the bus, column commands x tburst over DRAM cycles (Fig. 6.9).",
			"Reservation fails: L2 cycles a request could not reserve an MSHR entry, a merge or a miss queue slot (6.4). Warps/read: warps a DRAM read woke. Stall cycles: core cycles with every warp waiting on a load (Fig. 6.7).",
			"Dummies dropped: dummies that reached the DRAM controller with their read not in the read queue: still in flight, or already issued to the command queues (the MIB keeps no entry for either).",
			"Read queue and command queues hold: a channel's requests in each, on average. The scheduler issues a read as soon as its bank's command queue (4 deep) has room, so the command queues hold as many requests as the read queue or more, served in order per bank: at each issue the policy chooses among the few reads of the banks with room, which is why the policies differ little in the model.",
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

// choiceTable is what Rule 1 chooses among, per workload, command queue
// depth and policy (issue 43's item 3: why the policies differ little).
func (e *evaluation) choiceTable() *table.Table {
	t := &table.Table{
		Title: "What Rule 1 chooses among, by the command queues' depth (requests per bank)",
		Header: []string{"workload", "depth", "policy", "IPC vs FR-FCFS", "avg latency vs FR-FCFS", "eligible reads per read issued",
			"their distinct rows", "issues with one eligible read", "read row hits", "read queue holds", "command queues hold"},
		Notes: []string{
			"Per read the scheduler issues: the reads in the read queue whose bank's command queue has room (Rule 1's candidates), their distinct (bank, row), and whether the read hit its bank's open row. Changes are against FR-FCFS at the same depth.",
			fmt.Sprintf("The model's depth is %d (the policy and findings tables): section 2.3 gives each bank a command queue the scheduler's chosen request is translated into, served in order, without a depth; GPGPU-Sim 3.2.2, which the thesis modified (5.1), holds one request per bank until its column command issues and schedules a bank's next request only then. Deeper queues let the scheduler hand a bank its next requests while the first waits, so it chooses among fewer reads (more issues with a single candidate) and the policies matter less.", DefaultCmdQDepth),
		},
	}
	for _, w := range e.workloads {
		for _, d := range CmdQDepths {
			k := baseKey(w.Name, FRFCFS)
			k.depth = d
			f := e.runs[k]
			for _, p := range Policies {
				k.pol = p
				r := e.runs[k]
				t.Add(w.Name, fmt.Sprint(d), p.String(), change(r.IPC(), f.IPC()), change(r.AvgLatency(), f.AvgLatency()),
					fmt.Sprintf("%.1f", r.AvgChoiceReads()), fmt.Sprintf("%.1f", r.AvgChoiceRows()), table.Pct(r.SoleChoiceShare()),
					table.Pct(r.ReadHitRate()), fmt.Sprintf("%.1f", r.ReadQueueOccupancy()), fmt.Sprintf("%.1f", r.CmdQueueOccupancy()))
			}
		}
	}
	return t
}

// ofClass is the first workload of class c, if any.
func (e *evaluation) ofClass(c Class) (string, bool) {
	for _, w := range e.workloads {
		if w.Class == c {
			return w.Name, true
		}
	}
	return "", false
}

// findings are chapter 6's findings that name a number or a direction,
// each beside ours under verdict's rule (internal/verdict).
type findings struct {
	e *evaluation
	t *table.Table
}

// add is a row: the finding, the workload standing for its class, the
// thesis's number or direction, ours, the verdict and what we measured
// beside it.
func (f findings) add(section, finding string, c Class, w, thesis, ours string, v verdict.Verdict, measured string) {
	f.t.Add(section, fmt.Sprintf("%s, %s", finding, c), w, thesis, ours, v.String(), measured)
}

// value is a finding with a number: the thesis's change paper for class c
// against ours(w), compared as changes.
func (f findings) value(section, finding string, c Class, paper float64, ours func(w string) float64, measured func(w string) string) {
	w, ok := f.e.ofClass(c)
	if !ok {
		return
	}
	o := ours(w)
	f.add(section, finding, c, w, table.SignedPct(paper), table.SignedPct(o), verdict.Value(paper, o), measured(w))
}

// direction is a finding with a direction only: holds(w) says whether
// ours holds it and shows ours.
func (f findings) direction(section, finding string, c Class, thesis string, holds func(w string) (bool, string)) {
	w, ok := f.e.ofClass(c)
	if !ok {
		return
	}
	h, ours := holds(w)
	f.add(section, finding, c, w, thesis, ours, verdict.Direction(h), "")
}

// thesisTable lists chapter 6's findings beside the model's.
func (e *evaluation) thesisTable() *table.Table {
	t := &table.Table{
		Title:  "Chapter 6's findings: the thesis beside the model, under one rule",
		Header: []string{"section", "finding", "workload", "thesis", "ours", "verdict", "measured beside it"},
		Notes: []string{
			fmt.Sprintf("Verdicts (internal/verdict, the project's one rule): exact (equal), matches (within %.0f%%), close (within a factor of %.0f), direction only (the same sign or order, beyond that, or a finding without a number that ours holds), differs (the opposite sign or order), not reproduced. A change is compared as the change itself: +1.1%% against +10.9%% is 10x off, direction only.",
				100*verdict.MatchTolerance, verdict.CloseFactor),
			"The thesis's figures are harmonic means over Table 5.2's benchmarks of each class; ours are one synthetic workload per class. Changes are MSHR-S+A against FR-FCFS unless the row names another policy.",
			"Measured beside it: MSHR-S+A against FR-FCFS on the same workload: L2 reservation fails, stall cycles (every warp waiting on a load), average latency, and the reads' row-hit rate.",
		},
	}
	f := findings{e, t}
	change := func(metric func(*Result) float64, p Policy) func(string) float64 {
		return func(w string) float64 { return metric(e.base(w, p))/metric(e.base(w, FRFCFS)) - 1 }
	}
	fails := func(r *Result) float64 { return float64(r.ReservationFails) }
	stalls := func(r *Result) float64 { return float64(r.StallCycles) }
	beside := func(w string) string {
		a, fr := e.base(w, MSHRSA), e.base(w, FRFCFS)
		return fmt.Sprintf("fails %s, stalls %s, latency %s, row hits %s -> %s", table.SignedPct(change(fails, MSHRSA)(w)),
			table.SignedPct(change(stalls, MSHRSA)(w)), table.SignedPct(a.AvgLatency()/fr.AvgLatency()-1),
			table.Pct(fr.ReadHitRate()), table.Pct(a.ReadHitRate()))
	}
	none := func(string) string { return "" }
	ipc := func(r *Result) float64 { return r.IPC() }
	sweep := func(set func(*runKey)) func(string) float64 {
		return func(w string) float64 {
			k := baseKey(w, FRFCFS)
			set(&k)
			return e.speedup(k)
		}
	}
	ipcOf := func(w string, p Policy) string { return fmt.Sprintf("%s %.3f", p, e.base(w, p).IPC()) }

	// 6.1, Figs. 6.1-6.3.
	f.value("6.1", "IPC (Fig. 6.1)", HIL, thesisIPC[HIL], change(ipc, MSHRSA), beside)
	f.value("6.1", "IPC (Fig. 6.2)", LIL, thesisIPC[LIL], change(ipc, MSHRSA), beside)
	f.direction("6.1", "MSHR-S+A has the best IPC of the four policies (Fig. 6.2)", LIL, "best", func(w string) (bool, string) {
		best := slices.MaxFunc(Policies, func(a, b Policy) int { return cmpFloat(e.base(w, a).IPC(), e.base(w, b).IPC()) })
		return best == MSHRSA, "best: " + ipcOf(w, best)
	})
	f.direction("6.1", "no benchmark slows under MSHR-S+A (Fig. 6.2)", LIL, "none slows", func(w string) (bool, string) {
		d := change(ipc, MSHRSA)(w)
		return d >= 0, table.SignedPct(d)
	})
	f.direction("6.1", "MSHR-S still improves IPC (Fig. 6.2)", LIL, "up", func(w string) (bool, string) {
		d := change(ipc, MSHRS)(w)
		return d > 0, table.SignedPct(d)
	})
	f.value("6.1", "IPC (Fig. 6.3)", Insensitive, thesisIPC[Insensitive], change(ipc, MSHRSA), beside)
	f.direction("6.1", "slowdowns below 1% (only KMN slows) (Fig. 6.3)", Insensitive, "above -1%", func(w string) (bool, string) {
		d := change(ipc, MSHRSA)(w)
		return d > -0.01, table.SignedPct(d)
	})
	// 6.2, Figs. 6.4-6.9.
	for _, c := range []Class{HIL, LIL} {
		f.value("6.2", "L2 reservation fails (Fig. 6.4)", c, thesisFails[c], change(fails, MSHRSA), none)
	}
	maxLat := func(r *Result) float64 { return float64(r.MaxLatency) }
	for _, c := range []Class{HIL, LIL} {
		for _, p := range Policies[1:] {
			f.direction("6.2", fmt.Sprintf("%s raises the max latency over FR-FCFS (Fig. 6.5)", p), c, "up", func(w string) (bool, string) {
				d := change(maxLat, p)(w)
				return d > 0, table.SignedPct(d)
			})
		}
		f.direction("6.2", "MSHR-S+A has the lowest max latency of the three (Fig. 6.5)", c, "lowest", func(w string) (bool, string) {
			m, s, a := e.base(w, MSHRM).MaxLatency, e.base(w, MSHRS).MaxLatency, e.base(w, MSHRSA).MaxLatency
			return a < m && a < s, fmt.Sprintf("M %d, S %d, S+A %d", m, s, a)
		})
	}
	avgLat := func(r *Result) float64 { return r.AvgLatency() }
	f.value("abstract", "average memory latency (Fig. 6.6)", HIL, thesisLatency[HIL], change(avgLat, MSHRSA), beside)
	for _, c := range []Class{HIL, LIL} {
		f.direction("6.2", "MSHR-S+A lowers the average latency more than MSHR-S (Fig. 6.6)", c, "S+A < S < FR-FCFS", func(w string) (bool, string) {
			s, a := change(avgLat, MSHRS)(w), change(avgLat, MSHRSA)(w)
			return a < s && s < 0, fmt.Sprintf("S %s, S+A %s", table.SignedPct(s), table.SignedPct(a))
		})
	}
	for _, c := range []Class{HIL, LIL} {
		f.value("6.2", "data dependency stalls (Fig. 6.7)", c, thesisStalls[c], change(stalls, MSHRSA), beside)
	}
	f.direction("6.2", "MSHR-S cuts stalls the most (Fig. 6.7)", HIL, "S lowest", func(w string) (bool, string) {
		least := slices.MinFunc(Policies[1:], func(a, b Policy) int { return cmpFloat(stalls(e.base(w, a)), stalls(e.base(w, b))) })
		return least == MSHRS, fmt.Sprintf("lowest: %s (%s)", least, table.SignedPct(change(stalls, least)(w)))
	})
	f.direction("6.2", "MSHR-S raises row locality (Fig. 6.8)", LIL, "up", func(w string) (bool, string) {
		fr, s := e.base(w, FRFCFS).RowLocality(), e.base(w, MSHRS).RowLocality()
		return s > fr, fmt.Sprintf("%.2f -> %.2f", fr, s)
	})
	for _, c := range []Class{HIL, LIL} { // "similar": our ratio against 1
		if w, ok := e.ofClass(c); ok {
			fr, a := e.base(w, FRFCFS).BandwidthUtil(), e.base(w, MSHRSA).BandwidthUtil()
			f.add("6.2", "DRAM bandwidth utilization about the same (Fig. 6.9)", c, w, "similar",
				fmt.Sprintf("%s -> %s", table.Pct(fr), table.Pct(a)), verdict.Value(1, a/fr), "")
		}
	}
	// 6.3, Figs. 6.10-6.11.
	for _, c := range []Class{HIL, LIL} {
		f.value("6.3.1", "IPC at L2-to-DRAM latency 100 (Fig. 6.10)", c, thesisLatency100[c], sweep(func(k *runKey) { k.latency = 100 }), none)
	}
	f.direction("6.3.1", "a longer L2-to-DRAM latency lowers the gain (Fig. 6.10)", HIL, "+6% at 100 < +10.9% at 20", func(w string) (bool, string) {
		at100, at20 := sweep(func(k *runKey) { k.latency = 100 })(w), sweep(func(*runKey) {})(w)
		return at100 < at20, fmt.Sprintf("%s at 100, %s at 20", table.SignedPct(at100), table.SignedPct(at20))
	})
	for _, c := range []Class{HIL, LIL} {
		f.value("6.3.2", "IPC at read queue 16 (Fig. 6.11)", c, thesisQueue16[c], sweep(func(k *runKey) { k.queue = 16 }), none)
		f.value("6.3.2", "IPC at read queue 128 (Fig. 6.11)", c, thesisQueue128[c], sweep(func(k *runKey) { k.queue = 128 }), none)
	}
	f.direction("6.3.2", "a larger read queue, a larger gain (Fig. 6.11)", HIL, "grows with the queue", func(w string) (bool, string) {
		var gains []string
		grows := true
		prev := math.Inf(-1)
		for _, q := range SweepQueues {
			g := sweep(func(k *runKey) { k.queue = q })(w)
			grows = grows && g > prev
			prev = g
			gains = append(gains, fmt.Sprintf("%d: %s", q, table.SignedPct(g)))
		}
		return grows, strings.Join(gains, ", ")
	})
	return t
}

// cmpFloat orders float64s for slices.MaxFunc and MinFunc.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sweepTable is a sensitivity sweep (6.3): per workload and value, the
// IPCs of FR-FCFS and MSHR-S+A with set applying the value to a run, and
// the thesis's figure where it gives one for the workload's class.
func (e *evaluation) sweepTable(title, param string, values []int, set func(*runKey, int), thesis map[int]map[Class]float64) *table.Table {
	t := &table.Table{
		Title:  title,
		Header: []string{"workload", param, "FR-FCFS IPC", "MSHR-S+A IPC", "MSHR-S+A vs FR-FCFS", "thesis"},
		Notes:  []string{"Thesis: chapter 6's figure for the workload's class where it gives one: Figs. 6.1-6.3 at Table 5.1's setup, section 6.3's text at other values."},
	}
	for _, w := range e.workloads {
		for _, v := range values {
			k := baseKey(w.Name, FRFCFS)
			set(&k, v)
			f := e.runs[k]
			k.pol = MSHRSA
			th := ""
			if x, ok := thesis[v][w.Class]; ok {
				th = table.SignedPct(x)
			}
			t.Add(w.Name, fmt.Sprint(v), fmt.Sprintf("%.3f", f.IPC()), fmt.Sprintf("%.3f", e.runs[k].IPC()), table.SignedPct(e.speedup(k)), th)
		}
	}
	return t
}
