package vmshr

import (
	"fmt"
	"io"

	"github.com/parmem/parmem/internal/sweep"
)

// Pair is one kernel run on the baseline (32 B loads) and with Alg. 6.1's
// adaptive granularity.
type Pair struct {
	Kernel         *Kernel
	Base, Adaptive *Result
}

// Speedup is the baseline's cycles over the adaptive run's.
func (p Pair) Speedup() float64 { return float64(p.Base.Cycles) / float64(p.Adaptive.Cycles) }

// ETotGain is the adaptive run's E_tot over the baseline's.
func (p Pair) ETotGain() float64 { return p.Adaptive.ETot() / p.Base.ETot() }

// memo holds every run this process made, so that the vmshr report and
// the fidelity report (gen -report all runs both) share their runs. A
// kernel's name and the Config name a run: Kernels builds the same kernels
// every time.
var memo sweep.Memo[memoKey, *Result]

type memoKey struct {
	kernel string
	cfg    Config
}

// Evaluate runs every kernel on both configurations on interconnect icnt
// with vcs virtual channels, in parallel, writing a progress line per run.
func Evaluate(icnt Icnt, vcs int, progress io.Writer) ([]Pair, error) {
	type job struct {
		k   *Kernel
		cfg Config
	}
	var jobs []job
	ks := Kernels()
	for _, k := range ks {
		for _, adaptive := range []bool{false, true} {
			jobs = append(jobs, job{k, Config{Adaptive: adaptive, VCs: vcs, Icnt: icnt}})
		}
	}
	rs, err := sweep.Map(progress, "vmshr", jobs, func(j job) (*Result, error) {
		return memo.Get(memoKey{j.k.Name, j.cfg}, func() (*Result, error) { return Run(j.k, j.cfg) })
	})
	if err != nil {
		return nil, err
	}
	pairs := make([]Pair, len(ks))
	for i, k := range ks {
		pairs[i] = Pair{Kernel: k, Base: rs[2*i], Adaptive: rs[2*i+1]}
	}
	return pairs, nil
}

// channels says "1 virtual channel" or "2 virtual channels".
func channels(vcs int) string {
	if vcs == 1 {
		return "1 virtual channel"
	}
	return fmt.Sprintf("%d virtual channels", vcs)
}

// Runs are the evaluation on every interconnect and both virtual channel
// counts (Table 6.2's 2, 6.5.6's 1).
type Runs map[Icnt]map[int][]Pair

// EvaluateAll runs Evaluate on every interconnect with 2 and 1 virtual
// channels.
func EvaluateAll(progress io.Writer) (Runs, error) {
	rs := Runs{}
	for i := range IcntNames {
		rs[Icnt(i)] = map[int][]Pair{}
		for _, vcs := range []int{2, 1} {
			ps, err := Evaluate(Icnt(i), vcs, progress)
			if err != nil {
				return nil, err
			}
			rs[Icnt(i)][vcs] = ps
		}
	}
	return rs, nil
}

// Means are a suite's averages.
type Means struct {
	Speedup  float64 // arithmetic mean of the kernels' speedups
	ETotGain float64 // arithmetic mean of the kernels' E_tot ratios
	// SuiteGain is 6.5.3's E_tot over the whole suite (its sums run over
	// kernels too), adaptive over baseline.
	SuiteGain float64
}

// MeansOf averages a suite's pairs.
func MeansOf(ps []Pair) Means {
	var m Means
	var tb, ab, ta, aa []int64
	for _, p := range ps {
		m.Speedup += p.Speedup() / float64(len(ps))
		m.ETotGain += p.ETotGain() / float64(len(ps))
		for i := range p.Base.Channels {
			tb, ab = append(tb, p.Base.Channels[i].Transfers), append(ab, p.Base.Channels[i].ActiveCycles)
			ta, aa = append(ta, p.Adaptive.Channels[i].Transfers), append(aa, p.Adaptive.Channels[i].ActiveCycles)
		}
	}
	m.SuiteGain = ETot([][]int64{ta}, [][]int64{aa}) / ETot([][]int64{tb}, [][]int64{ab})
	return m
}
