package verify

import (
	"flag"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
)

// GoBackend runs the design on the hdl Go simulator.
func GoBackend(d *hdl.Design) Backend {
	return func(bool) (Simulator, error) { return NewGoSim(d) }
}

// VerilatorBackend runs the design under Verilator (built with tracing when
// a waveform is wanted).
func VerilatorBackend(d *hdl.Design, opt VerilatorOptions) Backend {
	return func(trace bool) (Simulator, error) {
		o := opt
		o.Trace = o.Trace || trace
		return NewVerilator(d, o)
	}
}

// IcarusBackend runs the design under Icarus Verilog.
func IcarusBackend(d *hdl.Design) Backend {
	return func(bool) (Simulator, error) { return NewIcarus(d) }
}

// ModelBackend runs a behavioral model; newModel makes a fresh one.
func ModelBackend(name string, ports Ports, newModel func() Model) Backend {
	return func(bool) (Simulator, error) { return NewModelSim(name, ports, newModel()), nil }
}

var seedFlag = flag.String("verify.seed", "", "seed of verify's random stimulus and designs (decimal or 0x hex); empty: each test's default")

// TestSeed returns the seed a test should use: -verify.seed when given,
// else def. It logs the seed so any run can be replayed.
func TestSeed(t testing.TB, def uint64) uint64 {
	t.Helper()
	seed := def
	if *seedFlag != "" {
		var err error
		if seed, err = ParseSeed(*seedFlag); err != nil {
			t.Fatalf("-verify.seed=%q: %v", *seedFlag, err)
		}
	}
	t.Logf("seed %d (replay with -verify.seed=%d)", seed, seed)
	return seed
}

// TimeSeed is a seed from the clock, for soak runs that explore.
func TimeSeed() uint64 { return uint64(time.Now().UnixNano()) }

// CheckOptions tune Check.
type CheckOptions struct {
	Cycles    uint64                     // default 10,000
	Seed      uint64                     // default from TestSeed(t, 1)
	Stimulus  func(seed uint64) Stimulus // default: the in-simulator stimulus (fast mode)
	Verilator VerilatorOptions
	Models    []Backend // behavioral models to compare as well
	ReportDir string
}

// Check runs the design in lockstep on the Go simulator, Verilator,
// Icarus, compiled Go and any behavioral models, and fails the
// test at the first difference with the full report.
func Check(t testing.TB, m *hdl.Module, opt CheckOptions) *Result {
	t.Helper()
	d, err := hdl.Elaborate(m)
	if err != nil {
		t.Fatalf("elaborate %s: %v", m.Name(), err)
	}
	if opt.Cycles == 0 {
		opt.Cycles = 10000
	}
	if opt.Seed == 0 {
		opt.Seed = TestSeed(t, 1)
	}
	backends := append([]Backend{GoBackend(d), VerilatorBackend(d, opt.Verilator), IcarusBackend(d), GoCompiledBackend(d)}, opt.Models...)
	res, err := Lockstep(Config{Backends: backends, Stimulus: opt.Stimulus, Seed: opt.Seed, Cycles: opt.Cycles, ReportDir: opt.ReportDir})
	if err != nil {
		t.Fatalf("%s: %v", m.Name(), err)
	}
	if res.Cycles != opt.Cycles {
		t.Fatalf("%s: compared %d cycles, want %d", m.Name(), res.Cycles, opt.Cycles)
	}
	return res
}
