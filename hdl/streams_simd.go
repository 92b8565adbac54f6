//go:build goexperiment.simd && amd64

package hdl

import (
	"simd/archsimd"
	"unsafe"
)

// The multi-stream kernel's commonest operations on AVX-512, eight lanes
// to an instruction, when built with GOEXPERIMENT=simd (make bench) on a
// machine that has it; other builds and machines use Streams.exec's scalar
// loops, and the multi-stream checksum test checks whichever is built.

var hasAVX512 = archsimd.X86.AVX512()

// vec is the vector of lanes l..l+7 of s.
func vec(s []uint64, l int) archsimd.Uint64x8 {
	return archsimd.LoadUint64x8((*[8]uint64)(unsafe.Pointer(&s[l])))
}

func store(v archsimd.Uint64x8, s []uint64, l int) { v.Store((*[8]uint64)(unsafe.Pointer(&s[l]))) }

type u64x8 = archsimd.Uint64x8

// vlanes1 and vlanes2 are Streams' lanes1 and lanes2 eight lanes at a time.
func vlanes1(d, a []uint64, f func(x u64x8) u64x8) {
	a = a[:len(d)]
	for l := 0; l < len(d); l += 8 {
		store(f(vec(a, l)), d, l)
	}
}

func vlanes2(d, a, b []uint64, f func(x, y u64x8) u64x8) {
	a, b = a[:len(d)], b[:len(d)]
	for l := 0; l < len(d); l += 8 {
		store(f(vec(a, l), vec(b, l)), d, l)
	}
}

// simdLanes runs instruction in on vectors of eight lanes and reports
// whether it did; d and a are the lanes of its result and first operand.
func (m *Streams) simdLanes(in *instr, d, a []uint64) bool {
	if !hasAVX512 || len(d)%8 != 0 {
		return false
	}
	mask := archsimd.BroadcastUint64x8(in.mask)
	one, zero := archsimd.BroadcastUint64x8(1), archsimd.BroadcastUint64x8(0)
	k := uint64(in.k)
	switch in.op {
	case kAnd:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return x.And(y) })
	case kOr:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return x.Or(y) })
	case kXor:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return x.Xor(y) })
	case kAdd:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return x.Add(y).And(mask) })
	case kSub:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return x.Sub(y).And(mask) })
	case kEq:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return one.Masked(x.Equal(y)) })
	case kNe:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return one.Masked(x.NotEqual(y)) })
	case kLt:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return one.Masked(x.Less(y)) })
	case kLe:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return one.Masked(x.LessEqual(y)) })
	case kGt:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return one.Masked(x.Greater(y)) })
	case kGe:
		vlanes2(d, a, m.lane(in.b), func(x, y u64x8) u64x8 { return one.Masked(x.GreaterEqual(y)) })
	case kNot:
		vlanes1(d, a, func(x u64x8) u64x8 { return x.Xor(mask) })
	case kShlK:
		vlanes1(d, a, func(x u64x8) u64x8 { return x.ShiftAllLeft(k).And(mask) })
	case kShrK:
		vlanes1(d, a, func(x u64x8) u64x8 { return x.ShiftAllRight(k) })
	case kSlice:
		vlanes1(d, a, func(x u64x8) u64x8 { return x.ShiftAllRight(k).And(mask) })
	case kRedOr:
		vlanes1(d, a, func(x u64x8) u64x8 { return one.Masked(x.NotEqual(zero)) })
	case kMux:
		a, b, c := a[:len(d)], m.lane(in.b)[:len(d)], m.lane(in.c)[:len(d)]
		for l := 0; l < len(d); l += 8 {
			store(vec(b, l).Merge(vec(c, l), vec(a, l).NotEqual(zero)), d, l)
		}
	default:
		return false
	}
	return true
}
