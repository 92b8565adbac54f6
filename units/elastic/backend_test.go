package elastic

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// warpStream is EXE issuing one subwarp every cycle: warps of k subwarps
// back to back, all of a warp memory or all non-memory, memory subwarps
// with a random hold 0..7. A memory warp starts only at the safe distance
// of Eq. 5.7 from the previous one (k + the sum of its subwarps' holds
// cycles after its first subwarp was taken), and then with probability
// 1/2; otherwise a non-memory warp starts.
type warpStream struct {
	r        *rand.Rand
	k        int
	cur      []Instr // the warp being issued; cur[0] is presented
	tag      int
	lastMem  int // cycle the previous memory warp's first subwarp was taken, -1 none
	lastDist int // its safe distance
	pending  int // safe distance of the warp being issued when it is memory
	first    bool
}

func newWarpStream(r *rand.Rand, k int) *warpStream {
	return &warpStream{r: r, k: k, lastMem: -1}
}

// next is the instruction EXE presents in cycle t (never nil).
func (s *warpStream) next(t int) *Instr {
	if len(s.cur) == 0 {
		mem := (s.lastMem < 0 || t-s.lastMem >= s.lastDist) && s.r.IntN(2) == 0
		s.pending = s.k
		for range s.k {
			in := Instr{Mem: mem, Tag: s.tag}
			s.tag++
			if mem {
				in.Hold = s.r.IntN(8)
				s.pending += in.Hold
			}
			s.cur = append(s.cur, in)
		}
		s.first = mem
	}
	return &s.cur[0]
}

// taken records that the presented instruction was taken in cycle t.
func (s *warpStream) taken(t int) {
	if s.first {
		s.lastMem, s.lastDist, s.first = t, s.pending, false
	}
	s.cur = s.cur[1:]
}

// runStream drives an elastic pipe with the stream for cycles cycles and
// returns the cycles in which EXE's instruction was refused.
func runStream(seed uint64, m, n, nonmem, cycles int) []int {
	p := NewElasticPipe(m, n, nonmem)
	s := newWarpStream(rand.New(rand.NewPCG(seed, uint64(m*100+n))), n+1)
	var refused []int
	for t := range cycles {
		ex := s.next(t)
		ready, _ := p.Step(ex, nil)
		if ready {
			s.taken(t)
		} else {
			refused = append(refused, t) // re-presented next cycle
		}
	}
	return refused
}

// TestElasticNeverRefuses: with PREMEM of N = K-1 entries (Eq. 5.5),
// NONMEM of DefaultNonmem entries and memory warps at the safe distance
// (Eq. 5.7), EXE presenting a subwarp every cycle is never stalled.
func TestElasticNeverRefuses(t *testing.T) {
	for m := 1; m <= 8; m++ {
		for n := 0; n <= 7; n++ {
			refused := runStream(1, m, n, DefaultNonmem(m, n), 3000)
			require.Empty(t, refused, "M=%d N=%d nonmem=%d: cycles EXE was refused", m, n, DefaultNonmem(m, n))
		}
	}
}

// TestElasticNonmemMStalls: NONMEM of only M entries (Eq. 5.4) with
// N = 3 > M - 1 stalls EXE under the same stream, so the stream can
// catch a too shallow queue; and the minimal case by hand.
func TestElasticNonmemMStalls(t *testing.T) {
	require.NotEmpty(t, runStream(1, 2, 3, 2, 3000), "M=2 N=3 nonmem=2 never refused")

	// A memory warp of K = 4 subwarps whose first holds MEM0 2 extra
	// cycles (taken in cycles 0..3), then a non-memory warp (4..7). The
	// memory subwarps are written back in cycles 4 (0+M+2), 5, 6, 7, so
	// all four non-memory subwarps must wait in NONMEM: with 2 entries
	// the third (cycle 6) and again in cycle 7 is refused, then taken in
	// cycle 8 when NONMEM's head writes back; with 4 entries never.
	stream := []Instr{{Mem: true, Hold: 2, Tag: 0}, {Mem: true, Tag: 1}, {Mem: true, Tag: 2}, {Mem: true, Tag: 3},
		{Tag: 4}, {Tag: 5}, {Tag: 6}, {Tag: 7}}
	run := func(nonmem int) (refused []int, wbs []Writeback) {
		p := NewElasticPipe(2, 3, nonmem)
		i := 0
		for t := range 20 {
			var ex *Instr
			if i < len(stream) {
				ex = &stream[i]
			}
			ready, wb := p.Step(ex, nil)
			if ex != nil && !ready {
				refused = append(refused, t)
			}
			if ready {
				i++
			}
			wbs = append(wbs, wb)
		}
		return refused, wbs
	}
	refused, _ := run(2)
	require.Equal(t, []int{6, 7}, refused)
	refused, wbs := run(DefaultNonmem(2, 3))
	require.Empty(t, refused)
	var order []Writeback
	for _, wb := range wbs {
		if wb.Valid {
			order = append(order, wb)
		}
	}
	require.Equal(t, []Writeback{
		{true, SrcMem, 0}, {true, SrcMem, 1}, {true, SrcMem, 2}, {true, SrcMem, 3},
		{true, SrcNonmem, 4}, {true, SrcNonmem, 5}, {true, SrcNonmem, 6}, {true, SrcNonmem, 7},
	}, order)
	require.Equal(t, Writeback{true, SrcMem, 0}, wbs[4])
	require.Equal(t, Writeback{true, SrcNonmem, 4}, wbs[8])
}

// lone presents in alone in cycle 0 and returns the cycles each writeback
// happened in (within 30 cycles).
func lone(t *testing.T, p Backend, in Instr) (cycle int, wb Writeback) {
	t.Helper()
	cycle = -1
	for c := range 30 {
		var ex *Instr
		if c == 0 {
			ex = &in
		}
		ready, w := p.Step(ex, nil)
		if c == 0 {
			require.True(t, ready, "a lone instruction is taken at once")
		}
		if w.Valid {
			require.Equal(t, -1, cycle, "written back twice")
			cycle, wb = c, w
		}
	}
	return cycle, wb
}

// TestLoneLatency: the contracts' latency of an instruction alone in the
// back end, taken in cycle 0.
func TestLoneLatency(t *testing.T) {
	for m := 1; m <= 8; m++ {
		for h := 0; h <= 3; h++ {
			c, wb := lone(t, NewElasticPipe(m, 3, DefaultNonmem(m, 3)), Instr{Mem: true, Hold: h, Tag: 5})
			require.Equal(t, m+h, c, "elastic memory M=%d hold=%d", m, h)
			require.Equal(t, Writeback{true, SrcMem, 5}, wb)
			c, wb = lone(t, NewElasticPipe(m, 0, DefaultNonmem(m, 0)), Instr{Mem: true, Hold: h, Tag: 6})
			require.Equal(t, m+h, c, "elastic memory without PREMEM M=%d hold=%d", m, h)
			require.Equal(t, Writeback{true, SrcMem, 6}, wb)

			for _, mem := range []bool{false, true} {
				c, wb = lone(t, NewBasePipe(m), Instr{Mem: mem, Hold: h, Tag: 7})
				require.Equal(t, m+h, c, "base M=%d mem=%v hold=%d", m, mem, h)
				require.Equal(t, Writeback{true, SrcMem, 7}, wb)
			}

			c, wb = lone(t, NewSplitPipe(m), Instr{Mem: true, Hold: h, Tag: 8})
			require.Equal(t, m+h, c, "split memory M=%d hold=%d", m, h)
			require.Equal(t, Writeback{true, SrcMem, 8}, wb)
		}
		c, wb := lone(t, NewElasticPipe(m, 3, DefaultNonmem(m, 3)), Instr{Tag: 9})
		require.Equal(t, 0, c, "elastic non-memory M=%d", m)
		require.Equal(t, Writeback{true, SrcExe, 9}, wb)
		c, wb = lone(t, NewSplitPipe(m), Instr{Tag: 10})
		require.Equal(t, m, c, "split non-memory M=%d", m)
		require.Equal(t, Writeback{true, SrcNonmem, 10}, wb)
	}
}

// TestInterconnectPriority: an interconnect return takes the writeback
// slot the cycle it arrives, and BlockedByIC tells a refusal it caused
// from a bank-conflict one.
func TestInterconnectPriority(t *testing.T) {
	ic := 9
	// Base pipe, one stage: A is taken in cycle 0 and wants to leave S_0
	// in cycle 1; the return takes the slot, so S_0 stays full and B is
	// refused for the interconnect alone.
	p := NewBasePipe(1)
	ready, wb := p.Step(&Instr{Tag: 1}, nil)
	require.True(t, ready)
	require.False(t, wb.Valid)
	ready, wb = p.Step(&Instr{Tag: 2}, &ic)
	require.False(t, ready)
	require.Equal(t, Writeback{true, SrcIC, 9}, wb)
	require.True(t, p.BlockedByIC())
	require.False(t, p.BlockedByConflict())
	ready, wb = p.Step(&Instr{Tag: 2}, nil)
	require.True(t, ready)
	require.Equal(t, Writeback{true, SrcMem, 1}, wb)
	require.False(t, p.BlockedByIC())
	require.False(t, p.BlockedByConflict(), "taken: no reason")

	// A hold keeps S_0 full whatever the interconnect does: not its fault.
	p = NewBasePipe(1)
	ready, _ = p.Step(&Instr{Tag: 1, Hold: 2}, nil)
	require.True(t, ready)
	ready, wb = p.Step(&Instr{Tag: 2}, &ic)
	require.False(t, ready)
	require.Equal(t, Writeback{true, SrcIC, 9}, wb)
	require.False(t, p.BlockedByIC())
	require.True(t, p.BlockedByConflict())

	// Elastic pipe without room in NONMEM (1 entry, held): a non-memory
	// instruction is refused only because the return takes the slot.
	e := NewElasticPipe(1, 0, 1)
	ready, _ = e.Step(&Instr{Mem: true, Tag: 1}, nil) // S_0 in cycle 1
	require.True(t, ready)
	ready, wb = e.Step(&Instr{Tag: 2}, nil) // the MEM tail writes back; 2 waits in NONMEM
	require.True(t, ready)
	require.Equal(t, Writeback{true, SrcMem, 1}, wb)
	ready, wb = e.Step(&Instr{Tag: 3}, &ic) // NONMEM full and not written back
	require.False(t, ready)
	require.Equal(t, Writeback{true, SrcIC, 9}, wb)
	require.True(t, e.BlockedByIC())
	require.False(t, e.BlockedByConflict())
	p0, n0 := e.Counts()
	require.Equal(t, [2]int{0, 1}, [2]int{p0, n0})

	// Elastic pipe, two stages, one NONMEM entry: the MEM tail outranks
	// NONMEM's head, so a second non-memory instruction finds NONMEM full
	// with no conflict and no return: a writeback conflict, neither
	// reason.
	e = NewElasticPipe(2, 0, 1)
	for _, in := range []Instr{{Mem: true, Tag: 1}, {Mem: true, Tag: 2}, {Tag: 3}} {
		ready, _ = e.Step(&in, nil)
		require.True(t, ready, "tag %d", in.Tag)
	}
	ready, wb = e.Step(&Instr{Tag: 4}, nil)
	require.False(t, ready)
	require.Equal(t, Writeback{true, SrcMem, 2}, wb)
	require.False(t, e.BlockedByIC())
	require.False(t, e.BlockedByConflict())

	// Under random traffic every return is written back the cycle it
	// arrives, in every back end.
	r := rand.New(rand.NewPCG(3, 4))
	for _, b := range []Backend{NewElasticPipe(4, 3, 4), NewElasticPipe(1, 0, 1), NewBasePipe(4), NewBasePipe(1), NewSplitPipe(3)} {
		var held *Instr
		for c := range 5000 {
			if held == nil && r.IntN(10) < 7 {
				held = &Instr{Mem: r.IntN(2) == 0, Hold: r.IntN(4), Tag: r.IntN(32)}
			}
			var icp *int
			if r.IntN(5) == 0 {
				v := 100 + c
				icp = &v
			}
			ready, wb := b.Step(held, icp)
			if icp != nil {
				require.Equal(t, Writeback{true, SrcIC, *icp}, wb, "cycle %d", c)
			} else {
				require.False(t, wb.Valid && wb.Src == SrcIC, "cycle %d: an interconnect writeback without a return", c)
			}
			if ready {
				held = nil
			}
		}
	}
}

// TestElasticCounts: under random traffic with random interconnect
// returns, PREMEM and NONMEM never hold more than their depths, and every
// instruction taken is written back once, memory ones in order and
// non-memory ones in order, each from a source of its class.
func TestElasticCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range [][3]int{{4, 3, 4}, {1, 0, 1}, {2, 3, 2}, {3, 1, 5}, {8, 7, 8}, {1, 7, 1}} {
		m, n, nm := c[0], c[1], c[2]
		p := NewElasticPipe(m, n, nm)
		var mem, non []int
		var held *Instr
		tag := 0
		maxP, maxN := 0, 0
		for cyc := range 20000 {
			if held == nil && r.IntN(10) < 8 {
				held = &Instr{Mem: r.IntN(2) == 0, Hold: r.IntN(4) * r.IntN(2), Tag: tag}
				tag++
			}
			var icp *int
			if r.IntN(8) == 0 {
				v := -2
				icp = &v
			}
			ready, wb := p.Step(held, icp)
			if ready {
				if held.Mem {
					mem = append(mem, held.Tag)
				} else {
					non = append(non, held.Tag)
				}
				held = nil
			}
			if wb.Valid {
				switch wb.Src {
				case SrcIC:
					require.NotNil(t, icp)
				case SrcMem:
					require.NotEmpty(t, mem, "cycle %d", cyc)
					require.Equal(t, mem[0], wb.Tag, "cycle %d: memory order", cyc)
					mem = mem[1:]
				default:
					require.NotEmpty(t, non, "cycle %d", cyc)
					require.Equal(t, non[0], wb.Tag, "cycle %d: non-memory order", cyc)
					non = non[1:]
				}
			}
			pc, nc := p.Counts()
			require.LessOrEqual(t, pc, n, "%v cycle %d: PREMEM", c, cyc)
			require.LessOrEqual(t, nc, nm, "%v cycle %d: NONMEM", c, cyc)
			require.GreaterOrEqual(t, pc, 0)
			require.GreaterOrEqual(t, nc, 0)
			maxP, maxN = max(maxP, pc), max(maxN, nc)
		}
		require.Equal(t, n, maxP, "%v: PREMEM never filled", c)
		require.Equal(t, nm, maxN, "%v: NONMEM never filled", c)
	}
}
