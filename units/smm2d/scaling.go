package smm2d

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"strings"

	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
)

// gen -report smm2d-scaling: Figures 3.17-3.20 on iCE40 (banks not
// counted): the memory against bank depth, data width and bank count,
// unit by unit where the thesis's trend is linear (Figs. 3.19, 3.20), and
// the thesis's trends beside ours as claims, with Table 3.2's logic
// column set beside each unit's growth with the bank count.

// memSweep is one sweep of the scaling study: memories along one axis,
// each measured whole and, with byUnit, unit by unit (unitDesigns).
type memSweep struct {
	fig, about, axis string // "Fig. 3.19", "data width at depth 32K, p=1, q=2", "w"
	mems             []Memory
	label            func(Memory) string
	log2x            func(Memory) int
	byUnit           bool
	unitNote         string          // what the unit table adds
	ices             []synth.ICE40   // the memories
	decl             []declared      // the memories
	units            [][]synth.ICE40 // by memory, unitDesigns' (byUnit)
}

// scalingMemory is a memory of the scaling study: banks of 2^depthBits
// elements, mb and nb as equal as they come.
func scalingMemory(p, q, depthBits, w int) Memory {
	s := depthBits + p + q // mb + nb
	mb := (s + 1) / 2
	return Memory{Geometry: Geometry{P: p, Q: q, MB: mb, NB: s - mb}, W: w}
}

// Fig. 3.17's depths (log2), and Fig. 3.18's.
const fewest, most, breakdown = 10, 17, 13

// scaling is what gen -report smm2d-scaling measures.
type scaling struct {
	depth, width, banks *memSweep
	parts               []synth.ICE40 // unitDesigns at Fig. 3.18's depth
}

func newScaling() *scaling {
	s := &scaling{
		depth: &memSweep{fig: "Fig. 3.17", about: "bank depth at p=1, q=2, w=64", axis: "depth",
			label: func(p Memory) string { return fmt.Sprintf("2^%d", p.RW()) }, log2x: func(p Memory) int { return p.RW() }},
		width: &memSweep{fig: "Fig. 3.19", about: "data width at depth 32K, p=1, q=2", axis: "w", byUnit: true,
			unitNote: " The AGU, the ATU and the sub-access choice carry no data: they do not depend on w; the inward router carries {we, row, data}.",
			label:    func(p Memory) string { return fmt.Sprint(p.W) }, log2x: func(p Memory) int { return bits.Len(uint(p.W)) - 1 }},
		banks: &memSweep{fig: "Fig. 3.20", about: "bank count at depth 16K, w=16", axis: "banks", byUnit: true,
			unitNote: " Each router's place ORs 2^q, then 2^p inputs; the sub-access choice compares every pair of lanes.",
			label:    func(p Memory) string { return fmt.Sprintf("%d (%dx%d)", p.Lanes(), 1<<uint(p.P), 1<<uint(p.Q)) },
			log2x:    func(p Memory) int { return p.P + p.Q }},
	}
	for d := fewest; d <= most; d++ {
		s.depth.mems = append(s.depth.mems, scalingMemory(1, 2, d, 64))
	}
	for _, w := range []int{8, 16, 32, 64} {
		s.width.mems = append(s.width.mems, scalingMemory(1, 2, 15, w))
	}
	for _, pq := range [][2]int{{1, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 3}} {
		s.banks.mems = append(s.banks.mems, scalingMemory(pq[0], pq[1], 14, 16))
	}
	return s
}

func (s *scaling) sweeps() []*memSweep { return []*memSweep{s.depth, s.width, s.banks} }

// at8192 is Fig. 3.18's memory, in the depth sweep.
func (s *scaling) at8192() Memory { return s.depth.mems[breakdown-fewest] }

func measureScaling(progress io.Writer) (*scaling, error) {
	s := newScaling()
	var mems []design
	for _, sw := range s.sweeps() {
		for _, p := range sw.mems {
			mems = append(mems, memoryDesign(p))
		}
	}
	ds := mems
	for _, sw := range s.sweeps() {
		for _, p := range sw.mems {
			if sw.byUnit {
				ds = append(ds, unitDesigns(p)...)
			}
		}
	}
	ds = append(ds, unitDesigns(s.at8192())...)
	ices, err := synthesize("smm2d-scaling ice40", ds, progress, synth.MapICE40)
	if err != nil {
		return nil, err
	}
	decl, err := declare("smm2d-scaling declared", mems, progress)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, sw := range s.sweeps() {
		sw.ices, sw.decl = ices[n:n+len(sw.mems)], decl[n:n+len(sw.mems)]
		n += len(sw.mems)
	}
	for _, sw := range s.sweeps() {
		for range sw.mems {
			if sw.byUnit {
				sw.units = append(sw.units, ices[n:n+len(unitNames)])
				n += len(unitNames)
			}
		}
	}
	s.parts = ices[n:]
	return s, nil
}

// xs are the sweep's points in log2 of its axis.
func (sw *memSweep) xs() []int {
	var xs []int
	for _, p := range sw.mems {
		xs = append(xs, sw.log2x(p))
	}
	return xs
}

// column is f of every memory's result.
func (sw *memSweep) column(f func(i int) float64) []float64 {
	ys := make([]float64, len(sw.mems))
	for i := range ys {
		ys[i] = f(i)
	}
	return ys
}

func (sw *memSweep) lut4() []float64 {
	return sw.column(func(i int) float64 { return float64(sw.ices[i].LUT4) })
}

// unitLUT4 is unit u's LUT4 at every point; u = len(unitNames) is the
// units' sum.
func (sw *memSweep) unitLUT4(u int) []float64 {
	return sw.column(func(i int) float64 {
		if u < len(unitNames) {
			return float64(sw.units[i][u].LUT4)
		}
		sum := 0
		for _, r := range sw.units[i] {
			sum += r.LUT4
		}
		return float64(sum)
	})
}

func (sw *memSweep) storage() []float64 {
	return sw.column(func(i int) float64 { return float64(sw.decl[i].storage()) })
}

func (sw *memSweep) levels() []int {
	var ls []int
	for _, r := range sw.ices {
		ls = append(ls, r.LUTLevels)
	}
	return ls
}

// ends names the sweep's first and last points: "2^10..2^17".
func (sw *memSweep) ends() string {
	return sw.label(sw.mems[0]) + ".." + sw.label(sw.mems[len(sw.mems)-1])
}

func (sw *memSweep) table() *table.Table {
	t := &table.Table{
		Title:  sw.fig + ", ours: " + sw.about + " (iCE40, banks not counted)",
		Header: []string{sw.axis, "mb, nb", "LUT4", "flip-flops", "LUT levels", "Table 3.3's storage, declared (bits)"},
	}
	for i, p := range sw.mems {
		t.Add(sw.label(p), fmt.Sprintf("%d, %d", p.MB, p.NB), fmt.Sprint(sw.ices[i].LUT4), fmt.Sprint(sw.ices[i].Flops),
			fmt.Sprint(sw.ices[i].LUTLevels), fmt.Sprint(sw.decl[i].storage()))
	}
	t.Notes = append(t.Notes, fmt.Sprintf("LUT4 ~ %s^%.2f (least squares on log2 values). The thesis's trends beside ours, with their verdicts: the last table.",
		sw.axis, growth(sw.xs(), sw.lut4())))
	return t
}

// unitTable is the sweep unit by unit: each unit's LUT4 alone, its growth
// and its share of the units' LUT4 at the sweep's ends.
func (sw *memSweep) unitTable() *table.Table {
	header := []string{"unit"}
	for _, p := range sw.mems {
		header = append(header, sw.label(p))
	}
	t := &table.Table{
		Title:  fmt.Sprintf("%s by unit, ours: LUT4 of each unit alone against %s (%s)", sw.fig, sw.axis, sw.about),
		Header: append(header, fmt.Sprintf("e in LUT4 ~ %s^e", sw.axis), "share of the units, first", "share of the units, last"),
	}
	sum := sw.unitLUT4(len(unitNames))
	last := len(sw.mems) - 1
	row := func(name string, ys []float64) {
		cells := []string{name}
		for _, y := range ys {
			cells = append(cells, fmt.Sprintf("%.0f", y))
		}
		t.Add(append(cells, fmt.Sprintf("%.2f", growth(sw.xs(), ys)), table.Pct(share(ys[0], sum[0])), table.Pct(share(ys[last], sum[last])))...)
	}
	for u, name := range unitNames {
		row(name, sw.unitLUT4(u))
	}
	row("the units' sum", sum)
	row("memory (banks outside)", sw.lut4())
	t.Notes = append(t.Notes, "Units measured alone (each its own synthesis; inside the memory synthesis shares logic between them)."+sw.unitNote)
	return t
}

// unitsWhy says how the sweep's units grow, each alone, and what share of
// the units' LUT4 those off linear (beyond 10 %) hold at the sweep's ends:
// what bends the memory's growth from linear.
func (sw *memSweep) unitsWhy() string {
	var each []string
	var slow, fast []int
	for u, name := range unitNames {
		e := growth(sw.xs(), sw.unitLUT4(u))
		each = append(each, fmt.Sprintf("%s %s^%.2f", name, sw.axis, e))
		switch {
		case e < 1-verdict.MatchTolerance:
			slow = append(slow, u)
		case e > 1+verdict.MatchTolerance:
			fast = append(fast, u)
		}
	}
	sum := sw.unitLUT4(len(unitNames))
	last := len(sw.mems) - 1
	held := func(us []int, than string) string {
		if len(us) == 0 {
			return ""
		}
		at := func(i int) string {
			part := 0.0
			for _, u := range us {
				part += sw.unitLUT4(u)[i]
			}
			return table.Pct(share(part, sum[i]))
		}
		return fmt.Sprintf("; the units %s hold %s of the units' LUT4 at %s = %s and %s at %s", than, at(0), sw.axis, sw.label(sw.mems[0]), at(last), sw.label(sw.mems[last]))
	}
	return fmt.Sprintf("by unit, each alone (%s by unit): %s%s%s", sw.fig, strings.Join(each, ", "),
		held(slow, fmt.Sprintf("below %s^%.1f", sw.axis, 1-verdict.MatchTolerance)), held(fast, fmt.Sprintf("above %s^%.1f", sw.axis, 1+verdict.MatchTolerance)))
}

func (s *scaling) breakdownTable() *table.Table {
	p := s.at8192()
	total := float64(s.depth.ices[breakdown-fewest].LUT4)
	t := &table.Table{
		Title:  fmt.Sprintf("Fig. 3.18, ours: LUT4 by unit at depth %d (p=%d, q=%d, w=%d)", 1<<uint(p.RW()), p.P, p.Q, p.W),
		Header: []string{"unit", "LUT4", "share of the memory"},
	}
	sum := 0
	for u, d := range unitDesigns(p) {
		t.Add(d.label, fmt.Sprint(s.parts[u].LUT4), table.Pct(share(float64(s.parts[u].LUT4), total)))
		sum += s.parts[u].LUT4
	}
	t.Add("the rest (configuration, pipeline, responses)", fmt.Sprint(int(total)-sum), table.Pct(share(total-float64(sum), total)))
	t.Add("memory (banks outside)", fmt.Sprint(int(total)), table.Pct(share(total, total)))
	t.Notes = append(t.Notes, "The thesis's Fig. 3.18 gives the address & data routing unit the overwhelming majority of the ALUTs (the last table). Units measured alone; synthesis shares some logic inside the memory, so the rest can be small or negative.")
	return t
}

func (s *scaling) tables() []*table.Table {
	return []*table.Table{s.depth.table(), s.breakdownTable(), s.width.table(), s.width.unitTable(), s.banks.table(), s.banks.unitTable(),
		verdict.Table("Figs. 3.17-3.20 and Table 3.2's logic column: the thesis's trends beside ours, under one rule", s.claims(),
			"Ours: iCE40 LUT4 and LUT levels (Yosys, banks not counted) for the thesis's Stratix-II ALUTs and delays, and the memory's declared Table 3.3 registers for its SRAM bits. A trend stated as linear is compared as the exponent e of the fit x^e against 1.")}
}

// claims are the scaling study's claims in the thesis's order: Table
// 3.2's logic column, then Figs. 3.17-3.20.
func (s *scaling) claims() []verdict.Claim {
	return append(s.logicClaims(), s.trendClaims()...)
}

// trendWhy is the cause of a trend's claim: for one that holds, that the
// thesis gives no number to match; else why, or "not measured".
func trendWhy(c verdict.Claim, why string) verdict.Claim {
	if c.Verdict == verdict.DirectionOnly {
		return c.Because("the thesis states the trend without a number (Stratix-II plots): a direction only")
	}
	return orNotMeasured(c, why)
}

// routerInputs is what route.go's two stages OR at p: 2^(p+q) places, each
// of 2^q then 2^p inputs, per data bit.
func routerInputs(p Memory) float64 { return float64(p.Lanes() * (1<<uint(p.P) + 1<<uint(p.Q))) }

// logicClaims are Table 3.2's logic consumption, O(2^(p+q)) at a fixed
// depth and data width, beside each unit's growth with the bank count.
func (s *scaling) logicClaims() []verdict.Claim {
	sw := s.banks
	first, last := sw.mems[0], sw.mems[len(sw.mems)-1]
	perBank := func(u int) string {
		ys := sw.unitLUT4(u)
		return fmt.Sprintf("LUT4 per bank %.0f at %d banks, %.0f at %d", share(ys[0], float64(first.Lanes())), first.Lanes(),
			share(ys[len(ys)-1], float64(last.Lanes())), last.Lanes())
	}
	addrBits := fmt.Sprintf("at fixed depth a lane's address (i, j) widens with the banks, log2(M*N) = log2 depth + p + q: %d to %d bits", first.MB+first.NB, last.MB+last.NB)
	claim := func(row int, name string, ys []float64, why string) verdict.Claim {
		e := growth(sw.xs(), ys)
		c := verdict.Measured(verdict.Thesis, "Table 3.2",
			fmt.Sprintf("%s's logic against the bank count (%s, %s; ours: iCE40 LUT4 alone): e in LUT4 ~ banks^e, the O() at a fixed depth and width: 1", name, sw.ends(), sw.about),
			table32[row].logic, 1, e, fmt.Sprintf("banks^%.2f", e))
		return orNotMeasured(c, why)
	}
	var xs []int
	var inputs []float64
	for _, p := range sw.mems {
		xs, inputs = append(xs, sw.log2x(p)), append(inputs, routerInputs(p))
	}
	in, out := sw.unitLUT4(unitInward), sw.unitLUT4(unitOutward)
	routers := sw.column(func(i int) float64 { return in[i] + out[i] })
	return []verdict.Claim{
		claim(rowAGU, "AGU", sw.unitLUT4(unitAGU), perBank(unitAGU)+"; "+addrBits+" (not measured apart)"),
		claim(rowATU, "ATU", sw.unitLUT4(unitATU), perBank(unitATU)+"; "+addrBits+" (not measured apart)"),
		claim(rowRouter, "router (inward and outward)", routers,
			fmt.Sprintf("route.go's stages OR 2^q, then 2^p inputs at each of the 2^(p+q) places: 2^(p+q)*(2^p+2^q) inputs per data bit, banks^%.2f over these points (by construction); the thesis's logic column counts the critical path's circuitry (Table 3.2's note)",
				growth(xs, inputs))),
	}
}

// trendClaims are the trends the thesis states on Figs. 3.17-3.20.
func (s *scaling) trendClaims() []verdict.Claim {
	d, w, b := s.depth, s.width, s.banks
	var cs []verdict.Claim

	// Fig. 3.17: "a very slight increase in the critical path delay",
	// explained by adders whose width grows with log2 depth and whose
	// delay grows with the log of their width.
	lv := d.levels()
	l0, l1 := lv[0], lv[len(lv)-1]
	d0, d1 := d.mems[0].RW(), d.mems[len(d.mems)-1].RW()
	bound := math.Log2(float64(d1))/math.Log2(float64(d0)) - 1
	rise := share(float64(l1-l0), float64(l0))
	c := verdict.Stated(verdict.Thesis, "Fig. 3.17",
		fmt.Sprintf("critical path against bank depth %s (ours: LUT levels); very slight taken as at most the thesis's log(log) rule's rise: +%.0f%% (derived)", d.ends(), 100*bound),
		"very slight increase", l1 > l0 && rise <= bound, false, fmt.Sprintf("%d -> %d LUT levels (%+.0f%%)", l0, l1, 100*rise))
	cs = append(cs, trendWhy(c, ""))

	// Fig. 3.17: "no remarkable change" in the ALUTs.
	e := growth(d.xs(), d.lut4())
	change := math.Pow(2, e*float64(d1-d0)) - 1
	c = verdict.Stated(verdict.Thesis, "Fig. 3.17",
		fmt.Sprintf("logic (ALUTs; ours: iCE40 LUT4) against bank depth %s; no remarkable change taken as the fitted change over the sweep within 10%%", d.ends()),
		"no remarkable change", math.Abs(change) <= verdict.MatchTolerance, false, fmt.Sprintf("LUT4 ~ depth^%.2f: %+.0f%% over the sweep", e, 100*change))
	cs = append(cs, trendWhy(c, ""))

	// Fig. 3.17: the SRAM bits grow with log2 of the depth (Table 3.3).
	st := d.storage()
	even := st[1] > st[0]
	for i := 1; i < len(st); i++ {
		even = even && st[i]-st[i-1] == st[1]-st[0]
	}
	c = verdict.Stated(verdict.Thesis, "Fig. 3.17",
		fmt.Sprintf("SRAM bits against bank depth %s (ours: Table 3.3's registers, declared): the same step each doubling", d.ends()),
		"increases in a logarithm manner", even, false, fmt.Sprintf("%.0f -> %.0f bits, %+.0f the first doubling", st[0], st[len(st)-1], st[1]-st[0]))
	cs = append(cs, trendWhy(c, ""))

	// Fig. 3.18: the routing unit holds "the overwhelming majority".
	var units float64
	for _, r := range s.parts {
		units += float64(r.LUT4)
	}
	routers := share(float64(s.parts[unitInward].LUT4+s.parts[unitOutward].LUT4), units)
	c = verdict.Stated(verdict.Thesis, "Fig. 3.18",
		"the Address & Data Routing Unit's share of the logic at depth 8192 (ours: the routers' LUT4 over the units', each alone); the overwhelming majority taken as more than half",
		"overwhelming majority", routers > 0.5, false, fmt.Sprintf("routers %s of the units' LUT4", table.Pct(routers)))
	cs = append(cs, trendWhy(c, ""))

	// Fig. 3.19: "some increase in critical path delay", which the thesis
	// traces to the FPGA's interconnection delay.
	lv = w.levels()
	c = verdict.Stated(verdict.Thesis, "Fig. 3.19", fmt.Sprintf("critical path against data width %s (ours: LUT levels)", w.ends()),
		"some increase", lv[len(lv)-1] > lv[0], false, fmt.Sprintf("%d -> %d LUT levels", lv[0], lv[len(lv)-1]))
	cs = append(cs, trendWhy(c, fmt.Sprintf("ours counts the logic's LUT levels without place and route: the data width adds no level (%d -> %d); the thesis traces its increase to the FPGA's interconnection delay, which we do not measure", lv[0], lv[len(lv)-1])))

	// Fig. 3.19: the logic "grows linearly" with the data width; Table
	// 3.2's O() for the router adds the bank address to the width.
	thesisLaw := w.column(func(i int) float64 { return float64(w.mems[i].W + w.mems[i].RW()) })
	cs = append(cs, linearClaim(w, "Fig. 3.19", "grows linearly", w.lut4(), "logic (ALUTs; ours: iCE40 LUT4)",
		fmt.Sprintf("%s; the inward router carries {we, row, data}, %d + w bits; Table 3.2's own O(2^(p+q)*(data_width + log2(M*N)-p-q)) grows as w^%.2f over this sweep (derived): linear in w with an offset, which a power law fits below 1",
			w.unitsWhy(), 1+w.mems[0].RW(), growth(w.xs(), thesisLaw))))

	// Fig. 3.19: the data width "does not influence" the SRAM bits.
	st = w.storage()
	moved := share(st[len(st)-1]-st[0], st[0])
	c = verdict.Measured(verdict.Thesis, "Fig. 3.19",
		fmt.Sprintf("SRAM bits against data width %s (ours: Table 3.3's registers, declared): the change over the sweep", w.ends()),
		"does not influence", 0, moved, fmt.Sprintf("%.0f -> %.0f bits", st[0], st[len(st)-1]))
	cs = append(cs, orNotMeasured(c, ""))

	// Fig. 3.20: the critical path "grows roughly in logarithm manner".
	lv = b.levels()
	rises := lv[len(lv)-1] > lv[0]
	for i := 1; i < len(lv); i++ {
		rises = rises && lv[i] >= lv[i-1]
	}
	c = verdict.Stated(verdict.Thesis, "Fig. 3.20",
		fmt.Sprintf("critical path against the bank count %s (ours: LUT levels, rising at every step; the logarithm's shape not tested)", b.ends()),
		"grows roughly in logarithm manner", rises, false, fmt.Sprintf("%d -> %d LUT levels", lv[0], lv[len(lv)-1]))
	cs = append(cs, trendWhy(c, ""))

	last := b.mems[len(b.mems)-1]
	cs = append(cs, linearClaim(b, "Fig. 3.20", "increases linearly", b.lut4(), "logic (ALUTs; ours: iCE40 LUT4)",
		fmt.Sprintf("%s; the sub-access choice compares every pair of lanes, L(L-1)/2 = %d at %d banks (Memory.serve)", b.unitsWhy(), last.Lanes()*(last.Lanes()-1)/2, last.Lanes())))
	first := b.mems[0]
	cs = append(cs, linearClaim(b, "Fig. 3.20", "increases linearly", b.storage(), "SRAM bits (ours: Table 3.3's registers, declared)",
		fmt.Sprintf("Table 3.3's bits per bank are log2(M*N) + p + q, and at a fixed depth log2(M*N) grows with the banks: %d bits per bank at %d banks, %d at %d (declared)",
			b.decl[0].storage()/first.Lanes(), first.Lanes(), b.decl[len(b.decl)-1].storage()/last.Lanes(), last.Lanes())))
	return cs
}

// linearClaim is a trend the thesis calls linear: the exponent e of the
// fit ys ~ x^e against 1.
func linearClaim(sw *memSweep, fig, printed string, ys []float64, what, why string) verdict.Claim {
	e := growth(sw.xs(), ys)
	c := verdict.Measured(verdict.Thesis, fig,
		fmt.Sprintf("%s against %s %s (%s): e in y ~ %s^e, linear: 1", what, sw.axis, sw.ends(), sw.about, sw.axis),
		printed, 1, e, fmt.Sprintf("%s^%.2f", sw.axis, e))
	return orNotMeasured(c, why)
}
