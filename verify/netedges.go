package verify

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/parmem/parmem/hdl"
)

// Edge shapes: the operations whose meaning a shortcut of ours or a tool's
// optimizer once got wrong (DESIGN.md, "Simulator bugs the emitter steers
// around"), and their neighbours, made in every random netlist so that
// make test's 1,000 designs hold each of them many times over rather than
// the few a soak of 100,000 draws by chance:
//   - a NOT, equality, AND or OR that a Zext widens into the one AND or OR
//     that reads it (the Go simulator's superinstructions fuse such pairs,
//     and a Zext shares its operand's slot);
//   - values of one to 130 bits made of a few bits (extended, inverted,
//     replicated, beside constant bits), each read several ways at once:
//     reductions, a bit, equalities with zero, ones, another constant or
//     a signal; in the module that makes them and across a sub-module's
//     ports (Verilator inlines the sub-module and folds what it then sees);
//   - Selects, one-hot selects and multiplexers whose index or select is a
//     constant, over constant and signal choices (a Verilog case block
//     that reads nothing never runs in Icarus);
//   - operations on constants only, which the simulators compute once;
//   - Concats of narrow values over 64 bits wide, their words read by
//     narrow slices and by a wide operation (a simulator that computes
//     such a Concat word by word must keep every word a reader needs in
//     the state);
//   - slices that take exactly one operand of a Concat, through a NOT and a
//     Zext, which the simulators read from the operand.

// edgeSalt is the second word of the edge shapes' random stream.
const edgeSalt = 0xed6e

// minEdgeShapes and maxEdgeShapes bound the shapes of one netlist.
const minEdgeShapes, maxEdgeShapes = 2, 6

// addEdgeShapes instances a module of edge shapes in top, driven by inputs
// and read by outputs of its own (x<k> and y<k>). It draws from a random
// stream of its own and reads no signal of the rest of the design, so the
// rest is exactly the logic the seed made without it (a design found
// before the shapes were added keeps the logic that failed).
func addEdgeShapes(top *hdl.Module, name string, seed uint64, maxW int) {
	m, _ := edgeModule(name+"_e", seed, maxW)
	u := top.Instance("ue", m)
	for k, in := range m.Inputs() {
		u.Connect(in.Name(), top.Input(fmt.Sprintf("x%d", k), in.Width()))
	}
	for k, out := range m.Outputs() {
		top.Output(fmt.Sprintf("y%d", k), out.Width()).Drive(u.Out(out.Name()))
	}
}

// edgeShape is one kind of edge shape: its name, and the method of netgen
// that makes one.
type edgeShape struct {
	name string
	make func(g *netgen) *hdl.Signal
}

var edgeShapes = []edgeShape{
	{"fused through a Zext", (*netgen).fusedThroughZext},
	{"wide readers", (*netgen).wideReaders},
	{"readers across a port", (*netgen).readersAcrossPort},
	{"constant choice", (*netgen).constantChoice},
	{"constant operands", (*netgen).constantOperands},
	{"Concat words", (*netgen).concatWords},
	{"slice through a NOT", (*netgen).sliceThroughNot},
}

// edgeModule builds the module of edge shapes called name from the edge
// stream of seed: a one-bit input, two of random widths, and an output
// per shape. It returns the shapes' names too.
func edgeModule(name string, seed uint64, maxW int) (*hdl.Module, []string) {
	g := &netgen{r: rand.New(rand.NewPCG(seed, edgeSalt)), name: name, maxW: maxW}
	g.m = hdl.NewModule(name)
	g.add(g.m.Input("i0", 1))
	g.add(g.m.Input("i1", g.edgeWidth()))
	g.add(g.m.Input("i2", g.width()))
	var made []string
	for k := range minEdgeShapes + g.r.IntN(maxEdgeShapes-minEdgeShapes+1) {
		shape := edgeShapes[g.r.IntN(len(edgeShapes))]
		s := shape.make(g)
		g.m.Output(fmt.Sprintf("o%d", k), s.Width()).Drive(s)
		g.add(s) // (later shapes may read it)
		made = append(made, shape.name)
	}
	return g.m, made
}

// edgeWidth draws a width for an edge shape: the word boundaries and one
// bit past them, or any width.
func (g *netgen) edgeWidth() int {
	ws := []int{1, 2, 63, 64, 65, 90, 127, 128, 129, 130}
	if g.r.IntN(3) == 0 {
		return 1 + g.r.IntN(g.maxW)
	}
	for {
		if w := ws[g.r.IntN(len(ws))]; w <= g.maxW {
			return w
		}
	}
}

// narrowSource is a signal of the pool cut to at most n bits.
func (g *netgen) narrowSource(n int) *hdl.Signal {
	s := g.pick()
	if s.Width() > n {
		s = g.fit(s, 1+g.r.IntN(n))
	}
	return s
}

// fusedThroughZext is a NOT, equality, AND or OR of a narrow value,
// widened by a Zext into the AND or OR that alone reads it.
func (g *netgen) fusedThroughZext() *hdl.Signal {
	w := max(2, g.edgeWidth())
	a := g.narrowSource(w - 1)
	var p *hdl.Signal
	switch g.r.IntN(4) {
	case 0:
		p = a.Not()
	case 1:
		p = a.Eq(g.fit(g.pick(), a.Width()))
	case 2:
		p = a.And(g.fit(g.pick(), a.Width()))
	default:
		p = a.Or(g.fit(g.pick(), a.Width()))
	}
	other := g.fit(g.pick(), w)
	if g.r.IntN(2) == 0 {
		return other.And(p.Zext(w))
	}
	return p.Zext(w).Or(other)
}

// extended is a w-bit value made of a narrow one: zero or sign extended,
// inverted before or after, replicated, or beside constant bits.
func (g *netgen) extended(w int) *hdl.Signal {
	x := g.narrowSource(min(w, 1+g.r.IntN(3)))
	if x.Width() == w {
		return x
	}
	switch g.r.IntN(7) {
	case 0:
		return x.Zext(w)
	case 1:
		return x.Zext(w).Not()
	case 2:
		return x.Not().Zext(w)
	case 3:
		return x.Sext(w).Not()
	case 4:
		if w%x.Width() == 0 {
			return x.Repl(w / x.Width()).Not()
		}
		return x.Sext(w)
	case 5:
		return hdl.Concat(g.m.Const(g.value(w-x.Width())), x)
	default:
		return hdl.Concat(x.Not(), g.m.Const(g.value(w-x.Width())))
	}
}

// reduce is one of the three reductions of x.
func (g *netgen) reduce(x *hdl.Signal) *hdl.Signal {
	return []func() *hdl.Signal{x.RedAnd, x.RedOr, x.RedXor}[g.r.IntN(3)]()
}

// comparand is what an equality compares a w-bit value with: zero, all
// ones, another constant or a signal.
func (g *netgen) comparand(w int) *hdl.Signal {
	switch g.r.IntN(4) {
	case 0:
		return g.m.Const(hdl.Zero(w))
	case 1:
		return g.m.Const(hdl.Zero(w).Not())
	case 2:
		return g.m.Const(g.value(w))
	}
	return g.fit(g.pick(), w)
}

// readers are two to four reads of x side by side: reductions, a bit, and
// equalities and inequalities with a comparand.
func (g *netgen) readers(x, comparand *hdl.Signal) *hdl.Signal {
	var rs []*hdl.Signal
	for range 2 + g.r.IntN(3) {
		switch g.r.IntN(4) {
		case 0, 1:
			rs = append(rs, g.reduce(x))
		case 2:
			rs = append(rs, x.Bit(g.r.IntN(x.Width())))
		default:
			rs = append(rs, []func(*hdl.Signal) *hdl.Signal{x.Eq, x.Ne}[g.r.IntN(2)](comparand))
		}
	}
	return hdl.Concat(rs...)
}

// wideReaders reads an extended value several ways.
func (g *netgen) wideReaders() *hdl.Signal {
	w := g.edgeWidth()
	return g.readers(g.extended(w), g.comparand(w))
}

// readersAcrossPort passes an extended value and a comparand to a
// sub-module that reads the value, or its NOT, several ways.
func (g *netgen) readersAcrossPort() *hdl.Signal {
	w := g.edgeWidth()
	sub := hdl.NewModule(fmt.Sprintf("%s_r%d", g.name, g.subs))
	g.subs++
	in, z := sub.Input("i", w), sub.Input("z", w)
	x := in
	if g.r.IntN(2) == 0 {
		x = in.Not()
	}
	r := g.readers(x, z)
	sub.Output("o", r.Width()).Drive(r)
	u := g.m.Instance(fmt.Sprintf("u%d", g.subs-1), sub)
	u.Connect("i", g.extended(w))
	u.Connect("z", g.comparand(w))
	return u.Out("o")
}

// constantChoice is a Select, one-hot select or multiplexer whose index or
// select is a constant (a Select's sometimes out of range), over choices
// that are constants or signals.
func (g *netgen) constantChoice() *hdl.Signal {
	w := g.width()
	choice := func() *hdl.Signal {
		if g.r.IntN(2) == 0 {
			return g.m.Const(g.value(w))
		}
		return g.fit(g.pick(), w)
	}
	n := 1 + g.r.IntN(4)
	choices := make([]*hdl.Signal, n)
	for i := range choices {
		choices[i] = choice()
	}
	switch g.r.IntN(3) {
	case 0:
		index := max(1, bits.Len(uint(n-1))) + g.r.IntN(2) // (sometimes out of range)
		return hdl.Select(g.m.ConstU(index, g.r.Uint64N(1<<uint(index))), choices...)
	case 1:
		return hdl.OneHotSelect(g.m.ConstU(n, g.r.Uint64N(1<<uint(n))), choices...)
	default:
		return hdl.Mux(g.m.ConstU(1, g.r.Uint64N(2)), choice(), choice())
	}
}

// constantOperands is an operation on constants only, read with a signal.
func (g *netgen) constantOperands() *hdl.Signal {
	w := g.edgeWidth()
	a, b := g.m.Const(g.value(w)), g.m.Const(g.value(w))
	var c *hdl.Signal
	switch g.r.IntN(5) {
	case 0:
		c = a.And(b)
	case 1:
		c = a.Add(b)
	case 2:
		c = a.Not()
	case 3:
		c = g.reduce(a).Zext(w)
	default:
		c = a.Lt(b).Zext(w)
	}
	return c.Xor(g.fit(g.pick(), w))
}

// concatWords is a Concat of narrow values, over 64 bits wide, whose words
// narrow slices read beside a wide operation (the x86-64 engine, since
// deleted, once kept a word that one slice read out of the state the wide
// operation reads).
func (g *netgen) concatWords() *hdl.Signal {
	if g.maxW <= 64 { // (narrow netlists have no wide values)
		return g.sliceThroughNot()
	}
	parts := []*hdl.Signal{g.narrowSource(64)}
	for w := parts[0].Width(); w <= 64; w += parts[len(parts)-1].Width() {
		parts = append(parts, g.narrowSource(min(64, g.maxW-w)))
	}
	cat := hdl.Concat(parts...)
	hi := 64 + g.r.IntN(cat.Width()-64)
	reads := []*hdl.Signal{cat.Bit(hi), cat.Bit(g.r.IntN(64))}
	switch g.r.IntN(3) {
	case 0:
		reads = append(reads, cat.Sra(1+g.r.IntN(8)))
	case 1:
		reads = append(reads, cat.Add(g.fit(g.pick(), cat.Width())))
	default:
		reads = append(reads, cat)
	}
	return hdl.Concat(reads...)
}

// sliceThroughNot is a slice that takes exactly one operand of a Concat,
// through a NOT of the Concat and sometimes a Zext of it.
func (g *netgen) sliceThroughNot() *hdl.Signal {
	parts := []*hdl.Signal{g.narrowSource(g.maxW / 2), g.narrowSource(g.maxW / 2)}
	cat := hdl.Concat(parts...)
	v := cat
	switch g.r.IntN(3) {
	case 0:
		v = cat.Not()
	case 1:
		if cat.Width() < g.maxW {
			v = cat.Zext(min(g.maxW, cat.Width()+1+g.r.IntN(8))).Not()
		}
	}
	j := g.r.IntN(2)
	lo := 0
	if j == 0 {
		lo = parts[1].Width()
	}
	return v.Slice(lo+parts[j].Width()-1, lo)
}
