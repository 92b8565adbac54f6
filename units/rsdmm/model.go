package rsdmm

import (
	"math/bits"
	"math/rand/v2"
)

// The machines of sections II, IV and V running programs: rounds of
// memory access by p threads in warps of w, packed into super warps of s
// warps (s = 1 is the DMM), each address through the bank map of the
// machine. A program is timed twice: by Lemma 1 from its congestions, and
// by a cycle model of II's dispatch into the l-stage pipeline.

// ShiftKind is a machine's bank map.
type ShiftKind int

const (
	// NoShift is the DMM's and SDMM's bank addr mod w (II, IV).
	NoShift ShiftKind = iota
	// TableShift is the RSU of V: row j's r_j independent and uniform in
	// [0, w-1], drawn once from a seeded PCG.
	TableShift
	// HashShift is the hashed RSU: r_j = H3(keys, j), the keys
	// HashKeys(lw, rowBits, seed) (reading 4).
	HashShift
)

func (k ShiftKind) String() string {
	return [...]string{"none", "table", "hash"}[k]
}

// None is the request of a thread that asks nothing in a round.
const None = -1

// Model is a DMM, SDMM or RSDMM with latency L, P threads and super warps
// of S warps, over a memory of the words given to NewModel. Its scratch
// makes Run allocation-free.
type Model struct {
	M       Machine
	L, P, S int
	rs      []int // r_j by row; nil without a shift
	r       func(row int) int
	count   distinct
	addrs   []int // a round's requests, thread by thread
}

// NewModel is a machine of width m.W() with latency l, p threads (a
// multiple of s*w) and super warps of s warps, whose programs address
// words words; seed draws the table's r_j or the hash's keys.
func NewModel(m Machine, l, p, s int, shift ShiftKind, words int, seed uint64) *Model {
	md := &Model{M: m, L: l, P: p, S: s, count: newDistinct(words, m.W()), addrs: make([]int, p)}
	rows := (words + m.W() - 1) >> m.LW
	switch shift {
	case TableShift:
		r := rand.New(rand.NewPCG(seed, 13))
		md.rs = make([]int, rows)
		for j := range md.rs {
			md.rs[j] = r.IntN(m.W())
		}
	case HashShift:
		// The RSU hashes j per request; the model tabulates the same r_j.
		keys := HashKeys(m.LW, max(1, bits.Len(uint(rows-1))), seed)
		md.rs = make([]int, rows)
		for j := range md.rs {
			md.rs[j] = H3(keys, j)
		}
	}
	md.r = func(j int) int { return md.rs[j] }
	return md
}

// BankOf is the bank the machine sends addr to: addr mod w, or through
// the RSU, bank (k + r_j) mod w of address j*w + k (V, Machine.Shift).
func (md *Model) BankOf(addr int) int {
	if md.rs == nil {
		return md.M.Bank(addr)
	}
	return md.M.Bank(md.M.Shift(addr, md.r))
}

// congestion is one (super) warp's congestion: the most distinct
// addresses it asks of one bank (II, IV; reading 1), None asking nothing.
func (md *Model) congestion(batch []int) int {
	md.count.next()
	for _, a := range batch {
		if a != None && md.count.first(a) {
			md.count.add(md.BankOf(a))
		}
	}
	return md.count.most
}

// Time is a program's measurements.
type Time struct {
	Rounds     int // T: the rounds with at least one request
	Batches    int // the (super) warps dispatched: those with a request
	Congestion int // C: the total congestion, the sum over the batches
	Most       int // the largest congestion of one batch
	Lemma1     int // Lemma 1's running time C + (l-1)T
	Barrier    int // the cycle model with a barrier after every round
	Free       int // the cycle model without barriers
}

// Run times rounds rounds of memory access; fill writes round t's
// requests, one address (or None) for each of the p threads. A round
// without any request is no round of memory access: it takes no time.
func (md *Model) Run(rounds int, fill func(round int, addrs []int)) Time {
	sw := md.S * md.M.W()
	barrier, free := newPipeline(md.L, md.P/sw), newPipeline(md.L, md.P/sw)
	var t Time
	for round := range rounds {
		fill(round, md.addrs)
		barrier.barrier()
		c := 0
		for i := range md.P / sw {
			ci := md.congestion(md.addrs[i*sw : (i+1)*sw])
			if ci == 0 {
				continue // dispatched only if a thread requests (II)
			}
			barrier.dispatch(i, ci)
			free.dispatch(i, ci)
			c += ci
			t.Batches++
			t.Most = max(t.Most, ci)
		}
		if c > 0 {
			t.Rounds++
			t.Congestion += c
		}
	}
	t.Lemma1 = Lemma1(t.Congestion, t.Rounds, md.L)
	t.Barrier, t.Free = barrier.done, free.done
	return t
}

// pipeline is II's dispatch of (super) warps into the l-stage pipeline,
// time unit by time unit from 1: in turn (round-robin), one stage enters
// per time unit, a batch of congestion c fills c consecutive stages, and
// a request entering at time u completes at u + l - 1 (k requests to one
// bank take k + l - 1 time units, II). A thread sends its next request
// only after its previous completes, so a batch's warps wait until l time
// units after the batch's last stage entered.
type pipeline struct {
	l     int
	slot  int   // the last time unit a stage entered
	done  int   // the last time unit a request completed
	ready []int // per (super) warp, the first time unit its next stage may enter
}

func newPipeline(l, warps int) pipeline { return pipeline{l: l, ready: make([]int, warps)} }

// dispatch sends the next batch, of (super) warp i with congestion c.
func (q *pipeline) dispatch(i, c int) {
	first := max(q.slot+1, q.ready[i])
	q.slot = first + c - 1
	end := q.slot + q.l - 1
	q.ready[i] = end + 1
	q.done = max(q.done, end)
}

// barrier holds the next stage until every request sent has completed.
func (q *pipeline) barrier() { q.slot = max(q.slot, q.done) }

// Stream is the program of an access pattern: thread i's request in
// round t is a(t*p + i), section III's t*p + i.
func Stream(a Access, p int) func(round int, addrs []int) {
	return func(round int, addrs []int) {
		for i := range addrs {
			addrs[i] = a(round*p + i)
		}
	}
}

// Transpose is a transpose of a (at 0) into b (at offset n) as rounds of
// memory access (III): round 2t reads a at read(t*p + i), round 2t + 1
// writes b at write(t*p + i); 2n/p rounds in all.
func Transpose(read, write Access, n, p int) func(round int, addrs []int) {
	return func(round int, addrs []int) {
		for i := range addrs {
			g := round/2*p + i
			if round%2 == 0 {
				addrs[i] = read(g)
			} else {
				addrs[i] = n + write(g)
			}
		}
	}
}

// DiagonalRead is the Diagonal Transpose's read a[(j + k) mod sqrt(n)][k]
// of thread t, k = t mod sqrt(n), j = t / sqrt(n) (III); its write
// b[k][(j + k) mod sqrt(n)] is Diagonal.
func DiagonalRead(sqrtN int) Access {
	return func(t int) int {
		t %= sqrtN * sqrtN
		k, j := t%sqrtN, t/sqrtN
		return (j+k)%sqrtN*sqrtN + k
	}
}
