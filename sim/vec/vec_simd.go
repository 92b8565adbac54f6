//go:build goexperiment.simd && amd64

package vec

import "simd/archsimd"

// Supported reports whether this machine runs the AVX-512 build.
func Supported() bool { return archsimd.X86.AVX512() }

func Store(p *[N]Word, v V) { v.Store(p) }

func And(a, b V) V { return a.And(b) }
func Or(a, b V) V  { return a.Or(b) }
func Xor(a, b V) V { return a.Xor(b) }
func Add(a, b V) V { return a.Add(b) }
func Sub(a, b V) V { return a.Sub(b) }
func Mul(a, b V) V { return a.Mul(b) }

// ShlK and ShrK shift every lane by k < Bits. A merge (Mux, Sel, MuxEq)
// must not take ShlK's result as its t straight: Go 1.26 makes the two a
// masked shift and emits it as an invalid instruction (VPSLLD or VPSLLQ
// without its count). hdl's compiled streams OR such a t with itself
// first (gosrc.laneTaken), which the merge makes one masked OR. ShrK
// shifts by a vector of counts read from memory: Go 1.26 lowers
// ShiftAllRight to a legacy-SSE MOVQ of the count beside the AVX-512
// shift, and the switch between the two instruction sets costs more than
// the shift.
func ShlK(a V, k uint64) V { return a.ShiftAllLeft(k) }
func ShrK(a V, k uint64) V { return a.ShiftRight(counts[k]) }

// Shl and Shr shift each lane of a by that lane of b: 0 from Bits on, as
// Go's shifts.
func Shl(a, b V) V { return a.ShiftLeft(b) }
func Shr(a, b V) V { return a.ShiftRight(b) }

func Eq(a, b V) V { return one.Masked(a.Equal(b)) }
func Ne(a, b V) V { return one.Masked(a.NotEqual(b)) }
func Lt(a, b V) V { return one.Masked(a.Less(b)) }
func Le(a, b V) V { return one.Masked(a.LessEqual(b)) }
func Gt(a, b V) V { return one.Masked(a.Greater(b)) }
func Ge(a, b V) V { return one.Masked(a.GreaterEqual(b)) }

// Mux is t in the lanes where s is not zero, else f.
func Mux(s, t, f V) V { return t.Merge(f, s.NotEqual(zero)) }

// EqM to GeM compare lane by lane into a mask, for Sel and PickM (a
// comparison that only selects need not be made 0 or 1 and tested again).
func EqM(a, b V) M { return a.Equal(b) }
func NeM(a, b V) M { return a.NotEqual(b) }
func LtM(a, b V) M { return a.Less(b) }
func LeM(a, b V) M { return a.LessEqual(b) }
func GtM(a, b V) M { return a.Greater(b) }
func GeM(a, b V) M { return a.GreaterEqual(b) }

// BitM is set in the lanes where bit k of a is.
func BitM(a V, k uint64) M { return a.And(bitOf[k]).NotEqual(zero) }

// Sel is t in the lanes where m is set, else f.
func Sel(m M, t, f V) V { return t.Merge(f, m) }

// PickM is v in the lanes where m is set, else 0.
func PickM(m M, v V) V { return v.Masked(m) }

// Pick is v in the lanes where s is not zero, else 0.
func Pick(s, v V) V { return v.Masked(s.NotEqual(zero)) }

// PickBit is v in the lanes where bit k of s is set, else 0.
func PickBit(s V, k uint64, v V) V { return v.Masked(s.And(bitOf[k]).NotEqual(zero)) }

// MuxEq is t in the lanes where a equals k, else f.
func MuxEq(a, k, t, f V) V { return t.Merge(f, a.Equal(k)) }

// Lookup is t's lane i mod N in each lane, i that lane of idx (one VPERMQ
// or VPERMD).
func Lookup(t, idx V) V { return t.Permute(idx) }

// NonZero has bit l set when lane l of v is not zero.
func NonZero(v V) uint { return uint(v.NotEqual(zero).ToBits()) }
