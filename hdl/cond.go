package hdl

// Conditional assignment, as Amaranth's m.If/m.Switch and Hardcaml's
// Always: Set assigns a wire, an output or a register under the conditions
// of the If and Switch bodies around it, and the last assignment on a path
// wins. Elaborate lowers every assigned signal to the existing operations:
// a chain of Muxes for its value and, for a register, a load enable that is
// 1 exactly on the paths that assign it (elsewhere it holds). A wire or
// output must be assigned on every path: give it a default with Set before
// the If, or cover every path with Else or Default; otherwise Elaborate
// reports the If or Switch that leaves a path open. Nothing becomes a latch.
//
//	next := m.Wire("next", 8)
//	next.Set(count)                         // default
//	m.If(inc, func() {
//		next.Set(count.Add(one))
//	}).Elif(clear, func() {
//		next.Set(zero)
//	})
//	m.Switch(op).Case(0, func() { acc.Set(a) }).Default(func() { acc.Set(b) })

// stmt is one statement of a block: an assignment or a conditional chain.
type stmt struct {
	dst, src *Signal
	chain    *chain
	pos      Pos
}

type block struct{ stmts []stmt }

// chain is an If/Elif/Else or a Switch: arms tried in order; the last arm
// of a chain with an Else or Default has a nil condition.
type chain struct {
	what    string // "If" or "Switch"
	pos     Pos
	parent  *block
	arms    []arm
	closed  bool             // has its Else or Default
	touches map[*Signal]bool // targets assigned somewhere inside, filled when lowering
}

type arm struct {
	cond *Signal // nil for Else and Default
	body *block
}

// condState is a module's conditional assignments while it is built.
type condState struct {
	root    block
	open    []*block        // bodies being built; the innermost last
	setPos  map[*Signal]Pos // first Set of each assigned signal
	targets []*Signal       // assigned signals in order of their first Set
	lowered bool
	made    map[gateKey]*Signal // gates lowering made, so none is made twice
}

// gateKey identifies a gate lowering makes: its kind and operands.
type gateKey struct {
	k       Op
	a, b, c *Signal
}

func (c *condState) current() *block {
	if n := len(c.open); n > 0 {
		return c.open[n-1]
	}
	return &c.root
}

// isSetTarget reports whether s is assigned with Set.
func (m *Module) isSetTarget(s *Signal) bool {
	_, ok := m.setPos[s]
	return ok
}

// Set assigns v to the wire, output or register s under the conditions of
// the enclosing If and Switch bodies; a later Set on the same path wins.
func (s *Signal) Set(v *Signal) {
	if s == nil {
		return
	}
	s.set(callerPos(), v)
}

// SetU assigns the constant v (which must fit s's width) to s, as Set.
func (s *Signal) SetU(v uint64) {
	if s == nil {
		return
	}
	pos := callerPos()
	b, err := U(s.width, v)
	if err != nil {
		s.mod.errorf(pos, "SetU %s: %v", s.describe(), err)
		return
	}
	c := s.mod.add(pos, OpConst, s.width, "")
	c.val = b
	s.set(pos, c)
}

func (s *Signal) set(pos Pos, v *Signal) {
	m := s.mod
	switch {
	case s.kind != OpWire && s.kind != OpOutput && s.kind != OpReg:
		m.errorf(pos, "Set: %s is %s, not a wire, output or register", s.describe(), article(s.kind))
	case v == nil:
		m.errorf(pos, "Set: %s is assigned a nil signal", s.describe())
	case v.mod != m:
		m.errorf(pos, "Set: %s is assigned a signal of module %s", s.describe(), v.mod.name)
	case v.width != s.width:
		m.errorf(pos, "Set: %s is %d bits but the value is %d bits; %s", s.describe(), s.width, v.width, fixWidth(v.width, s.width))
	case s.args[0] != nil:
		m.errorf(pos, "Set: %s is driven with Drive at %s; use Drive or Set, not both", s.describe(), s.dpos)
	case s.kind == OpReg && s.args[1] != nil:
		m.errorf(pos, "Set: %s has an Enable; with Set, the If around the assignment decides when it loads", s.describe())
	case m.lowered:
		m.errorf(pos, "Set: module %s was already elaborated; finish building it first", m.name)
	default:
		if _, ok := m.setPos[s]; !ok {
			if m.setPos == nil {
				m.setPos = map[*Signal]Pos{}
			}
			m.setPos[s] = pos
			m.targets = append(m.targets, s)
		}
		b := m.current()
		b.stmts = append(b.stmts, stmt{dst: s, src: v, pos: pos})
	}
}

// run builds body with b as the current block.
func (m *Module) run(b *block, body func()) {
	if body == nil {
		return
	}
	m.open = append(m.open, b)
	defer func() { m.open = m.open[:len(m.open)-1] }()
	body()
}

// cond1 checks a condition and returns it, or a constant 0 placeholder.
func (m *Module) cond1(pos Pos, what string, c *Signal) *Signal {
	if !m.check1(pos, what, c) {
		return placeholder(m, pos, 1)
	}
	return c
}

// startChain adds a new chain to the current block.
func (m *Module) startChain(what string, pos Pos) *chain {
	b := m.current()
	c := &chain{what: what, pos: pos, parent: b}
	b.stmts = append(b.stmts, stmt{chain: c, pos: pos})
	return c
}

// extend checks that an arm is added right after the chain's last arm.
func (m *Module) extend(c *chain, pos Pos, what string) bool {
	switch {
	case c.closed:
		m.errorf(pos, "%s: the %s at %s already has its last arm (Else or Default)", what, c.what, c.pos)
	case m.current() != c.parent || c.parent.stmts[len(c.parent.stmts)-1].chain != c:
		m.errorf(pos, "%s must directly follow its %s (at %s), in the same body", what, c.what, c.pos)
	default:
		return true
	}
	return false
}

// If is a conditional chain under construction: If, then any number of
// Elif, then at most one Else.
type If struct {
	m *Module
	c *chain
}

// If runs body, whose assignments apply when the one-bit cond is 1.
func (m *Module) If(cond *Signal, body func()) *If {
	pos := callerPos()
	cond = m.cond1(pos, "If condition", cond)
	c := m.startChain("If", pos)
	b := &block{}
	c.arms = append(c.arms, arm{cond: cond, body: b})
	m.run(b, body)
	return &If{m: m, c: c}
}

// Elif adds an arm that applies when cond is 1 and no earlier arm applied.
func (i *If) Elif(cond *Signal, body func()) *If {
	pos := callerPos()
	if !i.m.extend(i.c, pos, "Elif") {
		return i
	}
	cond = i.m.cond1(pos, "Elif condition", cond)
	b := &block{}
	i.c.arms = append(i.c.arms, arm{cond: cond, body: b})
	i.m.run(b, body)
	return i
}

// Else adds the arm that applies when no earlier arm applied.
func (i *If) Else(body func()) { i.m.closeChain(i.c, callerPos(), "Else", body) }

// closeChain adds a chain's last arm, with no condition (Else, Default).
func (m *Module) closeChain(c *chain, pos Pos, what string, body func()) {
	if !m.extend(c, pos, what) {
		return
	}
	b := &block{}
	c.arms = append(c.arms, arm{body: b})
	c.closed = true
	m.run(b, body)
}

// Switch is a chain of cases on one selector under construction.
type Switch struct {
	m    *Module
	c    *chain
	sel  *Signal
	seen map[uint64]Pos
}

// Switch starts a chain of cases on sel; add them with Case and Default.
func (m *Module) Switch(sel *Signal) *Switch {
	pos := callerPos()
	if sel == nil || sel.mod != m {
		m.errorf(pos, "Switch: the selector is nil or belongs to another module")
		sel = placeholder(m, pos, 1)
	}
	return &Switch{m: m, c: m.startChain("Switch", pos), sel: sel, seen: map[uint64]Pos{}}
}

// Case runs body, whose assignments apply when the selector equals v.
func (sw *Switch) Case(v uint64, body func()) *Switch {
	return sw.cases(callerPos(), []uint64{v}, body)
}

// Cases runs body, whose assignments apply when the selector equals any of vs.
func (sw *Switch) Cases(vs []uint64, body func()) *Switch {
	return sw.cases(callerPos(), vs, body)
}

func (sw *Switch) cases(pos Pos, vs []uint64, body func()) *Switch {
	m := sw.m
	if !m.extend(sw.c, pos, "Case") {
		return sw
	}
	var cond *Signal
	for _, v := range vs {
		b, err := U(sw.sel.width, v)
		if err != nil {
			m.errorf(pos, "Case %d: %v, the selector's width", v, err)
			continue
		}
		if first, dup := sw.seen[v]; dup {
			m.errorf(pos, "Case %d: the value already has a case at %s", v, first)
			continue
		}
		sw.seen[v] = pos
		c := m.add(pos, OpConst, sw.sel.width, "")
		c.val = b
		eq := m.add(pos, OpEq, 1, "", sw.sel, c)
		if cond == nil {
			cond = eq
		} else {
			cond = m.add(pos, OpOr, 1, "", cond, eq)
		}
	}
	if cond == nil {
		if len(vs) == 0 {
			m.errorf(pos, "Cases: no values")
		}
		cond = placeholder(m, pos, 1)
	}
	b := &block{}
	sw.c.arms = append(sw.c.arms, arm{cond: cond, body: b})
	m.run(b, body)
	return sw
}

// Default runs body, whose assignments apply when no case matched.
func (sw *Switch) Default(body func()) { sw.m.closeChain(sw.c, callerPos(), "Default", body) }

// Lowering.

// enable says on which paths a signal is assigned.
type enable uint8

const (
	never  enable = iota // on no path
	always               // on every path
	someOf               // where asg.en is 1
)

// asg is what a block makes of one target: its value where assigned, and
// where that is.
type asg struct {
	v    *Signal
	when enable
	en   *Signal // when == someOf
	hole *chain  // when != always: the chain that leaves a path unassigned
}

// lower turns the module's conditional assignments into drivers and
// enables. It runs once, when the module is first elaborated.
func (m *Module) lower() {
	if m.lowered {
		return
	}
	m.lowered = true
	if len(m.targets) == 0 {
		return
	}
	touches(&m.root)
	for _, t := range m.targets {
		r := m.lowerBlock(&m.root, t, asg{})
		t.args[0], t.dpos = r.v, m.setPos[t]
		switch {
		case r.when == always:
		case t.kind == OpReg:
			t.args[1] = r.en
		default:
			m.errorf(t.pos, "%s is not assigned on every path: the %s at %s leaves a path without an assignment and there is no default; Set a default before that %s or give it %s", t.describe(), r.hole.what, r.hole.pos, r.hole.what, map[string]string{"If": "an Else", "Switch": "a Default"}[r.hole.what])
		}
	}
}

// touches fills in, for every chain in b, the targets it assigns, and
// returns those of b.
func touches(b *block) map[*Signal]bool {
	all := map[*Signal]bool{}
	for _, st := range b.stmts {
		if st.chain == nil {
			all[st.dst] = true
			continue
		}
		c := st.chain
		c.touches = map[*Signal]bool{}
		for _, a := range c.arms {
			for t := range touches(a.body) {
				c.touches[t] = true
			}
		}
		for t := range c.touches {
			all[t] = true
		}
	}
	return all
}

func (m *Module) lowerBlock(b *block, t *Signal, in asg) asg {
	cur := in
	for _, st := range b.stmts {
		switch {
		case st.chain == nil && st.dst == t:
			cur = asg{v: st.src, when: always}
		case st.chain != nil && st.chain.touches[t]:
			cur = m.lowerChain(st.chain, t, cur)
		}
	}
	return cur
}

func (m *Module) lowerChain(c *chain, t *Signal, in asg) asg {
	arms := c.arms
	acc := in
	if c.closed {
		acc = m.lowerBlock(arms[len(arms)-1].body, t, in)
		arms = arms[:len(arms)-1]
	}
	for i := len(arms) - 1; i >= 0; i-- {
		taken := m.lowerBlock(arms[i].body, t, in)
		acc = m.merge(c, arms[i].cond, taken, acc)
	}
	return acc
}

// merge is "if cond then t else f" for one target.
func (m *Module) merge(c *chain, cond *Signal, t, f asg) asg {
	if t == f {
		return t
	}
	pos := c.pos
	if t.when == never && f.when == never {
		return asg{hole: c}
	}
	r := asg{when: someOf}
	switch {
	case t.v == nil:
		r.v = f.v
	case f.v == nil, t.v == f.v:
		r.v = t.v
	default:
		r.v = m.gate(pos, OpMux, cond, t.v, f.v)
	}
	switch {
	case t.when == always && f.when == always:
		r.when = always
	case t.when == always && f.when == never:
		r.en = cond
	case t.when == never && f.when == always:
		r.en = m.gate(pos, OpNot, cond, nil, nil)
	case t.when == always:
		r.en = m.gate(pos, OpOr, cond, f.en, nil)
	case t.when == never:
		r.en = m.gate(pos, OpAnd, m.gate(pos, OpNot, cond, nil, nil), f.en, nil)
	case f.when == always:
		r.en = m.gate(pos, OpOr, m.gate(pos, OpNot, cond, nil, nil), t.en, nil)
	case f.when == never:
		r.en = m.gate(pos, OpAnd, cond, t.en, nil)
	default:
		r.en = m.gate(pos, OpMux, cond, t.en, f.en)
	}
	switch {
	case r.when == always:
	case t.when == someOf:
		r.hole = t.hole
	case f.when == someOf:
		r.hole = f.hole
	default:
		r.hole = c
	}
	return r
}

// gate makes a Not, And, Or or Mux for lowering, or returns the one
// already made from the same operands (the operands are checked: all are
// one-bit conditions or equal-width values of this module).
func (m *Module) gate(pos Pos, k Op, a, b, c *Signal) *Signal {
	key := gateKey{k, a, b, c}
	if g, ok := m.made[key]; ok {
		return g
	}
	if m.made == nil {
		m.made = map[gateKey]*Signal{}
	}
	var g *Signal
	switch k {
	case OpNot:
		g = m.add(pos, OpNot, 1, "", a)
	case OpMux:
		g = m.add(pos, OpMux, b.width, "", a, b, c)
	default:
		g = m.add(pos, k, 1, "", a, b)
	}
	m.made[key] = g
	return g
}
