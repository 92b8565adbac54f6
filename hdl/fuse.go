package hdl

import "slices"

// Superinstructions: the interpreter's program fuses the commonest pairs
// of an operation and its only reader into one instruction, so that the
// pair costs one dispatch, one store and no reload. The pairs are those
// the families' designs are made of: a comparison or a NOT ANDed into a
// condition (a one-hot match, an enable, a valid qualified by a ready),
// such conditions ORed together (a sum of products, an OR tree: a hit in
// any entry, a request from any lane), and conditions, one per lane or
// entry, concatenated into a vector (SAMS's lane requests, vmshr's CAM
// matches, rsdmm's grants). GoSource and Streams keep the plain program;
// the Go compiler and the vector code fuse such pairs themselves.

// The fused operations, after opWide.
const (
	opAndNot    = opWide + 1 + iota // st[a] &^ st[b]: an AND of a NOT of b
	opAndEq                         // st[a] & (st[b] == st[c]): an AND of an equality
	opCatAndNot                     // a Concat of opAndNot results
	opCatAndEq                      // a Concat of opAndEq results
	opCatEq                         // a Concat of equalities
	opOrAnd                         // st[a] & st[b] | st[c]: an OR of an AND
	opOr3                           // st[a] | st[b] | st[c]: an OR of an OR
	opDecode                        // opAndEq of one enable and one index for many constants (kernel.decodes)
	opSlice2                        // (st[a] >> b | st[a+1] << (64 - b)) & mask, 0 < b < 64: a narrow slice across two words of a wide value
	opCatWord                       // one word of a wide Concat of narrow operands: the OR of kernel.pieces[a : a+b]
)

// catPiece is the part of a narrow operand that lands in one word of a
// wide Concat: st[slot] << shl >> shr.
type catPiece struct {
	slot     int32
	shl, shr uint32
}

// minDecode is the fewest opAndEq outputs fuseDecodes makes a decoder of.
const minDecode = 4

// decoder is an opDecode's table: outputs en & (idx == k) for the
// constants k of base..base+len(at)-1.
type decoder struct {
	base uint64
	at   []int32 // the output slot of k = base + i, -1 when none has it
	dsts []int32 // every output slot
}

// catOf is the Concat superinstruction of each operation it fuses.
var catOf = map[Op]Op{opAndNot: opCatAndNot, opAndEq: opCatAndEq, OpEq: opCatEq}

// fused returns prog with each fusable pair as one instruction: a NOT or an
// equality whose result only one AND reads, and which nothing else can
// observe (a user's name, a port, a register's or memory port's input, a
// wide operation's operand), goes into that AND; so does an AND or an OR
// into the one OR that reads it (vmshr-elastic's 4,157 instructions
// become 3,986, 0.94-0.97x time on vmshr, smm2d and the warp mask). The
// generated names of the operations it fuses away ('_' names, which
// waveforms leave out too) can no longer be looked up.
func (s *Sim) fused(prog []instr) []instr {
	prog = s.narrowWide(prog)
	readers := map[int32]int{}
	for i := range prog {
		for _, x := range s.operandsOf(&prog[i]) {
			readers[x]++
		}
	}
	observable := s.observableSlots()
	gone := map[int32]bool{} // producers fused into their reader
	out := make([]instr, 0, len(prog))
	at := map[int32]int{} // the index in out of the instruction that writes a slot
	for _, in := range prog {
		if in.op == OpAnd || in.op == OpOr {
			for _, pair := range [2][2]int32{{in.a, in.b}, {in.b, in.a}} {
				other, x := pair[0], pair[1]
				j, ok := at[x]
				if !ok || readers[x] != 1 || observable[x] {
					continue
				}
				if f, ok := fusedPair(in, out[j], other); ok {
					in, gone[x] = f, true
					break
				}
			}
		}
		if in.op != opWide { // (a wide operation's result is in its views)
			at[in.dst] = len(out)
		}
		out = append(out, in)
	}
	out = s.fuseConcats(out, gone, observable)
	kept := out[:0] // without the fused producers (an AND keeps its own dst)
	for _, in := range out {
		if !gone[in.dst] {
			kept = append(kept, in)
		}
	}
	s.regroup(kept)
	kept = s.fuseDecodes(kept)
	for name, slot := range s.byName {
		if gone[slot] {
			delete(s.byName, name)
			delete(s.width, name)
		}
	}
	return kept
}

// fusedPair is reader r with its producer p, which it reads beside
// operand other, as one superinstruction: an AND of a NOT or of an
// equality, an OR of an AND or of an OR (p as it stands in the fused
// program: a fused AND or OR is not taken in again).
func fusedPair(r, p instr, other int32) (instr, bool) {
	switch {
	case r.op == OpAnd && p.op == OpNot && p.mask&r.mask == r.mask:
		// (A NOT narrower than the AND, widened by a Zext that shares its
		// slot, sets no bit above its width, where ^st[b] would.)
		return instr{op: opAndNot, dst: r.dst, a: other, b: p.a, mask: r.mask}, true
	case r.op == OpAnd && p.op == OpEq:
		return instr{op: opAndEq, dst: r.dst, a: other, b: p.a, c: p.b, mask: r.mask}, true
	case r.op == OpOr && p.op == OpAnd:
		return instr{op: opOrAnd, dst: r.dst, a: p.a, b: p.b, c: other, mask: r.mask}, true
	case r.op == OpOr && p.op == OpOr:
		return instr{op: opOr3, dst: r.dst, a: p.a, b: p.b, c: other, mask: r.mask}, true
	}
	return instr{}, false
}

// observableSlots are the slots read other than by instructions: signals
// the user named, ports among them (Peek, waveforms, the harnesses), and
// the inputs of registers, synchronous reads and write ports; every word
// of a wide one (narrow instructions compute some, opCatWord).
func (s *Sim) observableSlots() map[int32]bool {
	obs := map[int32]bool{}
	mark := func(slot, words int32) {
		for k := range words {
			obs[slot+k] = true
		}
	}
	if s.rst >= 0 {
		obs[s.rst] = true
	}
	for i, n := range s.nl.Nodes {
		if n.Named && s.live[i] {
			mark(s.slot[i], int32(nwords(n.Width)))
		}
	}
	for _, r := range s.regs {
		mark(r.d, r.words)
		obs[r.en] = true
	}
	for _, r := range s.syncs { // (d is the address)
		obs[r.d], obs[r.en] = true, true
	}
	for _, w := range s.writes {
		mark(w.data, w.words)
		obs[w.addr], obs[w.en], obs[w.mask] = true, true, true
	}
	return obs
}

// fuseConcats fuses into a Concat the operands that are results of one
// of the operations of catOf, each read by it alone and not observable,
// when they are at least half of its operands: their operands go to
// kn.argv three at a time (a, b, c; an AND of a NOT and an equality repeat
// b), with the operation's width at each in argw. Another operand x goes
// in as an operation that passes it: x &^ 0 (with a constant zero in the
// state), x & (x == x), and not at all in a Concat of equalities.
func (s *Sim) fuseConcats(prog []instr, gone, observable map[int32]bool) []instr {
	readers := map[int32]int{}
	producer := map[int32]*instr{}
	for i := range prog {
		in := &prog[i]
		for _, x := range s.operandsOf(in) {
			readers[x]++
		}
		if _, ok := catOf[in.op]; ok {
			producer[in.dst] = in
		}
	}
	zero := int32(-1)
	for x, k := range s.konst {
		if k && s.kn.st[x] == 0 {
			zero = int32(x)
			break
		}
	}
	for i := range prog {
		in := &prog[i]
		if in.op != OpConcat {
			continue
		}
		args := s.kn.argv[in.b : in.b+int32(in.k)]
		fusable := func(x int32, op Op) bool {
			p := producer[x]
			return p != nil && p.op == op && readers[x] == 1 && !observable[x] && !gone[x]
		}
		var op Op
		n := 0
		for _, x := range args {
			if p := producer[x]; p != nil && fusable(x, p.op) {
				if n == 0 {
					op = p.op
				}
				if p.op == op {
					n++
				}
			}
		}
		if n < 2 || 2*n < len(args) || n < len(args) && (op == OpEq || op == opAndNot && zero < 0) {
			continue
		}
		list := int32(len(s.kn.argv))
		for j, x := range args {
			a, b, c := x, x, x // a passed operand
			if op == opAndNot {
				b, c = zero, zero
			}
			if fusable(x, op) {
				p := producer[x]
				a, b, c = p.a, p.b, p.c
				if op != opAndEq {
					c = p.b
				}
				gone[x] = true
			}
			w := s.kn.argw[in.b+int32(j)]
			s.kn.argv = append(s.kn.argv, a, b, c)
			s.kn.argw = append(s.kn.argw, w, w, w)
		}
		*in = instr{op: catOf[op], dst: in.dst, b: list, k: in.k, mask: in.mask}
	}
	return prog
}

// regroup keeps the runs of ANDs and of ORs that fusing broke up: a
// stretch of ANDs, or of ORs, fused or not, none of which reads another's
// result, is ordered by operation (stably), which gives one run per
// operation instead of one per change.
func (s *Sim) regroup(prog []instr) {
	family := func(op Op) int {
		switch op {
		case OpAnd, opAndNot, opAndEq:
			return 1
		case OpOr, opOrAnd, opOr3:
			return 2
		}
		return 0
	}
	for lo := 0; lo < len(prog); {
		hi := lo + 1
		for hi < len(prog) && family(prog[lo].op) != 0 && family(prog[hi].op) == family(prog[lo].op) {
			hi++
		}
		if seg := prog[lo:hi]; len(seg) > 1 && independent(s, seg) {
			slices.SortStableFunc(seg, func(x, y instr) int { return int(x.op) - int(y.op) })
		}
		lo = hi
	}
}

// independent reports whether no instruction of seg reads another's result.
func independent(s *Sim, seg []instr) bool {
	written := map[int32]bool{}
	for _, in := range seg {
		written[in.dst] = true
	}
	for i := range seg {
		for _, x := range s.operandsOf(&seg[i]) {
			if written[x] {
				return false
			}
		}
	}
	return true
}

// fuseDecodes turns each group of at least minDecode opAndEq of one run
// that AND one enable with one index compared to distinct constants into
// an opDecode, which clears the outputs and sets the one the index
// selects rather than comparing the index once per output: the decoded
// enables of an Array's Write under a condition, lib.AgeArray's per-set
// enables (the warp mask's history cache: 768 of its 1,797 opAndEq a
// cycle, in three groups of 256). The run's instructions are independent,
// so the decoders go first and the rest keep their order.
func (s *Sim) fuseDecodes(prog []instr) []instr {
	out := make([]instr, 0, len(prog))
	for lo := 0; lo < len(prog); {
		hi := lo + 1
		for hi < len(prog) && prog[hi].op == prog[lo].op {
			hi++
		}
		seg := prog[lo:hi]
		lo = hi
		if seg[0].op != opAndEq || len(seg) < minDecode || !independent(s, seg) {
			out = append(out, seg...)
			continue
		}
		// A group is the outputs of one enable and index, each constant
		// once: a constant's second output (a duplicate the netlist did
		// not share) goes to a second group.
		type operands struct {
			en, idx int32
			copy    int
		}
		groups := map[operands][]int{}
		copies := map[[3]uint64]int{}
		var order []operands
		for i, in := range seg {
			if !s.konst[in.c] || in.mask != 1 {
				continue
			}
			constant := [3]uint64{uint64(in.a), uint64(in.b), s.kn.st[in.c]}
			key := operands{in.a, in.b, copies[constant]}
			copies[constant]++
			if groups[key] == nil {
				order = append(order, key)
			}
			groups[key] = append(groups[key], i)
		}
		decoded := make([]bool, len(seg))
		for _, key := range order {
			if t, ok := s.decoderOf(seg, groups[key]); ok {
				out = append(out, instr{op: opDecode, a: key.en, b: key.idx, k: uint32(len(s.kn.decodes)), mask: 1})
				s.kn.decodes = append(s.kn.decodes, t)
				for _, i := range groups[key] {
					decoded[i] = true
				}
			}
		}
		for i, in := range seg {
			if !decoded[i] {
				out = append(out, in)
			}
		}
	}
	return out
}

// decoderOf is the table of the opAndEq seg[i] for i in members, whose
// constants are distinct, when there are at least minDecode of them and
// they fill at least half of the range they span.
func (s *Sim) decoderOf(seg []instr, members []int) (decoder, bool) {
	if len(members) < minDecode {
		return decoder{}, false
	}
	lo, hi := ^uint64(0), uint64(0)
	for _, i := range members {
		k := s.kn.st[seg[i].c]
		lo, hi = min(lo, k), max(hi, k)
	}
	if hi-lo >= 2*uint64(len(members)) {
		return decoder{}, false
	}
	t := decoder{base: lo, at: slices.Repeat([]int32{-1}, int(hi-lo+1))}
	for _, i := range members {
		t.at[s.kn.st[seg[i].c]-lo] = seg[i].dst
		t.dsts = append(t.dsts, seg[i].dst)
	}
	return t, true
}

// narrowWide turns the wide operations whose words a few narrow
// instructions compute into those instructions, one dispatch each in a
// run rather than a call of the wide kernel: a slice of at most 64 bits
// out of a wide value (a lane's data out of a queue entry, elastic-pipe's
// 16 a cycle) reads the one word (OpSlice) or the two words (opSlice2) it
// lies in; a Concat of narrow operands (the entry put together) is an OR
// of pieces for each of its words (opCatWord).
func (s *Sim) narrowWide(prog []instr) []instr {
	out := make([]instr, 0, len(prog))
	for _, in := range prog {
		if in.op != opWide {
			out = append(out, in)
			continue
		}
		o := &s.kn.wide[in.a]
		dst, args := s.wideSlots(int(in.a))
		switch {
		case o.k == OpSlice && o.width <= 64:
			word, lo := int32(o.n/64), uint32(o.n%64)
			op := OpSlice
			if int(lo)+o.width > 64 {
				op = opSlice2
			}
			out = append(out, instr{op: op, dst: dst, a: args[0] + word, k: lo, mask: maskOf(o.width)})
		case o.k == OpConcat && !slices.ContainsFunc(o.aw, func(w int) bool { return w > 64 }):
			out = append(out, s.catWords(dst, args, o.aw, o.width)...)
		default:
			out = append(out, in)
		}
	}
	return out
}

// catWords are the opCatWord instructions of a Concat of the narrow
// operands args (widths aw, the last the lowest) into the width-bit value
// at dst.
func (s *Sim) catWords(dst int32, args []int32, aw []int, width int) []instr {
	var ins []instr
	for k := range nwords(width) {
		lo, first := 0, int32(len(s.kn.pieces))
		for j := len(args) - 1; j >= 0; j-- {
			from, to := lo, lo+aw[j] // the operand's bits in the value
			lo = to
			switch {
			case to <= 64*k || from >= 64*(k+1): // not in word k
			case from >= 64*k:
				s.kn.pieces = append(s.kn.pieces, catPiece{slot: args[j], shl: uint32(from - 64*k)})
			default: // its high bits, from the word before
				s.kn.pieces = append(s.kn.pieces, catPiece{slot: args[j], shr: uint32(64*k - from)})
			}
		}
		ins = append(ins, instr{op: opCatWord, dst: dst + int32(k), a: first, b: int32(len(s.kn.pieces)) - first, mask: ^uint64(0)})
	}
	return ins
}
