package rsdmm

import (
	"fmt"
	"math/rand/v2"

	"github.com/parmem/parmem/internal/kernel"
	"github.com/parmem/parmem/units"
)

// lockstepShapes are the rsdmm units' lockstep stimulus shapes
// (units.Shape): the memory's, so that a super warp meets section IV's
// worst case, all N requests in one bank at distinct rows (congestion
// c = N), which random addresses never make.
func lockstepShapes() map[string]units.Shape {
	return map[string]units.Shape{"rsdmm": memoryShape}
}

// memoryShape: a fill settles the memory, writes 0 to the shifts of the
// rows it uses, then congests bank 0; a drain sends neither warps nor
// configuration writes, so the memory answers what it holds.
//
// Settling: a configuration write is taken only while nothing is
// collected, issued or in flight, and a partly collected super warp
// waits for its s warps. Once the issue station is free, a collected
// super warp leaves in drain cycles: an issue window of at most N
// (max(s, c) with c <= N), the L-stage pipeline, the s responses and a
// few stations between; one that waits behind another, in two. The fill
// writes the shifts of rows 0..R-1 (the RSU's table
// entries, or the H3 keys of their row bits) every cycle but s-1, one
// per window: a first window of two drains and R writes, then s-1 of one
// drain and R writes, each opened by a warp with every lane disabled. A
// partly collected super warp of k warps is completed by the (s-k)-th,
// and a full one or none leaves in the first window: whatever the fill
// starts from, some window is idle for R writes, after which every row
// below R keeps bank k at k (section V).
//
// Congesting: a warp every cycle, every lane enabled, lane i of the warp
// sent at step t at row (t*w + i) mod R of bank 0, with R = N, so that
// the s warps of a super warp, sent in a row, ask N distinct rows of one
// bank: section IV's worst case, c = N.
func memoryShape(v units.Values, ph units.Phase, step int, _ *rand.Rand, set func(string, uint64)) {
	p := MemoryBlock{LW: v["lw"], S: v["s"], AB: v["ab"], L: v["l"], Shift: ShiftKind(v["shift"])}
	w, n := 1<<p.LW, p.N()
	rows := min(n, 1<<(p.AB-p.LW))
	drain := n + p.L + p.S + 4
	first, gap := 2*drain+rows, drain+rows
	settle := first + (p.S-1)*gap
	fill := ph == units.PhaseFill
	warp := fill && step >= first && step < settle && (step-first)%gap == 0
	configure := fill && step < settle && !warp
	congest := fill && step >= settle
	set("cfg_valid", kernel.FromBool(configure))
	set("cfg_idx", uint64(step%min(rows, 1<<p.rsu().idxWidth())))
	set("cfg_val", 0)
	set("req_valid", kernel.FromBool(warp || congest))
	for i := range w {
		set(fmt.Sprintf("req_mask_%d", i), kernel.FromBool(congest))
		set(fmt.Sprintf("req_addr_%d", i), uint64((step*w+i)%rows)<<p.LW)
	}
}
