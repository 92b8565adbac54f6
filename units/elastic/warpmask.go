package elastic

import (
	"github.com/parmem/parmem/hdl"
)

// WarpMaskBlock is the elastic-warpmask unit: the bank-conflict aware warp
// ready signal generation of thesis Fig. 5.7 (5.5.1-5.5.3, Table 5.3);
// WarpMaskPorts are its ports.
//
// It holds one elastic-bchc. The accumulator sums a warp's subwarp extras
// as they resolve at MEM0 (Eq. 5.6 minus K, footnote 10) and writes the sum
// into the cache at the warp's last subwarp; scheduling a shared-memory
// warp loads the counter with the predicted warp_safe_mem_dist - 1 (Eq.
// 5.7: pred + K - 1), which then counts down; while it is not zero every
// memory warp is masked out of the ready pool (5.5.3), one AND gate per
// warp.
type WarpMaskBlock struct {
	Warps, Warp, Lanes int
	Sets, Ways, Pcw    int
}

// cache is the history cache it holds.
func (w WarpMaskBlock) cache() HistoryCacheBlock {
	return HistoryCacheBlock{Sets: w.Sets, Ways: w.Ways, Pcw: w.Pcw, Warp: w.Warp}
}

// WarpMaskPorts are elastic-warpmask's ports (Fig. 5.7).
type WarpMaskPorts struct {
	Launch *hdl.Signal `doc:"kernel launch: the cache and the counters clear"`
	// Warps are the warp contexts: the ready pool with memory warps
	// masked (5.5.3).
	Warps []WarpReady
	// The scheduled warp, a shared-memory instruction at SchedPC.
	SchedValid *hdl.Signal `doc:"scheduling: a warp is scheduled"`
	SchedShmem *hdl.Signal `doc:"scheduling: its instruction accesses shared memory"`
	SchedPC    *hdl.Signal `doc:"[pcw-1:0] scheduling: its PC"`
	// A subwarp's shared-memory access resolved at MEM0 with its extra
	// cycles.
	ResValid *hdl.Signal `doc:"resolution: a subwarp's access resolved at MEM0"`
	ResPC    *hdl.Signal `doc:"[pcw-1:0] resolution: its PC"`
	ResExtra *hdl.Signal `doc:"[EW-1:0] resolution: elastic-bkconf's extra"`
	ResLast  *hdl.Signal `doc:"resolution: last subwarp of its warp"`
	// The history cache's lookup at scheduling and the counters (Eqs.
	// 5.6, 5.7).
	PredHit *hdl.Signal `doc:"history cache hit (rd_hit)"`
	Pred    *hdl.Signal `doc:"[VW-1:0] predicted conflict degree (rd_value)"`
	Count   *hdl.Signal `doc:"[VW-1:0] warp_safe_mem_dist - 1 countdown (Eq. 5.7)"`
	Acc     *hdl.Signal `doc:"[VW-1:0] the warp's extras so far (Eq. 5.6)"`
	Block   *hdl.Signal `doc:"count != 0: memory warps are masked"`
}

// WarpReady is one warp context's ready signal in and out.
type WarpReady struct {
	Ready      *hdl.Signal `doc:"warp i is ready"`
	IsMem      *hdl.Signal `doc:"warp i's instruction is a memory one"`
	SchedReady *hdl.Signal `doc:"warp i may be scheduled (5.5.3)"`
}

// Build makes the module called name; its cache is the sub-module
// <name>_bchc.
func (w WarpMaskBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(w.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (w WarpMaskBlock) WithPorts(name string) (*hdl.Module, WarpMaskPorts) {
	m := hdl.NewModule(name)
	vw := w.cache().valueWidth()
	ps := WarpMaskPorts{Launch: m.Input("launch", 1), Block: m.Output("block", 1)}
	for j := range w.Warps {
		in, out := m.InputFields("", j), m.OutputFields("", j)
		warp := WarpReady{Ready: in("ready", 1), IsMem: in("is_mem", 1)}
		warp.SchedReady = out("sched_ready", 1)
		warp.SchedReady.Drive(warp.Ready.And(warp.IsMem.And(ps.Block).Not()))
		ps.Warps = append(ps.Warps, warp)
	}
	in := m.InputFields("")
	ps.SchedValid, ps.SchedShmem, ps.SchedPC = in("sched_valid", 1), in("sched_shmem", 1), in("sched_pc", w.Pcw)
	ps.ResValid, ps.ResPC = in("res_valid", 1), in("res_pc", w.Pcw)
	ps.ResExtra, ps.ResLast = in("res_extra", ExtraWidth(w.Lanes)), in("res_last", 1)
	launch, block := ps.Launch, ps.Block
	resValid, resLast := ps.ResValid, ps.ResLast

	acc, count := m.Reg("acc_q", vw), m.Reg("count_q", vw)
	// sat is min(x, 2^VW - 1) of a VW+1-bit sum.
	sat := func(x *hdl.Signal) *hdl.Signal {
		return hdl.Mux(x.Bit(vw), m.ConstU(1, 1).Repl(vw), x.Trunc(vw))
	}
	sum := sat(acc.Zext(vw + 1).Add(ps.ResExtra.Zext(vw + 1)))
	scheduled := ps.SchedValid.And(ps.SchedShmem)

	sub, ports := w.cache().WithPorts(name + "_bchc")
	c := hdl.Use(m, "bchc", sub, ports)
	c.Clear.Drive(launch)
	c.RdEn.Drive(scheduled)
	c.RdPC.Drive(ps.SchedPC)
	c.WrEn.Drive(resValid.And(resLast))
	c.WrPC.Drive(ps.ResPC)
	c.WrValue.Drive(sum)

	// acc <- res_valid ? (res_last ? 0 : sat(acc + res_extra)) : acc
	m.If(resValid, func() { acc.Set(hdl.Mux(resLast, m.ConstU(vw, 0), sum)) })
	// count <- sched_valid & sched_shmem ? sat(pred + K - 1) : max(count - 1, 0)
	k := w.Warp / w.Lanes
	load := sat(c.RdVal.Zext(vw + 1).Add(m.ConstU(vw+1, uint64(k-1))))
	m.If(scheduled, func() { count.Set(load) }).
		Elif(block, func() { count.Set(count.Sub(m.ConstU(vw, 1))) })
	m.If(launch, func() {
		acc.SetU(0)
		count.SetU(0)
	})

	block.Drive(count.RedOr())
	out := m.OutputFields("")
	ps.PredHit, ps.Pred, ps.Count, ps.Acc = out("pred_hit", 1), out("pred", vw), out("count", vw), out("acc", vw)
	ps.PredHit.Drive(c.RdHit)
	ps.Pred.Drive(c.RdVal)
	ps.Count.Drive(count)
	ps.Acc.Drive(acc)
	w.properties(m, ps, scheduled, load, sum)
	return m, ps
}

// properties states what the mask promises (thesis 5.5.3, Eq. 5.7;
// DESIGN.md, elastic-warpmask): the countdown never exceeds the
// warp_safe_mem_dist - 1 it was last loaded with (a ghost copy of that
// load; so it stops at zero and never wraps), and only memory warps are
// masked, only while it blocks. The cover points are a prediction's hit
// and miss, a masked memory warp, a warp's degree recorded, a launch while
// blocked, and where one extra spans the accumulator the counter at its
// maximum and the accumulator saturating.
func (w WarpMaskBlock) properties(m *hdl.Module, ps WarpMaskPorts, scheduled, load, sum *hdl.Signal) {
	vw := load.Width()
	loaded := m.Reg("ghost_loaded", vw)
	m.If(scheduled, func() { loaded.Set(load) })
	m.If(ps.Launch, func() { loaded.SetU(0) })
	m.Assert(ps.Count.Le(loaded), "count_le_loaded", "the countdown exceeds the warp_safe_mem_dist - 1 it was loaded with (Eq. 5.7)")
	var masked, maskedOk []*hdl.Signal
	for _, warp := range ps.Warps {
		off := warp.Ready.And(warp.SchedReady.Not())
		masked = append(masked, off)
		maskedOk = append(maskedOk, warp.SchedReady.Not().Or(warp.Ready), off.Not().Or(warp.IsMem.And(ps.Block)))
	}
	m.Assert(hdl.Concat(maskedOk...).RedAnd(), "mask_only_memory_warps", "a warp not ready is scheduled, or a warp masked that is not a memory one while blocked")
	m.Cover(hdl.Concat(masked...).RedOr(), "memory_warp_masked")
	m.Cover(scheduled.And(ps.PredHit), "predict_hit")
	m.Cover(scheduled.And(ps.PredHit.Not()), "predict_miss")
	m.Cover(ps.ResValid.And(ps.ResLast), "warp_recorded")
	// Saturation is stated where one subwarp's extra spans the
	// accumulator, which the lockstep's random extras then reach (a family
	// pack fails on a cover point its stimulus never reaches, unless Yosys
	// shows it unreachable).
	if ExtraWidth(w.Lanes) >= vw {
		m.Cover(ps.Count.Eq(m.ConstU(1, 1).Repl(vw)), "count_at_max")
		m.Cover(ps.ResValid.And(ps.ResLast.Not()).And(sum.Eq(m.ConstU(1, 1).Repl(vw))), "acc_saturates")
	}
	m.Cover(ps.Launch.And(ps.Block), "launch_while_blocked")
}
