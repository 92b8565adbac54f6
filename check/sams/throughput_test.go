package sams_test

import (
	"math/rand/v2"
	"testing"

	. "github.com/parmem/parmem/units/sams"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// stream presents narrow requests back to back (a new one in the cycle
// after each is accepted), expects one response per read (its values
// unchecked: the stream mixes layouts), and runs until every read is
// answered. The bench then holds each request's acceptance cycle and the
// scoreboard the read latencies.
func stream(mb *memBench, reqs []request) {
	mb.model = func(a verify.Accepted[request]) []verify.Expect {
		if a.Tx.write {
			return nil
		}
		return []verify.Expect{{Sink: mb.resp}}
	}
	mb.req.Push(reqs...)
	mb.RunUntil(len(reqs)<<uint(mb.p.Q+1), "every request accepted", mb.req.Idle)
	mb.Run(8)
	mb.sb.Finish()
}

func randomRequest(r *rand.Rand, q, n int, mode, stride uint64, write bool) request {
	req := request{write: write, mode: mode, base: r.Uint64() & mask(n), stride: stride,
		mask: make([]bool, 1<<uint(q)), data: make([]uint64, 1<<uint(q))}
	for i := range req.mask {
		req.mask[i] = r.IntN(8) != 0
		req.data[i] = r.Uint64() & 0xffffffff
	}
	return req
}

// TestBackToBackThroughputAndLatency: conflict-free requests are accepted
// one per cycle, and a read accepted in cycle c is answered in cycle
// c + latency, for q = 2, 3, 4.
func TestBackToBackThroughputAndLatency(t *testing.T) {
	for q := 2; q <= 4; q++ {
		p := Memory{Q: q, N: 16, W: 32}
		mb := newMemBench(t, p)
		r := rand.New(rand.NewPCG(uint64(q), 1))
		var reqs []request
		reads := 0
		for i := range 300 {
			mode := []uint64{0, 2, 3}[i%3]
			stride := (r.Uint64() | 1) << uint(r.IntN(p.N-q+1)) & mask(p.N) // any family: conflict-free in its own layout
			reqs = append(reqs, randomRequest(r, q, p.N, mode, stride, r.IntN(2) == 0))
			if !reqs[i].write {
				reads++
			}
		}
		stream(mb, reqs)
		accepted := mb.req.AcceptCycles()
		require.Len(t, accepted, len(reqs))
		for i := 1; i < len(accepted); i++ {
			require.Equal(t, accepted[i-1]+1, accepted[i], "request %d accepted the cycle after request %d", i, i-1)
		}
		first, last := accepted[0], accepted[len(accepted)-1]
		require.Equal(t, 1.0, mb.req.Throughput(first, last+1), "one request per cycle")
		require.Equal(t, reads, mb.sb.Matched(), "one response per read")
		lat := mb.sb.Latency()
		require.Equal(t, reads, lat.N)
		require.Equal(t, uint64(3), lat.Min, "the read latency memory.go and the README document")
		require.Equal(t, lat.Min, lat.Max, "every read has the same latency")
		t.Logf("q=%d: %d requests accepted in %d consecutive cycles; read latency %d cycles (accepted in cycle c, answered in cycle c+%d)", q, len(reqs), last-first+1, lat.Min, lat.Min)
	}
}

// TestConflictingRequestsTakeOneCyclePerSubAccess: in the Matched memory,
// strides outside its families conflict; each request occupies the
// pipeline for exactly the number of sub-accesses spec.go computes.
func TestConflictingRequestsTakeOneCyclePerSubAccess(t *testing.T) {
	q, n := 3, 16
	p := Memory{Q: q, N: n, W: 32, Matched: true}
	mb := newMemBench(t, p)
	r := rand.New(rand.NewPCG(9, 9))
	l := Layout{Q: q, N: n, Family: q}
	var reqs []request
	splits := 0
	for range 300 {
		req := randomRequest(r, q, n, 3, uint64(r.IntN(40)), r.IntN(2) == 0)
		reqs = append(reqs, req)
	}
	stream(mb, reqs)
	accepted := mb.req.AcceptCycles()
	require.Len(t, accepted, len(reqs))
	for i := 1; i < len(reqs); i++ {
		prev := reqs[i-1]
		k := uint64(max(1, l.SubAccesses(Addresses(prev.base, prev.stride, q, n), prev.mask)))
		if k > 1 {
			splits++
		}
		require.Equalf(t, accepted[i-1]+k, accepted[i], "request %d (stride %d) needs %d sub-accesses", i-1, prev.stride, k)
	}
	require.Greater(t, splits, 50, "the stream has conflicts")
	t.Logf("%d of %d requests were split; each took exactly its sub-access count in cycles", splits, len(reqs))
}
