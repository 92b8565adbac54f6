package sim

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"
)

// Decoded enables in compiled Go. A register file written one line a cycle
// loads line k on an enable such as
//
//	en_k = a | b & (x == k) | c & (y == k) & (w == 1)
//
// (a: reset or a clear of every line, b and c: a write and a read hit
// that touch line x or y): a line's terms each AND the line's decoded
// index with conditions all lines share. Elaboration gives each line its
// compares, ANDs and ORs: the 256 sets of elastic-warpmask's history cache
// cost 256 of each on every cycle, though few lines load unless a holds.
// Compiled Go computes a group's enables as one table of bits instead,
// every bit when a holds, and bit x when b holds, bit y when c and w == 1
// hold,
//
//	dec = -a (every word);  dec[x>>6] |= b << (x&63);  dec[y>>6] |= ...
//
// and each register load tests its line's bit. Decoded are the enables
// that only register loads read, whose every term's index is compared
// with the line's key, in groups of at least minDecoded lines on indices
// of at most maxDecodedBits bits (the table has a bit for every value an
// index takes).
type decoder struct {
	id    int
	terms []enableTerm // the decoded terms and those of every line (a)
	words int          // the table's length, a power of two
}

// enableTerm is an AND of factors, ANDed with x == the line's key when
// x >= 0 (x of xw bits).
type enableTerm struct {
	x       int32
	xw      int
	factors []factor
}

// factor is an operand of a term's AND: a slot, or (when slot < 0) x ==
// key, x of w bits. A line's comparisons are its own (sim's compile
// merges none), so they are told apart by what they compare.
type factor struct {
	slot, x int32
	key     uint64
	w       int
}

const (
	minDecoded     = 16
	maxDecodedBits = 12
	maxTerms       = 16 // ORed into one enable, each of at most maxTerms factors
)

// operands are the slots the decoder's table reads.
func (d *decoder) operands() []int32 {
	var xs []int32
	for _, t := range d.terms {
		if t.x >= 0 {
			xs = append(xs, t.x)
		}
		for _, f := range t.factors {
			if f.slot >= 0 {
				xs = append(xs, f.slot)
			} else {
				xs = append(xs, f.x)
			}
		}
	}
	return xs
}

// decodedLine is an enable a decoder's table holds: its bit key.
type decodedLine struct {
	dec *decoder
	key uint64
}

// decodeEnables finds the groups of decoded register enables (after
// loadEnables) and computes each group's table at the place of its first
// enable; what only the enables read, their compares, ANDs and ORs, goes.
func (g *gosrc) decodeEnables() {
	producer := map[int32]*kernel.Instr{}
	for i := range g.prog {
		producer[g.prog[i].Dst] = &g.prog[i]
	}
	enables := map[int32]bool{}
	for _, r := range g.regs {
		enables[r.en] = true
	}
	readElsewhere := g.portReads(true) // slots read other than as a register's enable
	for i := range g.prog {
		for _, x := range g.operands(&g.prog[i]) {
			readElsewhere[x] = true
		}
	}
	for _, r := range g.regs {
		for j := range r.words {
			readElsewhere[r.d+j] = true
		}
	}
	type line struct {
		en    int32
		key   uint64
		terms []enableTerm
	}
	groups := map[string][]line{} // by the lines' terms, in program order
	var order []string
	for i := range g.prog {
		en := g.prog[i].Dst
		if !enables[en] || readElsewhere[en] {
			continue
		}
		terms, key, ok := g.lineTerms(en, producer)
		if !ok {
			continue
		}
		sig := fmt.Sprint(terms)
		if groups[sig] == nil {
			order = append(order, sig)
		}
		groups[sig] = append(groups[sig], line{en, key, terms})
	}
	g.decoderAt, g.decoded = map[int32]*decoder{}, map[int32]decodedLine{}
	for _, sig := range order {
		lines := groups[sig]
		if len(lines) < minDecoded {
			continue
		}
		width := 0
		for _, t := range lines[0].terms {
			width = max(width, t.xw)
		}
		dec := &decoder{id: len(g.decoders), terms: lines[0].terms, words: max(1, (1<<width)/64)}
		g.decoders = append(g.decoders, dec)
		g.decoderAt[lines[0].en] = dec
		for _, l := range lines {
			g.decoded[l.en] = decodedLine{dec, l.key}
		}
	}
	g.dropUnread()
}

// lineTerms takes enable en apart into its terms, an OR of ANDs, each
// decoded by its widest comparison of an index with a constant, the key,
// when it has one; every decoded term must have the same key.
func (g *gosrc) lineTerms(en int32, producer map[int32]*kernel.Instr) (terms []enableTerm, key uint64, ok bool) {
	var split func(y int32, k hdl.Op, out *[]int32) bool // y's operands through k's of one bit
	split = func(y int32, k hdl.Op, out *[]int32) bool {
		if in := producer[y]; in != nil && in.Op == k && in.Mask == 1 {
			return split(in.A, k, out) && split(in.B, k, out)
		}
		*out = append(*out, y)
		return len(*out) <= maxTerms
	}
	var leaves []int32
	if !split(en, hdl.OpOr, &leaves) {
		return nil, 0, false
	}
	decoded := false
	for _, leaf := range leaves {
		var ys []int32
		if !split(leaf, hdl.OpAnd, &ys) {
			return nil, 0, false
		}
		t, widest := enableTerm{x: -1}, -1
		for _, y := range ys {
			f := g.factorOf(y, producer)
			if f.slot < 0 && f.w <= maxDecodedBits && (widest < 0 || f.w > t.factors[widest].w) {
				widest = len(t.factors)
			}
			t.factors = append(t.factors, f)
		}
		if widest >= 0 {
			f := t.factors[widest]
			if decoded && f.key != key {
				return nil, 0, false
			}
			t.x, t.xw, key, decoded = f.x, f.w, f.key, true
			t.factors = slices.Delete(t.factors, widest, widest+1)
		}
		slices.SortFunc(t.factors, func(a, b factor) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		terms = append(terms, t)
	}
	slices.SortFunc(terms, func(a, b enableTerm) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return terms, key, decoded
}

// factorOf is slot y as a factor: a comparison of an index with a
// constant, or the slot.
func (g *gosrc) factorOf(y int32, producer map[int32]*kernel.Instr) factor {
	konst := func(z int32) bool { return g.s.konst[z] }
	if in := producer[y]; in != nil && in.Op == hdl.OpEq {
		x, k := in.A, in.B
		if konst(x) {
			x, k = k, x
		}
		if !konst(x) && konst(k) {
			return factor{slot: -1, x: x, key: g.s.kn.St[k], w: int(in.AW)}
		}
	}
	return factor{slot: y, x: -1}
}

// decode writes the statements of decoder d's table.
func (g *gosrc) decode(d *decoder) {
	var every []string
	for _, t := range d.terms {
		if t.x < 0 {
			every = append(every, g.conjunction(t.factors))
		}
	}
	fill := "0"
	if len(every) > 0 {
		fill = "-(" + strings.Join(every, " | ") + ")"
	}
	g.p("\tfor j := range dec%d {\n\t\tdec%d[j] = %s\n\t}\n", d.id, d.id, fill)
	for _, t := range d.terms {
		if t.x >= 0 {
			x := g.ref(t.x)
			g.p("\tdec%d[%s>>6&%d] |= (%s) << (%s & 63)\n", d.id, x, d.words-1, g.conjunction(t.factors), x)
		}
	}
}

// conjunction is the AND of factors fs, 1 for none.
func (g *gosrc) conjunction(fs []factor) string {
	if len(fs) == 0 {
		return "1"
	}
	parts := make([]string, len(fs))
	for j, f := range fs {
		if f.slot >= 0 {
			parts[j] = g.ref(f.slot)
		} else {
			parts[j] = fmt.Sprintf("FromBool(%s == %#x)", g.ref(f.x), f.key)
		}
	}
	return strings.Join(parts, " & ")
}

// enabled is the condition that enable slot en holds (in the compiled
// streams, a decoded one in some lane).
func (g *gosrc) enabled(en int32) string {
	if l, ok := g.decoded[en]; ok {
		table := fmt.Sprintf("dec%d", l.dec.id)
		if g.laneBits != 0 {
			table = fmt.Sprintf("d.lines%d", l.dec.id)
		}
		return fmt.Sprintf("%s[%d]&%#x != 0", table, l.key>>6, uint64(1)<<(l.key&63))
	}
	return fmt.Sprintf("st[%d] != 0", en)
}

// The compiled streams decode the same enables, lane by lane: each lane
// has its own index. Eval stores, where compiled Go computes its table,
// the terms every line shares and each decoded term's index and
// conditions, and a table of the lines some lane loads: every line when a
// lane holds a shared term or reset, else the line of each lane's decoded
// terms whose conditions hold (laneDecode). A line's next values are
// computed (sinkIntoEnables), and in Step its enable and its registers'
// loads, only under its bit: a few lines a term of 16 or 8 lanes.

// decodedTerms is the number of d's terms that compare an index.
func (d *decoder) decodedTerms() int {
	n := 0
	for _, t := range d.terms {
		if t.x >= 0 {
			n++
		}
	}
	return n
}

// laneDecode writes the statements that store decoder d's terms into
// d.dec<id> (the OR of the shared terms, then each decoded term's index
// and the AND of its conditions) and its table of lines into
// d.lines<id>.
func (g *gosrc) laneDecode(d *decoder) {
	var every []string
	at := 1
	for _, t := range d.terms {
		if t.x < 0 {
			every = append(every, g.laneConjunction(t.factors))
			continue
		}
		g.p("\tvec.Store(&d.dec%d[%d], %s)\n", d.id, at, g.laneRef(t.x))
		g.p("\tvec.Store(&d.dec%d[%d], %s)\n", d.id, at+1, g.laneConjunction(t.factors))
		at += 2
	}
	g.p("\tvec.Store(&d.dec%d[0], %s)\n", d.id, orTree(every))
	all := fmt.Sprintf("vec.NonZero(vec.Load(&d.dec%d[0])) != 0", d.id)
	if g.s.rst >= 0 {
		all += fmt.Sprintf(" || vec.NonZero(vec.Load(&st[%d])) != 0", g.s.rst)
	}
	g.p("\tif %s {\n\t\tfor j := range d.lines%d {\n\t\t\td.lines%d[j] = ^uint64(0)\n\t\t}\n\t} else {\n\t\tclear(d.lines%d[:])\n", all, d.id, d.id, d.id)
	g.p("\t\tfor t := 1; t < len(d.dec%d); t += 2 { // (a term's conditions are 0 or 1 in a lane)\n\t\t\tfor l := range vec.N {\n\t\t\t\tx := uint64(d.dec%d[t][l])\n", d.id, d.id)
	g.p("\t\t\t\td.lines%d[x>>6&%d] |= uint64(d.dec%d[t+1][l]) << (x & 63)\n\t\t\t}\n\t\t}\n\t}\n", d.id, d.words-1, d.id)
}

// laneConjunction is the vector AND of factors fs, 1 for none.
func (g *gosrc) laneConjunction(fs []factor) string {
	if len(fs) == 0 {
		return splat(1)
	}
	parts := make([]string, len(fs))
	for j, f := range fs {
		if f.slot >= 0 {
			parts[j] = g.laneRef(f.slot)
		} else {
			parts[j] = fmt.Sprintf("vec.Eq(%s, %s)", g.laneRef(f.x), splat(f.key))
		}
	}
	return tree("And", parts)
}

// laneLineEnable is the vector enable of decoded line l: the shared
// terms, or a decoded term whose index is the line's key and whose
// conditions hold.
func (g *gosrc) laneLineEnable(l decodedLine) string {
	terms := []string{fmt.Sprintf("vec.Load(&d.dec%d[0])", l.dec.id)}
	for at := 1; at < 1+2*l.dec.decodedTerms(); at += 2 {
		terms = append(terms, fmt.Sprintf("vec.And(vec.Eq(vec.Load(&d.dec%d[%d]), %s), vec.Load(&d.dec%d[%d]))", l.dec.id, at, splat(l.key), l.dec.id, at+1))
	}
	return orTree(terms)
}
