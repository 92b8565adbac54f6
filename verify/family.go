package verify

import (
	"flag"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/units"
)

var longFlag = flag.Bool("verify.long", false, "also run the families' long lockstep configurations (make long)")

// LockstepFamily runs every lockstep configuration a unit family registers
// (units.Family.Lockstep) on the Go simulator and Verilator in
// lockstep for the family's cycles, and on Icarus with them for the first
// quarter of them (at least 250; all of them with -verify.long), all
// packed under one top module so that one build of each simulator covers
// them; with -verify.long, its long configurations too, in a pack of
// their own (a subtest, "long"). Each configuration is built under a
// module name unique to its values (sams_atu_q3_n23_lanes1). A pack must pass
// Verilator's -Wall lint (its Verilator build lints it); with
// -verify.long, it must then run the same on twenty stimulus streams at
// once in compiled Go, full groups of a design's lanes and a partial one,
// as on each alone (CheckCompiledStreams; make test checks those on
// random netlists).
// Then, if the family shapes some units' stimulus (Lockstep.Shapes), Go
// and Verilator (Icarus too with -verify.long) run the pack again from
// reset for its ShapedCycles on the shaped stimulus. It returns each
// pack's coverage over both its runs (checkCoverage): the pack's, then,
// with -verify.long, the long pack's.
// The test that calls it must import the family so that it is registered.
func LockstepFamily(t *testing.T, family string) []CoverageRecord {
	t.Helper()
	f, err := units.LookupFamily(family)
	if err != nil {
		t.Fatalf("%v (import the family's package to register it)", err)
	}
	if len(f.Lockstep.Configs) == 0 {
		t.Fatalf("family %s registers no lockstep configurations", family)
	}
	top := PackName(family)
	recs := []CoverageRecord{lockstepPack(t, top, f.Lockstep.Configs, f.Lockstep.Cycles, f.Lockstep.ShapedCycles, f.Lockstep.Shapes)}
	if *longFlag && len(f.Lockstep.Long) > 0 {
		t.Run("long", func(t *testing.T) {
			recs = append(recs, lockstepPack(t, top+"_long", f.Lockstep.Long, f.Lockstep.LongCycles, f.Lockstep.ShapedCycles, f.Lockstep.Shapes))
		})
	}
	return recs
}

// PackName is the top module of a family's lockstep pack, and the name of
// its CoverageRecord: "dram_units"; its long pack's is PackName + "_long".
func PackName(family string) string { return strings.ReplaceAll(family, "-", "_") + "_units" }

// lockstepPack runs configurations packed under the module top for
// cycles of random stimulus, then, when shapes shape any of them, for
// shapedCycles of the shaped stimulus, and returns their coverage.
func lockstepPack(t *testing.T, top string, configs []units.Config, cycles, shapedCycles int, shapes map[string]units.Shape) CoverageRecord {
	t.Helper()
	var modules []*hdl.Module
	var names []string
	seen := map[string]string{}
	for _, c := range configs {
		m, err := buildConfig(c)
		if err != nil {
			t.Fatalf("lockstep %s: %v", c, err)
		}
		if other, dup := seen[m.Name()]; dup {
			t.Fatalf("lockstep %s and %s are the same configuration (%s)", other, c, m.Name())
		}
		seen[m.Name()] = c.String()
		modules = append(modules, m)
		names = append(names, m.Name())
	}
	t.Logf("%d configurations: %s", len(names), strings.Join(names, ", "))
	d, err := hdl.Elaborate(Pack(top, "c", modules))
	if err != nil {
		t.Fatal(err)
	}
	ports := PortsOf(d)
	run := func(n int, stimulus func(uint64) Stimulus, backends ...Backend) []sim.Cover {
		t.Helper()
		res, err := Lockstep(Config{Backends: backends, Stimulus: stimulus, Seed: TestSeed(t, 3), Cycles: uint64(n)})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d simulators: %d cycles, %d output values compared", len(backends), res.Cycles, res.Compared)
		if want := uint64(n) * uint64(len(ports.Out)); res.Cycles != uint64(n) || res.Compared != want {
			t.Fatalf("%d cycles run and %d output values compared, want %d and %d", res.Cycles, res.Compared, n, want)
		}
		return res.Covers
	}
	goSim := GoBackend(d)
	verilator := VerilatorBackend(d, VerilatorOptions{Lint: true}) // every configuration linted, no waivers
	icarus := IcarusBackend(d)
	// Icarus, by far the slowest (its runs of the packs took a sixth of
	// make test's CPU time), checks the first quarter of the cycles, and Go
	// and Verilator go on to the end; make long runs Icarus to the end too.
	icarusCycles := cycles
	if !*longFlag {
		icarusCycles = max(cycles/4, min(cycles, 250))
	}
	covers := run(icarusCycles, nil, goSim, verilator, icarus)
	if icarusCycles < cycles {
		covers = run(cycles, nil, goSim, verilator) // of the longer run
	}
	shaped, checkShapes, err := shapedStimulus(ports, configs, shapes)
	if err != nil {
		t.Fatal(err)
	}
	if shaped != nil {
		backends := []Backend{goSim, verilator}
		if *longFlag {
			backends = append(backends, icarus)
		}
		covers = addCovers(covers, run(shapedCycles, shaped, backends...))
		if err := checkShapes(); err != nil {
			t.Fatal(err)
		}
		cycles += shapedCycles
	}
	rec := checkCoverage(t, top, configs, modules, covers, cycles)
	if !*longFlag { // a pack's compiled streams take up to a minute of Go build
		return rec
	}
	if err := CheckCompiledStreams(d, 20, uint64(cycles), TestSeed(t, 3)); err != nil {
		t.Fatal(err)
	}
	return rec
}

// maxModuleName is the longest module name buildConfig gives.
const maxModuleName = 64

// buildConfig builds a unit configuration under a module name unique to
// its resolved values: the unit's module name, then _<param><value> for
// each parameter it has (Optional ones when given). A name longer than
// maxModuleName (Verilator shortens those with a hash of its own, and then
// lints that the file name differs) becomes the unit's module name and a
// hash of the long one.
func buildConfig(c units.Config) (*hdl.Module, error) {
	u, v, err := c.Resolve()
	if err != nil {
		return nil, err
	}
	name := u.ModuleName()
	for _, p := range u.Params {
		if x, ok := v[p.Name]; ok {
			name += fmt.Sprintf("_%s%d", strings.ReplaceAll(p.Name, "-", "_"), x)
		}
	}
	if len(name) > maxModuleName {
		h := fnv.New32a()
		h.Write([]byte(name))
		name = fmt.Sprintf("%s_h%08x", u.ModuleName(), h.Sum32())
	}
	return u.Build(v, name)
}

// coverProofTime bounds each Yosys run that looks at a cover point a
// pack's stimulus never reached.
const coverProofTime = 5 * time.Second

// checkCoverage reports how often the pack's stimulus reached each cover
// point, counting a module's in all its instances in all configurations.
// For one never reached, Yosys looks at the first configuration that has
// it: proven unreachable is fine (though a cover point nothing can reach
// says nothing), reachable fails the test (the stimulus misses a case it
// should exercise), and no answer (too large, or out of time) is
// reported as a gap in the stimulus. It records the outcome as the pack's
// CoverageRecord in coverageDir (gen -report coverage reads it), and
// returns it.
func checkCoverage(t *testing.T, top string, configs []units.Config, modules []*hdl.Module, covers []sim.Cover, cycles int) CoverageRecord {
	t.Helper()
	rec := CoverageRecord{Pack: top, Cycles: cycles, Configs: configs}
	index := map[[2]string]int{} // into rec.Points, by module and name
	for _, c := range covers {
		inst, _, _ := strings.Cut(c.Name, ".")
		k, err := strconv.Atoi(strings.TrimPrefix(inst, "c"))
		if err != nil || k >= len(configs) {
			t.Fatalf("cover point %s is in no configuration of the pack", c.Name)
		}
		key := [2]string{c.Module, lastName(c.Name)}
		i, ok := index[key]
		if !ok {
			i = len(rec.Points)
			index[key] = i
			rec.Points = append(rec.Points, CoverPoint{Module: key[0], Name: key[1]})
		}
		p := &rec.Points[i]
		if !slices.Contains(p.Configs, k) {
			p.Configs = append(p.Configs, k)
		}
		p.Hits += c.Hits
	}
	reached, lines := 0, map[string][]string{}
	never := map[int][]int{} // the points never reached, by the first configuration with each
	for i := range rec.Points {
		p := &rec.Points[i]
		slices.Sort(p.Configs)
		if p.Hits > 0 {
			reached++
		} else {
			never[p.Configs[0]] = append(never[p.Configs[0]], i)
		}
		lines[p.Module] = append(lines[p.Module], fmt.Sprintf("%s %d", p.Name, p.Hits))
	}
	if len(rec.Points) > 0 {
		t.Logf("cover points: %d of %d reached by %d cycles of stimulus (a module's, in any instance)", reached, len(rec.Points), cycles)
	}
	for _, m := range slices.Sorted(maps.Keys(lines)) {
		t.Logf("  %s: %s", m, strings.Join(lines[m], ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(never)) {
		judgeNeverReached(t, configs[k], modules[k], rec.Points, never[k], cycles)
	}
	rec.Date = time.Now().UTC()
	dir, err := coverageDir()
	if err == nil {
		err = WriteCoverage(dir, rec)
	}
	if err != nil {
		t.Errorf("recording the pack's coverage: %v", err)
	}
	return rec
}

// judgeNeverReached has Yosys look at the cover points points[i], i in
// todo, that the stimulus never reached, in the configuration c (built as
// m), and sets each one's verdict: unreachable when every instance of it
// in m is proven so, else a gap, with why.
func judgeNeverReached(t *testing.T, c units.Config, m *hdl.Module, points []CoverPoint, todo []int, cycles int) {
	t.Helper()
	d, err := hdl.Elaborate(m)
	if err != nil {
		t.Fatal(err)
	}
	pointOf := func(np hdl.NetProperty) int {
		for _, i := range todo {
			if np.Kind == hdl.CoverPoint && np.Module == points[i].Module && lastName(np.Name) == points[i].Name {
				return i
			}
		}
		return -1
	}
	var names []string
	held, open := map[int]bool{}, map[int]int{} // m holds the point; its instances not proven unreachable
	for _, np := range d.Netlist().Properties {
		if i := pointOf(np); i >= 0 {
			names = append(names, np.Name)
			held[i] = true
			open[i]++
		}
	}
	why := map[int]string{}
	results, err := ProveProperties(d, ProveOptions{Covers: names, Timeout: coverProofTime})
	for _, r := range results {
		i := pointOf(r.NetProperty)
		if i < 0 {
			continue // of no point in todo
		}
		switch r.Verdict {
		case Unreachable:
			open[i]--
			t.Logf("%s: cover point %s: proven unreachable", c, r.Name)
		case Reached:
			why[i] = fmt.Sprintf("Yosys reaches %s (%s): the pack fails", r.Name, r.Method())
			t.Errorf("%s: cover point %s (%s) never reached in %d cycles of stimulus, though Yosys reaches it (%s): reach it with new stimulus, or state it only where the stimulus reaches it", c, r.Name, r.Pos, cycles, r.Method())
		default:
			if why[i] == "" {
				why[i] = r.Method()
				if r.Name != points[i].Name { // the instance, where it is not the top
					why[i] = r.Name + ": " + why[i]
				}
			}
			t.Logf("%s: cover point %s (%s) never reached in %d cycles of stimulus, and not proven unreachable (%s): a gap in the stimulus", c, r.Name, r.Pos, cycles, r.Method())
		}
	}
	if err != nil {
		t.Logf("%s: cover points %s never reached in %d cycles of stimulus, and not proven unreachable: %v", c, strings.Join(names, ", "), cycles, err)
	}
	for _, i := range todo {
		p := &points[i]
		switch {
		case held[i] && open[i] == 0:
			p.Verdict = CoverUnreachable
		case why[i] != "":
			p.Verdict, p.Why = CoverGap, why[i]
		case err != nil:
			p.Verdict, p.Why = CoverGap, err.Error()
		default:
			p.Verdict, p.Why = CoverGap, "Yosys gave no verdict"
		}
	}
}

// lastName is a hierarchical name's last part: a property's name in its
// module.
func lastName(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }
