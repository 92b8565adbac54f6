package dram

import (
	"fmt"
	"math/rand/v2"

	"github.com/parmem/parmem/units"
)

// lockstepShapes are the dram units' lockstep stimulus shapes
// (units.Shape), each set from what its inputs mean: a fill phase brings
// work and takes none, a drain takes work and brings none, so that the
// queues and tables of Table 5.1's sizes fill, drain from full and
// saturate, which random valids and readies, each 1 about five cycles in
// eight, never do. The picker, a function of its inputs, has none.
func lockstepShapes() map[string]units.Shape {
	return map[string]units.Shape{
		"dram-sched":  schedShape,
		"dram-mib":    mibShape,
		"dram-l2mib":  l2mibShape,
		"dram-rowtab": rowtabShape,
		"dram-cmdq":   cmdqShape,
	}
}

// schedShape: a fill sends reads and writes every cycle while no bank's
// command queue can take one (rdy_i 0), so the read and write queues
// fill and the write drain starts (section 5.3's watermarks); a drain
// sends none and every bank takes one, so the queues empty and the drain
// ends. Dummies, which update reads already queued, stay random.
func schedShape(v units.Values, ph units.Phase, _ int, _ *rand.Rand, set func(string, uint64)) {
	fill := ph == units.PhaseFill
	set("rd_valid", b2u(fill))
	set("wr_valid", b2u(fill))
	for i := range 1 << v["bankbits"] {
		set(fmt.Sprintf("rdy_%d", i), b2u(!fill))
	}
}

// mibShape: a fill brings a read into a slot every cycle, slot after slot,
// and frees none, so every slot fills; a drain frees the slots in turn
// and brings none. The dummies' updates stay random.
func mibShape(v units.Values, ph units.Phase, step int, _ *rand.Rand, set func(string, uint64)) {
	fill := ph == units.PhaseFill
	slot := uint64(step % v["entries"])
	set("alloc_valid", b2u(fill))
	set("alloc_idx", slot)
	set("free_valid", b2u(!fill))
	set("free_idx", slot)
}

// l2mibHot is the L2 MSHR entries a fill merges into: few, so that each
// takes more merges in a phase than its count holds and saturates.
const l2mibHot = 4

// l2mibShape: a fill allocates the first l2mibHot entries, then merges a
// request into one of them every cycle, freeing none; a drain frees the
// entries in turn, allocating and merging none.
func l2mibShape(v units.Values, ph units.Phase, step int, r *rand.Rand, set func(string, uint64)) {
	hot := min(l2mibHot, v["entries"])
	fill := ph == units.PhaseFill
	set("alloc_valid", b2u(fill && step < hot))
	set("alloc_idx", uint64(step%hot))
	set("mrg_valid", b2u(fill && step >= hot))
	set("mrg_idx", uint64(r.IntN(hot)))
	set("free_valid", b2u(!fill))
	set("free_idx", uint64(step%v["entries"]))
}

// rowtabShape: a fill enqueues a read every cycle and dequeues none, so
// the table of rows fills and a read finds it full; a drain dequeues
// every cycle and enqueues none. The dummies' changes stay random.
func rowtabShape(_ units.Values, ph units.Phase, _ int, _ *rand.Rand, set func(string, uint64)) {
	fill := ph == units.PhaseFill
	set("enq_valid", b2u(fill))
	set("deq_valid", b2u(!fill))
}

// cmdqShape: a fill sends a request every cycle to one of two banks, the
// first and the last (in different bank groups when there are groups),
// faster than a bank serves them (a row miss takes tRP + tRCD + tCL), so
// their queues fill and their heads wrap; a drain sends none, so every
// queue drains.
func cmdqShape(v units.Values, ph units.Phase, _ int, r *rand.Rand, set func(string, uint64)) {
	fill := ph == units.PhaseFill
	set("req_valid", b2u(fill))
	set("req_bank", uint64(r.IntN(2)*(1<<v["bankbits"]-1)))
}
