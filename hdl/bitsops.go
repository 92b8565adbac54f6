package hdl

import (
	"math/bits"

	"github.com/parmem/parmem/internal/kernel"
)

// Operations on values. Each mirrors the Signal operation of the same name
// (same widths, same result) and runs through the simulator's own kernel,
// so a behavioral model written with Bits and the hardware built with
// Signals cannot disagree about what an operation means. Values of at most
// 64 bits do not allocate.
//
// Operands of the wrong width make the result invalid (IsValid false), like
// a NaN: operations on invalid values stay invalid.

// maxStackArgs bounds the operands that the allocation-free path handles.
const maxStackArgs = kernel.MaxEvalArgs

// apply evaluates operation k with result width w and parameter n.
func apply(k Op, w, n int, args ...Bits) Bits {
	if checkWidth(w) != nil || len(args) > maxStackArgs {
		return Bits{}
	}
	var awBuf [maxStackArgs]int
	aw := awBuf[:0]
	for _, a := range args {
		if !a.IsValid() {
			return Bits{}
		}
		aw = append(aw, a.width)
	}
	if !kernel.IsNarrow(w, aw) {
		return applyWide(k, w, n, aw, append([]Bits(nil), args...))
	}
	var vals [maxStackArgs]uint64
	for i, a := range args {
		vals[i] = a.lo
	}
	return Bits{width: w, lo: kernel.Eval(k, w, n, vals[:len(args)], aw)}
}

// applyWide is apply for operations with a value wider than 64 bits; it
// owns args (a copy), so the narrow path's operands stay on the stack.
func applyWide(k Op, w, n int, aw []int, args []Bits) Bits {
	r := Zero(w)
	op := kernel.WideOp{Op: k, Width: w, N: n, Dst: r.view(), AW: append([]int(nil), aw...)}
	for i := range args {
		op.Args = append(op.Args, args[i].view())
	}
	op.Eval()
	return r
}

func (b Bits) same(o Bits) bool { return b.width == o.width }

// binaryBits applies k to equal-width operands with a result of width w
// (0: the operand width).
func binaryBits(k Op, a, b Bits, w int) Bits {
	if !a.same(b) {
		return Bits{}
	}
	if w == 0 {
		w = a.width
	}
	return apply(k, w, 0, a, b)
}

// Not is the bitwise complement.
func (b Bits) Not() Bits { return apply(OpNot, b.width, 0, b) }

// And is the bitwise AND of equal-width values.
func (b Bits) And(o Bits) Bits { return binaryBits(OpAnd, b, o, 0) }

// Or is the bitwise OR of equal-width values.
func (b Bits) Or(o Bits) Bits { return binaryBits(OpOr, b, o, 0) }

// Xor is the bitwise XOR of equal-width values.
func (b Bits) Xor(o Bits) Bits { return binaryBits(OpXor, b, o, 0) }

// RedAnd is 1'b1 when every bit is 1.
func (b Bits) RedAnd() Bits { return apply(OpRedAnd, 1, 0, b) }

// RedOr is 1'b1 when any bit is 1.
func (b Bits) RedOr() Bits { return apply(OpRedOr, 1, 0, b) }

// RedXor is the parity.
func (b Bits) RedXor() Bits { return apply(OpRedXor, 1, 0, b) }

// Add is (b + o) mod 2^w.
func (b Bits) Add(o Bits) Bits { return binaryBits(OpAdd, b, o, 0) }

// Sub is (b - o) mod 2^w.
func (b Bits) Sub(o Bits) Bits { return binaryBits(OpSub, b, o, 0) }

// Mul is the full product, width(b) + width(o) bits.
func (b Bits) Mul(o Bits) Bits { return apply(OpMul, b.width+o.width, 0, b, o) }

// ShlBy shifts left by the unsigned value of amt.
func (b Bits) ShlBy(amt Bits) Bits { return apply(OpShl, b.width, 0, b, amt) }

// ShrBy shifts right (logical) by the unsigned value of amt.
func (b Bits) ShrBy(amt Bits) Bits { return apply(OpShr, b.width, 0, b, amt) }

// SraBy shifts right (arithmetic) by the unsigned value of amt.
func (b Bits) SraBy(amt Bits) Bits { return apply(OpSra, b.width, 0, b, amt) }

func amount(n uint) Bits { return Bits{width: max(1, bits.Len(n)), lo: uint64(n)} }

// Shl shifts left by n.
func (b Bits) Shl(n uint) Bits { return b.ShlBy(amount(n)) }

// Shr shifts right (logical) by n.
func (b Bits) Shr(n uint) Bits { return b.ShrBy(amount(n)) }

// Sra shifts right (arithmetic) by n.
func (b Bits) Sra(n uint) Bits { return b.SraBy(amount(n)) }

// Eq is 1'b1 when the values are equal.
func (b Bits) Eq(o Bits) Bits { return binaryBits(OpEq, b, o, 1) }

// Ne is 1'b1 when the values differ.
func (b Bits) Ne(o Bits) Bits { return binaryBits(OpNe, b, o, 1) }

// Lt is 1'b1 when b < o unsigned.
func (b Bits) Lt(o Bits) Bits { return binaryBits(OpLt, b, o, 1) }

// Le is 1'b1 when b <= o unsigned.
func (b Bits) Le(o Bits) Bits { return binaryBits(OpLe, b, o, 1) }

// Gt is 1'b1 when b > o unsigned.
func (b Bits) Gt(o Bits) Bits { return binaryBits(OpGt, b, o, 1) }

// Ge is 1'b1 when b >= o unsigned.
func (b Bits) Ge(o Bits) Bits { return binaryBits(OpGe, b, o, 1) }

// LtS is 1'b1 when b < o as two's complement numbers.
func (b Bits) LtS(o Bits) Bits { return binaryBits(OpLtS, b, o, 1) }

// LeS is 1'b1 when b <= o as two's complement numbers.
func (b Bits) LeS(o Bits) Bits { return binaryBits(OpLeS, b, o, 1) }

// GtS is 1'b1 when b > o as two's complement numbers.
func (b Bits) GtS(o Bits) Bits { return binaryBits(OpGtS, b, o, 1) }

// GeS is 1'b1 when b >= o as two's complement numbers.
func (b Bits) GeS(o Bits) Bits { return binaryBits(OpGeS, b, o, 1) }

// Slice returns bits hi down to lo.
func (b Bits) Slice(hi, lo int) Bits {
	if lo < 0 || hi < lo || hi >= b.width {
		return Bits{}
	}
	return apply(OpSlice, hi-lo+1, lo, b)
}

// Trunc keeps the low width bits.
func (b Bits) Trunc(width int) Bits { return b.Slice(width-1, 0) }

// Zext widens with zeros to width bits.
func (b Bits) Zext(width int) Bits {
	if width < b.width {
		return Bits{}
	}
	return apply(OpZext, width, 0, b)
}

// Sext widens with copies of the top bit to width bits.
func (b Bits) Sext(width int) Bits {
	if width < b.width {
		return Bits{}
	}
	return apply(OpSext, width, 0, b)
}

// Repl concatenates n copies.
func (b Bits) Repl(n int) Bits {
	if n < 1 || b.width == 0 || n > MaxWidth/b.width {
		return Bits{}
	}
	return apply(OpRepl, b.width*n, n, b)
}

// ConcatBits joins values, the first most significant, as Verilog {a, b}.
func ConcatBits(parts ...Bits) Bits {
	w := 0
	for _, p := range parts {
		w += p.width
	}
	if len(parts) == 0 {
		return Bits{}
	}
	return apply(OpConcat, w, 0, parts...)
}
