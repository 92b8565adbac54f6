package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

// proveFlags are gen -prove's options.
type proveFlags struct {
	bound, maxBits int
	vcd, out       string
}

// proveCommand: gen -unit NAME [params] -prove [-bound N] [-vcd DIR]
// [-o F]. It prints one row a property (its verdict, how, the time), then
// each counterexample as the inputs that change cycle by cycle, replayed
// in the Go simulator, which must fail the same assertion in the same
// cycle. A failed assertion makes the exit status 1.
func proveCommand(u *units.Unit, v units.Values, d *hdl.Design, f proveFlags, stdout, stderr io.Writer) error {
	if f.vcd != "" {
		if fi, err := os.Stat(f.vcd); err != nil || !fi.IsDir() {
			return badf("-vcd %s: not a directory", f.vcd)
		}
	}
	nl := d.Netlist()
	if len(nl.Properties) == 0 {
		return badf("-prove: unit %s states no properties", u.Name)
	}
	start := time.Now()
	results, err := verify.ProveProperties(d, verify.ProveOptions{Depth: f.bound, MaxStateBits: f.maxBits, Progress: func(done, total int, r verify.PropertyResult) {
		fmt.Fprintf(stderr, "gen: %d/%d %s %s: %s (%.1f s)\n", done, total, r.Kind, r.Name, r.Verdict, r.Time.Seconds())
	}})
	var large *verify.TooLargeError
	if errors.As(err, &large) {
		return badf("-prove: %s holds %d state bits, more than -maxbits %d; give it smaller parameters (or a larger -maxbits, for a proof of minutes to hours)", units.Config{Unit: u.Name, Values: v}, large.Bits, large.Max)
	}
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Properties of %s (%s), proved by Yosys on its Verilog within %d time steps in %.1f s\n\n",
		nl.Top, units.Config{Unit: u.Name, Values: v}, f.bound, time.Since(start).Seconds())
	t := &table.Table{Header: []string{"property", "kind", "verdict", "how", "time (s)", "where"}}
	failed := 0
	for _, r := range results {
		secs := fmt.Sprintf("%.2f", r.Time.Seconds())
		if r.Cached {
			secs += " (cached)"
		}
		if r.Verdict == verify.Assumed {
			secs = ""
		}
		t.Add(r.Name, r.Kind.String(), string(r.Verdict), r.Method(), secs, r.Pos.String())
		if r.Verdict == verify.Failed {
			failed++
		}
	}
	if err := t.Write(&b, "text"); err != nil {
		return err
	}
	for _, r := range results {
		if r.Verdict != verify.Failed && r.Verdict != verify.Reached {
			continue
		}
		if err := traceReport(&b, d, r, f.vcd); err != nil {
			return err
		}
	}
	if err := emit(f.out, stdout, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d properties failed", failed, len(results))
	}
	return nil
}

// proveAllCommand: gen -unit all -prove [-bound N] [-maxbits N] [-o F]:
// every unit's properties, at the smallest configuration of it that its
// family runs in lockstep or lists to prove (smallestConfig), one row a unit: how many
// properties each verdict took and the time. A failed
// assertion makes the exit status 1 (gen -unit NAME -prove shows it).
func proveAllCommand(bound, maxBits int, out string, stdout, stderr io.Writer) error {
	t := &table.Table{Header: []string{"unit", "configuration", "state bits", "assertions", "proven", "failed", "open", "covers", "reached", "unreachable", "uncovered", "time (s)"}}
	failed := 0
	start := time.Now()
	for _, f := range reg.Families() {
		for _, u := range f.Units {
			c, d, bits, err := smallestConfig(f, u)
			if err != nil {
				return err
			}
			config := strings.TrimSpace(strings.TrimPrefix(c.String(), u.Name))
			if bits > maxBits {
				t.Add(u.Name, config, fmt.Sprint(bits), "too large to prove (-maxbits)", "", "", "", "", "", "", "", "")
				continue
			}
			fmt.Fprintf(stderr, "gen: proving %s (%d state bits)\n", c, bits)
			unitStart := time.Now()
			results, err := verify.ProveProperties(d, verify.ProveOptions{Depth: bound, MaxStateBits: maxBits, Timeout: allProofTime})
			if err != nil {
				return fmt.Errorf("%s: %v", c, err)
			}
			n := map[verify.Verdict]int{}
			asserts, covers := 0, 0
			for _, r := range results {
				n[r.Verdict]++
				switch r.Kind {
				case hdl.Assertion:
					asserts++
				case hdl.CoverPoint:
					covers++
				}
			}
			failed += n[verify.Failed]
			uncovered := covers - n[verify.Reached] - n[verify.Unreachable] // open cover points
			t.Add(u.Name, config, fmt.Sprint(bits), fmt.Sprint(asserts), fmt.Sprint(n[verify.Proven]), fmt.Sprint(n[verify.Failed]),
				fmt.Sprint(n[verify.Open]-uncovered), fmt.Sprint(covers), fmt.Sprint(n[verify.Reached]), fmt.Sprint(n[verify.Unreachable]), fmt.Sprint(uncovered),
				fmt.Sprintf("%.1f", time.Since(unitStart).Seconds()))
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Every unit's properties at its smallest lockstep or proof configuration, proved by Yosys on its Verilog within %d time steps in %.0f s\n\n", bound, time.Since(start).Seconds())
	if err := t.Write(&b, "text"); err != nil {
		return err
	}
	if err := emit(out, stdout, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d assertions failed (gen -unit NAME -prove shows each counterexample)", failed)
	}
	return nil
}

// allProofTime bounds each Yosys run of gen -unit all -prove: a
// property it does not settle in time is open (gen -unit NAME -prove has
// no such bound).
const allProofTime = time.Minute

// smallestConfig is the configuration of u, among those its family runs
// in lockstep or lists to prove (its defaults when there is none), that
// holds the fewest state bits (of those, the fewest netlist nodes: a
// combinational unit has none), elaborated.
func smallestConfig(f *units.Family, u *units.Unit) (units.Config, *hdl.Design, int, error) {
	configs := []units.Config{{Unit: u.Name}}
	for _, c := range slices.Concat(f.Lockstep.Configs, f.Prove.Configs) {
		if c.Unit == u.Name {
			configs = append(configs, c)
		}
	}
	if len(configs) > 1 {
		configs = configs[1:]
	}
	var best units.Config
	var bestD *hdl.Design
	bestBits := -1
	for _, c := range configs {
		_, v, err := c.Resolve()
		if err != nil {
			return c, nil, 0, err
		}
		d, err := elaborate(u, v, u.ModuleName())
		if err != nil {
			return c, nil, 0, err
		}
		bits := verify.StateBits(d)
		if bestBits < 0 || bits < bestBits || bits == bestBits && len(d.Netlist().Nodes) < len(bestD.Netlist().Nodes) {
			best, bestD, bestBits = c, d, bits
		}
	}
	return best, bestD, bestBits, nil
}

// traceReport writes a counterexample or cover trace: the inputs that
// change in each cycle, what the Go simulator does on them, and the VCD.
func traceReport(b *bytes.Buffer, d *hdl.Design, r verify.PropertyResult, dir string) error {
	what := "Counterexample"
	if r.Verdict == verify.Reached {
		what = "Trace reaching"
	}
	fmt.Fprintf(b, "\n%s %s (%s), %d cycles; the inputs that change:\n", what, r.Name, r.Pos, len(r.Trace))
	last := map[string]hdl.Bits{}
	for c, in := range r.Trace {
		names := make([]string, 0, len(in))
		for name := range in {
			names = append(names, name)
		}
		slices.Sort(names)
		var parts []string
		for _, name := range names {
			if old, ok := last[name]; c == 0 || !ok || !old.Equal(in[name]) {
				parts = append(parts, name+"="+in[name].String())
			}
			last[name] = in[name]
		}
		if len(parts) == 0 {
			parts = []string{"(as before)"}
		}
		fmt.Fprintf(b, "  cycle %d: %s\n", c, strings.Join(parts, " "))
	}
	vcd := ""
	if dir != "" {
		vcd = filepath.Join(dir, strings.ReplaceAll(r.Name, ".", "_")+".vcd")
	}
	s, err := verify.Replay(d, r.Trace, vcd)
	if err != nil {
		return err
	}
	switch v := s.Violation(); {
	case r.Verdict == verify.Reached:
		for _, c := range s.Covers() {
			if c.Name == r.Name {
				fmt.Fprintf(b, "The Go simulator reaches it on this trace too (%d of its cycles).\n", c.Hits)
			}
		}
	case v == nil:
		return fmt.Errorf("the Go simulator does not fail %s on Yosys's counterexample: the simulator and the Verilog disagree (a parmem bug; please report it)", r.Name)
	case v.Name != r.Name || int(v.Cycle) != len(r.Trace)-1:
		fmt.Fprintf(b, "The Go simulator fails %s first, in cycle %d: %v\n", v.Name, v.Cycle, v)
	default:
		fmt.Fprintf(b, "The Go simulator fails it too: %v\n", v)
	}
	if vcd != "" {
		fmt.Fprintf(b, "Waveform: %s\n", vcd)
	}
	return nil
}
