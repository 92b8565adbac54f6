package verify

import (
	"fmt"
	"os"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
)

// GoSim runs a design on the hdl cycle simulator, the golden model.
type GoSim struct {
	sim   *sim.Sim
	ports Ports
	trace *os.File
	stim  uint64   // state of the in-simulator stimulus
	plan  lfsrPlan // the stimulus of the inputs
	vec   Vector
	io    *sim.PortWords // every input and output word, for Run and cycle
	out   Vector         // the outputs' words of a cycle
	// batches of the fast mode asked for and not yet read
	batches batchQueue
}

// NewGoSim builds the Go simulator for an elaborated design.
func NewGoSim(d *hdl.Design) (*GoSim, error) {
	g := &GoSim{sim: sim.New(d), ports: PortsOf(d), stim: lfsrSeed(0)}
	g.plan, g.vec = newLFSRPlan(g.ports), make(Vector, g.ports.InWords())
	var ins []sim.InputRef
	for _, p := range g.ports.In {
		r, err := g.sim.Input(p.Name)
		if err != nil {
			return nil, err
		}
		ins = append(ins, r)
	}
	var outs []sim.SignalRef
	for _, p := range g.ports.Out {
		r, err := g.sim.Signal(p.Name)
		if err != nil {
			return nil, err
		}
		outs = append(outs, r)
	}
	g.io, g.out = g.sim.PortWords(ins, outs), make(Vector, g.ports.OutWords())
	return g, nil
}

// Name implements Simulator.
func (g *GoSim) Name() string { return "go" }

// Ports implements Simulator.
func (g *GoSim) Ports() Ports { return g.ports }

// Sim exposes the underlying simulator, for Peek and friends.
func (g *GoSim) Sim() *sim.Sim { return g.sim }

// Run implements Simulator. A property of the design that fails (an
// assertion, or an assumption the stimulus breaks) ends the run with a
// *PropertyError.
func (g *GoSim) Run(in []Vector) ([]Vector, error) {
	outWords := g.ports.OutWords()
	flat := make(Vector, len(in)*outWords)
	out := make([]Vector, len(in))
	for c, v := range in {
		g.io.Put(v)
		out[c] = flat[c*outWords : (c+1)*outWords]
		g.io.Get(out[c])
		g.sim.Step()
		if v := g.sim.Violation(); v != nil {
			return out[:c+1], &PropertyError{Sim: g.Name(), Cycle: c, What: v.What()}
		}
	}
	return out, nil
}

// cycle applies one input vector, folds every output word before the edge
// into h, clocks, and returns h.
func (g *GoSim) cycle(v Vector, h uint64) uint64 {
	g.io.Put(v)
	g.io.Get(g.out)
	for _, w := range g.out {
		h = lfsrChecksum(h, w)
	}
	g.sim.Step()
	return h
}

func (g *GoSim) seedStimulus(seed uint64) error {
	g.stim = lfsrSeed(seed)
	return nil
}

// requestDigest queues the batch: its cycles run as it is read.
func (g *GoSim) requestDigest(n int) error {
	g.batches.push(n)
	return nil
}

func (g *GoSim) readDigest() (uint64, error) {
	digest := uint64(lfsrChecksumInit)
	for range g.batches.pop() {
		g.plan.fill(&g.stim, g.vec)
		digest = batchDigest(digest, g.cycle(g.vec, lfsrChecksumInit))
	}
	if v := g.sim.Violation(); v != nil {
		return 0, &PropertyError{Sim: g.Name(), What: v.What()}
	}
	return digest, nil
}

// Trace implements Tracer: the Go waveform from the next cycle on, with
// GTKWave filters beside it that show state machines by state name.
func (g *GoSim) Trace(path string) error {
	if _, err := g.sim.Design().WriteGTKWave(path); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	g.trace = f
	return g.sim.TraceVCD(f)
}

// Close implements Simulator, finishing any waveform.
func (g *GoSim) Close() error {
	if g.trace == nil {
		return nil
	}
	err := g.sim.FlushTrace()
	if cerr := g.trace.Close(); err == nil {
		err = cerr
	}
	g.trace = nil
	return err
}

// Model is a behavioral model in plain Go, such as a unit's spec: it sees
// one cycle at a time as hdl.Bits values in port order (rst first for
// designs with state) and returns the outputs sampled before the edge.
type Model interface {
	Cycle(in []hdl.Bits) []hdl.Bits
}

// ModelSim adapts a Model to the Simulator interface.
type ModelSim struct {
	name  string
	ports Ports
	model Model
}

// NewModelSim wraps model, which must follow ports.
func NewModelSim(name string, ports Ports, model Model) *ModelSim {
	return &ModelSim{name: name, ports: ports, model: model}
}

// Name implements Simulator.
func (m *ModelSim) Name() string { return m.name }

// Ports implements Simulator.
func (m *ModelSim) Ports() Ports { return m.ports }

// Run implements Simulator.
func (m *ModelSim) Run(in []Vector) ([]Vector, error) {
	out := make([]Vector, len(in))
	vals := make([]hdl.Bits, len(m.ports.In))
	for c, v := range in {
		for i, p := range m.ports.In {
			b, err := hdl.FromWords(p.Width, v.Field(m.ports.In, i))
			if err != nil {
				return nil, fmt.Errorf("%s: input %s: %v", m.name, p.Name, err)
			}
			vals[i] = b
		}
		res := m.model.Cycle(vals)
		if len(res) != len(m.ports.Out) {
			return nil, fmt.Errorf("%s: model returned %d outputs, want %d (%s)", m.name, len(res), len(m.ports.Out), portNames(m.ports.Out))
		}
		o := make(Vector, 0, m.ports.OutWords())
		for i, p := range m.ports.Out {
			if res[i].Width() != p.Width {
				return nil, fmt.Errorf("%s: output %s is %d bits, want %d", m.name, p.Name, res[i].Width(), p.Width)
			}
			o = append(o, res[i].Words()...)
		}
		out[c] = o
	}
	return out, nil
}

// Close implements Simulator.
func (m *ModelSim) Close() error { return nil }
