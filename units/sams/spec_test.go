package sams

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The thesis's results (appendix A), checked exhaustively for every q in
// 1..4, every n up to 12 and every family s in 0..n-q: every base address,
// and every stride of a family for n <= 8 (a sample of odd multipliers
// above).

// eachLayout calls f for every (q, n, s) the spec tests cover.
func eachLayout(t *testing.T, f func(t *testing.T, l Layout)) {
	for q := 1; q <= 4; q++ {
		for n := q + 2; n <= 12; n++ {
			for s := 0; s <= n-q; s++ {
				l := Layout{Q: q, N: n, Family: s}
				t.Run(fmt.Sprintf("q%d/n%d/s%d", q, n, s), func(t *testing.T) { f(t, l) })
			}
		}
	}
}

// odd multipliers sigma of a family's strides sigma*2^s (mod 2^n).
func multipliers(n, s int, r *rand.Rand) []uint64 {
	limit := uint64(1) << uint(n-s) // sigma*2^s mod 2^n repeats after this
	if n <= 8 {
		var all []uint64
		for sigma := uint64(1); sigma < limit; sigma += 2 {
			all = append(all, sigma)
		}
		return all
	}
	sample := []uint64{1, 3, 5, 7, limit - 1, limit - 3}
	for range 8 {
		sample = append(sample, r.Uint64()%limit|1)
	}
	return sample
}

func TestTheorem1Bijection(t *testing.T) {
	check := func(t *testing.T, l Layout) {
		seen := make([]bool, 1<<uint(l.N))
		for a := range uint64(1) << uint(l.N) {
			s := l.Place(a)
			require.Less(t, s.Module, uint64(1)<<uint(l.Q))
			require.Less(t, s.Row, uint64(1)<<uint(l.N-l.Q-1))
			require.Less(t, s.Offset, uint64(2))
			key := s.Module<<uint(l.N-l.Q) | s.Row<<1 | s.Offset
			require.Falsef(t, seen[key], "address %d shares slot %+v with another", a, s)
			seen[key] = true
		}
	}
	eachLayout(t, check)
	for q := 1; q <= 4; q++ {
		for n := q + 2; n <= 12; n++ {
			check(t, Layout{Q: q, N: n, NaS: true})
		}
	}
}

func TestTheorem2ConflictFreeUnitStrideAndFamily(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	eachLayout(t, func(t *testing.T, l Layout) {
		strides := []uint64{1}
		for _, sigma := range multipliers(l.N, l.Family, r) {
			strides = append(strides, sigma<<uint(l.Family))
		}
		for _, stride := range strides {
			for base := range uint64(1) << uint(l.N) {
				if !l.ConflictFree(Addresses(base, stride, l.Q, l.N)) {
					t.Fatalf("stride %d from base %d conflicts", stride, base)
				}
			}
		}
	})
}

// Property 2 (appendix A): for 1 <= s <= q the scheme is also conflict-free
// for the strides 2^s', s' < s. With s = q this gives Corollary 1 below.
func TestProperty2PowersBelowTheFamily(t *testing.T) {
	eachLayout(t, func(t *testing.T, l Layout) {
		if l.Family < 1 || l.Family > l.Q {
			return
		}
		for sp := range l.Family {
			for base := range uint64(1) << uint(l.N) {
				require.Truef(t, l.ConflictFree(Addresses(base, 1<<uint(sp), l.Q, l.N)), "stride 2^%d from base %d", sp, base)
			}
		}
	})
}

// Corollary 1: the Matched SAMS scheme (s = q) is conflict-free for strides
// 1, 2, ..., 2^(q-1) and for the family sigma*2^q.
func TestCorollary1Matched(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for q := 1; q <= 4; q++ {
		for n := q + 2; n <= 12; n++ {
			l := Layout{Q: q, N: n, Family: q}
			var strides []uint64
			for sp := range q {
				strides = append(strides, 1<<uint(sp))
			}
			for _, sigma := range multipliers(n, q, r) {
				strides = append(strides, sigma<<uint(q))
			}
			for _, stride := range strides {
				for base := range uint64(1) << uint(n) {
					require.Truef(t, l.ConflictFree(Addresses(base, stride, q, n)), "q=%d n=%d stride %d base %d", q, n, stride, base)
				}
			}
		}
	}
}

// The checker can fail: strides outside the supported sets do conflict.
// For every layout with at least 4 modules some stride outside its family
// (and outside Property 2's powers) conflicts from some base.
func TestStridesOutsideTheFamiliesConflict(t *testing.T) {
	eachLayout(t, func(t *testing.T, l Layout) {
		if l.Q < 2 {
			return
		}
		supported := func(stride uint64) bool {
			f := Fam(stride, l.N, l.Q)
			if f == l.Family || stride == 1 {
				return true
			}
			return l.Family >= 1 && l.Family <= l.Q && stride == 1<<uint(f) && f < l.Family
		}
		conflicts := 0
		for stride := uint64(2); stride < 1<<uint(l.N) && conflicts == 0; stride++ {
			if supported(stride) {
				continue
			}
			for base := range uint64(1) << uint(l.N) {
				if !l.ConflictFree(Addresses(base, stride, l.Q, l.N)) {
					conflicts++
					break
				}
			}
		}
		require.Positive(t, conflicts, "no stride outside the family conflicts")
	})
}

// The thesis's worked example (section 3.2.4): Matched SAMS with q = 2 is
// m(a) = <a_2, a_3 XOR a_0>, r(a) = a[n-1:3], o(a) = a_1, and from base 1
// the strides 1, 2 and 4 reach {1,2,3,4}, {1,3,5,7} and {1,5,9,13}
// without conflict.
func TestMatchedQ2Example(t *testing.T) {
	l := Layout{Q: 2, N: 8, Family: 2}
	for a := range uint64(256) {
		bitOf := func(j int) uint64 { return a >> uint(j) & 1 }
		require.Equal(t, bitOf(2)<<1|(bitOf(3)^bitOf(0)), l.Module(a), "m(%d)", a)
		require.Equal(t, a>>3, l.Row(a), "r(%d)", a)
		require.Equal(t, bitOf(1), l.Offset(a), "o(%d)", a)
	}
	for stride, want := range map[uint64][]uint64{1: {1, 2, 3, 4}, 2: {1, 3, 5, 7}, 4: {1, 5, 9, 13}} {
		addrs := Addresses(1, stride, 2, 8)
		require.Equal(t, want, addrs)
		require.True(t, l.ConflictFree(addrs))
	}
}

func TestFam(t *testing.T) {
	require.Equal(t, 13, Fam(0, 16, 3), "fam(0) = n-q")
	require.Equal(t, 0, Fam(1, 16, 3))
	require.Equal(t, 0, Fam(7, 16, 3))
	require.Equal(t, 3, Fam(24, 16, 3))
	require.Equal(t, 13, Fam(1<<15, 16, 3), "capped at n-q")
	require.Equal(t, 13, Fam(1<<16, 16, 3), "bits above n are not there")
}

func TestSubAccessesCountsDistinctRowsPerModule(t *testing.T) {
	l := Layout{Q: 2, N: 8, NaS: true} // m = (a/2)%4, r = a/8
	// 0 and 8 and 16 share module 0 in rows 0, 1, 2; 2 is module 1.
	require.Equal(t, 3, l.SubAccesses([]uint64{0, 8, 16, 2}, nil))
	require.Equal(t, 2, l.SubAccesses([]uint64{0, 8, 16, 2}, []bool{true, true, false, true}))
	require.Equal(t, 1, l.SubAccesses([]uint64{0, 1, 2, 3}, nil), "a row holds two elements")
	require.Equal(t, 0, l.SubAccesses([]uint64{0, 1, 2, 3}, []bool{false, false, false, false}))
}

func TestSubAccessPlanMatchesSubAccesses(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		q := 1 + r.IntN(4)
		n := q + 2 + r.IntN(6)
		l := Layout{Q: q, N: n, Family: r.IntN(n - q + 1), NaS: r.IntN(5) == 0}
		addrs := Addresses(r.Uint64(), uint64(r.IntN(40)), q, n)
		enabled := make([]bool, len(addrs))
		for i := range enabled {
			enabled[i] = r.IntN(6) != 0
		}
		plan := l.SubAccessPlan(addrs, enabled)
		most := 0
		for i, k := range plan {
			require.Equal(t, enabled[i], k > 0)
			most = max(most, k)
		}
		require.Equal(t, l.SubAccesses(addrs, enabled), most)
	}
}
