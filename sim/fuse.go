package sim

import (
	"slices"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"
)

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

// minDecode is the fewest OpAndEq outputs fuseDecodes makes a decoder of.
const minDecode = 4

// catOf is the Concat superinstruction of each operation it fuses.
var catOf = map[hdl.Op]hdl.Op{kernel.OpAndNot: kernel.OpCatAndNot, kernel.OpAndEq: kernel.OpCatAndEq, hdl.OpEq: kernel.OpCatEq}

// fused returns prog with each fusable pair as one instruction: a NOT or an
// equality whose result only one AND reads, and which nothing else can
// observe (a user's name, a port, a register's or memory port's input, a
// wide operation's operand), goes into that AND; so does an AND or an OR
// into the one OR that reads it. The
// generated names of the operations it fuses away ('_' names, which
// waveforms leave out too) can no longer be looked up.
func (s *Sim) fused(prog []kernel.Instr) []kernel.Instr {
	prog = s.narrowWide(prog)
	readers := map[int32]int{}
	for i := range prog {
		for _, x := range s.operandsOf(&prog[i]) {
			readers[x]++
		}
	}
	observable := s.observableSlots()
	gone := map[int32]bool{} // producers fused into their reader
	out := make([]kernel.Instr, 0, len(prog))
	at := map[int32]int{} // the index in out of the instruction that writes a slot
	for _, in := range prog {
		if in.Op == hdl.OpAnd || in.Op == hdl.OpOr {
			for _, pair := range [2][2]int32{{in.A, in.B}, {in.B, in.A}} {
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
		if in.Op != kernel.OpWide { // (a wide operation's result is in its views)
			at[in.Dst] = len(out)
		}
		out = append(out, in)
	}
	out = s.fuseConcats(out, gone, observable)
	kept := out[:0] // without the fused producers (an AND keeps its own dst)
	for _, in := range out {
		if !gone[in.Dst] {
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
func fusedPair(r, p kernel.Instr, other int32) (kernel.Instr, bool) {
	switch {
	case r.Op == hdl.OpAnd && p.Op == hdl.OpNot && p.Mask&r.Mask == r.Mask:
		// (A NOT narrower than the AND, widened by a Zext that shares its
		// slot, sets no bit above its width, where ^st[b] would.)
		return kernel.Instr{Op: kernel.OpAndNot, Dst: r.Dst, A: other, B: p.A, Mask: r.Mask}, true
	case r.Op == hdl.OpAnd && p.Op == hdl.OpEq:
		return kernel.Instr{Op: kernel.OpAndEq, Dst: r.Dst, A: other, B: p.A, C: p.B, Mask: r.Mask}, true
	case r.Op == hdl.OpOr && p.Op == hdl.OpAnd:
		return kernel.Instr{Op: kernel.OpOrAnd, Dst: r.Dst, A: p.A, B: p.B, C: other, Mask: r.Mask}, true
	case r.Op == hdl.OpOr && p.Op == hdl.OpOr:
		return kernel.Instr{Op: kernel.OpOr3, Dst: r.Dst, A: p.A, B: p.B, C: other, Mask: r.Mask}, true
	}
	return kernel.Instr{}, false
}

// observableSlots are the slots read other than by instructions: signals
// the user named, ports among them (Peek, waveforms, the harnesses), and
// the inputs of registers, synchronous reads and write ports; every word
// of a wide one (narrow instructions compute some, OpCatWord).
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
			mark(s.slot[i], int32(kernel.NWords(n.Width)))
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
	for _, p := range s.props {
		obs[p.slot] = true
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
func (s *Sim) fuseConcats(prog []kernel.Instr, gone, observable map[int32]bool) []kernel.Instr {
	readers := map[int32]int{}
	producer := map[int32]*kernel.Instr{}
	for i := range prog {
		in := &prog[i]
		for _, x := range s.operandsOf(in) {
			readers[x]++
		}
		if _, ok := catOf[in.Op]; ok {
			producer[in.Dst] = in
		}
	}
	zero := int32(-1)
	for x, k := range s.konst {
		if k && s.kn.St[x] == 0 {
			zero = int32(x)
			break
		}
	}
	for i := range prog {
		in := &prog[i]
		if in.Op != hdl.OpConcat {
			continue
		}
		args := s.kn.Argv[in.B : in.B+int32(in.K)]
		fusable := func(x int32, op hdl.Op) bool {
			p := producer[x]
			return p != nil && p.Op == op && readers[x] == 1 && !observable[x] && !gone[x]
		}
		var op hdl.Op
		n := 0
		for _, x := range args {
			if p := producer[x]; p != nil && fusable(x, p.Op) {
				if n == 0 {
					op = p.Op
				}
				if p.Op == op {
					n++
				}
			}
		}
		if n < 2 || 2*n < len(args) || n < len(args) && (op == hdl.OpEq || op == kernel.OpAndNot && zero < 0) {
			continue
		}
		list := int32(len(s.kn.Argv))
		for j, x := range args {
			a, b, c := x, x, x // a passed operand
			if op == kernel.OpAndNot {
				b, c = zero, zero
			}
			if fusable(x, op) {
				p := producer[x]
				a, b, c = p.A, p.B, p.C
				if op != kernel.OpAndEq {
					c = p.B
				}
				gone[x] = true
			}
			w := s.kn.Argw[in.B+int32(j)]
			s.kn.Argv = append(s.kn.Argv, a, b, c)
			s.kn.Argw = append(s.kn.Argw, w, w, w)
		}
		*in = kernel.Instr{Op: catOf[op], Dst: in.Dst, B: list, K: in.K, Mask: in.Mask}
	}
	return prog
}

// regroup keeps the runs of ANDs and of ORs that fusing broke up: a
// stretch of ANDs, or of ORs, fused or not, none of which reads another's
// result, is ordered by operation (stably), which gives one run per
// operation instead of one per change.
func (s *Sim) regroup(prog []kernel.Instr) {
	family := func(op hdl.Op) int {
		switch op {
		case hdl.OpAnd, kernel.OpAndNot, kernel.OpAndEq:
			return 1
		case hdl.OpOr, kernel.OpOrAnd, kernel.OpOr3:
			return 2
		}
		return 0
	}
	for lo := 0; lo < len(prog); {
		hi := lo + 1
		for hi < len(prog) && family(prog[lo].Op) != 0 && family(prog[hi].Op) == family(prog[lo].Op) {
			hi++
		}
		if seg := prog[lo:hi]; len(seg) > 1 && independent(s, seg) {
			slices.SortStableFunc(seg, func(x, y kernel.Instr) int { return int(x.Op) - int(y.Op) })
		}
		lo = hi
	}
}

// independent reports whether no instruction of seg reads another's result.
func independent(s *Sim, seg []kernel.Instr) bool {
	written := map[int32]bool{}
	for _, in := range seg {
		written[in.Dst] = true
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

// fuseDecodes turns each group of at least minDecode OpAndEq of one run
// that AND one enable with one index compared to distinct constants into
// an OpDecode, which clears the outputs and sets the one the index
// selects rather than comparing the index once per output: the decoded
// enables of an Array's Write under a condition, lib.AgeArray's per-set
// enables (the warp mask's history cache: 768 of its 1,797 OpAndEq a
// cycle, in three groups of 256). The run's instructions are independent,
// so the decoders go first and the rest keep their order.
func (s *Sim) fuseDecodes(prog []kernel.Instr) []kernel.Instr {
	out := make([]kernel.Instr, 0, len(prog))
	for lo := 0; lo < len(prog); {
		hi := lo + 1
		for hi < len(prog) && prog[hi].Op == prog[lo].Op {
			hi++
		}
		seg := prog[lo:hi]
		lo = hi
		if seg[0].Op != kernel.OpAndEq || len(seg) < minDecode || !independent(s, seg) {
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
			if !s.konst[in.C] || in.Mask != 1 {
				continue
			}
			constant := [3]uint64{uint64(in.A), uint64(in.B), s.kn.St[in.C]}
			key := operands{in.A, in.B, copies[constant]}
			copies[constant]++
			if groups[key] == nil {
				order = append(order, key)
			}
			groups[key] = append(groups[key], i)
		}
		decoded := make([]bool, len(seg))
		for _, key := range order {
			if t, ok := s.decoderOf(seg, groups[key]); ok {
				out = append(out, kernel.Instr{Op: kernel.OpDecode, A: key.en, B: key.idx, K: uint32(len(s.kn.Decodes)), Mask: 1})
				s.kn.Decodes = append(s.kn.Decodes, t)
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

// decoderOf is the table of the OpAndEq seg[i] for i in members, whose
// constants are distinct, when there are at least minDecode of them and
// they fill at least half of the range they span.
func (s *Sim) decoderOf(seg []kernel.Instr, members []int) (kernel.Decoder, bool) {
	if len(members) < minDecode {
		return kernel.Decoder{}, false
	}
	lo, hi := ^uint64(0), uint64(0)
	for _, i := range members {
		k := s.kn.St[seg[i].C]
		lo, hi = min(lo, k), max(hi, k)
	}
	if hi-lo >= 2*uint64(len(members)) {
		return kernel.Decoder{}, false
	}
	t := kernel.Decoder{Base: lo, At: slices.Repeat([]int32{-1}, int(hi-lo+1))}
	for _, i := range members {
		t.At[s.kn.St[seg[i].C]-lo] = seg[i].Dst
		t.Dsts = append(t.Dsts, seg[i].Dst)
	}
	return t, true
}

// narrowWide turns the wide operations whose words a few narrow
// instructions compute into those instructions, one dispatch each in a
// run rather than a call of the wide kernel: a slice of at most 64 bits
// out of a wide value (a lane's data out of a queue entry, elastic-pipe's
// 16 a cycle) reads the one word (OpSlice) or the two words (OpSlice2) it
// lies in; a Concat of narrow operands (the entry put together) is an OR
// of pieces for each of its words (OpCatWord).
func (s *Sim) narrowWide(prog []kernel.Instr) []kernel.Instr {
	out := make([]kernel.Instr, 0, len(prog))
	for _, in := range prog {
		if in.Op != kernel.OpWide {
			out = append(out, in)
			continue
		}
		o := &s.kn.Wide[in.A]
		dst, args := s.wideSlots(int(in.A))
		switch {
		case o.Op == hdl.OpSlice && o.Width <= 64:
			word, lo := int32(o.N/64), uint32(o.N%64)
			op := hdl.OpSlice
			if int(lo)+o.Width > 64 {
				op = kernel.OpSlice2
			}
			out = append(out, kernel.Instr{Op: op, Dst: dst, A: args[0] + word, K: lo, Mask: kernel.MaskOf(o.Width)})
		case o.Op == hdl.OpConcat && !slices.ContainsFunc(o.AW, func(w int) bool { return w > 64 }):
			out = append(out, s.catWords(dst, args, o.AW, o.Width)...)
		default:
			out = append(out, in)
		}
	}
	return out
}

// catWords are the OpCatWord instructions of a Concat of the narrow
// operands args (widths aw, the last the lowest) into the width-bit value
// at dst.
func (s *Sim) catWords(dst int32, args []int32, aw []int, width int) []kernel.Instr {
	var ins []kernel.Instr
	for k := range kernel.NWords(width) {
		lo, first := 0, int32(len(s.kn.Pieces))
		for j := len(args) - 1; j >= 0; j-- {
			from, to := lo, lo+aw[j] // the operand's bits in the value
			lo = to
			switch {
			case to <= 64*k || from >= 64*(k+1): // not in word k
			case from >= 64*k:
				s.kn.Pieces = append(s.kn.Pieces, kernel.CatPiece{Slot: args[j], Shl: uint32(from - 64*k)})
			default: // its high bits, from the word before
				s.kn.Pieces = append(s.kn.Pieces, kernel.CatPiece{Slot: args[j], Shr: uint32(64*k - from)})
			}
		}
		ins = append(ins, kernel.Instr{Op: kernel.OpCatWord, Dst: dst + int32(k), A: first, B: int32(len(s.kn.Pieces)) - first, Mask: ^uint64(0)})
	}
	return ins
}
