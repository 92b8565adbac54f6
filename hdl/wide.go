package hdl

// The wide path of the kernel: operations with an operand or result wider
// than 64 bits, on word slices (words.go). GoSource copies this file and
// words.go into the compiled simulator of a design that has such values,
// so the two simulators run the same code; keep both free of anything
// else of package hdl but the kinds.

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
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
