package verify

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/stretchr/testify/require"
)

// netlistVerilator builds the packs quickly: they run 200 cycles each.
var netlistVerilator = VerilatorOptions{Flags: MachineMade.Flags, Quick: true}

var (
	netlistCount = flag.Int("verify.netlists", 1000, "random netlists TestRandomNetlists checks (make test: 1000 from seed 1; make soak: 100000 from a fresh seed)")
	netlistPack  = flag.Int("verify.pack", 200, "random netlists per Verilator build")
)

// netlistSeed is the seed of design i of a run.
func netlistSeed(run uint64, i int) uint64 { return run*1_000_003 + uint64(i) }

// TestRandomNetlists is the differential fuzz of the framework: random
// designs run on the Go simulator, Verilator and Icarus in lockstep, many
// to a build. A mismatch names the port n<i>_o<k>, and the log gives the
// seed of design i.
func TestRandomNetlists(t *testing.T) {
	run := TestSeed(t, 1)
	total, per := *netlistCount, *netlistPack
	var checked atomic.Int64
	for first := 0; first < total; first += per {
		n := min(per, total-first)
		t.Run(fmt.Sprintf("designs%d-%d", first, first+n-1), func(t *testing.T) {
			t.Parallel() // one pack's C++ build overlaps another's simulation
			seeds := make([]uint64, n)
			for i := range seeds {
				seeds[i] = netlistSeed(run, first+i)
			}
			m := PackNetlists(fmt.Sprintf("fuzz%d", first), seeds)
			d, err := hdl.Elaborate(m)
			require.NoError(t, err, "random netlists must elaborate (seeds %d..%d)", seeds[0], seeds[n-1])
			_, err = Lockstep(Config{
				Backends: []Backend{GoBackend(d), VerilatorBackend(d, netlistVerilator), IcarusBackend(d)},
				Seed:     run,
				Cycles:   200,
			})
			if me, ok := err.(*MismatchError); ok {
				if k := designIndex(me.M.Port); k >= 0 {
					t.Fatalf("design n%d (RandomNetlist seed %d) of the pack differs:\n%s\nthe design alone:\n%s", k, seeds[k], me.M.Text(), checkAlone(seeds[k], run))
				}
			}
			require.NoError(t, err)
			checked.Add(int64(n))
		})
	}
	t.Cleanup(func() { // after the parallel packs
		t.Logf("%d random designs agree on Go, Verilator and Icarus", checked.Load())
		if !t.Failed() && checked.Load() != int64(total) {
			t.Errorf("checked %d designs, want %d", checked.Load(), total)
		}
	})
}

// checkAlone runs one random design by itself, for a report that shows
// only its own inputs.
func checkAlone(seed, run uint64) string {
	d, err := hdl.Elaborate(RandomNetlist("alone", seed))
	if err != nil {
		return err.Error()
	}
	_, err = Lockstep(Config{
		Backends: []Backend{GoBackend(d), VerilatorBackend(d, MachineMade), IcarusBackend(d)},
		Seed:     run,
		Cycles:   200,
	})
	if err == nil {
		return "agrees on its own (the difference needs the pack's stimulus)"
	}
	return err.Error()
}

var designPort = regexp.MustCompile(`^n(\d+)_`)

func designIndex(port string) int {
	var k int
	if m := designPort.FindStringSubmatch(port); m != nil {
		fmt.Sscan(m[1], &k)
		return k
	}
	return -1
}

// TestRandomNetlistsCoverTheLanguage checks that the generator reaches
// every construct the emitter writes.
func TestRandomNetlistsCoverTheLanguage(t *testing.T) {
	seeds := make([]uint64, 100)
	for i := range seeds {
		seeds[i] = netlistSeed(7, i)
	}
	d, err := hdl.Elaborate(PackNetlists("coverage", seeds))
	require.NoError(t, err)
	v := string(d.Verilog())
	for _, construct := range []string{
		" ~", " & ", " | ", " ^ ", " = &", " = |", " = ^", " + ", " - ", " * ", " << ", " >> ",
		">>> ", " == ", " != ", " < ", " <= ", " > ", " >= ", "$signed(", " ? ", "case (",
		"{", "'d0, ", "[", "always @(posedge clk)", "else if (", "reg [", " [0:", "] <= ", "_o",
	} {
		require.Truef(t, strings.Contains(v, construct), "no %q in 100 random designs", construct)
	}
	for _, kind := range []string{"_rand_", "_ror_", "_rxor_", "_onehot_", "_sel_", "_repl_", "_sext_", "_mem_read_sync_", "_mem_read_", "_mul_", "_shl_", "_sra_"} {
		require.Truef(t, strings.Contains(v, kind), "no %s node in 100 random designs", kind)
	}
}

// TestVerilatorBitOpTreeWorkaround keeps the design that exposed a
// Verilator 5.006 miscompilation (see verilatorWorkarounds) in the suite.
func TestVerilatorBitOpTreeWorkaround(t *testing.T) {
	d, err := hdl.Elaborate(RandomNetlist("bitoptree", 1000104))
	require.NoError(t, err)
	_, err = Lockstep(Config{
		Backends: []Backend{GoBackend(d), VerilatorBackend(d, MachineMade)},
		Seed:     1,
		Cycles:   400,
	})
	require.NoError(t, err)
}
