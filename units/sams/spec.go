// Package sams is the SAMS multi-layout parallel memory of Gou's thesis
// (chapters 3 and 4): the paper's address mapping in plain Go (spec.go),
// and its hardware blocks built with hdl — address generation (AGU),
// address translation (ATU), the In/OutSwitch crossbars, the post-read and
// pre-write shuffles of the wide port, and the whole memory with its
// conflict splitter.
package sams

import "math/bits"

// Layout is one internal data layout of a SAMS memory with 2^Q modules
// and 2^N elements: the mapping of stride family Family (thesis Eq. 3.1 to
// 3.3), or the NaS layout of section 4.3.2 when NaS is set. Address bits at
// and above N read as 0, so Family may exceed N-Q.
type Layout struct {
	Q, N   int
	Family int
	NaS    bool
}

// bit returns a_j, zero for j >= n.
func bit(a uint64, j, n int) uint64 {
	if j >= n || j >= 64 {
		return 0
	}
	return a >> uint(j) & 1
}

// HarperXOR is a ⊗ T_H(x,y): the n-bit address a times Harper's XOR
// transformation matrix T_H(x,y) = prod_{k<min(x,y)} T_{k+max(x,y),k}
// (thesis section 3.2.2), where T_{i,j} is the identity with a 1 at (i,j).
// Bit k of the product, for k < min(x,y), is a_k XOR a_{k+max(x,y)}; the
// other bits are a's.
func HarperXOR(a uint64, x, y, n int) uint64 {
	lo, hi := min(x, y), max(x, y)
	r := a & mask(n)
	for k := range lo {
		r ^= bit(a, k+hi, n) << uint(k)
	}
	return r
}

func mask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// Module is the module assignment m(a), thesis Eq. 3.1:
//
//	s = 0:       a % 2^q
//	1 <= s <= q: <a_q..a_s, (a ⊗ T_H(s-1, q+1)) % 2^(s-1)>
//	s > q:       (a ⊗ T_H(q, s)) % 2^q
//
// and for NaS (section 4.3.2) (a/2) % 2^q.
func (l Layout) Module(a uint64) uint64 {
	q, s, n := l.Q, l.Family, l.N
	a &= mask(n)
	switch {
	case l.NaS:
		return a >> 1 & mask(q)
	case s == 0:
		return a & mask(q)
	case s <= q:
		high := a >> uint(s) & mask(q-s+1) // a_q..a_s: q-s+1 bits
		low := HarperXOR(a, s-1, q+1, n) & mask(s-1)
		return high<<uint(s-1) | low
	}
	return HarperXOR(a, q, s, n) & mask(q)
}

// Row is the row assignment r(a), thesis Eq. 3.2 (n-q-1 bits):
//
//	s <= q: a / 2^(q+1)
//	s > q:  ((a/2^q + 1) % 2^(n-q)) / 2
//
// and for NaS a / 2^(q+1).
func (l Layout) Row(a uint64) uint64 {
	q, n := l.Q, l.N
	a &= mask(n)
	if l.NaS || l.Family <= q {
		return a >> uint(q+1)
	}
	return (a>>uint(q) + 1) & mask(n-q) >> 1
}

// Offset is the offset assignment o(a), thesis Eq. 3.3:
//
//	s = 0: a_q,  1 <= s <= q: a_(s-1),  s > q: NOT a_q
//
// and for NaS a_0.
func (l Layout) Offset(a uint64) uint64 {
	q, s, n := l.Q, l.Family, l.N
	switch {
	case l.NaS:
		return bit(a, 0, n)
	case s == 0:
		return bit(a, q, n)
	case s <= q:
		return bit(a, s-1, n)
	}
	return bit(a, q, n) ^ 1
}

// Slot is where an element lives: module, row and offset in the row.
type Slot struct{ Module, Row, Offset uint64 }

// Place maps a linear address to its slot.
func (l Layout) Place(a uint64) Slot {
	return Slot{l.Module(a), l.Row(a), l.Offset(a)}
}

// Fam is the stride family number of a stride, as the AGU computes it:
// the count of trailing zero bits, capped at n-q (so fam(0) = n-q).
func Fam(stride uint64, n, q int) int {
	stride &= mask(n)
	if stride == 0 {
		return n - q
	}
	return min(bits.TrailingZeros64(stride), n-q)
}

// Addresses returns the 2^q addresses of a vector access (mod 2^n): base,
// base + stride, ... (base + i*stride).
func Addresses(base, stride uint64, q, n int) []uint64 {
	addrs := make([]uint64, 1<<uint(q))
	for i := range addrs {
		addrs[i] = (base + uint64(i)*stride) & mask(n)
	}
	return addrs
}

// SubAccesses is the number of conflict-free sub-accesses the enabled
// addresses of one access need: the largest number of distinct rows any
// module is asked for (0 when nothing is enabled). An access is
// conflict-free, in the thesis's sense (appendix A), when it is at most 1:
// two elements in one module must share its row, which holds two.
func (l Layout) SubAccesses(addrs []uint64, enabled []bool) int {
	rows := map[uint64]map[uint64]bool{}
	most := 0
	for i, a := range addrs {
		if enabled != nil && !enabled[i] {
			continue
		}
		s := l.Place(a)
		if rows[s.Module] == nil {
			rows[s.Module] = map[uint64]bool{}
		}
		rows[s.Module][s.Row] = true
		most = max(most, len(rows[s.Module]))
	}
	return most
}

// ConflictFree reports whether all addresses of an access fit one access:
// no two of them in one module but different rows.
// It takes at most 64 addresses (2^q lanes, q <= 6) and allocates nothing,
// for the exhaustive theorem tests.
func (l Layout) ConflictFree(addrs []uint64) bool {
	var slots [64]Slot
	for i, a := range addrs {
		slots[i] = l.Place(a)
		for _, o := range slots[:i] {
			if o.Module == slots[i].Module && o.Row != slots[i].Row {
				return false
			}
		}
	}
	return true
}

// SubAccessPlan returns, for each enabled address of an access, the
// sub-access (1, 2, ...) that serves it, by the memory's rule: each
// sub-access serves, in every module, the row of the lowest-numbered lane
// still waiting for that module, and every waiting lane that wants that
// row. Disabled lanes get 0. The largest entry equals SubAccesses.
func (l Layout) SubAccessPlan(addrs []uint64, enabled []bool) []int {
	plan := make([]int, len(addrs))
	waiting := 0
	for i := range addrs {
		if enabled == nil || enabled[i] {
			plan[i] = -1
			waiting++
		}
	}
	for round := 1; waiting > 0; round++ {
		chosen := map[uint64]uint64{} // module -> row served this round
		for i, a := range addrs {
			if plan[i] != -1 {
				continue
			}
			s := l.Place(a)
			if _, ok := chosen[s.Module]; !ok {
				chosen[s.Module] = s.Row
			}
		}
		for i, a := range addrs {
			if s := l.Place(a); plan[i] == -1 && chosen[s.Module] == s.Row {
				plan[i] = round
				waiting--
			}
		}
	}
	return plan
}
