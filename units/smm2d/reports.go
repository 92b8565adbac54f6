package smm2d

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
)

// The design-review reports: gen -report smm2d (Table 3.2's critical
// paths, Table 3.3's storage, the two forms of m_v, the model's cycles per
// access; review.go) and gen -report smm2d-scaling (Figures 3.17-3.20;
// scaling.go), measured with scripts/gates.ys and scripts/ice40.ys on the
// generated RTL; the banks are not counted (Memory.NoBanks), as the
// thesis's tables count logic. The same measurements give the family's
// claims (claims.go).

var smm2dReports = []*units.Report{
	{
		Name: "smm2d", Doc: "Table 3.2's critical paths (and ns on iCE40), Table 3.3's storage, pre-add against post-add, cycles per access",
		Yosys: true, Time: 5 * time.Minute,
		Run: tablesOf(measureReview),
	},
	{
		Name: "smm2d-scaling", Doc: "Figs. 3.17-3.20: logic and storage against bank depth, data width and bank count, by unit",
		// An hour for the memories alone (0.3 jobs/min on two cores, the
		// 64-bank one the longest); the units alone add the 32- and
		// 64-bank routers and sub-access choices, not yet timed.
		Yosys: true, Time: 90 * time.Minute,
		Run: tablesOf(measureScaling),
	},
}

// tablesOf is a report's run: its measurement, then the tables made of it.
func tablesOf[M interface{ tables() []*table.Table }](measure func(io.Writer) (M, error)) func(units.Values, io.Writer) ([]*table.Table, error) {
	return func(_ units.Values, progress io.Writer) ([]*table.Table, error) {
		m, err := measure(progress)
		if err != nil {
			return nil, err
		}
		return m.tables(), nil
	}
}

// fig312 is Figure 3.12's configuration: 2 x 4 banks, 1024 x 256 elements
// of 32 bits.
var fig312 = Memory{Geometry: Geometry{P: 1, Q: 2, MB: 10, NB: 8}, W: 32}

// design is one module to synthesize.
type design struct {
	label string
	build func(name string) *hdl.Module
}

// String names the design's job in shard files.
func (d design) String() string { return d.label }

// synthesize runs a flow on every design, as many at once as there are
// CPUs: jobs of the report's sweep (progress is its writer).
func synthesize[T any](label string, ds []design, progress io.Writer, flow func(top string, v []byte) (T, error)) ([]T, error) {
	return sweep.Map(progress, label, ds, func(d design) (T, error) {
		e, err := hdl.Elaborate(d.build("dut"))
		if err != nil {
			var zero T
			return zero, err
		}
		return flow("dut", e.Verilog())
	})
}

// tableAGU is the AGU as the memory has it: the stride table k*VS, k*HS
// comes in from registers (inputs vmul_<k>, hmul_<k>), so its critical
// path is Figure 3.11's multiplexer and adder.
func tableAGU(g Geometry) design {
	return design{fmt.Sprintf("AGU (table) p=%d q=%d", g.P, g.Q), func(name string) *hdl.Module {
		m := hdl.NewModule(name)
		bi, bj := m.Input("base_i", g.MB), m.Input("base_j", g.NB)
		var st strideTable
		for k := range g.Lanes() {
			mul := m.InputFields("", k)
			st.V, st.H = append(st.V, mul("vmul", g.MB)), append(st.H, mul("hmul", g.NB))
		}
		agu := AGU{g}
		agu.outputs(agu.generate(m, bi, bj, lib.NewDecoder(m.Input("pattern", 3)), st))
		return m
	}}
}

func atuDesign(g Geometry, post bool) design {
	return design{fmt.Sprintf("ATU %s p=%d q=%d", formName(post), g.P, g.Q), ATU{g, post}.Build}
}

func routeDesign(g Geometry, w int, out bool) design {
	dir := map[bool]string{false: "inward", true: "outward"}[out]
	return design{fmt.Sprintf("router %s w=%d", dir, w), Route{g, w, out}.Build}
}

// choiceDesign is the memory's sub-access choice alone (Memory.serve):
// the lanes' m_v, m_h, the pending lanes and crow in, the served lanes
// out.
func choiceDesign(p Memory) design {
	return design{fmt.Sprintf("sub-access choice p=%d q=%d", p.P, p.Q), func(name string) *hdl.Module {
		m := hdl.NewModule(name)
		crow, pending := m.Input("crow", 1), m.Input("pending", p.Lanes())
		var mv, mh []*hdl.Signal
		for k := range p.Lanes() {
			in := m.InputFields("", k)
			mv, mh = append(mv, in("mv", p.P)), append(mh, in("mh", p.Q))
		}
		m.Output("served", p.Lanes()).Drive(lib.Bus(p.serve(crow, pending, mv, mh)))
		return m
	}}
}

func memoryDesign(p Memory) design {
	p.NoBanks = true
	return design{fmt.Sprintf("memory p=%d q=%d mb=%d nb=%d w=%d", p.P, p.Q, p.MB, p.NB, p.W), p.Build}
}

// unitNames name the memory's units as unitDesigns lists them.
var unitNames = []string{"AGU (table)", "ATU", "router inward", "router outward", "sub-access choice"}

// The places of the units in unitDesigns that the claims name; the
// sub-access choice is the last.
const (
	unitAGU = iota
	unitATU
	unitInward
	unitOutward
)

// unitDesigns are the memory's units, each alone: the AGU reading its
// stride table, the ATU, the inward router carrying {we, row, data}, the
// outward router carrying data, and the sub-access choice.
func unitDesigns(p Memory) []design {
	g := p.Geometry
	return []design{tableAGU(g), atuDesign(g, p.Post), routeDesign(g, 1+g.RW()+p.W, false), routeDesign(g, p.W, true), choiceDesign(p)}
}

// declared is what a design declares, counted on its elaboration: the
// storage Table 3.3 counts (the stride table's registers vmul_*, hmul_*
// and the routing information's route_mv_*, route_mh_*), every register
// bit, and the adders and subtractors by width.
type declared struct {
	Table, Routing, All int
	Adders              map[int]int
}

// storage is the bits Table 3.3 counts.
func (d declared) storage() int { return d.Table + d.Routing }

// widestAdder is the width of the design's widest adder, 0 if none.
func (d declared) widestAdder() int {
	most := 0
	for w := range d.Adders {
		most = max(most, w)
	}
	return most
}

// declare elaborates every design, a job each (progress is the run's
// writer), and counts what it declares.
func declare(label string, ds []design, progress io.Writer) ([]declared, error) {
	return sweep.Map(progress, label, ds, func(d design) (declared, error) {
		e, err := hdl.Elaborate(d.build("dut"))
		if err != nil {
			return declared{}, err
		}
		s := declared{Adders: e.Adders()}
		for _, st := range e.StateElements() {
			name := st.Path[strings.LastIndex(st.Path, ".")+1:]
			switch {
			case strings.HasPrefix(name, "vmul_"), strings.HasPrefix(name, "hmul_"):
				s.Table += st.Width
			case strings.HasPrefix(name, "route_mv_"), strings.HasPrefix(name, "route_mh_"):
				s.Routing += st.Width
			}
			s.All += st.Width
		}
		return s, nil
	})
}

// Table33 is thesis Table 3.3's storage: the stride table 2^(p+q) *
// log2(M*N) bits and the routing information 2^(p+q) * (p+q) bits.
func (g Geometry) Table33() (table, routing int) {
	return g.Lanes() * (g.MB + g.NB), g.Lanes() * (g.P + g.Q)
}

// growth is e in y ~ x^e by least squares on log2 values, x a power of two
// (log2x its exponent; reports.Fit's q): NaN when a y is not positive (a
// placeholder result) or there is one x only.
func growth(log2x []int, ys []float64) float64 {
	var pts []reports.FitPoint
	for i, y := range ys {
		if !(y > 0) {
			return math.NaN()
		}
		pts = append(pts, reports.FitPoint{Q: log2x[i], Size: 1, Gates: y})
	}
	if len(pts) < 2 || log2x[0] == log2x[len(log2x)-1] {
		return math.NaN()
	}
	a, _ := reports.Fit(pts)
	return a
}

// share is part/whole, NaN when whole is 0 (a placeholder result).
func share(part, whole float64) float64 {
	if whole == 0 {
		return math.NaN()
	}
	return part / whole
}
