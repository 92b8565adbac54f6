package hdl

import (
	"fmt"
	"slices"
)

// Crossbars in compiled Go. A crossbar routes n sources to m destinations
// by each source's index: destination b takes the sources addressed to it,
//
//	out_b = OR_i ch_i & (c_i & (x_i == b))
//
// (a bank's command from the request that addresses the bank, as
// units/rsdmm's issue stage). Written as m one-hot multiplexers over the
// same choices, it costs n*m AND-OR terms and n*m decoded select bits.
// Compiled Go scatters instead: each source ORs itself into the entry its
// index names, o[x_i] |= ch_i & -c_i, and destination b reads o[b]: n
// terms, and the decoders go when nothing else reads them. Several sources
// with one index OR together, as the multiplexers' AND-OR does.
type crossbar struct {
	outs    []int32  // the multiplexers' result slots, in program order
	keys    []uint64 // the index each one decodes
	conds   []int32  // c_i, or -1 for a source always routed
	index   []int32  // x_i
	choices []int32  // ch_i
	width   uint     // of the indices
}

// operands lists the slots the crossbar reads.
func (cb *crossbar) operands() []int32 {
	xs := append(slices.Clone(cb.index), cb.choices...)
	for _, c := range cb.conds {
		if c >= 0 {
			xs = append(xs, c)
		}
	}
	return xs
}

// minCrossbar is the fewest destinations worth a scatter.
const minCrossbar = 4

// findCrossbars finds the groups of one-hot multiplexers (with select bits
// fused, fuseSelects) over the same choices, conditions and indices whose
// select bit i of each decodes one constant, c_i & (x_i == k); dropUnread
// then removes the decoding that only they read. A crossbar is computed at
// its first multiplexer's place, where every source is known; its results
// are stored in the state.
func (g *gosrc) findCrossbars() {
	producer := map[int32]*instr{}
	for i := range g.prog {
		producer[g.prog[i].dst] = &g.prog[i]
	}
	groups := map[string]*crossbar{}
	var order []*crossbar
	for i := range g.prog {
		in := &g.prog[i]
		bits, fused := g.selBits[in.dst]
		if in.op != kOneHot || !fused {
			continue
		}
		cb := &crossbar{choices: g.s.kn.argv[in.b : in.b+int32(in.k)]}
		var key uint64
		for j, bit := range bits {
			c, x, k, w, ok := g.decodes(producer, bit)
			if !ok || w > 6 || j > 0 && (k != key || w != cb.width) {
				cb = nil
				break
			}
			key, cb.width = k, w
			cb.conds, cb.index = append(cb.conds, c), append(cb.index, x)
		}
		if cb == nil {
			continue
		}
		sig := fmt.Sprint(cb.conds, cb.index, cb.choices, cb.width)
		if groups[sig] == nil {
			groups[sig] = cb
			order = append(order, cb)
		}
		groups[sig].outs = append(groups[sig].outs, in.dst)
		groups[sig].keys = append(groups[sig].keys, key)
	}
	g.crossbarAt, g.scattered = map[int32]*crossbar{}, map[int32]bool{}
	for _, cb := range order {
		if len(cb.outs) < minCrossbar {
			continue
		}
		g.crossbarAt[cb.outs[0]] = cb
		for _, x := range cb.outs {
			g.scattered[x] = true
		}
	}
}

// decodes matches a select bit c & (x == k), with the constant on either
// side of the equality and the condition on either side of the AND, or
// x == k alone (c -1: always).
func (g *gosrc) decodes(producer map[int32]*instr, bit int32) (c, x int32, k uint64, w uint, ok bool) {
	konst := func(x int32) bool { return int(x) < len(g.s.konst) && g.s.konst[x] }
	equality := func(eq *instr) (x int32, k uint64, w uint, ok bool) {
		switch {
		case eq == nil || eq.op != kEq:
		case konst(eq.b) && !konst(eq.a):
			return eq.a, g.s.kn.st[eq.b], uint(eq.aw), true
		case konst(eq.a) && !konst(eq.b):
			return eq.b, g.s.kn.st[eq.a], uint(eq.aw), true
		}
		return
	}
	p := producer[bit]
	if x, k, w, ok := equality(p); ok {
		return -1, x, k, w, true
	}
	if p == nil || p.op != kAnd {
		return
	}
	for _, arg := range [2][2]int32{{p.a, p.b}, {p.b, p.a}} {
		if x, k, w, ok := equality(producer[arg[1]]); ok {
			return arg[0], x, k, w, true
		}
	}
	return
}

// scatter writes crossbar cb's statements.
func (g *gosrc) scatter(cb *crossbar) {
	n := 1 << cb.width
	g.p("\t{\n\t\tvar o [%d]uint64\n", n)
	for i, c := range cb.conds {
		switch at := fmt.Sprintf("\t\to[%s&%#x] |= %s", g.ref(cb.index[i]), n-1, g.ref(cb.choices[i])); {
		case c >= 0 && g.isZero(c): // never routed
		case c < 0 || g.s.konst[c]:
			g.p("%s\n", at)
		default:
			g.p("%s & -%s\n", at, g.ref(c)) // (a condition is 0 or 1)
		}
	}
	for j, x := range cb.outs { // (a key has the indices' width: it is below n)
		g.p("\t\tst[%d] = o[%d]\n", x, cb.keys[j])
	}
	g.p("\t}\n")
}
