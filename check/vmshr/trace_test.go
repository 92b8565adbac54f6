package vmshr

import (
	"fmt"
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
	d, err := units.Config{Unit: "vmshr-elastic", Values: units.Values{}}.Build("dut")
	require.NoError(t, err)
	b := verify.NewBenchDesign(t, d)
	b.DontRecord()
	in := func(name string) verify.In { return b.In(name) }
	out := func(name string) verify.Out { return b.Out(name) }
	reqValid, reqBlk, reqHBS, icnt := in("req_valid"), in("req_blk"), in("req_hbs"), in("icnt_ready")
	reqTid, reqReg, reqOff, reqFmt := in("req_tid"), in("req_reg"), in("req_off"), in("req_fmt")
	fillValid, fillBlk, fillHBS, wbReady := in("fill_valid"), in("fill_blk"), in("fill_hbs"), in("wb_ready")
	var fillData []verify.In
	for k := range 1 << vm.HyperMax {
		fillData = append(fillData, in(fmt.Sprintf("fill_data_%d", k)))
	}
	kind, fail, fire, fireBlk, fireHBS := out("req_kind"), out("mshr_alloc_fail"), out("fire_read_packet"), out("fire_blk"), out("fire_hbs")
	entry, slot, drop := out("alloc_entry"), out("alloc_slot"), out("fill_drop")
	wbValid, wbEntry, wbSlot, wbBlk, wbData := out("wb_valid"), out("wb_entry"), out("wb_slot"), out("wb_blk"), out("wb_data")
	wbTid, wbReg, wbOff, wbFmt := out("wb_tid"), out("wb_reg"), out("wb_off"), out("wb_fmt")

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
