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
// The test that calls it must import the family so that it is registered.
func LockstepFamily(t *testing.T, family string) {
	t.Helper()
	f, err := units.LookupFamily(family)
	if err != nil {
		t.Fatalf("%v (import the family's package to register it)", err)
	}
	if len(f.Lockstep.Configs) == 0 {
		t.Fatalf("family %s registers no lockstep configurations", family)
	}
	top := strings.ReplaceAll(family, "-", "_") + "_units"
	lockstepPack(t, top, f.Lockstep.Configs, f.Lockstep.Cycles)
	if *longFlag && len(f.Lockstep.Long) > 0 {
		t.Run("long", func(t *testing.T) { lockstepPack(t, top+"_long", f.Lockstep.Long, f.Lockstep.LongCycles) })
	}
}

// lockstepPack runs configurations packed under the module top.
func lockstepPack(t *testing.T, top string, configs []units.Config, cycles int) {
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
	var covers []sim.Cover // of the longest run
	run := func(n int, backends ...Backend) {
		t.Helper()
		res, err := Lockstep(Config{Backends: backends, Seed: TestSeed(t, 3), Cycles: uint64(n)})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d simulators: %d cycles, %d output values compared", len(backends), res.Cycles, res.Compared)
		covers = res.Covers
	}
	goSim := GoBackend(d)
	verilator := VerilatorBackend(d, VerilatorOptions{Lint: true}) // every configuration linted, no waivers
	// Icarus, by far the slowest (its runs of the packs took a sixth of
	// make test's CPU time), checks the first quarter of the cycles, and Go
	// and Verilator go on to the end; make long runs Icarus to the end too.
	icarusCycles := cycles
	if !*longFlag {
		icarusCycles = max(cycles/4, min(cycles, 250))
	}
	run(icarusCycles, goSim, verilator, IcarusBackend(d))
	if icarusCycles < cycles {
		run(cycles, goSim, verilator)
	}
	checkCoverage(t, configs, modules, covers, cycles)
	if !*longFlag { // a pack's compiled streams take up to a minute of Go build
		return
	}
	if err := CheckCompiledStreams(d, 20, uint64(cycles), TestSeed(t, 3)); err != nil {
		t.Fatal(err)
	}
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
// reported as a gap in the stimulus.
func checkCoverage(t *testing.T, configs []units.Config, modules []*hdl.Module, covers []sim.Cover, cycles int) {
	t.Helper()
	if len(covers) == 0 {
		return
	}
	type point struct{ module, name string }
	hits := map[point]uint64{}
	first := map[point]int{} // the first configuration with the point
	var order []point
	for _, c := range covers {
		inst, _, _ := strings.Cut(c.Name, ".")
		k, err := strconv.Atoi(strings.TrimPrefix(inst, "c"))
		if err != nil || k >= len(configs) {
			t.Fatalf("cover point %s is in no configuration of the pack", c.Name)
		}
		pt := point{c.Module, c.Name[strings.LastIndexByte(c.Name, '.')+1:]}
		if _, ok := first[pt]; !ok {
			first[pt] = k
			order = append(order, pt)
		}
		hits[pt] += c.Hits
	}
	reached, lines := 0, map[string][]string{}
	for _, pt := range order {
		if hits[pt] > 0 {
			reached++
		}
		lines[pt.module] = append(lines[pt.module], fmt.Sprintf("%s %d", pt.name, hits[pt]))
	}
	t.Logf("cover points: %d of %d reached by %d cycles of stimulus (a module's, in any instance)", reached, len(order), cycles)
	for _, m := range slices.Sorted(maps.Keys(lines)) {
		t.Logf("  %s: %s", m, strings.Join(lines[m], ", "))
	}
	// The points never reached, by the first configuration with each.
	never := map[int][]point{}
	for _, pt := range order {
		if hits[pt] == 0 {
			never[first[pt]] = append(never[first[pt]], pt)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(never)) {
		d, err := hdl.Elaborate(modules[k])
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, np := range d.Netlist().Properties {
			for _, pt := range never[k] {
				if np.Kind == hdl.CoverPoint && np.Module == pt.module && strings.HasSuffix("."+np.Name, "."+pt.name) {
					names = append(names, np.Name)
				}
			}
		}
		results, err := ProveProperties(d, ProveOptions{Covers: names, Timeout: coverProofTime})
		for _, r := range results {
			if r.Kind != hdl.CoverPoint || !slices.Contains(names, r.Name) {
				continue
			}
			switch r.Verdict {
			case Unreachable:
				t.Logf("%s: cover point %s: proven unreachable", configs[k], r.Name)
			case Reached:
				t.Errorf("%s: cover point %s (%s) never reached in %d cycles of stimulus, though Yosys reaches it (%s): reach it with new stimulus, or state it only where the stimulus reaches it", configs[k], r.Name, r.Pos, cycles, r.Method())
			default:
				t.Logf("%s: cover point %s (%s) never reached in %d cycles of stimulus, and not proven unreachable (%s): a gap in the stimulus", configs[k], r.Name, r.Pos, cycles, r.Method())
			}
		}
		if err != nil {
			t.Logf("%s: cover points %s never reached in %d cycles of stimulus, and not proven unreachable: %v", configs[k], strings.Join(names, ", "), cycles, err)
		}
	}
}
