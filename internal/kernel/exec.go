package kernel

import (
	"math/bits"
	"unsafe"
)

// The evaluation kernel: one implementation of every operation, used by the
// simulator for each node and by Bits for each value operation. Values of at
// most 64 bits take the narrow path, a switch over flat instructions on a
// []uint64 state with one word per value. Anything wider goes through
// evalWide on word slices.

// OpWide marks an instruction that runs wide[a].
const OpWide = Op(NumOps)

// Instr is one narrow operation: st[dst] = op(st[a], st[b], st[c]).
// Operations with operand lists (Select, OneHotSelect, Concat) keep the
// operand slots in argv[b : b+k] (and Concat their widths in argw).
// Its 32 bytes keep big programs cache friendly.
type Instr struct {
	Dst, A, B, C int32
	K            uint32 // shift amount, slice low bit, count
	Op           Op
	AW           uint8  // width of operand a (at most 64 on this path)
	Mask         uint64 // mask of the result's width (RedAnd: of the operand's)
}

// Kernel is the state a program works on.
type Kernel struct {
	St      []uint64
	Argv    []int32
	Argw    []int32
	Cat     []catOperand // Concat operands as the interpreter reads them (encode)
	Fused   []bitOperand // the operands of the Concat superinstructions (fuseConcats)
	Decodes []Decoder    // the OpDecode tables (fuseDecodes)
	Pieces  []CatPiece   // the OpCatWord operands (narrowWide)
	Wide    []WideOp
	Mems    [][]uint64
}

// Code is an instruction as the interpreter runs it: its operation is its
// run's, and the parameters the operation needs are packed into the
// operand fields (encode), so that 16 bytes hold it, four to a cache
// line; the state and the program of a design of a few thousand
// operations then share the L1 cache.
type Code struct{ dst, a, b, c int32 }

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

// Run is a stretch code[Lo:Hi] of instructions of one kind. Executing a
// run is one dispatch and a tight loop, so the cost of an unpredictable
// dispatch is shared by the whole run (Elaborate orders nodes to make runs
// long).
type Run struct {
	Op     Op
	Lo, Hi int32
}

// Encode turns prog into the interpreter's runs and code. A result mask
// travels as the shift 64 - width (ones >> c), Concat operands go to
// kn.cat with their low bits.
func (kn *Kernel) Encode(prog []Instr) ([]Run, []Code) {
	var runs []Run
	out := make([]Code, len(prog))
	for i, in := range prog {
		if n := len(runs); n > 0 && runs[n-1].Op == in.Op {
			runs[n-1].Hi++
		} else {
			runs = append(runs, Run{Op: in.Op, Lo: int32(i), Hi: int32(i + 1)})
		}
		out[i], kn.Cat, kn.Fused = encodeOne(in, kn.Argv, kn.Argw, kn.Cat, kn.Fused)
	}
	return runs, out
}

// MaxEvalArgs bounds the operands of an Eval.
const MaxEvalArgs = 8

// Eval is operation k with result width w and parameter n (a shift's
// count, a slice's low bit, a replication's count) on the values args of
// widths aw, all of at most 64 bits (IsNarrow) and at most MaxEvalArgs of
// them: the one instruction run by Exec, as the simulator runs it. It
// does not allocate.
func Eval(k Op, w, n int, args []uint64, aw []int) uint64 {
	var st [MaxEvalArgs + 1]uint64
	var slots, widths [MaxEvalArgs]int32
	for i, a := range args {
		st[i], slots[i], widths[i] = a, int32(i), int32(aw[i])
	}
	var cat [MaxEvalArgs]catOperand
	kn := Kernel{St: st[:], Argv: slots[:len(args)], Argw: widths[:len(args)]}
	var code [1]Code
	code[0], kn.Cat, _ = encodeOne(NarrowInstr(k, int32(len(args)), slots[:len(args)], aw, w, n, -1, 0), kn.Argv, kn.Argw, cat[:0], nil)
	runs := [1]Run{{Op: k, Lo: 0, Hi: 1}}
	kn.Exec(runs[:], code[:])
	return st[len(args)]
}

// encodeOne encodes in, whose operand lists are in argv and argw,
// appending a Concat's operands to cat and a Concat superinstruction's to
// fused (Kernel.Fused).
func encodeOne(in Instr, argv, argw []int32, cat []catOperand, fused []bitOperand) (Code, []catOperand, []bitOperand) {
	c := Code{dst: in.Dst, a: in.A}
	masked := int32(64 - bits.Len64(in.Mask)) // ones >> masked is in.mask
	switch in.Op {
	case OpAnd, OpOr, OpXor, OpEq, OpNe, OpLt, OpLe, OpGt, OpGe, OpAndNot:
		c.b = in.B
	case OpNot, OpRedAnd:
		c.c = masked
	case OpAdd, OpSub, OpMul:
		c.b, c.c = in.B, masked
	case OpShlK, OpSlice, OpSlice2:
		c.b, c.c = int32(in.K), masked
	case OpShrK:
		c.b = int32(in.K)
	case OpSraK:
		c.b, c.c = int32(in.K), int32(in.AW)|masked<<8
	case OpShl, OpShr, OpSra, OpLtS, OpLeS, OpGtS, OpGeS:
		c.b, c.c = in.B, int32(in.AW)
	case OpRepl, OpSext:
		c.b, c.c = int32(in.AW), masked
	case OpMux, OpAndEq, OpOrAnd, OpOr3:
		c.b, c.c = in.B, in.C
	case OpSelect, OpDecode:
		c.b, c.c = in.B, int32(in.K)
	case OpCatWord:
		c.b = in.B
	case OpOneHot, OpMemRead:
		c.b = in.B
	case OpConcat:
		c.b, c.c = int32(len(cat)), int32(in.K)
		lo := uint32(0)
		for j := in.B + int32(in.K) - 1; j >= in.B; j-- { // the last operand is the lowest
			cat = append(cat, catOperand{slot: argv[j], shift: lo})
			lo += uint32(argw[j])
		}
	case OpCatAndNot, OpCatAndEq, OpCatEq:
		c.b, c.c = int32(len(fused)), int32(in.K)
		lo := uint32(0)
		for j := in.B + 3*int32(in.K) - 3; j >= in.B; j -= 3 {
			fused = append(fused, bitOperand{a: argv[j], b: argv[j+1], c: argv[j+2], shift: lo})
			lo += uint32(argw[j])
		}
	}
	return c, cat, fused
}

// each stores f(in) into slot in.dst for every instruction of cs. It and
// the function literals passed to it are inlined, leaving one loop per kind.
func each(cs []Code, p unsafe.Pointer, f func(in *Code) uint64) {
	for i := range cs {
		in := &cs[i]
		*slotPtr(p, in.dst) = f(in)
	}
}

// lowOnes is the mask of 64 - c bits, an encoded result mask (the & 63
// spares the shift its test for counts of 64 and more).
func lowOnes(c int32) uint64 { return ^uint64(0) >> (uint32(c) & 63) }

// Exec runs the code of Encode over the kernel's state. The literals read
// the operand lists through kn: a local copy would stay live across the
// switch, and the register allocator reloaded such copies from the stack
// in every instruction loop, two loads an instruction.
func (kn *Kernel) Exec(runs []Run, cs []Code) {
	p := unsafe.Pointer(unsafe.SliceData(kn.St))
	for _, r := range runs {
		ps := cs[r.Lo:r.Hi]
		switch r.Op {
		case OpNot:
			each(ps, p, func(in *Code) uint64 { return ^ld(p, in.a) & lowOnes(in.c) })
		case OpAnd:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) & ld(p, in.b) })
		case OpOr:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) | ld(p, in.b) })
		case OpXor:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) ^ ld(p, in.b) })
		case OpRedAnd:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) == lowOnes(in.c)) })
		case OpRedOr:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) != 0) })
		case OpRedXor:
			each(ps, p, func(in *Code) uint64 { return uint64(bits.OnesCount64(ld(p, in.a)) & 1) })
		case OpAdd:
			each(ps, p, func(in *Code) uint64 { return (ld(p, in.a) + ld(p, in.b)) & lowOnes(in.c) })
		case OpSub:
			each(ps, p, func(in *Code) uint64 { return (ld(p, in.a) - ld(p, in.b)) & lowOnes(in.c) })
		case OpMul:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) * ld(p, in.b) & lowOnes(in.c) })
		case OpShlK:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) << uint32(in.b) & lowOnes(in.c) })
		case OpShrK:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) >> uint32(in.b) })
		case OpSraK:
			each(ps, p, func(in *Code) uint64 {
				return uint64(sext64(ld(p, in.a), int(in.c&0xff))>>uint32(in.b)) & lowOnes(in.c>>8)
			})
		case OpShl:
			each(ps, p, func(in *Code) uint64 { return shl64(ld(p, in.a), ld(p, in.b), int(in.c)) })
		case OpShr:
			each(ps, p, func(in *Code) uint64 { return shr64(ld(p, in.a), ld(p, in.b), int(in.c)) })
		case OpSra:
			each(ps, p, func(in *Code) uint64 { return sra64(ld(p, in.a), ld(p, in.b), int(in.c)) })
		case OpEq:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) == ld(p, in.b)) })
		case OpNe:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) != ld(p, in.b)) })
		case OpLt:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) < ld(p, in.b)) })
		case OpLe:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) <= ld(p, in.b)) })
		case OpGt:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) > ld(p, in.b)) })
		case OpGe:
			each(ps, p, func(in *Code) uint64 { return FromBool(ld(p, in.a) >= ld(p, in.b)) })
		case OpLtS:
			each(ps, p, func(in *Code) uint64 {
				return FromBool(sext64(ld(p, in.a), int(in.c)) < sext64(ld(p, in.b), int(in.c)))
			})
		case OpLeS:
			each(ps, p, func(in *Code) uint64 {
				return FromBool(sext64(ld(p, in.a), int(in.c)) <= sext64(ld(p, in.b), int(in.c)))
			})
		case OpGtS:
			each(ps, p, func(in *Code) uint64 {
				return FromBool(sext64(ld(p, in.a), int(in.c)) > sext64(ld(p, in.b), int(in.c)))
			})
		case OpGeS:
			each(ps, p, func(in *Code) uint64 {
				return FromBool(sext64(ld(p, in.a), int(in.c)) >= sext64(ld(p, in.b), int(in.c)))
			})
		case OpMux:
			each(ps, p, func(in *Code) uint64 { // branch-free: the select is data, not control
				t, f := ld(p, in.b), ld(p, in.c)
				return f ^ (t^f)&-FromBool(ld(p, in.a) != 0)
			})
		case OpSelect:
			each(ps, p, func(in *Code) uint64 {
				if idx := ld(p, in.a); idx < uint64(in.c) {
					return ld(p, kn.Argv[in.b+int32(idx)])
				}
				return 0
			})
		case OpOneHot:
			each(ps, p, func(in *Code) uint64 {
				var r uint64
				for sel := ld(p, in.a); sel != 0; sel &= sel - 1 { // the set bits (one, mostly)
					r |= ld(p, kn.Argv[in.b+int32(bits.TrailingZeros64(sel))])
				}
				return r
			})
		case OpConcat:
			each(ps, p, func(in *Code) uint64 {
				var r uint64
				for _, x := range kn.Cat[in.b : in.b+in.c] {
					r |= ld(p, x.slot) << (x.shift & 63)
				}
				return r
			})
		case OpSlice:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) >> (uint32(in.b) & 63) & lowOnes(in.c) })
		case OpCatWord:
			each(ps, p, func(in *Code) uint64 {
				var r uint64
				for _, x := range kn.Pieces[in.a : in.a+in.b] {
					r |= ld(p, x.Slot) << (x.Shl & 63) >> (x.Shr & 63)
				}
				return r
			})
		case OpSlice2:
			each(ps, p, func(in *Code) uint64 {
				return (ld(p, in.a)>>(uint32(in.b)&63) | ld(p, in.a+1)<<((64-uint32(in.b))&63)) & lowOnes(in.c)
			})
		case OpRepl:
			each(ps, p, func(in *Code) uint64 { return replicate(ld(p, in.a), uint(in.b), lowOnes(in.c)) })
		case OpZext:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) })
		case OpSext:
			each(ps, p, func(in *Code) uint64 { return uint64(sext64(ld(p, in.a), int(in.b))) & lowOnes(in.c) })
		case OpMemRead:
			each(ps, p, func(in *Code) uint64 { return kn.Mems[in.b][ld(p, in.a)] })
		case OpWide:
			for i := range ps {
				kn.Wide[ps[i].a].Eval()
			}
		case OpAndNot:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) &^ ld(p, in.b) })
		case OpAndEq:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) & FromBool(ld(p, in.b) == ld(p, in.c)) })
		case OpOrAnd:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a)&ld(p, in.b) | ld(p, in.c) })
		case OpOr3:
			each(ps, p, func(in *Code) uint64 { return ld(p, in.a) | ld(p, in.b) | ld(p, in.c) })
		case OpDecode:
			for i := range ps {
				in := &ps[i]
				t := &kn.Decodes[in.c]
				for _, d := range t.Dsts {
					*slotPtr(p, d) = 0
				}
				if k := ld(p, in.b) - t.Base; k < uint64(len(t.At)) && t.At[k] >= 0 {
					*slotPtr(p, t.At[k]) = ld(p, in.a)
				}
			}
		case OpCatAndNot:
			each(ps, p, func(in *Code) uint64 {
				var r uint64
				for _, x := range kn.Fused[in.b : in.b+in.c] {
					r |= (ld(p, x.a) &^ ld(p, x.b)) << (x.shift & 63)
				}
				return r
			})
		case OpCatAndEq:
			each(ps, p, func(in *Code) uint64 {
				var r uint64
				for _, x := range kn.Fused[in.b : in.b+in.c] {
					r |= ld(p, x.a) & FromBool(ld(p, x.b) == ld(p, x.c)) << (x.shift & 63)
				}
				return r
			})
		case OpCatEq:
			each(ps, p, func(in *Code) uint64 {
				var r uint64
				for _, x := range kn.Fused[in.b : in.b+in.c] {
					r |= FromBool(ld(p, x.a) == ld(p, x.b)) << (x.shift & 63)
				}
				return r
			})
		}
	}
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

// IsNarrow reports whether an operation on operands of widths aw with a
// result of width w runs on the narrow path.
func IsNarrow(w int, aw []int) bool {
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

// NarrowInstr builds the instruction for a narrow operation whose operands
// sit in slots args (with widths aw) and whose result goes to slot dst. For
// operations with operand lists the caller has stored args and their widths
// at kn.argv[list:] and kn.argw[list:].
func NarrowInstr(k Op, dst int32, args []int32, aw []int, width, n int, mem, list int32) Instr {
	in := Instr{Op: k, Dst: dst, K: uint32(n), Mask: MaskOf(width)}
	if len(args) > 0 {
		in.A, in.AW = args[0], uint8(aw[0])
	}
	switch k {
	case OpSelect, OpOneHot: // the first operand is the index or select
		in.B, in.K = list+1, uint32(len(args)-1)
	case OpConcat:
		in.B, in.K = list, uint32(len(args))
	case OpMemRead:
		in.B = mem
	case OpRedAnd:
		in.Mask = MaskOf(aw[0])
	default:
		if len(args) > 1 {
			in.B = args[1]
		}
		if len(args) > 2 {
			in.C = args[2]
		}
	}
	return in
}

// HasOperandList reports whether NarrowInstr reads its operands from argv.
func HasOperandList(k Op) bool { return k == OpSelect || k == OpOneHot || k == OpConcat }
