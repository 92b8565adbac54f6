package smm2d_test

import (
	"math/rand/v2"
	"testing"

	. "github.com/parmem/parmem/units/smm2d"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// stream configures the memory, then presents requests back to back and
// runs until every read is answered (the flat array checks them).
func stream(t *testing.T, mb *memBench, s setting, reqs []request) {
	mb.cfg.Push(s)
	mb.RunUntil(4, "the configuration is taken", mb.cfg.Idle)
	mb.req.Push(reqs...)
	mb.RunUntil(len(reqs)*(mb.p.Lanes()+1), "every request accepted", mb.req.Idle)
	mb.Run(6)
	mb.sb.Finish()
}

// supportedRequest is a random access of a random pattern that the scheme
// serves conflict-free (Scheme.Supported), all lanes enabled.
func supportedRequest(r *rand.Rand, sc Scheme, s setting) request {
	for {
		req := request{pattern: Patterns[r.IntN(len(Patterns))], bi: r.Uint64() & (1<<uint(sc.MB) - 1), bj: r.Uint64() & (1<<uint(sc.NB) - 1),
			write: r.IntN(2) == 0, mask: make([]bool, sc.Lanes()), data: make([]uint64, sc.Lanes())}
		req.bi &^= 1<<uint(min(sc.P, sc.VS)) - 1
		req.bj &^= 1<<uint(sc.Q+min(sc.P, sc.HS)) - 1
		for k := range req.mask {
			req.mask[k] = true
		}
		a := Access{Pattern: req.pattern, BI: req.bi, BJ: req.bj, VStride: s.vstride, HStride: s.hstride}
		if ok, _ := sc.Supported(a); ok {
			return req
		}
	}
}

// TestSupportedStreamOnePerCycle: accesses the scheme supports (Theorems
// 1-6) are accepted one per cycle, and a read accepted at one edge is
// answered a fixed number of cycles later, for (p, q) = (1, 2), (2, 2),
// (1, 3), both forms of m_v.
func TestSupportedStreamOnePerCycle(t *testing.T) {
	for _, g := range []Geometry{{P: 1, Q: 2, MB: 8, NB: 8}, {P: 2, Q: 2, MB: 8, NB: 8}, {P: 1, Q: 3, MB: 8, NB: 8}} {
		for _, post := range []bool{false, true} {
			p := Memory{Geometry: g, W: 16, Post: post}
			mb := newMemBench(t, p)
			mb.DontRecord()
			r := rand.New(rand.NewPCG(uint64(g.P*10+g.Q), verify.Bit(post)))
			s := randomSetting(r, g, false)
			sc := Scheme{Geometry: g, VS: s.vs, HS: s.hs, Post: post}
			var reqs []request
			reads := 0
			for range 400 {
				reqs = append(reqs, supportedRequest(r, sc, s))
				if !reqs[len(reqs)-1].write {
					reads++
				}
			}
			stream(t, mb, s, reqs)
			accepted := mb.req.AcceptCycles()
			require.Len(t, accepted, len(reqs))
			first, last := accepted[0], accepted[len(accepted)-1]
			require.Equal(t, uint64(len(reqs)-1), last-first, "400 supported requests in 400 consecutive cycles")
			require.Equal(t, reads, mb.sb.Matched(), "one response per read")
			lat := mb.sb.Latency()
			require.Equal(t, uint64(3), lat.Min, "the read latency memory.go and DESIGN.md document")
			require.Equal(t, lat.Min, lat.Max, "every read has the same latency")
			t.Logf("p=%d q=%d post=%v vs=%d hs=%d: %d requests accepted in %d consecutive cycles; %d reads, latency %d cycles",
				g.P, g.Q, post, s.vs, s.hs, len(reqs), last-first+1, reads, lat.Min)
		}
	}
}

// TestOtherAccessesTakeTheirSubAccesses: with strides of other families
// and unaligned bases, each request holds the pipeline for exactly the
// number of sub-accesses the model (model.go) computes, at most L.
func TestOtherAccessesTakeTheirSubAccesses(t *testing.T) {
	g := Geometry{P: 1, Q: 2, MB: 8, NB: 8}
	p := Memory{Geometry: g, W: 16}
	mb := newMemBench(t, p)
	mb.DontRecord()
	r := rand.New(rand.NewPCG(7, 7))
	s := randomSetting(r, g, true)
	sc := Scheme{Geometry: g, VS: s.vs, HS: s.hs}
	var reqs []request
	for range 600 {
		req := request{pattern: Pattern(r.IntN(8)), bi: r.Uint64() & 0xff, bj: r.Uint64() & 0xff, write: r.IntN(2) == 0,
			mask: make([]bool, g.Lanes()), data: make([]uint64, g.Lanes())}
		for k := range req.mask {
			req.mask[k] = r.IntN(6) != 0
		}
		reqs = append(reqs, req)
	}
	stream(t, mb, s, reqs)
	accepted := mb.req.AcceptCycles()
	require.Len(t, accepted, len(reqs))
	split, most := 0, 0
	for i := 1; i < len(reqs); i++ {
		prev := reqs[i-1]
		_, cycles := sc.SubAccesses(Access{Pattern: prev.pattern, BI: prev.bi, BJ: prev.bj, VStride: s.vstride, HStride: s.hstride}, prev.mask)
		require.LessOrEqual(t, cycles, g.Lanes())
		if cycles > 1 {
			split++
		}
		most = max(most, cycles)
		require.Equalf(t, accepted[i-1]+uint64(cycles), accepted[i], "request %d (%v) takes %d sub-accesses", i-1, prev.pattern, cycles)
	}
	require.Greater(t, split, 100, "the stream has conflicts")
	t.Logf("VS=%d HS=%d (vs=%d hs=%d): %d of %d requests split, at most %d sub-accesses; each took exactly its count in cycles",
		s.vstride, s.hstride, s.vs, s.hs, split, len(reqs), most)
}
