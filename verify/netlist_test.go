package verify

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/sweep"
	"github.com/stretchr/testify/require"
)

// netlistVerilator builds the packs quickly: they run 200 cycles each.
var netlistVerilator = VerilatorOptions{Flags: MachineMade.Flags, Quick: true}

var (
	netlistCount = flag.Int("verify.netlists", 1000, "random netlists TestRandomNetlists checks (make test: 1000 from seed 1; make soak: 100000 from a fresh seed)")
	netlistPack  = flag.Int("verify.pack", 200, "random netlists per Verilator build")
	// make soak on N machines: each runs the netlists of its shard (netlist
	// k is shard k mod N's) with the same -verify.seed and writes the ones
	// that passed to its -verify.shardfile; -verify.merge checks the files
	// hold every netlist of the run once.
	netlistShard = flag.String("verify.shard", "0/1", "TestRandomNetlists checks only the netlists of shard i/N (0-based)")
	netlistFile  = flag.String("verify.shardfile", "", "TestRandomNetlists writes the netlists it checked to this shard file when all pass")
	netlistMerge = flag.String("verify.merge", "", "TestRandomNetlists runs nothing and checks that these shard files (comma-separated) passed every netlist of the run once")
)

// netlistSeed is the seed of design i of a run.
func netlistSeed(run uint64, i int) uint64 { return run*1_000_003 + uint64(i) }

// TestRandomNetlists is the differential fuzz of the framework: random
// designs run on the Go simulator (machine code), its interpreter,
// Verilator and Icarus in lockstep, many to a build. A mismatch names the
// port n<i>_o<k>, and the log gives the seed of design i. Progress goes to
// stderr.
func TestRandomNetlists(t *testing.T) {
	run := TestSeed(t, 1)
	total, per := *netlistCount, *netlistPack
	name := fmt.Sprintf("TestRandomNetlists -verify.seed=%d -verify.netlists=%d", run, total)
	if *netlistMerge != "" {
		files, err := sweep.Load(strings.Split(*netlistMerge, ","), name)
		require.NoError(t, err, "-verify.merge")
		t.Logf("%d random designs agree on Go, Verilator and Icarus in %d shards", total, len(files))
		return
	}
	shard, err := sweep.ParseShard(*netlistShard)
	require.NoError(t, err, "-verify.shard")
	ks := shard.Jobs(total)
	progress := sweep.NewProgress(os.Stderr, "TestRandomNetlists shard "+shard.String(), "netlists", len(ks), time.Now)
	var checked atomic.Int64
	for first := 0; first < len(ks); first += per {
		pack := ks[first:min(first+per, len(ks))]
		n := len(pack)
		t.Run(fmt.Sprintf("designs%d-%d", pack[0], pack[n-1]), func(t *testing.T) {
			t.Parallel() // one pack's C++ build overlaps another's simulation
			seeds := make([]uint64, n)
			for i, k := range pack {
				seeds[i] = netlistSeed(run, k)
			}
			m := PackNetlists(fmt.Sprintf("fuzz%d", pack[0]), seeds)
			d, err := hdl.Elaborate(m)
			require.NoError(t, err, "random netlists must elaborate (seeds %d..%d)", seeds[0], seeds[n-1])
			_, err = Lockstep(Config{
				Backends: []Backend{GoBackend(d), VerilatorBackend(d, netlistVerilator), IcarusBackend(d), InterpreterBackend(d)},
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
			progress.Add(n)
		})
	}
	t.Cleanup(func() { // after the parallel packs
		t.Logf("%d random designs of shard %s agree on Go, Verilator and Icarus", checked.Load(), shard)
		if !t.Failed() && checked.Load() != int64(len(ks)) {
			t.Errorf("checked %d designs, want %d", checked.Load(), len(ks))
		}
		if *netlistFile != "" && !t.Failed() {
			writeNetlistShard(t, *netlistFile, name, shard, total, run, ks)
		}
	})
}

// writeNetlistShard writes the shard file of a soak shard that passed:
// the netlists it checked, each with its seed, for -verify.merge.
func writeNetlistShard(t *testing.T, file, name string, shard sweep.Shard, total int, run uint64, ks []int) {
	f := &sweep.File{Run: name, Shard: shard.String(), Jobs: total}
	for _, k := range ks {
		f.Results = append(f.Results, sweep.Result{Job: k, Key: fmt.Sprintf("RandomNetlist seed %d", netlistSeed(run, k))})
	}
	b, err := f.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, b, 0o644), "-verify.shardfile")
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
