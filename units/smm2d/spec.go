// Package smm2d is the 2DSMM 2D strided multi-access memory of Gou's thesis
// (section 3.3, section 3.4.2, appendix B): 2^p x 2^q banks serve 2^(p+q)
// lanes that read or write an M x N array in six patterns (strided row,
// strided block, forward and backward diagonal, continuous row and block)
// without bank conflicts. spec.go is the scheme's mathematics; agu.go,
// atu.go, route.go and memory.go are the hardware; model.go the
// cycle-level model of sub-accesses; register.go the registry entry.
package smm2d

import (
	"fmt"
	"math/bits"
)

// Geometry is what the hardware fixes: 2^P x 2^Q banks (1 <= P <= Q) and
// an M x N array, M = 2^MB rows (vertical address i), N = 2^NB columns
// (horizontal address j).
type Geometry struct {
	P, Q, MB, NB int
}

// Lanes is L = 2^(p+q), the lanes and the banks.
func (g Geometry) Lanes() int { return 1 << uint(g.P+g.Q) }

// VW is the width of the vs input: bits to hold mb-p (at least 1).
func (g Geometry) VW() int { return widthOf(g.MB - g.P) }

// HW is the width of the hs input: bits to hold nb-q (at least 1).
func (g Geometry) HW() int { return widthOf(g.NB - g.Q) }

// RW is the width of a bank address: mb+nb-p-q.
func (g Geometry) RW() int { return g.MB + g.NB - g.P - g.Q }

// widthOf is ceil(log2(x+1)), at least 1: the bits that hold x.
func widthOf(x int) int { return max(1, bits.Len(uint(x))) }

// LaneAt is lane k's place in the 2^p x 2^q access array, read row-major
// (Theorem 7, Figure 3.15): k = a*2^q + c.
func (g Geometry) LaneAt(k int) (a, c int) { return k >> uint(g.Q), k & (1<<uint(g.Q) - 1) }

// Row is the row assignment function r(i,j) = (i/2^p)(N/2^q) + j/2^q
// (section 3.3): the concatenation {i>>p, j>>q}, as j < N.
func (g Geometry) Row(i, j uint64) uint64 {
	return (i>>uint(g.P))<<uint(g.NB-g.Q) | j>>uint(g.Q)
}

// Scheme is a Geometry with the runtime configuration: the exponents vs,
// hs of the supported strides VS = sigma_v*2^vs, HS = sigma_h*2^hs, and
// which of the thesis's two forms of m_v is built (Post: section 3.3's
// "post-add"; otherwise section 3.4.2's "pre-add", the hardware form).
type Scheme struct {
	Geometry
	VS, HS int
	Post   bool
}

// Xor is Harper's basic XOR scheme on n bits with stride exponent s
// (thesis 3.2.2, B.1): (x (x) prod_{k<min(n,s)} T_{k+max(n,s),k}) % 2^n,
// that is bit k of x XORed with bit k+max(n,s) of x when k < min(n,s),
// for k < n.
func Xor(x uint64, n, s int) uint64 {
	var m uint64
	for k := range n {
		b := bitOf(x, k)
		if k < min(n, s) {
			b ^= bitOf(x, k+max(n, s))
		}
		m |= b << uint(k)
	}
	return m
}

// bitOf is bit k of x; bits at and above 64 read as 0.
func bitOf(x uint64, k int) uint64 {
	if k >= 64 {
		return 0
	}
	return x >> uint(k) & 1
}

// shr is x >> s; shifts of 64 and more give 0.
func shr(x uint64, s int) uint64 {
	if s >= 64 {
		return 0
	}
	return x >> uint(s)
}

// Alpha is the coarse column rotation alpha(j) = (j / 2^(q+hs)) % 2^p
// (section 3.3): blocks of M x 2^(q+hs).
func (s Scheme) Alpha(j uint64) uint64 { return shr(j, s.Q+s.HS) & s.pMask() }

// Beta is the fine column rotation beta(j) = ((j/2^q) * 2^(p-min(p,hs)))
// % 2^p (section 3.3): blocks of M x 2^q.
func (s Scheme) Beta(j uint64) uint64 {
	return (j >> uint(s.Q) << uint(s.P-min(s.P, s.HS))) & s.pMask()
}

func (s Scheme) pMask() uint64 { return 1<<uint(s.P) - 1 }

// Mh is the horizontal module index m_h(j) = (j (x) T_h) % 2^q.
func (s Scheme) Mh(j uint64) uint64 { return Xor(j, s.Q, s.HS) }

// Mv is the vertical module index. Pre-add (section 3.4.2, Figure 3.12,
// Lemma 4): [(i + (alpha+beta)*2^vs) (x) T_v] % 2^p, the sum not
// truncated and alpha+beta taken mod 2^p. Post-add (section 3.3 and
// appendix B): (i (x) T_v + alpha + beta) % 2^p.
func (s Scheme) Mv(i, j uint64) uint64 {
	rot := (s.Alpha(j) + s.Beta(j)) & s.pMask()
	if s.Post {
		return (Xor(i, s.P, s.VS) + rot) & s.pMask()
	}
	var shifted uint64
	if s.VS < 64 {
		shifted = rot << uint(s.VS)
	}
	return Xor(i+shifted, s.P, s.VS)
}

// Bank is the bank of element (i,j): m_v*2^q + m_h.
func (s Scheme) Bank(i, j uint64) int { return int(s.Mv(i, j)<<uint(s.Q) | s.Mh(j)) }

// Place is where the scheme puts the elements (is[k], js[k]): each one's
// m_v, m_h and row.
func (s Scheme) Place(is, js []uint64) (mv, mh, rows []uint64) {
	for k := range is {
		mv = append(mv, s.Mv(is[k], js[k]))
		mh = append(mh, s.Mh(js[k]))
		rows = append(rows, s.Row(is[k], js[k]))
	}
	return mv, mh, rows
}

// ConflictFree is true when the elements lie in pairwise different banks.
func (s Scheme) ConflictFree(is, js []uint64) bool {
	seen := map[int]bool{}
	for k := range is {
		b := s.Bank(is[k], js[k])
		if seen[b] {
			return false
		}
		seen[b] = true
	}
	return true
}

// Pattern is an access pattern of Figure 3.10, as the AGU's pattern input
// codes it.
type Pattern int

const (
	StridedRow       Pattern = iota // (bi, bj + k*HS)
	StridedBlock                    // (bi + a*VS, bj + c*HS)
	ForwardDiagonal                 // (bi + k*VS, bj + k*HS)
	BackwardDiagonal                // (bi + k*VS, bj - k*HS)
	ContinuousRow                   // (bi, bj + k)
	ContinuousBlock                 // (bi + a, bj + c)
)

// Patterns are the six patterns in code order.
var Patterns = []Pattern{StridedRow, StridedBlock, ForwardDiagonal, BackwardDiagonal, ContinuousRow, ContinuousBlock}

var patternNames = []string{"strided row", "strided block", "forward diagonal", "backward diagonal", "continuous row", "continuous block"}

func (p Pattern) String() string {
	if p >= 0 && int(p) < len(patternNames) {
		return patternNames[p]
	}
	return fmt.Sprintf("pattern %d (as strided row)", int(p))
}

// Crow is true for the continuous row, the one pattern the router groups
// by rows (Theorem 7).
func (p Pattern) Crow() bool { return p == ContinuousRow }

// Access is one request of the 2DSMM: a pattern from base (BI, BJ) with
// the strides VS, HS (as the hardware holds them: mod M and mod N).
type Access struct {
	Pattern          Pattern
	BI, BJ           uint64
	VStride, HStride uint64
}

// Addresses are the L elements an access touches, lane by lane (Figure
// 3.10), i mod M and j mod N; codes 6 and 7 read as the strided row.
func (g Geometry) Addresses(a Access) (is, js []uint64) {
	mM, mN := mask(g.MB), mask(g.NB)
	for k := range g.Lanes() {
		ra, c := g.LaneAt(k)
		kk, aa, cc := uint64(k), uint64(ra), uint64(c)
		var di, dj uint64
		switch a.Pattern {
		case StridedBlock:
			di, dj = aa*a.VStride, cc*a.HStride
		case ForwardDiagonal:
			di, dj = kk*a.VStride, kk*a.HStride
		case BackwardDiagonal:
			di, dj = kk*a.VStride, -kk*a.HStride
		case ContinuousRow:
			dj = kk
		case ContinuousBlock:
			di, dj = aa, cc
		default:
			dj = kk * a.HStride
		}
		is = append(is, (a.BI+di)&mM)
		js = append(js, (a.BJ+dj)&mN)
	}
	return is, js
}

// mask is 2^n - 1 (all ones for n >= 64).
func mask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// Routable is smm2d-route's ok, Theorem 7's grouping of the lanes' module
// indices. crow false: every column c of lanes has lane c's m_h with
// pairwise distinct m_v, and lanes 0..2^q-1 have distinct m_h. crow true:
// every row a has lane a*2^q's m_v with pairwise distinct m_h, and those
// m_v are distinct. Module indices are below 2^p and 2^q (p+q <= 6), so
// sets of them are bit masks; an index out of range is not routable.
func (g Geometry) Routable(mv, mh []uint64, crow bool) bool {
	rows, cols := 1<<uint(g.P), 1<<uint(g.Q)
	for k := range g.Lanes() {
		if mv[k] >= uint64(rows) || mh[k] >= uint64(cols) {
			return false
		}
	}
	at := func(a, c int) int { return a*cols + c }
	var lead uint64
	if crow {
		for a := range rows {
			v := mv[at(a, 0)]
			if lead>>v&1 != 0 {
				return false
			}
			lead |= 1 << v
			var seen uint64
			for c := range cols {
				h := mh[at(a, c)]
				if mv[at(a, c)] != v || seen>>h&1 != 0 {
					return false
				}
				seen |= 1 << h
			}
		}
		return true
	}
	for c := range cols {
		h := mh[c]
		if lead>>h&1 != 0 {
			return false
		}
		lead |= 1 << h
		var seen uint64
		for a := range rows {
			v := mv[at(a, c)]
			if mh[at(a, c)] != h || seen>>v&1 != 0 {
				return false
			}
			seen |= 1 << v
		}
	}
	return true
}

// Family is the exponent of a stride's power-of-two factor (stride =
// sigma*2^family, sigma odd) within w bits, and false for stride 0.
func Family(stride uint64, w int) (int, bool) {
	stride &= mask(w)
	if stride == 0 {
		return 0, false
	}
	return bits.TrailingZeros64(stride), true
}

// Supported says whether the scheme serves the access conflict-free by
// appendix B under the point 3 (addresses wrap mod M and N):
//
//	strided row         HS = sigma*2^hs, hs <= nb-p-q            (Theorem 1)
//	strided block       VS = sigma*2^vs, HS = sigma*2^hs,
//	                    vs <= mb-p, hs <= nb-q                   (Theorem 5)
//	diagonals           VS, HS of the families, vs <= mb-p,
//	                    hs <= nb-p-q                             (Theorems 3, 4)
//	continuous row      bj a multiple of 2^(q+min(p,hs)), hs <= nb-q (Theorem 2)
//	continuous block    bi a multiple of 2^min(p,vs), bj of 2^min(q,hs),
//	                    hs <= nb-q                               (Theorem 6)
//
// It returns the reason when not.
func (s Scheme) Supported(a Access) (bool, string) {
	vfam, vok := Family(a.VStride, s.MB)
	hfam, hok := Family(a.HStride, s.NB)
	vStride := func() string {
		switch {
		case !vok || vfam != s.VS:
			return fmt.Sprintf("VS = %d is not an odd multiple of 2^vs = %d", a.VStride, 1<<uint(min(s.VS, 63)))
		case s.VS > s.MB-s.P:
			return fmt.Sprintf("vs = %d > mb-p = %d", s.VS, s.MB-s.P)
		}
		return ""
	}
	hStride := func(most int) string {
		switch {
		case !hok || hfam != s.HS:
			return fmt.Sprintf("HS = %d is not an odd multiple of 2^hs = %d", a.HStride, 1<<uint(min(s.HS, 63)))
		case s.HS > most:
			return fmt.Sprintf("hs = %d > %d", s.HS, most)
		}
		return ""
	}
	aligned := func(what string, x uint64, e int) string {
		if x&mask(e) != 0 {
			return fmt.Sprintf("%s = %d is not a multiple of %d", what, x, 1<<uint(e))
		}
		return ""
	}
	var why string
	switch a.Pattern {
	case StridedBlock:
		why = first(vStride(), hStride(s.NB-s.Q))
	case ForwardDiagonal, BackwardDiagonal:
		why = first(vStride(), hStride(s.NB-s.P-s.Q))
	case ContinuousRow:
		why = first(aligned("bj", a.BJ, s.Q+min(s.P, s.HS)), bound("hs", s.HS, s.NB-s.Q))
	case ContinuousBlock:
		why = first(aligned("bi", a.BI, min(s.P, s.VS)), aligned("bj", a.BJ, min(s.Q, s.HS)), bound("hs", s.HS, s.NB-s.Q))
	default:
		why = hStride(s.NB - s.P - s.Q)
	}
	return why == "", why
}

func bound(name string, x, most int) string {
	if x > most {
		return fmt.Sprintf("%s = %d > %d", name, x, most)
	}
	return ""
}

func first(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}
