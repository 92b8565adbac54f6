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

// memBench drives the SAMS memory on the Go simulator one cycle at a time,
// reacting to req_ready, and records every input vector so the same run can
// be replayed on Verilator and compared cycle by cycle.
type memBench struct {
	t        *testing.T
	p        Memory
	g        *verify.GoSim
	ports    verify.Ports
	in, out  map[string]int
	vec      verify.Vector
	recorded []verify.Vector
	last     verify.Vector // outputs of the last cycle, before its edge
}

func newMemBench(t *testing.T, p Memory) *memBench {
	d, err := hdl.Elaborate(p.Build("sams"))
	require.NoError(t, err)
	g, err := verify.NewGoSim(d)
	require.NoError(t, err)
	b := &memBench{t: t, p: p, g: g, ports: verify.PortsOf(d), in: map[string]int{}, out: map[string]int{}}
	for i, port := range b.ports.In {
		require.Equal(t, 1, port.Words())
		b.in[port.Name] = i
	}
	for i, port := range b.ports.Out {
		b.out[port.Name] = i
	}
	b.vec = make(verify.Vector, b.ports.InWords())
	require.NoError(t, verify.Reset(g))
	return b
}

func (b *memBench) set(name string, v uint64) { b.vec[b.in[name]] = v }

func (b *memBench) get(name string) uint64 { return b.last[b.out[name]] }

// cycle applies the current inputs for one cycle: outputs are sampled
// before the edge, as a request is accepted at the edge when valid and
// ready are both 1 then.
func (b *memBench) cycle() {
	outs, err := b.g.Run([]verify.Vector{b.vec})
	require.NoError(b.t, err)
	b.last = outs[0]
	b.recorded = append(b.recorded, append(verify.Vector(nil), b.vec...))
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

// expectation is what a read must return: per lane (or slot) a value, when
// the model knows it.
type expectation struct {
	wide   bool
	known  []bool
	values []uint64
}

// scoreboard is the flat-memory model of one run with one layout.
type scoreboard struct {
	layout  Layout
	model   map[uint64]uint64 // linear address -> last value written in this run
	pending []expectation
	checked int // lanes compared
	reads   int
	writes  int
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

// accept applies an accepted request to the model, in order.
func (sb *scoreboard) accept(req request, q, n int) {
	var addrs []uint64
	if req.wide {
		addrs = lineAddresses(sb.layout, req.row)
	} else {
		step := uint64(1)
		if req.mode == 3 {
			step = req.stride
		}
		addrs = Addresses(req.base, step, q, n)
	}
	if req.write {
		sb.writes++
		for i, a := range addrs {
			if req.mask[i] {
				sb.model[a] = req.data[i] // in lane order: the highest lane wins
			}
		}
		return
	}
	sb.reads++
	e := expectation{wide: req.wide, known: make([]bool, len(addrs)), values: make([]uint64, len(addrs))}
	for i, a := range addrs {
		v, ok := sb.model[a]
		switch {
		case req.wide:
			e.known[i], e.values[i] = ok, v
		case !req.mask[i]:
			e.known[i] = true // masked lanes read as 0
		default:
			e.known[i], e.values[i] = ok, v
		}
	}
	sb.pending = append(sb.pending, e)
}

// respond checks the responses of one cycle.
func (sb *scoreboard) respond(t *testing.T, b *memBench) {
	for _, wide := range []bool{false, true} {
		valid, prefix, count := "resp_valid", "resp_rdata_", 1<<uint(b.p.Q)
		if wide {
			valid, prefix, count = "wide_resp_valid", "wide_rdata_", 2<<uint(b.p.Q)
		}
		if b.get(valid) == 0 {
			continue
		}
		require.NotEmpty(t, sb.pending, "a response nobody asked for")
		e := sb.pending[0]
		sb.pending = sb.pending[1:]
		require.Equal(t, e.wide, wide, "responses come in request order")
		for i := range count {
			if e.known[i] {
				require.Equalf(t, e.values[i], b.get(fmt.Sprintf("%s%d", prefix, i)), "%s%d, layout %+v", prefix, i, sb.layout)
				sb.checked++
			}
		}
	}
}

// load puts a request on the inputs, valid.
func (b *memBench) load(req request) {
	if req.wide {
		b.set("wide_valid", 1)
		b.set("wide_write", b2u(req.write))
		b.set("wide_row", req.row)
		for j := range 2 << uint(b.p.Q) {
			b.set(fmt.Sprintf("wide_mask_%d", j), b2u(req.mask[j]))
			b.set(fmt.Sprintf("wide_wdata_%d", j), req.data[j])
		}
		return
	}
	b.set("req_valid", 1)
	b.set("req_write", b2u(req.write))
	b.set("req_mode", req.mode)
	b.set("req_base", req.base)
	b.set("req_stride", req.stride)
	for i := range 1 << uint(b.p.Q) {
		b.set(fmt.Sprintf("req_mask_%d", i), b2u(req.mask[i]))
		b.set(fmt.Sprintf("req_wdata_%d", i), req.data[i])
	}
}

// present drives a request until the memory accepts it, checking responses
// every cycle.
func (b *memBench) present(sb *scoreboard, req request) int {
	q := b.p.Q
	b.load(req)
	for cycles := 1; ; cycles++ {
		b.cycle()
		sb.respond(b.t, b)
		ready := b.get("req_ready")
		if req.wide {
			ready = b.get("wide_ready")
		}
		if ready == 1 {
			sb.accept(req, q, b.p.N)
			b.set("wide_valid", 0)
			b.set("req_valid", 0)
			return cycles
		}
		require.Less(b.t, cycles, 1<<uint(q)+2, "a request waits longer than its sub-accesses")
	}
}

// drain runs idle cycles until every read is answered.
func (b *memBench) drain(sb *scoreboard) {
	for range 8 {
		b.cycle()
		sb.respond(b.t, b)
	}
	require.Empty(b.t, sb.pending, "reads without responses")
}

// runLayout issues count random requests that all use one layout.
func (b *memBench) runLayout(r *rand.Rand, layout Layout, count int) *scoreboard {
	q, n, w := b.p.Q, b.p.N, b.p.W
	sb := &scoreboard{layout: layout, model: map[uint64]uint64{}}
	// A small pool of bases and strides, so reads find what writes wrote.
	type place struct{ base, stride uint64 }
	var pool []place
	stride := func() uint64 {
		switch {
		case layout.NaS:
			return r.Uint64() & mask(n) // ignored by modes 00 and 01
		case b.p.Matched:
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
		b.present(sb, req)
	}
	b.drain(sb)
	return sb
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
			b := newMemBench(t, p)
			r := rand.New(rand.NewPCG(seed, uint64(b2u(p.Matched))))
			ls := layouts(p.Q, p.N)
			if p.Matched {
				ls = []Layout{{Q: p.Q, N: p.N, Family: p.Q}}
			}
			for _, l := range ls {
				sb := b.runLayout(r, l, requestsPerLayout)
				t.Logf("layout %+v: %d reads, %d writes, %d lanes compared with the model", l, sb.reads, sb.writes, sb.checked)
				require.GreaterOrEqual(t, sb.reads+sb.writes, requestsPerLayout)
				require.Greater(t, sb.checked, requestsPerLayout, "reads find data written in the run")
			}
			d, err := hdl.Elaborate(p.Build("sams"))
			require.NoError(t, err)
			res, err := verify.Lockstep(verify.Config{
				Backends: []verify.Backend{verify.GoBackend(d), verify.VerilatorBackend(d, verify.VerilatorOptions{})},
				Stimulus: func(uint64) verify.Stimulus { return verify.NewRecorded(b.recorded) },
				Cycles:   uint64(len(b.recorded)),
			})
			require.NoError(t, err)
			t.Logf("Verilator agrees with the Go run on all %d cycles (%d output values)", res.Cycles, res.Compared)
		})
	}
}

func mask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
