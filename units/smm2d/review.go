package smm2d

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units/reports"
)

// gen -report smm2d at Figure 3.12's configuration: thesis Table 3.2's
// critical paths beside our units', Table 3.3's storage beside the
// memory's declared registers, the two forms of m_v, and the model's
// cycles per access. The claims on Tables 3.2 and 3.3 are made from the
// same measurements (review.pathClaim, adderClaim, storageClaims).

// table32 is thesis Table 3.2 as printed: each unit's critical path and
// logic consumption, and the adder its critical path names.
var table32 = [...]struct{ unit, path, adder, logic string }{
	rowAGU: {"Address Generation Unit", "one 5-input multiplexer and one max(log2 M, log2 N)-bit adder",
		"one max(log2 M, log2 N)-bit adder", "O(2^(p+q))"},
	rowATU: {"Address Translation Unit", "one log2(M*N)-p-q-bit adder", "one log2(M*N)-p-q-bit adder", "O(2^(p+q))"},
	rowRouter: {"Address & Data Routing Unit", "three 2-input multiplexers and two OR gates (2^p and 2^q -input each)", "",
		"O(2^(p+q) * (data_width + log2(M*N) - p - q))"},
}

// The rows of table32.
const (
	rowAGU = iota
	rowATU
	rowRouter
)

// adderBits is the width of the adder table32 names for a row, by the
// thesis's rule at g: max(log2 M, log2 N) for the AGU, log2(M*N)-p-q for
// the ATU.
func adderBits(row int, g Geometry) int {
	if row == rowAGU {
		return max(g.MB, g.NB)
	}
	return g.RW()
}

// reviewBlock is one of our units at Fig. 3.12's configuration, with the
// row of Table 3.2 it stands for.
type reviewBlock struct {
	name   string
	row    int
	design design
}

func reviewBlocks(g Geometry, w int) []reviewBlock {
	return []reviewBlock{
		{"AGU (stride table in registers)", rowAGU, tableAGU(g)},
		{"ATU pre-add", rowATU, atuDesign(g, false)},
		{"ATU post-add", rowATU, atuDesign(g, true)},
		{"router inward", rowRouter, routeDesign(g, w, false)},
		{"router outward", rowRouter, routeDesign(g, w, true)},
	}
}

// The blocks whose rows are claims: the AGU, the ATU in the hardware's
// pre-add form (section 3.4.2) and the inward router (the path Table
// 3.2's description follows).
const (
	blockAGU    = 0
	blockATU    = 1
	blockInward = 3
)

// thesisPaths are Table 3.2's critical paths built as the thesis
// describes them, in table32's order, for scripts/gates.ys to map as it
// maps ours: the depth in gates the thesis's path has in our flow, a
// number derived from the thesis's description. The AGU's is a 5-input
// multiplexer of max(mb, nb)-bit offsets into an adder; the ATU's one
// (mb+nb-p-q)-bit adder; the router's two stages of a 2-input multiplexer
// into an OR of 2^q (then 2^p) inputs, then the pattern's 2-input
// multiplexer, on one data bit.
func thesisPaths(g Geometry) []design {
	agu := func(name string) *hdl.Module {
		m := hdl.NewModule(name)
		n := max(g.MB, g.NB)
		offsets := m.InputFields("").Vec("x", 5, n)
		sum := hdl.Select(m.Input("sel", 3), offsets...).Add(m.Input("base", n))
		m.Output("addr", n).Drive(sum)
		return m
	}
	atu := func(name string) *hdl.Module {
		m := hdl.NewModule(name)
		m.Output("row", g.RW()).Drive(m.Input("a", g.RW()).Add(m.Input("b", g.RW())))
		return m
	}
	router := func(name string) *hdl.Module {
		m := hdl.NewModule(name)
		// stage is one stage: n 2-input multiplexers into an n-input OR, the
		// first multiplexer taking in.
		stage := func(s string, n int, in *hdl.Signal) *hdl.Signal {
			var or *hdl.Signal
			for k := range n {
				a := in
				if k > 0 {
					a = m.Input(fmt.Sprintf("%s_a%d", s, k), 1)
				}
				x := hdl.Mux(m.Input(fmt.Sprintf("%s_s%d", s, k), 1), a, m.Input(fmt.Sprintf("%s_b%d", s, k), 1))
				if or == nil {
					or = x
				} else {
					or = or.Or(x)
				}
			}
			return or
		}
		second := stage("v", 1<<uint(g.P), stage("h", 1<<uint(g.Q), m.Input("d", 1)))
		m.Output("q", 1).Drive(hdl.Mux(m.Input("crow", 1), second, m.Input("row_path", 1)))
		return m
	}
	return []design{{"thesis's AGU path", agu}, {"thesis's ATU path", atu}, {"thesis's router path", router}}
}

// review is what gen -report smm2d measures.
type review struct {
	g      Geometry
	blocks []reviewBlock
	gates  []synth.Gates  // the blocks, then thesisPaths
	ices   []synth.ICE40  // the blocks, then forms
	pnr    []synth.Timing // the blocks, then forms, placed and routed on the iCE40 HX8K
	forms  []design       // the ATU's two forms at three geometries, then the memory's
	decl   []declared     // the blocks, then the memory
}

func measureReview(progress io.Writer) (*review, error) {
	g, w := fig312.Geometry, fig312.W
	r := &review{g: g, blocks: reviewBlocks(g, w)}
	var blocks []design
	for _, b := range r.blocks {
		blocks = append(blocks, b.design)
	}
	var err error
	if r.gates, err = synthesize("smm2d gates", append(slices.Clone(blocks), thesisPaths(g)...), progress, synth.MapGates); err != nil {
		return nil, err
	}
	for _, pq := range [][2]int{{1, 2}, {2, 2}, {1, 3}} {
		fg := Geometry{P: pq[0], Q: pq[1], MB: g.MB, NB: g.NB}
		r.forms = append(r.forms, atuDesign(fg, false), atuDesign(fg, true))
	}
	post := fig312
	post.Post = true
	r.forms = append(r.forms, memoryDesign(fig312), memoryDesign(post))
	if r.ices, err = synthesize("smm2d ice40", append(slices.Clone(blocks), r.forms...), progress, synth.MapICE40); err != nil {
		return nil, err
	}
	if r.pnr, err = synthesize("smm2d place and route", append(slices.Clone(blocks), r.forms...), progress, synth.PlaceRoute); err != nil {
		return nil, err
	}
	if r.decl, err = declare("smm2d declared", append(blocks, memoryDesign(fig312)), progress); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *review) tables() []*table.Table {
	nb := len(r.blocks)
	return []*table.Table{r.pathsTable(), r.addersTable(), r.storageTable(), formsTable(r.forms, r.ices[nb:], r.pnr[nb:]), cyclesTable()}
}

// orNotMeasured sets a claim's cause when it is short of matches: why,
// or "not measured" when we have none.
func orNotMeasured(c verdict.Claim, why string) verdict.Claim {
	if c.Verdict.AtLeast(verdict.Matches) {
		return c
	}
	if why == "" {
		why = "not measured"
	}
	return c.Because(why)
}

// outputDepth is the deepest output of a block's ports named prefix*.
func outputDepth(gs synth.Gates, prefix string) int {
	most := 0
	for port, d := range gs.OutputDepth {
		if strings.HasPrefix(port, prefix) {
			most = max(most, d)
		}
	}
	return most
}

// pathClaim is Table 3.2's critical path of block b beside ours, both
// mapped by scripts/gates.ys.
func (r *review) pathClaim(b int) verdict.Claim {
	blk, gs := r.blocks[b], r.gates[b]
	thesis := r.gates[len(r.blocks)+blk.row].Depth
	c := verdict.Measured(verdict.Thesis, "Table 3.2",
		fmt.Sprintf("%s's critical path in gates (scripts/gates.ys) at Fig. 3.12's configuration; the thesis's path built as it describes it and mapped alike: %d gates (derived)", blk.name, thesis),
		table32[blk.row].path, float64(thesis), float64(gs.Depth), fmt.Sprintf("%d gates", gs.Depth))
	var why string
	switch blk.row {
	case rowAGU:
		why = fmt.Sprintf("deepest outputs: i %d gates, j %d; before its adder the AGU selects the offset among the patterns' by the decoded pattern (agu.go), and j's adder also subtracts for the backward diagonal (an XOR and a carry in); not measured stage by stage",
			outputDepth(gs, "i_"), outputDepth(gs, "j_"))
	case rowATU:
		why = fmt.Sprintf("no log2(M*N)-p-q-bit adder: the row r(i,j) is the concatenation {i>>p, j>>q} (N and 2^q are powers of two), %d gates deep; the deepest outputs are m_v (%d gates: the bit selection by vs and the rotation's adders, %s) and m_h (%d: the selection by hs)",
			outputDepth(gs, "row_"), outputDepth(gs, "mv_"), reports.AdderList(r.decl[b].Adders), outputDepth(gs, "mh_"))
	case rowRouter:
		why = "the router decodes each lane's module indices at every place and gates them with the lane's enable, so that it also serves the memory's sub-accesses (route.go); the thesis's path counts the multiplexers and ORs only; not measured gate by gate"
	}
	return orNotMeasured(c, why)
}

// adderClaim is the adder Table 3.2's critical path names for block b
// (the AGU's or the ATU's) beside our block's widest adder, elaborated.
func (r *review) adderClaim(b int) verdict.Claim {
	blk, d := r.blocks[b], r.decl[b]
	thesis, ours := adderBits(blk.row, r.g), d.widestAdder()
	c := verdict.Measured(verdict.Thesis, "Table 3.2",
		fmt.Sprintf("%s's widest adder at Fig. 3.12's configuration; the thesis's rule: %d bits (derived)", blk.name, thesis),
		table32[blk.row].adder, float64(thesis), float64(ours), fmt.Sprintf("%d bits (%s)", ours, reports.AdderList(d.Adders)))
	var why string
	if blk.row == rowATU {
		why = fmt.Sprintf("the row r(i,j) needs no adder: it is the concatenation {i>>p, j>>q} (N and 2^q are powers of two); ours are m_v's rotation adders (%d-bit at most in the lanes) and the shift decode's subtractors p - min(p, vs), p - min(p, hs), shared by the lanes",
			2*r.g.P)
	}
	return orNotMeasured(c, why)
}

func (r *review) pathsTable() *table.Table {
	g := r.g
	t := &table.Table{
		Title: fmt.Sprintf("Table 3.2: critical paths at Fig. 3.12's configuration (p=%d, q=%d, M=%d, N=%d, w=%d)", g.P, g.Q, 1<<uint(g.MB), 1<<uint(g.NB), fig312.W),
		Header: []string{"unit", "gate depth, ours", "iCE40 LUT4, ours", "LUT levels, ours", "thesis: critical path (Table 3.2)",
			"thesis's path built and mapped, gates (derived)", "verdict", "thesis: logic (Table 3.2)", reports.NSHeader, reports.PathHeader},
	}
	for b, blk := range r.blocks {
		c := r.pathClaim(b)
		t.Add(blk.name, fmt.Sprint(r.gates[b].Depth), fmt.Sprint(r.ices[b].LUT4), fmt.Sprint(r.ices[b].LUTLevels), table32[blk.row].path,
			fmt.Sprint(r.gates[len(r.blocks)+blk.row].Depth), c.Verdict.String(), table32[blk.row].logic, reports.NS(r.pnr[b]), reports.Path(r.pnr[b]))
	}
	for b, form := range []string{"pre-add", "post-add"} {
		a := r.gates[blockATU+b]
		t.Notes = append(t.Notes, fmt.Sprintf("ATU %s, deepest output: mv %d gates, mh %d, row %d.", form, outputDepth(a, "mv_"), outputDepth(a, "mh_"), outputDepth(a, "row_")))
	}
	t.Notes = append(t.Notes,
		"The thesis's path, built and mapped: each description of Table 3.2 built as a module (a 5-input multiplexer into a max(log2 M, log2 N)-bit adder; one log2(M*N)-p-q-bit adder; two stages of a 2-input multiplexer into a 2^q-, then 2^p-input OR, and a 2-input multiplexer) and mapped by scripts/gates.ys like ours; the verdict sets our depth beside it (internal/verdict).",
		"The row is the concatenation {i>>p, j>>q} (the issue's point 2: no adder); the ATU's critical path is the bit selection by vs or hs of m_v and m_h, and m_v's 2p-bit adder.",
		"The AGU here reads the stride table k*VS, k*HS from inputs, as the memory does from its registers; the smm2d-agu unit multiplies by constants instead.",
		"The router carries each lane's own m_v (m_h) and decodes it at every place, so that it also serves the memory's sub-accesses; its depth adds the enable AND and the decode to the thesis's multiplexers and ORs.",
		"The logic column's O() is set beside each unit's growth with the bank count in gen -report smm2d-scaling.",
		reports.NSNote)
	return t
}

func (r *review) addersTable() *table.Table {
	t := &table.Table{
		Title:  "Table 3.2's adders: the adder each critical path names beside our unit's widest, elaborated (Fig. 3.12's configuration)",
		Header: []string{"unit", "thesis: the path's adder (Table 3.2)", "thesis's rule, derived (bits)", "widest adder, ours (bits)", "ours: every adder", "verdict"},
	}
	for b, blk := range r.blocks {
		if blk.row == rowRouter {
			continue
		}
		c := r.adderClaim(b)
		t.Add(blk.name, table32[blk.row].adder, fmt.Sprint(adderBits(blk.row, r.g)), fmt.Sprint(r.decl[b].widestAdder()),
			reports.AdderList(r.decl[b].Adders), c.Verdict.String())
	}
	return t
}

// storageRow is one row of Table 3.3 at Fig. 3.12's configuration: the
// thesis's rule evaluated beside the memory's declared registers.
type storageRow struct {
	name, printed string
	thesis, ours  int
}

func (r *review) storageRows() []storageRow {
	tab, route := r.g.Table33()
	mem := r.decl[len(r.blocks)]
	return []storageRow{
		{"AGU stride table k*VS, k*HS", "2^(p+q) * log2(M*N)", tab, mem.Table},
		{"routing information m_v, m_h", "2^(p+q) * (p+q)", route, mem.Routing},
	}
}

func (s storageRow) claim() verdict.Claim {
	c := verdict.Measured(verdict.Thesis, "Table 3.3",
		fmt.Sprintf("%s: register bits at Fig. 3.12's configuration; the thesis's rule: %d (derived)", s.name, s.thesis),
		s.printed, float64(s.thesis), float64(s.ours), fmt.Sprintf("%d bits", s.ours))
	return orNotMeasured(c, "")
}

// storageClaims are Table 3.3's rows as claims.
func (r *review) storageClaims() []verdict.Claim {
	var cs []verdict.Claim
	for _, s := range r.storageRows() {
		cs = append(cs, s.claim())
	}
	return cs
}

func (r *review) storageTable() *table.Table {
	g := r.g
	mem := r.decl[len(r.blocks)]
	t := &table.Table{
		Title:  fmt.Sprintf("Table 3.3: storage at Fig. 3.12's configuration (L=%d, log2(M*N)=%d, p+q=%d)", g.Lanes(), g.MB+g.NB, g.P+g.Q),
		Header: []string{"storage", "thesis: SRAM bits (Table 3.3)", "thesis's rule, derived (bits)", "declared register bits, ours", "verdict"},
	}
	for _, s := range r.storageRows() {
		t.Add(s.name, s.printed, fmt.Sprint(s.thesis), fmt.Sprint(s.ours), s.claim().Verdict.String())
	}
	// The pre-add memory's iCE40 result: after the blocks and the ATU forms.
	flops := r.ices[len(r.blocks)+len(r.forms)-2].Flops
	t.Notes = append(t.Notes,
		fmt.Sprintf("The memory declares %d register bits in all (the stage-1 request, vs, hs, the table, the routing information, the response); Yosys's iCE40 flow maps it (banks outside) to %d flip-flops.", mem.All, flops),
		fmt.Sprintf("The table's k = 0 row (%d bits) always holds 0; it is kept so that the table is Table 3.3's.", g.MB+g.NB))
	return t
}

func formsTable(ds []design, ices []synth.ICE40, pnr []synth.Timing) *table.Table {
	t := &table.Table{
		Title:  "m_v pre-add (section 3.4.2, the default) against post-add (section 3.3, -post): iCE40 area, mb=10, nb=8, ours",
		Header: []string{"design", "LUT4 pre-add", "LUT4 post-add", "post/pre", "LUT levels pre-add", "LUT levels post-add", reports.NSHeaderOf("pre-add / post-add")},
	}
	for i := 0; i+1 < len(ds); i += 2 {
		pre, post := ices[i], ices[i+1]
		ns := ""
		if reports.NS(pnr[i]) != "" || reports.NS(pnr[i+1]) != "" {
			ns = reports.NS(pnr[i]) + " / " + reports.NS(pnr[i+1])
		}
		t.Add(strings.Replace(ds[i].label, "pre-add ", "", 1), fmt.Sprint(pre.LUT4), fmt.Sprint(post.LUT4),
			fmt.Sprintf("%.2f", share(float64(post.LUT4), float64(pre.LUT4))), fmt.Sprint(pre.LUTLevels), fmt.Sprint(post.LUTLevels), ns)
	}
	t.Notes = append(t.Notes, "Pre-add adds the rotation to i before the XOR scheme (a 2p-bit adder on i's bits selected by vs); post-add adds it to the scheme's p-bit result. They agree for p = 1 and differ for p >= 2; both keep the six patterns conflict-free (spec tests, make prove).",
		reports.NSNote)
	return t
}

// cyclesTable runs the cycle-level model (model.go) at Fig. 3.12's
// configuration with vs = hs = 1.
func cyclesTable() *table.Table {
	s := Scheme{Geometry: fig312.Geometry, VS: 1, HS: 1}
	r := rand.New(rand.NewPCG(1, 2))
	t := &table.Table{
		Title:  "Cycles per access from the cycle-level model (Fig. 3.12's configuration, vs = hs = 1, 10,000 random accesses each), ours",
		Header: []string{"pattern", "supported, mean", "unsupported, mean", "unsupported, worst", "lanes"},
	}
	for _, p := range Patterns {
		c := s.MeasureCycles(p, 10000, r)
		t.Add(p.String(), fmt.Sprintf("%.2f", c.Supported), fmt.Sprintf("%.2f", c.Unsupported), fmt.Sprint(c.Worst), fmt.Sprint(s.Lanes()))
	}
	t.Notes = append(t.Notes,
		"Supported: the accesses appendix B's theorems make conflict-free, which the memory serves in one cycle (the theorems' claims: gen -report fidelity -family smm2d).",
		"Unsupported: strides of other families (strided patterns) or misaligned bases (continuous patterns). The memory serves them in sub-accesses of lanes that do not meet in the router (model.go); the thesis leaves them undefined.")
	return t
}
