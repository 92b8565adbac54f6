package kernel

// The wide path of the kernel: operations with an operand or result wider
// than 64 bits, on word slices (words.go). sim's compiled Go copies this
// file (see Sources).

// FromBool is 1 for true and 0 for false.
func FromBool(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// WideOp is one operation with an operand or result wider than 64 bits.
// Its slices are views into the simulator state (or into Bits values).
type WideOp struct {
	Op    Op
	Width int // result width
	N     int // shift amount, slice low bit, replication count
	Dst   []uint64
	Args  [][]uint64
	AW    []int // operand widths
	Mem   []uint64
}

func (o *WideOp) Eval() {
	d, a := o.Dst, o.Args
	switch o.Op {
	case OpNot:
		wNot(d, a[0], o.Width)
	case OpAnd:
		wAnd(d, a[0], a[1])
	case OpOr:
		wOr(d, a[0], a[1])
	case OpXor:
		wXor(d, a[0], a[1])
	case OpRedAnd:
		d[0] = FromBool(wAllOnes(a[0], o.AW[0]))
	case OpRedOr:
		d[0] = FromBool(!WIsZero(a[0]))
	case OpRedXor:
		d[0] = wParity(a[0])
	case OpAdd:
		wAdd(d, a[0], a[1], o.Width)
	case OpSub:
		wSub(d, a[0], a[1], o.Width)
	case OpMul:
		wMul(d, a[0], a[1], o.Width)
	case OpShlK:
		wShl(d, a[0], uint64(o.N), o.Width)
	case OpShrK:
		wShr(d, a[0], uint64(o.N), o.Width)
	case OpSraK:
		wSra(d, a[0], uint64(o.N), o.Width)
	case OpShl:
		wShl(d, a[0], shiftAmount(a[1]), o.Width)
	case OpShr:
		wShr(d, a[0], shiftAmount(a[1]), o.Width)
	case OpSra:
		wSra(d, a[0], shiftAmount(a[1]), o.Width)
	case OpEq:
		d[0] = FromBool(WCmp(a[0], a[1]) == 0)
	case OpNe:
		d[0] = FromBool(WCmp(a[0], a[1]) != 0)
	case OpLt:
		d[0] = FromBool(WCmp(a[0], a[1]) < 0)
	case OpLe:
		d[0] = FromBool(WCmp(a[0], a[1]) <= 0)
	case OpGt:
		d[0] = FromBool(WCmp(a[0], a[1]) > 0)
	case OpGe:
		d[0] = FromBool(WCmp(a[0], a[1]) >= 0)
	case OpLtS:
		d[0] = FromBool(wCmpS(a[0], a[1], o.AW[0]) < 0)
	case OpLeS:
		d[0] = FromBool(wCmpS(a[0], a[1], o.AW[0]) <= 0)
	case OpGtS:
		d[0] = FromBool(wCmpS(a[0], a[1], o.AW[0]) > 0)
	case OpGeS:
		d[0] = FromBool(wCmpS(a[0], a[1], o.AW[0]) >= 0)
	case OpMux:
		if !WIsZero(a[0]) {
			copy(d, a[1])
		} else {
			copy(d, a[2])
		}
	case OpSelect:
		if idx := shiftAmount(a[0]); idx < uint64(len(a)-1) {
			copy(d, a[1+idx])
		} else {
			WZero(d)
		}
	case OpOneHot:
		WZero(d)
		for j, c := range a[1:] {
			if BitOf(a[0], j) != 0 {
				wOr(d, d, c)
			}
		}
	case OpConcat:
		WZero(d)
		off := o.Width
		for j, p := range a {
			off -= o.AW[j]
			insert(d, p, off, o.AW[j])
		}
	case OpSlice:
		extract(d, a[0], o.N, o.Width)
	case OpRepl:
		WZero(d)
		for j := range o.N {
			insert(d, a[0], j*o.AW[0], o.AW[0])
		}
	case OpZext:
		WZero(d)
		copy(d, a[0])
	case OpSext:
		WZero(d)
		copy(d, a[0])
		if BitOf(a[0], o.AW[0]-1) != 0 {
			FillOnes(d, o.AW[0], o.Width)
		}
	case OpMemRead:
		ew := len(d)
		addr := int(a[0][0])
		copy(d, o.Mem[addr*ew:(addr+1)*ew])
	}
}
