// Package reports is the machinery of the design-review reports that unit
// families register (units/sams/reports.go, ...): measuring unit
// configurations with the Yosys flows in scripts/, on every CPU, and
// fitting growth laws to the measurements.
package reports

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/units"
)

// Verilog is the configuration's Verilog with its top module called top.
func Verilog(c units.Config, top string) ([]byte, error) {
	d, err := c.Build(top)
	if err != nil {
		return nil, err
	}
	return d.Verilog(), nil
}

// Gates runs the gate flow (scripts/gates.ys) on the configuration.
func Gates(c units.Config) (synth.Gates, error) { return flowOn(c, synth.MapGates) }

// GatesFast runs the fast gate flow (scripts/gates_fast.ys) on the
// configuration.
func GatesFast(c units.Config) (synth.Gates, error) { return flowOn(c, synth.MapGatesFast) }

// GatesNoABC runs the gate flow without ABC (scripts/gates_noabc.ys) on
// the configuration.
func GatesNoABC(c units.Config) (synth.Gates, error) { return flowOn(c, synth.MapGatesNoABC) }

// ICE40 runs the iCE40 flow (scripts/ice40.ys) on the configuration.
func ICE40(c units.Config) (synth.ICE40, error) { return flowOn(c, synth.MapICE40) }

// GE runs the gate-equivalent flow (scripts/ge.ys) on the configuration.
func GE(c units.Config) (synth.GE, error) { return flowOn(c, synth.MapGE) }

// PlaceRoute runs place and route on the iCE40 HX8K (scripts/ice40.ys,
// then scripts/hx8k.pnr) on the configuration.
func PlaceRoute(c units.Config) (synth.Timing, error) { return flowOn(c, synth.PlaceRoute) }

// NSHeader heads a column of NS: our iCE40 numbers, another technology
// than any paper's.
const NSHeader = "ours: ns on iCE40 HX8K after place and route (not the paper's technology)"

// NSHeaderOf is NSHeader for a column of what's NS: "the inbound path".
func NSHeaderOf(what string) string {
	return "ours: " + what + ", ns on iCE40 HX8K after place and route (not the paper's technology)"
}

// PathHeader heads a column of Path.
const PathHeader = "ours: critical path on iCE40 HX8K (from -> to)"

// NSNote says what NS's numbers are, for a table's notes.
const NSNote = "ns on iCE40 HX8K: the critical path after nextpnr-ice40's place and route (scripts/hx8k.pnr) of the unit as scripts/ice40.ys maps it, with a flip-flop on every port bit but the clock, so from a flip-flop's clock to the next one's setup (1000 / ns is the Fmax in MHz; in cells counts the flip-flops' clock-to-output and setup); a path runs from \"in PORT[i]\" (the flip-flop on that input bit) or a register of the unit to \"out PORT[i]\" or a register. A different technology from the papers' (Virtex-II Pro, Stratix-II, 90 nm), so never compared with theirs. A unit that does not fit the part's 7680 logic cells or 32 RAM40_4K says so."

// NS is a place-and-route result as a table cell: the critical path in ns,
// or why the unit was not placed; empty for a zero result (another
// shard's job).
func NS(t synth.Timing) string {
	switch {
	case t.Fits:
		return fmt.Sprintf("%.2f", t.Delay)
	case t.LUT4 > t.PartLCs:
		return fmt.Sprintf("does not fit: %d SB_LUT4 > %d LCs", t.LUT4, t.PartLCs)
	case t.LCs > t.PartLCs:
		return fmt.Sprintf("does not fit: %d LCs (%d SB_LUT4, flip-flops) > %d", t.LCs, t.LUT4, t.PartLCs)
	case t.RAMs > t.PartRAMs:
		return fmt.Sprintf("does not fit: %d RAM40_4K > %d", t.RAMs, t.PartRAMs)
	}
	return ""
}

// Split is a place-and-route result's critical path in cells and in
// wires, in ns: "2.21 / 2.35".
func Split(t synth.Timing) string {
	if !t.Fits {
		return ""
	}
	return fmt.Sprintf("%.2f / %.2f", t.Logic, t.Routing)
}

// Path is a place-and-route result's critical path as a table cell: the
// signals it runs from and to.
func Path(t synth.Timing) string {
	if !t.Fits {
		return ""
	}
	return t.From + " -> " + t.To
}

// flowOn runs a flow on the configuration's Verilog, top module "dut".
func flowOn[T any](c units.Config, flow func(top string, verilog []byte) (T, error)) (T, error) {
	v, err := Verilog(c, "dut")
	if err != nil {
		var zero T
		return zero, err
	}
	return flow("dut", v)
}

// MeasureAll runs measure on every configuration, as many at once as there
// are CPUs (each Yosys run is single-threaded), and returns the results in
// the configurations' order, or the first error in that order. It starts
// from the end of the list, where reports put their largest designs, so
// the longest run does not start last. The configurations are jobs of the
// report's sweep (progress is its writer): sweep.Map shows their progress,
// and runs only a shard's or merges the shards'.
func MeasureAll[T any](label string, cs []units.Config, progress io.Writer, measure func(units.Config) (T, error)) ([]T, error) {
	return sweep.Map(progress, label, cs, measure)
}

// StateBits is the register and memory bits a design declares (hdl's
// StateElements), the storage a paper's table counts.
func StateBits(d *hdl.Design) int {
	n := 0
	for _, e := range d.StateElements() {
		n += e.Width * max(1, e.Depth)
	}
	return n
}

// AdderList is "64 x 16-bit, 64 x 17-bit": adders by width, narrowest
// first, as hdl's Adders counts them.
func AdderList(a map[int]int) string {
	var parts []string
	for _, w := range slices.Sorted(maps.Keys(a)) {
		parts = append(parts, fmt.Sprintf("%d x %d-bit", a[w], w))
	}
	return strings.Join(parts, ", ")
}

// FitPoint is one measurement: gates at q and a second size (n-q for the
// SAMS ATU: its row bits).
type FitPoint struct {
	Q, Size int
	Gates   float64
}

// Fit solves log2(gates) = c + a*q + b*log2(size) by least squares and
// returns a and b; when every point has the same size, b is 0 and only c
// and a are fitted.
func Fit(pts []FitPoint) (a, b float64) {
	oneSize := true
	for _, p := range pts {
		oneSize = oneSize && p.Size == pts[0].Size
	}
	k := 3
	if oneSize {
		k = 2
	}
	// Normal equations, augmented: s[i][k] holds sum x_i*y.
	s := make([][]float64, k)
	for i := range s {
		s[i] = make([]float64, k+1)
	}
	for _, p := range pts {
		x := []float64{1, float64(p.Q), math.Log2(float64(p.Size))}[:k]
		y := math.Log2(p.Gates)
		for i := range k {
			for j := range k {
				s[i][j] += x[i] * x[j]
			}
			s[i][k] += x[i] * y
		}
	}
	// Gauss-Jordan elimination with partial pivoting.
	for i := range k {
		p := i
		for r := i + 1; r < k; r++ {
			if math.Abs(s[r][i]) > math.Abs(s[p][i]) {
				p = r
			}
		}
		s[i], s[p] = s[p], s[i]
		if s[i][i] == 0 {
			return 0, 0 // one q only: nothing to fit
		}
		for r := range k {
			if r != i {
				f := s[r][i] / s[i][i]
				for c := i; c <= k; c++ {
					s[r][c] -= f * s[i][c]
				}
			}
		}
	}
	a = s[1][k] / s[1][1]
	if !oneSize {
		b = s[2][k] / s[2][2]
	}
	return a, b
}
