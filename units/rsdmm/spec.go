// Package rsdmm is the family of Nakano's random address shift memory
// machines (nakano-rsdmm-random-address-shift.txt): the DMM, the SDMM with
// its request packing unit (RPU) and the RSDMM with its random shift unit
// (RSU).
package rsdmm

import (
	"math"
	"slices"
)

// The paper's math in plain Go: bank maps (II), congestion with and
// without packing (II, IV), Lemma 1's running time, the transposes'
// access patterns (III, IV), the random shift (V), Lemma 5's g_w(s) and
// Table II's f_w(s)/(es) (V, VI), and the RPU's and RSU's contracts.
//
// Readings taken for the project (issue 13, ../contracts/rsdmm.md):
//  1. Equal addresses merge across all s warps of a super warp: one
//     request per distinct address.
//  2. Table I's "nl/n", "r/p" and "n/p" are nl/p; Table II's last header
//     lacks the s of its denominator; S(i) is W(i*s)..W((i+1)s-1);
//     Figure 4's last "W(0)" is W(2).
//  3. Lemma 5's proof needs g_w(s) <= -1, which fails at s = 2 for w = 8
//     .. 128 (LemmaFiveGaps).
//  4. A request's stage is the rank of its row among the distinct rows its
//     bank is asked for; on one address the highest thread writes. The
//     hashed RSU's r_j is the XOR of key_b over the set bits b of j (H3).

// Machine is a memory machine of width W = 2^LW banks.
type Machine struct{ LW int }

// W is the number of banks, the threads of a warp.
func (m Machine) W() int { return 1 << m.LW }

// Bank is the bank of an address: addr mod w (II, Figure 3).
func (m Machine) Bank(addr int) int { return addr & (m.W() - 1) }

// Row is the address's row j = addr / w, the index r_j of its shift.
func (m Machine) Row(addr int) int { return addr >> m.LW }

// Shift is the RSU's map (V): address j*w + k goes to j*w + (k + r_j) mod
// w, that is to bank (k + r_j) mod w of the same row.
func (m Machine) Shift(addr int, r func(row int) int) int {
	j, k := m.Row(addr), m.Bank(addr)
	return j<<m.LW | (k+r(j))&(m.W()-1)
}

// Congestion is the memory access congestion of one warp or super warp
// (II, IV): the most distinct addresses asked of one bank. Equal addresses
// merge (reading 1), so a broadcast has congestion 1. bank maps an address
// to its bank.
func Congestion(addrs []int, bank func(int) int) int {
	seen := map[int]bool{}
	load := map[int]int{}
	most := 0
	for _, a := range addrs {
		if seen[a] {
			continue
		}
		seen[a] = true
		b := bank(a)
		load[b]++
		most = max(most, load[b])
	}
	return most
}

// Lemma1 is the running time of T rounds with total congestion C at
// latency l: C + (l-1)T time units.
func Lemma1(c, t, l int) int { return c + (l-1)*t }

// DMMCongestion is the total congestion of warps of w threads each,
// every warp on its own (II).
func (m Machine) DMMCongestion(warps [][]int) int {
	c := 0
	for _, w := range warps {
		c += Congestion(w, m.Bank)
	}
	return c
}

// SDMMCongestion is the congestion of warps packed as one super warp (IV).
func (m Machine) SDMMCongestion(warps [][]int) int {
	return Congestion(slices.Concat(warps...), m.Bank)
}

// Access is an access pattern of a sqrt(n) x sqrt(n) matrix a stored row
// by row (a[i][j] at i*sqrt(n) + j): the address thread t reads.
type Access func(t int) int

// RowMajor is thread t accessing a[t / sqrt(n)][t mod sqrt(n)] (III).
func RowMajor(sqrtN int) Access { return func(t int) int { return t % (sqrtN * sqrtN) } }

// ColumnMajor is thread t accessing a[t mod sqrt(n)][t / sqrt(n)] (III):
// the Naive Transpose's writes b[k][j] (it reads a[j][k] row-major).
func ColumnMajor(sqrtN int) Access {
	return func(t int) int {
		t %= sqrtN * sqrtN
		return (t%sqrtN)*sqrtN + t/sqrtN
	}
}

// Diagonal is thread t accessing a[i][(i + j) mod sqrt(n)] with i = t mod
// sqrt(n), j = t / sqrt(n): the Diagonal Transpose's accesses (III).
func Diagonal(sqrtN int) Access {
	return func(t int) int {
		t %= sqrtN * sqrtN
		i, j := t%sqrtN, t/sqrtN
		return i*sqrtN + (i+j)%sqrtN
	}
}

// Warps cuts the n accesses of a pattern into warps of w threads.
func Warps(a Access, n, w int) [][]int {
	var ws [][]int
	for t0 := 0; t0 < n; t0 += w {
		warp := make([]int, w)
		for k := range warp {
			warp[k] = a(t0 + k)
		}
		ws = append(ws, warp)
	}
	return ws
}

// TotalCongestion is the total congestion of n accesses of a pattern in
// super warps of s warps (s = 1: the DMM), each bank given by bank.
func TotalCongestion(a Access, n, w, s int, bank func(int) int) int {
	ws := Warps(a, n, w)
	c := 0
	for i := 0; i < len(ws); i += s {
		c += Congestion(slices.Concat(ws[i:min(i+s, len(ws))]...), bank)
	}
	return c
}

// NaiveColumnCongestion is Theorem 3's total congestion of the Naive
// Transpose's column-major accesses on the SDMM: min(n, n sqrt(n)/(sw))
// (Cases 1 and 2; s = 1 is the DMM's n, Theorem 2).
func NaiveColumnCongestion(sqrtN, w, s int) int {
	n := sqrtN * sqrtN
	return min(n, n*sqrtN/(s*w))
}

// log2 is the base-2 logarithm, the paper's log.
func log2(x float64) float64 { return math.Log2(x) }

// F is f_w(s) = 2e(log s + 1) log w / (log log w + 1), the bound of Lemma
// 5 on the requests one bank receives.
func F(w, s float64) float64 {
	return 2 * math.E * (log2(s) + 1) * log2(w) / (log2(log2(w)) + 1)
}

// FOverES is Table II's last block: f_w(s)/(es) = 2(log s + 1) log w /
// (s (log log w + 1)) (reading 2: the printed header lacks the s).
func FOverES(w, s float64) float64 { return F(w, s) / (math.E * s) }

// G is Lemma 5's Eq. 2: g_w(s) = (log s + 1)/(log log w + 1) * log((log
// log w + 1)s / (2(log s + 1) log w)). The lemma holds where g_w(s) <= -1.
func G(w, s float64) float64 {
	llw := log2(log2(w)) + 1
	return (log2(s) + 1) / llw * log2(llw*s/(2*(log2(s)+1)*log2(w)))
}

// LemmaFiveGap is a case where Lemma 5's proof fails (reading 3): Eq.
// 2's g_w(s) above -1 at width W and S warps a super warp.
type LemmaFiveGap struct {
	W, S int
	G    float64
}

// LemmaFiveGaps are the cases, w = 2^2..2^maxLW and integer 2 <= s <= log
// w, ascending in w, where g_w(s) > -1 (beyond rounding: g_w(log w) is -1
// exactly).
func LemmaFiveGaps(maxLW int) []LemmaFiveGap {
	var gaps []LemmaFiveGap
	for lw := 2; lw <= maxLW; lw++ {
		w := 1 << lw
		for s := 2; s <= lw; s++ {
			if g := G(float64(w), float64(s)); g > -1+1e-12 {
				gaps = append(gaps, LemmaFiveGap{w, s, g})
			}
		}
	}
	return gaps
}

// SplitMix64 returns the generator of the hashed RSU's keys: each call
// adds 0x9E3779B97F4A7C15 to the state and returns its mix.
func SplitMix64(seed uint64) func() uint64 {
	state := seed
	return func() uint64 {
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
}

// HashKeys are the hashed RSU's keys after reset: key_b, b < rowBits, is
// the b-th splitmix64(seed) output's top lw bits.
func HashKeys(lw, rowBits int, seed uint64) []int {
	next := SplitMix64(seed)
	keys := make([]int, rowBits)
	for b := range keys {
		keys[b] = int(next() >> (64 - lw))
	}
	return keys
}

// H3 is the hashed shift r_j: the XOR of key_b over the set bits b of j
// (reading 4: linear in j, so not Lemma 5's independent r_j).
func H3(keys []int, j int) int {
	r := 0
	for b, k := range keys {
		if j>>b&1 == 1 {
			r ^= k
		}
	}
	return r
}

// Request is one thread's request to the RPU: its bank and row.
type Request struct {
	Valid     bool
	Bank, Row int
}

// Packed is the RPU's answer for N requests (contract rsdmm-rpu): each
// request's stage (the number of distinct rows below its row among the
// valid requests to its bank), whether it leads (valid, and no valid
// higher request has its bank and row), each bank's load (distinct rows
// asked of it) and the congestion (the largest load).
type Packed struct {
	Stage []int
	Lead  []bool
	Load  []int
	Cong  int
}

// Pack is the RPU of contract rsdmm-rpu over w banks.
func Pack(reqs []Request, w int) Packed {
	rows := make([][]int, w) // distinct rows per bank, ascending
	for _, r := range reqs {
		if r.Valid {
			if i, found := slices.BinarySearch(rows[r.Bank], r.Row); !found {
				rows[r.Bank] = slices.Insert(rows[r.Bank], i, r.Row)
			}
		}
	}
	p := Packed{Stage: make([]int, len(reqs)), Lead: make([]bool, len(reqs)), Load: make([]int, w)}
	for b := range rows {
		p.Load[b] = len(rows[b])
		p.Cong = max(p.Cong, p.Load[b])
	}
	for i, r := range reqs {
		if !r.Valid {
			continue
		}
		p.Stage[i], _ = slices.BinarySearch(rows[r.Bank], r.Row)
		p.Lead[i] = !slices.ContainsFunc(reqs[i+1:], func(o Request) bool { return o.Valid && o.Bank == r.Bank && o.Row == r.Row })
	}
	return p
}

// Figure4 are the addresses of Figures 4, 6 and 7: warps W(0), W(1) and
// W(2) of four threads on a machine of width 4.
var Figure4 = [][]int{{16, 21, 4, 15}, {9, 3, 11, 19}, {2, 7, 23, 0}}
