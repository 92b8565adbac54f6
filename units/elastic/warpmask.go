package elastic

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// WarpMaskBlock is the elastic-warpmask unit: the bank-conflict aware warp
// ready signal generation of thesis Fig. 5.7 (5.5.1-5.5.3, Table 5.3).
//
//	clk, rst; in launch
//	in ready_<j>, is_mem_<j>; out sched_ready_<j>   for j < Warps
//	in sched_valid, sched_shmem, sched_pc[Pcw-1:0]
//	in res_valid, res_pc[Pcw-1:0], res_extra[EW-1:0], res_last
//	out pred_hit, pred[VW-1:0], count[VW-1:0], acc[VW-1:0], block
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

// Build makes the module called name; its cache is the sub-module
// <name>_bchc.
func (w WarpMaskBlock) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	vw := w.cache().valueWidth()
	launch := m.Input("launch", 1)
	block := m.Output("block", 1)
	for j := range w.Warps {
		ready, isMem := m.Input(fmt.Sprintf("ready_%d", j), 1), m.Input(fmt.Sprintf("is_mem_%d", j), 1)
		m.Output(fmt.Sprintf("sched_ready_%d", j), 1).Drive(ready.And(isMem.And(block).Not()))
	}
	schedValid, schedShmem := m.Input("sched_valid", 1), m.Input("sched_shmem", 1)
	schedPC := m.Input("sched_pc", w.Pcw)
	resValid, resPC := m.Input("res_valid", 1), m.Input("res_pc", w.Pcw)
	resExtra, resLast := m.Input("res_extra", ExtraWidth(w.Lanes)), m.Input("res_last", 1)

	acc, count := m.Reg("acc_q", vw), m.Reg("count_q", vw)
	// sat is min(x, 2^VW - 1) of a VW+1-bit sum.
	sat := func(x *hdl.Signal) *hdl.Signal {
		return hdl.Mux(x.Bit(vw), m.ConstU(1, 1).Repl(vw), x.Trunc(vw))
	}
	sum := sat(acc.Zext(vw + 1).Add(resExtra.Zext(vw + 1)))
	scheduled := schedValid.And(schedShmem)

	sub, ports := w.cache().build(name + "_bchc")
	c := hdl.Use(m, "bchc", sub, ports)
	c.Clear.Drive(launch)
	c.RdEn.Drive(scheduled)
	c.RdPC.Drive(schedPC)
	c.WrEn.Drive(resValid.And(resLast))
	c.WrPC.Drive(resPC)
	c.WrValue.Drive(sum)

	// acc <- res_valid ? (res_last ? 0 : sat(acc + res_extra)) : acc
	m.If(resValid, func() { acc.Set(hdl.Mux(resLast, m.ConstU(vw, 0), sum)) })
	// count <- sched_valid & sched_shmem ? sat(pred + K - 1) : max(count - 1, 0)
	k := w.Warp / w.Lanes
	m.If(scheduled, func() {
		count.Set(sat(c.RdVal.Zext(vw + 1).Add(m.ConstU(vw+1, uint64(k-1)))))
	}).Elif(block, func() { count.Set(count.Sub(m.ConstU(vw, 1))) })
	m.If(launch, func() {
		acc.SetU(0)
		count.SetU(0)
	})

	block.Drive(count.RedOr())
	m.Output("pred_hit", 1).Drive(c.RdHit)
	m.Output("pred", vw).Drive(c.RdVal)
	m.Output("count", vw).Drive(count)
	m.Output("acc", vw).Drive(acc)
	return m
}
