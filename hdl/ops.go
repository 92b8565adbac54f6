package hdl

import (
	"fmt"
	"math/bits"
)

// Operations on signals. Each checks its operands when it is called and
// records any problem, with the caller's source position, in the module;
// Elaborate then reports them all. A failed operation still returns a signal
// of the width the operation promises, so the rest of the design can be
// built and checked in the same run.

// operands finds the module the operands belong to and checks that none is
// nil and that all share it. It returns nil when no operand has a module.
func operands(pos Pos, op string, sigs ...*Signal) (*Module, bool) {
	var m *Module
	for _, s := range sigs {
		if s != nil {
			m = s.mod
			break
		}
	}
	if m == nil {
		return nil, false
	}
	ok := true
	for i, s := range sigs {
		switch {
		case s == nil:
			m.errorf(pos, "%s: operand %d is a nil signal", op, i+1)
			ok = false
		case s.mod != m:
			m.errorf(pos, "%s: operand %d belongs to module %s, operand 1 to %s; connect modules with an Instance", op, i+1, s.mod.name, m.name)
			ok = false
		}
	}
	return m, ok
}

// placeholder stands in for the result of a failed operation.
func placeholder(m *Module, pos Pos, width int) *Signal {
	width = max(1, min(width, MaxWidth))
	s := m.add(pos, OpConst, width, "")
	s.val = Zero(width)
	return s
}

// sameWidth checks that all operands have equal widths.
func sameWidth(m *Module, pos Pos, op string, sigs ...*Signal) bool {
	for _, s := range sigs[1:] {
		if s.width != sigs[0].width {
			m.errorf(pos, "%s: operand widths differ (%d and %d bits); %s", op, sigs[0].width, s.width, fixWidth(min(s.width, sigs[0].width), max(s.width, sigs[0].width)))
			return false
		}
	}
	return true
}

// binary makes a two-operand operation whose operands must have equal width
// and whose result is resultWidth bits (0 means the operand width).
func binary(pos Pos, op string, k Op, a, b *Signal, resultWidth int) *Signal {
	m, ok := operands(pos, op, a, b)
	if m == nil {
		return nil
	}
	w := resultWidth
	if w == 0 {
		w = max(a.Width(), b.Width())
	}
	if !ok || !sameWidth(m, pos, op, a, b) {
		return placeholder(m, pos, w)
	}
	return m.add(pos, k, w, "", a, b)
}

func unary(pos Pos, k Op, a *Signal, width int) *Signal {
	if a == nil {
		return nil
	}
	return a.mod.add(pos, k, width, "", a)
}

// Not is the bitwise complement.
func (a *Signal) Not() *Signal { return unary(callerPos(), OpNot, a, a.Width()) }

// And is the bitwise AND of equal-width signals.
func (a *Signal) And(b *Signal) *Signal { return binary(callerPos(), "And", OpAnd, a, b, 0) }

// Or is the bitwise OR of equal-width signals.
func (a *Signal) Or(b *Signal) *Signal { return binary(callerPos(), "Or", OpOr, a, b, 0) }

// Xor is the bitwise XOR of equal-width signals.
func (a *Signal) Xor(b *Signal) *Signal { return binary(callerPos(), "Xor", OpXor, a, b, 0) }

// RedAnd is 1 when every bit of a is 1.
func (a *Signal) RedAnd() *Signal { return unary(callerPos(), OpRedAnd, a, 1) }

// RedOr is 1 when any bit of a is 1.
func (a *Signal) RedOr() *Signal { return unary(callerPos(), OpRedOr, a, 1) }

// RedXor is the parity of a.
func (a *Signal) RedXor() *Signal { return unary(callerPos(), OpRedXor, a, 1) }

// Add is (a + b) mod 2^w for equal-width a and b of w bits. Use AddCarry
// for the carry out.
func (a *Signal) Add(b *Signal) *Signal { return binary(callerPos(), "Add", OpAdd, a, b, 0) }

// Sub is (a - b) mod 2^w for equal-width a and b of w bits. Use SubBorrow
// for the borrow out.
func (a *Signal) Sub(b *Signal) *Signal { return binary(callerPos(), "Sub", OpSub, a, b, 0) }

// AddCarry returns the w-bit sum of equal-width a and b and the carry out.
func (a *Signal) AddCarry(b *Signal) (sum, carry *Signal) {
	return widened(callerPos(), "AddCarry", OpAdd, a, b)
}

// SubBorrow returns the w-bit difference a - b and the borrow out, which is
// 1 exactly when a < b (unsigned).
func (a *Signal) SubBorrow(b *Signal) (diff, borrow *Signal) {
	return widened(callerPos(), "SubBorrow", OpSub, a, b)
}

// widened computes a (k) b one bit wider and splits off the top bit.
func widened(pos Pos, op string, k Op, a, b *Signal) (low, top *Signal) {
	m, ok := operands(pos, op, a, b)
	if m == nil {
		return nil, nil
	}
	w := max(a.Width(), b.Width())
	if !ok || !sameWidth(m, pos, op, a, b) || w+1 > MaxWidth {
		if ok && w+1 > MaxWidth {
			m.errorf(pos, "%s: %d-bit operands leave no room for the carry (max width %d)", op, w, MaxWidth)
		}
		return placeholder(m, pos, w), placeholder(m, pos, 1)
	}
	wide := m.add(pos, k, w+1, "", zext(m, pos, a, w+1), zext(m, pos, b, w+1))
	return slice(m, pos, wide, w-1, 0), slice(m, pos, wide, w, w)
}

// Mul is the full unsigned product: width(a) + width(b) bits.
func (a *Signal) Mul(b *Signal) *Signal {
	pos := callerPos()
	m, ok := operands(pos, "Mul", a, b)
	if m == nil {
		return nil
	}
	w := a.Width() + b.Width()
	if !ok || w > MaxWidth {
		if ok {
			m.errorf(pos, "Mul: product of %d and %d bits exceeds max width %d", a.width, b.width, MaxWidth)
		}
		return placeholder(m, pos, w)
	}
	return m.add(pos, OpMul, w, "", a, b)
}

// MulConst is the full unsigned product of a and the constant k:
// width(a) + bits.Len(k) bits (at least one bit for k).
func (a *Signal) MulConst(k uint64) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	kw := max(1, bits.Len64(k))
	c := a.mod.add(pos, OpConst, kw, "")
	c.val = MustU(kw, k)
	if a.width+kw > MaxWidth {
		a.mod.errorf(pos, "MulConst: product exceeds max width %d", MaxWidth)
		return placeholder(a.mod, pos, a.width)
	}
	return a.mod.add(pos, OpMul, a.width+kw, "", a, c)
}

// shiftConst makes a shift by a constant amount; amounts of at least the
// width shift everything out (Sra fills with the sign bit).
func shiftConst(pos Pos, op string, k Op, a *Signal, n int) *Signal {
	if a == nil {
		return nil
	}
	m := a.mod
	switch {
	case n < 0:
		m.errorf(pos, "%s: shift amount %d is negative", op, n)
		return placeholder(m, pos, a.width)
	case n == 0:
		return a
	case n >= a.width && k == OpSraK:
		return repl(m, pos, slice(m, pos, a, a.width-1, a.width-1), a.width)
	case n >= a.width:
		return placeholder(m, pos, a.width) // all bits shifted out: zero
	}
	s := m.add(pos, k, a.width, "", a)
	s.k = n
	return s
}

// Shl shifts left by the constant n, filling with zeros.
func (a *Signal) Shl(n int) *Signal { return shiftConst(callerPos(), "Shl", OpShlK, a, n) }

// Shr shifts right by the constant n, filling with zeros.
func (a *Signal) Shr(n int) *Signal { return shiftConst(callerPos(), "Shr", OpShrK, a, n) }

// Sra shifts right by the constant n, filling with copies of the sign bit.
func (a *Signal) Sra(n int) *Signal { return shiftConst(callerPos(), "Sra", OpSraK, a, n) }

// shiftBy makes a shift by the unsigned value of signal amt (any width).
func shiftBy(pos Pos, op string, k Op, a, amt *Signal) *Signal {
	m, ok := operands(pos, op, a, amt)
	if m == nil {
		return nil
	}
	if !ok {
		return placeholder(m, pos, a.Width())
	}
	return m.add(pos, k, a.width, "", a, amt)
}

// ShlBy shifts left by the unsigned value of amt; amounts of at least the
// width give zero.
func (a *Signal) ShlBy(amt *Signal) *Signal { return shiftBy(callerPos(), "ShlBy", OpShl, a, amt) }

// ShrBy shifts right (logical) by the unsigned value of amt.
func (a *Signal) ShrBy(amt *Signal) *Signal { return shiftBy(callerPos(), "ShrBy", OpShr, a, amt) }

// SraBy shifts right (arithmetic) by the unsigned value of amt.
func (a *Signal) SraBy(amt *Signal) *Signal { return shiftBy(callerPos(), "SraBy", OpSra, a, amt) }

// Eq is 1 when a == b.
func (a *Signal) Eq(b *Signal) *Signal { return binary(callerPos(), "Eq", OpEq, a, b, 1) }

// Ne is 1 when a != b.
func (a *Signal) Ne(b *Signal) *Signal { return binary(callerPos(), "Ne", OpNe, a, b, 1) }

// Lt is 1 when a < b as unsigned numbers.
func (a *Signal) Lt(b *Signal) *Signal { return binary(callerPos(), "Lt", OpLt, a, b, 1) }

// Le is 1 when a <= b as unsigned numbers.
func (a *Signal) Le(b *Signal) *Signal { return binary(callerPos(), "Le", OpLe, a, b, 1) }

// Gt is 1 when a > b as unsigned numbers.
func (a *Signal) Gt(b *Signal) *Signal { return binary(callerPos(), "Gt", OpGt, a, b, 1) }

// Ge is 1 when a >= b as unsigned numbers.
func (a *Signal) Ge(b *Signal) *Signal { return binary(callerPos(), "Ge", OpGe, a, b, 1) }

// LtS is 1 when a < b as two's complement numbers.
func (a *Signal) LtS(b *Signal) *Signal { return binary(callerPos(), "LtS", OpLtS, a, b, 1) }

// LeS is 1 when a <= b as two's complement numbers.
func (a *Signal) LeS(b *Signal) *Signal { return binary(callerPos(), "LeS", OpLeS, a, b, 1) }

// GtS is 1 when a > b as two's complement numbers.
func (a *Signal) GtS(b *Signal) *Signal { return binary(callerPos(), "GtS", OpGtS, a, b, 1) }

// GeS is 1 when a >= b as two's complement numbers.
func (a *Signal) GeS(b *Signal) *Signal { return binary(callerPos(), "GeS", OpGeS, a, b, 1) }

// EqConst is 1 when a equals the constant v (which must fit a's width).
func (a *Signal) EqConst(v uint64) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	b, err := U(a.width, v)
	if err != nil {
		a.mod.errorf(pos, "EqConst: %v", err)
		return placeholder(a.mod, pos, 1)
	}
	c := a.mod.add(pos, OpConst, a.width, "")
	c.val = b
	return a.mod.add(pos, OpEq, 1, "", a, c)
}

// Mux is ifTrue when the one-bit sel is 1, else ifFalse.
func Mux(sel, ifTrue, ifFalse *Signal) *Signal { return muxAt(callerPos(), sel, ifTrue, ifFalse) }

func muxAt(pos Pos, sel, ifTrue, ifFalse *Signal) *Signal {
	m, ok := operands(pos, "Mux", sel, ifTrue, ifFalse)
	if m == nil {
		return nil
	}
	w := max(ifTrue.Width(), ifFalse.Width())
	if !ok || !m.check1(pos, "Mux select", sel) || !sameWidth(m, pos, "Mux", ifTrue, ifFalse) {
		return placeholder(m, pos, w)
	}
	return m.add(pos, OpMux, w, "", sel, ifTrue, ifFalse)
}

// Select returns choices[index], or zero when index >= len(choices).
// The choices must have equal widths and be reachable by the index.
func Select(index *Signal, choices ...*Signal) *Signal {
	return nway(callerPos(), "Select", OpSelect, index, choices)
}

// OneHotSelect returns the OR of the choices whose bit in sel is 1; sel has
// one bit per choice (bit i selects choices[i]). With sel one-hot this is a
// multiplexer without a decoder.
func OneHotSelect(sel *Signal, choices ...*Signal) *Signal {
	return nway(callerPos(), "OneHotSelect", OpOneHot, sel, choices)
}

func nway(pos Pos, op string, k Op, sel *Signal, choices []*Signal) *Signal {
	all := append([]*Signal{sel}, choices...)
	m, ok := operands(pos, op, all...)
	if m == nil {
		return nil
	}
	w := 1
	for _, c := range choices {
		w = max(w, c.Width())
	}
	switch {
	case !ok:
	case len(choices) == 0:
		m.errorf(pos, "%s: no choices", op)
	case !sameWidth(m, pos, op, choices...):
	case k == OpOneHot && sel.width != len(choices):
		m.errorf(pos, "%s: select is %d bits but there are %d choices; it needs one bit per choice", op, sel.width, len(choices))
	case k == OpSelect && sel.width < 63 && len(choices) > 1<<uint(sel.width):
		m.errorf(pos, "%s: %d choices but a %d-bit index reaches only %d; widen the index or drop choices", op, len(choices), sel.width, 1<<uint(sel.width))
	default:
		return m.add(pos, k, w, "", all...)
	}
	return placeholder(m, pos, w)
}

// Concat joins signals, the first one most significant, as Verilog {a, b}.
func Concat(parts ...*Signal) *Signal { return concatAt(callerPos(), parts) }

func concatAt(pos Pos, parts []*Signal) *Signal {
	m, ok := operands(pos, "Concat", parts...)
	if m == nil {
		return nil
	}
	w := 0
	for _, p := range parts {
		w += p.Width()
	}
	switch {
	case !ok:
	case w > MaxWidth:
		m.errorf(pos, "Concat: result of %d bits exceeds max width %d", w, MaxWidth)
	case len(parts) == 1:
		return parts[0]
	default:
		return m.add(pos, OpConcat, w, "", parts...)
	}
	return placeholder(m, pos, w)
}

// Slice returns bits hi down to lo of a, as Verilog a[hi:lo].
func (a *Signal) Slice(hi, lo int) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	if lo < 0 || hi < lo || hi >= a.width {
		a.mod.errorf(pos, "Slice [%d:%d]: need %d >= hi >= lo >= 0 for a %d-bit signal", hi, lo, a.width-1, a.width)
		return placeholder(a.mod, pos, hi-lo+1)
	}
	return slice(a.mod, pos, a, hi, lo)
}

func slice(m *Module, pos Pos, a *Signal, hi, lo int) *Signal {
	if lo == 0 && hi == a.width-1 {
		return a
	}
	s := m.add(pos, OpSlice, hi-lo+1, "", a)
	s.k = lo
	return s
}

// Bit returns bit i of a.
func (a *Signal) Bit(i int) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	if i < 0 || i >= a.width {
		a.mod.errorf(pos, "Bit %d: need 0 <= i <= %d for a %d-bit signal", i, a.width-1, a.width)
		return placeholder(a.mod, pos, 1)
	}
	return slice(a.mod, pos, a, i, i)
}

// Trunc keeps the low width bits of a; width must not exceed a's.
func (a *Signal) Trunc(width int) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	if width < 1 || width > a.width {
		a.mod.errorf(pos, "Trunc(%d): need 1 <= width <= %d; use Zext or Sext to widen", width, a.width)
		return placeholder(a.mod, pos, width)
	}
	return slice(a.mod, pos, a, width-1, 0)
}

// Zext widens a to width bits with zeros; width must be at least a's.
func (a *Signal) Zext(width int) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	if !extendOK(pos, "Zext", a, width) {
		return placeholder(a.mod, pos, width)
	}
	return zext(a.mod, pos, a, width)
}

func zext(m *Module, pos Pos, a *Signal, width int) *Signal {
	if width == a.width {
		return a
	}
	return m.add(pos, OpZext, width, "", a)
}

// Sext widens a to width bits with copies of its top bit.
func (a *Signal) Sext(width int) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	if !extendOK(pos, "Sext", a, width) {
		return placeholder(a.mod, pos, width)
	}
	if width == a.width {
		return a
	}
	return a.mod.add(pos, OpSext, width, "", a)
}

func extendOK(pos Pos, op string, a *Signal, width int) bool {
	if width < a.width || width > MaxWidth {
		a.mod.errorf(pos, "%s(%d): need %d <= width <= %d; use Trunc to narrow", op, width, a.width, MaxWidth)
		return false
	}
	return true
}

// Repl concatenates n copies of a, as Verilog {n{a}}.
func (a *Signal) Repl(n int) *Signal {
	if a == nil {
		return nil
	}
	pos := callerPos()
	if n < 1 || n > MaxWidth/a.width {
		a.mod.errorf(pos, "Repl(%d): need 1 <= n <= %d for a %d-bit signal", n, MaxWidth/a.width, a.width)
		return placeholder(a.mod, pos, a.width)
	}
	return repl(a.mod, pos, a, n)
}

func repl(m *Module, pos Pos, a *Signal, n int) *Signal {
	if n == 1 {
		return a
	}
	s := m.add(pos, OpRepl, a.width*n, "", a)
	s.k = n
	return s
}

// String describes the signal for debugging.
func (s *Signal) String() string {
	if s == nil {
		return "<nil signal>"
	}
	if s.name != "" {
		return fmt.Sprintf("%s[%d] %s", s.kind, s.width, s.name)
	}
	return fmt.Sprintf("%s[%d] at %s", s.kind, s.width, s.pos)
}
