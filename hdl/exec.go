package hdl

import (
	"math/bits"
	"unsafe"
)

// The evaluation kernel: one implementation of every operation, used by the
// simulator for each node and by Bits for each value operation. Values of at
// most 64 bits take the narrow path, a switch over flat instructions on a
// []uint64 state with one word per value. Anything wider goes through
// evalWide on word slices.

// opWide marks an instruction that runs wide[a].
const opWide = Op(NumOps)

// instr is one narrow operation: st[dst] = op(st[a], st[b], st[c]).
// Operations with operand lists (Select, OneHotSelect, Concat) keep the
// operand slots in argv[b : b+k] (and Concat their widths in argw).
// Its 32 bytes keep big programs cache friendly.
type instr struct {
	dst, a, b, c int32
	k            uint32 // shift amount, slice low bit, count
	op           Op
	aw           uint8  // width of operand a (at most 64 on this path)
	mask         uint64 // mask of the result's width (RedAnd: of the operand's)
}

// kernel is the state a program works on.
type kernel struct {
	st      []uint64
	argv    []int32
	argw    []int32
	cat     []catOperand // Concat operands as the interpreter reads them (encode)
	bits    []bitOperand // the operands of the Concat superinstructions (fuseConcats)
	decodes []decoder    // the opDecode tables (fuseDecodes)
	pieces  []catPiece   // the opCatWord operands (narrowWide)
	wide    []wideOp
	mems    [][]uint64
}

// code is an instruction as the interpreter runs it: its operation is its
// run's, and the parameters the operation needs are packed into the
// operand fields (encode), so that 16 bytes hold it, four to a cache
// line; the state and the program of a design of a few thousand
// operations then share the L1 cache.
type code struct{ dst, a, b, c int32 }

// catOperand is one operand of a Concat and the low bit it lands on: the
// operands are ORed in independently rather than shifted in one by one.
type catOperand struct {
	slot  int32
	shift uint32
}

// bitOperand is one operand of a Concat superinstruction: the operands
// of the operation it fuses, and the low bit its result lands on.
type bitOperand struct {
	a, b, c int32
	shift   uint32
}

// run is a stretch code[lo:hi] of instructions of one kind. Executing a
// run is one dispatch and a tight loop, so the cost of an unpredictable
// dispatch is shared by the whole run (Elaborate orders nodes to make runs
// long).
type run struct {
	op     Op
	lo, hi int32
}

// encode turns prog into the interpreter's runs and code. A result mask
// travels as the shift 64 - width (ones >> c), Concat operands go to
// kn.cat with their low bits.
func (kn *kernel) encode(prog []instr) ([]run, []code) {
	var runs []run
	out := make([]code, len(prog))
	for i, in := range prog {
		if n := len(runs); n > 0 && runs[n-1].op == in.op {
			runs[n-1].hi++
		} else {
			runs = append(runs, run{op: in.op, lo: int32(i), hi: int32(i + 1)})
		}
		out[i], kn.cat, kn.bits = encodeOne(in, kn.argv, kn.argw, kn.cat, kn.bits)
	}
	return runs, out
}

// encodeOne encodes in, whose operand lists are in argv and argw,
// appending a Concat's operands to cat and a Concat superinstruction's to
// fused (kernel.bits).
func encodeOne(in instr, argv, argw []int32, cat []catOperand, fused []bitOperand) (code, []catOperand, []bitOperand) {
	c := code{dst: in.dst, a: in.a}
	masked := int32(64 - bits.Len64(in.mask)) // ones >> masked is in.mask
	switch in.op {
	case OpAnd, OpOr, OpXor, OpEq, OpNe, OpLt, OpLe, OpGt, OpGe, opAndNot:
		c.b = in.b
	case OpNot, OpRedAnd:
		c.c = masked
	case OpAdd, OpSub, OpMul:
		c.b, c.c = in.b, masked
	case OpShlK, OpSlice, opSlice2:
		c.b, c.c = int32(in.k), masked
	case OpShrK:
		c.b = int32(in.k)
	case OpSraK:
		c.b, c.c = int32(in.k), int32(in.aw)|masked<<8
	case OpShl, OpShr, OpSra, OpLtS, OpLeS, OpGtS, OpGeS:
		c.b, c.c = in.b, int32(in.aw)
	case OpRepl, OpSext:
		c.b, c.c = int32(in.aw), masked
	case OpMux, opAndEq, opOrAnd, opOr3:
		c.b, c.c = in.b, in.c
	case OpSelect, opDecode:
		c.b, c.c = in.b, int32(in.k)
	case opCatWord:
		c.b = in.b
	case OpOneHot, OpMemRead:
		c.b = in.b
	case OpConcat:
		c.b, c.c = int32(len(cat)), int32(in.k)
		lo := uint32(0)
		for j := in.b + int32(in.k) - 1; j >= in.b; j-- { // the last operand is the lowest
			cat = append(cat, catOperand{slot: argv[j], shift: lo})
			lo += uint32(argw[j])
		}
	case opCatAndNot, opCatAndEq, opCatEq:
		c.b, c.c = int32(len(fused)), int32(in.k)
		lo := uint32(0)
		for j := in.b + 3*int32(in.k) - 3; j >= in.b; j -= 3 {
			fused = append(fused, bitOperand{a: argv[j], b: argv[j+1], c: argv[j+2], shift: lo})
			lo += uint32(argw[j])
		}
	}
	return c, cat, fused
}

// each stores f(in) into slot in.dst for every instruction of cs. It and
// the function literals passed to it are inlined, leaving one loop per kind.
func each(cs []code, p unsafe.Pointer, f func(in *code) uint64) {
	for i := range cs {
		in := &cs[i]
		*slotPtr(p, in.dst) = f(in)
	}
}

// lowOnes is the mask of 64 - c bits, an encoded result mask (the & 63
// spares the shift its test for counts of 64 and more).
func lowOnes(c int32) uint64 { return ^uint64(0) >> (uint32(c) & 63) }

// exec runs the code of encode over the kernel's state. The literals read
// the operand lists through kn: a local copy would stay live across the
// switch, and the register allocator reloaded such copies from the stack
// in every instruction loop, two loads an instruction.
func (kn *kernel) exec(runs []run, cs []code) {
	p := unsafe.Pointer(unsafe.SliceData(kn.st))
	for _, r := range runs {
		ps := cs[r.lo:r.hi]
		switch r.op {
		case OpNot:
			each(ps, p, func(in *code) uint64 { return ^ld(p, in.a) & lowOnes(in.c) })
		case OpAnd:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) & ld(p, in.b) })
		case OpOr:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) | ld(p, in.b) })
		case OpXor:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) ^ ld(p, in.b) })
		case OpRedAnd:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) == lowOnes(in.c)) })
		case OpRedOr:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) != 0) })
		case OpRedXor:
			each(ps, p, func(in *code) uint64 { return uint64(bits.OnesCount64(ld(p, in.a)) & 1) })
		case OpAdd:
			each(ps, p, func(in *code) uint64 { return (ld(p, in.a) + ld(p, in.b)) & lowOnes(in.c) })
		case OpSub:
			each(ps, p, func(in *code) uint64 { return (ld(p, in.a) - ld(p, in.b)) & lowOnes(in.c) })
		case OpMul:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) * ld(p, in.b) & lowOnes(in.c) })
		case OpShlK:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) << uint32(in.b) & lowOnes(in.c) })
		case OpShrK:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) >> uint32(in.b) })
		case OpSraK:
			each(ps, p, func(in *code) uint64 {
				return uint64(sext64(ld(p, in.a), int(in.c&0xff))>>uint32(in.b)) & lowOnes(in.c>>8)
			})
		case OpShl:
			each(ps, p, func(in *code) uint64 { return shl64(ld(p, in.a), ld(p, in.b), int(in.c)) })
		case OpShr:
			each(ps, p, func(in *code) uint64 { return shr64(ld(p, in.a), ld(p, in.b), int(in.c)) })
		case OpSra:
			each(ps, p, func(in *code) uint64 { return sra64(ld(p, in.a), ld(p, in.b), int(in.c)) })
		case OpEq:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) == ld(p, in.b)) })
		case OpNe:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) != ld(p, in.b)) })
		case OpLt:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) < ld(p, in.b)) })
		case OpLe:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) <= ld(p, in.b)) })
		case OpGt:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) > ld(p, in.b)) })
		case OpGe:
			each(ps, p, func(in *code) uint64 { return b2u(ld(p, in.a) >= ld(p, in.b)) })
		case OpLtS:
			each(ps, p, func(in *code) uint64 { return b2u(sext64(ld(p, in.a), int(in.c)) < sext64(ld(p, in.b), int(in.c))) })
		case OpLeS:
			each(ps, p, func(in *code) uint64 { return b2u(sext64(ld(p, in.a), int(in.c)) <= sext64(ld(p, in.b), int(in.c))) })
		case OpGtS:
			each(ps, p, func(in *code) uint64 { return b2u(sext64(ld(p, in.a), int(in.c)) > sext64(ld(p, in.b), int(in.c))) })
		case OpGeS:
			each(ps, p, func(in *code) uint64 { return b2u(sext64(ld(p, in.a), int(in.c)) >= sext64(ld(p, in.b), int(in.c))) })
		case OpMux:
			each(ps, p, func(in *code) uint64 { // branch-free: the select is data, not control
				t, f := ld(p, in.b), ld(p, in.c)
				return f ^ (t^f)&-b2u(ld(p, in.a) != 0)
			})
		case OpSelect:
			each(ps, p, func(in *code) uint64 {
				if idx := ld(p, in.a); idx < uint64(in.c) {
					return ld(p, kn.argv[in.b+int32(idx)])
				}
				return 0
			})
		case OpOneHot:
			each(ps, p, func(in *code) uint64 {
				var r uint64
				for sel := ld(p, in.a); sel != 0; sel &= sel - 1 { // the set bits (one, mostly)
					r |= ld(p, kn.argv[in.b+int32(bits.TrailingZeros64(sel))])
				}
				return r
			})
		case OpConcat:
			each(ps, p, func(in *code) uint64 {
				var r uint64
				for _, x := range kn.cat[in.b : in.b+in.c] {
					r |= ld(p, x.slot) << (x.shift & 63)
				}
				return r
			})
		case OpSlice:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) >> (uint32(in.b) & 63) & lowOnes(in.c) })
		case opCatWord:
			each(ps, p, func(in *code) uint64 {
				var r uint64
				for _, x := range kn.pieces[in.a : in.a+in.b] {
					r |= ld(p, x.slot) << (x.shl & 63) >> (x.shr & 63)
				}
				return r
			})
		case opSlice2:
			each(ps, p, func(in *code) uint64 {
				return (ld(p, in.a)>>(uint32(in.b)&63) | ld(p, in.a+1)<<((64-uint32(in.b))&63)) & lowOnes(in.c)
			})
		case OpRepl:
			each(ps, p, func(in *code) uint64 { return replicate(ld(p, in.a), uint(in.b), lowOnes(in.c)) })
		case OpZext:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) })
		case OpSext:
			each(ps, p, func(in *code) uint64 { return uint64(sext64(ld(p, in.a), int(in.b))) & lowOnes(in.c) })
		case OpMemRead:
			each(ps, p, func(in *code) uint64 { return kn.mems[in.b][ld(p, in.a)] })
		case opWide:
			for i := range ps {
				kn.wide[ps[i].a].eval()
			}
		case opAndNot:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) &^ ld(p, in.b) })
		case opAndEq:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) & b2u(ld(p, in.b) == ld(p, in.c)) })
		case opOrAnd:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a)&ld(p, in.b) | ld(p, in.c) })
		case opOr3:
			each(ps, p, func(in *code) uint64 { return ld(p, in.a) | ld(p, in.b) | ld(p, in.c) })
		case opDecode:
			for i := range ps {
				in := &ps[i]
				t := &kn.decodes[in.c]
				for _, d := range t.dsts {
					*slotPtr(p, d) = 0
				}
				if k := ld(p, in.b) - t.base; k < uint64(len(t.at)) && t.at[k] >= 0 {
					*slotPtr(p, t.at[k]) = ld(p, in.a)
				}
			}
		case opCatAndNot:
			each(ps, p, func(in *code) uint64 {
				var r uint64
				for _, x := range kn.bits[in.b : in.b+in.c] {
					r |= (ld(p, x.a) &^ ld(p, x.b)) << (x.shift & 63)
				}
				return r
			})
		case opCatAndEq:
			each(ps, p, func(in *code) uint64 {
				var r uint64
				for _, x := range kn.bits[in.b : in.b+in.c] {
					r |= ld(p, x.a) & b2u(ld(p, x.b) == ld(p, x.c)) << (x.shift & 63)
				}
				return r
			})
		case opCatEq:
			each(ps, p, func(in *code) uint64 {
				var r uint64
				for _, x := range kn.bits[in.b : in.b+in.c] {
					r |= b2u(ld(p, x.a) == ld(p, x.b)) << (x.shift & 63)
				}
				return r
			})
		}
	}
}

// operandsOf lists the slots an instruction of s's program reads; for a
// wide operation, every word of each operand: narrow instructions compute
// some of those words (opCatWord), and the fusions and compiled Go keep
// out of the state a result that nothing else is listed as reading.
func (s *Sim) operandsOf(in *instr) []int32 {
	argv := s.kn.argv
	switch in.op {
	case opWide:
		_, args := s.wideSlots(int(in.a))
		var words []int32
		for j, x := range args {
			for k := range nwords(s.kn.wide[in.a].aw[j]) {
				words = append(words, x+int32(k))
			}
		}
		return words
	case OpNot, OpRedAnd, OpRedOr, OpRedXor, OpShlK, OpShrK, OpSraK, OpSlice, OpRepl, OpZext, OpSext, OpMemRead:
		return []int32{in.a}
	case OpMux, opAndEq, opOrAnd, opOr3:
		return []int32{in.a, in.b, in.c}
	case opSlice2:
		return []int32{in.a, in.a + 1}
	case opCatWord:
		var slots []int32
		for _, x := range s.kn.pieces[in.a : in.a+in.b] {
			slots = append(slots, x.slot)
		}
		return slots
	case OpSelect, OpOneHot:
		return append([]int32{in.a}, argv[in.b:in.b+int32(in.k)]...)
	case OpConcat:
		return argv[in.b : in.b+int32(in.k)]
	case opCatAndNot, opCatAndEq, opCatEq:
		return argv[in.b : in.b+3*int32(in.k)]
	}
	return []int32{in.a, in.b}
}

// replicate is the copies of the aw-bit value v that fill mask: a bit is
// negated into all ones, wider values double their copies until full.
func replicate(v uint64, aw uint, mask uint64) uint64 {
	if aw == 1 {
		return -v & mask
	}
	for w := aw; w < 64; w *= 2 {
		v |= v << w
	}
	return v & mask
}

// ld reads state word i. Slots are checked when the program is built, so
// the hot loop skips bounds checks.
func ld(p unsafe.Pointer, i int32) uint64 { return *slotPtr(p, i) }

func slotPtr(p unsafe.Pointer, i int32) *uint64 {
	return (*uint64)(unsafe.Add(p, uintptr(uint32(i))*8))
}

// isNarrow reports whether an operation on operands of widths aw with a
// result of width w runs on the narrow path.
func isNarrow(w int, aw []int) bool {
	if w > 64 {
		return false
	}
	for _, x := range aw {
		if x > 64 {
			return false
		}
	}
	return true
}

// narrowInstr builds the instruction for a narrow operation whose operands
// sit in slots args (with widths aw) and whose result goes to slot dst. For
// operations with operand lists the caller has stored args and their widths
// at kn.argv[list:] and kn.argw[list:].
func narrowInstr(k Op, dst int32, args []int32, aw []int, width, n int, mem, list int32) instr {
	in := instr{op: k, dst: dst, k: uint32(n), mask: maskOf(width)}
	if len(args) > 0 {
		in.a, in.aw = args[0], uint8(aw[0])
	}
	switch k {
	case OpSelect, OpOneHot: // the first operand is the index or select
		in.b, in.k = list+1, uint32(len(args)-1)
	case OpConcat:
		in.b, in.k = list, uint32(len(args))
	case OpMemRead:
		in.b = mem
	case OpRedAnd:
		in.mask = maskOf(aw[0])
	default:
		if len(args) > 1 {
			in.b = args[1]
		}
		if len(args) > 2 {
			in.c = args[2]
		}
	}
	return in
}

// hasOperandList reports whether narrowInstr reads its operands from argv.
func hasOperandList(k Op) bool { return k == OpSelect || k == OpOneHot || k == OpConcat }
