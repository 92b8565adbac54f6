package verify

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/cache"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/units"
)

// Proofs of a design's properties (hdl's Module.Assert, Assume, Cover) on
// its emitted Verilog, by Yosys's SAT solver: read_verilog -formal with
// FORMAL defined, the hierarchy flattened, memories as registers, then
// `sat -tempinduct`, which searches for a counterexample from the reset
// state (the base case, rst held in the first step, in which nothing is
// checked: the registers of that step hold anything, and a combinational
// sub-module's properties, which no rst guards, would see them) while it
// tries to prove by k-induction, up to a bound of time steps. The design's
// assumptions constrain every step (-set-assumes).
//
// The assertions are proved together, as one conjunction, which
// strengthens the induction (each one is assumed in the steps before the
// last); a counterexample is replayed in the Go simulator, whose first
// failing assertion is set aside as failed, and the rest proved again.
// When the conjunction is neither proved nor refuted within the bound,
// each is tried alone. A cover point is then searched for with the proven
// assertions as constraints (they hold in every reachable state): a
// trace to it, or a proof that it is never reached.

// Verdict is what a proof found.
type Verdict string

const (
	Proven      Verdict = "proven"      // an assertion holds in every reachable state
	Failed      Verdict = "failed"      // an assertion fails on the trace
	Reached     Verdict = "reached"     // a cover point is reached on the trace
	Unreachable Verdict = "unreachable" // a cover point is proven never reached
	Open        Verdict = "open"        // neither, within the bound
	Assumed     Verdict = "assumed"     // an assumption: proofs rely on it
)

// PropertyResult is the outcome of one property's proof.
type PropertyResult struct {
	hdl.NetProperty
	Verdict Verdict
	// Steps is the induction length k of a proof, the length of a trace
	// (counterexample or cover trace), or the bound an open property was
	// searched to.
	Steps int
	// Trace is the inputs of a counterexample or a cover trace, one map a
	// cycle (rst included), cycle 0 first.
	Trace []map[string]hdl.Bits
	Time  time.Duration
	// Cached reports that Yosys's answer came from the tool cache.
	Cached bool
	// With is how many other assertions a joint proof proved with it
	// (their time is the run's).
	With int
	// TimedOut reports an open verdict for want of time (ProveOptions.Timeout).
	TimedOut bool
}

// Method says how the verdict was reached, for reports.
func (r PropertyResult) Method() string {
	switch r.Verdict {
	case Proven:
		if r.With > 0 {
			return fmt.Sprintf("k-induction, k = %d, with %d others", r.Steps, r.With)
		}
		return fmt.Sprintf("k-induction, k = %d", r.Steps)
	case Unreachable:
		return fmt.Sprintf("k-induction, k = %d", r.Steps)
	case Failed, Reached:
		return fmt.Sprintf("trace of %d cycles", r.Steps)
	case Open:
		if r.TimedOut {
			return fmt.Sprintf("no answer within %.0f s", r.Time.Seconds())
		}
		return fmt.Sprintf("no proof and no trace within %d steps", r.Steps)
	}
	return ""
}

// ProveOptions bound a proof.
type ProveOptions struct {
	// Depth is the most time steps a proof searches (default 20).
	Depth int
	// Progress, when not nil, is called after each property.
	Progress func(done, total int, r PropertyResult)
	// Covers, when not nil, proves only the cover points it names (by
	// NetProperty.Name), without the assertions as constraints: quicker,
	// and weaker.
	Covers []string
	// Timeout, when not 0, bounds each run of Yosys: a property it does
	// not settle in time is open.
	Timeout time.Duration
	// MaxStateBits refuses a design holding more state bits (registers
	// and memory words, which the proof turns into registers) than this
	// (default DefaultMaxStateBits; negative: no limit): its proofs would
	// take minutes to hours.
	MaxStateBits int
}

// DefaultMaxStateBits is the most state bits ProveProperties takes on by
// default: a proof's time grows fast with the state, and thousands of
// bits take minutes.
const DefaultMaxStateBits = 1024

// StateBits counts the bits of d's registers and memories.
func StateBits(d *hdl.Design) int {
	n := 0
	for _, e := range d.StateElements() {
		n += e.Width * max(1, e.Depth)
	}
	return n
}

// TooLargeError is a design too large to prove.
type TooLargeError struct{ Bits, Max int }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the design holds %d state bits, more than the %d a proof takes on; prove a smaller configuration", e.Bits, e.Max)
}

// ProveProperties proves each property of d and returns the results in
// the Netlist's order. Yosys's answers are cached by the hash of the
// Verilog, the script and Yosys's version.
func ProveProperties(d *hdl.Design, opts ProveOptions) ([]PropertyResult, error) {
	if opts.Depth <= 0 {
		opts.Depth = 20
	}
	if opts.MaxStateBits == 0 {
		opts.MaxStateBits = DefaultMaxStateBits
	}
	if bits := StateBits(d); opts.MaxStateBits > 0 && bits > opts.MaxStateBits {
		return nil, &TooLargeError{Bits: bits, Max: opts.MaxStateBits}
	}
	p := &prover{d: d, nl: d.Netlist(), verilog: d.Verilog(), depth: opts.Depth, timeout: opts.Timeout, widths: map[string]int{}}
	for _, in := range d.Top().Inputs() {
		p.widths[in.Name()] = in.Width()
	}
	if p.nl.Seq {
		p.widths[hdl.ResetName] = 1
	}
	results := make([]PropertyResult, len(p.nl.Properties))
	var asserts, covers []int
	for i, np := range p.nl.Properties {
		results[i] = PropertyResult{NetProperty: np, Verdict: Assumed}
		if np.Kind != hdl.Assumption {
			results[i].Verdict = Open // until proved (not at all, outside opts.Covers)
		}
		switch np.Kind {
		case hdl.Assertion:
			if opts.Covers == nil {
				asserts = append(asserts, i)
			}
		case hdl.CoverPoint:
			if opts.Covers == nil || slices.Contains(opts.Covers, np.Name) {
				covers = append(covers, i)
			}
		}
	}
	done := 0
	report := func(i int) {
		done++
		if opts.Progress != nil {
			opts.Progress(done, len(asserts)+len(covers), results[i])
		}
	}
	if err := p.proveAssertions(results, asserts, report); err != nil {
		return nil, err
	}
	var proven []string
	for _, i := range asserts {
		if results[i].Verdict == Proven {
			proven = append(proven, results[i].Wire)
		}
	}
	for _, i := range covers {
		r := &results[i]
		run, err := p.sat([]string{r.Wire}, 0, proven)
		if err != nil {
			return nil, err
		}
		if err := r.read(run, p.depth, p.widths, Unreachable, Reached); err != nil {
			return nil, err
		}
		report(i)
	}
	return results, nil
}

// prover proves the properties of one design.
type prover struct {
	d       *hdl.Design
	nl      *hdl.Netlist
	verilog []byte
	depth   int
	timeout time.Duration
	widths  map[string]int // the top's inputs (rst included), for traces
}

// proveAssertions proves the assertions todo (indices into results) as
// one conjunction, setting aside each that a counterexample fails.
func (p *prover) proveAssertions(results []PropertyResult, todo []int, report func(int)) error {
	for len(todo) > 0 {
		wires := make([]string, len(todo))
		for k, i := range todo {
			wires[k] = results[i].Wire
		}
		run, err := p.sat(wires, 1, nil)
		if err != nil {
			return err
		}
		var joint PropertyResult
		if err := joint.read(run, p.depth, p.widths, Proven, Failed); err != nil {
			return err
		}
		switch joint.Verdict {
		case Proven:
			for _, i := range todo {
				results[i].Verdict, results[i].Steps, results[i].Time, results[i].Cached = Proven, joint.Steps, joint.Time, joint.Cached
				results[i].With = len(todo) - 1
				report(i)
			}
			return nil
		case Failed:
			s, err := Replay(p.d, joint.Trace, "")
			if err != nil {
				return err
			}
			// The trace ends where one of todo fails; earlier it may fail
			// assertions already set aside.
			k := -1
			for _, v := range s.Violations() {
				if k = slices.IndexFunc(todo, func(i int) bool { return results[i].Name == v.Name && int(v.Cycle) == len(joint.Trace)-1 }); k >= 0 {
					break
				}
			}
			if k < 0 {
				return fmt.Errorf("the Go simulator fails none of the assertions being proved at the end of Yosys's counterexample (it fails %v): the simulator and the Verilog disagree (a parmem bug; please report it)", s.Violations())
			}
			i := todo[k]
			results[i].Verdict, results[i].Trace, results[i].Steps, results[i].Time, results[i].Cached = Failed, joint.Trace, len(joint.Trace), joint.Time, joint.Cached
			report(i)
			todo = slices.Delete(todo, k, k+1)
		default: // open together: each alone, unless out of time together
			if joint.TimedOut {
				for _, i := range todo {
					results[i].Verdict, results[i].TimedOut, results[i].Time = Open, true, joint.Time
					report(i)
				}
				return nil
			}
			for _, i := range todo {
				run, err := p.sat([]string{results[i].Wire}, 1, nil)
				if err != nil {
					return err
				}
				if err := results[i].read(run, p.depth, p.widths, Proven, Failed); err != nil {
					return err
				}
				report(i)
			}
			return nil
		}
	}
	return nil
}

// satRun is one run of Yosys's sat: its log, how long it took, and
// whether the answer came from the tool cache.
type satRun struct {
	log      string
	time     time.Duration
	cached   bool
	timedOut bool // Yosys ran out of ProveOptions.Timeout
}

// errTimedOut is a Yosys run that ran out of time.
var errTimedOut = errors.New("yosys ran out of time")

// sat proves with Yosys that each of wires is always want, with the
// wires holds 1 in every step (proven assertions) and the design's
// assumptions as constraints.
func (p *prover) sat(wires []string, want int, holds []string) (satRun, error) {
	var args strings.Builder
	for _, w := range wires {
		fmt.Fprintf(&args, " -prove %s %d", yosysName(w), want)
	}
	for _, w := range holds {
		fmt.Fprintf(&args, " -set %s 1", yosysName(w))
	}
	if p.nl.Seq { // the first step resets, and checks nothing: its state is any
		fmt.Fprintf(&args, " -set-at 1 %s 1 -seq 1", hdl.ResetName)
	}
	script := fmt.Sprintf("read_verilog -formal -DFORMAL design.v; prep -flatten -top %s; memory_map; opt_clean; chformal -cover -remove; async2sync; dffunmap; "+
		"sat -tempinduct%s -set-assumes -maxsteps %d -show-inputs", p.nl.Top, args.String(), p.depth)
	start := time.Now()
	key := cache.Key(cache.ToolVersion("yosys", "-V"), script, string(p.verilog))
	dir, hit, err := cache.Build("prove", key, func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, "design.v"), p.verilog, 0o644); err != nil {
			return err
		}
		ctx, cancel := context.Background(), func() {}
		if p.timeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, p.timeout)
		}
		defer cancel()
		cmd := exec.CommandContext(ctx, "yosys", "-p", script)
		cmd.Dir = dir
		text, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			return errTimedOut // not an answer: nothing is cached
		}
		if err != nil {
			return fmt.Errorf("yosys: %v\n%s", err, lastLines(string(text), 20))
		}
		return os.WriteFile(filepath.Join(dir, "yosys.log"), text, 0o644)
	})
	if errors.Is(err, errTimedOut) {
		return satRun{time: time.Since(start), timedOut: true}, nil
	}
	if err != nil {
		return satRun{}, err
	}
	text, err := os.ReadFile(filepath.Join(dir, "yosys.log"))
	return satRun{log: string(text), time: time.Since(start), cached: hit}, err
}

// yosysName is a hierarchical wire name as a Yosys command takes it.
func yosysName(wire string) string {
	if strings.Contains(wire, ".") {
		return `\` + wire
	}
	return wire
}

var (
	inductionStep = regexp.MustCompile(`\[induction step (\d+)\]`)
	traceRow      = regexp.MustCompile(`^\s+(\d+)\s+\\(\S+)\s+\S+\s+\S+\s+([01xXzZ]+)$`) // time, name, dec, hex, bin (dec and hex are -- over 32 bits)
)

// read sets r's verdict from one sat -tempinduct run: proven means the
// induction succeeded, refuted that the base case found a trace.
func (r *PropertyResult) read(run satRun, depth int, widths map[string]int, proven, refuted Verdict) error {
	r.Time, r.Cached = run.time, run.cached
	switch log := run.log; {
	case run.timedOut:
		r.Verdict, r.Steps, r.TimedOut = Open, 0, true
	case strings.Contains(log, "Induction step proven: SUCCESS!"):
		r.Verdict = proven
		if m := inductionStep.FindAllStringSubmatch(log, -1); len(m) > 0 {
			r.Steps, _ = strconv.Atoi(m[len(m)-1][1])
		}
	case strings.Contains(log, "model found for base case: FAIL!"):
		r.Verdict = refuted
		_, table, _ := strings.Cut(log, "model found for base case: FAIL!")
		trace, err := readTrace(table, widths)
		if err != nil {
			return err
		}
		r.Trace, r.Steps = trace, len(trace)
	case strings.Contains(log, "Reached maximum number of time steps"):
		r.Verdict, r.Steps = Open, depth
	default:
		return fmt.Errorf("Yosys gave no verdict:\n%s", lastLines(log, 20))
	}
	return nil
}

// readTrace reads the inputs of Yosys's -show-inputs table: one row a
// signal and time step (from 1), its value in binary (an x, which the
// solver leaves free, as 0).
func readTrace(table string, widths map[string]int) ([]map[string]hdl.Bits, error) {
	var trace []map[string]hdl.Bits
	sc := bufio.NewScanner(strings.NewReader(table))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		m := traceRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		w, ok := widths[m[2]]
		if !ok {
			continue // the clock, or no input of the top
		}
		step, _ := strconv.Atoi(m[1])
		for len(trace) < step {
			trace = append(trace, map[string]hdl.Bits{})
		}
		x, ok := new(big.Int).SetString(strings.NewReplacer("x", "0", "X", "0", "z", "0", "Z", "0").Replace(m[3]), 2)
		if !ok {
			return nil, fmt.Errorf("trace: bad value %q of %s", m[3], m[2])
		}
		v, err := hdl.FromBig(w, x)
		if err != nil {
			return nil, fmt.Errorf("trace: %s: %v", m[2], err)
		}
		trace[step-1][m[2]] = v
	}
	if len(trace) == 0 {
		return nil, fmt.Errorf("Yosys printed no trace")
	}
	return trace, nil
}

// Replay runs a trace in the Go simulator, writing its waveform to vcd
// when vcd is not empty, and returns the simulator after the trace's last
// cycle: its Violation and Covers say what the trace did.
func Replay(d *hdl.Design, trace []map[string]hdl.Bits, vcd string) (*sim.Sim, error) {
	s := sim.New(d)
	if vcd != "" {
		f, err := os.Create(vcd)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := s.TraceVCD(f); err != nil {
			return nil, err
		}
		defer s.FlushTrace()
	}
	for _, in := range trace {
		for name, v := range in {
			if err := s.Set(name, v); err != nil {
				return nil, err
			}
		}
		s.Step()
	}
	return s, nil
}

// RequireProperties proves the properties of configuration c (its
// module named after the unit) and requires every assertion proven and
// every cover point reached, but those open names (with the reason),
// which must not fail: the families' TestProveProperties.
func RequireProperties(t *testing.T, c units.Config, open map[string]string) {
	t.Helper()
	tools.Need(t, "yosys")
	d, err := c.Build(strings.ReplaceAll(c.Unit, "-", "_"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	results, err := ProveProperties(d, ProveOptions{})
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	if len(results) == 0 {
		t.Fatalf("%s states no properties", c)
	}
	counts := map[Verdict]int{}
	for _, r := range results {
		counts[r.Verdict]++
		want := map[hdl.PropertyKind]Verdict{hdl.Assertion: Proven, hdl.CoverPoint: Reached, hdl.Assumption: Assumed}[r.Kind]
		why, isOpen := open[r.Name]
		switch {
		case isOpen && r.Verdict != Failed:
			t.Logf("%s %s: %s (%s)", r.Kind, r.Name, r.Verdict, why)
		case r.Verdict != want:
			t.Errorf("%s: %s %s (%s) is %s, want %s: %s", c, r.Kind, r.Name, r.Pos, r.Verdict, want, r.Method())
		}
	}
	t.Logf("%s: %v in %.1f s", c, counts, time.Since(start).Seconds())
}

// ProvedByName proves d's properties (ProveProperties, at its defaults)
// and returns the results by name, failing the test on an error.
func ProvedByName(t *testing.T, d *hdl.Design) map[string]PropertyResult {
	t.Helper()
	tools.Need(t, "yosys")
	results, err := ProveProperties(d, ProveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]PropertyResult{}
	for _, r := range results {
		byName[r.Name] = r
	}
	return byName
}
