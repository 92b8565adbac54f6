package elastic

import "slices"

// Plain-Go models of the bank-conflict history cache (contract
// elastic-bchc, thesis section 5.5.2, Table 5.3) and the bank-conflict
// aware warp ready generation of Fig. 5.7 (contract elastic-warpmask,
// sections 5.5.1-5.5.3), stepped in lockstep with the hardware of bchc.go
// and warpmask.go. Inputs are taken at their port widths: PCs modulo
// 2^pcw, values modulo 2^VW, extras modulo 2^EW.

// HistoryCache is the bank conflict history cache of section 5.5.2: sets
// sets of ways lines (valid, tag, value) with set(pc) = pc mod sets and
// tag(pc) = pc / sets (pcw - log2(sets) bits, Table 5.3), and a true-LRU
// order of each set's valid lines.
type HistoryCache struct {
	sets, pcMask, valueMask int
	lines                   [][]historyLine // [set][way]
	lru                     [][]int         // [set]: its valid ways, least recently used first
}

// historyLine is one way of a set.
type historyLine struct {
	valid      bool
	tag, value int
}

// NewHistoryCache is an empty (all invalid) cache of sets × ways lines
// indexed by a pcw-bit PC, holding log2(warp)-bit values.
func NewHistoryCache(sets, ways, pcw, warp int) *HistoryCache {
	c := &HistoryCache{sets: sets, pcMask: 1<<pcw - 1, valueMask: warp - 1}
	c.lines = make([][]historyLine, sets)
	c.lru = make([][]int, sets)
	for s := range c.lines {
		c.lines[s] = make([]historyLine, ways)
	}
	return c
}

// lookup is set(pc), tag(pc) and the way of the set holding a valid line
// with that tag, -1 when none.
func (c *HistoryCache) lookup(pc int) (set, tag, way int) {
	pc &= c.pcMask
	set, tag = pc%c.sets, pc/c.sets
	way = slices.IndexFunc(c.lines[set], func(l historyLine) bool { return l.valid && l.tag == tag })
	return set, tag, way
}

// Read is the read port with rd_en = 1, from the current state
// (combinational): rd_hit, and rd_value (the hit line's value, 0 on a
// miss: section 5.5.2's default).
func (c *HistoryCache) Read(pc int) (hit bool, value int) {
	set, _, way := c.lookup(pc)
	if way < 0 {
		return false, 0
	}
	return true, c.lines[set][way].value
}

// Step applies one rising edge. With clearAll (the clear port at kernel
// launch, or rst) every line becomes invalid and nothing else happens.
// Otherwise, in this order: a read hit (rdEn) makes the line read the most recently used of its set;
// with wrEn, the valid line of set(wrPC) with tag(wrPC) takes wrValue, or
// else the victim (the lowest-numbered invalid way, or the least recently
// used way judged after the read) is filled; either way the written line
// becomes the most recently used. A read in the cycle of a write sees the
// contents before the write (Read before Step).
func (c *HistoryCache) Step(rdEn bool, rdPC int, wrEn bool, wrPC, wrValue int, clearAll bool) {
	set, _, way := c.lookup(rdPC)
	if clearAll {
		for s := range c.lines {
			clear(c.lines[s])
			c.lru[s] = c.lru[s][:0]
		}
		return
	}
	if rdEn && way >= 0 {
		c.touch(set, way)
	}
	if !wrEn {
		return
	}
	set, tag, way := c.lookup(wrPC)
	if way < 0 {
		way = slices.IndexFunc(c.lines[set], func(l historyLine) bool { return !l.valid })
		if way < 0 {
			way = c.lru[set][0]
		}
	}
	c.lines[set][way] = historyLine{valid: true, tag: tag, value: wrValue & c.valueMask}
	c.touch(set, way)
}

// touch makes way the most recently used line of set.
func (c *HistoryCache) touch(set, way int) {
	c.lru[set] = append(slices.DeleteFunc(c.lru[set], func(w int) bool { return w == way }), way)
}

// WarpMask is the bank-conflict aware warp ready generation of Fig. 5.7
// (contract elastic-warpmask): a HistoryCache predicting a shared-memory
// warp's summed extras (Eq. 5.6 minus K, footnote 10) from its PC, the
// accumulator of the extras of a warp's subwarps as they resolve at MEM0,
// and the last_warp_bkconf_degree counter, loaded with
// warp_safe_mem_dist - 1 (Eq. 5.7: sat(pred + K - 1)) when a
// shared-memory warp is scheduled and counting down; while it is not zero
// every memory warp is masked out of the ready pool (section 5.5.3).
type WarpMask struct {
	cache                     *HistoryCache
	warps, warp, k, extraMask int
	acc, count                int
}

// MaskIn is one cycle's inputs of WarpMask, named after the contract's
// ports.
type MaskIn struct {
	Ready, IsMem           []bool // ready_<j>, is_mem_<j>, one per warp context
	SchedValid, SchedShmem bool   // sched_valid, sched_shmem
	SchedPC                int    // sched_pc
	ResValid               bool   // res_valid: a subwarp's access resolved at MEM0
	ResPC, ResExtra        int    // res_pc, res_extra (elastic-bkconf's extra)
	ResLast                bool   // res_last: the last subwarp of its warp
	Launch                 bool   // launch (kernel launch; rst acts the same)
}

// MaskOut is one cycle's outputs of WarpMask (combinational), named after
// the contract's ports.
type MaskOut struct {
	SchedReady []bool // sched_ready_<j> = ready_j & ~(is_mem_j & block)
	PredHit    bool   // pred_hit: the history cache's rd_hit
	Pred       int    // pred: its rd_value
	Count      int    // count: warp_safe_mem_dist - 1 still to wait
	Acc        int    // acc: the summed extras of the warp resolving
	Block      bool   // block = count != 0
}

// NewWarpMask is the warp ready generation for warps warp contexts of warp
// threads on lanes SIMD lanes (K = warp/lanes subwarps), with a sets ×
// ways history cache indexed by a pcw-bit PC.
func NewWarpMask(warps, warp, lanes, sets, ways, pcw int) *WarpMask {
	return &WarpMask{
		cache: NewHistoryCache(sets, ways, pcw, warp),
		warps: warps, warp: warp, k: Subwarps(warp, lanes),
		extraMask: 1<<ExtraWidth(lanes) - 1,
	}
}

// scheduled is the cache's rd_en: a shared-memory warp is scheduled.
func (in MaskIn) scheduled() bool { return in.SchedValid && in.SchedShmem }

// Eval is the outputs for in from the current state.
func (w *WarpMask) Eval(in MaskIn) MaskOut {
	out := MaskOut{Count: w.count, Acc: w.acc, Block: w.count != 0, SchedReady: make([]bool, w.warps)}
	if in.scheduled() {
		out.PredHit, out.Pred = w.cache.Read(in.SchedPC)
	}
	for j := range out.SchedReady {
		out.SchedReady[j] = in.Ready[j] && !(in.IsMem[j] && out.Block)
	}
	return out
}

// Step applies one rising edge. Launch clears the cache, acc and count.
// Otherwise the cache is read at SchedPC when a shared-memory warp is
// scheduled and written at a warp's last resolution (ResValid and
// ResLast) with sat(acc + ResExtra); acc takes sat(acc + ResExtra) at a
// resolution, 0 at the last one; count takes sat(pred + K - 1) when a
// shared-memory warp is scheduled, else counts down to 0.
func (w *WarpMask) Step(in MaskIn) {
	_, pred := w.cache.Read(in.SchedPC)
	sum := Sat(w.acc+(in.ResExtra&w.extraMask), w.warp)
	w.cache.Step(in.scheduled(), in.SchedPC, in.ResValid && in.ResLast, in.ResPC, sum, in.Launch)
	switch {
	case in.Launch:
		w.acc, w.count = 0, 0
		return
	case in.ResValid && in.ResLast:
		w.acc = 0
	case in.ResValid:
		w.acc = sum
	}
	switch {
	case in.scheduled():
		w.count = Sat(pred+w.k-1, w.warp)
	case w.count > 0:
		w.count--
	}
}
