package rsdmm

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	rs "github.com/parmem/parmem/units/rsdmm"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// memBench is the rsdmm memory on a verify.Bench: a source for warps
// (req) and one for RSU writes (cfg), sinks for responses and
// congestions, and a flat-memory model that predicts both.
type memBench struct {
	*verify.Bench
	p          rs.MemoryBlock
	m          rs.Machine
	req        *verify.Source[warp]
	cfg        *verify.Source[cfgWrite]
	resp, cong *verify.Sink
	sb         *verify.Scoreboard
	model      *flatMemory
}

// warp is one warp's request: every lane's enable, address and data.
type warp struct {
	write bool
	mask  []bool
	addr  []int
	data  []uint64
}

// cfgWrite is one RSU write: entry (or key) idx takes val.
type cfgWrite struct{ idx, val int }

// flatMemory is the contract's semantics (rsdmm): super warps take effect
// in order on a flat memory, the first warp's req_write for all, the
// highest thread winning a written address; each super warp's congestion
// is the RPU's over its enabled requests after the shift.
type flatMemory struct {
	p        rs.MemoryBlock
	mem      map[int]uint64 // address -> value, where known
	table    map[int]int    // shift 1: r_j written so far
	keys     []int          // shift 2: the H3 keys
	pending  []warp         // the super warp being gathered
	congs    []int          // every super warp's congestion, in order
	reads    int            // read warps answered
	writes   int            // write warps applied
	compared int            // read lanes whose value the model knew
}

func newFlatMemory(p rs.MemoryBlock) *flatMemory {
	return &flatMemory{p: p, mem: map[int]uint64{}, table: map[int]int{}, keys: rs.HashKeys(p.LW, p.AB-p.LW, p.Seed)}
}

// shift is r_j as the RSU holds it now.
func (f *flatMemory) shift(j int) int {
	switch f.p.Shift {
	case rs.TableShift:
		r, ok := f.table[j]
		if !ok {
			panic(fmt.Sprintf("row %d used before its shift was written", j))
		}
		return r
	case rs.HashShift:
		return rs.H3(f.keys, j)
	}
	return 0
}

// configure applies an RSU write; the memory's contents are unspecified
// after it.
func (f *flatMemory) configure(c cfgWrite) {
	switch {
	case f.p.Shift == rs.TableShift:
		f.table[c.idx] = c.val
	case f.p.Shift == rs.HashShift && c.idx < len(f.keys):
		f.keys[c.idx] = c.val
	}
	clear(f.mem)
}

// accept takes one warp; at the super warp's last it returns what the
// memory must answer: a response per read warp and the congestion.
func (f *flatMemory) accept(mb *memBench, wp warp) []verify.Expect {
	f.pending = append(f.pending, wp)
	if len(f.pending) < f.p.S {
		return nil
	}
	sw := f.pending
	f.pending = nil
	m := rs.Machine{LW: f.p.LW}
	var reqs []rs.Request
	for _, wp := range sw {
		for k, a := range wp.addr {
			s := m.Shift(a, f.shift)
			reqs = append(reqs, rs.Request{Valid: wp.mask[k], Bank: m.Bank(s), Row: m.Row(s)})
		}
	}
	cong := rs.Pack(reqs, m.W()).Cong
	f.congs = append(f.congs, cong)
	out := []verify.Expect{{Sink: mb.cong, Values: []uint64{uint64(cong)}}}
	if sw[0].write { // the first warp's req_write is the super warp's
		f.writes += len(sw)
		for _, wp := range sw { // thread order: the highest thread wins
			for k, a := range wp.addr {
				if wp.mask[k] {
					f.mem[a] = wp.data[k]
				}
			}
		}
		return out
	}
	for _, wp := range sw {
		f.reads++
		e := verify.Expect{Sink: mb.resp, Values: make([]uint64, len(wp.addr)), Care: make([]bool, len(wp.addr))}
		for k, a := range wp.addr {
			v, known := f.mem[a]
			if !wp.mask[k] {
				v, known = 0, true // masked lanes read 0
			} else if known {
				f.compared++
			}
			e.Values[k], e.Care[k] = v, known
		}
		out = append(out, e)
	}
	return out
}

func newMemBench(t *testing.T, p rs.MemoryBlock) *memBench {
	m, ports := p.WithPorts("rsdmm")
	b := verify.NewBench(t, m)
	propertiesHold(t, b)
	w := 1 << p.LW
	mb := &memBench{Bench: b, p: p, m: rs.Machine{LW: p.LW}, model: newFlatMemory(p)}
	write := b.In(ports.Req.Payload.Write.Name())
	var mask, addr, data []verify.In
	for _, l := range ports.Req.Payload.Lanes {
		mask = append(mask, b.In(l.Mask.Name()))
		addr = append(addr, b.In(l.Addr.Name()))
		data = append(data, b.In(l.Wdata.Name()))
	}
	mb.req = verify.NewSource(b, "req", func(wp warp) {
		b.Set(write, verify.Bit(wp.write))
		for i := range w {
			b.Set(mask[i], verify.Bit(wp.mask[i]))
			b.Set(addr[i], uint64(wp.addr[i]))
			b.Set(data[i], wp.data[i])
		}
	})
	idx, val := b.In(ports.Cfg.Payload.Idx.Name()), b.In(ports.Cfg.Payload.Val.Name())
	mb.cfg = verify.NewSource(b, "cfg", func(c cfgWrite) {
		b.Set(idx, uint64(c.idx))
		b.Set(val, uint64(c.val))
	})
	mb.cfg.OnAccept(func(a verify.Accepted[cfgWrite]) { mb.model.configure(a.Tx) })
	mb.resp = verify.NewSink(b, "resp", b.Outs(ports.Resp.Rdata)...).Forget()
	mb.cong = verify.NewSink(b, "cong", b.Outs(ports.Cong.Cong)...)
	mb.sb = verify.NewScoreboard(b)
	mb.sb.InOrder(mb.resp)
	mb.sb.InOrder(mb.cong)
	verify.Predict(mb.req, mb.sb, func(a verify.Accepted[warp]) []verify.Expect { return mb.model.accept(mb, a.Tx) })
	return mb
}

// configure writes RSU entries while the memory is idle.
func (mb *memBench) configure(ws ...cfgWrite) {
	mb.cfg.Push(ws...)
	mb.RunUntil(4*len(ws)+64, "the RSU writes are taken once the memory is idle", mb.cfg.Idle)
}

// loadTable writes a random shift for every row (shift 1).
func (mb *memBench) loadTable(r *rand.Rand) {
	var ws []cfgWrite
	for j := range 1 << (mb.p.AB - mb.p.LW) {
		ws = append(ws, cfgWrite{j, r.IntN(mb.m.W())})
	}
	mb.configure(ws...)
}

// randomCfg is an RSU write to any index cfg_idx can name: with -hash
// also past the keys, where it is ignored.
func (mb *memBench) randomCfg(r *rand.Rand) cfgWrite {
	rowBits := mb.p.AB - mb.p.LW
	idxBits := rowBits
	if mb.p.Shift == rs.HashShift {
		idxBits = bits.Len(uint(rowBits - 1))
	}
	return cfgWrite{r.IntN(1 << idxBits), r.IntN(mb.m.W())}
}

// pattern is an access pattern of a super warp: thread t's address.
type pattern struct {
	name string
	addr func(r *rand.Rand, p rs.MemoryBlock) func(t int) int
}

// patterns are the random and structured accesses of the scoreboard:
// section III's row-major, column-major and diagonal on a sqrt(n) x
// sqrt(n) matrix, strides 1, w/2, w, w+1 and sqrt(n), broadcast, and
// random addresses (all of them, or a few rows, so addresses repeat).
var patterns = []pattern{
	{"random", func(r *rand.Rand, p rs.MemoryBlock) func(int) int {
		return func(int) int { return r.IntN(1 << p.AB) }
	}},
	{"few rows", func(r *rand.Rand, p rs.MemoryBlock) func(int) int {
		base := r.IntN(1<<(p.AB-p.LW)) << p.LW
		return func(int) int { return (base + r.IntN(4<<p.LW)) % (1 << p.AB) }
	}},
	{"broadcast", func(r *rand.Rand, p rs.MemoryBlock) func(int) int {
		a := r.IntN(1 << p.AB)
		return func(int) int { return a }
	}},
	{"stride 1", stride(func(rs.MemoryBlock) int { return 1 })},
	{"stride w/2", stride(func(p rs.MemoryBlock) int { return max(1, 1<<p.LW/2) })},
	{"stride w", stride(func(p rs.MemoryBlock) int { return 1 << p.LW })},
	{"stride w+1", stride(func(p rs.MemoryBlock) int { return 1<<p.LW + 1 })},
	{"stride sqrt n", stride(func(p rs.MemoryBlock) int { return 1 << (p.AB / 2) })},
	{"row-major", matrix(rs.RowMajor)},
	{"column-major", matrix(rs.ColumnMajor)},
	{"diagonal", matrix(rs.Diagonal)},
}

func stride(d func(rs.MemoryBlock) int) func(*rand.Rand, rs.MemoryBlock) func(int) int {
	return func(r *rand.Rand, p rs.MemoryBlock) func(int) int {
		base := r.IntN(1 << p.AB)
		return func(t int) int { return (base + t*d(p)) % (1 << p.AB) }
	}
}

// matrix is a section III pattern on the sqrt(n) x sqrt(n) matrix in the
// low 2^(2*floor(ab/2)) words, from a random thread on.
func matrix(a func(sqrtN int) rs.Access) func(*rand.Rand, rs.MemoryBlock) func(int) int {
	return func(r *rand.Rand, p rs.MemoryBlock) func(int) int {
		sqrtN := 1 << (p.AB / 2)
		t0 := r.IntN(sqrtN * sqrtN)
		at := a(sqrtN)
		return func(t int) int { return at(t0 + t) }
	}
}

// superWarp makes s warps of one pattern: each warp's own req_write is
// random (only the first's counts), a quarter of them with random masks.
func (mb *memBench) superWarp(r *rand.Rand, write bool) []warp {
	p := mb.p
	w := mb.m.W()
	pat := patterns[r.IntN(len(patterns))]
	addr := pat.addr(r, p)
	var ws []warp
	masked := r.IntN(4) == 0
	for q := range p.S {
		wp := warp{write: r.IntN(2) == 0, mask: make([]bool, w), addr: make([]int, w), data: make([]uint64, w)}
		if q == 0 {
			wp.write = write
		}
		for k := range w {
			wp.mask[k] = !masked || r.IntN(3) != 0
			wp.addr[k] = addr(q*w + k)
			wp.data[k] = r.Uint64() & (1<<p.DW - 1)
		}
		ws = append(ws, wp)
	}
	return ws
}

const warpsPerShift = 20_000

// TestMemoryScoreboard drives the memory at its defaults with every shift
// through 20,000 warps of random and structured super warps, reads and
// writes, with RSU rewrites between batches (shift 1 loads its table
// first), and checks every response and congestion against the flat
// memory and the spec's RPU.
func TestMemoryScoreboard(t *testing.T) {
	t.Parallel()
	seed := verify.TestSeed(t, 13)
	for shift := range rs.ShiftKind(3) {
		p := rs.MemoryBlock{LW: 3, S: 3, AB: 12, DW: 32, L: 4, Shift: shift, Seed: 1}
		t.Run(fmt.Sprint("shift ", shift), func(t *testing.T) {
			t.Parallel()
			mb := newMemBench(t, p)
			mb.DontRecord()
			r := rand.New(rand.NewPCG(seed, uint64(shift)))
			if shift == rs.TableShift {
				mb.loadTable(r)
			}
			const batch = 2000 // warps between RSU rewrites
			for mb.req.NumAccepted() < warpsPerShift {
				for range batch / p.S {
					mb.req.Push(mb.superWarp(r, r.IntN(2) == 0)...)
				}
				mb.RunUntil(batch*p.N()+100, "the batch is accepted", mb.req.Idle)
				mb.Run(p.N() + p.L + p.S + 8) // drain
				mb.configure(mb.randomCfg(r), mb.randomCfg(r))
			}
			mb.sb.Finish()
			f := mb.model
			t.Logf("shift %v: %d warps (%d read, %d written), %d super warps, %d responses and congestions matched, %d read lanes compared with the flat memory, %d cycles",
				shift, mb.req.NumAccepted(), f.reads, f.writes, len(f.congs), mb.sb.Matched(), f.compared, mb.Cycle())
			require.GreaterOrEqual(t, mb.req.NumAccepted(), warpsPerShift)
			require.Equal(t, f.reads+len(f.congs), mb.sb.Matched())
			require.Greater(t, f.compared, warpsPerShift, "reads find data written before them")
		})
	}
}

// TestMemoryStreamTiming streams super warps back to back and checks the
// contract's timing exactly: super warp k's window (cong_valid) opens
// s + 1 + sum_{k' < k} max(s, c_k') cycles after the stream's first warp
// is accepted, so a stream of congestions c_1, c_2, ... takes
// sum max(s, c_k) cycles plus s + 1; a read super warp's responses come
// on s consecutive cycles from max(s, c_k) + l cycles after its window
// opens, two cycles after its last stage reaches the banks (Lemma 1's
// c + l - 1 from its first stage's issue).
func TestMemoryStreamTiming(t *testing.T) {
	t.Parallel()
	seed := verify.TestSeed(t, 17)
	for _, p := range []rs.MemoryBlock{
		{LW: 3, S: 3, AB: 12, DW: 32, L: 4, Shift: rs.HashShift, Seed: 1},
		{LW: 3, S: 3, AB: 12, DW: 32, L: 4, Shift: rs.NoShift},
		{LW: 2, S: 1, AB: 8, DW: 8, L: 1, Shift: rs.NoShift},
		{LW: 2, S: 5, AB: 10, DW: 8, L: 9, Shift: rs.HashShift, Seed: 3, AllPairs: true},
	} {
		t.Run(fmt.Sprintf("lw%d_s%d_l%d_shift%d", p.LW, p.S, p.L, p.Shift), func(t *testing.T) {
			t.Parallel()
			mb := newMemBench(t, p)
			mb.DontRecord()
			var resps []uint64
			mb.resp.OnReceive(func(r verify.Response) { resps = append(resps, r.Cycle) })
			r := rand.New(rand.NewPCG(seed, uint64(p.LW*100+p.S)))
			const superWarps = 2000
			var writes []bool
			for range superWarps {
				writes = append(writes, r.IntN(2) == 0)
				mb.req.Push(mb.superWarp(r, writes[len(writes)-1])...)
			}
			mb.RunUntil(superWarps*p.N()+100, "the stream is accepted", mb.req.Idle)
			mb.Run(p.N() + p.L + p.S + 8)
			mb.sb.Finish()
			first := mb.req.AcceptCycles()[0]
			congs, windows := mb.model.congs, mb.cong.Received()
			require.Len(t, windows, superWarps)
			open := first + uint64(p.S) + 1
			r0 := 0
			for k, c := range congs {
				m := uint64(max(p.S, c))
				require.Equal(t, open, windows[k].Cycle, "super warp %d's window (congestions so far %v)", k, congs[max(0, k-3):k+1])
				if !writes[k] {
					for q := range p.S {
						require.Equal(t, open+m+uint64(p.L+q), resps[r0+q], "super warp %d (congestion %d), warp %d's response", k, c, q)
					}
					r0 += p.S
				}
				open += m
			}
			sum := int(open - first - uint64(p.S) - 1)
			t.Logf("%d super warps, congestion %d in all: sum max(s, c_k) = %d cycles, the last window closes %d cycles after the first acceptance (s + 1 = %d more)",
				superWarps, sumOf(congs), sum, open-first, p.S+1)
		})
	}
}

func sumOf(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
