//go:build !(goexperiment.simd && amd64)

package vec

// V is the lanes in an array, where AVX-512 is not built in.
type V = [N]Word

// Supported reports whether this machine runs this build: always.
func Supported() bool { return true }

func Load(p *[N]Word) V     { return *p }
func Store(p *[N]Word, v V) { *p = v }

func Splat(x Word) (r V) {
	for l := range r {
		r[l] = x
	}
	return r
}

func lanes(a, b V, f func(x, y Word) Word) (r V) {
	for l := range r {
		r[l] = f(a[l], b[l])
	}
	return r
}

func b2u(b bool) Word {
	if b {
		return 1
	}
	return 0
}

func And(a, b V) V { return lanes(a, b, func(x, y Word) Word { return x & y }) }
func Or(a, b V) V  { return lanes(a, b, func(x, y Word) Word { return x | y }) }
func Xor(a, b V) V { return lanes(a, b, func(x, y Word) Word { return x ^ y }) }
func Add(a, b V) V { return lanes(a, b, func(x, y Word) Word { return x + y }) }
func Sub(a, b V) V { return lanes(a, b, func(x, y Word) Word { return x - y }) }
func Mul(a, b V) V { return lanes(a, b, func(x, y Word) Word { return x * y }) }

// ShlK and ShrK shift every lane by k < Bits.
func ShlK(a V, k uint64) V { return Shl(a, Splat(Word(k))) }
func ShrK(a V, k uint64) V { return Shr(a, Splat(Word(k))) }

// Shl and Shr shift each lane of a by that lane of b: 0 from Bits on, as
// Go's shifts.
func Shl(a, b V) V { return lanes(a, b, func(x, y Word) Word { return x << y }) }
func Shr(a, b V) V { return lanes(a, b, func(x, y Word) Word { return x >> y }) }

func Eq(a, b V) V { return lanes(a, b, func(x, y Word) Word { return b2u(x == y) }) }
func Ne(a, b V) V { return lanes(a, b, func(x, y Word) Word { return b2u(x != y) }) }
func Lt(a, b V) V { return lanes(a, b, func(x, y Word) Word { return b2u(x < y) }) }
func Le(a, b V) V { return lanes(a, b, func(x, y Word) Word { return b2u(x <= y) }) }
func Gt(a, b V) V { return lanes(a, b, func(x, y Word) Word { return b2u(x > y) }) }
func Ge(a, b V) V { return lanes(a, b, func(x, y Word) Word { return b2u(x >= y) }) }

// Mux is t in the lanes where s is not zero, else f.
func Mux(s, t, f V) (r V) {
	for l := range r {
		r[l] = f[l]
		if s[l] != 0 {
			r[l] = t[l]
		}
	}
	return r
}

// M is a comparison's outcome in each lane.
type M = [N]bool

func compare(a, b V, f func(x, y Word) bool) (m M) {
	for l := range m {
		m[l] = f(a[l], b[l])
	}
	return m
}

// EqM to GeM compare lane by lane into a mask, for Sel and PickM.
func EqM(a, b V) M { return compare(a, b, func(x, y Word) bool { return x == y }) }
func NeM(a, b V) M { return compare(a, b, func(x, y Word) bool { return x != y }) }
func LtM(a, b V) M { return compare(a, b, func(x, y Word) bool { return x < y }) }
func LeM(a, b V) M { return compare(a, b, func(x, y Word) bool { return x <= y }) }
func GtM(a, b V) M { return compare(a, b, func(x, y Word) bool { return x > y }) }
func GeM(a, b V) M { return compare(a, b, func(x, y Word) bool { return x >= y }) }

// BitM is set in the lanes where bit k of a is.
func BitM(a V, k uint64) (m M) {
	for l := range m {
		m[l] = a[l]>>k&1 != 0
	}
	return m
}

// Sel is t in the lanes where m is set, else f.
func Sel(m M, t, f V) (r V) {
	for l := range r {
		r[l] = f[l]
		if m[l] {
			r[l] = t[l]
		}
	}
	return r
}

// PickM is v in the lanes where m is set, else 0.
func PickM(m M, v V) V { return Sel(m, v, V{}) }

// Pick is v in the lanes where s is not zero, else 0.
func Pick(s, v V) V { return Mux(s, v, V{}) }

// PickBit is v in the lanes where bit k of s is set, else 0.
func PickBit(s V, k uint64, v V) V { return Mux(And(s, Splat(1<<k)), v, V{}) }

// MuxEq is t in the lanes where a equals k, else f.
func MuxEq(a, k, t, f V) V { return Mux(Eq(a, k), t, f) }

// Lookup is t's lane i mod N in each lane, i that lane of idx.
func Lookup(t, idx V) (r V) {
	for l, i := range idx {
		r[l] = t[i%N]
	}
	return r
}

// NonZero has bit l set when lane l of v is not zero.
func NonZero(v V) (bits uint) {
	for l, x := range v {
		bits |= uint(b2u(x != 0)) << l
	}
	return bits
}
