package verify

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
)

// Bench is a reactive, transaction-level test bench on the Go simulator,
// the golden model. It drives one design cycle by cycle, records every
// cycle's input vector, and replays the recording on Verilator (and
// Icarus) in lockstep afterwards, so a test written once against the Go
// simulator also checks the RTL.
//
// A test takes typed handles to the ports once (In, Out, Ins, Outs) and
// from then on sets and reads values through them; no name is looked up in
// the per-cycle path. On top of the handles sit valid/ready channels
// (Source drives a channel from a list of transactions, Sink collects a
// channel's responses), a Scoreboard that matches responses with what a
// reference model expects, and throughput and latency counts.
//
// One cycle (Step) is: the sources and sinks drive their valid and ready
// inputs, the inputs are applied and the logic settles, every output is
// sampled (before the edge), the channels see which handshakes happened
// and the scoreboard checks responses, the input vector is recorded, and
// one rising clock edge is applied. Cycles are counted from 0 after the
// reset NewBench applies, as Lockstep counts them, so a cycle number in a
// bench failure is the cycle number of a replay.
//
// Every failure (a port that does not exist, a value that does not fit, a
// response that differs from the model's) fails the test at once with the
// cycle and the port.
type Bench struct {
	tb    testing.TB
	d     *hdl.Design
	sim   *sim.Sim
	ports Ports
	inRef []sim.InputRef
	outRf []sim.SignalRef
	inOff []int // word offset of each input in vec, plus the total at the end
	outOf []int // word offset of each output in out, plus the total at the end
	vec   Vector
	out   Vector
	rec   []uint64 // every cycle's input vector, one after the other
	norec bool     // DontRecord: rec stays empty
	cycle uint64

	drive   []func() // sources and sinks set valid and ready
	before  []func(cycle uint64)
	accept  []func() // sources see their handshakes
	after   []func(cycle uint64)
	collect []func() // sinks see their responses
	err     error
	helped  bool // Step has marked itself a test helper
}

// In is a handle to an input port of a Bench's design (rst included). The
// zero In is no port: a channel without a ready input uses it.
type In struct{ n int32 } // port index + 1

// Out is a handle to an output port of a Bench's design. The zero Out is
// no port: a channel without a ready output uses it.
type Out struct{ n int32 } // port index + 1

// IsZero reports whether h is the zero handle (no port).
func (h In) IsZero() bool { return h.n == 0 }

// IsZero reports whether h is the zero handle (no port).
func (h Out) IsZero() bool { return h.n == 0 }

// NewBench elaborates m and returns a bench on the Go simulator, reset (rst
// held for one cycle with every other input 0, as Lockstep resets). An
// elaboration error fails the test.
func NewBench(tb testing.TB, m *hdl.Module) *Bench {
	tb.Helper()
	d, err := hdl.Elaborate(m)
	if err != nil {
		tb.Fatalf("elaborate %s: %v", m.Name(), err)
	}
	return NewBenchDesign(tb, d)
}

// NewBenchDesign is NewBench for a design already elaborated.
func NewBenchDesign(tb testing.TB, d *hdl.Design) *Bench {
	tb.Helper()
	b := &Bench{tb: tb, d: d, sim: sim.New(d), ports: PortsOf(d)}
	b.inOff = offsets(b.ports.In)
	b.outOf = offsets(b.ports.Out)
	for _, p := range b.ports.In {
		r, err := b.sim.Input(p.Name)
		if err != nil {
			tb.Fatalf("bench: %v", err)
		}
		b.inRef = append(b.inRef, r)
	}
	for _, p := range b.ports.Out {
		r, err := b.sim.Signal(p.Name)
		if err != nil {
			tb.Fatalf("bench: %v", err)
		}
		b.outRf = append(b.outRf, r)
	}
	b.vec = make(Vector, b.ports.InWords())
	b.out = make(Vector, b.ports.OutWords())
	b.sim.Reset()
	return b
}

func offsets(ports []Port) []int {
	off := make([]int, len(ports)+1)
	for i, p := range ports {
		off[i+1] = off[i] + p.Words()
	}
	return off
}

// Design returns the design under test.
func (b *Bench) Design() *hdl.Design { return b.d }

// Sim returns the Go simulator, for Peek at inner signals. Drive inputs
// through the bench, or the recording will not replay them.
func (b *Bench) Sim() *sim.Sim { return b.sim }

// Ports returns the design's ports in the order of recorded vectors.
func (b *Bench) Ports() Ports { return b.ports }

// Cycle returns the number of the next cycle Step runs (cycles run so far).
func (b *Bench) Cycle() uint64 { return b.cycle }

// TB returns the test the bench reports to.
func (b *Bench) TB() testing.TB { return b.tb }

// Err returns the first failure the bench reported (nil if none). Tests
// stop at a failure, so this matters only to a testing.TB that does not.
func (b *Bench) Err() error { return b.err }

// fail reports err to the test (which stops it).
func (b *Bench) fail(err error) {
	b.tb.Helper()
	if b.err == nil {
		b.err = err
	}
	b.tb.Fatal(err)
}

func (b *Bench) failf(format string, args ...any) {
	b.tb.Helper()
	b.fail(fmt.Errorf(format, args...))
}

// In returns the handle of input port name (rst included); a name that is
// not an input fails the test with the list of ports.
func (b *Bench) In(name string) In {
	b.tb.Helper()
	h := b.hasIn(name)
	if h.IsZero() {
		b.failf("bench %s: no input %q%s", b.d.Top().Name(), name, b.portList())
	}
	return h
}

// Out returns the handle of output port name; a name that is not an
// output fails the test with the list of ports.
func (b *Bench) Out(name string) Out {
	b.tb.Helper()
	h := b.hasOut(name)
	if h.IsZero() {
		b.failf("bench %s: no output %q%s", b.d.Top().Name(), name, b.portList())
	}
	return h
}

// hasIn and hasOut look a port up without failing (for optional ready
// ports); they return the zero handle when there is none.
func (b *Bench) hasIn(name string) In { return In{handleOf(b.ports.In, name)} }

func (b *Bench) hasOut(name string) Out { return Out{handleOf(b.ports.Out, name)} }

// handleOf is the handle number of port name (index + 1), 0 when absent.
func handleOf(ports []Port, name string) int32 {
	for i, p := range ports {
		if p.Name == name {
			return int32(i + 1)
		}
	}
	return 0
}

func (b *Bench) portList() string {
	return fmt.Sprintf(" (inputs: %s; outputs: %s)", portNames(b.ports.In), portNames(b.ports.Out))
}

// Ins returns the handles of a record of the top module's input ports, in
// field order (see hdl.Signals: a struct of *hdl.Signal, []*hdl.Signal and
// nested records).
func (b *Bench) Ins(rec any) []In {
	b.tb.Helper()
	return handles(b.recordPorts(rec), b.In)
}

// Outs returns the handles of a record of the top module's output ports,
// in field order.
func (b *Bench) Outs(rec any) []Out {
	b.tb.Helper()
	return handles(b.recordPorts(rec), b.Out)
}

// handles looks each port up by name.
func handles[H any](ports []*hdl.Signal, lookup func(name string) H) []H {
	hs := make([]H, len(ports))
	for i, s := range ports {
		hs[i] = lookup(s.Name())
	}
	return hs
}

func (b *Bench) recordPorts(rec any) []*hdl.Signal {
	b.tb.Helper()
	sigs := hdl.Signals(rec)
	if len(sigs) == 0 {
		b.failf("bench %s: the record %T has no signals", b.d.Top().Name(), rec)
	}
	for i, s := range sigs {
		if s.Module() != b.d.Top() {
			b.failf("bench %s: field %d of %T (%s) is not a port of the top module", b.d.Top().Name(), i+1, rec, s.Name())
		}
	}
	return sigs
}

// InPort and OutPort describe the port behind a handle.
func (b *Bench) InPort(h In) Port   { return b.ports.In[b.in(h)] }
func (b *Bench) OutPort(h Out) Port { return b.ports.Out[b.outIdx(h)] }

func (b *Bench) in(h In) int {
	if h.n <= 0 || int(h.n) > len(b.ports.In) {
		b.tb.Helper()
		b.failf("bench %s: cycle %d: the zero In handle (no port) was used", b.d.Top().Name(), b.cycle)
	}
	return int(h.n - 1)
}

func (b *Bench) outIdx(h Out) int {
	if h.n <= 0 || int(h.n) > len(b.ports.Out) {
		b.tb.Helper()
		b.failf("bench %s: cycle %d: the zero Out handle (no port) was used", b.d.Top().Name(), b.cycle)
	}
	return int(h.n - 1)
}

// Set drives input h with v from the coming cycle on (inputs keep their
// values until set again). A port wider than 64 bits gets v in its low
// word and zeros above; a value that does not fit fails the test.
func (b *Bench) Set(h In, v uint64) {
	i := b.in(h)
	if w := b.ports.In[i].Width; w < 64 && v>>uint(w) != 0 {
		b.tb.Helper()
		b.failf("cycle %d: input %s: %#x does not fit %d bits", b.cycle, b.ports.In[i].Name, v, w)
	}
	w := b.vec[b.inOff[i]:b.inOff[i+1]]
	w[0] = v
	for k := 1; k < len(w); k++ {
		w[k] = 0
	}
}

// SetBits drives input h with v, which must have the port's width.
func (b *Bench) SetBits(h In, v hdl.Bits) {
	i := b.in(h)
	if v.Width() != b.ports.In[i].Width {
		b.tb.Helper()
		b.failf("cycle %d: input %s: %s is %d bits, the port %d", b.cycle, b.ports.In[i].Name, v, v.Width(), b.ports.In[i].Width)
	}
	copy(b.vec[b.inOff[i]:b.inOff[i+1]], v.Words())
}

// SetWords drives input h from its little-endian words (the port's width
// rounded up to words); bits above the width must be zero.
func (b *Bench) SetWords(h In, words []uint64) {
	i := b.in(h)
	p := b.ports.In[i]
	if _, err := hdl.FromWords(p.Width, words); err != nil || len(words) != p.Words() {
		b.tb.Helper()
		b.failf("cycle %d: input %s (%d bits): %d words %x do not fit", b.cycle, p.Name, p.Width, len(words), words)
	}
	copy(b.vec[b.inOff[i]:b.inOff[i+1]], words)
}

// Driven returns the low 64 bits of the value input h is driven with.
func (b *Bench) Driven(h In) uint64 { return b.vec[b.inOff[b.in(h)]] }

// Get returns the low 64 bits of output h as sampled in the last Step,
// before its edge (0 before the first Step).
func (b *Bench) Get(h Out) uint64 { return b.out[b.outOf[b.outIdx(h)]] }

// GetBits returns output h as sampled in the last Step.
func (b *Bench) GetBits(h Out) hdl.Bits {
	i := b.outIdx(h)
	v, _ := hdl.FromWords(b.ports.Out[i].Width, b.out[b.outOf[i]:b.outOf[i+1]])
	return v
}

// Words returns output h as sampled in the last Step, as little-endian
// words. The slice is a view, valid until the next Step.
func (b *Bench) Words(h Out) []uint64 {
	i := b.outIdx(h)
	return b.out[b.outOf[i]:b.outOf[i+1]]
}

// Trace writes a VCD waveform of the Go simulation to path from the next
// cycle on; the file is complete when the test ends (passed or failed).
func (b *Bench) Trace(path string) {
	b.tb.Helper()
	f, err := os.Create(path)
	if err == nil {
		err = b.sim.TraceVCD(f)
	}
	if err != nil {
		b.failf("bench %s: trace: %v", b.d.Top().Name(), err)
	}
	b.tb.Cleanup(func() {
		if err := b.sim.FlushTrace(); err != nil {
			b.tb.Errorf("bench %s: trace %s: %v", b.d.Top().Name(), path, err)
		}
		f.Close()
	})
}

// Before registers f to run at the start of every cycle, after the
// channels have driven their valid and ready inputs and before the inputs
// are applied: the place to drive inputs that no channel owns.
func (b *Bench) Before(f func(cycle uint64)) { b.before = append(b.before, f) }

// After registers f to run in every cycle once the outputs are sampled and
// the sources have seen their handshakes, before the sinks collect
// responses: the place for a per-cycle model that reads inputs (Driven)
// and outputs (Get) and tells a Scoreboard what to expect.
func (b *Bench) After(f func(cycle uint64)) { b.after = append(b.after, f) }

// Step runs one cycle (see Bench).
func (b *Bench) Step() {
	if !b.helped { // once is enough: the mark lasts the whole test
		b.tb.Helper()
		b.helped = true
	}
	for _, f := range b.drive {
		f()
	}
	for _, f := range b.before {
		f(b.cycle)
	}
	for i, r := range b.inRef {
		b.sim.PutWords(r, b.vec[b.inOff[i]:b.inOff[i+1]])
	}
	for i, r := range b.outRf {
		copy(b.out[b.outOf[i]:b.outOf[i+1]], b.sim.Words(r))
	}
	for _, f := range b.accept {
		f()
	}
	for _, f := range b.after {
		f(b.cycle)
	}
	for _, f := range b.collect {
		f()
	}
	if !b.norec {
		b.rec = append(b.rec, b.vec...)
	}
	b.sim.Step()
	b.cycle++
}

// Run runs n cycles.
func (b *Bench) Run(n int) {
	b.tb.Helper()
	for range n {
		b.Step()
	}
}

// RunUntil runs cycles until done returns true (checked before each
// cycle) and returns the number of cycles run. If done is still false
// after limit cycles the test fails, naming what was awaited.
func (b *Bench) RunUntil(limit int, what string, done func() bool) int {
	b.tb.Helper()
	for n := 0; ; n++ {
		if done() {
			return n
		}
		if n == limit {
			b.failf("cycle %d: %s: still waiting after %d cycles", b.cycle, what, limit)
			return n
		}
		b.Step()
	}
}

// DontRecord stops the bench recording input vectors, for a run of
// millions of cycles that is never replayed; Recorded and Replay then fail
// the test.
func (b *Bench) DontRecord() { b.norec = true }

// Recorded returns the input vector of every cycle run so far, in the
// port order of Ports (rst first for designs with state). The vectors are
// views of the bench's recording.
func (b *Bench) Recorded() []Vector {
	if b.norec {
		b.failf("bench: Recorded after DontRecord")
		return nil
	}
	n := b.ports.InWords()
	vs := make([]Vector, b.cycle)
	for c := range vs {
		vs[c] = b.rec[c*n : (c+1)*n : (c+1)*n]
	}
	return vs
}

// ReplayOptions choose the simulators Replay runs the recording on, beside
// a fresh Go simulator.
type ReplayOptions struct {
	Verilator   VerilatorOptions
	NoVerilator bool   // leave Verilator out
	Icarus      bool   // add Icarus Verilog (much slower than Verilator)
	ReportDir   string // where a mismatch's report and waveforms go
}

// Replay runs the recorded input vectors on a fresh Go simulator and on
// Verilator (and Icarus when asked) in lockstep, comparing every output of
// every cycle, and fails the test at the first difference with Lockstep's
// report (cycle, port, each simulator's value, the inputs before it, and
// waveforms). It logs the cycles and values compared.
func (b *Bench) Replay(opt ReplayOptions) *Result {
	b.tb.Helper()
	backends := []Backend{GoBackend(b.d)}
	names := []string{"go"}
	if !opt.NoVerilator {
		backends = append(backends, VerilatorBackend(b.d, opt.Verilator))
		names = append(names, "verilator")
	}
	if opt.Icarus {
		backends = append(backends, IcarusBackend(b.d))
		names = append(names, "icarus")
	}
	vecs := b.Recorded()
	res, err := Lockstep(Config{
		Backends:  backends,
		Stimulus:  func(uint64) Stimulus { return NewRecorded(vecs) },
		Cycles:    uint64(len(vecs)),
		ReportDir: opt.ReportDir,
	})
	if err != nil {
		b.failf("replay of %s on %s: %v", b.d.Top().Name(), strings.Join(names, ", "), err)
	}
	if res.Cycles != uint64(len(vecs)) {
		b.failf("replay of %s: compared %d cycles, recorded %d", b.d.Top().Name(), res.Cycles, len(vecs))
	}
	b.tb.Logf("replay of %s: %s agree on all %d recorded cycles (%d output values compared)", b.d.Top().Name(), strings.Join(names, ", "), res.Cycles, res.Compared)
	return res
}

// Bit is a bool as the value of a one-bit port: 1 for true, 0 for false.
func Bit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
