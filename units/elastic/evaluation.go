package elastic

import (
	"io"
	"slices"
	"strings"

	"github.com/parmem/parmem/internal/sweep"
)

// The evaluation of thesis section 5.6 on the cycle model: every kernel
// on the baseline and on the elastic pipeline under each scheduler, the
// figures of Tables 5.1 and 5.5 and Figs. 5.8-5.11 derived from the
// runs.

// Setup is one core configuration the evaluation compares.
type Setup struct {
	Name       string
	BackEnd    BackEndKind
	Scheduling Scheduling
}

// Setups are the evaluation's configurations, the baseline first (Figs.
// 5.8 and 5.9 normalize to it).
var Setups = []Setup{
	{"baseline", Unified, RoundRobin},
	{"elastic+RR", Elastic, RoundRobin},
	{"elastic+aware", Elastic, Aware},
	{"variant", Elastic, Variant},
}

// Indexes into Setups.
const (
	SetupBaseline = iota
	SetupRR
	SetupAware
	SetupVariant
)

// KernelResults is one kernel's run on every setup.
type KernelResults struct {
	Kernel Kernel
	By     []Result // by setup, in Setups order
}

// Speedup is setup s's speedup over the baseline, minus one (Fig. 5.9).
func (k KernelResults) Speedup(s int) float64 {
	return float64(k.By[SetupBaseline].Cycles)/float64(k.By[s].Cycles) - 1
}

// StallReduction is the fraction of the baseline's stalls setup s removes
// (Fig. 5.8).
func (k KernelResults) StallReduction(s int) float64 {
	return 1 - float64(k.By[s].TotalStalls())/float64(k.By[SetupBaseline].TotalStalls())
}

// BankStallsRemoved is the fraction of the baseline's bank-conflict
// stalls setup s removes.
func (k KernelResults) BankStallsRemoved(s int) float64 {
	return 1 - float64(k.By[s].Stalls[BankStall])/float64(k.By[SetupBaseline].Stalls[BankStall])
}

// Theoretic is the theoretic speedup minus one from the baseline's
// measured r and degree (Table 5.5's definition, Eq. 5.2).
func (k KernelResults) Theoretic() float64 {
	b := k.By[SetupBaseline]
	return TheoreticSpeedup(b.R(), b.Degree()) - 1
}

// Bound sets setup s's speedup beside Table 5.5's theoretic bound, per
// subwarp the baseline issues (every setup issues the same subwarps, and
// every cycle issues one or stalls, so cycles are issued subwarps plus
// stalls). The bound is 1 + Extra: it takes IPC 1 for every instruction
// but the shared-memory accesses, whose MEM0 cycles beyond the first
// (Extra, r(degree - 1)) are the only stalls it counts and removes. The
// baseline's other stalls, LeftOut (sched fails, other stalls, and the
// difference between its bank stalls and Extra), are stalls the bound
// assumes away; Left are setup s's stalls by cause. The speedup is
// (1 + Extra + LeftOut) / (1 + the sum of Left), so it exceeds the bound
// exactly when LeftOut exceeds the bound times the sum of Left.
type Bound struct {
	Extra, LeftOut float64
	Left           [stallCauses]float64
}

// Bound is setup s's Bound.
func (k KernelResults) Bound(s int) Bound {
	b := k.By[SetupBaseline]
	n := float64(b.Issued)
	out := Bound{Extra: float64(b.SharedCycles-b.SharedAccesses) / n}
	out.LeftOut = float64(b.TotalStalls())/n - out.Extra
	for c, x := range k.By[s].Stalls {
		out.Left[c] = float64(x) / n
	}
	return out
}

// Kept is the sum of Left: the stalls setup s keeps per issued subwarp.
func (b Bound) Kept() float64 {
	sum := 0.0
	for _, x := range b.Left {
		sum += x
	}
	return sum
}

// HandPair is one kernel of Fig. 5.10: unoptimised (the SDK's padding
// undone, Conflicting) and hand-optimised (as the SDK ships it,
// ConflictFree).
type HandPair struct{ Unoptimised, Optimised KernelResults }

// Change is Fig. 5.10's bar less one: the unoptimised kernel's IPC on
// elastic+aware over the hand-optimised kernel's on the baseline.
func (p HandPair) Change() float64 {
	return p.Unoptimised.By[SetupAware].IPC()/p.Optimised.By[SetupBaseline].IPC() - 1
}

// HandPairs pairs each conflict-free kernel with its conflicting twin, in
// ConflictFree's order (Fig. 5.10).
func (e *Evaluation) HandPairs() []HandPair {
	var ps []HandPair
	for _, o := range e.ConflictFree {
		ps = append(ps, HandPair{e.Named(strings.TrimSuffix(o.Kernel.Name, "*")), o})
	}
	return ps
}

// Named is the conflicting kernel of that name's results.
func (e *Evaluation) Named(name string) KernelResults {
	i := slices.IndexFunc(e.Conflicting, func(k KernelResults) bool { return k.Kernel.Name == name })
	if i < 0 {
		panic("elastic: no conflicting kernel " + name)
	}
	return e.Conflicting[i]
}

// Evaluation is every kernel of Table 5.5 and Fig. 5.11 on every setup.
type Evaluation struct {
	Core         Core
	Conflicting  []KernelResults // Kernels(), Table 5.5's order
	ConflictFree []KernelResults // ConflictFreeKernels()
}

// Evaluate runs the evaluation on core c, the runs spread over the
// machine's cores, writing a progress line per kernel as it starts.
func Evaluate(c Core, progress io.Writer) (*Evaluation, error) {
	kernels := Kernels()
	results, err := RunAll(c, append(kernels, ConflictFreeKernels()...), Setups, progress)
	if err != nil {
		return nil, err
	}
	return &Evaluation{Core: c, Conflicting: results[:len(kernels)], ConflictFree: results[len(kernels):]}, nil
}

// RunAll runs every kernel on every setup (setups[0] is the baseline of
// KernelResults' figures) on the machine's cores, writing a progress line
// per kernel.
func RunAll(c Core, kernels []Kernel, setups []Setup, progress io.Writer) ([]KernelResults, error) {
	type job struct{ kernel, setup int }
	var jobs []job
	for i := range kernels {
		for s := range setups {
			jobs = append(jobs, job{i, s})
		}
	}
	runs, err := sweep.Map(progress, "elastic", jobs, func(j job) (Result, error) {
		s := setups[j.setup]
		return Run{Core: c, BackEnd: s.BackEnd, Scheduling: s.Scheduling}.Kernel(kernels[j.kernel])
	})
	if err != nil {
		return nil, err
	}
	results := make([]KernelResults, len(kernels))
	for i, k := range kernels {
		results[i] = KernelResults{Kernel: k, By: runs[i*len(setups) : (i+1)*len(setups) : (i+1)*len(setups)]}
	}
	return results, nil
}

// EvaluateShared runs the kernels of Figs. 5.8-5.9 on the baseline,
// elastic+RR and elastic+aware with core c's loads going to the shared
// DRAM of c.DRAM (dram.go) instead of a fixed latency.
func EvaluateShared(c Core, progress io.Writer) ([]KernelResults, error) {
	c.Memory = SharedDRAM
	return RunAll(c, Kernels(), Setups[:SetupAware+1], progress)
}

// MeanLoad is the mean global-load round trip of setup s's run, in
// cycles.
func (k KernelResults) MeanLoad(s int) float64 {
	return float64(k.By[s].LoadCycles) / float64(k.By[s].Loads)
}

// Mean is the arithmetic mean of f over ks.
func Mean(ks []KernelResults, f func(KernelResults) float64) float64 {
	sum := 0.0
	for _, k := range ks {
		sum += f(k)
	}
	return sum / float64(len(ks))
}

// Max is the largest f over ks and the kernel it is at.
func Max(ks []KernelResults, f func(KernelResults) float64) (float64, string) {
	best, name := f(ks[0]), ks[0].Kernel.Name
	for _, k := range ks[1:] {
		if v := f(k); v > best {
			best, name = v, k.Kernel.Name
		}
	}
	return best, name
}
