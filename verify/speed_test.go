package verify

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/stretchr/testify/require"
)

// speedDesigns are the designs make bench measures: the hdl issue's
// 1,000-node design, the largest design available, and a small sequential
// one with memories.
var speedDesigns = []struct {
	name       string
	make       func() *hdl.Module
	fast, slow uint64 // cycles for the fast simulators and for all
}{
	// Icarus is event driven: in deep random logic every input change
	// ripples through the levels one delta cycle at a time, so it manages
	// only tens of cycles per second on these designs.
	{"comb1000", func() *hdl.Module { return designs.RandomComb("comb1000", 1000, 32, 1) }, 400_000, 200},
	{"comb10000", func() *hdl.Module { return designs.RandomComb("comb10000", 10000, 32, 1) }, 40_000, 10},
	{"counter_ram", designs.CounterRAM, 4_000_000, 200_000},
}

// BenchmarkSimulatorSpeed runs each design for a fixed number of cycles on
// every simulator with the same LFSR stimulus generated inside each one,
// prints cycles per second, the ratios to Verilator and Icarus, and each
// output checksum (which must all be equal). make bench runs it once
// (-benchtime 1x).
func BenchmarkSimulatorSpeed(b *testing.B) {
	var names []string
	measured := map[string][]SpeedRow{}
	defer func() { SpeedGoals(os.Stdout, names, measured) }()
	for _, sd := range speedDesigns {
		b.Run(sd.name, func(b *testing.B) {
			d, err := hdl.Elaborate(sd.make())
			if err != nil {
				b.Fatal(err)
			}
			var rows []SpeedRow
			for b.Loop() {
				if rows, err = MeasureSpeed(d, sd.fast, sd.slow, 1, MachineMade); err != nil {
					b.Fatal(err)
				}
			}
			WriteSpeedTable(os.Stdout, fmt.Sprintf("\n%s: LFSR stimulus, equal checksums", sd.name), rows)
			names, measured[sd.name] = append(names, sd.name), rows
			for _, r := range rows {
				b.ReportMetric(r.CyclesPerSecond(), strings.ReplaceAll(r.Sim, " ", "_")+"_cycles/s")
			}
		})
	}
}

// BenchmarkLockstep measures compared cycles per second between a Go
// golden model and Verilator on the 1,000-node design, with every output
// compared every cycle: in the fast mode Check uses (the in-simulator
// stimulus, a digest of each batch's outputs over the pipes), and with random
// stimulus fed through the pipes and full outputs compared; each the
// fastest of speedRepeats runs, simulator start included. Verilator is
// built with BestFlags (its faster build on comb1000). Each run
// follows a run of Verilator's own benchmark loop over the same cycles,
// and the ratio to the fastest of those is printed: the goal's ratio, in
// one run, so that the machine's drift between benchmarks does not
// decide it.
func BenchmarkLockstep(b *testing.B) {
	d, err := hdl.Elaborate(designs.RandomComb("comb1000", 1000, 32, 1))
	if err != nil {
		b.Fatal(err)
	}
	ports := PortsOf(d)
	fed := func(seed uint64) Stimulus { return NewRandom(ports, seed) }
	for _, run := range []struct {
		name     string
		gold     Backend
		stimulus func(uint64) Stimulus
	}{
		{"go-compiled_vs_verilator/in-simulator", GoCompiledBackend(d), nil},
		{"go_vs_verilator/in-simulator", GoBackend(d), nil},
		{"go-compiled_vs_verilator/fed", GoCompiledBackend(d), fed},
		{"go_vs_verilator/fed", GoBackend(d), fed},
	} {
		b.Run(run.name, func(b *testing.B) {
			const cycles = 2_000_000
			optimized := MachineMade // Verilator at its best on comb1000: its BestFlags build
			optimized.Optimize, optimized.OptFast = true, BestFlags
			for _, warm := range []Backend{run.gold, VerilatorBackend(d, optimized)} {
				s, err := warm(false) // builds outside the timing
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
			best := time.Duration(0) // the fastest of speedRepeats runs, as MeasureSpeed's
			alone := uint64(0)       // Verilator's own loop over the same cycles, timed between them
			for b.Loop() {
				for range speedRepeats {
					v, err := NewVerilator(d, optimized)
					if err != nil {
						b.Fatal(err)
					}
					_, ns, err := v.Bench(cycles, 1)
					v.Close()
					if err != nil {
						b.Fatal(err)
					}
					if alone == 0 || ns < alone {
						alone = ns
					}
					start := time.Now()
					res, err := Lockstep(Config{
						Backends: []Backend{run.gold, VerilatorBackend(d, optimized)},
						Stimulus: run.stimulus,
						Seed:     1,
						Cycles:   cycles,
					})
					if err != nil {
						b.Fatal(err)
					}
					if res.Cycles != cycles {
						b.Fatalf("lockstep compared %d cycles of %d", res.Cycles, cycles)
					}
					if t := time.Since(start); best == 0 || t < best {
						best = t
					}
				}
			}
			perSecond := float64(cycles) / best.Seconds()
			aloneSpeed := float64(cycles) / (float64(alone) / 1e9)
			verdict := "met"
			if perSecond/aloneSpeed < lockstepGoal {
				verdict = fmt.Sprintf("%.0f%% short", 100*(1-perSecond/aloneSpeed/lockstepGoal))
			}
			fmt.Printf("lockstep %s on comb1000: %.0f compared cycles/s (%d outputs each), %.2fx Verilator alone (%.0f cycles/s, timed between the runs); goal >= %gx: %s\n",
				run.name, perSecond, len(ports.Out), perSecond/aloneSpeed, aloneSpeed, lockstepGoal, verdict)
			b.ReportMetric(perSecond, "cycles/s")
		})
	}
}

// TestBestOfTakesTheFastestRun: bestOf reports the fastest of
// speedRepeats runs with their checksum, and fails when a repeated run
// gives another checksum.
func TestBestOfTakesTheFastestRun(t *testing.T) {
	times := []uint64{30, 10, 20}
	run := 0
	chk, ns, err := bestOf(func(uint64) (uint64, uint64, error) {
		run++
		return 7, times[run-1], nil
	})(100)
	if err != nil || chk != 7 || ns != 10 || run != speedRepeats {
		t.Fatalf("bestOf: checksum %d, %d ns, %d runs, %v; want 7, 10 ns, %d runs", chk, ns, run, err, speedRepeats)
	}
	run = 0
	if _, _, err := bestOf(func(uint64) (uint64, uint64, error) {
		run++
		return uint64(run), 5, nil
	})(100); err == nil {
		t.Fatal("bestOf accepted runs with different checksums")
	}
}

// TestSpeedGoals: each goal's line counts the designs that meet it against
// Verilator at its best (the faster of its two builds) and names each
// that does not with its ratio and shortfall.
func TestSpeedGoals(t *testing.T) {
	row := func(sim string, cyclesPerSecond float64) SpeedRow {
		return SpeedRow{Sim: sim, Cycles: 1000, Nanos: uint64(1000 / cyclesPerSecond * 1e9)}
	}
	rows := map[string][]SpeedRow{
		"fast": {row("verilator", 100), row(verilatorBest, 200), row("go-compiled", 250), row(compiledStreamsSim, 2000)},
		"slow": {row("verilator", 100), row(verilatorBest, 50), row("go-compiled", 80), row(compiledStreamsSim, 600)},
	}
	var out strings.Builder
	SpeedGoals(&out, []string{"fast", "slow"}, rows)
	require.Equal(t, "goal: go-compiled >= 1x Verilator at its best: met on 1 of 2 designs; below: slow 0.80x (20% short)\n"+
		"goal: "+compiledStreamsSim+" >= 8x Verilator at its best: met on 1 of 2 designs; below: slow 6.00x (25% short)\n", out.String())
}
