package smm2d

import (
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/internal/reports"
	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The design-review reports: gen -report smm2d (Table 3.2's critical
// paths, Table 3.3's storage, the two forms of m_v, the model's cycles per
// access) and gen -report smm2d-scaling (Figures 3.17-3.20), measured with
// scripts/gates.ys and scripts/ice40.ys on the generated RTL; the banks are
// not counted (Memory.NoBanks), as the thesis's tables count logic.

var smm2dReports = []*units.Report{
	{
		Name: "smm2d", Doc: "Table 3.2's critical paths, Table 3.3's storage, pre-add against post-add, cycles per access",
		Yosys: true, Time: 45 * time.Second,
		Run: func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return reviewReport(progress) },
	},
	{
		Name: "smm2d-scaling", Doc: "Figs. 3.17-3.20: logic and storage against bank depth, data width and bank count",
		Yosys: true, Time: 20 * time.Minute,
		Run: func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return scalingReport(progress) },
	},
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
			st.V = append(st.V, m.Input(fmt.Sprintf("vmul_%d", k), g.MB))
			st.H = append(st.H, m.Input(fmt.Sprintf("hmul_%d", k), g.NB))
		}
		is, js := AGU{g}.generate(m, bi, bj, lib.NewDecoder(m.Input("pattern", 3)), st)
		for k := range is {
			m.Output(fmt.Sprintf("i_%d", k), g.MB).Drive(is[k])
			m.Output(fmt.Sprintf("j_%d", k), g.NB).Drive(js[k])
		}
		return m
	}}
}

func atuDesign(g Geometry, post bool) design {
	form := map[bool]string{false: "pre-add", true: "post-add"}[post]
	return design{fmt.Sprintf("ATU %s p=%d q=%d", form, g.P, g.Q), ATU{g, post}.Build}
}

func routeDesign(g Geometry, w int, out bool) design {
	dir := map[bool]string{false: "inward", true: "outward"}[out]
	return design{fmt.Sprintf("router %s w=%d", dir, w), Route{g, w, out}.Build}
}

func memoryDesign(p Memory) design {
	p.NoBanks = true
	return design{fmt.Sprintf("memory p=%d q=%d mb=%d nb=%d w=%d", p.P, p.Q, p.MB, p.NB, p.W), p.Build}
}

// storage is the memory's storage that Table 3.3 counts, as declared in
// the design: the stride table's registers (vmul_*, hmul_*) and the
// routing information's (route_mv_*, route_mh_*), and every register bit.
type storage struct {
	table, routing, all int
}

func declaredStorage(p Memory) (storage, error) {
	p.NoBanks = true
	d, err := hdl.Elaborate(p.Build("dut"))
	if err != nil {
		return storage{}, err
	}
	var s storage
	for _, e := range d.StateElements() {
		name := e.Path[strings.LastIndex(e.Path, ".")+1:]
		switch {
		case strings.HasPrefix(name, "vmul_"), strings.HasPrefix(name, "hmul_"):
			s.table += e.Width
		case strings.HasPrefix(name, "route_mv_"), strings.HasPrefix(name, "route_mh_"):
			s.routing += e.Width
		}
		s.all += e.Width
	}
	return s, nil
}

// Table33 is thesis Table 3.3's storage: the stride table 2^(p+q) *
// log2(M*N) bits and the routing information 2^(p+q) * (p+q) bits.
func (g Geometry) Table33() (table, routing int) {
	return g.Lanes() * (g.MB + g.NB), g.Lanes() * (g.P + g.Q)
}

func reviewReport(progress io.Writer) ([]*table.Table, error) {
	g, w := fig312.Geometry, fig312.W
	blocks := []design{tableAGU(g), atuDesign(g, false), atuDesign(g, true), routeDesign(g, w, false), routeDesign(g, w, true)}
	gates, err := synthesize("smm2d gates", blocks, progress, synth.MapGates)
	if err != nil {
		return nil, err
	}
	var forms []design
	for _, pq := range [][2]int{{1, 2}, {2, 2}, {1, 3}} {
		fg := Geometry{P: pq[0], Q: pq[1], MB: g.MB, NB: g.NB}
		forms = append(forms, atuDesign(fg, false), atuDesign(fg, true))
	}
	post := fig312
	post.Post = true
	forms = append(forms, memoryDesign(fig312), memoryDesign(post))
	ices, err := synthesize("smm2d ice40", append(blocks, forms...), progress, synth.MapICE40)
	if err != nil {
		return nil, err
	}
	store, err := storageTable(g, ices[len(ices)-2])
	if err != nil {
		return nil, err
	}
	return []*table.Table{pathsTable(g, gates, ices[:len(blocks)]), store, formsTable(forms, ices[len(blocks):]), cyclesTable()}, nil
}

func pathsTable(g Geometry, gates []synth.Gates, ices []synth.ICE40) *table.Table {
	t := &table.Table{
		Title:  fmt.Sprintf("Table 3.2: critical paths at Fig. 3.12's configuration (p=%d, q=%d, M=%d, N=%d, w=%d)", g.P, g.Q, 1<<uint(g.MB), 1<<uint(g.NB), fig312.W),
		Header: []string{"unit", "gate depth", "iCE40 LUT4", "LUT levels", "thesis critical path", "thesis logic"},
	}
	thesis := [][2]string{
		{fmt.Sprintf("one 5-input multiplexer and one max(log2 M, log2 N) = %d-bit adder", max(g.MB, g.NB)), "O(2^(p+q))"},
		{fmt.Sprintf("one log2(M*N)-p-q = %d-bit adder", g.RW()), "O(2^(p+q))"},
		{"(post-add: section 3.3's form)", "O(2^(p+q))"},
		{"three 2-input multiplexers, OR gates of 2^p and 2^q inputs", "O(2^(p+q) * (w + log2(M*N)-p-q))"},
		{"(the inverse of the inward path)", ""},
	}
	for i, d := range []string{"AGU (stride table in registers)", "ATU pre-add", "ATU post-add", "router inward", "router outward"} {
		t.Add(d, fmt.Sprint(gates[i].Depth), fmt.Sprint(ices[i].LUT4), fmt.Sprint(ices[i].LUTLevels), thesis[i][0], thesis[i][1])
	}
	depth := func(gs synth.Gates, prefix string) int {
		most := 0
		for port, d := range gs.OutputDepth {
			if strings.HasPrefix(port, prefix) {
				most = max(most, d)
			}
		}
		return most
	}
	for i, form := range []string{"pre-add", "post-add"} {
		a := gates[1+i]
		t.Notes = append(t.Notes, fmt.Sprintf("ATU %s, deepest output: mv %d gates, mh %d, row %d.", form, depth(a, "mv_"), depth(a, "mh_"), depth(a, "row_")))
	}
	t.Notes = append(t.Notes, "The row is the concatenation {i>>p, j>>q} (the issue's point 2: no adder); the ATU's critical path is the bit selection by vs or hs of m_v and m_h, and m_v's 2p-bit adder.",
		"The AGU here reads the stride table k*VS, k*HS from inputs, as the memory does from its registers; the smm2d-agu unit multiplies by constants instead.",
		"The router carries each lane's own m_v (m_h) and decodes it at every place, so that it also serves the memory's sub-accesses; its depth adds the enable AND and the decode to the thesis's multiplexers and ORs.")
	return t
}

func storageTable(g Geometry, memory synth.ICE40) (*table.Table, error) {
	s, err := declaredStorage(fig312)
	if err != nil {
		return nil, err
	}
	tab, route := g.Table33()
	t := &table.Table{
		Title:  fmt.Sprintf("Table 3.3: storage at Fig. 3.12's configuration (L=%d, log2(M*N)=%d, p+q=%d)", g.Lanes(), g.MB+g.NB, g.P+g.Q),
		Header: []string{"storage", "thesis formula", "thesis bits", "declared register bits", "equal"},
	}
	t.Add("AGU stride table k*VS, k*HS", "2^(p+q) * log2(M*N)", fmt.Sprint(tab), fmt.Sprint(s.table), table.Holds(s.table == tab))
	t.Add("routing information m_v, m_h", "2^(p+q) * (p+q)", fmt.Sprint(route), fmt.Sprint(s.routing), table.Holds(s.routing == route))
	t.Notes = append(t.Notes,
		fmt.Sprintf("The memory declares %d register bits in all (the stage-1 request, vs, hs, the table, the routing information, the response); Yosys's iCE40 flow maps it (banks outside) to %d flip-flops.", s.all, memory.Flops),
		fmt.Sprintf("The table's k = 0 row (%d bits) always holds 0; it is kept so that the table is Table 3.3's.", g.MB+g.NB))
	return t, nil
}

func formsTable(ds []design, ices []synth.ICE40) *table.Table {
	t := &table.Table{
		Title:  "m_v pre-add (section 3.4.2, the default) against post-add (section 3.3, -post): iCE40 area, mb=10, nb=8",
		Header: []string{"design", "LUT4 pre-add", "LUT4 post-add", "post/pre", "LUT levels pre-add", "LUT levels post-add"},
	}
	for i := 0; i+1 < len(ds); i += 2 {
		pre, post := ices[i], ices[i+1]
		t.Add(strings.Replace(ds[i].label, "pre-add ", "", 1), fmt.Sprint(pre.LUT4), fmt.Sprint(post.LUT4),
			fmt.Sprintf("%.2f", float64(post.LUT4)/float64(pre.LUT4)), fmt.Sprint(pre.LUTLevels), fmt.Sprint(post.LUTLevels))
	}
	t.Notes = append(t.Notes, "Pre-add adds the rotation to i before the XOR scheme (a 2p-bit adder on i's bits selected by vs); post-add adds it to the scheme's p-bit result. They agree for p = 1 and differ for p >= 2; both keep the six patterns conflict-free (spec tests, make prove).")
	return t
}

// cyclesTable runs the cycle-level model (model.go) at Fig. 3.12's
// configuration with vs = hs = 1.
func cyclesTable() *table.Table {
	s := Scheme{Geometry: fig312.Geometry, VS: 1, HS: 1}
	r := rand.New(rand.NewPCG(1, 2))
	t := &table.Table{
		Title:  "Cycles per access from the cycle-level model (Fig. 3.12's configuration, vs = hs = 1, 10,000 random accesses each)",
		Header: []string{"pattern", "supported (thesis: 1)", "unsupported, mean", "unsupported, worst", "lanes"},
	}
	for _, p := range Patterns {
		c := s.MeasureCycles(p, 10000, r)
		t.Add(p.String(), fmt.Sprintf("%.2f", c.Supported), fmt.Sprintf("%.2f", c.Unsupported), fmt.Sprint(c.Worst), fmt.Sprint(s.Lanes()))
	}
	t.Notes = append(t.Notes, "Unsupported: strides of other families (strided patterns) or misaligned bases (continuous patterns). The memory serves them in sub-accesses of lanes that do not meet in the router (model.go); the thesis leaves them undefined.")
	return t
}

// scalingMemory is a memory of the scaling study: banks of 2^depthBits
// elements, mb and nb as equal as they come.
func scalingMemory(p, q, depthBits, w int) Memory {
	s := depthBits + p + q // mb + nb
	mb := (s + 1) / 2
	return Memory{Geometry: Geometry{P: p, Q: q, MB: mb, NB: s - mb}, W: w}
}

func scalingReport(progress io.Writer) ([]*table.Table, error) {
	var depth, width, banks []Memory
	const fewest, most, breakdown = 10, 17, 13 // Fig. 3.17's depths (log2), Fig. 3.18's
	for d := fewest; d <= most; d++ {
		depth = append(depth, scalingMemory(1, 2, d, 64))
	}
	for _, w := range []int{8, 16, 32, 64} {
		width = append(width, scalingMemory(1, 2, 15, w))
	}
	for _, pq := range [][2]int{{1, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 3}} {
		banks = append(banks, scalingMemory(pq[0], pq[1], 14, 16))
	}
	at8192 := scalingMemory(1, 2, breakdown, 64)
	g := at8192.Geometry
	parts := []design{tableAGU(g), atuDesign(g, false), routeDesign(g, 1+g.RW()+at8192.W, false), routeDesign(g, at8192.W, true), memoryDesign(at8192)}
	var all []design
	for _, set := range [][]Memory{depth, width, banks} {
		for _, p := range set {
			all = append(all, memoryDesign(p))
		}
	}
	ices, err := synthesize("smm2d-scaling ice40", append(all, parts...), progress, synth.MapICE40)
	if err != nil {
		return nil, err
	}
	n1, n2 := len(depth), len(depth)+len(width)
	depthT := scalingTable("Fig. 3.17: bank depth at p=1, q=2, w=64", "depth", depth, ices[:n1], func(p Memory) string { return fmt.Sprintf("2^%d", p.RW()) })
	widthT := scalingTable("Fig. 3.19: data width at depth 32K, p=1, q=2", "w", width, ices[n1:n2], func(p Memory) string { return fmt.Sprint(p.W) })
	banksT := scalingTable("Fig. 3.20: bank count at depth 16K, w=16", "banks", banks, ices[n2:len(all)], func(p Memory) string { return fmt.Sprintf("%d (%dx%d)", p.Lanes(), 1<<uint(p.P), 1<<uint(p.Q)) })
	// exponent is e in LUT4 ~ x^e by least squares on log2 values (x a
	// power of two: reports.Fit's q).
	exponent := func(ms []Memory, ices []synth.ICE40, log2x func(Memory) int) float64 {
		var pts []reports.FitPoint
		for i, p := range ms {
			pts = append(pts, reports.FitPoint{Q: log2x(p), Size: 1, Gates: float64(ices[i].LUT4)})
		}
		a, _ := reports.Fit(pts)
		return a
	}
	depthT.Notes = append(depthT.Notes, fmt.Sprintf("LUT4 ~ depth^%.2f, %.2fx from 2^%d to 2^%d. The thesis finds no remarkable change either: the depth only widens the row addresses. Storage grows with log2(M*N).",
		exponent(depth, ices[:n1], func(p Memory) int { return p.RW() }), float64(ices[most-fewest].LUT4)/float64(ices[breakdown-fewest].LUT4), breakdown, most))
	widthT.Notes = append(widthT.Notes, fmt.Sprintf("LUT4 ~ w^%.2f (the thesis: linear in w, mostly the router); storage does not depend on w.", exponent(width, ices[n1:n2], func(p Memory) int { return bits.Len(uint(p.W)) - 1 })))
	banksT.Notes = append(banksT.Notes, fmt.Sprintf("LUT4 ~ banks^%.2f (the thesis: linear); storage grows with the banks. Ours also holds the sub-access choice, L(L-1)/2 comparisons.", exponent(banks, ices[n2:len(all)], func(p Memory) int { return p.P + p.Q })))
	return []*table.Table{depthT, breakdownTable(at8192, parts, ices[len(all):]), widthT, banksT}, nil
}

func scalingTable(title, what string, ms []Memory, ices []synth.ICE40, label func(Memory) string) *table.Table {
	t := &table.Table{Title: title + " (iCE40, banks not counted)", Header: []string{what, "mb, nb", "LUT4", "flip-flops", "LUT levels", "Table 3.3 bits"}}
	for i, p := range ms {
		tab, route := p.Table33()
		t.Add(label(p), fmt.Sprintf("%d, %d", p.MB, p.NB), fmt.Sprint(ices[i].LUT4), fmt.Sprint(ices[i].Flops), fmt.Sprint(ices[i].LUTLevels), fmt.Sprint(tab+route))
	}
	return t
}

func breakdownTable(p Memory, parts []design, ices []synth.ICE40) *table.Table {
	total := ices[len(ices)-1].LUT4
	t := &table.Table{
		Title:  fmt.Sprintf("Fig. 3.18: LUT4 by unit at depth %d (p=%d, q=%d, w=%d)", 1<<uint(p.RW()), p.P, p.Q, p.W),
		Header: []string{"unit", "LUT4", "share of the memory"},
	}
	sum := 0
	for i, d := range parts[:len(parts)-1] {
		t.Add(d.label, fmt.Sprint(ices[i].LUT4), table.Pct(float64(ices[i].LUT4)/float64(total)))
		sum += ices[i].LUT4
	}
	t.Add("the rest (configuration, sub-access choice, pipeline)", fmt.Sprint(total-sum), table.Pct(float64(total-sum)/float64(total)))
	t.Add("memory (banks outside)", fmt.Sprint(total), "100.0%")
	t.Notes = append(t.Notes, "The thesis's Fig. 3.18 gives the address & data routing unit the overwhelming majority of the ALUTs. Units measured alone; synthesis shares some logic inside the memory, so the rest can be small or negative.")
	return t
}
