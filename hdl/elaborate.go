package hdl

import (
	"fmt"
	"github.com/parmem/parmem/internal/kernel"
	"slices"
	"strings"
)

// Design is an elaborated design: the checked module hierarchy under a top
// module, the Verilog names of everything in it, and the flattened netlist in
// one topological order. Make one with Elaborate; it is read-only after.
type Design struct {
	top    *modInfo
	mods   []*modInfo // distinct modules, every module after those it instances
	scopes []scope    // instance tree, pre-order; scopes[0] is the top
	nodes  []fnode    // every signal of every scope; a scope's signals are contiguous
	mems   []fmem
	order  []int32 // nodes in combinational evaluation order (Kahn, ties by index)
}

// modInfo is what elaboration learns about one distinct module.
type modInfo struct {
	m        *Module
	seq      bool     // holds state, so has clk and rst ports
	names    []string // Verilog identifier of each signal, by id; "" for constants
	memNames []string
	instOuts [][]instWire // per instance, per sub-module output: the wire it drives
	sinkName string       // wire that gathers unused bits for Verilator's lint
	// formalSinkName and propNames are those of the properties' section
	// (verilog_formal.go): its sink, and a wire for each property.
	formalSinkName string
	propNames      []string
	formal         []bool // per signal: only properties read it (formalOnly)
	used           map[string]bool
}

// instWire is the parent-side wire of one instance output: the first signal
// that reads the port via Instance.Out, or a generated dangling wire (sig nil).
type instWire struct {
	name string
	sig  *Signal
}

// scope is one instance of a module in the flattened hierarchy.
type scope struct {
	path     string // hierarchical instance path: "" for the top, "u0.u1" below
	mi       *modInfo
	base     int // flat index of the scope's signal 0
	parent   int // enclosing scope, -1 for the top
	inst     *Instance
	children []int // scope of each of mi.m.insts, -1 when not flattened
}

// fnode is one signal of one scope.
type fnode struct {
	sig   *Signal
	scope int32
	args  []int32 // flat index of each of sig.args, -1 when missing
	src   int32   // for aliases (wires, outputs, sub-module inputs, instance outputs): the aliased node; else -1
}

// fmem is one memory of one scope, with its ports resolved to flat nodes.
type fmem struct {
	mem    *Mem
	scope  int
	writes [][4]int32 // addr, data, enable, mask (-1 without)
}

// Top returns the top module.
func (d *Design) Top() *Module { return d.top.m }

// Elaborate checks the design under top and returns it ready for simulation
// and Verilog emission. When anything is wrong it returns every problem found
// at once, each with the Go source position that caused it (use Errors to
// list them): errors recorded while building, bad or duplicate names,
// undriven wires, outputs and registers, unused memories, bad instance
// connections, recursive instancing and combinational loops.
func Elaborate(top *Module) (*Design, error) {
	if top == nil {
		return nil, fmt.Errorf("Elaborate: top module is nil")
	}
	e := &elaborator{info: map[*Module]*modInfo{}, onStack: map[*Module]bool{}, byName: map[string]*Module{}, prints: map[*Module]string{}}
	e.collect(top)
	for _, mi := range e.mods {
		e.errs = append(e.errs, mi.m.errs...)
		e.checkModule(mi)
	}
	d := &Design{top: e.info[top], mods: e.mods}
	e.flatten(d, e.info[top], "", -1, nil)
	e.resolve(d)
	e.levelize(d)
	if len(e.errs) > 0 {
		return nil, joinErrors(e.errs)
	}
	return d, nil
}

type elaborator struct {
	prints  map[*Module]string // structural fingerprints, made on demand
	mods    []*modInfo
	info    map[*Module]*modInfo
	onStack map[*Module]bool
	byName  map[string]*Module
	errs    []error
}

func (e *elaborator) errorf(m *Module, pos Pos, format string, args ...any) {
	e.errs = append(e.errs, &Error{Pos: pos, Module: m.name, Msg: fmt.Sprintf(format, args...)})
}

// collect visits the hierarchy depth first and lists each distinct module
// after the modules it instances.
func (e *elaborator) collect(m *Module) {
	if e.info[m] != nil {
		return
	}
	m.lower()
	if other := e.byName[m.name]; other != nil {
		// Two parents that build the same component with the same
		// parameters share one module.
		if e.info[other] != nil && e.fingerprint(m) == e.fingerprint(other) {
			e.info[m] = e.info[other]
			return
		}
		e.errorf(m, m.pos, "two different modules are named %q (the other made at %s); give each a distinct name, for example one that includes its parameters", m.name, other.pos)
	}
	e.byName[m.name] = m
	e.onStack[m] = true
	for _, i := range m.insts {
		if e.onStack[i.sub] {
			e.errorf(m, i.pos, "instance %s: module %s contains itself", i.name, i.sub.name)
			continue
		}
		e.collect(i.sub)
	}
	e.onStack[m] = false
	mi := &modInfo{m: m, used: map[string]bool{}}
	mi.seq = len(m.mems) > 0
	for _, s := range m.signals {
		mi.seq = mi.seq || s.kind == OpReg
	}
	for _, i := range m.insts {
		if sub := e.info[i.sub]; sub != nil {
			mi.seq = mi.seq || sub.seq
		}
	}
	e.info[m] = mi
	e.mods = append(e.mods, mi)
}

// checkModule checks names, drivers, memories and instance connections of
// one module and assigns Verilog names.
func (e *elaborator) checkModule(mi *modInfo) {
	m := mi.m
	if why := checkName(m.name); why != "" {
		e.errorf(m, m.pos, "module: %s", why)
	}
	if mi.seq {
		mi.used[ClockName], mi.used[ResetName] = true, true
	}
	seen := map[string]Pos{}
	claim := func(name, what string, pos Pos) {
		if why := checkName(name); why != "" {
			e.errorf(m, pos, "%s: %s", what, why)
			return
		}
		if name == ClockName || name == ResetName {
			e.errorf(m, pos, "%s: name %q is the implicit clock or reset of modules with state; choose another", what, name)
			return
		}
		if first, dup := seen[name]; dup {
			e.errorf(m, pos, "%s: name %q is already used at %s", what, name, first)
			return
		}
		seen[name] = pos
		mi.used[name] = true
	}
	for _, s := range m.signals {
		if s.name != "" || s.kind == OpInput || s.kind == OpOutput {
			claim(s.name, s.kind.String(), s.pos)
		}
		if (s.kind == OpWire || s.kind == OpOutput || s.kind == OpReg) && s.args[0] == nil {
			e.errorf(m, s.pos, "%s is never driven; call Drive on it", s.describe())
		}
	}
	for _, f := range m.fsms {
		for _, st := range f.states {
			claim(f.reg.name+"_"+st, fmt.Sprintf("state %q of state machine %q", st, f.reg.name), f.reg.pos)
		}
	}
	for _, mem := range m.mems {
		if mem.name != "" {
			claim(mem.name, "memory", mem.pos)
		}
		if len(mem.writes) == 0 {
			e.errorf(m, mem.pos, "memory %q is never written; add a Write port", mem.name)
		}
		if len(mem.reads) == 0 {
			e.errorf(m, mem.pos, "memory %q is never read; add a Read or ReadSync port", mem.name)
		}
	}
	for _, i := range m.insts {
		claim(i.name, "instance", i.pos)
		e.checkConnections(m, i)
	}
	e.assignNames(mi)
}

func (e *elaborator) checkConnections(m *Module, i *Instance) {
	connected := map[string]Pos{}
	for _, c := range i.conns {
		p := i.sub.findPort(i.sub.inputs, c.port)
		switch {
		case p == nil:
			e.errorf(m, c.pos, "instance %s: module %s has no input %q%s", i.name, i.sub.name, c.port, portList(i.sub.inputs))
			continue
		case p.width != c.sig.width:
			e.errorf(m, c.pos, "instance %s: input %q is %d bits but is connected to %d bits; %s", i.name, c.port, p.width, c.sig.width, fixWidth(c.sig.width, p.width))
		}
		if first, dup := connected[c.port]; dup {
			e.errorf(m, c.pos, "instance %s: input %q is connected twice (first at %s)", i.name, c.port, first)
		}
		connected[c.port] = c.pos
	}
	for _, p := range i.sub.inputs {
		if _, ok := connected[p.name]; !ok {
			e.errorf(m, i.pos, "instance %s: input %q of module %s is not connected; call Connect", i.name, p.name, i.sub.name)
		}
	}
}

// assignNames gives every non-constant signal, memory and instance output a
// Verilog identifier: the user's name, or a generated one that starts with
// '_' (so it cannot clash with a user's name) and depends only on
// declaration order, the hardware's before the ghost logic's.
func (e *elaborator) assignNames(mi *modInfo) {
	m := mi.m
	fresh := func(base string) string {
		name := base
		for n := 2; mi.used[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		mi.used[name] = true
		return name
	}
	selected := constantsSelectedFrom(m)
	mi.formal = formalOnly(m)
	// A generated name numbers its signal among the hardware's, the logic
	// only properties read after it, so that stating a property never
	// renames a wire of the hardware.
	number := make([]int, len(m.signals))
	n := 0
	for _, ghost := range []bool{false, true} {
		for _, s := range m.signals {
			if mi.formal[s.id] == ghost {
				number[s.id] = n
				n++
			}
		}
	}
	mi.names = make([]string, len(m.signals))
	for _, s := range m.signals {
		switch {
		case s.name != "":
			mi.names[s.id] = s.name
		case s.kind == OpConst:
			if selected[s] {
				mi.names[s.id] = fresh(fmt.Sprintf("_const_%d", number[s.id]))
			}
		case s.kind == OpInstOut:
			mi.names[s.id] = fresh(fmt.Sprintf("_%s_%s", s.inst.name, s.port))
		default:
			mi.names[s.id] = fresh(fmt.Sprintf("_%s_%d", s.kind, number[s.id]))
		}
	}
	for i, mem := range m.mems {
		name := mem.name
		if name == "" {
			name = fresh(fmt.Sprintf("_mem_%d", i))
		}
		mi.memNames = append(mi.memNames, name)
	}
	mi.sinkName = fresh("_unused_ok")
	if len(m.props) > 0 {
		mi.formalSinkName = fresh("_unused_formal_ok")
		for _, p := range m.props {
			mi.propNames = append(mi.propNames, fresh("_"+p.kind.String()+"_"+p.name))
		}
	}
	mi.instOuts = make([][]instWire, len(m.insts))
	for k, i := range m.insts {
		mi.instOuts[k] = make([]instWire, len(i.sub.outputs))
		for j, p := range i.sub.outputs {
			w := &mi.instOuts[k][j]
			for _, o := range i.outs {
				if o.port == p.name {
					w.name, w.sig = mi.names[o.id], o
					break
				}
			}
			if w.sig == nil {
				w.name = fresh(fmt.Sprintf("_%s_%s", i.name, p.name))
			}
		}
	}
}

// constantsSelectedFrom returns the constants that Verilog must see as named
// wires rather than literals: operands of a bit or part select.
func constantsSelectedFrom(m *Module) map[*Signal]bool {
	sel := map[*Signal]bool{}
	for _, s := range m.signals {
		if len(s.args) == 0 || s.args[0] == nil || s.args[0].kind != OpConst || s.args[0].width == 1 {
			continue
		}
		if s.kind == OpSlice || s.kind == OpSext || s.kind == OpOneHot {
			sel[s.args[0]] = true
		}
	}
	for _, mem := range m.mems {
		for _, w := range mem.writes {
			if w.mask != nil && w.mask.width > 1 {
				for _, x := range []*Signal{w.mask, w.data} {
					if x.kind == OpConst {
						sel[x] = true
					}
				}
			}
		}
	}
	return sel
}

// flatten lays out one scope per instance, pre-order, each scope's signals
// contiguous in declaration order.
func (e *elaborator) flatten(d *Design, mi *modInfo, path string, parent int, inst *Instance) int {
	idx := len(d.scopes)
	d.scopes = append(d.scopes, scope{path: path, mi: mi, base: len(d.nodes), parent: parent, inst: inst})
	for _, s := range mi.m.signals {
		d.nodes = append(d.nodes, fnode{sig: s, scope: int32(idx), src: -1})
	}
	for _, mem := range mi.m.mems {
		d.mems = append(d.mems, fmem{mem: mem, scope: idx})
	}
	e.onStack[mi.m] = true // recursive instances were reported by collect; skip them here
	children := make([]int, len(mi.m.insts))
	for k, i := range mi.m.insts {
		children[k] = -1
		if sub := e.info[i.sub]; sub != nil && !e.onStack[i.sub] {
			children[k] = e.flatten(d, sub, joinPath(path, i.name), idx, i)
		}
	}
	e.onStack[mi.m] = false
	d.scopes[idx].children = children
	return idx
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// resolve fills in flat operand indices and alias sources.
func (e *elaborator) resolve(d *Design) {
	for si := range d.scopes {
		sc := &d.scopes[si]
		m := sc.mi.m
		flat := func(s *Signal) int32 {
			if s == nil {
				return -1
			}
			return int32(sc.base + s.id)
		}
		for _, s := range m.signals {
			n := &d.nodes[sc.base+s.id]
			n.args = make([]int32, len(s.args))
			for j, a := range s.args {
				n.args[j] = flat(a)
			}
			switch s.kind {
			case OpWire, OpOutput:
				n.src = n.args[0]
			case OpInput:
				if sc.parent >= 0 {
					n.src = d.connectedTo(sc, s.name)
				}
			case OpInstOut:
				n.src = d.instOutput(sc, s)
			}
		}
	}
	for k := range d.mems {
		fm := &d.mems[k]
		base := d.scopes[fm.scope].base
		for _, w := range fm.mem.writes {
			mask := int32(-1)
			if w.mask != nil {
				mask = int32(base + w.mask.id)
			}
			fm.writes = append(fm.writes, [4]int32{int32(base + w.addr.id), int32(base + w.data.id), int32(base + w.en.id), mask})
		}
	}
}

// connectedTo returns the parent-scope node connected to input `port` of
// scope sc, or -1.
func (d *Design) connectedTo(sc *scope, port string) int32 {
	parent := &d.scopes[sc.parent]
	for _, c := range sc.inst.conns {
		if c.port == port {
			return int32(parent.base + c.sig.id)
		}
	}
	return -1
}

// instOutput returns the node of the sub-module output read by s, or -1.
func (d *Design) instOutput(sc *scope, s *Signal) int32 {
	for k, i := range sc.mi.m.insts {
		if i != s.inst || sc.children[k] < 0 {
			continue
		}
		child := &d.scopes[sc.children[k]]
		if p := i.sub.findPort(i.sub.outputs, s.port); p != nil {
			return int32(child.base + p.id)
		}
	}
	return -1
}

// combDeps returns the nodes n's value depends on within the same cycle.
// Registers and synchronous reads depend on nothing: the clock cuts there.
func (d *Design) combDeps(n *fnode) []int32 {
	switch {
	case n.src >= 0:
		return []int32{n.src}
	case n.sig.kind.IsStorage():
		return nil
	case n.sig.kind == OpMemRead:
		return n.args[:1]
	case n.sig.kind == OpWire, n.sig.kind == OpOutput, n.sig.kind == OpInput, n.sig.kind == OpInstOut:
		return nil // an alias whose source is missing (already reported)
	}
	return n.args
}

// levelize orders the nodes with Kahn's algorithm and reports every
// combinational loop it finds. The ready set is kept per evaluation class
// (the simulator instruction a node becomes): nodes that need no
// instruction are taken as soon as they are ready, and otherwise the whole
// class with the most ready nodes is taken at once, each class in
// declaration order. Runs of one instruction kind keep the simulator's
// dispatch branch predictable, which is most of its speed on mixed logic.
func (e *elaborator) levelize(d *Design) {
	n := len(d.nodes)
	indeg := make([]int32, n)
	users := make([][]int32, n)
	for i := range d.nodes {
		for _, a := range d.combDeps(&d.nodes[i]) {
			if a >= 0 {
				indeg[i]++
				users[a] = append(users[a], int32(i))
			}
		}
	}
	ready := make([][]int32, numEvalClasses)
	var free []int32 // ready nodes of class 0, taken first
	push := func(i int32) {
		if c := d.evalClass(i); c == 0 {
			free = append(free, i)
		} else {
			ready[c] = append(ready[c], i)
		}
	}
	for i := range n {
		if indeg[i] == 0 {
			push(int32(i))
		}
	}
	d.order = make([]int32, 0, n)
	take := func(i int32) {
		d.order = append(d.order, i)
		for _, u := range users[i] {
			if indeg[u]--; indeg[u] == 0 {
				push(u)
			}
		}
	}
	for {
		for len(free) > 0 {
			i := free[0]
			free = free[1:]
			take(i)
		}
		best := 0
		for c := range ready {
			if len(ready[c]) > len(ready[best]) {
				best = c
			}
		}
		if len(ready[best]) == 0 {
			break
		}
		batch := ready[best]
		ready[best] = nil
		slices.Sort(batch)
		for _, i := range batch {
			take(i)
		}
	}
	if len(d.order) < n {
		e.reportLoops(d, indeg)
	}
}

// numEvalClasses counts evalClass values: 0, and one narrow and one wide
// class per kind.
const numEvalClasses = 1 + 2*int(NumOps)

// evalClass is 0 for nodes that need no simulator instruction (sources,
// storage, aliases) and otherwise identifies the instruction: its kind, and
// whether it runs on the narrow or the wide path.
func (d *Design) evalClass(i int32) int {
	n := &d.nodes[i]
	k := n.sig.kind
	if k < OpMemRead || k == OpMemSync || k == OpInstOut || d.aliasOf(i) >= 0 {
		return 0
	}
	c := 1 + int(k)
	if !kernel.IsNarrow(n.sig.width, d.argWidths(n)) {
		c += int(NumOps)
	}
	return c
}

// argWidths returns the widths of n's operands.
func (d *Design) argWidths(n *fnode) []int {
	aw := make([]int, len(n.sig.args))
	for j, a := range n.sig.args {
		if a != nil {
			aw[j] = a.width
		}
	}
	return aw
}

// aliasOf returns the node whose value node i always equals, or -1.
func (d *Design) aliasOf(i int32) int32 {
	n := &d.nodes[i]
	if n.src >= 0 {
		return n.src
	}
	if n.sig.kind == OpZext && kernel.NWords(n.sig.width) == kernel.NWords(n.sig.args[0].width) {
		return n.args[0] // the clean-top invariant makes the words equal
	}
	return -1
}

// maxLoopReports bounds how many distinct loops one Elaborate reports.
const maxLoopReports = 10

// reportLoops finds loops among the nodes Kahn's algorithm could not order
// (those with indeg > 0). Each such node depends on another such node, so a
// walk along dependencies must close a loop.
func (e *elaborator) reportLoops(d *Design, indeg []int32) {
	walked := make([]int32, len(d.nodes)) // walk number that visited a node; 0 = none
	reported := 0
	for start := range d.nodes {
		if indeg[start] == 0 || walked[start] != 0 || reported == maxLoopReports {
			continue
		}
		walk := int32(start + 1)
		var path []int32
		at := int32(start)
		for walked[at] == 0 {
			walked[at] = walk
			path = append(path, at)
			for _, a := range d.combDeps(&d.nodes[at]) {
				if a >= 0 && indeg[a] > 0 {
					at = a
					break
				}
			}
		}
		if walked[at] != walk {
			continue // ran into a loop found by an earlier walk
		}
		for path[0] != at {
			path = path[1:]
		}
		e.reportLoop(d, path)
		reported++
	}
}

// reportLoop prints the loop in signal-flow order starting at its lowest node.
func (e *elaborator) reportLoop(d *Design, deps []int32) {
	flow := make([]int32, len(deps))
	for i, x := range deps {
		flow[len(deps)-1-i] = x
	}
	low := 0
	for i, x := range flow {
		if x < flow[low] {
			low = i
		}
	}
	flow = append(flow[low:], flow[:low]...)
	parts := make([]string, 0, len(flow)+1)
	for _, x := range append(flow, flow[0]) {
		parts = append(parts, d.describeNode(x))
	}
	first := &d.nodes[flow[0]]
	e.errorf(first.sig.mod, first.sig.pos, "combinational loop: %s", strings.Join(parts, " -> "))
}

// describeNode names a flat node for messages: its hierarchical name, or its
// operation and source position when it has no name.
func (d *Design) describeNode(i int32) string {
	n := &d.nodes[i]
	sc := &d.scopes[n.scope]
	if n.sig.name != "" {
		return joinPath(sc.path, n.sig.name)
	}
	return fmt.Sprintf("%s(%s)", n.sig.kind, n.sig.pos)
}

// hierName returns the hierarchical Verilog name of flat node i ("" for a constant).
func (d *Design) hierName(i int) string {
	n := &d.nodes[i]
	sc := &d.scopes[n.scope]
	name := sc.mi.names[n.sig.id]
	if name == "" {
		return ""
	}
	return joinPath(sc.path, name)
}

// HasState reports whether the design holds registers or memories, and so
// has the clk and rst ports.
func (d *Design) HasState() bool { return d.top.seq }

// StateElement is a register or memory of the elaborated design, named by
// its hierarchical Verilog path (such as "rf.r").
type StateElement struct {
	Path  string
	Width int
	Depth int // words of a memory; 0 for a register
}

// formal reports whether node i is logic only properties read (ghost
// state and the like), which the Verilog holds under `ifdef FORMAL alone.
func (d *Design) formal(i int) bool { return d.scopes[d.nodes[i].scope].mi.formal[d.nodes[i].sig.id] }

// StateElements lists every register, synchronous read register and memory
// of the hierarchy (ghost state excepted). Test benches use it to give RTL state the Go
// simulator's initial value, zero.
func (d *Design) StateElements() []StateElement {
	out := d.registers(false)
	for _, fm := range d.mems {
		sc := &d.scopes[fm.scope]
		for k, mem := range sc.mi.m.mems {
			if mem == fm.mem {
				out = append(out, StateElement{Path: joinPath(sc.path, sc.mi.memNames[k]), Width: mem.width, Depth: mem.depth})
			}
		}
	}
	return out
}

// GhostState lists the registers that only properties read, which the
// Verilog declares under `ifdef FORMAL alone: a bench that defines FORMAL
// zeroes them as it does StateElements.
func (d *Design) GhostState() []StateElement { return d.registers(true) }

// registers lists the registers and synchronous read registers of the
// hierarchy that are ghost state, or that are not.
func (d *Design) registers(ghost bool) []StateElement {
	var out []StateElement
	for i, n := range d.nodes {
		if n.sig.kind.IsStorage() && d.formal(i) == ghost {
			out = append(out, StateElement{Path: d.hierName(i), Width: n.sig.width})
		}
	}
	return out
}

// Adders counts the adders and subtractors of the hierarchy that the
// design's outputs or state can observe, by width in bits: the figure a
// review compares with a paper's "128 15-bit adders" (Li, section 4.5).
func (d *Design) Adders() map[int]int {
	live := d.Netlist().Live(nil)
	out := map[int]int{}
	for i, n := range d.nodes {
		if live[i] && !d.formal(i) && (n.sig.kind == OpAdd || n.sig.kind == OpSub) {
			out[n.sig.width]++
		}
	}
	return out
}

// Comparators counts the magnitude comparators (<, <=, >, >=, signed or
// not) the design's outputs or state can observe, by operand width: the
// argmax trees of a scheduler, which 4.5's adder count leaves out.
func (d *Design) Comparators() map[int]int {
	live := d.Netlist().Live(nil)
	out := map[int]int{}
	for i, n := range d.nodes {
		switch n.sig.kind {
		case OpLt, OpLe, OpGt, OpGe, OpLtS, OpLeS, OpGtS, OpGeS:
			if live[i] && !d.formal(i) {
				out[n.sig.args[0].width]++
			}
		}
	}
	return out
}
