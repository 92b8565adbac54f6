package dram

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/table"
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
)

// The thesis's figures for MSHR-S+A against FR-FCFS, per class (chapter 6
// and the abstract).
var (
	thesisIPC        = map[Class]float64{HIL: 0.109, LIL: 0.026, Insensitive: 0.007} // Figs. 6.1-6.3
	thesisIPCFigure  = map[Class]string{HIL: "Fig. 6.1", LIL: "Fig. 6.2", Insensitive: "Fig. 6.3"}
	thesisLatency    = map[Class]float64{HIL: -0.28}              // abstract, Fig. 6.6
	thesisFails      = map[Class]float64{HIL: -0.35, LIL: -0.105} // Fig. 6.4
	thesisStalls     = map[Class]float64{HIL: -0.18, LIL: -0.02}  // Fig. 6.7
	thesisLatency100 = map[Class]float64{HIL: 0.06, LIL: 0.02}    // Fig. 6.10, IPC at latency 100
	thesisQueue16    = map[Class]float64{HIL: 0.04, LIL: 0.01}    // Fig. 6.11, IPC at 16 entries
	thesisQueue128   = map[Class]float64{HIL: 0.11, LIL: 0.04}    // Fig. 6.11, IPC at 128 entries
)

// runKey is one run of the report.
type runKey struct {
	workload       string
	pol            Policy
	perfect        bool
	latency, queue int
}

// baseKey is a run at Table 5.1's latency and read queue.
func baseKey(w string, p Policy) runKey {
	return runKey{workload: w, pol: p, latency: L2ToDRAMLatency, queue: Table51Sched().Entries}
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
	return fmt.Sprintf("%s, %s, L2-to-DRAM latency %d, read queue %d", k.workload, k.pol, k.latency, k.queue)
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
		cfg.Perfect, cfg.L2Latency, cfg.ReadQueue = k.perfect, k.latency, k.queue
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
	return []*table.Table{e.classTable(), e.policyTable(), e.thesisTable(),
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

// agreement is the mark of a comparison with the thesis.
func agreement(ok bool) string {
	if ok {
		return "agrees"
	}
	return "DISAGREES"
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

// ofClass is the first workload of class c, if any.
func (e *evaluation) ofClass(c Class) (string, bool) {
	for _, w := range e.workloads {
		if w.Class == c {
			return w.Name, true
		}
	}
	return "", false
}

func (e *evaluation) thesisTable() *table.Table {
	t := &table.Table{
		Title:  "Chapter 6's findings: the thesis beside the model",
		Header: []string{"finding", "workload", "thesis", "ours", "agrees"},
		Notes: []string{
			"Agreement is by sign: a row agrees when our change has the sign of the thesis's (an increase where it reports an increase, a decrease where it reports a decrease; no change agrees with neither). The max latency order row agrees when MSHR-S+A's is below both MSHR-M's and MSHR-S's.",
			"The thesis's figures are averages over Table 5.2's benchmarks of each class; ours are one synthetic workload per class. Changes are MSHR-S+A against FR-FCFS unless the row names another policy.",
			"Our changes are far smaller than the thesis's: in the model the policy chooses among few reads (the policy table's note on the queues). Where the DRAM is saturated (the workloads with many reservation fails under FR-FCFS), a higher IPC can come with a higher measured latency: fewer warps then wait for room in a miss queue, where latency is not counted, and more in the DRAM queues.",
		},
	}
	signed := func(finding string, c Class, thesis map[Class]float64, ours func(w string) float64) {
		w, ok := e.ofClass(c)
		x, known := thesis[c]
		if !ok || !known {
			return
		}
		o := ours(w)
		cell := table.SignedPct(o)
		if math.IsNaN(o) {
			cell = "n/a"
		}
		t.Add(fmt.Sprintf("%s, %s", finding, c), w, table.SignedPct(x), cell, agreement(o*x > 0))
	}
	ratio := func(metric func(*Result) float64) func(string) float64 {
		return func(w string) float64 {
			return metric(e.base(w, MSHRSA))/metric(e.base(w, FRFCFS)) - 1
		}
	}
	sweep := func(set func(*runKey)) func(string) float64 {
		return func(w string) float64 {
			k := baseKey(w, FRFCFS)
			set(&k)
			return e.speedup(k)
		}
	}
	for _, c := range []Class{HIL, LIL, Insensitive} {
		signed("IPC ("+thesisIPCFigure[c]+")", c, thesisIPC, ratio((*Result).IPC))
	}
	signed("average memory latency (abstract, Fig. 6.6)", HIL, thesisLatency, ratio((*Result).AvgLatency))
	for _, c := range []Class{HIL, LIL} {
		w, ok := e.ofClass(c)
		if !ok {
			continue
		}
		f := e.base(w, FRFCFS).MaxLatency
		for _, p := range Policies[1:] {
			m := e.base(w, p).MaxLatency
			t.Add(fmt.Sprintf("max latency, %s vs FR-FCFS, %s (Fig. 6.5)", p, c), w, "up", change(float64(m), float64(f)), agreement(m > f))
		}
		m, s, a := e.base(w, MSHRM).MaxLatency, e.base(w, MSHRS).MaxLatency, e.base(w, MSHRSA).MaxLatency
		t.Add(fmt.Sprintf("max latency, MSHR-S+A the lowest of the three, %s (Fig. 6.5)", c), w, "lowest",
			fmt.Sprintf("M %d, S %d, S+A %d", m, s, a), agreement(a < m && a < s))
	}
	fails := func(r *Result) float64 { return float64(r.ReservationFails) }
	stalls := func(r *Result) float64 { return float64(r.StallCycles) }
	for _, c := range []Class{HIL, LIL} {
		signed("L2 reservation fails (Fig. 6.4)", c, thesisFails, ratio(fails))
	}
	for _, c := range []Class{HIL, LIL} {
		signed("data dependency stalls (Fig. 6.7)", c, thesisStalls, ratio(stalls))
	}
	for _, c := range []Class{HIL, LIL} {
		signed("IPC at L2-to-DRAM latency 100 (Fig. 6.10)", c, thesisLatency100, sweep(func(k *runKey) { k.latency = 100 }))
	}
	for _, c := range []Class{HIL, LIL} {
		signed("IPC at read queue 16 (Fig. 6.11)", c, thesisQueue16, sweep(func(k *runKey) { k.queue = 16 }))
		signed("IPC at read queue 128 (Fig. 6.11)", c, thesisQueue128, sweep(func(k *runKey) { k.queue = 128 }))
	}
	return t
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
