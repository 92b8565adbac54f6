package hdl_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// Every operation, at widths 1, 7, 63, 64, 65, 128 and 1000, checked three
// ways on the same random operands: the hardware built with Signals and run
// by the Go simulator, the Bits value operation, and a reference written
// with math/big from the operation's definition.

var testWidths = []int{1, 7, 63, 64, 65, 128, 1000}

// opsSeed makes the operands reproducible; change it to explore.
const opsSeed = 20261121

type opCase struct {
	name string
	// operand widths for base width w
	widths func(w int) []int
	// hardware
	sig func(m *hdl.Module, a []*hdl.Signal) *hdl.Signal
	// value operation (nil when the operation has no Bits twin)
	bits func(a []hdl.Bits) hdl.Bits
	// reference: result value and width
	ref func(w int, a []*big.Int) (*big.Int, int)
}

func mask(w int) *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
}

func trunc(x *big.Int, w int) *big.Int { return new(big.Int).And(x, mask(w)) }

// signed reads a w-bit pattern as two's complement.
func signed(x *big.Int, w int) *big.Int {
	if x.Bit(w-1) == 1 {
		return new(big.Int).Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	return new(big.Int).Set(x)
}

func bit(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return big.NewInt(0)
}

func same(n int) func(int) []int {
	return func(w int) []int {
		ws := make([]int, n)
		for i := range ws {
			ws[i] = w
		}
		return ws
	}
}

func binop(name string, s func(a, b *hdl.Signal) *hdl.Signal, v func(a, b hdl.Bits) hdl.Bits, r func(w int, a, b *big.Int) (*big.Int, int)) opCase {
	return opCase{
		name: name, widths: same(2),
		sig:  func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return s(a[0], a[1]) },
		bits: func(a []hdl.Bits) hdl.Bits { return v(a[0], a[1]) },
		ref:  func(w int, a []*big.Int) (*big.Int, int) { return r(w, a[0], a[1]) },
	}
}

func cmpop(name string, s func(a, b *hdl.Signal) *hdl.Signal, v func(a, b hdl.Bits) hdl.Bits, signedCmp bool, want func(c int) bool) opCase {
	return binop(name, s, v, func(w int, a, b *big.Int) (*big.Int, int) {
		if signedCmp {
			a, b = signed(a, w), signed(b, w)
		}
		return bit(want(a.Cmp(b))), 1
	})
}

func unop(name string, resultWidth func(w int) int, s func(a *hdl.Signal) *hdl.Signal, v func(a hdl.Bits) hdl.Bits, r func(w int, a *big.Int) *big.Int) opCase {
	oc := opCase{
		name: name, widths: same(1),
		sig: func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return s(a[0]) },
		ref: func(w int, a []*big.Int) (*big.Int, int) { return r(w, a[0]), resultWidth(w) },
	}
	if v != nil {
		oc.bits = func(a []hdl.Bits) hdl.Bits { return v(a[0]) }
	}
	return oc
}

func ident(w int) int { return w }
func one(int) int     { return 1 }

// shiftConstCases shifts by constants around the interesting boundaries.
func shiftConstCases() []opCase {
	var cs []opCase
	amounts := []struct {
		label string
		k     func(w int) int
	}{
		{"0", func(int) int { return 0 }}, {"1", func(int) int { return 1 }}, {"W/2", func(w int) int { return w / 2 }},
		{"W-1", func(w int) int { return w - 1 }}, {"W", func(w int) int { return w }}, {"W+3", func(w int) int { return w + 3 }},
	}
	for _, amt := range amounts {
		k := amt.k
		cs = append(cs,
			unop("Shl"+amt.label, ident, func(a *hdl.Signal) *hdl.Signal { return a.Shl(k(a.Width())) },
				func(a hdl.Bits) hdl.Bits { return a.Shl(uint(k(a.Width()))) },
				func(w int, a *big.Int) *big.Int { return trunc(new(big.Int).Lsh(a, uint(k(w))), w) }),
			unop("Shr"+amt.label, ident, func(a *hdl.Signal) *hdl.Signal { return a.Shr(k(a.Width())) },
				func(a hdl.Bits) hdl.Bits { return a.Shr(uint(k(a.Width()))) },
				func(w int, a *big.Int) *big.Int { return new(big.Int).Rsh(a, uint(k(w))) }),
			unop("Sra"+amt.label, ident, func(a *hdl.Signal) *hdl.Signal { return a.Sra(k(a.Width())) },
				func(a hdl.Bits) hdl.Bits { return a.Sra(uint(k(a.Width()))) },
				func(w int, a *big.Int) *big.Int { return trunc(new(big.Int).Rsh(signed(a, w), uint(k(w))), w) }),
		)
	}
	return cs
}

// shiftAmountWidth is wide enough to hold amounts beyond the width.
func shiftAmountWidth(w int) int { return max(2, big.NewInt(int64(w+3)).BitLen()) }

func shiftBy(name string, s func(a, n *hdl.Signal) *hdl.Signal, v func(a, n hdl.Bits) hdl.Bits, r func(w int, a *big.Int, n uint) *big.Int, amtWidth func(int) int) opCase {
	return opCase{
		name:   name,
		widths: func(w int) []int { return []int{w, amtWidth(w)} },
		sig:    func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return s(a[0], a[1]) },
		bits:   func(a []hdl.Bits) hdl.Bits { return v(a[0], a[1]) },
		ref: func(w int, a []*big.Int) (*big.Int, int) {
			n := uint(w + 1) // any amount >= w behaves alike
			if a[1].IsUint64() && a[1].Uint64() < uint64(w) {
				n = uint(a[1].Uint64())
			}
			return r(w, a[0], n), w
		},
	}
}

func shiftByCases() []opCase {
	shl := func(w int, a *big.Int, n uint) *big.Int { return trunc(new(big.Int).Lsh(a, n), w) }
	shr := func(w int, a *big.Int, n uint) *big.Int { return new(big.Int).Rsh(a, n) }
	sra := func(w int, a *big.Int, n uint) *big.Int { return trunc(new(big.Int).Rsh(signed(a, w), n), w) }
	wideAmount := func(int) int { return 70 }
	return []opCase{
		shiftBy("ShlBy", (*hdl.Signal).ShlBy, hdl.Bits.ShlBy, shl, shiftAmountWidth),
		shiftBy("ShrBy", (*hdl.Signal).ShrBy, hdl.Bits.ShrBy, shr, shiftAmountWidth),
		shiftBy("SraBy", (*hdl.Signal).SraBy, hdl.Bits.SraBy, sra, shiftAmountWidth),
		shiftBy("ShlByWideAmount", (*hdl.Signal).ShlBy, hdl.Bits.ShlBy, shl, wideAmount),
		shiftBy("ShrByWideAmount", (*hdl.Signal).ShrBy, hdl.Bits.ShrBy, shr, wideAmount),
		shiftBy("SraByWideAmount", (*hdl.Signal).SraBy, hdl.Bits.SraBy, sra, wideAmount),
	}
}

func allOps() []opCase {
	cs := []opCase{
		unop("Not", ident, (*hdl.Signal).Not, hdl.Bits.Not, func(w int, a *big.Int) *big.Int { return new(big.Int).Xor(a, mask(w)) }),
		binop("And", (*hdl.Signal).And, hdl.Bits.And, func(w int, a, b *big.Int) (*big.Int, int) { return new(big.Int).And(a, b), w }),
		binop("Or", (*hdl.Signal).Or, hdl.Bits.Or, func(w int, a, b *big.Int) (*big.Int, int) { return new(big.Int).Or(a, b), w }),
		binop("Xor", (*hdl.Signal).Xor, hdl.Bits.Xor, func(w int, a, b *big.Int) (*big.Int, int) { return new(big.Int).Xor(a, b), w }),
		unop("RedAnd", one, (*hdl.Signal).RedAnd, hdl.Bits.RedAnd, func(w int, a *big.Int) *big.Int { return bit(a.Cmp(mask(w)) == 0) }),
		unop("RedOr", one, (*hdl.Signal).RedOr, hdl.Bits.RedOr, func(w int, a *big.Int) *big.Int { return bit(a.Sign() != 0) }),
		unop("RedXor", one, (*hdl.Signal).RedXor, hdl.Bits.RedXor, func(w int, a *big.Int) *big.Int {
			n := 0
			for i := range w {
				n += int(a.Bit(i))
			}
			return big.NewInt(int64(n & 1))
		}),
		binop("Add", (*hdl.Signal).Add, hdl.Bits.Add, func(w int, a, b *big.Int) (*big.Int, int) { return trunc(new(big.Int).Add(a, b), w), w }),
		binop("Sub", (*hdl.Signal).Sub, hdl.Bits.Sub, func(w int, a, b *big.Int) (*big.Int, int) { return trunc(new(big.Int).Sub(a, b), w), w }),
		{
			name: "AddCarry", widths: same(2),
			sig: func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal {
				sum, carry := a[0].AddCarry(a[1])
				return hdl.Concat(carry, sum)
			},
			ref: func(w int, a []*big.Int) (*big.Int, int) { return new(big.Int).Add(a[0], a[1]), w + 1 },
		},
		{
			name: "SubBorrow", widths: same(2),
			sig: func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal {
				diff, borrow := a[0].SubBorrow(a[1])
				return hdl.Concat(borrow, diff)
			},
			ref: func(w int, a []*big.Int) (*big.Int, int) {
				return new(big.Int).Add(trunc(new(big.Int).Sub(a[0], a[1]), w), new(big.Int).Lsh(bit(a[0].Cmp(a[1]) < 0), uint(w))), w + 1
			},
		},
		binop("Mul", (*hdl.Signal).Mul, hdl.Bits.Mul, func(w int, a, b *big.Int) (*big.Int, int) { return new(big.Int).Mul(a, b), 2 * w }),
		{
			name: "MulNarrow", widths: func(w int) []int { return []int{w, 7} },
			sig:  func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return a[0].Mul(a[1]) },
			bits: func(a []hdl.Bits) hdl.Bits { return a[0].Mul(a[1]) },
			ref:  func(w int, a []*big.Int) (*big.Int, int) { return new(big.Int).Mul(a[0], a[1]), w + 7 },
		},
		unop("MulConst", func(w int) int { return w + 10 }, func(a *hdl.Signal) *hdl.Signal { return a.MulConst(1000) }, nil,
			func(w int, a *big.Int) *big.Int { return new(big.Int).Mul(a, big.NewInt(1000)) }),
		cmpop("Eq", (*hdl.Signal).Eq, hdl.Bits.Eq, false, func(c int) bool { return c == 0 }),
		cmpop("Ne", (*hdl.Signal).Ne, hdl.Bits.Ne, false, func(c int) bool { return c != 0 }),
		cmpop("Lt", (*hdl.Signal).Lt, hdl.Bits.Lt, false, func(c int) bool { return c < 0 }),
		cmpop("Le", (*hdl.Signal).Le, hdl.Bits.Le, false, func(c int) bool { return c <= 0 }),
		cmpop("Gt", (*hdl.Signal).Gt, hdl.Bits.Gt, false, func(c int) bool { return c > 0 }),
		cmpop("Ge", (*hdl.Signal).Ge, hdl.Bits.Ge, false, func(c int) bool { return c >= 0 }),
		cmpop("LtS", (*hdl.Signal).LtS, hdl.Bits.LtS, true, func(c int) bool { return c < 0 }),
		cmpop("LeS", (*hdl.Signal).LeS, hdl.Bits.LeS, true, func(c int) bool { return c <= 0 }),
		cmpop("GtS", (*hdl.Signal).GtS, hdl.Bits.GtS, true, func(c int) bool { return c > 0 }),
		cmpop("GeS", (*hdl.Signal).GeS, hdl.Bits.GeS, true, func(c int) bool { return c >= 0 }),
		{
			name: "EqConst", widths: same(1),
			sig: func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return a[0].EqConst(1) },
			ref: func(w int, a []*big.Int) (*big.Int, int) { return bit(a[0].Cmp(big.NewInt(1)) == 0), 1 },
		},
		{
			name: "Mux", widths: func(w int) []int { return []int{1, w, w} },
			sig: func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return hdl.Mux(a[0], a[1], a[2]) },
			ref: func(w int, a []*big.Int) (*big.Int, int) {
				if a[0].Sign() != 0 {
					return a[1], w
				}
				return a[2], w
			},
		},
		{
			name: "Select", widths: func(w int) []int { return []int{2, w, w, w} },
			sig: func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return hdl.Select(a[0], a[1:]...) },
			ref: func(w int, a []*big.Int) (*big.Int, int) {
				if i := a[0].Int64(); i < 3 {
					return a[1+i], w
				}
				return big.NewInt(0), w
			},
		},
		{
			name: "OneHotSelect", widths: func(w int) []int { return []int{3, w, w, w} },
			sig: func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return hdl.OneHotSelect(a[0], a[1:]...) },
			ref: func(w int, a []*big.Int) (*big.Int, int) {
				r := new(big.Int)
				for i := range 3 {
					if a[0].Bit(i) == 1 {
						r.Or(r, a[1+i])
					}
				}
				return r, w
			},
		},
		{
			name: "Concat", widths: func(w int) []int { return []int{w, 5, w} },
			sig:  func(_ *hdl.Module, a []*hdl.Signal) *hdl.Signal { return hdl.Concat(a...) },
			bits: func(a []hdl.Bits) hdl.Bits { return hdl.ConcatBits(a...) },
			ref: func(w int, a []*big.Int) (*big.Int, int) {
				r := new(big.Int).Lsh(a[0], uint(w+5))
				r.Or(r, new(big.Int).Lsh(a[1], uint(w)))
				return r.Or(r, a[2]), 2*w + 5
			},
		},
		unop("Slice", func(w int) int { return w - w/3 - w/4 }, func(a *hdl.Signal) *hdl.Signal { w := a.Width(); return a.Slice(w-1-w/4, w/3) },
			func(a hdl.Bits) hdl.Bits { w := a.Width(); return a.Slice(w-1-w/4, w/3) },
			func(w int, a *big.Int) *big.Int { return trunc(new(big.Int).Rsh(a, uint(w/3)), w-w/3-w/4) }),
		unop("Bit", one, func(a *hdl.Signal) *hdl.Signal { return a.Bit(a.Width() / 2) }, nil,
			func(w int, a *big.Int) *big.Int { return big.NewInt(int64(a.Bit(w / 2))) }),
		unop("Trunc", func(w int) int { return (w + 1) / 2 }, func(a *hdl.Signal) *hdl.Signal { return a.Trunc((a.Width() + 1) / 2) },
			func(a hdl.Bits) hdl.Bits { return a.Trunc((a.Width() + 1) / 2) },
			func(w int, a *big.Int) *big.Int { return trunc(a, (w+1)/2) }),
		unop("Zext", func(w int) int { return w + 13 }, func(a *hdl.Signal) *hdl.Signal { return a.Zext(a.Width() + 13) },
			func(a hdl.Bits) hdl.Bits { return a.Zext(a.Width() + 13) },
			func(w int, a *big.Int) *big.Int { return a }),
		unop("ZextWord", func(w int) int { return 64 }, func(a *hdl.Signal) *hdl.Signal { return a.Zext(max(64, a.Width())) }, nil,
			func(w int, a *big.Int) *big.Int { return a }),
		unop("Sext", func(w int) int { return w + 13 }, func(a *hdl.Signal) *hdl.Signal { return a.Sext(a.Width() + 13) },
			func(a hdl.Bits) hdl.Bits { return a.Sext(a.Width() + 13) },
			func(w int, a *big.Int) *big.Int { return trunc(signed(a, w), w+13) }),
		unop("Repl", func(w int) int { return 3 * w }, func(a *hdl.Signal) *hdl.Signal { return a.Repl(3) },
			func(a hdl.Bits) hdl.Bits { return a.Repl(3) },
			func(w int, a *big.Int) *big.Int {
				r := new(big.Int)
				for range 3 {
					r.Lsh(r, uint(w)).Or(r, a)
				}
				return r
			}),
	}
	cs = append(cs, shiftConstCases()...)
	return append(cs, shiftByCases()...)
}

// operand draws a w-bit value, often a boundary value.
func operand(r *rand.Rand, w int) *big.Int {
	switch r.IntN(8) {
	case 0:
		return big.NewInt(0)
	case 1:
		return mask(w)
	case 2:
		return new(big.Int).Lsh(big.NewInt(1), uint(w-1)) // sign bit only
	case 3:
		return trunc(big.NewInt(int64(r.IntN(5))), w)
	}
	x := new(big.Int)
	for i := 0; i < w; i += 32 {
		x.Lsh(x, 32).Or(x, big.NewInt(int64(r.Uint32())))
	}
	return trunc(x, w)
}

func TestOperationsAgainstBig(t *testing.T) {
	const vectors = 150
	for _, oc := range allOps() {
		for _, w := range testWidths {
			if oc.name == "Slice" && w < 2 || oc.name == "ZextWord" && w > 64 {
				continue // no proper slice of one bit; ZextWord covers narrow to word only
			}
			t.Run(fmt.Sprintf("%s/w%d", oc.name, w), func(t *testing.T) {
				r := rand.New(rand.NewPCG(opsSeed, uint64(w)))
				checkOp(t, r, oc, w, vectors)
			})
		}
	}
}

func checkOp(t *testing.T, r *rand.Rand, oc opCase, w, vectors int) {
	widths := oc.widths(w)
	m := hdl.NewModule("dut")
	ins := make([]*hdl.Signal, len(widths))
	for i, iw := range widths {
		ins[i] = m.Input(fmt.Sprintf("a%d", i), iw)
	}
	y := oc.sig(m, ins)
	out := m.Output("y", y.Width())
	out.Drive(y)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	sm := sim.New(d)
	refs := make([]sim.InputRef, len(widths))
	for i := range widths {
		refs[i], err = sm.Input(fmt.Sprintf("a%d", i))
		require.NoError(t, err)
	}
	yref, err := sm.Signal("y")
	require.NoError(t, err)
	for v := range vectors {
		args := make([]*big.Int, len(widths))
		vals := make([]hdl.Bits, len(widths))
		for i, iw := range widths {
			args[i] = operand(r, iw)
			vals[i], err = hdl.FromBig(iw, args[i])
			require.NoError(t, err)
			require.NoError(t, sm.PutBits(refs[i], vals[i]))
		}
		want, ww := oc.ref(w, args)
		require.Equal(t, ww, y.Width(), "result width")
		got := sm.ValBits(yref)
		require.Zerof(t, want.Cmp(got.Big()), "vector %d, operands %v: simulator gives %s, want %s", v, vals, got, want.Text(16))
		if oc.bits != nil {
			bv := oc.bits(vals)
			require.Truef(t, bv.IsValid(), "vector %d: Bits operation returned invalid", v)
			require.Equal(t, ww, bv.Width(), "Bits result width")
			require.Zerof(t, want.Cmp(bv.Big()), "vector %d, operands %v: Bits gives %s, want %s", v, vals, bv, want.Text(16))
		}
	}
}

func TestNarrowBitsOperationsDoNotAllocate(t *testing.T) {
	a, b := hdl.MustU(32, 0xdeadbeef), hdl.MustU(32, 12345)
	var sink hdl.Bits
	allocs := testing.AllocsPerRun(100, func() {
		sink = a.Add(b).Xor(a).Mul(b).Slice(40, 3).Sext(60).Shr(3)
		sink = hdl.ConcatBits(sink.Trunc(20), a, b.Trunc(2)).Repl(1).Not()
	})
	require.Zero(t, allocs, "allocations per run of narrow Bits operations")
	require.Equal(t, 20+32+2, sink.Width())
}
