package verify

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/sweep"
	"github.com/stretchr/testify/require"
)

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
// designs run on the Go simulator, Verilator and Icarus in lockstep, many to a build. A design that
// differs, or that a tool will not build, is reported by its index and
// RandomNetlist seed and left out, and the rest of its pack is compared
// without it. Progress goes to stderr.
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
	var checked, failed atomic.Int64
	for first := 0; first < len(ks); first += per {
		pack := ks[first:min(first+per, len(ks))]
		n := len(pack)
		t.Run(fmt.Sprintf("designs%d-%d", pack[0], pack[n-1]), func(t *testing.T) {
			t.Parallel() // one pack's C++ build overlaps another's simulation
			seeds := make([]uint64, n)
			for i, k := range pack {
				seeds[i] = netlistSeed(run, k)
			}
			failures := checkPack(fmt.Sprintf("fuzz%d", pack[0]), seeds, run)
			for _, f := range failures {
				t.Errorf("design n%d (netlist %d, RandomNetlist seed %d) of pack fuzz%d %s", f.index, pack[f.index], seeds[f.index], pack[0], f.text)
			}
			checked.Add(int64(n - len(failures)))
			failed.Add(int64(len(failures)))
			progress.Add(n)
		})
	}
	t.Cleanup(func() { // after the parallel packs
		t.Logf("%d random designs of shard %s agree on Go, Verilator and Icarus; %d do not", checked.Load(), shard, failed.Load())
		if !t.Failed() && checked.Load() != int64(len(ks)) {
			t.Errorf("checked %d designs, want %d", checked.Load(), len(ks))
		}
		if *netlistFile != "" && !t.Failed() {
			writeNetlistShard(t, *netlistFile, name, shard, total, run, ks)
		}
	})
}

// packFailure is a design of a pack that differs or that a tool refuses.
type packFailure struct {
	index int    // in the pack
	text  string // what differs, or the tool's message
}

// checkPack runs the RandomNetlist designs of seeds as one pack called
// name in lockstep, with stimulus from run, and returns the designs that
// fail. Failing designs are left out and the rest run again: one that
// differs names itself by its ports (n<i>_...), those a tool refuses by
// their modules' files in its messages (<name>_n<i>...v:<line>). When a
// failure names no design, or the pack fails again, each half of it runs
// on its own the same way.
func checkPack(name string, seeds []uint64, run uint64) []packFailure {
	designs := make([]*hdl.Module, len(seeds))
	for i, seed := range seeds {
		designs[i] = RandomNetlist(fmt.Sprintf("%s_n%d", name, i), seed)
	}
	var failures []packFailure
	var check func(live []int)
	check = func(live []int) {
		for first := true; len(live) > 0; first = false {
			err := lockstepNetlists(Pack(fmt.Sprintf("%s_%d", name, len(failures)), "n", designsOf(designs, live)), run)
			if err == nil {
				return
			}
			named := failingDesigns(err, name, live, func(i int) string { return checkAlone(seeds[i], run) })
			failures = append(failures, named...)
			live = slices.DeleteFunc(live, func(i int) bool {
				return slices.ContainsFunc(named, func(f packFailure) bool { return f.index == i })
			})
			switch {
			case len(named) == 0 && len(live) == 1:
				failures = append(failures, packFailure{live[0], "fails: " + err.Error()})
				return
			case len(named) == 0 || !first: // (many fail: halve rather than build once a failure)
				if len(live) > 0 {
					check(slices.Clone(live[:len(live)/2]))
					check(slices.Clone(live[len(live)/2:]))
				}
				return
			}
		}
	}
	all := make([]int, len(seeds))
	for i := range all {
		all[i] = i
	}
	check(all)
	slices.SortFunc(failures, func(a, b packFailure) int { return a.index - b.index })
	return failures
}

// designsOf are designs[i] for i in live.
func designsOf(designs []*hdl.Module, live []int) []*hdl.Module {
	ms := make([]*hdl.Module, len(live))
	for j, i := range live {
		ms[j] = designs[i]
	}
	return ms
}

// failingDesigns are the designs of the live ones of pack name that err
// names: the one whose output differs (with alone's report of it run by
// itself), or those in whose modules' files a tool's messages are, each
// with its lines of them.
func failingDesigns(err error, name string, live []int, alone func(i int) string) []packFailure {
	var me *MismatchError
	if errors.As(err, &me) {
		if at := designIndex(me.M.Port); at >= 0 && at < len(live) {
			i := live[at]
			_, port, _ := strings.Cut(me.M.Port, "_") // (n<at>_: its place in this run of the pack)
			return []packFailure{{i, fmt.Sprintf("differs at cycle %d on %s (%s); the design alone:\n%s", me.M.Cycle, port, simValues(me.M), alone(i))}}
		}
		return nil
	}
	inFile := regexp.MustCompile(regexp.QuoteMeta(name) + `_n(\d+)(_\w+)?\.v:\d+`)
	lines := map[int][]string{}
	var order []int
	msg := strings.Split(err.Error(), "\n")
	for _, line := range msg {
		m := inFile.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		if !slices.Contains(live, i) {
			continue
		}
		if lines[i] == nil {
			order = append(order, i)
		}
		lines[i] = append(lines[i], strings.TrimSpace(line))
	}
	var named []packFailure
	for _, i := range order {
		named = append(named, packFailure{i, fmt.Sprintf("fails: %s\n%s", msg[0], strings.Join(lines[i], "\n"))})
	}
	return named
}

// TestFailingDesignsAreNamed: a difference names the design at its
// port's place among the designs run; a tool's messages name each design
// whose module files they are in, with its lines, and no design not run;
// a message without a file names none.
func TestFailingDesignsAreNamed(t *testing.T) {
	live := []int{0, 5, 7}
	alone := func(i int) string { return fmt.Sprintf("alone %d", i) }
	me := &MismatchError{&Mismatch{Cycle: 3, Port: "n2_y0", Values: []SimValue{{"go", "1'b0"}, {"verilator", "1'b1"}}}}
	got := failingDesigns(fmt.Errorf("lockstep: %w", me), "fuzz0", live, alone)
	require.Equal(t, []packFailure{{7, "differs at cycle 3 on y0 (go 1'b0, verilator 1'b1); the design alone:\nalone 7"}}, got)

	build := errors.New("iverilog build of fuzz0_1 failed: <nil>\n" +
		"fuzz0_n5_e.v:34: warning: @* found no sensitivities so it will never trigger.\n" +
		"fuzz0_n7.v:3: warning: something\n" +
		"fuzz0_n9.v:3: warning: a design not run\n" +
		"fuzz0_n5_e_r0.v:40: warning: again")
	got = failingDesigns(build, "fuzz0", live, alone)
	require.Equal(t, []packFailure{
		{5, "fails: iverilog build of fuzz0_1 failed: <nil>\nfuzz0_n5_e.v:34: warning: @* found no sensitivities so it will never trigger.\nfuzz0_n5_e_r0.v:40: warning: again"},
		{7, "fails: iverilog build of fuzz0_1 failed: <nil>\nfuzz0_n7.v:3: warning: something"},
	}, got)
	require.Empty(t, failingDesigns(errors.New("verilator build of fuzz0_1 failed: exit status 1\nfuzz0_1.v:3: in the pack's top"), "fuzz0", live, alone))
	require.Empty(t, failingDesigns(&MismatchError{&Mismatch{Port: "n3_y0"}}, "fuzz0", live, alone), "a port past the designs run")
}

// Cycles of a pack of random netlists: the Go simulator, its interpreter
// and Verilator run netlistCycles, Icarus (slower than the three together
// by far: half of a pack's time) the first netlistIcarusCycles of them.
const netlistCycles, netlistIcarusCycles = 200, 50

// lockstepNetlists runs a pack of random netlists on the Go simulator,
// Verilator and Icarus.
func lockstepNetlists(m *hdl.Module, run uint64) error {
	d, err := hdl.Elaborate(m)
	if err != nil {
		return fmt.Errorf("random netlists must elaborate: %w", err)
	}
	goSim, verilator := GoBackend(d), VerilatorBackend(d, MachineMade)
	_, err = Lockstep(Config{Backends: []Backend{goSim, verilator, IcarusBackend(d)}, Seed: run, Cycles: netlistIcarusCycles})
	if err == nil {
		_, err = Lockstep(Config{Backends: []Backend{goSim, verilator}, Seed: run, Cycles: netlistCycles})
	}
	return err
}

// simValues lists each simulator's value of a mismatch.
func simValues(m *Mismatch) string {
	vs := make([]string, len(m.Values))
	for i, v := range m.Values {
		vs[i] = v.Sim + " " + v.Value
	}
	return strings.Join(vs, ", ")
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
		Cycles:   netlistCycles,
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

// TestRandomNetlistsHoldTheEdgeShapes: make test's 1,000 random designs
// hold every edge shape at least 250 times.
func TestRandomNetlistsHoldTheEdgeShapes(t *testing.T) {
	count := map[string]int{}
	for i := range *netlistCount {
		_, made := edgeModule("shapes", netlistSeed(1, i), maxNetWidth)
		for _, name := range made {
			count[name]++
		}
	}
	for _, shape := range edgeShapes {
		require.GreaterOrEqualf(t, count[shape.name], 250, "%s in %d designs", shape.name, *netlistCount)
	}
	t.Logf("edge shapes in %d designs: %v", *netlistCount, count)
}

// soakSeed is the run of make soak whose shards found soakFindings.
const soakSeed = 20261127

// soakFindings are the designs on which soak shards of soakSeed found the
// Go simulator differing from Verilator and Icarus, or a tool refusing our
// Verilog, by their RandomNetlist seeds, and the shapes that caused them
// as minimal designs made by hand, with those the edge shapes of
// netedges.go found in make test's designs when they were added.
func soakFindings() []*hdl.Module {
	var ms []*hdl.Module
	for _, seed := range []uint64{
		20261187824482, // shard 1/20, n55 of its pack: a 1-bit NOT widened to 31 bits into an AND
		20261187804962, // shard 1/20, n79: a 1-bit NOT widened to 24 bits into an AND
		20261187796021, // shard 0/20, fuzz12000_n32: Verilator's internal error on ^~{89'd0, x}
		20261187793622, // shard 1/20, fuzz8001_n112_s0: the same across a port, 72 bits
		20261187818922, // shard 1/20, fuzz32001_n177_s0: Icarus: @* found no sensitivities
		20261187789902, // shard 1/20, fuzz4001_n126: the same
		20261187837902, // shard 1/20, netlist 54521: machine code kept a Concat's word that a wide Mul read in a register only
	} {
		ms = append(ms, RandomNetlist(fmt.Sprintf("seed%d", seed), seed))
	}
	notIntoAnd := func(w int) *hdl.Module { // a & {zeros, ~b}
		m := hdl.NewModule(fmt.Sprintf("not_into_and%d", w))
		a, b := m.Input("a", w), m.Input("b", 1)
		m.Output("y", w).Drive(a.And(b.Not().Zext(w)))
		return m
	}
	parity := hdl.NewModule("parity_of_not_zext") // ^~{89'd0, a}
	a := parity.Input("a", 1)
	parity.Output("y", 1).Drive(a.Zext(90).Not().RedXor())
	sub := hdl.NewModule("parity_of_not") // the same across a port
	sub.Output("y", 1).Drive(sub.Input("i", 72).Not().RedXor())
	ported := hdl.NewModule("parity_across_port")
	u := ported.Instance("u", sub)
	u.Connect("i", ported.Input("a", 1).Zext(72))
	ported.Output("y", 1).Drive(u.Out("y"))
	// Found by the edge shapes (make test's designs, then shard 2/20):
	// Verilator 5.006 computes ~{128'd0, a} wrongly for a reader of its
	// word that holds a where an OR reduction of it, or of its constant
	// words alone, or a != with zero reads it, also across a port.
	corrupted := hdl.NewModule("wide_or_beside_bit")
	n := corrupted.Input("a", 1).Zext(129).Not()
	corrupted.Output("y", 4).Drive(hdl.Concat(n.Bit(7), n.RedAnd(), n.RedOr(), n.Bit(0)))
	constantWords := hdl.NewModule("or_of_constant_words")
	n = constantWords.Input("a", 1).Zext(128).Not()
	constantWords.Output("y", 2).Drive(hdl.Concat(n.Bit(15), n.Slice(127, 64).RedOr()))
	compared := hdl.NewModule("wide_ne_zero")
	ne := compared.Input("i", 129).Not()
	compared.Output("y", 2).Drive(hdl.Concat(ne.Bit(7), ne.Ne(compared.Input("z", 129))))
	comparedPort := hdl.NewModule("wide_ne_zero_across_port")
	u = comparedPort.Instance("u", compared)
	u.Connect("i", comparedPort.Input("a", 1).Zext(129))
	u.Connect("z", comparedPort.ConstU(129, 0))
	comparedPort.Output("y", 2).Drive(u.Out("y"))
	wideOperand := hdl.NewModule("wide_operand") // a wide operand whose words are read apart
	cat := hdl.Concat(wideOperand.Input("a", 49), wideOperand.Input("b", 49))
	wideOperand.Output("high", 1).Drive(cat.Bit(83))
	wideOperand.Output("low", 1).Drive(cat.Bit(3))
	wideOperand.Output("sra", 98).Drive(cat.Sra(4))
	constant := hdl.NewModule("constant_select") // case (1'b0) 1'd0: y = 1'b0; ...
	constant.Output("y", 1).Drive(hdl.Select(constant.ConstU(1, 0), constant.ConstU(1, 0)))
	constant.Output("z", 4).Drive(constant.Input("x", 4).Xor(hdl.Select(constant.ConstU(2, 1), constant.ConstU(4, 3), constant.ConstU(4, 9))))
	return append(ms, notIntoAnd(31), notIntoAnd(24), parity, ported, corrupted, constantWords, comparedPort, wideOperand, constant)
}

// TestSoakFindings holds the Go simulator to Verilator and Icarus on soakFindings: Verilator must build the
// Verilog (with only the flags DESIGN.md asks of its users,
// verilatorWorkarounds) and Icarus take it silently.
func TestSoakFindings(t *testing.T) {
	d, err := hdl.Elaborate(Pack("findings", "n", soakFindings()))
	require.NoError(t, err)
	_, err = Lockstep(Config{
		Backends: []Backend{GoBackend(d), VerilatorBackend(d, MachineMade), IcarusBackend(d)},
		Seed:     soakSeed,
		Cycles:   1000,
	})
	require.NoError(t, err)
}

// TestVerilatorBitOpTreeWorkaround keeps the design that exposed a
// Verilator 5.006 miscompilation (see verilatorWorkarounds), and the
// minimal one of its shape, in the suite: one-bit logic of bits from
// different words of wide sums.
func TestVerilatorBitOpTreeWorkaround(t *testing.T) {
	m := hdl.NewModule("bitop_minimal")
	s := m.Input("a", 105).Zext(106).Add(m.Input("b", 105).Zext(106))
	d := m.Input("c", 65).Add(m.Const(hdl.MustParse("65'h1d2ccced878ad00cf")))
	m.Output("y", 1).Drive(s.Bit(0).Eq(s.Bit(105).Xor(d.Bit(64))))
	m.Output("carry", 1).Drive(s.Bit(105))
	packed, err := hdl.Elaborate(Pack("bitoptree", "n", []*hdl.Module{RandomNetlist("bitoptree_seed", 1000104), m}))
	require.NoError(t, err)
	_, err = Lockstep(Config{
		Backends: []Backend{GoBackend(packed), VerilatorBackend(packed, MachineMade)},
		Seed:     1,
		Cycles:   1000,
	})
	require.NoError(t, err)
}
