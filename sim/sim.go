package sim

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"
)

// Sim is the cycle simulator, parmem's golden model. It is built once from
// an elaborated design: every signal of the flattened hierarchy gets a slot
// in one flat []uint64 state (aliases such as wires, ports and zero
// extensions share their source's slot), combinational logic becomes one
// list of instructions in the design's topological order, and registers and
// memories update in two phases at each clock edge. Eval, Step, Put and Val
// neither allocate nor look anything up in maps.
//
// A Sim is not safe for concurrent use.
type Sim struct {
	d       *hdl.Design
	nl      *hdl.Netlist
	kn      kernel.Kernel
	prog    []kernel.Instr
	runs    []kernel.Run  // prog as the interpreter runs it, with superinstructions (fused)
	code    []kernel.Code // the runs' instructions
	slot    []int32       // state offset of every flat node
	regs    []seqOp       // registers
	syncs   []seqOp       // synchronous memory reads
	writes  []writeOp
	shadow  []uint64             // next values of registers and synchronous reads
	live    []bool               // nodes whose value is observable (see Netlist.Live)
	wideAt  []int32              // the flat node of each wide operation (kn.wide[j])
	reduced map[int32]*reduction // reductions computed as trees (reductions)
	konst   []bool               // state words that hold constants (compile folds operations on them)
	rst     int32                // slot of the top-level reset, -1 without state
	dirty   bool                 // inputs or state changed since the last Eval
	cycle   uint64
	byName  map[string]int32 // hierarchical name -> slot, for lookups
	width   map[string]int
	inputs  map[string]bool
	trace   *vcdTrace
	props   []propertyCheck
	// propWires are the properties' Wire names, which byName maps to
	// their conditions' slots (StateSlot).
	propWires map[string]bool
	failures  []*Violation // the first failure of each property that failed

	// The clock edge's fast path: one-word registers (most of them) as
	// flat records, so that Step does not call copy for them, those that
	// load every edge (next values in wordNext) apart from those with an
	// enable (the ones that load this edge in loaded); wideRegs indexes
	// the others in regs, and wideLoaded those that load this edge.
	loadRegs, enRegs []wordReg
	enAlone          int       // enRegs[:enAlone] have an enable of their own
	enGroups         []enGroup // the rest, by the enable they share
	wordNext         []uint64
	loaded           []wordWrite
	wideRegs         []int
	wideLoaded       []int
}

// seqOp updates one register or synchronous read port at a clock edge.
type seqOp struct {
	slot, d, en int32 // d: next-value slot (registers) or address slot (reads); en -1 = always
	words       int32
	shadow      int32    // offset in Sim.shadow
	reset       []uint64 // registers: reset value
	memi        int      // synchronous reads: the memory's index in Kernel.Mems
}

// wordReg is a one-word register at the clock edge.
type wordReg struct {
	slot, d, en int32 // en -1: loads every edge
	reset       uint64
}

// enGroup is the registers enRegs[lo:hi], which share the enable en.
type enGroup struct{ en, lo, hi int32 }

// groupEnRegs orders enRegs so that the registers with an enable of their
// own come first, then those sharing one (a CAM entry's fields, a
// pipeline stage's) in runs, enGroups: the clock edge tests a shared
// enable once. vmshr-base's 832 such registers have 448 enables; the warp
// mask's 514 have 514, which a group each slowed.
func (s *Sim) groupEnRegs() {
	uses := map[int32]int{}
	for _, r := range s.enRegs {
		uses[r.en]++
	}
	slices.SortStableFunc(s.enRegs, func(a, b wordReg) int {
		return cmp.Or(cmp.Compare(min(uses[a.en], 2), min(uses[b.en], 2)), cmp.Compare(a.en, b.en))
	})
	for s.enAlone < len(s.enRegs) && uses[s.enRegs[s.enAlone].en] == 1 {
		s.enAlone++
	}
	for i := s.enAlone; i < len(s.enRegs); i++ {
		if n := len(s.enGroups); n > 0 && s.enGroups[n-1].en == s.enRegs[i].en {
			s.enGroups[n-1].hi++
		} else {
			s.enGroups = append(s.enGroups, enGroup{en: s.enRegs[i].en, lo: int32(i), hi: int32(i + 1)})
		}
	}
}

// wordWrite is a one-word register's next value.
type wordWrite struct {
	slot int32
	v    uint64
}

type writeOp struct {
	memi           int // the memory's index in Kernel.Mems
	addr, data, en int32
	words          int32
	depth          uint64     // addresses from depth on write nothing
	mask           int32      // slot of the lane mask, -1 for whole words
	lanes          [][]uint64 // with a mask: the bits of each lane
}

// New builds a simulator for an elaborated design. All state starts at
// zero; call Reset to apply register reset values.
func New(d *hdl.Design) *Sim {
	s := &Sim{d: d, nl: d.Netlist(), rst: -1, dirty: true, byName: map[string]int32{}, width: map[string]int{}, inputs: map[string]bool{}}
	s.reduced = reductions(s.nl)
	s.assignSlots()
	mems := make([][]uint64, len(s.nl.Mems))
	for k, fm := range s.nl.Mems {
		mems[k] = make([]uint64, (1<<uint(fm.AddrBits))*kernel.NWords(fm.Width))
	}
	s.kn.Mems = mems
	s.compile()
	s.compileSeq()
	s.indexNames()
	s.props = s.propertyChecks()
	s.runs, s.code = s.kn.Encode(s.fused(s.prog))
	return s
}

func (s *Sim) assignSlots() {
	nl := s.nl
	s.slot = make([]int32, len(nl.Nodes))
	for i := range s.slot {
		s.slot[i] = -1
	}
	next := int32(0)
	if nl.Seq {
		s.rst = 0
		next = 1
	}
	var place func(i int32) int32
	place = func(i int32) int32 {
		if s.slot[i] >= 0 {
			return s.slot[i]
		}
		if a := nl.Nodes[i].Alias; a >= 0 {
			s.slot[i] = place(a)
		} else {
			s.slot[i] = next
			next += int32(kernel.NWords(nl.Nodes[i].Width))
		}
		return s.slot[i]
	}
	for _, i := range nl.Order { // evaluation order: results used together sit together
		place(i)
	}
	for i := range nl.Nodes { // (in node order: the same slots every build)
		if r, ok := s.reduced[int32(i)]; ok {
			r.inner = next
			next += int32(len(r.parts) - 1)
		}
	}
	s.kn.St = make([]uint64, next)
	for i, n := range nl.Nodes {
		if n.Op == hdl.OpConst {
			copy(s.view(int32(i)), n.Value.Words())
		}
	}
}

// view is the state words of flat node i.
func (s *Sim) view(i int32) []uint64 {
	o := s.slot[i]
	return s.kn.St[o : o+int32(kernel.NWords(s.nl.Nodes[i].Width))]
}

// bypass is a slice that the simulator reads from the operand of a
// concatenation it takes exactly, negated when a NOT stands between
// them: records and bit vectors built to be taken apart again (vmshr's
// entries, smm2d's lanes) then cost neither the concatenation nor the
// slices, where nothing else reads them.
type bypass struct {
	from int32 // the operand's node
	not  bool
}

// bypasses finds the slices to read from a concatenation's operand: the
// whole of one operand, through aliases and at most one NOT (of at most
// 64 bits, the narrow path's).
func bypasses(nl *hdl.Netlist) map[int32]bypass {
	source := func(i int32) int32 {
		for a := nl.Nodes[i].Alias; a >= 0; a = nl.Nodes[i].Alias {
			i = a
		}
		return i
	}
	through := map[int32]bypass{}
	for i := range nl.Nodes {
		n := &nl.Nodes[i]
		if n.Op != hdl.OpSlice {
			continue
		}
		c, not := source(n.Args[0]), false
		if nl.Nodes[c].Op == hdl.OpNot && n.Width <= 64 {
			c, not = source(nl.Nodes[c].Args[0]), true
		}
		cat := &nl.Nodes[c]
		if cat.Op != hdl.OpConcat {
			continue
		}
		lo := 0 // operand j's low bit: the last operand is the lowest
		for j := len(cat.Args) - 1; j >= 0 && lo <= n.K; j-- {
			w := cat.ArgWidths[j]
			if lo == n.K && w == n.Width {
				through[int32(i)] = bypass{from: cat.Args[j], not: not}
				break
			}
			lo += w
		}
	}
	return through
}

// compile turns the ordered combinational nodes into instructions. An
// operation equal to an earlier one (same kind, operands and parameters;
// elaboration makes many, e.g. one condition ORed into each of a record's
// fields) gets no instruction: its slot becomes the earlier result's, as
// Verilator merges common subexpressions. Operands that are equal
// constants count as the same (a register file's 256 lines each load
// rst ? 0 : d: one multiplexer), except in comparisons: decoders of one
// index that elaboration made apart stay apart, each recomputed near its
// readers; merged, one result would stay live across all of them, and
// compiled Go spills it (as in SAMS's and RSDMM's switches).
// A multiplexer with a constant select merges with the chosen operand,
// an operation on constants only is computed once, here, and a reduction
// of a concatenation (reductions) is a tree over its operands.
func (s *Sim) compile() {
	nl := s.nl
	through := bypasses(nl)
	s.live = nl.Live(func(i int32) ([]int32, bool) {
		if b, ok := through[i]; ok {
			return []int32{b.from}, true
		}
		if r, ok := s.reduced[i]; ok {
			return r.parts, true
		}
		return nil, false
	})
	same := map[string]int32{}  // an operation's key -> its result's slot
	merged := map[int32]int32{} // slot of a merged result -> slot it reads
	resolve := func(x int32) int32 {
		if y, ok := merged[x]; ok {
			return y
		}
		return x
	}
	s.konst = make([]bool, len(s.kn.St))
	valued := map[uint64]int32{}   // a narrow constant's value -> its first slot
	sameValue := map[int32]int32{} // a narrow constant's slot -> the first of its value
	constant := func(x int32) {
		v := s.kn.St[x]
		if _, ok := valued[v]; !ok {
			valued[v] = x
		}
		sameValue[x] = valued[v]
	}
	sameConstants := func(args []int32) []int32 {
		key := slices.Clone(args)
		for j, x := range key {
			if c, ok := sameValue[x]; ok {
				key[j] = c
			}
		}
		return key
	}
	for i, n := range nl.Nodes {
		if n.Op == hdl.OpConst {
			s.konst[s.slot[i]] = true
			if n.Width <= 64 {
				constant(s.slot[i])
			}
		}
	}
	// narrow computes a narrow operation's result into slot dst, or
	// merges dst with an equal result.
	narrow := func(k hdl.Op, dst int32, args []int32, aw []int, width, n int, mem int32) {
		if src, ok := s.chosen(k, args); ok { // a constant select
			merged[dst] = src
			return
		}
		if src, ok := s.passed(k, args, aw, width); ok { // x | 0, x & 0, ...
			merged[dst] = src
			return
		}
		keyArgs := args
		if k < hdl.OpEq || k > hdl.OpGeS {
			keyArgs = sameConstants(args)
		}
		key := fmt.Sprint(k, keyArgs, aw, width, n, mem)
		if first, ok := same[key]; ok {
			merged[dst] = first
			return
		}
		same[key] = dst
		list := int32(len(s.kn.Argv))
		if kernel.HasOperandList(k) {
			s.kn.Argv = append(s.kn.Argv, args...)
			for _, w := range aw {
				s.kn.Argw = append(s.kn.Argw, int32(w))
			}
		}
		in := kernel.NarrowInstr(k, dst, args, aw, width, n, mem, list)
		if k != hdl.OpMemRead && !slices.ContainsFunc(args, func(x int32) bool { return !s.konst[x] }) {
			// Constant operands: the result is a constant, computed now.
			cat := len(s.kn.Cat)
			s.kn.Exec(s.kn.Encode([]kernel.Instr{in}))
			s.kn.Cat = s.kn.Cat[:cat]
			s.konst[in.Dst] = true
			s.kn.Argv, s.kn.Argw = s.kn.Argv[:list], s.kn.Argw[:list]
			constant(in.Dst)
			return
		}
		s.prog = append(s.prog, in)
	}
	for _, i := range nl.Order {
		n := &nl.Nodes[i]
		if n.Class == 0 || !s.live[i] {
			continue // sources, storage, aliases and dead logic need no instruction
		}
		k := n.Op
		args := make([]int32, len(n.Args))
		aw := n.ArgWidths
		if b, ok := through[i]; ok {
			from := resolve(s.slot[b.from])
			if !b.not {
				merged[s.slot[i]] = from
				continue
			}
			k, args, aw = hdl.OpNot, []int32{from}, []int{n.Width}
		} else {
			for j, a := range n.Args {
				s.slot[a] = resolve(s.slot[a])
				args[j] = s.slot[a]
			}
		}
		mem := int32(-1)
		if k == hdl.OpMemRead {
			mem = int32(n.Mem)
		}
		if r, ok := s.reduced[i]; ok {
			s.reduceTree(n.Op, s.slot[i], r, narrow, resolve)
			continue
		}
		if kernel.IsNarrow(n.Width, aw) {
			narrow(k, s.slot[i], args, aw, n.Width, n.K, mem)
			continue
		}
		op := kernel.WideOp{Op: k, Width: n.Width, N: n.K, Dst: s.view(i), AW: aw}
		for _, a := range n.Args {
			op.Args = append(op.Args, s.view(a))
		}
		if mem >= 0 {
			op.Mem = s.kn.Mems[mem]
		}
		s.prog = append(s.prog, kernel.Instr{Op: kernel.OpWide, A: int32(len(s.kn.Wide))})
		s.kn.Wide = append(s.kn.Wide, op)
		s.wideAt = append(s.wideAt, i)
	}
	for i, x := range s.slot { // aliases of merged results, storage inputs, names
		s.slot[i] = resolve(x)
	}
}

// wideSlots returns the slots of wide operation j's result and operands
// (kn.wide[j]'s views, as slots), for the simulators that lay the state
// out anew (GoSource, GoStreamsSource).
func (s *Sim) wideSlots(j int) (dst int32, args []int32) {
	i := s.wideAt[j]
	for _, a := range s.nl.Nodes[i].Args {
		args = append(args, s.slot[a])
	}
	return s.slot[i], args
}

// chosen reports the operand a multiplexer or Select with a constant
// select passes on, as the slot it reads.
func (s *Sim) chosen(k hdl.Op, args []int32) (int32, bool) {
	if !s.konst[args[0]] {
		return 0, false
	}
	sel := s.kn.St[args[0]]
	switch k {
	case hdl.OpMux:
		if sel != 0 {
			return args[1], true
		}
		return args[2], true
	case hdl.OpSelect:
		if sel < uint64(len(args)-1) {
			return args[1+sel], true
		}
	}
	return 0, false
}

// passed reports the operand an operation passes on unchanged, as the
// slot it reads: x | 0, x ^ 0, x & ones, x + 0 and x - 0 are x, x & 0 and
// x | ones the constant, and a multiplexer of one operand twice that
// operand. (Chains that start from a constant, such as a fold of ORs
// from 0, leave these behind.)
func (s *Sim) passed(k hdl.Op, args []int32, aw []int, width int) (int32, bool) {
	if k == hdl.OpMux && args[1] == args[2] {
		return args[1], true
	}
	if len(args) != 2 || aw[0] != width || aw[1] != width {
		return 0, false
	}
	ones := kernel.MaskOf(width)
	for j, x := range args {
		if !s.konst[x] {
			continue
		}
		other, v := args[1-j], s.kn.St[x]
		switch {
		case v == 0 && (k == hdl.OpOr || k == hdl.OpXor || k == hdl.OpAdd || (k == hdl.OpSub && j == 1)),
			v == ones && k == hdl.OpAnd:
			return other, true
		case v == 0 && k == hdl.OpAnd, v == ones && k == hdl.OpOr:
			return x, true
		}
	}
	return 0, false
}

// compileSeq lists the registers, synchronous reads and write ports.
func (s *Sim) compileSeq() {
	nl := s.nl
	slotOr := func(i int32) int32 {
		if i < 0 {
			return -1
		}
		return s.slot[i]
	}
	shadow := int32(0)
	for i := range nl.Nodes {
		n := &nl.Nodes[i]
		k := n.Op
		if !k.IsStorage() {
			continue
		}
		op := seqOp{slot: s.slot[i], d: s.slot[n.Args[0]], en: slotOr(n.Args[1]), words: int32(kernel.NWords(n.Width)), shadow: shadow}
		shadow += op.words
		if k == hdl.OpReg {
			op.reset = n.Value.Words()
			switch r := (wordReg{slot: op.slot, d: op.d, en: op.en, reset: op.reset[0]}); {
			case op.words > 1:
				s.wideRegs = append(s.wideRegs, len(s.regs))
			case r.en < 0:
				s.loadRegs = append(s.loadRegs, r)
			default:
				s.enRegs = append(s.enRegs, r)
			}
			s.regs = append(s.regs, op)
		} else {
			op.memi = n.Mem
			s.syncs = append(s.syncs, op)
		}
	}
	s.shadow = make([]uint64, shadow)
	s.wordNext = make([]uint64, len(s.loadRegs))
	s.loaded = make([]wordWrite, 0, len(s.enRegs))
	s.groupEnRegs()
	for k, fm := range nl.Mems {
		for _, w := range fm.Writes {
			op := writeOp{memi: k, addr: s.slot[w[0]], data: s.slot[w[1]], en: s.slot[w[2]], words: int32(kernel.NWords(fm.Width)), depth: uint64(fm.Depth), mask: -1}
			if w[3] >= 0 {
				op.mask = s.slot[w[3]]
				op.lanes = laneMasks(fm.Width, nl.Nodes[w[3]].Width)
			}
			s.writes = append(s.writes, op)
		}
	}
}

func (s *Sim) indexNames() {
	for i, n := range s.nl.Nodes {
		if n.Name != "" && s.live[i] {
			s.byName[n.Name] = s.slot[i]
			s.width[n.Name] = n.Width
		}
	}
	for _, in := range s.nl.Inputs {
		s.inputs[in] = true
	}
	if s.rst >= 0 {
		s.byName[hdl.ResetName], s.width[hdl.ResetName], s.inputs[hdl.ResetName] = s.rst, 1, true
	}
}

// Eval settles the combinational logic for the current inputs and state.
// Reads call it as needed, so calling it is only useful before Peek-heavy
// work or to measure evaluation alone.
func (s *Sim) Eval() {
	s.kn.Exec(s.runs, s.code)
	s.dirty = false
}

func (s *Sim) settle() {
	if s.dirty {
		s.Eval()
	}
}

// Step applies one rising clock edge. The combinational logic is settled
// first; then every register and synchronous read computes its next value
// from the settled state (phase one), memory writes are applied, and only
// then do the registers take their next values (phase two), so the order of
// registers never matters.
func (s *Sim) Step() {
	s.settle()
	if s.trace != nil {
		s.trace.sample(s, 10*s.cycle, 0)
	}
	st, sh := s.kn.St, s.shadow
	reset := s.rst >= 0 && st[s.rst] != 0
	if len(s.props) > 0 && !reset {
		s.checkProperties()
	}
	s.nextWordRegs(st, reset)
	wideLoaded := s.wideLoaded[:0]
	for _, i := range s.wideRegs {
		r := &s.regs[i]
		switch {
		case reset:
			copy(sh[r.shadow:r.shadow+r.words], r.reset)
		case r.en < 0 || st[r.en] != 0:
			copy(sh[r.shadow:r.shadow+r.words], st[r.d:r.d+r.words])
		default:
			continue // (holds its value)
		}
		wideLoaded = append(wideLoaded, i)
	}
	s.wideLoaded = wideLoaded
	for i := range s.syncs {
		r := &s.syncs[i]
		n := int(r.words)
		from, src := int(r.slot), st // hold
		if r.en < 0 || st[r.en] != 0 {
			from, src = int(st[r.d])*n, s.kn.Mems[r.memi] // read-first: before any write
		}
		if n == 1 {
			sh[r.shadow] = src[from]
		} else {
			copy(sh[r.shadow:r.shadow+r.words], src[from:from+n])
		}
	}
	for i := range s.writes {
		w := &s.writes[i]
		if st[w.en] != 0 && st[w.addr] < w.depth {
			n := int(w.words)
			a := int(st[w.addr]) * n
			switch {
			case w.mask >= 0:
				writeLanes(s.kn.Mems[w.memi][a:a+n], st[w.data:w.data+w.words], st[w.mask:], w.lanes)
			case n == 1:
				s.kn.Mems[w.memi][a] = st[w.data]
			default:
				copy(s.kn.Mems[w.memi][a:a+n], st[w.data:w.data+w.words])
			}
		}
	}
	for i, r := range s.loadRegs {
		st[r.slot] = s.wordNext[i]
	}
	for _, w := range s.loaded {
		st[w.slot] = w.v
	}
	for _, i := range wideLoaded {
		r := &s.regs[i]
		copy(st[r.slot:r.slot+r.words], sh[r.shadow:r.shadow+r.words])
	}
	for i := range s.syncs {
		r := &s.syncs[i]
		if r.words == 1 {
			st[r.slot] = sh[r.shadow]
		} else {
			copy(st[r.slot:r.slot+r.words], sh[r.shadow:r.shadow+r.words])
		}
	}
	s.cycle++
	s.dirty = true
	if s.trace != nil {
		s.settle()
		s.trace.sample(s, 10*s.cycle-5, 1)
	}
}

// nextWordRegs computes the one-word registers' next values, the reset
// values or the d inputs: into wordNext for those that load every edge,
// and into loaded for those with an enable, only those whose enable is set
// (a branch: enables are mostly off for many cycles, which it predicts).
func (s *Sim) nextWordRegs(st []uint64, reset bool) {
	next, loaded := s.wordNext, s.loaded[:0]
	if reset {
		for i, r := range s.loadRegs {
			next[i] = r.reset
		}
		for _, r := range s.enRegs {
			loaded = append(loaded, wordWrite{r.slot, r.reset})
		}
	} else {
		for i, r := range s.loadRegs {
			next[i] = st[r.d]
		}
		for _, r := range s.enRegs[:s.enAlone] {
			if st[r.en] != 0 {
				loaded = append(loaded, wordWrite{r.slot, st[r.d]})
			}
		}
		for _, g := range s.enGroups {
			if st[g.en] != 0 {
				for _, r := range s.enRegs[g.lo:g.hi] {
					loaded = append(loaded, wordWrite{r.slot, st[r.d]})
				}
			}
		}
	}
	s.loaded = loaded
}

// laneMasks returns, for a word of width bits split into lanes equal
// lanes, the bits of each lane as words.
func laneMasks(width, lanes int) [][]uint64 {
	g := width / lanes
	out := make([][]uint64, lanes)
	for j := range out {
		out[j] = make([]uint64, kernel.NWords(width))
		kernel.FillOnes(out[j], j*g, (j+1)*g)
	}
	return out
}

// writeLanes copies into word the lanes of data whose mask bit is set.
func writeLanes(word, data, mask []uint64, lanes [][]uint64) {
	for j, lm := range lanes {
		if kernel.BitOf(mask, j) != 0 {
			for k := range word {
				word[k] = word[k]&^lm[k] | data[k]&lm[k]
			}
		}
	}
}

// Reset holds rst at 1 for one clock edge, then releases it. Registers take
// their reset values; memories keep their contents.
func (s *Sim) Reset() {
	if s.rst < 0 {
		return
	}
	s.kn.St[s.rst] = 1
	s.dirty = true
	s.Step()
	s.kn.St[s.rst] = 0
	s.dirty = true
}

// Design returns the design the simulator runs.
func (s *Sim) Design() *hdl.Design { return s.d }

// StateSlot is the index in the flat state (GoSource's st, Sim's
// own) of a top-level port's first word, or of a property's condition
// (by its NetProperty.Wire), or -1: the compiled harnesses address the
// ports and check the properties at constant indices.
func (s *Sim) StateSlot(name string) int {
	if i, ok := s.byName[name]; ok && s.isVisible(name) {
		return int(i)
	}
	return -1
}

// isPort reports whether a named slot is a top-level port (or rst).
func (s *Sim) isPort(name string) bool {
	return s.inputs[name] || slices.Contains(s.nl.Outputs, name)
}

// isVisible reports whether a named slot is what a compiled program must
// keep in its state and expose (Slot): a top-level port, or a property's
// condition; internal named signals, which Sim can Peek, may live in Go
// locals.
func (s *Sim) isVisible(name string) bool { return s.isPort(name) || s.propWires[name] }

// Ops returns the number of operations one Eval executes: the design's
// live logic, without aliases (wires, ports, zero extensions).
func (s *Sim) Ops() int { return len(s.prog) }

// Cycle returns the number of clock edges applied so far.
func (s *Sim) Cycle() uint64 { return s.cycle }

// InputRef is a handle to a top-level input (or rst) for Put.
type InputRef struct{ slot, width int32 }

// SignalRef is a handle to any named signal for Val.
type SignalRef struct{ slot, width int32 }

// Width returns the width of the referenced input.
func (r InputRef) Width() int { return int(r.width) }

// Width returns the width of the referenced signal.
func (r SignalRef) Width() int { return int(r.width) }

func (s *Sim) lookup(name string) (int32, int32, error) {
	slot, ok := s.byName[name]
	if !ok {
		return 0, 0, fmt.Errorf("no signal named %q in design %s%s", name, s.nl.Top, s.portHint())
	}
	return slot, int32(s.width[name]), nil
}

// portHint lists the top-level ports for an unknown-name error.
func (s *Sim) portHint() string {
	var names []string
	for n := range s.inputs {
		names = append(names, n)
	}
	names = append(names, s.nl.Outputs...)
	sort.Strings(names)
	return fmt.Sprintf(" (top-level ports: %v; inner signals are named like inst.signal)", names)
}

// Input returns a handle to top-level input port name (or "rst").
func (s *Sim) Input(name string) (InputRef, error) {
	if !s.inputs[name] {
		return InputRef{}, fmt.Errorf("%q is not an input of design %s%s", name, s.nl.Top, s.portHint())
	}
	slot, w, _ := s.lookup(name)
	return InputRef{slot, w}, nil
}

// Signal returns a handle to a named signal: a top-level port, or an inner
// signal by hierarchical name such as "u0.count".
func (s *Sim) Signal(name string) (SignalRef, error) {
	slot, w, err := s.lookup(name)
	return SignalRef{slot, w}, err
}

// Put sets an input to v, keeping the low Width bits (and zeroing higher
// words of wider inputs).
func (s *Sim) Put(r InputRef, v uint64) {
	st := s.kn.St[r.slot : r.slot+int32(kernel.NWords(int(r.width)))]
	kernel.WZero(st)
	st[0] = v & kernel.MaskOf(int(r.width))
	s.dirty = true
}

// PutBits sets an input to v, which must have the input's width.
func (s *Sim) PutBits(r InputRef, v hdl.Bits) error {
	if v.Width() != int(r.width) {
		return fmt.Errorf("value %s is %d bits; the input is %d bits", v, v.Width(), r.width)
	}
	copy(s.kn.St[r.slot:], v.Words())
	s.dirty = true
	return nil
}

// PutWords sets an input from its little-endian words (the input's width
// rounded up to 64-bit words); bits above the width must be zero.
func (s *Sim) PutWords(r InputRef, w []uint64) {
	if r.width <= 64 && len(w) > 0 { // most ports: a store, not a call to memmove
		s.kn.St[r.slot] = w[0]
	} else {
		copy(s.kn.St[r.slot:r.slot+int32(kernel.NWords(int(r.width)))], w)
	}
	s.dirty = true
}

// Words returns a signal's value as little-endian words, settling logic
// first if needed. The slice is a view of the simulator state: it is valid
// until the next change and must not be modified.
func (s *Sim) Words(r SignalRef) []uint64 {
	s.settle()
	return s.kn.St[r.slot : r.slot+int32(kernel.NWords(int(r.width)))]
}

// PortWords moves every input word in and every output word out at once,
// for a driver that sets all inputs and reads all outputs each cycle
// (verify's Go simulator): a store or a load a word, where PutWords and
// Words take a call and a slice a port.
type PortWords struct {
	s       *Sim
	in, out []int32 // the state slot of each input word and each output word, in order
}

// PortWords returns the words of inputs ins and signals outs, each port's
// words in turn, in the order given.
func (s *Sim) PortWords(ins []InputRef, outs []SignalRef) *PortWords {
	p := &PortWords{s: s}
	for _, r := range ins {
		p.in = appendWordSlots(p.in, r.slot, r.width)
	}
	for _, r := range outs {
		p.out = appendWordSlots(p.out, r.slot, r.width)
	}
	return p
}

// appendWordSlots appends the slots of a width-bit value at slot, one a
// word.
func appendWordSlots(slots []int32, slot, width int32) []int32 {
	for k := range int32(kernel.NWords(int(width))) {
		slots = append(slots, slot+k)
	}
	return slots
}

// Put sets the inputs from v, one word each in order; bits above an
// input's width must be zero (as for PutWords).
func (p *PortWords) Put(v []uint64) {
	st := p.s.kn.St
	for i, slot := range p.in {
		st[slot] = v[i]
	}
	p.s.dirty = true
}

// Get settles the logic and copies the outputs' words into v, in order.
func (p *PortWords) Get(v []uint64) {
	p.s.settle()
	st := p.s.kn.St
	for i, slot := range p.out {
		v[i] = st[slot]
	}
}

// Val returns the low 64 bits of a signal, settling logic first if needed.
func (s *Sim) Val(r SignalRef) uint64 {
	s.settle()
	return s.kn.St[r.slot]
}

// ValBits returns a signal's value.
func (s *Sim) ValBits(r SignalRef) hdl.Bits {
	s.settle()
	v, _ := hdl.FromWords(int(r.width), s.kn.St[r.slot:r.slot+int32(kernel.NWords(int(r.width)))]) // the state holds no bit beyond a value's width
	return v
}

// Set drives top-level input name with v.
func (s *Sim) Set(name string, v hdl.Bits) error {
	r, err := s.Input(name)
	if err != nil {
		return err
	}
	if err := s.PutBits(r, v); err != nil {
		return fmt.Errorf("input %q: %v", name, err)
	}
	return nil
}

// SetU drives top-level input name with v, which must fit its width.
func (s *Sim) SetU(name string, v uint64) error {
	r, err := s.Input(name)
	if err != nil {
		return err
	}
	b, err := hdl.U(int(r.width), v)
	if err != nil {
		return fmt.Errorf("input %q: %v", name, err)
	}
	return s.PutBits(r, b)
}

// Get returns the value of a top-level port.
func (s *Sim) Get(name string) (hdl.Bits, error) {
	if !s.isPort(name) {
		return hdl.Bits{}, fmt.Errorf("%q is not a port of design %s%s; use Peek for inner signals", name, s.nl.Top, s.portHint())
	}
	return s.Peek(name)
}

// Peek returns the value of any named signal, by hierarchical name.
func (s *Sim) Peek(name string) (hdl.Bits, error) {
	r, err := s.Signal(name)
	if err != nil {
		return hdl.Bits{}, err
	}
	return s.ValBits(r), nil
}

// GetU returns the low 64 bits of a named signal.
func (s *Sim) GetU(name string) (uint64, error) {
	r, err := s.Signal(name)
	if err != nil {
		return 0, err
	}
	return s.Val(r), nil
}
