package sams

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The thesis's results (appendix A), by theorems.go's checks (the ones
// gen -report fidelity's claims run): every q in 1..4, every n up to 12
// and every family s in 0..n-q, every address or base address, and every
// stride of a family for n <= 8 (a sample of odd multipliers above).

// eachSize requires check to hold at every size the checks cover.
func eachSize(t *testing.T, check func(q, n int) proof) {
	for _, s := range checkedSizes() {
		p := check(s.Q, s.N)
		require.Positive(t, p.Cases, "q=%d n=%d: nothing checked", s.Q, s.N)
		require.Empty(t, p.Fail, "q=%d n=%d", s.Q, s.N)
	}
}

// result is appendixA's check of the result at where whose what has the
// prefix.
func result(t *testing.T, where, prefix string) func(q, n int) proof {
	for _, r := range appendixA {
		if r.where == where && strings.HasPrefix(r.what, prefix) {
			return r.check
		}
	}
	t.Fatalf("no %s: %s... in appendixA", where, prefix)
	return nil
}

// Property 1: the period of the module assignment is 2^(q+s), the
// smallest.
func TestProperty1Period(t *testing.T) {
	eachSize(t, result(t, "Property 1", ""))
}

func TestTheorem1Bijection(t *testing.T) {
	eachSize(t, result(t, "Theorem 1", ""))
	for _, s := range checkedSizes() { // and section 4.3.2's NaS layout
		p := bijective(Layout{Q: s.Q, N: s.N, NaS: true})
		require.Equal(t, 1<<uint(s.N), p.Cases)
		require.Empty(t, p.Fail, "NaS, q=%d n=%d", s.Q, s.N)
	}
}

func TestTheorem2ConflictFreeUnitStrideAndFamily(t *testing.T) {
	eachSize(t, result(t, "Theorem 2", "conflict-free for the stride family"))
	eachSize(t, result(t, "Theorem 2", "conflict-free for unit stride"))
}

// Property 2 (appendix A): for 1 <= s <= q the scheme is also conflict-free
// for the strides 2^s', s' < s. With s = q this gives Corollary 1 below.
func TestProperty2PowersBelowTheFamily(t *testing.T) {
	eachSize(t, result(t, "Property 2", ""))
}

// Corollary 1: the Matched SAMS scheme (s = q) is conflict-free for strides
// 1, 2, ..., 2^(q-1) and for the family sigma*2^q.
func TestCorollary1Matched(t *testing.T) {
	eachSize(t, result(t, "Corollary 1", ""))
}

// The access checks can fail: stride 3 in the Matched layout (q = 2)
// conflicts from some base, and a check that tried nothing does not hold.
func TestAccessCheckFindsCounterexample(t *testing.T) {
	p := everyBase(Layout{Q: 2, N: 8, Family: 2}, 3)
	require.Equal(t, 256, p.Cases)
	require.Regexp(t, `^q=2 n=8 s=2: stride 3 from base \d+ conflicts$`, p.Fail)
	require.False(t, p.holds())
	require.False(t, proof{}.holds(), "nothing checked")
}

// The checker can fail: strides outside the supported sets do conflict.
// For every layout with at least 4 modules some stride outside its family
// (and outside Property 2's powers) conflicts from some base.
func TestStridesOutsideTheFamiliesConflict(t *testing.T) {
	for _, size := range checkedSizes() {
		if size.Q < 2 {
			continue
		}
		families(size.Q, size.N, func(l Layout) { requireSomeStrideOutsideConflicts(t, l) })
	}
}

// requireSomeStrideOutsideConflicts requires a stride outside l's
// supported ones to conflict from some base.
func requireSomeStrideOutsideConflicts(t *testing.T, l Layout) {
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
	require.Positive(t, conflicts, "q=%d n=%d s=%d: no stride outside the family conflicts", l.Q, l.N, l.Family)
}

// The thesis's worked example (section 3.2.4): Matched SAMS with q = 2 is
// m(a) = <a_2, a_3 XOR a_0>, r(a) = a[n-1:3], o(a) = a_1, and from base 1
// the strides 1, 2 and 4 reach {1,2,3,4}, {1,3,5,7} and {1,5,9,13}
// without conflict.
func TestMatchedQ2Example(t *testing.T) {
	p := matchedExample()
	require.Empty(t, p.Fail)
	require.Equal(t, 256+3, p.Cases, "every address of n = 8 and the three accesses")
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
