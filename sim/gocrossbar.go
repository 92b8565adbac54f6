package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"
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
//
// A priority crossbar lets one source win each destination: its select
// bits are a fixed-priority arbiter's grants over those requests
// (lib.FirstOneHot, r_i AND no request before it), as the SAMS InSwitch
// lets the highest lane write a bank slot and the SAMS memory serves the
// lowest waiting lane's row (thesis Fig. 4.3). Compiled Go writes the
// sources from the lowest priority to the highest, each overwriting the
// entry its index names, so the winner's value stays; a source whose
// condition fails writes into a second, unread half of the table. The
// arbiters' ripple chains go with the decoders.
//
// A request is an AND of terms: its index the concatenation of those that
// compare a value with a constant, x == k a field of x's width with key k,
// in the order the AND lists them, and c_i the product of the others. The
// InSwitch's write request to bank b's slot 0, en & (bank == b) & we &
// NOT offset, is the condition en & we & NOT offset on the index bank, key
// b.
type crossbar struct {
	outs     []int32  // the multiplexers' result slots, in program order
	keys     []uint64 // the index each one decodes
	sources  []route
	priority int  // 0: every routed source ORs in; 1: the lowest source wins; -1: the highest
	width    uint // of the indices
}

// route is how a crossbar's source is routed: its value, the conditions
// ANDed (none: always), and its index's fields, most significant first.
type route struct {
	choice int32
	conds  []int32
	fields []field
}

// field is a part of an index: value x of width w.
type field struct {
	x int32
	w uint
}

// operands lists the slots the crossbar reads.
func (cb *crossbar) operands() []int32 {
	var xs []int32
	for _, s := range cb.sources {
		xs = append(append(xs, s.choice), s.conds...)
		for _, f := range s.fields {
			xs = append(xs, f.x)
		}
	}
	return xs
}

// hasPriorityCrossbar reports whether the program has a priority crossbar.
func (g *gosrc) hasPriorityCrossbar() bool {
	for _, cb := range g.crossbarAt {
		if cb.priority != 0 {
			return true
		}
	}
	return false
}

// minCrossbar is the fewest destinations worth a scatter.
const minCrossbar = 4

// maxIndexWidth bounds a crossbar's table (2 << maxIndexWidth words).
const maxIndexWidth = 6

// findCrossbars finds the groups of one-hot multiplexers (with select bits
// fused, fuseSelects) over the same choices and requests whose select bits
// each decode one key: requests themselves, or a priority arbiter's grants
// over them. dropUnread then removes the decoding and the arbiters that
// only they read. A crossbar is computed at its first multiplexer's place,
// where every source is known; its results are stored in the state.
func (g *gosrc) findCrossbars() {
	producer := map[int32]*kernel.Instr{}
	for i := range g.prog {
		producer[g.prog[i].Dst] = &g.prog[i]
	}
	groups := map[string]*crossbar{}
	var order []*crossbar
	for i := range g.prog {
		in := &g.prog[i]
		bits, fused := g.selBits[in.Dst]
		if in.Op != hdl.OpOneHot || !fused {
			continue
		}
		cb, key, ok := g.decodeSelect(producer, bits, g.s.kn.Argv[in.B:in.B+int32(in.K)])
		if !ok {
			continue
		}
		sig := fmt.Sprint(cb.priority, cb.sources, cb.width)
		if groups[sig] == nil {
			groups[sig] = cb
			order = append(order, cb)
		}
		groups[sig].outs = append(groups[sig].outs, in.Dst)
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

// decodeSelect matches the select bits of a one-hot multiplexer over
// choices: a priority arbiter's grants (either direction), else the
// requests themselves, every request decoding the same key on indices of
// one layout.
func (g *gosrc) decodeSelect(producer map[int32]*kernel.Instr, bits, choices []int32) (*crossbar, uint64, bool) {
	try := func(priority int, reqs []int32) (*crossbar, uint64, bool) {
		cb := &crossbar{priority: priority}
		var key uint64
		for i, r := range reqs {
			s, k, w, ok := g.decodeRequest(producer, r)
			if !ok || w > maxIndexWidth || i > 0 && (k != key || w != cb.width || !sameLayout(s.fields, cb.sources[0].fields)) {
				return nil, 0, false
			}
			s.choice = choices[i]
			key, cb.width = k, w
			cb.sources = append(cb.sources, s)
		}
		return cb, key, true
	}
	for _, priority := range []int{1, -1} {
		if reqs, ok := g.arbiterRequests(producer, bits, priority); ok {
			if cb, key, ok := try(priority, reqs); ok {
				return cb, key, true
			}
		}
	}
	return try(0, bits)
}

// sameLayout reports whether two indices have fields of the same widths.
func sameLayout(a, b []field) bool {
	return slices.EqualFunc(a, b, func(x, y field) bool { return x.w == y.w })
}

// arbiterRequests matches grants, bit i for source i, as lib.FirstOneHot's
// over requests r: in priority order (from source 0 up with priority 1,
// from the last source down with -1) the first grant is its request, and
// each later one r AND NOT before, where before is the first request, then
// before OR the previous request.
func (g *gosrc) arbiterRequests(producer map[int32]*kernel.Instr, grants []int32, priority int) ([]int32, bool) {
	n := len(grants)
	if n < 2 {
		return nil, false
	}
	at := func(k int) int { // the source k-th in priority order
		if priority > 0 {
			return k
		}
		return n - 1 - k
	}
	reqs := make([]int32, n)
	reqs[at(0)] = grants[at(0)]
	before := grants[at(0)]
	for k := 1; k < n; k++ {
		grant := producer[grants[at(k)]]
		if grant == nil || grant.Op != hdl.OpAnd {
			return nil, false
		}
		matched := false
		for _, arg := range [2][2]int32{{grant.A, grant.B}, {grant.B, grant.A}} {
			if not := producer[arg[1]]; not != nil && not.Op == hdl.OpNot && not.Mask == 1 && not.A == before {
				reqs[at(k)], matched = arg[0], true
				break
			}
		}
		if !matched {
			return nil, false
		}
		if k == n-1 {
			break
		}
		// The next grant's "before" ORs this request in.
		next := producer[grants[at(k+1)]]
		if next == nil || next.Op != hdl.OpAnd {
			return nil, false
		}
		found := false
		for _, arg := range [2]int32{next.A, next.B} {
			if not := producer[arg]; not != nil && not.Op == hdl.OpNot && not.Mask == 1 {
				if or := producer[not.A]; or != nil && or.Op == hdl.OpOr && (or.A == before && or.B == reqs[at(k)] || or.B == before && or.A == reqs[at(k)]) {
					before, found = not.A, true
					break
				}
			}
		}
		if !found {
			return nil, false
		}
	}
	return reqs, true
}

// decodeRequest splits request r, a product of terms, into the conditions
// and the index fields of a route, with the key the fields decode and the
// index's width; it fails when r has no field. An AND whose operands
// compare nothing with a constant stays one condition.
func (g *gosrc) decodeRequest(producer map[int32]*kernel.Instr, r int32) (s route, key uint64, width uint, ok bool) {
	konst := func(x int32) bool { return int(x) < len(g.s.konst) && g.s.konst[x] }
	// decoded is the value x == k compares with a constant, if it does.
	decoded := func(p *kernel.Instr) (x int32, k uint64, ok bool) {
		switch {
		case p == nil || p.Op != hdl.OpEq:
		case konst(p.B) && !konst(p.A):
			return p.A, g.s.kn.St[p.B], true
		case konst(p.A) && !konst(p.B):
			return p.B, g.s.kn.St[p.A], true
		}
		return 0, 0, false
	}
	var hasField func(x int32, depth int) bool
	hasField = func(x int32, depth int) bool {
		p := producer[x]
		if _, _, ok := decoded(p); ok {
			return true
		}
		return p != nil && p.Op == hdl.OpAnd && depth < 4 && (hasField(p.A, depth+1) || hasField(p.B, depth+1))
	}
	var terms func(x int32, depth int)
	terms = func(x int32, depth int) {
		p := producer[x]
		if v, k, ok := decoded(p); ok {
			s.fields = append(s.fields, field{v, uint(p.AW)})
			key = key<<p.AW | k
			return
		}
		if p != nil && p.Op == hdl.OpAnd && hasField(x, depth) {
			terms(p.A, depth+1)
			terms(p.B, depth+1)
			return
		}
		if !slices.Contains(s.conds, x) { // (x & x is x)
			s.conds = append(s.conds, x)
		}
	}
	terms(r, 0)
	for _, f := range s.fields {
		width += f.w
	}
	return s, key, width, len(s.fields) > 0
}

// writeOrder lists cb's sources in the order they are written: a priority
// crossbar's winner last.
func (cb *crossbar) writeOrder() []int {
	order := make([]int, len(cb.sources))
	for i := range order {
		order[i] = i
		if cb.priority > 0 {
			order[i] = len(order) - 1 - i
		}
	}
	return order
}

// liveConds are the conditions of route s that are not the constant 1, and
// whether one is the constant 0 (s is never routed).
func (g *gosrc) liveConds(s route) (conds []int32, never bool) {
	for _, c := range s.conds {
		switch {
		case g.isZero(c):
			return nil, true
		case !g.s.konst[c]: // (a constant condition is 1)
			conds = append(conds, c)
		}
	}
	return conds, false
}

// scatter writes crossbar cb's statements.
func (g *gosrc) scatter(cb *crossbar) {
	n := 1 << cb.width
	if cb.priority == 0 {
		g.p("\t{\n\t\tvar o [%d]uint64\n", n)
	} else {
		g.p("\t{\n\t\tvar o [%d]uint64 // entries %d on: the sources not routed\n", 2*n, n)
	}
	for _, i := range cb.writeOrder() {
		s := cb.sources[i]
		slots, never := g.liveConds(s)
		if never {
			continue
		}
		var conds []string
		for _, c := range slots {
			conds = append(conds, g.ref(c))
		}
		index := g.index(s.fields)
		switch {
		case cb.priority == 0 && len(conds) == 0:
			g.p("\t\to[%s] |= %s\n", index, g.ref(s.choice))
		case cb.priority == 0 && len(conds) == 1:
			g.p("\t\to[%s] |= %s & -%s\n", index, g.ref(s.choice), conds[0]) // (a condition is 0 or 1)
		case cb.priority == 0:
			g.p("\t\to[%s] |= %s & -(%s)\n", index, g.ref(s.choice), strings.Join(conds, " & "))
		case len(conds) == 0:
			g.p("\t\to[%s] = %s\n", index, g.ref(s.choice))
		default:
			g.p("\t\to[%s|(%s^1)<<%d] = %s\n", index, strings.Join(conds, " & "), cb.width, g.ref(s.choice))
		}
	}
	for j, x := range cb.outs { // (a key has the indices' width: it is below n)
		g.p("\t\tst[%d] = o[%d]\n", x, cb.keys[j])
	}
	g.p("\t}\n")
}

// laneScatter writes crossbar cb over the lanes, where a table indexed
// lane by lane would cost more than it saves: each source's routed index
// r (its index, or that plus 1<<width where its condition fails, which
// matches no key), then each destination k as a chain of vec.MuxEq over
// the sources in writing order (a priority crossbar: the winner's value is
// the last taken), or the OR of the sources with r == k.
func (g *gosrc) laneScatter(cb *crossbar) {
	g.p("\t{\n")
	var live []int
	for _, i := range cb.writeOrder() {
		s := cb.sources[i]
		slots, never := g.liveConds(s)
		if never {
			continue
		}
		live = append(live, i)
		var fields []string
		shift := 0
		for k := len(s.fields) - 1; k >= 0; k-- {
			f := s.fields[k]
			fields = append(fields, laneShl(g.laneMasked(g.laneRef(f.x), uint64(1)<<f.w-1), shift))
			shift += int(f.w)
		}
		if len(slots) > 0 {
			var conds []string
			for _, c := range slots {
				conds = append(conds, g.laneRef(c))
			}
			fields = append(fields, laneShl(fmt.Sprintf("vec.Xor(%s, %s)", tree("And", conds), splat(1)), shift))
		}
		g.p("\t\tr%d := %s\n", i, orTree(fields))
	}
	for j, x := range cb.outs {
		e := splat(0)
		var terms []string
		for _, i := range live {
			ch := g.laneTaken(cb.sources[i].choice)
			if cb.priority != 0 {
				e = fmt.Sprintf("vec.MuxEq(r%d, %s, %s, %s)", i, splat(cb.keys[j]), ch, e)
			} else {
				terms = append(terms, fmt.Sprintf("vec.MuxEq(r%d, %s, %s, %s)", i, splat(cb.keys[j]), ch, splat(0)))
			}
		}
		if cb.priority == 0 {
			e = orTree(terms)
		}
		g.p("\t\tvec.Store(&st[%d], %s)\n", x, e)
	}
	g.p("\t}\n")
}

// index writes the concatenation of an index's fields, each masked to its
// width.
func (g *gosrc) index(fields []field) string {
	var parts []string
	shift := uint(0)
	for k := len(fields) - 1; k >= 0; k-- {
		f := fields[k]
		part := fmt.Sprintf("%s&%#x", g.ref(f.x), uint64(1)<<f.w-1)
		if shift > 0 {
			part = fmt.Sprintf("(%s)<<%d", part, shift)
		}
		parts = append(parts, part)
		shift += f.w
	}
	slices.Reverse(parts)
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, " | ")
}
