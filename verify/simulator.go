// Package verify proves that parmem's Go golden model and the Verilog it
// emits agree. Every simulator — the hdl Go simulator, a behavioral model
// written in plain Go, Verilator and Icarus Verilog — sits behind one
// Simulator interface; Lockstep drives several with the same stimulus and
// stops at the first output that differs, with a report and waveforms.
// Random-netlist fuzzing and mutation tests keep the emitter, the simulator
// and the checker itself honest.
package verify

import (
	"fmt"
	"strings"

	"github.com/parmem/parmem/hdl"
)

// Port is a top-level port of a design under test.
type Port struct {
	Name  string
	Width int
}

// Words is the number of 64-bit words that carry the port in a Vector.
func (p Port) Words() int { return (p.Width + 63) / 64 }

// Ports lists a design's inputs and outputs in a fixed order. For designs
// with state the first input is rst (the clock is implicit: every cycle
// has one rising edge).
type Ports struct {
	In, Out []Port
}

// PortsOf returns the ports of an elaborated design.
func PortsOf(d *hdl.Design) Ports {
	var ps Ports
	if d.HasState() {
		ps.In = append(ps.In, Port{Name: hdl.ResetName, Width: 1})
	}
	for _, s := range d.Top().Inputs() {
		ps.In = append(ps.In, Port{Name: s.Name(), Width: s.Width()})
	}
	for _, s := range d.Top().Outputs() {
		ps.Out = append(ps.Out, Port{Name: s.Name(), Width: s.Width()})
	}
	return ps
}

// InWords and OutWords are the lengths of input and output vectors.
func (ps Ports) InWords() int  { return totalWords(ps.In) }
func (ps Ports) OutWords() int { return totalWords(ps.Out) }

func totalWords(ports []Port) int {
	n := 0
	for _, p := range ports {
		n += p.Words()
	}
	return n
}

// Vector holds the values of a list of ports, each as Port.Words()
// little-endian words, in port order. Bits above a port's width are zero.
type Vector []uint64

// Field returns the words of port i of ports within v.
func (v Vector) Field(ports []Port, i int) []uint64 {
	off := 0
	for _, p := range ports[:i] {
		off += p.Words()
	}
	return v[off : off+ports[i].Words()]
}

// Simulator is one way of running a design. Run is the only way to move
// time: for every input vector it applies the inputs, lets combinational
// logic settle, samples the outputs (before the edge), and applies one
// rising clock edge. Batching whole runs of cycles lets out-of-process
// simulators keep up.
type Simulator interface {
	// Name identifies the simulator in reports ("go", "verilator", ...).
	Name() string
	// Ports returns the port lists that Run's vectors follow.
	Ports() Ports
	// Run simulates len(in) cycles and returns one output vector per cycle.
	Run(in []Vector) ([]Vector, error)
	// Close releases processes and files.
	Close() error
}

// Tracer is a Simulator that can write a VCD waveform from now on.
type Tracer interface {
	Simulator
	Trace(path string) error
}

// Reset runs one cycle with rst = 1 and every other input 0 on a design
// with state; on a design without state it does nothing.
func Reset(s Simulator) error {
	ps := s.Ports()
	if len(ps.In) == 0 || ps.In[0].Name != hdl.ResetName {
		return nil
	}
	v := make(Vector, ps.InWords())
	v[0] = 1
	_, err := s.Run([]Vector{v})
	return err
}

// formatField renders a port's words as a Verilog literal, or "x" marks
// where a simulator reported unknown bits.
func formatField(p Port, w []uint64, unknown bool) string {
	if unknown {
		return fmt.Sprintf("%d'hx", p.Width)
	}
	b, err := hdl.FromWords(p.Width, w)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return b.String()
}

// sameWords reports whether two word slices are equal.
func sameWords(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// portNames renders a port list for messages.
func portNames(ports []Port) string {
	names := make([]string, len(ports))
	for i, p := range ports {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}
