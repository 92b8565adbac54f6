package sim

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"strings"
	"sync"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"
)

// GoSource compiles the simulator's program to Go source: the same flat
// state and the same two-phase clock edge as Sim, but as straight-line
// statements with constant slot numbers, which the Go compiler turns into
// code an interpreter cannot match. Only the ports are visible, so it
// computes only what they and the registers need, and only when they need
// it: loads on enables, cones under their enable, crossbars as scatters
// (findCrossbars, loadEnables, sinkIntoEnables). verify builds it into a
// stand-alone simulator process ("go-compiled") and checks it in lockstep
// against Sim itself, Verilator and Icarus.
//
// The file declares, in package pkg:
//
//	var st [n]uint64                  // the state (one Design at a time; below)
//	type Design struct{ ... }         // shadow registers, memories
//	func NewDesign() *Design          // all state zero, constants loaded
//	func (d *Design) Eval()           // settle combinational logic
//	func (d *Design) Step()           // one rising clock edge (after Eval)
//	func (d *Design) Slot(name string) int // state index of a top-level port or rst, or -1
//	func (d *Design) Word(i int) uint64 / SetWord(i int, v uint64)
//
// The state is a package variable, not a field of Design, so that its
// address is a constant: the compiled code then needs no register for the
// state's pointer, which the Go compiler would spill and reload all
// through the eval functions. A program therefore simulates one Design at
// a time, as verify's simulator process does; NewDesign resets the state.
//
// Values wider than 64 bits take several consecutive words, as in Sim;
// their operations call the interpreter's own wide kernel (internal/kernel's wide.go and
// words.go, copied into the file).
func (s *Sim) GoSource(pkg string) ([]byte, error) {
	src, _, err := s.GoSourceSlots(pkg)
	return src, err
}

// GoSourceSlots is GoSource with the state index of each top-level port
// (and rst) in it, -1 for another name: compiled Go numbers its state
// words its own way (compactState), and a harness that writes the ports
// at fixed indices, as verify's does, takes them from here.
func (s *Sim) GoSourceSlots(pkg string) (src []byte, slot func(name string) int, err error) {
	var b bytes.Buffer
	g := newGosrc(s, &b)
	g.findCrossbars()
	g.loadEnables()
	g.dropUnread()
	g.decodeEnables()
	g.sinkIntoEnables()
	g.splitProperties()
	g.file(pkg)
	if g.hasPriorityCrossbar() { // (see compactState)
		src, err = format.Source(b.Bytes())
		return src, s.StateSlot, err
	}
	compact, at := s.compactState(b.Bytes())
	slot = func(name string) int {
		if i := s.StateSlot(name); i >= 0 {
			return at[i]
		}
		return -1
	}
	src, err = format.Source(compact)
	return src, slot, err
}

// newGosrc prepares the program of s for compiling into b: fused selects,
// depth-first order, comparisons known.
func newGosrc(s *Sim, b *bytes.Buffer) *gosrc {
	g := &gosrc{s: s, b: b, prog: slices.Clone(s.prog), regs: slices.Clone(s.regs)}
	for i := range g.prog {
		if in := &g.prog[i]; in.Op == kernel.OpWide { // its result's slot, for the scheduler
			in.Dst, _ = s.wideSlots(int(in.A))
		}
	}
	g.widths = map[int32]int{}
	for i, x := range s.slot { // (nodes that share a slot hold one value: it fits the narrowest)
		if w := s.nl.Nodes[i].Width; x >= 0 && (g.widths[x] == 0 || w < g.widths[x]) {
			g.widths[x] = w
		}
	}
	g.fuseSelects()
	g.schedule()
	readers := map[int32]int{}
	for i := range g.prog {
		for _, x := range g.operands(&g.prog[i]) {
			readers[x]++
		}
	}
	g.compared = map[int32]bool{}
	for _, in := range g.prog {
		if in.Op >= hdl.OpEq && in.Op <= hdl.OpGeS && readers[in.Dst] == 1 {
			g.compared[in.Dst] = true
		}
	}
	return g
}

type gosrc struct {
	s           *Sim
	b           *bytes.Buffer
	prog        []kernel.Instr        // Sim's program, wide operations with their result slot, in depth-first order (schedule)
	regs        []seqOp               // Sim's registers (loadEnables gives some an enable)
	selBits     map[int32][]int32     // a one-hot select's bits, LSB first, by its result slot (fuseSelects)
	inLocal     map[int32]bool        // results kept in Go locals
	compared    map[int32]bool        // results of comparisons that one instruction reads
	widths      map[int32]int         // the width of the value each node's slot holds (count)
	local       map[int32]bool        // locals defined so far in the current chunk
	tabled      map[int]int           // a wide operation's index in the compiled d.wide, unless inlined
	sunk        []sunkRun             // runs of the program computed only when an enable is on (sinkIntoEnables)
	crossbarAt  map[int32]*crossbar   // the crossbar computed at a one-hot multiplexer's place (findCrossbars)
	scattered   map[int32]bool        // results of one-hot multiplexers a crossbar computes
	chunkOf     []int                 // each instruction's eval function (eval)
	selecting   map[int32]bool        // comparisons whose only reader selects by them (the compiled streams' masks)
	laneMasks   map[int32]string      // the vec mask of such a comparison, written in place of its statement
	laneBits    int                   // the compiled streams' lane width (StreamLaneBits)
	shiftedLeft map[int32]bool        // the compiled streams' locals that hold a bare vec.ShlK (laneTaken)
	propsFrom   int                   // prog[propsFrom:] computes only the properties' conditions (splitProperties)
	decoders    []*decoder            // the decoded enables' tables (decodeEnables)
	decoderAt   map[int32]*decoder    // the table computed at a decoded enable's place
	decoded     map[int32]decodedLine // each decoded enable's bit
}

// sunkRun is a run of the program, prog[from:to], that only the next values
// of registers loading on enable slot en read.
type sunkRun struct {
	en       int32
	from, to int
}

func (g *gosrc) p(format string, args ...any) { fmt.Fprintf(g.b, format, args...) }

// Chunks bound the statements per eval function, which keeps the Go
// compiler fast on big designs and its register allocation good: a
// function of thousands of scalar statements holds as many locals and
// spills many, while values that cross functions go through the state
// array, so too small a chunk costs again. The compiled streams'
// statements are vector operations on eight or sixteen lanes, whose
// values cross functions as that many words: they keep bigger chunks.
const (
	scalarChunk = 600
	laneChunk   = 2000
)

func (g *gosrc) file(pkg string) {
	s := g.s
	g.p("// Code generated by parmem hdl from module %s; DO NOT EDIT.\n\n", s.nl.Top)
	g.p("package %s\n\nimport \"math/bits\"\n\n", pkg)
	g.p("var _ = bits.OnesCount64\n\n")
	g.p("// st is the design's state, a package variable rather than a field of\n")
	g.p("// Design: its address is then a constant, which frees the register the\n")
	g.p("// state's pointer held (sim.Sim.GoSource). A program simulates one Design\n")
	g.p("// at a time; NewDesign resets it.\n")
	g.p("var st [%d]uint64\n\n", max(1, len(s.kn.St)))
	for _, d := range g.decoders {
		g.p("// dec%d holds register enables decoded from one index (sim's decodeEnables).\nvar dec%d [%d]uint64\n\n", d.id, d.id, d.words)
	}
	g.p("// Design is module %s compiled to straight-line Go (sim.Sim.GoSource).\n", s.nl.Top)
	g.p("type Design struct {\n\tsh [%d]uint64\n", max(1, len(s.shadow)))
	for k, m := range s.kn.Mems {
		g.p("\tm%d [%d]%s\n", k, len(m), g.memElem(k))
	}
	g.p("\twide []WideOp // operations on values over 64 bits, on views of st\n}\n\n")

	g.p("// NewDesign returns the design with all state zero: the only one until the\n// next call (see st).\nfunc NewDesign() *Design {\n\td := &Design{}\n\tclear(st[:])\n")
	for i, v := range s.kn.St {
		if v != 0 {
			g.p("\tst[%d] = %#x\n", i, v)
		}
	}
	g.wideOps("st", false)
	g.p("\treturn d\n}\n\n")

	g.slotTable()
	g.p("// Word returns state word i.\nfunc (d *Design) Word(i int) uint64 { return st[i] }\n\n")
	g.p("// SetWord sets state word i (an input).\nfunc (d *Design) SetWord(i int, v uint64) { st[i] = v }\n\n")
	g.p("func sext(v uint64, w uint) uint64 { return uint64(int64(v<<(64-w)) >> (64 - w)) }\n\n")

	starts := g.eval(g.instr, scalarChunk, true, "")
	g.p("// Properties settles the properties' conditions after Eval, which leaves\n// what only they read (see sim's splitProperties).\nfunc (d *Design) Properties() {\n")
	for c, from := range starts {
		if from >= g.propsFrom {
			g.p("\td.eval%d()\n", c)
		}
	}
	g.p("}\n\n")
	g.step()
	g.p("\n// The interpreter's wide kernel (parmem's internal/kernel: wide.go, words.go).\n\n%s", wideKernel())
}

// eval writes Eval, which calls the functions eval0, eval1, ... that
// each settle about chunk instructions of the program (where cuts ends
// them), written by emit after prelude; a sunk run is one branch on its
// enable, never split.
// With even, the functions share the program evenly (the scalar code,
// where a short last function wastes the others' registers); the compiled
// streams keep full chunks.
func (g *gosrc) eval(emit func(*kernel.Instr), chunk int, even bool, prelude string) (starts []int) {
	if n := (len(g.prog) + chunk - 1) / chunk; even && n > 1 {
		chunk = (len(g.prog) + n - 1) / n
	}
	starts = g.cuts(chunk)
	g.chunkOf = make([]int, len(g.prog))
	for c, from := range starts {
		for i := from; i < len(g.prog) && (c+1 == len(starts) || i < starts[c+1]); i++ {
			g.chunkOf[i] = c
		}
	}
	g.p("// Eval settles the combinational logic.\nfunc (d *Design) Eval() {\n")
	for c, from := range starts {
		if from < g.propsFrom {
			g.p("\td.eval%d()\n", c)
		}
	}
	g.p("}\n\n")
	g.planLocals()
	runs := g.sunk
	for c, from := range starts {
		to := len(g.prog)
		if c+1 < len(starts) {
			to = starts[c+1]
		}
		g.p("func (d *Design) eval%d() {\n%s", c, prelude)
		g.local = map[int32]bool{}
		for i := from; i < to; i++ {
			if len(runs) > 0 && i == runs[0].from {
				g.p("\tif %s {\n", g.enabled(runs[0].en))
			}
			emit(&g.prog[i])
			if len(runs) > 0 && i+1 == runs[0].to {
				g.p("\t}\n")
				runs = runs[1:]
			}
		}
		g.p("}\n\n")
	}
	return starts
}

// cuts returns where each eval function starts: every chunk instructions
// or so, at the place within a quarter chunk either way across which the
// fewest of the function's results are read (each goes through the state
// array rather than a register), never inside a sunk run, and at
// propsFrom.
func (g *gosrc) cuts(chunk int) []int {
	external := g.readOutside()
	for _, r := range g.regs {
		external[r.d] = true
	}
	producer := map[int32]int{}
	lastRead := make([]int, len(g.prog))
	for i := range g.prog {
		lastRead[i] = -1
		for _, x := range g.operands(&g.prog[i]) {
			if j, ok := producer[x]; ok {
				lastRead[j] = i
			}
		}
		producer[g.prog[i].Dst] = i
	}
	allowed := make([]bool, len(g.prog)+1) // a function may start at i
	for i := range allowed {
		allowed[i] = true
	}
	for _, r := range g.sunk {
		for i := r.from + 1; i < r.to; i++ {
			allowed[i] = false
		}
	}
	slack := chunk / 4
	starts := []int{0}
	for start := 0; start < len(g.prog); {
		end := len(g.prog)
		if start < g.propsFrom {
			end = g.propsFrom
		}
		best, bestCrossing := end, -1
		if end-start > chunk {
			crossing, ending := 0, map[int]int{}
			for c := start + 1; c <= min(end-1, start+chunk+slack); c++ {
				j := c - 1 // prog[j] now lies before the cut
				if !external[g.prog[j].Dst] && lastRead[j] >= c {
					crossing++
					ending[lastRead[j]]++
				}
				crossing -= ending[c-1]
				delete(ending, c-1)
				if c < start+chunk-slack || !allowed[c] {
					continue
				}
				if bestCrossing < 0 || crossing < bestCrossing || crossing == bestCrossing && abs(c-start-chunk) < abs(best-start-chunk) {
					best, bestCrossing = c, crossing
				}
			}
			if bestCrossing < 0 { // the window lies in one sunk run: cut after it
				for best = min(end, start+chunk+slack); !allowed[best]; best++ {
				}
			}
		}
		if best < len(g.prog) {
			starts = append(starts, best)
		}
		start = best
	}
	return starts
}

func abs(x int) int { return max(x, -x) }

// wideOps writes NewDesign's table of wide operations: Sim's, with views
// of the compiled design's state array (named state) and memories; a
// multi-stream design (lanes) gives each lane's memory when it runs one.
func (g *gosrc) wideOps(state string, lanes bool) {
	s := g.s
	view := func(slot int32, width int) string {
		return fmt.Sprintf("%s[%d:%d]", state, slot, slot+int32(kernel.NWords(width)))
	}
	g.tabled = map[int]int{}
	for j, op := range s.kn.Wide {
		if g.inlinable(j) {
			continue
		}
		g.tabled[j] = len(g.tabled)
		dst, slots := s.wideSlots(j)
		var args []string
		for k, a := range slots {
			args = append(args, view(a, op.AW[k]))
		}
		mem := "nil"
		if op.Op == hdl.OpMemRead && !lanes {
			mem = fmt.Sprintf("d.m%d[:]", s.nl.Nodes[s.wideAt[j]].Mem)
		}
		g.p("\td.wide = append(d.wide, WideOp{Op: %d, Width: %d, N: %d, Dst: %s, Args: [][]uint64{%s}, AW: %#v, Mem: %s})\n",
			op.Op, op.Width, op.N, view(dst, op.Width), strings.Join(args, ", "), op.AW, mem)
	}
}

// wideKernel is the wide kernel's source for a compiled design: the kind
// type and its constants (op.go), WideOp (wide.go) and the word
// routines (words.go), without package clauses or imports (they need only
// math/bits, which the file imports). Made on first use, not when a
// program that imports hdl starts.
var wideKernel = sync.OnceValue(func() string {
	var b bytes.Buffer
	fset := token.NewFileSet()
	for _, name := range []string{"op.go", "wide.go", "words.go"} {
		src, err := kernel.Sources.ReadFile(name)
		if err != nil {
			panic(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			panic(err)
		}
		for _, decl := range f.Decls {
			gd, isGen := decl.(*ast.GenDecl)
			switch {
			case isGen && gd.Tok == token.IMPORT:
				continue
			case name == "op.go" && !(isGen && declaresKind(gd)):
				continue
			}
			printer.Fprint(&b, fset, decl)
			b.WriteString("\n\n")
		}
	}
	return b.String()
})

// declaresKind reports whether gd is op.go's Op type or its constants.
func declaresKind(gd *ast.GenDecl) bool {
	for _, spec := range gd.Specs {
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			if sp.Name.Name == "Op" {
				return true
			}
		case *ast.ValueSpec:
			if sp.Names[0].Name == "OpInvalid" {
				return true
			}
		}
	}
	return false
}

// schedule orders the program depth first from its results: each
// instruction right after the instructions that compute its operands, so
// a value is computed close to where it is read and few are alive at once
// (Sim's order, Kahn's level by level, keeps hundreds alive, which the Go
// compiler spills). Both orders are topological: the results are equal.
func (g *gosrc) schedule() {
	prog := g.prog
	producer := map[int32]int{}
	read := make([]bool, len(prog))
	for i := range prog {
		producer[prog[i].Dst] = i
	}
	for i := range prog {
		for _, x := range g.operands(&prog[i]) {
			if j, ok := producer[x]; ok {
				read[j] = true
			}
		}
	}
	done := make([]bool, len(prog))
	g.prog = make([]kernel.Instr, 0, len(prog))
	var visit func(i int)
	visit = func(i int) {
		done[i] = true
		for _, x := range g.operands(&prog[i]) {
			if j, ok := producer[x]; ok && !done[j] {
				visit(j)
			}
		}
		g.prog = append(g.prog, prog[i])
	}
	for i := range prog { // from the results no instruction reads
		if !read[i] && !done[i] {
			visit(i)
		}
	}
}

// fuseSelects finds the one-hot multiplexers whose select is a
// concatenation of single bits (a bus of per-choice conditions, as
// hdl/lib's Bus makes): they read the bits themselves rather than pack
// them into a word and shift each back out. The OR or AND reduction of
// such a bus (whether any or every condition holds) reads the bits too:
// b1 | b2 | ... rather than (b1<<k | b2<<(k-1) | ...) != 0.
func (g *gosrc) fuseSelects() {
	kn := g.s.kn
	concat := map[int32]*kernel.Instr{}
	for i := range g.s.prog {
		if in := &g.s.prog[i]; in.Op == hdl.OpConcat {
			concat[in.Dst] = in
		}
	}
	g.selBits = map[int32][]int32{}
	for i := range g.s.prog {
		in := &g.s.prog[i]
		c, ok := concat[in.A]
		switch {
		case !ok:
			continue
		case in.Op == hdl.OpOneHot && c.K == in.K:
		case in.Op == hdl.OpRedOr:
		case in.Op == hdl.OpRedAnd && in.Mask == kernel.MaskOf(int(c.K)): // (not of a Zext of the bits, whose zeros it ANDs too)
		default:
			continue
		}
		bits := make([]int32, 0, c.K)
		for j := c.B + int32(c.K) - 1; j >= c.B; j-- { // Concat lists the MSB first
			if kn.Argw[j] != 1 {
				bits = nil
				break
			}
			bits = append(bits, kn.Argv[j])
		}
		if bits != nil {
			g.selBits[in.Dst] = bits
		}
	}
}

// operands lists the state slots an instruction reads.
func (g *gosrc) operands(in *kernel.Instr) []int32 {
	if cb := g.crossbarAt[in.Dst]; cb != nil {
		return cb.operands()
	}
	if d := g.decoderAt[in.Dst]; d != nil {
		return d.operands()
	}
	if _, decoded := g.decoded[in.Dst]; g.scattered[in.Dst] || decoded {
		return nil
	}
	bits, fused := g.selBits[in.Dst]
	switch {
	case fused && in.Op != hdl.OpOneHot: // a reduction
		return bits
	case fused:
		return append(slices.Clone(bits), g.oneHotChoices(in)...)
	case in.Op == hdl.OpOneHot:
		return append([]int32{in.A}, g.oneHotChoices(in)...)
	}
	return g.s.operandsOf(in)
}

// oneHotChoices are the choices one-hot select in may pass on: all but
// those whose select bit is a constant zero, which its statement leaves
// out (a local that nothing else reads would then be unused).
func (g *gosrc) oneHotChoices(in *kernel.Instr) []int32 {
	bits, fused := g.selBits[in.Dst]
	var xs []int32
	for j := range int32(in.K) {
		zero := fused && g.isZero(bits[j]) || !fused && g.s.konst[in.A] && g.s.kn.St[in.A]>>j&1 == 0
		if !zero {
			xs = append(xs, g.s.kn.Argv[in.B+j])
		}
	}
	return xs
}

// planLocals decides which results can live in Go local variables: those
// read only by later statements of the same eval function. Everything else
// (read by another function, by Step, by the harness, or by nobody, such as
// a named signal) is stored in the state array.
func (g *gosrc) planLocals() {
	readers := map[int32]map[int]bool{}
	for i := range g.prog {
		for _, x := range g.operands(&g.prog[i]) {
			if readers[x] == nil {
				readers[x] = map[int]bool{}
			}
			readers[x][g.chunkOf[i]] = true
		}
	}
	external := g.readOutside()
	for _, r := range g.regs {
		external[r.d] = true
	}
	g.inLocal = map[int32]bool{}
	for i := range g.prog {
		d := g.prog[i].Dst
		if rs := readers[d]; !external[d] && len(rs) == 1 && rs[g.chunkOf[i]] {
			g.inLocal[d] = true
		}
	}
}

// readOutside lists the slots read other than by a narrow instruction or a
// register's next value: reset, enables, memory ports, the ports (what
// Slot, Word and SetWord reach), the wide kernel's operands and results
// (it works on views of the state), and the crossbars' results (computed at
// their first multiplexer's place, read at the others').
func (g *gosrc) readOutside() map[int32]bool {
	external := g.roots(true)
	for i := range g.prog {
		if in := &g.prog[i]; in.Op == kernel.OpWide {
			external[in.Dst] = true
			for _, x := range g.operands(in) {
				external[x] = true
			}
		}
	}
	return external
}

// roots lists the slots read other than by an instruction or a register's
// next value: the registers' enables and portReads.
func (g *gosrc) roots(props bool) map[int32]bool {
	external := g.portReads(props)
	for _, r := range g.regs {
		external[r.en] = true
	}
	return external
}

// portReads lists the slots read other than by an instruction or a
// register: reset, memory ports, the ports, with props the properties'
// conditions, and the crossbars' results.
func (g *gosrc) portReads(props bool) map[int32]bool {
	s := g.s
	external := map[int32]bool{s.rst: true}
	for _, r := range s.syncs {
		external[r.d], external[r.en] = true, true
	}
	for _, w := range s.writes {
		external[w.addr], external[w.data], external[w.en] = true, true, true
		if w.mask >= 0 {
			external[w.mask] = true
		}
	}
	for n, slot := range s.byName {
		if s.isPort(n) || props && s.propWires[n] {
			external[slot] = true
		}
	}
	for x := range g.scattered {
		external[x] = true
	}
	return external
}

// live marks the instructions whose results the slots in read (which it
// fills) or the registers' next values need, directly or through other
// instructions.
func (g *gosrc) live(read map[int32]bool) []bool {
	for _, r := range g.regs {
		for j := range r.words {
			read[r.d+j] = true
		}
	}
	keep := make([]bool, len(g.prog))
	for i := len(g.prog) - 1; i >= 0; i-- { // readers before what they read
		in := &g.prog[i]
		if keep[i] = read[in.Dst]; keep[i] {
			for _, x := range g.operands(in) {
				read[x] = true
			}
		}
	}
	return keep
}

// dropProperties removes the instructions only the properties read (hdl's
// Assert, Assume and Cover: their conditions, and what only those read),
// for a program that never checks them (the compiled streams).
func (g *gosrc) dropProperties() {
	g.keep(g.live(g.roots(false)))
	g.propsFrom = len(g.prog)
}

// splitProperties moves the instructions only the properties read to the
// end of the program, where Properties computes them: the harness calls it
// only on the cycles it checks the properties, so a benchmark skips them,
// as Verilator's build without properties removes them as dead logic.
// They read no sunk run (sinkIntoEnables counted them as read on every
// cycle), which keep their instructions with their places shifted.
func (g *gosrc) splitProperties() {
	needed := g.live(g.roots(false))
	before := make([]int, len(g.prog)+1) // property instructions before each place
	var kept, props []kernel.Instr
	for i, in := range g.prog {
		before[i+1] = before[i]
		if !needed[i] {
			props = append(props, in)
			before[i+1]++
		} else {
			kept = append(kept, in)
		}
	}
	for k := range g.sunk {
		r := &g.sunk[k]
		r.from, r.to = r.from-before[r.from], r.to-before[r.to]
	}
	g.propsFrom = len(kept)
	g.prog = append(kept, props...)
}

// loadEnables turns each register that holds its value unless a select
// picks a new one, r <= s ? x : r (a load written as a multiplexer), into
// a register that loads x on enable s, as Verilator does (dropUnread then
// removes the multiplexer if nothing else reads it). sinkIntoEnables then
// computes x only on the cycles s is on.
func (g *gosrc) loadEnables() {
	producer := map[int32]*kernel.Instr{}
	for i := range g.prog {
		producer[g.prog[i].Dst] = &g.prog[i]
	}
	for k := range g.regs {
		r := &g.regs[k]
		if mux := producer[r.d]; mux != nil && r.en < 0 && r.words == 1 && mux.Op == hdl.OpMux && mux.C == r.slot {
			r.en, r.d = mux.A, mux.B
		}
	}
}

// dropUnread removes the instructions nothing reads: what only the
// crossbars' select bits or the multiplexers loadEnables replaced read,
// and internal names (compiled Go shows only the ports).
func (g *gosrc) dropUnread() {
	g.keep(g.live(g.readOutside()))
}

// keep removes the instructions not marked in live.
func (g *gosrc) keep(live []bool) {
	prog := g.prog[:0]
	for i, in := range g.prog {
		if live[i] {
			prog = append(prog, in)
		}
	}
	g.prog = prog
}

// sinkIntoEnables moves into a branch on a register enable every
// instruction whose result only the next values of registers loading on
// that enable read, directly or through other such instructions, as
// Verilator computes `if (en) r <= f(x)`: the cone runs only on the
// cycles the registers load. The moved instructions go to the end of the
// program, one run per enable in their order (they read only values
// computed before them or in their run, and no other instruction reads
// them); Step reads the next values only when the enable is on.
func (g *gosrc) sinkIntoEnables() {
	const always = -1         // a slot read on every cycle (as a register's enable -1)
	need := map[int32]int32{} // each slot's readers' common enable, or always
	read := func(x, en int32) {
		if e, ok := need[x]; ok && e != en {
			en = always
		}
		need[x] = en
	}
	for x := range g.readOutside() {
		need[x] = always
	}
	for _, r := range g.regs {
		en := r.en
		if _, decoded := g.decoded[en]; g.laneBits != 0 && !decoded {
			en = always // (the compiled streams branch only on a decoded enable's line)
		}
		for j := range r.words {
			read(r.d+j, en)
		}
	}
	sunk := make([]int32, len(g.prog))
	for i := len(g.prog) - 1; i >= 0; i-- { // readers before the instructions they read
		in := &g.prog[i]
		sunk[i] = always
		if e, ok := need[in.Dst]; ok {
			sunk[i] = e
		}
		for _, x := range g.operands(in) {
			read(x, sunk[i])
		}
	}
	var kept []kernel.Instr
	byEnable := map[int32][]kernel.Instr{}
	var enables []int32
	for i, in := range g.prog {
		if e := sunk[i]; e == always {
			kept = append(kept, in)
		} else {
			if byEnable[e] == nil {
				enables = append(enables, e)
			}
			byEnable[e] = append(byEnable[e], in)
		}
	}
	g.prog = kept
	for _, e := range enables {
		g.sunk = append(g.sunk, sunkRun{en: e, from: len(g.prog), to: len(g.prog) + len(byEnable[e])})
		g.prog = append(g.prog, byEnable[e]...)
	}
}

// ref is how a statement reads slot x: a constant as a literal (Sim
// folds operations on constants only, so no expression is constant as a
// whole), a local by name, else the state array.
func (g *gosrc) ref(x int32) string {
	if int(x) < len(g.s.konst) && g.s.konst[x] { // (instr reads b and c of every kind)
		return fmt.Sprintf("uint64(%#x)", g.s.kn.St[x])
	}
	if g.local[x] {
		return fmt.Sprintf("v%d", x)
	}
	return fmt.Sprintf("st[%d]", x)
}

// instr writes the statement for one narrow instruction, the counterpart
// of its case in kernel.exec.
func (g *gosrc) instr(in *kernel.Instr) {
	if cb := g.crossbarAt[in.Dst]; cb != nil {
		g.scatter(cb)
		return
	}
	if g.scattered[in.Dst] { // (its crossbar computed it)
		return
	}
	if d := g.decoderAt[in.Dst]; d != nil {
		g.decode(d)
		return
	}
	if _, ok := g.decoded[in.Dst]; ok { // (its decoder's table holds it)
		return
	}
	a, b, c, k, m := g.ref(in.A), g.ref(in.B), g.ref(in.C), in.K, in.Mask
	aw := uint(in.AW)
	argv, argw := g.s.kn.Argv, g.s.kn.Argw
	var e string
	switch in.Op {
	case kernel.OpWide:
		if g.inlinable(int(in.A)) {
			g.inlineWide(int(in.A), scalarWords)
		} else {
			g.p("\td.wide[%d].Eval()\n", g.tabled[int(in.A)])
		}
		return
	case hdl.OpNot:
		if m == 0xffffffff { // amd64's 32-bit NOT clears the upper half (see arith)
			e = fmt.Sprintf("uint64(^uint32(%s))", a)
		} else { // a has no bits outside m: one XOR
			e = fmt.Sprintf("%s ^ %#x", a, m)
		}
	case hdl.OpAnd:
		e = fmt.Sprintf("%s & %s", a, b)
	case hdl.OpOr:
		e = fmt.Sprintf("%s | %s", a, b)
	case hdl.OpXor:
		e = fmt.Sprintf("%s ^ %s", a, b)
	case hdl.OpRedAnd, hdl.OpRedOr:
		if bits, fused := g.selBits[in.Dst]; fused {
			identity := map[hdl.Op]uint64{hdl.OpRedAnd: 1, hdl.OpRedOr: 0}[in.Op] // (a constant bit that leaves the rest)
			var refs []string
			for _, x := range bits {
				if !g.s.konst[x] || g.s.kn.St[x] != identity {
					refs = append(refs, g.ref(x))
				}
			}
			e = strings.Join(refs, map[hdl.Op]string{hdl.OpRedAnd: " & ", hdl.OpRedOr: " | "}[in.Op])
			if len(refs) == 0 {
				e = fmt.Sprintf("uint64(%d)", identity) // (typed, as scalarOr's 0)
			}
		} else if aw == 1 {
			e = a
		} else if in.Op == hdl.OpRedAnd {
			e = fmt.Sprintf("FromBool(%s == %#x)", a, m)
		} else {
			e = fmt.Sprintf("FromBool(%s != 0)", a)
		}
	case hdl.OpRedXor:
		e = fmt.Sprintf("uint64(bits.OnesCount64(%s) & 1)", a)
	case hdl.OpAdd:
		e = arith(a, " + ", b, m)
	case hdl.OpSub:
		e = arith(a, " - ", b, m)
	case hdl.OpMul:
		e = arith(a, " * ", b, m)
	case hdl.OpShlK:
		e = arith(a, " << ", fmt.Sprint(k), m) // (a constant count)
	case hdl.OpShrK:
		e = fmt.Sprintf("%s >> %d", a, k)
	case hdl.OpSraK:
		e = masked(fmt.Sprintf("uint64(int64(sext(%s, %d))>>%d)", a, aw, k), m)
	case hdl.OpShl: // Go shifts of 64 or more give 0, and the mask clears the rest
		e = arith(a, " << ", g.count(b, in.B, map[bool]int{true: 5, false: 6}[m == 0xffffffff]), m)
	case hdl.OpShr:
		e = fmt.Sprintf("%s >> %s", a, g.count(b, in.B, 6))
	case hdl.OpSra:
		e = masked(fmt.Sprintf("uint64(int64(sext(%s, %d))>>min(%s, %d))", a, aw, b, aw-1), m)
	case hdl.OpEq, hdl.OpNe, hdl.OpLt, hdl.OpLe, hdl.OpGt, hdl.OpGe:
		op := map[hdl.Op]string{hdl.OpEq: "==", hdl.OpNe: "!=", hdl.OpLt: "<", hdl.OpLe: "<=", hdl.OpGt: ">", hdl.OpGe: ">="}[in.Op]
		e = fmt.Sprintf("FromBool(%s %s %s)", a, op, b)
	case hdl.OpLtS, hdl.OpLeS, hdl.OpGtS, hdl.OpGeS:
		op := map[hdl.Op]string{hdl.OpLtS: "<", hdl.OpLeS: "<=", hdl.OpGtS: ">", hdl.OpGeS: ">="}[in.Op]
		sign := uint64(1) << (aw - 1)
		e = fmt.Sprintf("FromBool(%s^%#x %s %s^%#x)", a, sign, op, b, sign)
	case hdl.OpMux:
		if !g.compared[in.A] { // branch-free: the select is data, 0 or 1
			e = fmt.Sprintf("%s ^ (%s^%s)&-%s", c, b, c, a)
			break
		}
		// A comparison's result that only this multiplexer reads: the
		// compiler fuses the two into a compare and a conditional move.
		// (When several multiplexers read one comparison, as the two
		// halves of a compare-exchange, it merges their ifs into one
		// branch on data instead, which mispredicts, as in rsdmm's
		// sorting network.)
		if !g.inLocal[in.Dst] { // into the state through a temporary: two stores around a branch would mispredict on data
			g.p("\t{\n\t\tt := %s\n\t\tif %s != 0 {\n\t\t\tt = %s\n\t\t}\n\t\tst[%d] = t\n\t}\n", c, a, b, in.Dst)
			return
		}
		dst := g.define(in.Dst, "var %s uint64\n")
		g.p("\t%s = %s\n\tif %s != 0 {\n\t\t%s = %s\n\t}\n", dst, c, a, dst, b)
		return
	case hdl.OpSelect:
		var choices []string
		for j := range int32(k) {
			choices = append(choices, g.ref(argv[in.B+j]))
		}
		if n := 1 << aw; aw <= 6 && g.stateRun(argv[in.B:in.B+int32(k)], n) { // choices in a row of the state
			e = fmt.Sprintf("st[%d:%d][%s&%#x]", argv[in.B], argv[in.B]+int32(n), a, n-1)
			break
		}
		if aw == 1 && len(choices) == 2 { // branch-free, as a multiplexer (a table of two costs two stores and a load)
			e = fmt.Sprintf("%s ^ (%s^%s)&-%s", choices[0], choices[0], choices[1], a)
			break
		}
		if n := 1 << aw; aw <= 6 { // a load from a table of every index (a switch on data mispredicts)
			table := slices.Clone(choices[:min(n, len(choices))]) // (choices past n are unreachable)
			for len(table) < n {                                  // and indices past the choices give 0
				table = append(table, "0")
			}
			e = fmt.Sprintf("[%d]uint64{%s}[%s&%#x]", n, strings.Join(table, ", "), a, n-1)
			break
		}
		dst := g.define(in.Dst, "var %s uint64\n")
		g.p("\tswitch %s {\n", a)
		for j, c := range choices {
			g.p("\tcase %d:\n\t\t%s = %s\n", j, dst, c)
		}
		g.p("\tdefault:\n\t\t%s = 0\n\t}\n", dst)
		return
	case hdl.OpOneHot:
		var terms []string
		bits, fused := g.selBits[in.Dst]
		all := "-" // a select bit as a mask of the choice's bits; a choice of one bit needs the bit alone
		if m == 1 {
			all = ""
		}
		for j := range int32(k) {
			choice := g.ref(argv[in.B+j])
			switch {
			case !fused && g.s.konst[in.A]: // a constant select: the choices its bits set (-(c>>j&1) would overflow)
				if g.s.kn.St[in.A]>>j&1 != 0 {
					terms = append(terms, choice)
				}
			case !fused && m == 1: // (the choice's bit ANDs away the select's others)
				terms = append(terms, fmt.Sprintf("%s&(%s>>%d)", choice, a, j))
			case !fused:
				terms = append(terms, fmt.Sprintf("%s&-(%s>>%d&1)", choice, a, j))
			case g.isZero(bits[j]):
			case g.s.konst[bits[j]]:
				terms = append(terms, choice)
			default:
				terms = append(terms, fmt.Sprintf("%s&%s%s", choice, all, g.ref(bits[j]))) // (a bit is 0 or 1)
			}
		}
		e = scalarOr(terms)
	case hdl.OpConcat:
		e = "0"
		for j := in.B; j < in.B+int32(k); j++ {
			e = fmt.Sprintf("(%s)<<%d | %s", e, argw[j], g.ref(argv[j]))
		}
	case hdl.OpSlice:
		e = masked(shifted(a, ">>", int(k)), m)
	case hdl.OpRepl: // a fits its aw bits, so the copies' sum has no carries
		if aw == 1 {
			e = masked("-"+a, m)
		} else {
			e = fmt.Sprintf("%s * %#x", a, replPattern(aw, k))
		}
	case hdl.OpZext:
		e = a
	case hdl.OpSext:
		e = masked(fmt.Sprintf("sext(%s, %d)", a, aw), m)
	case hdl.OpMemRead:
		e = g.fromMem(int(in.B), fmt.Sprintf("d.m%d[%s&%#x]", in.B, a, len(g.s.kn.Mems[in.B])-1))
	}
	g.p(g.define(in.Dst, "%s := ")+"%s\n", e)
}

// isZero reports whether slot x is the constant 0.
func (g *gosrc) isZero(x int32) bool { return g.s.konst[x] && g.s.kn.St[x] == 0 }

// stateRun reports whether at least n slots start xs and are consecutive
// words of the state array (not constants, not locals): an indexed
// multiplexer over them reads the state directly.
func (g *gosrc) stateRun(xs []int32, n int) bool {
	if len(xs) < n {
		return false
	}
	for j, x := range xs[:n] {
		if x != xs[0]+int32(j) || g.s.konst[x] || g.local[x] {
			return false
		}
	}
	return true
}

// scalarOr is the OR of terms, of uint64 operands, left to right (a
// balanced tree, as the vector code uses, is slower in scalar code).
func scalarOr(terms []string) string {
	if len(terms) == 0 {
		return "uint64(0)" // (typed: a local defined as 0 would be an int)
	}
	return strings.Join(terms, " | ")
}

// replPattern is a one at the low bit of each of k copies of an aw-bit
// value: the value times it is Repl's result.
func replPattern(aw uint, k uint32) uint64 {
	var p uint64
	for j := range uint(k) {
		p |= 1 << (j * aw)
	}
	return p
}

// masked is expr (of uint64 operands) cut to the bits of mask: a
// conversion through uint8, uint16 or uint32 when the mask is one of
// those, which the compiler does in the operation itself (32-bit
// arithmetic, zero-extending moves), else an AND.
func masked(expr string, mask uint64) string {
	switch mask {
	case 0xff:
		return "uint64(uint8(" + expr + "))"
	case 0xffff:
		return "uint64(uint16(" + expr + "))"
	case 0xffffffff:
		return "uint64(uint32(" + expr + "))"
	}
	return fmt.Sprintf("(%s) & %#x", expr, mask)
}

// arith is the expression a op b with mask m on the result, for the
// operations whose result bits come only from operand bits at or below
// them (add, subtract, multiply, shift left by b). A 32-bit result is
// computed by the 32-bit operation: its truncation is then free, as
// amd64's 32-bit operations clear the upper half, where masking a 64-bit
// result costs an instruction. A shift count stays as it is: a count of
// 2^32 or more gives 0 either way.
func arith(a, op, b string, m uint64) string {
	if m != 0xffffffff {
		return masked(a+op+b, m)
	}
	if op != " << " {
		b = "uint32(" + b + ")"
	}
	return "uint64(uint32(" + a + ")" + op + b + ")"
}

// count is shift count b, of slot x, for a shift of a word of 1<<bits
// bits: ANDed with the word's width less one where x's value is narrower
// than bits bits, so that it stays below the width, and Go tests nothing
// before the shift (a count the width or more gives 0 in Go, which costs a
// compare and a conditional clear).
func (g *gosrc) count(b string, x int32, bits int) string {
	if g.widths[x] == 0 || g.widths[x] > bits {
		return b
	}
	return fmt.Sprintf("(%s & %d)", b, 1<<bits-1)
}

// define returns how a statement writes slot x: a new local (declared with
// the decl pattern, which it prints when it is a separate statement) or the
// state array.
func (g *gosrc) define(x int32, decl string) string {
	if !g.inLocal[x] {
		if strings.HasSuffix(decl, "\n") {
			return fmt.Sprintf("st[%d]", x)
		}
		return fmt.Sprintf("\tst[%d] = ", x)
	}
	g.local[x] = true
	name := fmt.Sprintf("v%d", x)
	if strings.HasSuffix(decl, "\n") {
		g.p("\t"+decl, name)
		return name
	}
	return "\t" + fmt.Sprintf(decl, name)
}

// step writes the clock edge, with Sim.Step's result: the memory ports
// first (synchronous reads into the shadow, then the writes), which read
// the state but no next value; then the registers in regOrder: those in a
// cycle of registers reading registers into the shadow, the others
// straight into the state, each after every register that reads it; then
// the commit of the shadow.
func (g *gosrc) step() {
	s := g.s
	g.p("// Step applies one rising clock edge; call Eval first.\nfunc (d *Design) Step() {\n\tsh := &d.sh\n\t_ = sh\n")
	g.memPorts(scalarWords)
	if s.rst >= 0 {
		g.p("\treset := st[%d] != 0\n", s.rst)
	} else {
		g.p("\treset := false\n")
	}
	order, shadowed := g.regOrder()
	next := func(r seqOp, j int32) string { // where register r's word j goes
		if shadowed[r.slot] {
			return fmt.Sprintf("sh[%d]", r.shadow+j)
		}
		return fmt.Sprintf("st[%d]", r.slot+j)
	}
	// One branch on reset for all registers, and one on each enable for
	// every run of registers in order that share it: enables are mostly
	// off for many cycles, which the branch predicts (selecting with -en
	// on every register instead, branch-free, is slower where enables
	// stay off, as in vmshr and the elastic pipeline).
	g.p("\tif reset {\n")
	for _, r := range order {
		for j := range r.words {
			g.p("\t\t%s = %#x\n", next(r, j), r.reset[j])
		}
	}
	g.p("\t} else {\n")
	load := func(run []seqOp, indent string) {
		for _, r := range run {
			for j := range r.words {
				g.p("%s%s = st[%d]\n", indent, next(r, j), r.d+j)
			}
		}
	}
	for rest := order; len(rest) > 0; {
		en, n := rest[0].en, 1 // the run of registers sharing rest[0]'s enable
		for en >= 0 && n < len(rest) && rest[n].en == en {
			n++
		}
		run := rest[:n]
		rest = rest[n:]
		if en < 0 {
			load(run, "\t\t")
			continue
		}
		for _, r := range run { // a shadowed register keeps its value through the shadow
			for j := range r.words {
				if shadowed[r.slot] {
					g.p("\t\t%s = st[%d]\n", next(r, j), r.slot+j)
				}
			}
		}
		g.p("\t\tif %s {\n", g.enabled(en))
		load(run, "\t\t\t")
		g.p("\t\t}\n")
	}
	g.p("\t}\n")
	g.commit(order, shadowed, "\tst[%d] = sh[%d]\n")
	g.p("}\n")
}

// commit writes the end of a clock edge: each word of the registers that
// went through the shadow (of order, by shadowed) and of the synchronous
// reads moves from the shadow into the state, by a statement of format
// (its state index, then its shadow index).
func (g *gosrc) commit(order []seqOp, shadowed map[int32]bool, format string) {
	var moved []seqOp
	for _, r := range order {
		if shadowed[r.slot] {
			moved = append(moved, r)
		}
	}
	for _, r := range append(moved, g.s.syncs...) {
		for j := range r.words {
			g.p(format, r.slot+j, r.shadow+j)
		}
	}
}

// regOrder orders the registers for the clock edge and says which go
// through the shadow (by slot): those of a cycle of registers whose next
// values read each other's outputs (two that swap, say), first; then the
// others, which the edge can store straight into the state, each after
// every register whose next value reads it (Kahn's order on the read-by
// relation), so that every next value reads the values from before the
// edge.
func (g *gosrc) regOrder() (order []seqOp, shadowed map[int32]bool) {
	regs := g.regs
	owner := map[int32]int{} // register of each state word of a register
	for i, r := range regs {
		for j := range r.words {
			owner[r.slot+j] = i
		}
	}
	readers := make([]int, len(regs)) // other registers whose next values read register i, not yet ordered
	reads := make([][]int, len(regs)) // the registers each register's next value reads
	for i, r := range regs {
		seen := map[int]bool{}
		words := []int32{r.en}
		for j := range r.words {
			words = append(words, r.d+j)
		}
		for _, x := range words {
			if o, ok := owner[x]; ok && o != i && !seen[o] {
				seen[o] = true
				reads[i] = append(reads[i], o)
				readers[o]++
			}
		}
	}
	var ready, direct []int
	for i := range regs {
		if readers[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		i := ready[0]
		ready = ready[1:]
		direct = append(direct, i)
		for _, o := range reads[i] {
			if readers[o]--; readers[o] == 0 {
				ready = append(ready, o)
			}
		}
	}
	shadowed = map[int32]bool{}
	for i, r := range regs {
		if readers[i] > 0 {
			shadowed[r.slot] = true
			order = append(order, r)
		}
	}
	for _, i := range direct {
		order = append(order, regs[i])
	}
	return order, shadowed
}

// edgeWords names the state words the clock edge's memory code reads and
// writes: word x of the state and of the shadow registers, and memory k.
type edgeWords struct {
	st, sh func(x int32) string
	mem    func(k int) string
}

// scalarWords are the single-stream design's.
var scalarWords = edgeWords{
	st:  func(x int32) string { return fmt.Sprintf("st[%d]", x) },
	sh:  func(x int32) string { return fmt.Sprintf("sh[%d]", x) },
	mem: func(k int) string { return fmt.Sprintf("d.m%d", k) },
}

// memPorts writes the clock edge's synchronous reads (into the shadow) and
// memory writes, as Sim.Step, with the words of w.
func (g *gosrc) memPorts(w edgeWords) {
	for i := range g.s.syncs {
		g.syncRead(w, &g.s.syncs[i])
	}
	for i := range g.s.writes {
		g.memWrite(w, &g.s.writes[i])
	}
}

// entry is the first word of a memory's entry at the address in state word
// addr: a memory of n words per entry keeps entry a at words a*n ..
// a*n+n-1, and its depth is a power of two, so the address is masked, not
// checked.
func (g *gosrc) entry(w edgeWords, mem int, n int32, addr int32) string {
	entries := len(g.s.kn.Mems[mem]) / int(n)
	if n == 1 {
		return fmt.Sprintf("%s&%#x", w.st(addr), entries-1)
	}
	return fmt.Sprintf("(%s&%#x)*%d", w.st(addr), entries-1, n)
}

// syncRead writes synchronous read r's next value into the shadow.
func (g *gosrc) syncRead(w edgeWords, r *seqOp) {
	k := r.memi
	e := g.entry(w, k, r.words, r.d)
	for j := range r.words {
		read := g.fromMem(k, fmt.Sprintf("%s[%s+%d]", w.mem(k), e, j))
		q, next := w.st(r.slot+j), w.sh(r.shadow+j)
		if r.en >= 0 {
			g.p("\t%s = %s ^ (%s^%s)&-%s\n", next, q, read, q, w.st(r.en))
		} else {
			g.p("\t%s = %s\n", next, read)
		}
	}
}

// memWrite writes memory write port wr.
func (g *gosrc) memWrite(w edgeWords, wr *writeOp) {
	k := wr.memi
	cond := fmt.Sprintf("%s != 0", w.st(wr.en))
	if g.checksDepth(wr) {
		cond += fmt.Sprintf(" && %s < %d", w.st(wr.addr), wr.depth)
	}
	g.p("\tif %s {\n\t\te := %s\n", cond, g.entry(w, k, wr.words, wr.addr))
	for j := range wr.words {
		word := fmt.Sprintf("%s[e+%d]", w.mem(k), j)
		if wr.mask < 0 {
			g.p("\t\t%s = %s\n", word, g.toMem(k, w.st(wr.data+j)))
			continue
		}
		g.p("\t\tm%d := uint64(0)\n", j)
		for l, lm := range wr.lanes {
			if lm[j] != 0 {
				g.p("\t\tif %s>>%d&1 != 0 {\n\t\t\tm%d |= %#x\n\t\t}\n", w.st(wr.mask+int32(l/64)), l%64, j, lm[j])
			}
		}
		g.p("\t\t%s = %s\n", word, g.toMem(k, fmt.Sprintf("%s&^m%d | %s&m%d", g.fromMem(k, word), j, w.st(wr.data+j), j)))
	}
	g.p("\t}\n")
}

// memElem is the Go type of memory k's words: the narrowest unsigned
// integer that holds a one-word entry, which keeps big memories in cache
// (a wide entry's words are uint64).
func (g *gosrc) memElem(k int) string { return fmt.Sprintf("uint%d", g.memElemBits(k)) }

// memElemBits is the width of memElem's type.
func (g *gosrc) memElemBits(k int) int {
	w := g.s.nl.Mems[k].Width
	for _, bits := range []int{8, 16, 32} {
		if w <= bits {
			return bits
		}
	}
	return 64
}

// fromMem is a word read from memory k (expr) as a uint64; toMem is a
// uint64 (expr) as a word of memory k.
func (g *gosrc) fromMem(k int, expr string) string {
	if g.memElem(k) == "uint64" {
		return expr
	}
	return "uint64(" + expr + ")"
}

func (g *gosrc) toMem(k int, expr string) string {
	if t := g.memElem(k); t != "uint64" {
		return t + "(" + expr + ")"
	}
	return expr
}

// checksDepth reports whether write port wr must check its address: when
// its depth is not the memory's (a power of two).
func (g *gosrc) checksDepth(wr *writeOp) bool {
	return wr.depth != uint64(len(g.s.kn.Mems[wr.memi]))/uint64(wr.words)
}

// inlinable reports whether wide operation j only moves bits (a slice, a
// concatenation, a zero extension, a memory read or a multiplexer, indexed
// or one-hot, with a narrow address or select), which records in queues
// and memories make common, or works word by word without carries
// (bitwise logic, equality, reductions): inlineWide writes those as
// statements, the others call the wide kernel.
func (g *gosrc) inlinable(j int) bool {
	op := g.s.kn.Wide[j]
	switch op.Op {
	case hdl.OpSlice, hdl.OpZext, hdl.OpConcat, hdl.OpNot, hdl.OpAnd, hdl.OpOr, hdl.OpXor,
		hdl.OpEq, hdl.OpNe, hdl.OpRedAnd, hdl.OpRedOr, hdl.OpRedXor:
		return true
	case hdl.OpMemRead, hdl.OpMux, hdl.OpSelect, hdl.OpOneHot:
		return op.AW[0] <= 64
	}
	return false
}

// inlineWide writes wide operation j, inlinable, as statements on the
// state words of w, its kernel case in wide.go word by word (the state
// keeps the bits above a value's width zero).
func (g *gosrc) inlineWide(j int, ew edgeWords) {
	op := g.s.kn.Wide[j]
	dst, args := g.s.wideSlots(j)
	words := kernel.NWords(op.Width)
	word := func(x int32, w, k int) string { // word k of a w-bit value at slot x
		if k < 0 || k >= kernel.NWords(w) {
			return ""
		}
		return ew.st(x + int32(k))
	}
	assign := func(k int, e string) {
		if e == "" {
			e = "0"
		}
		if k == words-1 && op.Width&63 != 0 {
			e = fmt.Sprintf("(%s) & %#x", e, kernel.TopMask(op.Width))
		}
		g.p("\t%s = %s\n", ew.st(dst+int32(k)), e)
	}
	switch op.Op {
	case hdl.OpSlice, hdl.OpConcat:
		for k, pieces := range movedWords(op, args) {
			var terms []string
			for _, p := range pieces {
				terms = append(terms, shifted(shifted(ew.st(p.x), "<<", p.shl), ">>", p.shr))
			}
			assign(k, strings.Join(terms, " | "))
		}
	case hdl.OpZext:
		for k := range words {
			assign(k, word(args[0], op.AW[0], k))
		}
	case hdl.OpNot:
		for k := range words {
			assign(k, "^"+word(args[0], op.AW[0], k))
		}
	case hdl.OpAnd, hdl.OpOr, hdl.OpXor:
		for k := range words {
			a, b := word(args[0], op.AW[0], k), word(args[1], op.AW[1], k)
			switch {
			case a != "" && b != "":
				assign(k, a+" "+map[hdl.Op]string{hdl.OpAnd: "&", hdl.OpOr: "|", hdl.OpXor: "^"}[op.Op]+" "+b)
			case op.Op == hdl.OpAnd: // a missing word is 0
				assign(k, "0")
			default:
				assign(k, a+b)
			}
		}
	case hdl.OpEq, hdl.OpNe, hdl.OpRedAnd, hdl.OpRedOr, hdl.OpRedXor:
		var terms []string
		for k := range kernel.NWords(max(op.AW[0], op.AW[len(op.AW)-1])) {
			a := word(args[0], op.AW[0], k)
			switch op.Op {
			case hdl.OpEq, hdl.OpNe: // the words that differ
				if b := word(args[1], op.AW[1], k); a != "" && b != "" {
					a = "(" + a + " ^ " + b + ")"
				} else {
					a += b
				}
			case hdl.OpRedAnd: // the bits that are not set
				a = fmt.Sprintf("(%s ^ %#x)", a, kernel.TopMask(min(64, op.AW[0]-64*k)))
			}
			terms = append(terms, a)
		}
		switch op.Op {
		case hdl.OpEq, hdl.OpRedAnd:
			assign(0, "FromBool("+strings.Join(terms, " | ")+" == 0)")
		case hdl.OpNe, hdl.OpRedOr:
			assign(0, "FromBool("+strings.Join(terms, " | ")+" != 0)")
		default:
			assign(0, "uint64(bits.OnesCount64("+strings.Join(terms, " ^ ")+") & 1)")
		}
	case hdl.OpMemRead:
		mem := g.s.nl.Nodes[g.s.wideAt[j]].Mem
		g.p("\t{\n\t\tat := int(%s) * %d\n", ew.st(args[0]), words)
		for k := range words {
			g.p("\t\t%s = %s[at+%d]\n", ew.st(dst+int32(k)), ew.mem(mem), k)
		}
		g.p("\t}\n")
	case hdl.OpMux:
		g.p("\tif %s != 0 {\n", ew.st(args[0]))
		for k := range words {
			g.p("\t\t%s = %s\n", ew.st(dst+int32(k)), ew.st(args[1]+int32(k)))
		}
		g.p("\t} else {\n")
		for k := range words {
			g.p("\t\t%s = %s\n", ew.st(dst+int32(k)), ew.st(args[2]+int32(k)))
		}
		g.p("\t}\n")
	case hdl.OpSelect:
		g.p("\tswitch %s {\n", ew.st(args[0]))
		for j, a := range args[1:] {
			g.p("\tcase %d:\n", j)
			for k := range words {
				assign(k, word(a, op.AW[1+j], k))
			}
		}
		g.p("\tdefault:\n")
		for k := range words {
			assign(k, "")
		}
		g.p("\t}\n")
	case hdl.OpOneHot:
		for k := range words {
			var terms []string
			for j, a := range args[1:] {
				if w := word(a, op.AW[1+j], k); w != "" {
					terms = append(terms, fmt.Sprintf("%s&-(%s>>%d&1)", w, ew.st(args[0]), j))
				}
			}
			assign(k, strings.Join(terms, " | "))
		}
	}
}

// wordPiece is a state word shifted into place in a word of a result: the
// word at slot x, shifted left by shl or right by shr bits (one of them 0).
type wordPiece struct {
	x        int32
	shl, shr int
}

// movedWords are the pieces whose OR is each word of wide operation op, a
// slice or a concatenation of the values at slots args (the kernel's
// cases in wide.go, word by word; the bits above the result's width are
// the caller's to clear).
func movedWords(op kernel.WideOp, args []int32) [][]wordPiece {
	words := kernel.NWords(op.Width)
	out := make([][]wordPiece, words)
	if op.Op == hdl.OpSlice { // n <= 64 bits from bit lo up, and the bits above them in the words read
		for k := range out {
			lo, n := op.N+64*k, min(64, op.Width-64*k)
			at, sh := int32(lo>>6), lo&63
			out[k] = append(out[k], wordPiece{x: args[0] + at, shr: sh})
			if sh > 0 && sh+n > 64 && int(at)+1 < kernel.NWords(op.AW[0]) {
				out[k] = append(out[k], wordPiece{x: args[0] + at + 1, shl: 64 - sh})
			}
		}
		return out
	}
	off := op.Width
	for i, a := range args {
		off -= op.AW[i]
		for k := range kernel.NWords(op.AW[i]) { // word k of the part lands at bit off+64k
			at, sh := (off+64*k)>>6, (off+64*k)&63
			out[at] = append(out[at], wordPiece{x: a + int32(k), shl: sh})
			if partWidth := min(64, op.AW[i]-64*k); sh+partWidth > 64 && at+1 < words {
				out[at+1] = append(out[at+1], wordPiece{x: a + int32(k), shr: 64 - sh})
			}
		}
	}
	return out
}

// shifted is x shifted by n bits (op "<<" or ">>"), x itself when n is 0.
func shifted(x, op string, n int) string {
	if n == 0 {
		return x
	}
	return fmt.Sprintf("%s %s %d", x, op, n)
}
