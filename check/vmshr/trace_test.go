package vmshr

import (
	"testing"

	"github.com/parmem/parmem/units"
	vm "github.com/parmem/parmem/units/vmshr"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestModelTracesOnBlock replays core 0's MSHR port trace of every model
// kernel (adaptive granularity, two virtual channels: what the core's
// pipeline, interconnect and writeback offered each cycle) on vmshr-elastic
// at Table 6.2's size (m 64, s 2, hmax 3), and requires every output the
// model's MSHR file produced in that cycle: the evaluation's MSHR is the
// hardware's.
func TestModelTracesOnBlock(t *testing.T) {
	for _, k := range vm.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			r, err := vm.Run(k, vm.Config{Adaptive: true, VCs: 2, Record: true})
			require.NoError(t, err)
			replayTrace(t, r.Trace)
		})
	}
}

// replayTrace drives vmshr-elastic at its defaults with the trace and
// compares its outputs cycle by cycle (alloc_entry and alloc_slot when a
// request is offered, the writeback's fields when wb_valid).
func replayTrace(t *testing.T, trace []vm.PortCycle) {
	blk := mshrOf(t, units.Config{Unit: "vmshr-elastic", Values: units.Values{}})
	m, p := blk.WithPorts("dut")
	b := verify.NewBench(t, m)
	b.DontRecord()
	in, out := inOf(b), outOf(b)
	reqValid, reqBlk, reqHBS, icnt := in(p.Req.Valid), in(p.Req.Blk), in(p.Req.HBS[0]), in(p.IcntReady)
	reqTid, reqReg, reqOff, reqFmt := in(p.Req.T.Tid), in(p.Req.T.Reg), in(p.Req.T.Off), in(p.Req.T.Fmt)
	fillValid, fillBlk, fillHBS, wbReady := in(p.Fill.Valid), in(p.Fill.Blk), in(p.Fill.HBS[0]), in(p.WB.Ready)
	fillData := b.Ins(p.Fill.Data)
	kind, fail, fire, fireBlk, fireHBS := out(p.Resp.Kind), out(p.Resp.Fail), out(p.Resp.Fire), out(p.Resp.FireBlk), out(p.Resp.FireHBS[0])
	entry, slot, drop := out(p.Resp.AllocEntry), out(p.Resp.AllocSlot), out(p.FillDrop)
	wb := p.WB.Payload
	wbValid, wbEntry, wbSlot, wbBlk, wbData := out(p.WB.Valid), out(wb.Entry), out(wb.Slot), out(wb.Blk), out(wb.Data)
	wbTid, wbReg, wbOff, wbFmt := out(wb.T.Tid), out(wb.T.Reg), out(wb.T.Off), out(wb.T.Fmt)

	b.Before(func(cycle uint64) {
		pc := trace[cycle]
		b.Set(reqValid, verify.Bit(pc.Req.Valid))
		b.Set(reqBlk, pc.Req.Blk)
		b.Set(reqHBS, uint64(pc.Req.HBS))
		b.Set(reqTid, pc.Req.Target.Tid)
		b.Set(reqReg, pc.Req.Target.Reg)
		b.Set(reqOff, pc.Req.Target.Off)
		b.Set(reqFmt, pc.Req.Target.Fmt)
		b.Set(icnt, verify.Bit(pc.Req.ICNTReady))
		b.Set(fillValid, verify.Bit(pc.Fill.Valid))
		b.Set(fillBlk, pc.Fill.Blk)
		b.Set(fillHBS, uint64(pc.Fill.HBS))
		for k, h := range fillData {
			v := uint64(0)
			if k < len(pc.Fill.Data) {
				v = pc.Fill.Data[k]
			}
			b.Set(h, v)
		}
		b.Set(wbReady, verify.Bit(pc.WBReady))
	})
	b.After(func(cycle uint64) {
		o := trace[cycle].Out
		got := vm.Outputs[uint64]{Kind: vm.Kind(b.Get(kind)), Fail: b.Get(fail) == 1, Fire: b.Get(fire) == 1,
			FireBlk: b.Get(fireBlk), FireHBS: int(b.Get(fireHBS)), FillDrop: int(b.Get(drop))}
		if trace[cycle].Req.Valid {
			got.AllocEntry, got.AllocSlot = int(b.Get(entry)), int(b.Get(slot))
		} else {
			o.AllocEntry, o.AllocSlot = 0, 0
		}
		if b.Get(wbValid) == 1 {
			got.WB = vm.Writeback[uint64]{Valid: true, Entry: int(b.Get(wbEntry)), Slot: int(b.Get(wbSlot)), Blk: b.Get(wbBlk),
				Target: vm.Target{Tid: b.Get(wbTid), Reg: b.Get(wbReg), Off: b.Get(wbOff), Fmt: b.Get(wbFmt)}, Data: b.Get(wbData)}
		}
		if !o.WB.Valid {
			o.WB = vm.Writeback[uint64]{}
		}
		if got != o {
			t.Fatalf("cycle %d: offered %+v %+v: block %+v, model %+v", cycle, trace[cycle].Req, trace[cycle].Fill, got, o)
		}
	})
	b.Run(len(trace))
	require.Positive(t, len(trace))
}
