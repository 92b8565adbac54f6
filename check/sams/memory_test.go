// Package sams_test checks the SAMS unit end to end: the memory against a
// flat-memory scoreboard on the Go simulator and Verilator, every block in
// lockstep on Go, Verilator and Icarus, the canonical RTL and gen. It lives
// outside units/sams because it needs verify, which units never import.
package sams_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	. "github.com/parmem/parmem/units/sams"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// memBench is the SAMS memory on a verify.Bench: a source for each request
// channel (req, wide), a sink for each response channel (resp, wide_resp),
// and a scoreboard that holds both kinds of response to one order, the
// order of the requests. Every cycle is recorded for the Verilator replay.
type memBench struct {
	*verify.Bench
	p              Memory
	req, wide      *verify.Source[request]
	resp, wideResp *verify.Sink
	sb             *verify.Scoreboard
	// model is the reference model of the current run: it sees every
	// accepted request in order and returns the responses it expects.
	model func(verify.Accepted[request]) []verify.Expect
}

func newMemBench(t *testing.T, p Memory) *memBench {
	m, ports := p.WithPorts("sams")
	b := verify.NewBench(t, m)
	mb := &memBench{Bench: b, p: p}
	in := func(port *hdl.Signal) verify.In { return b.Ins(port)[0] }
	out := func(port *hdl.Signal) verify.Out { return b.Outs(port)[0] }
	// elements are the handles of a request's masks and write data.
	elements := func(es []Element) (masks, data []verify.In) {
		for _, e := range es {
			masks, data = append(masks, in(e.Mask)), append(data, in(e.Wdata))
		}
		return masks, data
	}
	narrow := ports.Req.Payload
	write, mode, base, stride := in(narrow.Write), in(narrow.Mode), in(narrow.Base), in(narrow.Stride)
	reqMask, reqData := elements(narrow.Lanes)
	mb.req = verify.NewSourceOn(b, "req", in(ports.Req.Valid), out(ports.Req.Ready), func(req request) {
		b.Set(write, verify.Bit(req.write))
		b.Set(mode, req.mode)
		b.Set(base, req.base)
		b.Set(stride, req.stride)
		for i := range reqMask {
			b.Set(reqMask[i], verify.Bit(req.mask[i]))
			b.Set(reqData[i], req.data[i])
		}
	})
	wide := ports.Wide.Payload
	wideWrite, wideRow := in(wide.Write), in(wide.Row)
	wideMask, wideData := elements(wide.Slots)
	mb.wide = verify.NewSourceOn(b, "wide", in(ports.Wide.Valid), out(ports.Wide.Ready), func(req request) {
		b.Set(wideWrite, verify.Bit(req.write))
		b.Set(wideRow, req.row)
		for j := range wideMask {
			b.Set(wideMask[j], verify.Bit(req.mask[j]))
			b.Set(wideData[j], req.data[j])
		}
	})
	mb.resp = verify.NewSinkOn(b, "resp", out(ports.Resp.Valid), verify.In{}, b.Outs(ports.Resp.Rdata)...).Forget()
	mb.wideResp = verify.NewSinkOn(b, "wide_resp", out(ports.WideResp.Valid), verify.In{}, b.Outs(ports.WideResp.Rdata)...).Forget()
	mb.sb = verify.NewScoreboard(b)
	mb.sb.InOrder(mb.resp, mb.wideResp) // responses come in request order
	predict := func(a verify.Accepted[request]) []verify.Expect {
		if mb.model == nil {
			return nil
		}
		return mb.model(a)
	}
	verify.Predict(mb.req, mb.sb, predict)
	verify.Predict(mb.wide, mb.sb, predict)
	return mb
}

// request is one narrow or wide access.
type request struct {
	wide, write  bool
	mode         uint64
	base, stride uint64
	row          uint64
	mask         []bool
	data         []uint64
}

// flatMemory is the reference model of one run with one layout: within
// it the memory behaves as a flat array (DESIGN.md, sams).
type flatMemory struct {
	mb     *memBench
	layout Layout
	mem    map[uint64]uint64 // linear address -> last value written in this run
	reads  int
	writes int
}

// lineAddresses maps the 2^(q+1) slots of row r to linear addresses.
func lineAddresses(l Layout, r uint64) []uint64 {
	slots := 2 << uint(l.Q)
	addrs := make([]uint64, slots)
	base := r << uint(l.Q+1)
	if !l.NaS && l.Family > l.Q {
		base = (2*r - 1) << uint(l.Q)
	}
	for k := range uint64(slots) {
		a := (base + k) & mask(l.N)
		s := l.Place(a)
		addrs[2*s.Module+s.Offset] = a
	}
	return addrs
}

// accept applies an accepted request to the model, in order, and returns
// the response a read must give: per lane (or slot) a value where the
// model knows it.
func (f *flatMemory) accept(a verify.Accepted[request]) []verify.Expect {
	req, q, n := a.Tx, f.mb.p.Q, f.mb.p.N
	var addrs []uint64
	if req.wide {
		addrs = lineAddresses(f.layout, req.row)
	} else {
		step := uint64(1)
		if req.mode == 3 {
			step = req.stride
		}
		addrs = Addresses(req.base, step, q, n)
	}
	if req.write {
		f.writes++
		for i, a := range addrs {
			if req.mask[i] {
				f.mem[a] = req.data[i] // in lane order: the highest lane wins
			}
		}
		return nil
	}
	f.reads++
	e := verify.Expect{Sink: f.mb.resp, Care: make([]bool, len(addrs)), Values: make([]uint64, len(addrs))}
	if req.wide {
		e.Sink = f.mb.wideResp
	}
	for i, a := range addrs {
		v, ok := f.mem[a]
		switch {
		case req.wide:
			e.Care[i], e.Values[i] = ok, v
		case !req.mask[i]:
			e.Care[i] = true // masked lanes read as 0
		default:
			e.Care[i], e.Values[i] = ok, v
		}
	}
	return []verify.Expect{e}
}

// present drives a request until the memory accepts it; the scoreboard
// checks responses every cycle meanwhile.
func (mb *memBench) present(req request) {
	src := mb.req
	if req.wide {
		src = mb.wide
	}
	src.Push(req)
	mb.RunUntil(1<<uint(mb.p.Q)+2, "a request waits no longer than its sub-accesses", src.Idle)
}

// runLayout issues count random requests that all use one layout, checks
// every read against a flat memory, and returns the model with its counts
// and the number of lanes compared.
func (mb *memBench) runLayout(r *rand.Rand, layout Layout, count int) (*flatMemory, int) {
	q, n, w := mb.p.Q, mb.p.N, mb.p.W
	f := &flatMemory{mb: mb, layout: layout, mem: map[uint64]uint64{}}
	mb.model = f.accept
	compared := mb.sb.Compared()
	// A small pool of bases and strides, so reads find what writes wrote.
	type place struct{ base, stride uint64 }
	var pool []place
	stride := func() uint64 {
		switch {
		case layout.NaS:
			return r.Uint64() & mask(n) // ignored by modes 00 and 01
		case mb.p.Matched:
			return uint64(r.IntN(64)) // any family: inside and outside the supported set
		}
		return (r.Uint64() | 1) << uint(layout.Family) & mask(n)
	}
	for range 24 {
		pool = append(pool, place{r.Uint64() & mask(n) & 0x3ff, stride()})
	}
	for range count {
		req := request{write: r.IntN(2) == 0, data: make([]uint64, 2<<uint(q)), mask: make([]bool, 2<<uint(q))}
		for i := range req.data {
			req.data[i] = r.Uint64() & mask(w)
			req.mask[i] = r.IntN(8) != 0
		}
		if r.IntN(8) == 0 {
			req.wide = true
			req.row = uint64(r.IntN(1 << 6)) // low rows, where the pool's accesses land
		} else {
			pl := pool[r.IntN(len(pool))]
			if r.IntN(4) == 0 {
				pl = place{r.Uint64() & mask(n), stride()}
			}
			req.base, req.stride = pl.base, pl.stride
			if layout.NaS {
				req.mode = uint64(r.IntN(2)) // 01 on the narrow port is NaS too
			} else {
				req.mode = 2 + uint64(r.IntN(2))
			}
		}
		mb.present(req)
	}
	mb.Run(8) // drain: every read is answered within 8 cycles
	mb.sb.Finish()
	return f, mb.sb.Compared() - compared
}

// layouts is every layout the scoreboard covers for a memory.
func layouts(q, n int) []Layout {
	return []Layout{{Q: q, N: n, NaS: true}, {Q: q, N: n, Family: 0}, {Q: q, N: n, Family: 1}, {Q: q, N: n, Family: q}, {Q: q, N: n, Family: q + 1}}
}

const requestsPerLayout = 20000

// TestMemoryScoreboard drives the memory with random reads and writes of
// every layout (NaS, s = 0, 1, q, q+1, and the Matched memory), compares
// every read with a flat-memory model, then replays the exact same cycles
// on Verilator and compares every output of every cycle with the Go run.
func TestMemoryScoreboard(t *testing.T) {
	seed := verify.TestSeed(t, 11)
	for _, p := range []Memory{{Q: 3, N: 16, W: 32}, {Q: 3, N: 16, W: 32, Matched: true}} {
		t.Run(fmt.Sprintf("q%d_matched%v", p.Q, p.Matched), func(t *testing.T) {
			mb := newMemBench(t, p)
			r := rand.New(rand.NewPCG(seed, uint64(verify.Bit(p.Matched))))
			ls := layouts(p.Q, p.N)
			if p.Matched {
				ls = []Layout{{Q: p.Q, N: p.N, Family: p.Q}}
			}
			for _, l := range ls {
				f, checked := mb.runLayout(r, l, requestsPerLayout)
				t.Logf("layout %+v: %d reads, %d writes, %d lanes compared with the model", l, f.reads, f.writes, checked)
				require.GreaterOrEqual(t, f.reads+f.writes, requestsPerLayout)
				require.Greater(t, checked, requestsPerLayout, "reads find data written in the run")
			}
			require.Equal(t, mb.req.NumAccepted()+mb.wide.NumAccepted(), len(ls)*requestsPerLayout)
			mb.Replay(verify.ReplayOptions{})
		})
	}
}

func mask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}
