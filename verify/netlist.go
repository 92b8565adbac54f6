package verify

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/parmem/parmem/hdl"
)

// Random netlists for differential fuzzing of the framework itself: every
// hdl operation at widths 1 to 130, registers with and without enables and
// reset values, memories with asynchronous and synchronous reads and
// several write ports, wires, named signals, instances of random
// sub-modules, and the edge shapes of netedges.go. Each is simulated by
// the Go simulator, Verilator and Icarus in lockstep; any difference is a
// bug in the simulator, the emitter or a tool. Designs are acyclic by
// construction: operands are always signals made earlier, and registers
// and memories (which cut loops) are driven last.

// maxNetWidth bounds random widths, as the verify issue asks (1..130).
const maxNetWidth = 130

// narrowNetWidth bounds the widths of the narrow netlists: the designs
// the compiled streams run in 32-bit lanes (sim.Sim.StreamLaneBits).
const narrowNetWidth = 32

type netgen struct {
	r    *rand.Rand
	m    *hdl.Module
	pool []*hdl.Signal
	name string
	subs int
	maxW int // widest signal (maxNetWidth or narrowNetWidth)
}

// RandomNetlist builds a random design called name from seed. Sub-modules
// are called name_s0, name_s1, ...
func RandomNetlist(name string, seed uint64) *hdl.Module {
	return randomNetlist(name, seed, maxNetWidth)
}

// RandomNarrowNetlist is RandomNetlist with every signal and constant at
// most 32 bits wide.
func RandomNarrowNetlist(name string, seed uint64) *hdl.Module {
	return randomNetlist(name, seed, narrowNetWidth)
}

func randomNetlist(name string, seed uint64, maxW int) *hdl.Module {
	g := &netgen{r: rand.New(rand.NewPCG(seed, 0x4e7)), name: name, maxW: maxW}
	m := g.module(name, true)
	addEdgeShapes(m, name, seed, maxW)
	return m
}

// width draws a width, favouring the word boundaries.
func (g *netgen) width() int {
	switch g.r.IntN(6) {
	case 0:
		return 1
	case 1:
		if g.narrow() {
			return []int{8, 16, 31, 32}[g.r.IntN(4)]
		}
		return []int{8, 32, 63, 64, 65, 128}[g.r.IntN(6)]
	default:
		return 1 + g.r.IntN(g.maxW)
	}
}

// pick returns an earlier signal, usually a recent one.
func (g *netgen) pick() *hdl.Signal {
	if g.r.IntN(3) == 0 {
		return g.pool[g.r.IntN(len(g.pool))]
	}
	return g.pool[max(0, len(g.pool)-1-g.r.IntN(8))]
}

// fit returns s resized to w bits by Zext, Sext, Trunc or a slice.
func (g *netgen) fit(s *hdl.Signal, w int) *hdl.Signal {
	switch {
	case s.Width() < w && g.r.IntN(2) == 0:
		return s.Sext(w)
	case s.Width() < w:
		return s.Zext(w)
	case s.Width() > w && g.r.IntN(2) == 0:
		lo := g.r.IntN(s.Width() - w + 1)
		return s.Slice(lo+w-1, lo)
	case s.Width() > w:
		return s.Trunc(w)
	}
	return s
}

// narrow reports whether g makes narrow netlists, in which an operation's
// intermediate results must fit maxW too.
func (g *netgen) narrow() bool { return g.maxW == narrowNetWidth }

// narrower is s cut to at most w bits (by fit) in a narrow netlist, and
// its width.
func (g *netgen) narrower(s *hdl.Signal, w int) (*hdl.Signal, int) {
	if g.narrow() && s.Width() > w {
		s = g.fit(s, w)
	}
	return s, s.Width()
}

// capWidth truncates results wider than the widest signal.
func (g *netgen) capWidth(s *hdl.Signal) *hdl.Signal {
	if s.Width() > g.maxW {
		return s.Trunc(g.maxW)
	}
	return s
}

func (g *netgen) add(s *hdl.Signal) { g.pool = append(g.pool, g.capWidth(s)) }

func (g *netgen) module(name string, top bool) *hdl.Module {
	saved := g.m
	savedPool := g.pool
	g.m, g.pool = hdl.NewModule(name), nil
	defer func() { g.m, g.pool = saved, savedPool }()

	m := g.m
	for i := range 1 + g.r.IntN(4) {
		g.add(m.Input(fmt.Sprintf("i%d", i), g.width()))
	}
	var regs []*hdl.Signal
	for i := range g.r.IntN(4) {
		w := g.width()
		var r *hdl.Signal
		if g.r.IntN(2) == 0 {
			r = m.Reg(fmt.Sprintf("r%d", i), w)
		} else {
			r = m.RegInit(fmt.Sprintf("r%d", i), g.value(w))
		}
		regs = append(regs, r)
		g.add(r)
	}
	var mems []*hdl.Mem
	for i := range g.r.IntN(3) {
		mems = append(mems, m.Mem(fmt.Sprintf("m%d", i), 1+g.r.IntN(5), g.width()))
	}
	if top {
		for range g.r.IntN(3) {
			g.instance()
		}
	}
	ops := 8 + g.r.IntN(24)
	for range ops {
		g.op(mems)
	}
	for _, r := range regs {
		next := g.fit(g.pick(), r.Width())
		switch g.r.IntN(6) {
		case 0, 1:
			r.Drive(next)
			r.Enable(g.fit(g.pick(), 1))
		case 2: // a load written as a multiplexer that holds r, which compiled Go turns into an enable
			hold := hdl.Mux(g.fit(g.pick(), 1), next, r)
			r.Drive(hold)
			if g.r.IntN(2) == 0 { // (and read elsewhere: it stays)
				g.add(hold)
			}
		default:
			r.Drive(next)
		}
	}
	for _, mem := range mems {
		ab, w := mem.AddrBits(), mem.Width()
		for range 1 + g.r.IntN(2) {
			mem.Write(g.fit(g.pick(), ab), g.fit(g.pick(), w), g.fit(g.pick(), 1))
		}
		g.add(mem.Read(g.fit(g.pick(), ab))) // every memory is read at least once
	}
	outs := 1 + g.r.IntN(4)
	for i := range outs {
		s := g.pool[len(g.pool)-1-i%len(g.pool)]
		if i > 0 {
			s = g.pick()
		}
		m.Output(fmt.Sprintf("o%d", i), s.Width()).Drive(s)
	}
	return m
}

// value draws a random w-bit constant.
func (g *netgen) value(w int) hdl.Bits {
	words := make([]uint64, (w+63)/64)
	randomWords(g.r, w, words)
	b, _ := hdl.FromWords(w, words) // randomWords keeps within w bits
	return b
}

// instance adds an instance of a fresh random sub-module.
func (g *netgen) instance() {
	name := fmt.Sprintf("%s_s%d", g.name, g.subs)
	g.subs++
	sub := g.module(name, false)
	u := g.m.Instance(fmt.Sprintf("u%d", g.subs-1), sub)
	for _, in := range sub.Inputs() {
		u.Connect(in.Name(), g.fit(g.pick(), in.Width()))
	}
	for _, out := range sub.Outputs() {
		g.add(u.Out(out.Name()))
	}
}

// op adds one random operation on earlier signals.
func (g *netgen) op(mems []*hdl.Mem) {
	r, m := g.r, g.m
	a := g.pick()
	w := a.Width()
	b := func() *hdl.Signal { return g.fit(g.pick(), w) }
	var s *hdl.Signal
	switch r.IntN(40) {
	case 0:
		s = a.Not()
	case 1:
		s = a.And(b())
	case 2:
		s = a.Or(b())
	case 3:
		s = a.Xor(b())
	case 4:
		s = a.RedAnd()
	case 5:
		s = a.RedOr()
	case 6:
		s = a.RedXor()
	case 7:
		s = a.Add(b())
	case 8:
		s = a.Sub(b())
	case 9:
		a, w = g.narrower(a, g.maxW-1) // (the carry's bit)
		sum, carry := a.AddCarry(b())
		g.add(carry)
		s = sum
	case 10:
		a, w = g.narrower(a, g.maxW-1)
		diff, borrow := a.SubBorrow(b())
		g.add(borrow)
		s = diff
	case 11:
		factor, bw := g.pick(), 1+r.IntN(min(70, g.maxW-1))
		a, _ = g.narrower(a, g.maxW-bw) // (the product's bits)
		s = a.Mul(g.fit(factor, bw))
	case 12:
		k := r.Uint64() >> uint(r.IntN(64))
		if g.narrow() {
			k >>= 64 - g.maxW/2
			a, _ = g.narrower(a, g.maxW/2)
		}
		s = a.MulConst(k)
	case 13:
		s = a.Shl(r.IntN(w + 2))
	case 14:
		s = a.Shr(r.IntN(w + 2))
	case 15:
		s = a.Sra(r.IntN(w + 2))
	case 16:
		s = a.ShlBy(g.fit(g.pick(), 1+r.IntN(9)))
	case 17:
		s = a.ShrBy(g.fit(g.pick(), 1+r.IntN(9)))
	case 18:
		s = a.SraBy(g.fit(g.pick(), 1+r.IntN(9)))
	case 19:
		s = a.Eq(b())
	case 20:
		s = a.Ne(b())
	case 21:
		s = a.Lt(b())
	case 22:
		s = a.Le(b())
	case 23:
		s = a.Gt(b())
	case 24:
		s = a.Ge(b())
	case 25:
		s = a.LtS(b())
	case 26:
		s = []func(*hdl.Signal) *hdl.Signal{a.LeS, a.GtS, a.GeS}[r.IntN(3)](b())
	case 27:
		s = a.EqConst(r.Uint64() & (1<<uint(min(w, 63)) - 1))
	case 28:
		s = hdl.Mux(g.fit(g.pick(), 1), a, b())
	case 29:
		n := 1 + r.IntN(5)
		choices := []*hdl.Signal{a}
		for len(choices) < n {
			choices = append(choices, b())
		}
		index := max(1, bits.Len(uint(n-1))) + r.IntN(2) // sometimes out-of-range values
		s = hdl.Select(g.fit(g.pick(), index), choices...)
	case 30:
		n := 1 + r.IntN(4)
		choices := []*hdl.Signal{a}
		for len(choices) < n {
			choices = append(choices, b())
		}
		s = hdl.OneHotSelect(g.fit(g.pick(), n), choices...)
	case 31:
		parts := []*hdl.Signal{a}
		for total := w; len(parts) < 1+r.IntN(3); {
			p := g.pick()
			if total+p.Width() > g.maxW {
				break
			}
			total += p.Width()
			parts = append(parts, p)
		}
		s = hdl.Concat(parts...)
	case 32:
		lo := r.IntN(w)
		s = a.Slice(lo+r.IntN(w-lo), lo)
	case 33:
		s = a.Bit(r.IntN(w))
	case 34:
		s = g.fit(a, 1+r.IntN(g.maxW))
	case 35:
		s = a.Repl(1 + r.IntN(max(1, g.maxW/w)))
	case 36:
		wire := m.Wire(fmt.Sprintf("w%d", len(g.pool)), w)
		wire.Drive(a)
		s = wire
	case 37:
		if len(mems) == 0 {
			s = a.Named(fmt.Sprintf("n%d", len(g.pool)))
			break
		}
		mem := mems[r.IntN(len(mems))]
		if r.IntN(2) == 0 {
			s = mem.Read(g.fit(a, mem.AddrBits()))
		} else {
			var en *hdl.Signal
			if r.IntN(2) == 0 {
				en = g.fit(g.pick(), 1)
			}
			s = mem.ReadSync(g.fit(a, mem.AddrBits()), en)
		}
	case 38:
		s = a.Add(m.Const(g.value(w)))
	default:
		s = a.Named(fmt.Sprintf("n%d", len(g.pool)))
	}
	g.add(s)
}

// PackNetlists puts RandomNetlist designs, one per seed, under one top
// module so a single Verilator build checks them all. Design i's ports
// appear as n<i>_<port>.
func PackNetlists(name string, seeds []uint64) *hdl.Module {
	return packNetlists(name, seeds, RandomNetlist)
}

// PackNarrowNetlists is PackNetlists of RandomNarrowNetlist designs.
func PackNarrowNetlists(name string, seeds []uint64) *hdl.Module {
	return packNetlists(name, seeds, RandomNarrowNetlist)
}

func packNetlists(name string, seeds []uint64, random func(string, uint64) *hdl.Module) *hdl.Module {
	designs := make([]*hdl.Module, len(seeds))
	for i, seed := range seeds {
		designs[i] = random(fmt.Sprintf("%s_n%d", name, i), seed)
	}
	return Pack(name, "n", designs)
}

// Pack instances every module under one top called name, instance i named
// <prefix><i>, with each instance's ports brought out as
// <prefix><i>_<port>. One Verilator build then checks them all. The
// modules (and their sub-modules) must have distinct names.
func Pack(name, prefix string, modules []*hdl.Module) *hdl.Module {
	top := hdl.NewModule(name)
	for i, sub := range modules {
		u := top.Instance(fmt.Sprintf("%s%d", prefix, i), sub)
		for _, in := range sub.Inputs() {
			u.Connect(in.Name(), top.Input(fmt.Sprintf("%s%d_%s", prefix, i, in.Name()), in.Width()))
		}
		for _, out := range sub.Outputs() {
			top.Output(fmt.Sprintf("%s%d_%s", prefix, i, out.Name()), out.Width()).Drive(u.Out(out.Name()))
		}
	}
	return top
}
