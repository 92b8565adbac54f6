package vec

import (
	"math/rand/v2"
	"testing"
)

func b2uRef(b bool) Word {
	if b {
		return 1
	}
	return 0
}

// signed is x as a signed number of Bits bits, sign-extended.
func signed(x Word) int64 { return int64(x) << (64 - Bits) >> (64 - Bits) }

// TestLanesMatchScalarGo checks every operation, lane by lane, against Go's
// own on the same Word values, in whichever build this is (make test runs
// the portable and the AVX-512 ones, each at both widths).
func TestLanesMatchScalarGo(t *testing.T) {
	if !Supported() {
		t.Fatal("this machine lacks the instructions of this build")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	edge := []Word{0, 1, 2, Bits - 1, Bits, Bits + 1, 1 << (Bits - 1), ^Word(0), ^Word(0) >> 1}
	draw := func() Word {
		if rng.IntN(3) == 0 {
			return edge[rng.IntN(len(edge))]
		}
		return Word(rng.Uint64()) >> rng.IntN(Bits)
	}
	binary := map[string]struct {
		v func(a, b V) V
		s func(x, y Word) Word
	}{
		"And": {And, func(x, y Word) Word { return x & y }},
		"Or":  {Or, func(x, y Word) Word { return x | y }},
		"Xor": {Xor, func(x, y Word) Word { return x ^ y }},
		"Add": {Add, func(x, y Word) Word { return x + y }},
		"Sub": {Sub, func(x, y Word) Word { return x - y }},
		"Mul": {Mul, func(x, y Word) Word { return x * y }},
		"Shl": {Shl, func(x, y Word) Word { return x << y }},
		"Shr": {Shr, func(x, y Word) Word { return x >> y }},
		"Sra": {Sra, func(x, y Word) Word { return Word(signed(x) >> y) }},
		"Eq":  {Eq, func(x, y Word) Word { return b2uRef(x == y) }},
		"Ne":  {Ne, func(x, y Word) Word { return b2uRef(x != y) }},
		"Lt":  {Lt, func(x, y Word) Word { return b2uRef(x < y) }},
		"Le":  {Le, func(x, y Word) Word { return b2uRef(x <= y) }},
		"Gt":  {Gt, func(x, y Word) Word { return b2uRef(x > y) }},
		"Ge":  {Ge, func(x, y Word) Word { return b2uRef(x >= y) }},
		"Mux": {func(a, b V) V { return Mux(a, b, Splat(7)) }, func(x, y Word) Word {
			if x != 0 {
				return y
			}
			return 7
		}},
	}
	for trial := range 2000 {
		var xa, xb [N]Word
		for l := range xa {
			xa[l], xb[l] = draw(), draw()
			if trial%2 == 0 { // shift amounts and equal operands
				xb[l] = Word(rng.IntN(Bits + 6))
			}
			if trial%5 == 0 {
				xb[l] = xa[l]
			}
		}
		a, b := Load(&xa), Load(&xb)
		k := uint64(rng.IntN(Bits))
		w := uint64(1 + rng.IntN(Bits))
		check := func(name string, got V, want func(x, y Word) Word) {
			t.Helper()
			var out [N]Word
			Store(&out, got)
			for l := range out {
				if e := want(xa[l], xb[l]); out[l] != e {
					t.Fatalf("%s lane %d of (%#x, %#x), k %d, w %d: %#x, want %#x", name, l, xa[l], xb[l], k, w, out[l], e)
				}
			}
		}
		for name, op := range binary {
			check(name, op.v(a, b), op.s)
		}
		check("ShlK", ShlK(a, k), func(x, _ Word) Word { return x << k })
		check("ShrK", ShrK(a, k), func(x, _ Word) Word { return x >> k })
		check("SraK", SraK(a, k), func(x, _ Word) Word { return Word(signed(x) >> k) })
		check("Pick", Pick(a, b), func(x, y Word) Word { return y * b2uRef(x != 0) })
		check("PickBit", PickBit(a, k, b), func(x, y Word) Word { return y * (x >> k & 1) })
		check("MuxEq", MuxEq(a, Splat(xb[0]), a, b), func(x, y Word) Word {
			if x == xb[0] {
				return x
			}
			return y
		})
		masks := map[string]struct {
			m func(a, b V) M
			s func(x, y Word) bool
		}{
			"EqM": {EqM, func(x, y Word) bool { return x == y }},
			"NeM": {NeM, func(x, y Word) bool { return x != y }},
			"LtM": {LtM, func(x, y Word) bool { return x < y }},
			"LeM": {LeM, func(x, y Word) bool { return x <= y }},
			"GtM": {GtM, func(x, y Word) bool { return x > y }},
			"GeM": {GeM, func(x, y Word) bool { return x >= y }},
		}
		for name, op := range masks {
			check("Sel of "+name, Sel(op.m(a, b), a, Splat(7)), func(x, y Word) Word {
				if op.s(x, y) {
					return x
				}
				return 7
			})
			check("PickM of "+name, PickM(op.m(a, b), b), func(x, y Word) Word { return y * b2uRef(op.s(x, y)) })
		}
		check("Sel of BitM", Sel(BitM(a, k), a, b), func(x, y Word) Word {
			if x>>k&1 != 0 {
				return x
			}
			return y
		})
		nz := NonZero(a)
		check("NonZero", a, func(x, _ Word) Word { // one bit per lane, in lane order
			bit := Word(nz & 1)
			nz >>= 1
			if bit != b2uRef(x != 0) {
				return ^x
			}
			return x
		})
		check("Lookup", Lookup(b, a), func(x, _ Word) Word { return xb[x%N] })
		check("Splat", Splat(xa[3]), func(_, _ Word) Word { return xa[3] })
		check("Sext", Sext(a, w), func(x, _ Word) Word { return Word(signed(x<<(Bits-w)) >> (Bits - w)) })
		check("Parity", Parity(a), func(x, _ Word) Word {
			p := Word(0)
			for ; x != 0; x &= x - 1 {
				p ^= 1
			}
			return p
		})
	}
}
