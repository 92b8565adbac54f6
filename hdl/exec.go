package hdl

import "math/bits"

// The evaluation kernel: one implementation of every operation, used by the
// simulator for each node and by Bits for each value operation. Values of at
// most 64 bits take the narrow path, a switch over flat instructions on a
// []uint64 state with one word per value. Anything wider goes through
// evalWide on word slices.

// opWide marks an instruction that runs wide[a].
const opWide = kind(numKinds)

// instr is one narrow operation: st[dst] = op(st[a], st[b], st[c]).
// Operations with operand lists (Select, OneHotSelect, Concat) keep the
// operand slots in argv[b : b+k] (and Concat their widths in argw).
type instr struct {
	op      kind
	dst     int32
	a, b, c int32
	k       uint32 // shift amount, slice low bit, count
	aw      uint32 // width of operand a
	mask    uint64 // mask of the result's width (RedAnd: of the operand's)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// kernel is the state one run of instructions works on.
type kernel struct {
	st   []uint64
	argv []int32
	argw []int32
	wide []wideOp
	mems [][]uint64
}

// exec runs prog in order over the kernel's state.
func (kn *kernel) exec(prog []instr) {
	st, argv := kn.st, kn.argv
	for i := range prog {
		in := &prog[i]
		var r uint64
		switch in.op {
		case kNot:
			r = ^st[in.a] & in.mask
		case kAnd:
			r = st[in.a] & st[in.b]
		case kOr:
			r = st[in.a] | st[in.b]
		case kXor:
			r = st[in.a] ^ st[in.b]
		case kRedAnd:
			r = b2u(st[in.a] == in.mask)
		case kRedOr:
			r = b2u(st[in.a] != 0)
		case kRedXor:
			r = uint64(bits.OnesCount64(st[in.a]) & 1)
		case kAdd:
			r = (st[in.a] + st[in.b]) & in.mask
		case kSub:
			r = (st[in.a] - st[in.b]) & in.mask
		case kMul:
			r = st[in.a] * st[in.b] & in.mask
		case kShlK:
			r = st[in.a] << in.k & in.mask
		case kShrK:
			r = st[in.a] >> in.k
		case kSraK:
			r = uint64(sext64(st[in.a], int(in.aw))>>in.k) & in.mask
		case kShl:
			r = shl64(st[in.a], st[in.b], int(in.aw))
		case kShr:
			r = shr64(st[in.a], st[in.b], int(in.aw))
		case kSra:
			r = sra64(st[in.a], st[in.b], int(in.aw))
		case kEq:
			r = b2u(st[in.a] == st[in.b])
		case kNe:
			r = b2u(st[in.a] != st[in.b])
		case kLt:
			r = b2u(st[in.a] < st[in.b])
		case kLe:
			r = b2u(st[in.a] <= st[in.b])
		case kGt:
			r = b2u(st[in.a] > st[in.b])
		case kGe:
			r = b2u(st[in.a] >= st[in.b])
		case kLtS:
			r = b2u(sext64(st[in.a], int(in.aw)) < sext64(st[in.b], int(in.aw)))
		case kLeS:
			r = b2u(sext64(st[in.a], int(in.aw)) <= sext64(st[in.b], int(in.aw)))
		case kGtS:
			r = b2u(sext64(st[in.a], int(in.aw)) > sext64(st[in.b], int(in.aw)))
		case kGeS:
			r = b2u(sext64(st[in.a], int(in.aw)) >= sext64(st[in.b], int(in.aw)))
		case kMux:
			if st[in.a] != 0 {
				r = st[in.b]
			} else {
				r = st[in.c]
			}
		case kSelect:
			if idx := st[in.a]; idx < uint64(in.k) {
				r = st[argv[in.b+int32(idx)]]
			}
		case kOneHot:
			sel := st[in.a]
			for j := range int32(in.k) {
				if sel>>uint(j)&1 != 0 {
					r |= st[argv[in.b+j]]
				}
			}
		case kConcat:
			for j := in.b; j < in.b+int32(in.k); j++ {
				r = r<<uint(kn.argw[j]) | st[argv[j]]
			}
		case kSlice:
			r = st[in.a] >> in.k & in.mask
		case kRepl:
			v := st[in.a]
			for range in.k {
				r = r<<in.aw | v
			}
		case kZext:
			r = st[in.a]
		case kSext:
			r = uint64(sext64(st[in.a], int(in.aw))) & in.mask
		case kMemRead:
			r = kn.mems[in.b][st[in.a]]
		case opWide:
			kn.wide[in.a].eval()
			continue
		}
		st[in.dst] = r
	}
}

// wideOp is one operation with an operand or result wider than 64 bits.
// Its slices are views into the simulator state (or into Bits values).
type wideOp struct {
	k     kind
	width int // result width
	n     int // shift amount, slice low bit, replication count
	dst   []uint64
	args  [][]uint64
	aw    []int // operand widths
	mem   []uint64
}

func (o *wideOp) eval() {
	d, a := o.dst, o.args
	switch o.k {
	case kNot:
		wNot(d, a[0], o.width)
	case kAnd:
		wAnd(d, a[0], a[1])
	case kOr:
		wOr(d, a[0], a[1])
	case kXor:
		wXor(d, a[0], a[1])
	case kRedAnd:
		d[0] = b2u(wAllOnes(a[0], o.aw[0]))
	case kRedOr:
		d[0] = b2u(!wIsZero(a[0]))
	case kRedXor:
		d[0] = wParity(a[0])
	case kAdd:
		wAdd(d, a[0], a[1], o.width)
	case kSub:
		wSub(d, a[0], a[1], o.width)
	case kMul:
		wMul(d, a[0], a[1], o.width)
	case kShlK:
		wShl(d, a[0], uint64(o.n), o.width)
	case kShrK:
		wShr(d, a[0], uint64(o.n), o.width)
	case kSraK:
		wSra(d, a[0], uint64(o.n), o.width)
	case kShl:
		wShl(d, a[0], shiftAmount(a[1]), o.width)
	case kShr:
		wShr(d, a[0], shiftAmount(a[1]), o.width)
	case kSra:
		wSra(d, a[0], shiftAmount(a[1]), o.width)
	case kEq:
		d[0] = b2u(wCmp(a[0], a[1]) == 0)
	case kNe:
		d[0] = b2u(wCmp(a[0], a[1]) != 0)
	case kLt:
		d[0] = b2u(wCmp(a[0], a[1]) < 0)
	case kLe:
		d[0] = b2u(wCmp(a[0], a[1]) <= 0)
	case kGt:
		d[0] = b2u(wCmp(a[0], a[1]) > 0)
	case kGe:
		d[0] = b2u(wCmp(a[0], a[1]) >= 0)
	case kLtS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) < 0)
	case kLeS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) <= 0)
	case kGtS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) > 0)
	case kGeS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) >= 0)
	case kMux:
		if !wIsZero(a[0]) {
			copy(d, a[1])
		} else {
			copy(d, a[2])
		}
	case kSelect:
		if idx := shiftAmount(a[0]); idx < uint64(len(a)-1) {
			copy(d, a[1+idx])
		} else {
			wZero(d)
		}
	case kOneHot:
		wZero(d)
		for j, c := range a[1:] {
			if bitOf(a[0], j) != 0 {
				wOr(d, d, c)
			}
		}
	case kConcat:
		wZero(d)
		off := o.width
		for j, p := range a {
			off -= o.aw[j]
			insert(d, p, off, o.aw[j])
		}
	case kSlice:
		extract(d, a[0], o.n, o.width)
	case kRepl:
		wZero(d)
		for j := range o.n {
			insert(d, a[0], j*o.aw[0], o.aw[0])
		}
	case kZext:
		wZero(d)
		copy(d, a[0])
	case kSext:
		wZero(d)
		copy(d, a[0])
		if bitOf(a[0], o.aw[0]-1) != 0 {
			fillOnes(d, o.aw[0], o.width)
		}
	case kMemRead:
		ew := len(d)
		addr := int(a[0][0])
		copy(d, o.mem[addr*ew:(addr+1)*ew])
	}
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
func narrowInstr(k kind, dst int32, args []int32, aw []int, width, n int, mem, list int32) instr {
	in := instr{op: k, dst: dst, k: uint32(n), mask: maskOf(width)}
	if len(args) > 0 {
		in.a, in.aw = args[0], uint32(aw[0])
	}
	switch k {
	case kSelect, kOneHot: // the first operand is the index or select
		in.b, in.k = list+1, uint32(len(args)-1)
	case kConcat:
		in.b, in.k = list, uint32(len(args))
	case kMemRead:
		in.b = mem
	case kRedAnd:
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
func hasOperandList(k kind) bool { return k == kSelect || k == kOneHot || k == kConcat }
