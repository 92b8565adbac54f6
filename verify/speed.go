package verify

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/units"
)

// SpeedRow is one simulator's timed run of the benchmark, with the
// checksums of its run over the cycles every simulator ran (Common) and of
// the timed run itself (Checksum).
type SpeedRow struct {
	Sim      string
	Cycles   uint64 // per stream
	Streams  int    // stimulus streams simulated at once; 0 or 1: one
	Nanos    uint64
	Checksum uint64
	Common   uint64
}

// CyclesPerSecond is the row's simulation speed: stream-cycles per second
// for a multi-stream run.
func (r SpeedRow) CyclesPerSecond() float64 {
	return float64(r.Cycles) * float64(max(1, r.Streams)) / (float64(r.Nanos) / 1e9)
}

// GoBench runs the interpreter's (sim.Sim) benchmark: one reset cycle, then
// cycles of the in-simulator stimulus; it returns the checksum of every
// output word and the nanoseconds the cycles took.
func GoBench(d *hdl.Design, cycles, seed uint64) (checksum, nanos uint64, err error) {
	return goBench(NewGoSim, d, cycles, seed)
}

func goBench(newSim func(*hdl.Design) (*GoSim, error), d *hdl.Design, cycles, seed uint64) (checksum, nanos uint64, err error) {
	g, err := newSim(d)
	if err != nil {
		return 0, 0, err
	}
	if err := Reset(g); err != nil {
		return 0, 0, err
	}
	s := lfsrSeed(seed)
	chk := uint64(lfsrChecksumInit)
	start := time.Now()
	for range cycles {
		g.plan.fill(&s, g.vec)
		chk = g.cycle(g.vec, chk)
	}
	return chk, uint64(time.Since(start).Nanoseconds()), nil
}

// bencher is a simulator process that runs the benchmark itself.
type bencher interface {
	Bench(cycles, seed uint64) (checksum, nanos uint64, err error)
	Close() error
}

// MeasureSpeed runs the LFSR benchmark of d on every simulator: the Go
// simulator (sim.Sim, the interpreter), compiled Go, and Verilator in its
// default build and at its best (BestFlags) for fast cycles, and all of
// them plus Icarus for slow cycles (Icarus is far slower); then the
// compiled multi-stream simulator on DefaultStreams streams for fast
// cycles. The fast runs of all but Icarus are timed
// speedRepeats times, the fastest counting (bestOf). Checksums must agree
// among runs of the same length (for the multi-stream runs, stream 0,
// which has the others' seed); the rows report the fast runs, the
// multi-stream runs in stream-cycles, and Icarus's slow one. Verilator's
// model is built with vopt, Optimize and Unchecked: the hardware alone,
// as the compiled Go and Icarus benchmarks run it.
func MeasureSpeed(d *hdl.Design, fast, slow, seed uint64, vopt VerilatorOptions) ([]SpeedRow, error) {
	vopt.Optimize, vopt.Unchecked = true, true
	type benchSim struct {
		name string
		run  func(cycles uint64) (checksum, nanos uint64, err error)
	}
	// Every run starts from a fresh simulator, so memories start at zero.
	fresh := func(start func() (bencher, error)) func(uint64) (uint64, uint64, error) {
		return func(n uint64) (uint64, uint64, error) {
			s, err := start()
			if err != nil {
				return 0, 0, err
			}
			defer s.Close()
			return s.Bench(n, seed)
		}
	}
	sims := []benchSim{
		{"go", func(n uint64) (uint64, uint64, error) { return GoBench(d, n, seed) }},
		{"go-compiled", fresh(func() (bencher, error) { return NewGoCompiled(d) })},
		{"verilator", fresh(func() (bencher, error) { return NewVerilator(d, vopt) })},
		{verilatorBest, fresh(func() (bencher, error) {
			best := vopt
			best.OptFast = BestFlags
			return NewVerilator(d, best)
		})},
	}

	slowSum, icarusNanos, err := IcarusBench(d, slow, seed)
	if err != nil {
		return nil, err
	}
	var rows []SpeedRow
	for _, s := range sims {
		chk, _, err := s.run(slow)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.name, err)
		}
		if chk != slowSum {
			return nil, fmt.Errorf("checksums differ after %d cycles: icarus %#x, %s %#x", slow, slowSum, s.name, chk)
		}
		chk, ns, err := bestOf(s.run)(fast)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.name, err)
		}
		if len(rows) > 0 && chk != rows[0].Checksum {
			return nil, fmt.Errorf("checksums differ after %d cycles: go %#x, %s %#x", fast, rows[0].Checksum, s.name, chk)
		}
		rows = append(rows, SpeedRow{Sim: s.name, Cycles: fast, Nanos: ns, Checksum: chk, Common: slowSum})
	}
	var compiledSums []uint64
	_, ns, err := bestOf(func(n uint64) (uint64, uint64, error) {
		again, ns, err := CompiledStreamsBench(d, DefaultStreams, n, seed)
		if err == nil && compiledSums != nil && !slices.Equal(again, compiledSums) {
			err = fmt.Errorf("a repeated run of %d cycles gave other checksums", n)
		}
		compiledSums = again
		return 0, ns, err
	})(fast)
	if err != nil {
		return nil, fmt.Errorf("go-compiled-streams: %v", err)
	}
	sums := compiledSums
	if sums[0] != rows[0].Checksum {
		return nil, fmt.Errorf("checksums differ after %d cycles: go %#x, go-compiled-streams stream 0 %#x", fast, rows[0].Checksum, sums[0])
	}
	rows = append(rows, SpeedRow{Sim: compiledStreamsSim, Cycles: fast, Streams: DefaultStreams, Nanos: ns, Checksum: sums[0], Common: slowSum})
	return append(rows, SpeedRow{Sim: "icarus", Cycles: slow, Nanos: icarusNanos, Checksum: slowSum, Common: slowSum}), nil
}

// speedRepeats is how often MeasureSpeed times the simulators whose runs
// take about a second or less (the Go simulator, compiled Go, single- and
// multi-stream, and Verilator), each from a fresh simulator: it reports
// the fastest run, so that a run the machine slowed does not decide a
// ratio.
const speedRepeats = 3

// bestOf runs a benchmark speedRepeats times and returns the fastest run,
// or an error if the runs' checksums differ.
func bestOf(run func(uint64) (uint64, uint64, error)) func(uint64) (uint64, uint64, error) {
	return func(n uint64) (chk, best uint64, err error) {
		for i := range speedRepeats {
			c, ns, err := run(n)
			if err != nil {
				return 0, 0, err
			}
			if i > 0 && c != chk {
				return 0, 0, fmt.Errorf("a repeated run of %d cycles gave checksum %#x, the first %#x", n, c, chk)
			}
			if chk = c; i == 0 || ns < best {
				best = ns
			}
		}
		return chk, best, nil
	}
}

// compiledStreamsSim names the multi-stream row.
var compiledStreamsSim = fmt.Sprintf("go-compiled-streams x%d", DefaultStreams)

// verilatorBest names the row of Verilator built with BestFlags.
const verilatorBest = "verilator " + BestFlags

// Anchor is the speed every ratio is taken against: Verilator at its best,
// the faster of its default build and its BestFlags build.
func Anchor(rows []SpeedRow) float64 {
	var best float64
	for _, r := range rows {
		if r.Sim == "verilator" || r.Sim == verilatorBest {
			best = max(best, r.CyclesPerSecond())
		}
	}
	return best
}

// WriteSpeedTable prints rows with each simulator's speed relative to
// Verilator at its best (Anchor) and to Icarus, and the checksums: over the cycles all of them
// ran (equal in every row) and over the timed run (equal among the fast
// simulators).
func WriteSpeedTable(w io.Writer, title string, rows []SpeedRow) {
	ver := Anchor(rows)
	var ic float64
	var common, timed uint64
	for _, r := range rows {
		switch r.Sim {
		case "verilator":
			timed = r.Cycles
		case "icarus":
			ic, common = r.CyclesPerSecond(), r.Cycles
		}
	}
	t := &table.Table{Title: title, Header: []string{"simulator", "cycles", "seconds", "cycles/s (streams: stream-cycles/s)", "x verilator at best", "x icarus",
		fmt.Sprintf("checksum @%d", common), fmt.Sprintf("checksum @%d", timed)}}
	for _, r := range rows {
		cps := r.CyclesPerSecond()
		own := fmt.Sprintf("%016x", r.Checksum)
		if r.Cycles != timed {
			own = "-"
		}
		t.Add(r.Sim, fmt.Sprint(r.Cycles), fmt.Sprintf("%.3f", float64(r.Nanos)/1e9), fmt.Sprintf("%.0f", cps),
			fmt.Sprintf("%.2f", cps/ver), fmt.Sprintf("%.1f", cps/ic), fmt.Sprintf("%016x", r.Common), own)
	}
	t.Write(w, "text")
}

// The speed goals (issue 48), each against Verilator at its best on the
// same design: compiled Go, one stream, at least as fast; 64 compiled
// streams 8 times its cycles per second in stream-cycles; a lockstep
// check of compiled Go beside Verilator 0.9 times Verilator alone
// (BenchmarkLockstep).
const (
	singleStreamGoal = 1.0
	multiStreamGoal  = 8.0
	lockstepGoal     = 0.9
)

// SpeedGoals writes a line per goal over the designs measured (rows by
// design, in order): how many meet it, and each that does not with its
// ratio and the shortfall.
func SpeedGoals(w io.Writer, designs []string, rows map[string][]SpeedRow) {
	for _, goal := range []struct {
		sim  string
		want float64
	}{{"go-compiled", singleStreamGoal}, {compiledStreamsSim, multiStreamGoal}} {
		met := 0
		var short []string
		for _, d := range designs {
			ratio := 0.0
			for _, r := range rows[d] {
				if r.Sim == goal.sim {
					ratio = r.CyclesPerSecond() / Anchor(rows[d])
				}
			}
			if ratio >= goal.want {
				met++
				continue
			}
			short = append(short, fmt.Sprintf("%s %.2fx (%.0f%% short)", d, ratio, 100*(1-ratio/goal.want)))
		}
		line := fmt.Sprintf("goal: %s >= %gx Verilator at its best: met on %d of %d designs", goal.sim, goal.want, met, len(designs))
		if len(short) > 0 {
			line += "; below: " + strings.Join(short, ", ")
		}
		fmt.Fprintln(w, line)
	}
}

// speedCycles are the cycles MeasureSpeed runs a design of ops operations
// for: the fast simulators about 4 * 10^8 operations (400,000 cycles of
// comb1000), Icarus 1/2,000 of that, each within bounds.
func speedCycles(ops int) (fast, slow uint64) {
	fast = uint64(min(1_000_000, max(2_000, 400_000_000/max(1, ops))))
	return fast, min(200_000, max(10, fast/2_000))
}

// SpeedFamily times every speed configuration a family registers
// (units.Family.Speed) with MeasureSpeed, prints each one's table, then a
// summary of the Go simulators' speed relative to Verilator; make bench
// runs it from each family's check package (BenchmarkSpeed).
func SpeedFamily(b *testing.B, family string) {
	f, err := units.LookupFamily(family)
	if err != nil {
		b.Fatalf("%v (import the family's package to register it)", err)
	}
	if len(f.Speed) == 0 {
		b.Fatalf("family %s registers no speed configurations", family)
	}
	sum := &table.Table{
		Title:  fmt.Sprintf("%s: simulation speed relative to Verilator (LFSR stimulus, equal checksums)", family),
		Header: []string{"design", "operations", "verilator at best cycles/s", "of " + verilatorBest, "go x verilator", "go-compiled x verilator", compiledStreamsSim + " x verilator"},
	}
	var names []string
	measured := map[string][]SpeedRow{}
	for _, c := range f.Speed {
		d, err := c.Build(strings.ReplaceAll(c.Unit, "-", "_"))
		if err != nil {
			b.Fatalf("%s: %v", c, err)
		}
		ops := sim.New(d).Ops()
		fast, slow := speedCycles(ops)
		var rows []SpeedRow
		b.Run(c.String(), func(b *testing.B) {
			for b.Loop() {
				if rows, err = MeasureSpeed(d, fast, slow, 1, VerilatorOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			for _, r := range rows {
				b.ReportMetric(r.CyclesPerSecond(), strings.ReplaceAll(r.Sim, " ", "_")+"_cycles/s")
			}
		})
		if len(rows) == 0 {
			continue
		}
		WriteSpeedTable(os.Stdout, fmt.Sprintf("\n%s (%d operations): LFSR stimulus, equal checksums", c, ops), rows)
		names, measured[c.String()] = append(names, c.String()), rows
		speed := map[string]float64{}
		for _, r := range rows {
			speed[r.Sim] = r.CyclesPerSecond()
		}
		anchor := Anchor(rows)
		ratio := func(sim string) string { return fmt.Sprintf("%.2f", speed[sim]/anchor) }
		sum.Add(c.String(), fmt.Sprint(ops), fmt.Sprintf("%.0f", anchor), fmt.Sprintf("%.2fx the default", speed[verilatorBest]/speed["verilator"]), ratio("go"), ratio("go-compiled"), ratio(compiledStreamsSim))
	}
	fmt.Println()
	sum.Write(os.Stdout, "text")
	SpeedGoals(os.Stdout, names, measured)
}
