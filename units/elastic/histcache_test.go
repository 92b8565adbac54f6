package elastic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Directed tests of the history cache and warp mask models against the
// contracts elastic-bchc and elastic-warpmask; every expected value is
// worked out by hand from the contract text.

// write is one edge writing pc with value (no read).
func write(c *HistoryCache, pc, value int) { c.Step(false, 0, true, pc, value, false) }

// read is one edge reading pc (no write), returning what the read port
// showed during the cycle.
func read(c *HistoryCache, pc int) (bool, int) {
	hit, v := c.Read(pc)
	c.Step(true, pc, false, 0, 0, false)
	return hit, v
}

type hv struct {
	hit   bool
	value int
}

func look(c *HistoryCache, pcs ...int) []hv {
	var out []hv
	for _, pc := range pcs {
		h, v := c.Read(pc)
		out = append(out, hv{h, v})
	}
	return out
}

func TestHistoryCacheMissAndWrite(t *testing.T) {
	c := NewHistoryCache(4, 2, 6, 32) // VW = 5
	require.Equal(t, []hv{{false, 0}, {false, 0}, {false, 0}}, look(c, 0, 5, 63))
	write(c, 5, 7)
	require.Equal(t, []hv{{true, 7}, {false, 0}, {false, 0}}, look(c, 5, 1, 9)) // 1, 9: set 1, other tags
	write(c, 5, 37)                                                             // a write hit: 37 at 5 bits is 5
	require.Equal(t, []hv{{true, 5}}, look(c, 5))
	write(c, 6, 31)
	require.Equal(t, []hv{{true, 5}, {true, 31}}, look(c, 5, 6))
	write(c, 6, 0) // value 0 is still a hit
	require.Equal(t, []hv{{true, 0}}, look(c, 6))

	c = NewHistoryCache(2, 1, 3, 4) // VW = 2
	write(c, 3, 6)
	require.Equal(t, []hv{{true, 2}}, look(c, 3))
}

func TestHistoryCacheSetsAndTags(t *testing.T) {
	// sets 4, one way: 1 and 5 share set 1 (tags 0 and 1), 2 is set 2.
	c := NewHistoryCache(4, 1, 6, 32)
	write(c, 1, 3)
	write(c, 2, 9)
	require.Equal(t, []hv{{true, 3}, {true, 9}, {false, 0}, {false, 0}}, look(c, 1, 2, 5, 3))
	write(c, 5, 4) // evicts 1
	require.Equal(t, []hv{{false, 0}, {true, 4}, {true, 9}}, look(c, 1, 5, 2))
	write(c, 1, 6) // evicts 5
	require.Equal(t, []hv{{true, 6}, {false, 0}, {true, 9}}, look(c, 1, 5, 2))
	require.Equal(t, []hv{{true, 6}}, look(c, 1+64), "a PC is its low pcw bits")

	// One set: every PC maps to it, the tag is the whole PC.
	c = NewHistoryCache(1, 1, 3, 8)
	write(c, 6, 2)
	require.Equal(t, []hv{{true, 2}, {false, 0}}, look(c, 6, 2))
}

func TestHistoryCacheLRU2(t *testing.T) {
	c := NewHistoryCache(1, 2, 4, 16)
	write(c, 1, 1) // way 0
	write(c, 2, 2) // way 1; LRU order 1, 2
	hit, v := read(c, 1)
	require.Equal(t, hv{true, 1}, hv{hit, v})
	write(c, 3, 3) // the read made 1 recent: 2 goes
	require.Equal(t, []hv{{true, 1}, {false, 0}, {true, 3}}, look(c, 1, 2, 3))

	// A read in the same edge as the write is judged first.
	c = NewHistoryCache(1, 2, 4, 16)
	write(c, 1, 1)
	write(c, 2, 2)
	c.Step(true, 1, true, 3, 3, false)
	require.Equal(t, []hv{{true, 1}, {false, 0}, {true, 3}}, look(c, 1, 2, 3))

	// Without rd_en the same PC refreshes nothing: 1 goes.
	c = NewHistoryCache(1, 2, 4, 16)
	write(c, 1, 1)
	write(c, 2, 2)
	c.Step(false, 1, true, 3, 3, false)
	require.Equal(t, []hv{{false, 0}, {true, 2}, {true, 3}}, look(c, 1, 2, 3))

	// A read miss refreshes nothing; a write hit refreshes its line.
	c = NewHistoryCache(1, 2, 4, 16)
	write(c, 1, 1)
	write(c, 2, 2)
	read(c, 4)
	write(c, 1, 5) // hit: 1 becomes recent, 2 is LRU
	write(c, 3, 3)
	require.Equal(t, []hv{{true, 5}, {false, 0}, {true, 3}}, look(c, 1, 2, 3))

	// A read in the cycle of a write sees the contents before the write.
	c = NewHistoryCache(1, 2, 4, 16)
	write(c, 1, 1)
	h, v := c.Read(1)
	c.Step(true, 1, true, 1, 9, false)
	require.Equal(t, hv{true, 1}, hv{h, v})
	h, v = c.Read(2)
	c.Step(true, 2, true, 2, 9, false)
	require.Equal(t, hv{false, 0}, hv{h, v})
	require.Equal(t, []hv{{true, 9}, {true, 9}}, look(c, 1, 2))
}

func TestHistoryCacheLRU4(t *testing.T) {
	c := NewHistoryCache(1, 4, 5, 32)
	for pc := 10; pc <= 13; pc++ {
		write(c, pc, pc) // LRU order 10 11 12 13
	}
	read(c, 10)      // 11 12 13 10
	write(c, 14, 14) // evicts 11: 12 13 10 14
	require.Equal(t, []hv{{true, 10}, {false, 0}, {true, 12}, {true, 13}, {true, 14}}, look(c, 10, 11, 12, 13, 14))
	write(c, 15, 15) // evicts 12: 13 10 14 15
	read(c, 13)      // 10 14 15 13
	write(c, 16, 16) // evicts 10: 14 15 13 16
	require.Equal(t, []hv{{false, 0}, {false, 0}, {true, 13}, {true, 14}, {true, 15}, {true, 16}}, look(c, 10, 12, 13, 14, 15, 16))
	write(c, 14, 1)  // a write hit: 15 13 16 14
	write(c, 17, 17) // evicts 15
	require.Equal(t, []hv{{true, 13}, {true, 1}, {false, 0}, {true, 16}, {true, 17}}, look(c, 13, 14, 15, 16, 17))

	// Sets keep separate orders: sets 2, 4 ways; set 0 full, set 1 not.
	c = NewHistoryCache(2, 4, 5, 32)
	for _, pc := range []int{0, 2, 4, 6} {
		write(c, pc, pc+1)
	}
	write(c, 1, 20)
	read(c, 0)
	write(c, 8, 21) // evicts 2 in set 0; 1 stays
	require.Equal(t, []hv{{true, 1}, {false, 0}, {true, 5}, {true, 7}, {true, 21}, {true, 20}}, look(c, 0, 2, 4, 6, 8, 1))
}

func TestHistoryCacheFillAndClear(t *testing.T) {
	c := NewHistoryCache(2, 4, 5, 32)
	tags := func(set int) []int {
		var out []int
		for _, l := range c.lines[set] {
			if l.valid {
				out = append(out, l.tag)
			} else {
				out = append(out, -1)
			}
		}
		return out
	}
	write(c, 6, 1) // set 0, tag 3, way 0
	write(c, 2, 1) // set 0, tag 1, way 1
	write(c, 3, 1) // set 1, tag 1, way 0
	require.Equal(t, []int{3, 1, -1, -1}, tags(0))
	require.Equal(t, []int{1, -1, -1, -1}, tags(1))

	// Clear invalidates every line and does nothing else: the write in
	// the same edge is dropped.
	c.Step(true, 6, true, 8, 2, true)
	require.Equal(t, []hv{{false, 0}, {false, 0}, {false, 0}, {false, 0}}, look(c, 6, 2, 3, 8))
	require.Equal(t, []int{-1, -1, -1, -1}, tags(0))
	require.Equal(t, []int{-1, -1, -1, -1}, tags(1))
	// Filling starts again at way 0, and the lowest invalid way is
	// filled before any valid one is replaced.
	write(c, 4, 3) // tag 2 -> way 0
	write(c, 0, 3) // tag 0 -> way 1
	require.Equal(t, []int{2, 0, -1, -1}, tags(0))
	for _, pc := range []int{10, 12} {
		write(c, pc, 1)
	}
	require.Equal(t, []int{2, 0, 5, 6}, tags(0))
	write(c, 14, 1) // full: the LRU (way 0, tag 2) goes
	require.Equal(t, []int{7, 0, 5, 6}, tags(0))
}

// maskIn is a MaskIn for 4 warps: all ready, warps 0 and 2 memory warps.
func maskIn() MaskIn {
	return MaskIn{Ready: []bool{true, true, true, false}, IsMem: []bool{true, false, true, true}}
}

func TestWarpMaskCount(t *testing.T) {
	w := NewWarpMask(4, 32, 8, 4, 2, 6) // K = 4, VW = 5, EW = 3
	in := maskIn()
	out := w.Eval(in)
	require.Equal(t, MaskOut{SchedReady: []bool{true, true, true, false}}, out)

	// A shared-memory warp at PC 5, a miss: pred 0, count <- 0+4-1 = 3.
	in.SchedValid, in.SchedShmem, in.SchedPC = true, true, 5
	out = w.Eval(in)
	require.False(t, out.PredHit)
	require.Equal(t, 0, out.Pred)
	require.Equal(t, 0, out.Count)
	w.Step(in)
	idle := maskIn()
	masked := []bool{false, true, false, false}
	for _, count := range []int{3, 2, 1} {
		out = w.Eval(idle)
		require.Equal(t, MaskOut{SchedReady: masked, Count: count, Block: true}, out)
		w.Step(idle)
	}
	require.Equal(t, MaskOut{SchedReady: []bool{true, true, true, false}}, w.Eval(idle))
	w.Step(idle)
	require.Equal(t, 0, w.Eval(idle).Count, "count stays at 0")

	// sched_valid without sched_shmem (or shmem without valid) loads nothing.
	for _, s := range [][2]bool{{true, false}, {false, true}} {
		in = maskIn()
		in.SchedValid, in.SchedShmem, in.SchedPC = s[0], s[1], 5
		out = w.Eval(in)
		require.False(t, out.PredHit)
		w.Step(in)
		require.Equal(t, 0, w.Eval(idle).Count)
	}

	// A reload while counting: the new value, not count - 1.
	in = maskIn()
	in.SchedValid, in.SchedShmem, in.SchedPC = true, true, 7
	w.Step(in)
	w.Step(idle)
	require.Equal(t, 2, w.Eval(idle).Count)
	w.Step(in)
	require.Equal(t, 3, w.Eval(idle).Count)

	// K = 1 (warp 8 on 8 lanes): a miss loads 0, nothing is masked.
	w = NewWarpMask(4, 8, 8, 2, 2, 3)
	in.SchedPC = 3
	w.Step(in)
	require.Equal(t, MaskOut{SchedReady: []bool{true, true, true, false}}, w.Eval(idle))
}

func TestWarpMaskAccAndHistory(t *testing.T) {
	w := NewWarpMask(4, 32, 8, 4, 2, 6) // K = 4, VW = 5 (sat 31), EW = 3
	idle := maskIn()
	res := func(pc, extra int, last bool) MaskIn {
		in := maskIn()
		in.ResValid, in.ResPC, in.ResExtra, in.ResLast = true, pc, extra, last
		return in
	}
	sched := func(pc int) MaskIn {
		in := maskIn()
		in.SchedValid, in.SchedShmem, in.SchedPC = true, true, pc
		return in
	}
	w.Step(res(5, 2, false))
	require.Equal(t, 2, w.Eval(idle).Acc)
	noRes := maskIn()
	noRes.ResExtra, noRes.ResLast, noRes.ResPC = 7, true, 5 // res_valid = 0: ignored
	w.Step(noRes)
	require.Equal(t, 2, w.Eval(idle).Acc)
	w.Step(res(5, 7, false))
	require.Equal(t, 9, w.Eval(idle).Acc)
	w.Step(res(5, 3, true)) // cache[5] <- 9+3 = 12, acc <- 0
	require.Equal(t, 0, w.Eval(idle).Acc)

	out := w.Eval(sched(5))
	require.True(t, out.PredHit)
	require.Equal(t, 12, out.Pred)
	w.Step(sched(5)) // count <- 12+3 = 15
	out = w.Eval(idle)
	require.Equal(t, 15, out.Count)
	require.True(t, out.Block)
	out = w.Eval(sched(6))
	require.Equal(t, [2]any{false, 0}, [2]any{out.PredHit, out.Pred})

	// Saturation: five extras of 7 sum to 35 -> 31; the write is
	// sat(31+5) = 31; the count sat(31+3) = 31.
	for _, acc := range []int{7, 14, 21, 28, 31} {
		w.Step(res(9, 7, false))
		require.Equal(t, acc, w.Eval(idle).Acc)
	}
	w.Step(res(9, 5, true))
	out = w.Eval(sched(9))
	require.Equal(t, [3]any{true, 31, 0}, [3]any{out.PredHit, out.Pred, out.Acc})
	w.Step(sched(9))
	require.Equal(t, 31, w.Eval(idle).Count)

	// A lone last subwarp writes sat(0 + extra).
	w.Step(res(13, 4, true))
	require.Equal(t, 4, w.Eval(sched(13)).Pred)

	// Launch clears the cache, acc and count, whatever else happens in
	// the same edge.
	w.Step(res(5, 3, false))
	require.NotZero(t, w.Eval(idle).Acc)
	require.NotZero(t, w.Eval(idle).Count)
	in := sched(5)
	in.ResValid, in.ResPC, in.ResExtra, in.ResLast = true, 6, 2, true
	in.Launch = true
	w.Step(in)
	require.Equal(t, MaskOut{SchedReady: []bool{true, true, true, false}}, w.Eval(idle))
	for _, pc := range []int{5, 6, 9, 13} {
		out = w.Eval(sched(pc))
		require.Equal(t, [2]any{false, 0}, [2]any{out.PredHit, out.Pred}, "pc %d after launch", pc)
	}

	// Small warp: warp 8 on 2 lanes (K = 4, VW = 3 so sat 7, EW = 1).
	w = NewWarpMask(4, 8, 2, 2, 2, 3)
	w.Step(res(2, 1, false))
	w.Step(res(2, 1, false))
	w.Step(res(2, 1, true)) // cache[2] <- 3
	require.Equal(t, 3, w.Eval(sched(2)).Pred)
	w.Step(sched(2)) // count <- sat(3+3) = 6
	require.Equal(t, 6, w.Eval(idle).Count)
	w.Step(res(2, 1, true)) // cache[2] <- 1
	w.Step(sched(2))        // count <- sat(1+3) = 4
	require.Equal(t, 4, w.Eval(idle).Count)
}
