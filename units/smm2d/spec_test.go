package smm2d

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The thesis's 2DSMM results (section 3.3, appendix B), checked
// exhaustively: every geometry 1 <= p <= q, p+q <= 5 with mb = p+3 and
// nb = p+q+2, every vs in 0..mb-p and hs in 0..nb-q, both forms of m_v,
// every base, and strides sigma*2^e (mod M or N) for sigma in {1, 3, -1}.
//
// The geometries, schemes and strides are theorems.go's (the check the
// fidelity claims run). The hot loops read its per-Scheme tables of m_v,
// m_h and the bank over the whole M x N array (bankTable) and keep sets
// as uint64 bit masks; they count failures and report the first few
// (require per element would be too slow). The fast checks are compared
// with the API's own (Geometry.Addresses, Scheme.ConflictFree,
// Scheme.Place) on a sample, and Geometry.Routable with an oracle of maps.

// specForms are the two forms of m_v: pre-add (section 3.4.2, the
// hardware's) and post-add (section 3.3, appendix B).
var specForms = []bool{false, true}

func specGeomName(g Geometry) string {
	return fmt.Sprintf("p%d_q%d_mb%d_nb%d", g.P, g.Q, g.MB, g.NB)
}

// specEachGeometry runs f for every geometry in a parallel subtest.
func specEachGeometry(t *testing.T, f func(t *testing.T, g Geometry)) {
	for _, g := range checkGeometries() {
		t.Run(specGeomName(g), func(t *testing.T) {
			t.Parallel()
			f(t, g)
		})
	}
}

// specFailures counts failures in a hot loop, reports the first few and
// requires none at the end.
type specFailures struct {
	t *testing.T
	n int
}

func (f *specFailures) add(format string, args ...any) {
	f.t.Helper()
	f.n++
	if f.n <= 5 {
		f.t.Errorf(format, args...)
	}
}

func (f *specFailures) done() {
	f.t.Helper()
	require.Zero(f.t, f.n, "failures (the first 5 are reported above)")
}

// specRoutable is Theorem 7's grouping of the lanes (arranged 2^p x 2^q
// row-major) with maps, the oracle for Geometry.Routable's bit masks:
// crow false, each column shares lane c's m_h with pairwise different m_v
// and the columns' m_h differ; crow true, each row shares its first
// lane's m_v with pairwise different m_h and the rows' m_v differ.
func specRoutable(g Geometry, mv, mh []uint64, crow bool) bool {
	rows, cols := 1<<uint(g.P), 1<<uint(g.Q)
	at := func(a, c int) int { return a*cols + c }
	lead := map[uint64]bool{}
	if crow {
		for a := range rows {
			if lead[mv[at(a, 0)]] {
				return false
			}
			lead[mv[at(a, 0)]] = true
			seen := map[uint64]bool{}
			for c := range cols {
				if mv[at(a, c)] != mv[at(a, 0)] || seen[mh[at(a, c)]] {
					return false
				}
				seen[mh[at(a, c)]] = true
			}
		}
		return true
	}
	for c := range cols {
		if lead[mh[c]] {
			return false
		}
		lead[mh[c]] = true
		seen := map[uint64]bool{}
		for a := range rows {
			if mh[at(a, c)] != mh[c] || seen[mv[at(a, c)]] {
				return false
			}
			seen[mv[at(a, c)]] = true
		}
	}
	return true
}

// TestTheorem7RoutableGrouping: Geometry.Routable is Theorem 7's grouping
// (specRoutable): every lane assignment for p = q = 1, and for every
// geometry each single-lane change of the grouping m_v = a, m_h = c (lane
// (a, c)), and random assignments. A routable assignment is conflict-free.
func TestTheorem7RoutableGrouping(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		lanes := g.Lanes()
		mv, mh := make([]uint64, lanes), make([]uint64, lanes)
		routable := 0
		check := func() {
			for _, crow := range []bool{false, true} {
				want := specRoutable(g, mv, mh, crow)
				if got := g.Routable(mv, mh, crow); got != want {
					fails.add("Routable(%v, %v, %v) = %v, want %v", mv, mh, crow, got, want)
				}
				if want {
					routable++
					var used uint64
					for k := range lanes {
						used |= 1 << (mv[k]<<uint(g.Q) | mh[k])
					}
					if used != 1<<uint(lanes)-1 {
						fails.add("Routable(%v, %v, %v) with a conflict", mv, mh, crow)
					}
				}
			}
		}
		grouping := func() {
			for k := range lanes {
				a, c := g.LaneAt(k)
				mv[k], mh[k] = uint64(a), uint64(c)
			}
		}
		if lanes == 4 {
			for x := range 1 << 8 {
				for k := range lanes {
					mv[k], mh[k] = uint64(x>>uint(k)&1), uint64(x>>uint(k+4)&1)
				}
				check()
			}
		}
		for k := range lanes {
			for v := range uint64(1) << uint(g.P) {
				grouping()
				mv[k] = v
				check()
			}
			for h := range uint64(1) << uint(g.Q) {
				grouping()
				mh[k] = h
				check()
			}
		}
		r := rand.New(rand.NewPCG(uint64(g.P), uint64(g.Q)))
		for range 2000 {
			grouping()
			for range 1 + r.IntN(3) {
				k := r.IntN(lanes)
				mv[k], mh[k] = r.Uint64N(1<<uint(g.P)), r.Uint64N(1<<uint(g.Q))
			}
			check()
		}
		if routable == 0 {
			fails.add("no assignment routable")
		}
		fails.done()
	})
}

// specConflictFree is Scheme.ConflictFree with a bit mask, for the tests
// that go through Geometry.Addresses.
func specConflictFree(tb *bankTable, is, js []uint64) bool {
	var used uint64
	for k := range is {
		b := tb.bank[tb.at(is[k], js[k])]
		if used>>b&1 != 0 {
			return false
		}
		used |= 1 << b
	}
	return true
}

// TestFigure36ModuleAssignment: Figure 3.6 cell for cell (N = 16, 2^p = 2,
// 2^q = 4, 2^vs = 2, 2^hs = 2; M = 8 here), rows i = 0..3 and the start
// of row 4 as the figure prints them, in both forms (which agree for
// p = 1).
func TestFigure36ModuleAssignment(t *testing.T) {
	for _, post := range specForms {
		s := fig36Scheme
		s.Post = post
		for i, row := range fig36 {
			var got []string
			for j := range len(strings.Fields(row)) {
				got = append(got, fmt.Sprintf("%d,%d", s.Mv(uint64(i), uint64(j)), s.Mh(uint64(j))))
			}
			require.Equal(t, row, strings.Join(got, " "), "%s, row i = %d", formName(post), i)
		}
	}
}

// TestSpecAddressesFigure310: Geometry.Addresses lists Figure 3.10's
// patterns lane by lane, lane k at (a, c) = (k / 2^q, k % 2^q) of the
// row-major 2^p x 2^q array (Theorem 7), mod M and N, from every base.
func TestSpecAddressesFigure310(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		mM, mN := mask(g.MB), mask(g.NB)
		fails := specFailures{t: t}
		for k := range g.Lanes() {
			a, c := g.LaneAt(k)
			if a != k>>uint(g.Q) || c != k%(1<<uint(g.Q)) {
				fails.add("LaneAt(%d) = (%d, %d)", k, a, c)
			}
		}
		want := func(acc Access, k int) (uint64, uint64) {
			a, c := uint64(k>>uint(g.Q)), uint64(k%(1<<uint(g.Q)))
			kk := uint64(k)
			switch acc.Pattern {
			case StridedRow:
				return acc.BI, acc.BJ + kk*acc.HStride
			case StridedBlock:
				return acc.BI + a*acc.VStride, acc.BJ + c*acc.HStride
			case ForwardDiagonal:
				return acc.BI + kk*acc.VStride, acc.BJ + kk*acc.HStride
			case BackwardDiagonal:
				return acc.BI + kk*acc.VStride, acc.BJ - kk*acc.HStride
			case ContinuousRow:
				return acc.BI, acc.BJ + kk
			default: // ContinuousBlock
				return acc.BI + a, acc.BJ + c
			}
		}
		check := func(acc Access) {
			is, js := g.Addresses(acc)
			if len(is) != g.Lanes() || len(js) != g.Lanes() {
				fails.add("%+v: %d, %d addresses, want %d", acc, len(is), len(js), g.Lanes())
				return
			}
			for k := range is {
				wi, wj := want(acc, k)
				if is[k] != wi&mM || js[k] != wj&mN {
					fails.add("%+v lane %d: (%d, %d), want (%d, %d)", acc, k, is[k], js[k], wi&mM, wj&mN)
				}
			}
		}
		for _, pat := range Patterns {
			// Every base, a stride of each sign.
			for bi := range uint64(1) << uint(g.MB) {
				for bj := range uint64(1) << uint(g.NB) {
					check(Access{Pattern: pat, BI: bi, BJ: bj, VStride: oddStride(3, 1, g.MB), HStride: oddStride(-1, 1, g.NB)})
				}
			}
			// Every family and sigma from a few bases.
			for _, b := range [][2]uint64{{0, 0}, {1, 3}, {mM, mN}} {
				for ev := range g.MB {
					for eh := range g.NB {
						for _, sv := range checkSigmas {
							for _, sh := range checkSigmas {
								check(Access{Pattern: pat, BI: b[0], BJ: b[1], VStride: oddStride(sv, ev, g.MB), HStride: oddStride(sh, eh, g.NB)})
							}
						}
					}
				}
			}
		}
		fails.done()
	})
}

// TestProperty1To3Xor: Properties 1-3 (B.1) of Harper's basic XOR scheme
// m(a) = (a (x) T) % 2^n for n in 1..3 and s in 0..5, over bases across
// several periods and near 2^64.
func TestProperty1To3Xor(t *testing.T) {
	sigmas := []int64{1, 3, 5, 7, -1, -3, -5}
	for n := 1; n <= 3; n++ {
		for s := 0; s <= 5; s++ {
			t.Run(fmt.Sprintf("n%d_s%d", n, s), func(t *testing.T) {
				t.Parallel()
				fails := specFailures{t: t}
				period := uint64(1) << uint(n+s)
				var bases []uint64
				for b := range 4 * period {
					bases = append(bases, b, ^uint64(0)-b)
				}
				for _, b := range bases {
					if m := Xor(b, n, s); m >= 1<<uint(n) {
						fails.add("Xor(%d, %d, %d) = %d, not below 2^n", b, n, s, m)
					}
					// Property 1: 2^n addresses of stride sigma*2^s, any
					// base, land on 2^n different values.
					for _, sigma := range sigmas {
						stride := uint64(sigma << uint(s))
						var seen uint64
						for k := range uint64(1) << uint(n) {
							seen |= 1 << Xor(b+k*stride, n, s)
						}
						if seen != 1<<(1<<uint(n))-1 {
							fails.add("Property 1: base %d stride %d*2^%d hits %b", b, sigma, s, seen)
						}
					}
					// Property 2: 2^n unit-stride addresses from a
					// multiple of 2^min(n,s) are different.
					if b&mask(min(n, s)) == 0 {
						var seen uint64
						for k := range uint64(1) << uint(n) {
							seen |= 1 << Xor(b+k, n, s)
						}
						if seen != 1<<(1<<uint(n))-1 {
							fails.add("Property 2: base %d hits %b", b, seen)
						}
					}
					// Property 3: period 2^(n+s).
					for k := uint64(1); k <= 3; k++ {
						if Xor(b+k*period, n, s) != Xor(b, n, s) {
							fails.add("Property 3: Xor(%d) != Xor(%d + %d*2^(n+s))", b, b, k)
						}
					}
				}
				// 2^(n+s) is the least period, and Property 2's alignment is
				// needed when min(n,s) > 0.
				half, misaligned := false, false
				for b := range 4 * period {
					half = half || Xor(b+period/2, n, s) != Xor(b, n, s)
					if b&mask(min(n, s)) != 0 {
						var seen uint64
						for k := range uint64(1) << uint(n) {
							seen |= 1 << Xor(b+k, n, s)
						}
						misaligned = misaligned || seen != 1<<(1<<uint(n))-1
					}
				}
				if !half {
					fails.add("Property 3: 2^(n+s-1) is a period too")
				}
				if min(n, s) > 0 && !misaligned {
					fails.add("Property 2: no misaligned base collides")
				}
				fails.done()
			})
		}
	}
}

// TestProperty4Periods: Property 4 (B.2): m_v(i, j) has period 2^(p+vs)
// in i, m_h(j) period 2^(q+hs), and (m_v, m_h) period 2^(p+q+hs) in j;
// each is the least one. i and j are plain integers (the shifted ones
// leave the array; nothing wraps mod M or N).
func TestProperty4Periods(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				pv := uint64(1) << uint(g.P+s.VS)
				ph := uint64(1) << uint(g.Q+s.HS)
				pj := uint64(1) << uint(g.P+g.Q+s.HS)
				leastV, leastH, leastJ := false, false, false
				for i := range uint64(1) << uint(g.MB) {
					for j := range uint64(1) << uint(g.NB) {
						mv, mh := s.Mv(i, j), s.Mh(j)
						for k := uint64(1); k <= 2; k++ {
							if s.Mv(i+k*pv, j) != mv {
								fails.add("%+v: m_v(%d + %d*2^(p+vs), %d) != m_v(%d, %d)", s, i, k, j, i, j)
							}
							if s.Mh(j+k*ph) != mh {
								fails.add("%+v: m_h(%d + %d*2^(q+hs)) != m_h(%d)", s, j, k, j)
							}
							for l := uint64(1); l <= 2; l++ {
								if s.Mv(i+k*pv, j+l*pj) != mv || s.Mh(j+l*pj) != mh {
									fails.add("%+v: (m_v, m_h)(%d + %d*2^(p+vs), %d + %d*2^(p+q+hs)) != at (%d, %d)", s, i, k, j, l, i, j)
								}
							}
						}
						leastV = leastV || s.Mv(i+pv/2, j) != mv
						leastH = leastH || s.Mh(j+ph/2) != mh
						leastJ = leastJ || s.Mv(i, j+pj/2) != mv || s.Mh(j+pj/2) != mh
					}
				}
				if !leastV || !leastH || !leastJ {
					fails.add("%+v: a half period is a period too (m_v in i %v, m_h %v, (m_v, m_h) in j %v)", s, !leastV, !leastH, !leastJ)
				}
			}
		}
		fails.done()
	})
}

// TestLemma1ColumnSharesMh: Lemma 1, every element of a column has the
// column's m_h, and the bank is m_v*2^q + m_h.
func TestLemma1ColumnSharesMh(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				for j := range uint64(1) << uint(g.NB) {
					mh := s.Mh(j)
					for i := range uint64(1) << uint(g.MB) {
						if b := s.Bank(i, j); uint64(b)&mask(g.Q) != mh || uint64(b)>>uint(g.Q) != s.Mv(i, j) {
							fails.add("%+v: bank(%d, %d) = %d, m_v %d, column's m_h %d", s, i, j, b, s.Mv(i, j), mh)
						}
					}
				}
			}
		}
		fails.done()
	})
}

// TestLemmas2And3Columns: Lemma 2, the 2^p elements (b + a*VS, j) of a
// column with VS = sigma*2^vs have different m_v from every base; Lemma
// 3, so do the 2^p unit-stride ones from a base that is a multiple of
// 2^min(p,vs). i wraps mod M, a multiple of m_v's period (Property 4).
func TestLemmas2And3Columns(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		all := uint64(1)<<(1<<uint(g.P)) - 1
		sigmas := append([]int64{5, -3}, checkSigmas...)
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				tb := newBankTable(s)
				for j := range uint64(1) << uint(g.NB) {
					for b := range uint64(1) << uint(g.MB) {
						for _, sigma := range sigmas {
							vs := oddStride(sigma, s.VS, g.MB)
							var seen uint64
							for a := range uint64(1) << uint(g.P) {
								seen |= 1 << tb.mv[tb.at(b+a*vs, j)]
							}
							if seen != all {
								fails.add("Lemma 2: %+v column %d from %d stride %d: m_v %b", s, j, b, vs, seen)
							}
						}
						if b&mask(min(g.P, s.VS)) == 0 {
							var seen uint64
							for a := range uint64(1) << uint(g.P) {
								seen |= 1 << tb.mv[tb.at(b+a, j)]
							}
							if seen != all {
								fails.add("Lemma 3: %+v column %d from %d: m_v %b", s, j, b, seen)
							}
						}
					}
				}
			}
		}
		fails.done()
	})
}

// TestLemma4RowSharesMv: Lemma 4, the 2^q elements (i, bj + c) of a
// continuous row from a multiple bj of 2^q share m_v. The thesis proves it
// for the pre-add form; the post-add form has it too, as alpha and beta
// are constant over such a row (both are functions of j / 2^q). The
// alignment is needed: some misaligned row's m_v changes.
func TestLemma4RowSharesMv(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		cols := uint64(1) << uint(g.Q)
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				needed := false
				for i := range uint64(1) << uint(g.MB) {
					for bj := range uint64(1) << uint(g.NB) {
						mv, alpha, beta := s.Mv(i, bj), s.Alpha(bj), s.Beta(bj)
						same := true
						for c := range cols {
							same = same && s.Mv(i, bj+c) == mv
							if bj%cols == 0 && (s.Alpha(bj+c) != alpha || s.Beta(bj+c) != beta) {
								fails.add("%+v: alpha, beta at %d = %d, %d, at %d = %d, %d", s, bj+c, s.Alpha(bj+c), s.Beta(bj+c), bj, alpha, beta)
							}
						}
						if bj%cols == 0 && !same {
							fails.add("Lemma 4: %+v row %d from %d: m_v not constant", s, i, bj)
						}
						needed = needed || !same
					}
				}
				if !needed {
					fails.add("%+v: every continuous row of 2^q shares m_v, aligned or not", s)
				}
			}
		}
		fails.done()
	})
}

// TestTheorems1To7UnderPoint3: Theorems 1-6, every access Supported
// accepts (strided row, Theorem 1; continuous row, Theorem 2; forward and
// backward diagonals, Theorems 3 and 4; strided block, Theorem 5;
// continuous block, Theorem 6) with addresses wrapping mod M and N (the
// issue's point 3) lies in 2^(p+q) different banks, and the lanes group as
// Theorem 7 says (by rows for the continuous row, by columns otherwise),
// so the router serves them. Both forms, every vs, hs, base and sigma.
func TestTheorems1To7UnderPoint3(t *testing.T) {
	gs := checkGeometries()
	found := make([][]TheoremCheck, len(gs)) // by geometry, then by form and vs
	t.Run("all", func(t *testing.T) {
		for gi, g := range gs {
			found[gi] = make([]TheoremCheck, 2*(g.MB-g.P+1))
			for f, post := range specForms {
				for vs := 0; vs <= g.MB-g.P; vs++ {
					t.Run(fmt.Sprintf("%s/%s/vs%d", specGeomName(g), formName(post), vs), func(t *testing.T) {
						t.Parallel()
						c := checkTheorems(g, post, vs)
						found[gi][f*(g.MB-g.P+1)+vs] = c
						for _, f := range c.Failures {
							t.Error(f)
						}
						require.Positive(t, c.Schemes)
						require.Zero(t, c.Collisions)
						require.Zero(t, c.Beyond)
						for _, pat := range Patterns {
							require.Zero(t, c.Conflicting[pat], "%v conflicting", pat)
							require.Zero(t, c.Unroutable[pat], "%v not routable", pat)
							require.Zero(t, c.Empty[pat], "schemes accepting no %v", pat)
						}
					})
				}
			}
		}
	})
	var totals [6]int
	for gi, g := range gs {
		var parts []string
		for _, pat := range Patterns {
			n := 0
			for _, c := range found[gi] {
				n += c.Accepted[pat]
			}
			totals[pat] += n
			parts = append(parts, fmt.Sprintf("%v %d", pat, n))
			require.Positive(t, n, "%s: Supported accepts no %v", specGeomName(g), pat)
		}
		t.Logf("%s accepted (both forms): %s", specGeomName(g), strings.Join(parts, ", "))
	}
	var parts []string
	sum := 0
	for _, pat := range Patterns {
		parts = append(parts, fmt.Sprintf("%v %d", pat, totals[pat]))
		sum += totals[pat]
	}
	t.Logf("all accepted accesses: %s; total %d", strings.Join(parts, ", "), sum)
}

// TestTheoremCheckAgreesWithTheAPI: the check's fast path (bankTable's
// place and injective) agrees with the API (Geometry.Addresses,
// Scheme.Place, Scheme.ConflictFree, Geometry.Routable) on random accesses
// of every scheme and pattern, accepted or not; and a check that finds a
// conflict says so (a table with two elements in one bank and row).
func TestTheoremCheckAgreesWithTheAPI(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		r := rand.New(rand.NewPCG(uint64(g.P), uint64(g.Q)))
		lanes := g.Lanes()
		mv, mh := make([]uint64, lanes), make([]uint64, lanes)
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				tb := newBankTable(s)
				for _, pat := range Patterns {
					for _, st := range accessStrides(s, pat) {
						a := Access{Pattern: pat, VStride: st[0], HStride: st[1]}
						di, dj := g.Addresses(a)
						for range 4 {
							a.BI, a.BJ = r.Uint64N(1<<uint(g.MB)), r.Uint64N(1<<uint(g.NB))
							free := tb.place(a.BI, a.BJ, di, dj, mv, mh)
							is, js := g.Addresses(a)
							pmv, pmh, _ := s.Place(is, js)
							for k := range is {
								if pmv[k] != mv[k] || pmh[k] != mh[k] {
									fails.add("%+v %+v lane %d: place (%d, %d), Place (%d, %d)", s, a, k, mv[k], mh[k], pmv[k], pmh[k])
								}
							}
							if s.ConflictFree(is, js) != free {
								fails.add("%+v %+v: place says conflict-free %v", s, a, free)
							}
						}
					}
				}
				if !tb.injective() {
					fails.add("%+v: not injective", s)
				}
				tb.bank[1] = tb.bank[0] // (0, 0) and (0, 1) share row 0
				if tb.injective() {
					fails.add("%+v: a shared bank and row not found", s)
				}
			}
		}
		fails.done()
	})
}

// TestBijectionArrayToBanksAndRows: (i, j) -> (m_v, m_h, r) maps the
// M x N array one to one onto 2^(p+q) banks x 2^(mb+nb-p-q) rows (Theorem 6
// justifies r: the elements of a row lie in different banks), in both
// forms for every vs, hs; Place agrees with Mv, Mh and Row.
func TestBijectionArrayToBanksAndRows(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		cells := 1 << uint(g.MB+g.NB)
		var is, js []uint64
		for i := range uint64(1) << uint(g.MB) {
			for j := range uint64(1) << uint(g.NB) {
				is, js = append(is, i), append(js, j)
			}
		}
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				seen := make([]uint64, cells/64+1)
				pmv, pmh, prow := s.Place(is, js)
				if len(pmv) != cells || len(pmh) != cells || len(prow) != cells {
					fails.add("%+v: Place returned %d, %d, %d", s, len(pmv), len(pmh), len(prow))
					continue
				}
				for k := range is {
					mv, mh, row := s.Mv(is[k], js[k]), s.Mh(js[k]), s.Row(is[k], js[k])
					if pmv[k] != mv || pmh[k] != mh || prow[k] != row {
						fails.add("%+v: Place(%d, %d) = (%d, %d, %d), want (%d, %d, %d)", s, is[k], js[k], pmv[k], pmh[k], prow[k], mv, mh, row)
					}
					if mv >= 1<<uint(g.P) || mh >= 1<<uint(g.Q) || row >= 1<<uint(g.RW()) {
						fails.add("%+v: (%d, %d) -> (%d, %d, %d) out of range", s, is[k], js[k], mv, mh, row)
						continue
					}
					key := (mv<<uint(g.Q)|mh)<<uint(g.RW()) | row
					if seen[key/64]>>(key%64)&1 != 0 {
						fails.add("%+v: (%d, %d) -> (%d, %d, %d) twice", s, is[k], js[k], mv, mh, row)
					}
					seen[key/64] |= 1 << (key % 64)
				}
			}
		}
		fails.done()
	})
}

// TestFormsPreAndPostAdd: the pre-add m_v (section 3.4.2) equals the
// post-add one (section 3.3) for p = 1 everywhere, and differs somewhere
// for p = 2.
func TestFormsPreAndPostAdd(t *testing.T) {
	differs := false
	for _, g := range checkGeometries() {
		for _, s := range formSchemes(g, false) {
			post := s
			post.Post = true
			for i := range uint64(1) << uint(g.MB) {
				for j := range uint64(1) << uint(g.NB) {
					pre, pst := s.Mv(i, j), post.Mv(i, j)
					switch {
					case pre == pst:
					case g.P == 1:
						require.Failf(t, "forms differ for p = 1", "%+v: m_v(%d, %d) pre-add %d, post-add %d", s, i, j, pre, pst)
					case !differs:
						differs = true
						t.Logf("p = %d: %v, vs = %d, hs = %d: m_v(%d, %d) is %d pre-add, %d post-add", g.P, g, s.VS, s.HS, i, j, pre, pst)
					}
				}
			}
		}
	}
	require.True(t, differs, "the forms agree for p = 2 too")
}

// TestFailStridedRowOfAnotherFamily: a strided row with HS = sigma*2^(hs+1)
// on a scheme configured for hs conflicts from every base: m_h has period
// 2^(q+hs) (Property 3), so the 2^(p+q) lanes meet at most 2^(q-1) m_h
// and 2^p m_v, fewer banks than lanes. Supported rejects it.
func TestFailStridedRowOfAnotherFamily(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		lanes := g.Lanes()
		mv, mh := make([]uint64, lanes), make([]uint64, lanes)
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				if s.HS+1 > g.NB-g.Q {
					continue
				}
				tb := newBankTable(s)
				for _, sigma := range checkSigmas {
					a := Access{Pattern: StridedRow, VStride: oddStride(1, s.VS, g.MB), HStride: oddStride(sigma, s.HS+1, g.NB)}
					di, dj := g.Addresses(a)
					for bi := range uint64(1) << uint(g.MB) {
						for bj := range uint64(1) << uint(g.NB) {
							if tb.place(bi, bj, di, dj, mv, mh) {
								fails.add("%+v: strided row from (%d, %d), HS %d, is conflict-free", s, bi, bj, a.HStride)
							}
						}
					}
					a.BI, a.BJ = 1, 3
					is, js := g.Addresses(a)
					if s.ConflictFree(is, js) {
						fails.add("%+v: ConflictFree(%+v)", s, a)
					}
					if mv, mh, _ := s.Place(is, js); g.Routable(mv, mh, false) {
						fails.add("%+v: Routable(%+v)", s, a)
					}
					if ok, _ := s.Supported(a); ok {
						fails.add("%+v: Supported(%+v)", s, a)
					}
				}
			}
		}
		fails.done()
	})
}

// TestFailMisalignedContinuous: the alignments of Theorems 2 and 6 are
// needed. A continuous row from some bj that is not a multiple of
// 2^(q+min(p,hs)) conflicts when hs > 0 (with hs = 0, alpha = j/2^q % 2^p,
// beta = 0 and m_h = j % 2^q, so 2^(p+q) consecutive j meet every
// (alpha, m_h) once, and m_v is one to one in alpha by Property 1);
// a continuous block conflicts from some bi not a multiple of 2^min(p,vs)
// when min(p,vs) > 0, and from some bj not a multiple of 2^min(q,hs) when
// min(q,hs) > 0 (Property 2's alignment). Supported rejects each.
func TestFailMisalignedContinuous(t *testing.T) {
	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		// witness finds a conflicting base among those bad accepts, checks
		// it with the API and Supported, and says whether there is one.
		witness := func(s Scheme, pat Pattern, bad func(bi, bj uint64) bool) (Access, bool) {
			tb := newBankTable(s)
			for bi := range uint64(1) << uint(g.MB) {
				for bj := range uint64(1) << uint(g.NB) {
					if !bad(bi, bj) {
						continue
					}
					a := Access{Pattern: pat, BI: bi, BJ: bj, VStride: 1, HStride: 1}
					is, js := g.Addresses(a)
					if specConflictFree(tb, is, js) {
						continue
					}
					if s.ConflictFree(is, js) {
						fails.add("%+v: ConflictFree(%+v) disagrees with the bank table", s, a)
					}
					if ok, _ := s.Supported(a); ok {
						fails.add("%+v: Supported(%+v) though it conflicts", s, a)
					}
					if mv, mh, _ := s.Place(is, js); g.Routable(mv, mh, pat == ContinuousRow) {
						fails.add("%+v: Routable(%+v) though it conflicts", s, a)
					}
					return a, true
				}
			}
			return Access{}, false
		}
		for _, post := range specForms {
			for _, s := range formSchemes(g, post) {
				rowAlign := g.Q + min(g.P, s.HS)
				if _, found := witness(s, ContinuousRow, func(_, bj uint64) bool { return bj&mask(rowAlign) != 0 }); found != (s.HS > 0) {
					fails.add("%+v: a misaligned continuous row conflicts: %v, want %v", s, found, s.HS > 0)
				}
				vAlign, hAlign := min(g.P, s.VS), min(g.Q, s.HS)
				if _, found := witness(s, ContinuousBlock, func(bi, bj uint64) bool { return bi&mask(vAlign) != 0 && bj&mask(hAlign) == 0 }); found != (vAlign > 0) {
					fails.add("%+v: a block from a misaligned bi conflicts: %v, want %v", s, found, vAlign > 0)
				}
				if _, found := witness(s, ContinuousBlock, func(bi, bj uint64) bool { return bi&mask(vAlign) == 0 && bj&mask(hAlign) != 0 }); found != (hAlign > 0) {
					fails.add("%+v: a block from a misaligned bj conflicts: %v, want %v", s, found, hAlign > 0)
				}
			}
		}
		fails.done()
	})
}

// TestFailWrappedDiagonalAndRow: the wrapped diagonal. p = q = 1,
// M = N = 16, vs = 0, hs = 3 > nb-p-q = 2: the diagonal with VS = 1,
// HS = 8 wraps in j (lane 2 is back at bj) and conflicts from some base,
// beyond Theorems 3 and 4's bound, so Supported rejects it. And with
// hs > nb-p-q a strided row repeats an element: lane 2^(nb-hs) < 2^(p+q)
// is back at (bi, bj) (Theorem 1's bound).
func TestFailWrappedDiagonalAndRow(t *testing.T) {
	g := Geometry{P: 1, Q: 1, MB: 4, NB: 4}
	for _, post := range specForms {
		s := Scheme{Geometry: g, VS: 0, HS: 3, Post: post}
		for _, pat := range []Pattern{ForwardDiagonal, BackwardDiagonal} {
			var conflict *Access
			for bi := range uint64(16) {
				for bj := range uint64(16) {
					a := Access{Pattern: pat, BI: bi, BJ: bj, VStride: 1, HStride: 8}
					ok, why := s.Supported(a)
					require.False(t, ok, "%+v: Supported(%+v)", s, a)
					require.NotEmpty(t, why)
					if is, js := g.Addresses(a); conflict == nil && !s.ConflictFree(is, js) {
						conflict = &a
						mv, mh, _ := s.Place(is, js)
						t.Logf("%s %v from (%d, %d): (i, j) %v %v -> m_v %v, m_h %v; Supported: %s", formName(post), pat, bi, bj, is, js, mv, mh, why)
					}
				}
			}
			require.NotNil(t, conflict, "%+v: no %v conflicts", s, pat)
		}
	}

	specEachGeometry(t, func(t *testing.T, g Geometry) {
		fails := specFailures{t: t}
		s := Scheme{Geometry: g}
		repeats := 0
		for hs := g.NB - g.P - g.Q + 1; hs <= g.NB-g.Q; hs++ {
			s.HS = hs
			for _, sigma := range checkSigmas {
				for bi := range uint64(1) << uint(g.MB) {
					for bj := range uint64(1) << uint(g.NB) {
						a := Access{Pattern: StridedRow, BI: bi, BJ: bj, HStride: oddStride(sigma, hs, g.NB)}
						is, js := g.Addresses(a)
						var seen [2]uint64 // j < N <= 128
						repeated := false
						for k := range js {
							repeated = repeated || is[k] != bi || seen[js[k]/64]>>(js[k]%64)&1 != 0
							seen[js[k]/64] |= 1 << (js[k] % 64)
						}
						if !repeated {
							fails.add("hs = %d: strided row %+v repeats no element", hs, a)
							continue
						}
						repeats++
						if bi == 0 && bj == 0 {
							for _, post := range specForms {
								s.Post = post
								if s.ConflictFree(is, js) {
									fails.add("%+v: ConflictFree(%+v) with a repeated element", s, a)
								}
								if ok, _ := s.Supported(a); ok {
									fails.add("%+v: Supported(%+v)", s, a)
								}
							}
						}
					}
				}
			}
		}
		if repeats == 0 {
			fails.add("no strided row beyond hs <= nb-p-q")
		}
		fails.done()
	})
}
