// Package smm2d_test checks the 2DSMM memory end to end: against a flat
// M x N array on the Go simulator with a Verilator replay, its timing, every
// block in lockstep on Go, Verilator and Icarus, and the thesis's theorems
// on the netlist by SAT. It lives outside units/smm2d because it needs
// verify, which units never import.
package smm2d_test

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	. "github.com/parmem/parmem/units/smm2d"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// memBench is the memory on a verify.Bench: a source for requests and one
// for configurations, a sink for responses, an in-order scoreboard and the
// flat-array model. Every cycle is recorded for the Verilator replay.
type memBench struct {
	*verify.Bench
	p    Memory
	req  *verify.Source[request]
	cfg  *verify.Source[setting]
	resp *verify.Sink
	sb   *verify.Scoreboard
	flat *flatArray
}

// request is one access: the pattern and base (the strides are the
// configuration's), each lane's mask and write data.
type request struct {
	pattern Pattern
	bi, bj  uint64
	write   bool
	mask    []bool
	data    []uint64
}

// setting is one configuration: vs, hs and the strides VS, HS.
type setting struct {
	vs, hs           int
	vstride, hstride uint64
}

func newMemBench(t *testing.T, p Memory) *memBench {
	m, ports := p.WithPorts("smm2d")
	b := verify.NewBench(t, m)
	mb := &memBench{Bench: b, p: p}
	mb.flat = &flatArray{mem: map[[2]uint64]uint64{}, set: setting{0, 0, 1, 1}}
	req, cfg := ports.Req.Payload, ports.Cfg.Payload
	fields := b.Ins([]*hdl.Signal{req.Write, req.Pattern, req.I, req.J})
	masks, wdata := make([]*hdl.Signal, len(req.Lanes)), make([]*hdl.Signal, len(req.Lanes))
	for k, lane := range req.Lanes {
		masks[k], wdata[k] = lane.Mask, lane.Wdata
	}
	maskIns, wdataIns := b.Ins(masks), b.Ins(wdata)
	mb.req = verify.NewSource(b, "req", func(r request) {
		for i, v := range []uint64{verify.Bit(r.write), uint64(r.pattern), r.bi, r.bj} {
			b.Set(fields[i], v)
		}
		for k := range req.Lanes {
			b.Set(maskIns[k], verify.Bit(r.mask[k]))
			b.Set(wdataIns[k], r.data[k])
		}
	})
	cfgIns := b.Ins([]*hdl.Signal{cfg.VS, cfg.HS, cfg.VStride, cfg.HStride})
	mb.cfg = verify.NewSource(b, "cfg", func(c setting) {
		for i, v := range []uint64{uint64(c.vs), uint64(c.hs), c.vstride, c.hstride} {
			b.Set(cfgIns[i], v)
		}
	})
	mb.cfg.OnAccept(func(a verify.Accepted[setting]) { mb.flat.configure(a.Tx) })
	mb.resp = verify.NewSink(b, "resp", b.Outs(ports.Resp.Rdata)...).Forget()
	mb.sb = verify.NewScoreboard(b)
	mb.sb.InOrder(mb.resp)
	verify.Predict(mb.req, mb.sb, func(a verify.Accepted[request]) []verify.Expect {
		return mb.flat.accept(p.Geometry, a.Tx, mb.resp)
	})
	return mb
}

// flatArray is the reference model (DESIGN.md, smm2d): an M x N array of
// elements; a configuration that changes vs or hs leaves it unknown, one
// that changes only the strides keeps it.
type flatArray struct {
	mem           map[[2]uint64]uint64 // (i, j) -> last value written since vs, hs last changed
	set           setting
	reads, writes int
}

func (f *flatArray) configure(s setting) {
	if s.vs != f.set.vs || s.hs != f.set.hs {
		clear(f.mem)
	}
	f.set = s
}

// accept applies a request in order and returns the response a read must
// give: each lane's element where the model knows it, 0 for masked lanes.
func (f *flatArray) accept(g Geometry, r request, resp *verify.Sink) []verify.Expect {
	is, js := g.Addresses(Access{Pattern: r.pattern, BI: r.bi, BJ: r.bj, VStride: f.set.vstride, HStride: f.set.hstride})
	if r.write {
		f.writes++
		for k := range is {
			if r.mask[k] {
				f.mem[[2]uint64{is[k], js[k]}] = r.data[k] // in lane order: the highest lane wins
			}
		}
		return nil
	}
	f.reads++
	e := verify.Expect{Sink: resp, Care: make([]bool, len(is)), Values: make([]uint64, len(is))}
	for k := range is {
		if !r.mask[k] {
			e.Care[k] = true // masked lanes read 0
			continue
		}
		e.Values[k], e.Care[k] = f.mem[[2]uint64{is[k], js[k]}]
	}
	return []verify.Expect{e}
}

// randomSetting is a configuration with vs, hs in their supported ranges
// (point 3's hs <= nb-p-q for every pattern) and strides of those families
// (sigma odd), or, when other, any vs, hs and strides.
func randomSetting(r *rand.Rand, g Geometry, other bool) setting {
	s := setting{vs: r.IntN(g.MB - g.P + 1), hs: r.IntN(g.NB - g.P - g.Q + 1)}
	s.vstride = (r.Uint64() | 1) << uint(s.vs) & (1<<uint(g.MB) - 1)
	s.hstride = (r.Uint64() | 1) << uint(s.hs) & (1<<uint(g.NB) - 1)
	if other { // any vs, hs the inputs hold, any strides
		s.vs, s.hs = r.IntN(1<<uint(g.VW())), r.IntN(1<<uint(g.HW()))
		s.vstride = r.Uint64() & (1<<uint(g.MB) - 1)
		s.hstride = r.Uint64() & (1<<uint(g.NB) - 1)
	}
	return s
}

// run issues count requests of one pattern, a fresh configuration every
// 500 (a third of them with strides of other families, so accesses
// conflict and split; some changing only the strides, which keeps the
// contents), from a small pool of bases so that reads find what writes
// wrote; continuous bases are aligned half of the time.
func (mb *memBench) run(r *rand.Rand, pattern Pattern, count int) {
	g, lanes := mb.p.Geometry, mb.p.Lanes()
	var pool [][2]uint64
	for range 16 {
		pool = append(pool, [2]uint64{r.Uint64() & (1<<uint(g.MB) - 1), r.Uint64() & (1<<uint(g.NB) - 1)})
	}
	for sent := 0; sent < count; sent += 500 {
		s := randomSetting(r, g, r.IntN(3) == 0)
		if r.IntN(4) == 0 { // strides only: the contents stay
			s.vs, s.hs = mb.flat.set.vs, mb.flat.set.hs
		}
		mb.cfg.Push(s)
		var batch []request
		for range min(500, count-sent) {
			base := pool[r.IntN(len(pool))]
			req := request{pattern: pattern, bi: base[0], bj: base[1], write: r.IntN(2) == 0,
				mask: make([]bool, lanes), data: make([]uint64, lanes)}
			if r.IntN(2) == 0 {
				req.bi &^= 1<<uint(min(g.P, s.vs)) - 1
				req.bj &^= 1<<uint(g.Q+min(g.P, s.hs)) - 1
			}
			for k := range lanes {
				req.mask[k] = r.IntN(8) != 0
				req.data[k] = r.Uint64() & (1<<uint(mb.p.W) - 1)
			}
			batch = append(batch, req)
		}
		mb.RunUntil(lanes+2, "the configuration is taken after the last sub-access", mb.cfg.Idle)
		mb.req.Push(batch...)
		mb.RunUntil(len(batch)*(lanes+1), "every request accepted", mb.req.Idle)
	}
	mb.Run(6)
}

const requestsPerPattern = 20000

// TestMemoryScoreboard drives the memory with 20,000 random reads and
// writes of every pattern under changing configurations, compares every
// read with the flat array, then replays the exact same cycles on
// Verilator and compares every output of every cycle with the Go run.
func TestMemoryScoreboard(t *testing.T) {
	seed := verify.TestSeed(t, 23)
	p := Memory{Geometry: Geometry{P: 1, Q: 2, MB: 8, NB: 8}, W: 32}
	mb := newMemBench(t, p)
	r := rand.New(rand.NewPCG(seed, 1))
	for _, pattern := range append(Patterns, 7) {
		compared := mb.sb.Compared()
		reads, writes := mb.flat.reads, mb.flat.writes
		mb.run(r, pattern, requestsPerPattern)
		checked := mb.sb.Compared() - compared
		t.Logf("%v: %d reads, %d writes, %d lanes compared with the flat array", pattern, mb.flat.reads-reads, mb.flat.writes-writes, checked)
		require.Greater(t, checked, requestsPerPattern, "reads find data written in the run")
	}
	mb.sb.Finish()
	require.Equal(t, 7*requestsPerPattern, mb.req.NumAccepted())
	mb.Replay(verify.ReplayOptions{})
}
