package hdl

// Netlist is an elaborated design lowered for simulation: every signal of
// the flattened hierarchy as one node, in one combinational evaluation
// order, with the memories and their write ports resolved to nodes. It is
// what every simulator runs (Sim, and the Go it compiles to) and all they
// know of the design: nothing here refers back to modules or signals.
// Design.Netlist makes it; it is read-only.
type Netlist struct {
	Top     string   // the top module's name
	Seq     bool     // the top holds state, so has the ports clk and rst
	Inputs  []string // the top module's input ports, in declaration order
	Outputs []string // and its output ports
	Nodes   []Node
	// Order lists the nodes in combinational evaluation order: a node
	// comes after every node its value depends on within a cycle.
	Order []int32
	Mems  []NetMem
	// Properties are every module instance's assertions, assumptions and
	// cover points, the top's first, then each instance's in Scopes order.
	Properties []NetProperty
	// Scopes is the instance tree, Scopes[0] the top module, each scope
	// with the signals a waveform shows (its ports and the signals the
	// user named, as the emitted Verilog declares them).
	Scopes []NetScope
}

// NetProperty is one property of the flattened design (Module.Assert,
// Assume, Cover).
type NetProperty struct {
	Kind PropertyKind
	// Name is hierarchical: the instance path and the property's name
	// ("u0.no_overflow"); Module is the name of the module that states it.
	Name, Message, Module string
	Pos                   Pos // the Go call that made it
	// Node is the condition as it applies: for an assertion or assumption
	// 1 where it holds, for a cover point 1 where it is reached.
	Node int32
	// Wire is the hierarchical name of the wire that carries the condition
	// in the Verilog's properties' section (1 in reset for an assertion or
	// assumption, 0 for a cover point), as Yosys names it once the design
	// is flattened: "u0._assert_no_overflow".
	Wire string
}

// NetScope is one module instance of the flattened design.
type NetScope struct {
	Name     string // the instance's name; the module's for the top
	Seq      bool   // the module holds state, so has the ports clk and rst
	Vars     []NetVar
	Children []int // the scopes of the instances inside, in order
}

// NetVar is a signal of a scope by its local name: inputs, then outputs,
// then the other signals the user named, each in declaration order.
type NetVar struct {
	Name string
	Node int32
}

// Node is one signal of the flattened design.
type Node struct {
	Op    Op
	Width int
	// Args are the nodes of the operation's operands, -1 for one that is
	// absent (a register's enable when it loads every edge); ArgWidths
	// their widths.
	Args      []int32
	ArgWidths []int
	// Alias is the node whose value this one always equals (wires, ports,
	// instance connections, zero extensions within a word), or -1.
	Alias int32
	// Value is a constant's value or a register's reset value.
	Value Bits
	// K is the operation's parameter: a shift's count, a slice's low bit,
	// a replication's count.
	K int
	// Mem is the memory a memory read reads (an index into Mems), or -1.
	Mem int
	// Name is the hierarchical Verilog name ("u0.q"; elaboration's own
	// "_add_12" for logic the user did not name), "" for most constants.
	Name string
	// Named marks a signal the user named (Peek and waveforms show it);
	// TopOutput a top-level output port.
	Named, TopOutput bool
	// Class is 0 for nodes that need no simulator instruction (sources,
	// storage, aliases) and otherwise identifies the instruction: its
	// kind, and whether it works on one word or on several. Order groups
	// nodes of one class where it can.
	Class int
}

// NetMem is one memory of the flattened design.
type NetMem struct {
	Width, Depth, AddrBits int
	// Writes are the write ports as nodes: address, data, enable and lane
	// mask (-1 without one).
	Writes [][4]int32
}

// Netlist lowers the design for simulation.
func (d *Design) Netlist() *Netlist {
	nl := &Netlist{Top: d.top.m.name, Seq: d.top.seq, Order: d.order, Nodes: make([]Node, len(d.nodes))}
	for _, in := range d.top.m.inputs {
		nl.Inputs = append(nl.Inputs, in.name)
	}
	for _, out := range d.top.m.outputs {
		nl.Outputs = append(nl.Outputs, out.name)
	}
	for _, fm := range d.mems {
		nl.Mems = append(nl.Mems, NetMem{Width: fm.mem.width, Depth: fm.mem.depth, AddrBits: fm.mem.addrBits, Writes: fm.writes})
	}
	for _, sc := range d.scopes {
		ns := NetScope{Name: sc.mi.m.name, Seq: sc.mi.seq}
		if sc.inst != nil {
			ns.Name = sc.inst.name
		}
		m := sc.mi.m
		shown := append(append([]*Signal{}, m.inputs...), m.outputs...)
		for _, sig := range m.signals {
			if sig.name != "" && sig.kind != OpInput && sig.kind != OpOutput {
				shown = append(shown, sig)
			}
		}
		for _, sig := range shown {
			ns.Vars = append(ns.Vars, NetVar{Name: sig.name, Node: int32(sc.base + sig.id)})
		}
		for _, c := range sc.children {
			if c >= 0 {
				ns.Children = append(ns.Children, c)
			}
		}
		nl.Scopes = append(nl.Scopes, ns)
		for i, p := range m.props {
			nl.Properties = append(nl.Properties, NetProperty{Kind: p.kind, Name: joinPath(sc.path, p.name), Message: p.message, Module: m.name, Pos: p.pos,
				Node: int32(sc.base + p.cond.id), Wire: joinPath(sc.path, sc.mi.propNames[i])})
		}
	}
	for i := range d.nodes {
		n := &d.nodes[i]
		k := n.sig.kind
		nl.Nodes[i] = Node{
			Op: k, Width: n.sig.width, Args: n.args, ArgWidths: d.argWidths(n),
			Alias: d.aliasOf(int32(i)), Value: n.sig.val, K: n.sig.k, Mem: d.memOf(n),
			Name:  d.hierName(i),
			Named: n.sig.name != "", TopOutput: k == OpOutput && n.scope == 0,
			Class: d.evalClass(int32(i)),
		}
	}
	return nl
}

// memOf finds the flat memory of node n's Mem in its scope, -1 for a node
// that reads none.
func (d *Design) memOf(n *fnode) int {
	if n.sig.mem == nil {
		return -1
	}
	for k, fm := range d.mems {
		if fm.mem == n.sig.mem && fm.scope == int(n.scope) {
			return k
		}
	}
	return -1
}

// Live marks the nodes whose values can be observed: top-level outputs,
// signals the user named (Peek and waveforms show them), state elements
// and memory ports, and everything they depend on. A simulator skips the
// rest, as Verilator removes logic that drives nothing. via, when not nil,
// names a node that a simulator reads from other nodes in place of its
// operands (a slice taken from a concatenation's operand, a reduction
// from the concatenation's operands).
func (nl *Netlist) Live(via func(node int32) (from []int32, ok bool)) []bool {
	live := make([]bool, len(nl.Nodes))
	var stack []int32
	mark := func(i int32) {
		if i >= 0 && !live[i] {
			live[i] = true
			stack = append(stack, i)
		}
	}
	for i, n := range nl.Nodes {
		if n.Named || n.Op.IsStorage() || n.TopOutput {
			mark(int32(i))
		}
	}
	for _, p := range nl.Properties {
		mark(p.Node)
	}
	for _, fm := range nl.Mems {
		for _, w := range fm.Writes {
			for _, x := range w {
				mark(x)
			}
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if via != nil {
			if from, ok := via(i); ok {
				for _, f := range from {
					mark(f)
				}
				continue
			}
		}
		n := &nl.Nodes[i]
		mark(n.Alias)
		for _, a := range n.Args {
			mark(a)
		}
	}
	return live
}
