package vec8

import (
	"math/rand/v2"
	"testing"
)

func b2uRef(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TestLanesMatchScalarGo checks every operation, lane by lane, against Go's
// own on the same uint64 values, in whichever build this is (make test
// runs the portable one, make bench the AVX-512 one).
func TestLanesMatchScalarGo(t *testing.T) {
	if !Supported() {
		t.Fatal("this machine lacks the instructions of this build")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	edge := []uint64{0, 1, 2, 63, 64, 65, 1 << 63, ^uint64(0), 0x7fffffffffffffff}
	draw := func() uint64 {
		if rng.IntN(3) == 0 {
			return edge[rng.IntN(len(edge))]
		}
		return rng.Uint64() >> rng.IntN(64)
	}
	binary := map[string]struct {
		v func(a, b V) V
		s func(x, y uint64) uint64
	}{
		"And": {And, func(x, y uint64) uint64 { return x & y }},
		"Or":  {Or, func(x, y uint64) uint64 { return x | y }},
		"Xor": {Xor, func(x, y uint64) uint64 { return x ^ y }},
		"Add": {Add, func(x, y uint64) uint64 { return x + y }},
		"Sub": {Sub, func(x, y uint64) uint64 { return x - y }},
		"Mul": {Mul, func(x, y uint64) uint64 { return x * y }},
		"Shl": {Shl, func(x, y uint64) uint64 { return x << y }},
		"Shr": {Shr, func(x, y uint64) uint64 { return x >> y }},
		"Sra": {Sra, func(x, y uint64) uint64 { return uint64(int64(x) >> y) }},
		"Eq":  {Eq, func(x, y uint64) uint64 { return b2uRef(x == y) }},
		"Ne":  {Ne, func(x, y uint64) uint64 { return b2uRef(x != y) }},
		"Lt":  {Lt, func(x, y uint64) uint64 { return b2uRef(x < y) }},
		"Le":  {Le, func(x, y uint64) uint64 { return b2uRef(x <= y) }},
		"Gt":  {Gt, func(x, y uint64) uint64 { return b2uRef(x > y) }},
		"Ge":  {Ge, func(x, y uint64) uint64 { return b2uRef(x >= y) }},
		"Mux": {func(a, b V) V { return Mux(a, b, Splat(7)) }, func(x, y uint64) uint64 {
			if x != 0 {
				return y
			}
			return 7
		}},
	}
	for trial := range 2000 {
		var xa, xb [8]uint64
		for l := range xa {
			xa[l], xb[l] = draw(), draw()
			if trial%2 == 0 { // shift amounts and equal operands
				xb[l] = uint64(rng.IntN(70))
			}
			if trial%5 == 0 {
				xb[l] = xa[l]
			}
		}
		a, b := Load(&xa), Load(&xb)
		k := uint64(rng.IntN(64))
		w := uint64(1 + rng.IntN(64))
		check := func(name string, got V, want func(x, y uint64) uint64) {
			t.Helper()
			var out [8]uint64
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
		check("ShlK", ShlK(a, k), func(x, _ uint64) uint64 { return x << k })
		check("ShrK", ShrK(a, k), func(x, _ uint64) uint64 { return x >> k })
		check("SraK", SraK(a, k), func(x, _ uint64) uint64 { return uint64(int64(x) >> k) })
		check("Pick", Pick(a, b), func(x, y uint64) uint64 { return y * b2uRef(x != 0) })
		check("PickBit", PickBit(a, k, b), func(x, y uint64) uint64 { return y * (x >> k & 1) })
		check("MuxEq", MuxEq(a, xb[0], a, b), func(x, y uint64) uint64 {
			if x == xb[0] {
				return x
			}
			return y
		})
		masks := map[string]struct {
			m func(a, b V) M
			s func(x, y uint64) bool
		}{
			"EqM": {EqM, func(x, y uint64) bool { return x == y }},
			"NeM": {NeM, func(x, y uint64) bool { return x != y }},
			"LtM": {LtM, func(x, y uint64) bool { return x < y }},
			"LeM": {LeM, func(x, y uint64) bool { return x <= y }},
			"GtM": {GtM, func(x, y uint64) bool { return x > y }},
			"GeM": {GeM, func(x, y uint64) bool { return x >= y }},
		}
		for name, op := range masks {
			check("Sel of "+name, Sel(op.m(a, b), a, Splat(7)), func(x, y uint64) uint64 {
				if op.s(x, y) {
					return x
				}
				return 7
			})
			check("PickM of "+name, PickM(op.m(a, b), b), func(x, y uint64) uint64 { return y * b2uRef(op.s(x, y)) })
		}
		check("Sel of BitM", Sel(BitM(a, k), a, b), func(x, y uint64) uint64 {
			if x>>k&1 != 0 {
				return x
			}
			return y
		})
		nz := NonZero(a)
		check("NonZero", a, func(x, _ uint64) uint64 { // one bit per lane, in lane order
			bit := uint64(nz & 1)
			nz >>= 1
			if bit != b2uRef(x != 0) {
				return ^x
			}
			return x
		})
		check("Lookup", Lookup(b, a), func(x, _ uint64) uint64 { return xb[x&7] })
		check("Splat", Splat(xa[3]), func(_, _ uint64) uint64 { return xa[3] })
		check("Sext", Sext(a, w), func(x, _ uint64) uint64 { return uint64(int64(x<<(64-w)) >> (64 - w)) })
		check("Parity", Parity(a), func(x, _ uint64) uint64 {
			p := uint64(0)
			for ; x != 0; x &= x - 1 {
				p ^= 1
			}
			return p
		})
	}
}
