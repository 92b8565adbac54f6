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
	k     Op
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
	case OpNot:
		wNot(d, a[0], o.width)
	case OpAnd:
		wAnd(d, a[0], a[1])
	case OpOr:
		wOr(d, a[0], a[1])
	case OpXor:
		wXor(d, a[0], a[1])
	case OpRedAnd:
		d[0] = b2u(wAllOnes(a[0], o.aw[0]))
	case OpRedOr:
		d[0] = b2u(!wIsZero(a[0]))
	case OpRedXor:
		d[0] = wParity(a[0])
	case OpAdd:
		wAdd(d, a[0], a[1], o.width)
	case OpSub:
		wSub(d, a[0], a[1], o.width)
	case OpMul:
		wMul(d, a[0], a[1], o.width)
	case OpShlK:
		wShl(d, a[0], uint64(o.n), o.width)
	case OpShrK:
		wShr(d, a[0], uint64(o.n), o.width)
	case OpSraK:
		wSra(d, a[0], uint64(o.n), o.width)
	case OpShl:
		wShl(d, a[0], shiftAmount(a[1]), o.width)
	case OpShr:
		wShr(d, a[0], shiftAmount(a[1]), o.width)
	case OpSra:
		wSra(d, a[0], shiftAmount(a[1]), o.width)
	case OpEq:
		d[0] = b2u(wCmp(a[0], a[1]) == 0)
	case OpNe:
		d[0] = b2u(wCmp(a[0], a[1]) != 0)
	case OpLt:
		d[0] = b2u(wCmp(a[0], a[1]) < 0)
	case OpLe:
		d[0] = b2u(wCmp(a[0], a[1]) <= 0)
	case OpGt:
		d[0] = b2u(wCmp(a[0], a[1]) > 0)
	case OpGe:
		d[0] = b2u(wCmp(a[0], a[1]) >= 0)
	case OpLtS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) < 0)
	case OpLeS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) <= 0)
	case OpGtS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) > 0)
	case OpGeS:
		d[0] = b2u(wCmpS(a[0], a[1], o.aw[0]) >= 0)
	case OpMux:
		if !wIsZero(a[0]) {
			copy(d, a[1])
		} else {
			copy(d, a[2])
		}
	case OpSelect:
		if idx := shiftAmount(a[0]); idx < uint64(len(a)-1) {
			copy(d, a[1+idx])
		} else {
			wZero(d)
		}
	case OpOneHot:
		wZero(d)
		for j, c := range a[1:] {
			if bitOf(a[0], j) != 0 {
				wOr(d, d, c)
			}
		}
	case OpConcat:
		wZero(d)
		off := o.width
		for j, p := range a {
			off -= o.aw[j]
			insert(d, p, off, o.aw[j])
		}
	case OpSlice:
		extract(d, a[0], o.n, o.width)
	case OpRepl:
		wZero(d)
		for j := range o.n {
			insert(d, a[0], j*o.aw[0], o.aw[0])
		}
	case OpZext:
		wZero(d)
		copy(d, a[0])
	case OpSext:
		wZero(d)
		copy(d, a[0])
		if bitOf(a[0], o.aw[0]-1) != 0 {
			fillOnes(d, o.aw[0], o.width)
		}
	case OpMemRead:
		ew := len(d)
		addr := int(a[0][0])
		copy(d, o.mem[addr*ew:(addr+1)*ew])
	}
}
