package elastic

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	el "github.com/parmem/parmem/units/elastic"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestBlocksMatchModels steps each block on verify's bench in lockstep
// with the plain-Go model of its contract (backend.go, histcache.go) under
// random inputs, and compares every output port of the block with the
// model's value for the cycle (data payloads excepted: the scoreboard
// checks those). Outputs are sampled before the edge, so the model's
// outputs for a cycle come from its state before its Step.
func TestBlocksMatchModels(t *testing.T) {
	const cycles = 20_000
	for _, c := range []units.Config{
		{Unit: "elastic-pipe", Values: units.Values{}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 8, "mstages": 1, "premem": 0, "nonmem": 1}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 3, "w": 4, "mstages": 2, "premem": 3, "nonmem": 2}},
		{Unit: "elastic-basepipe", Values: units.Values{}},
		{Unit: "elastic-basepipe", Values: units.Values{"mstages": 1}},
	} {
		t.Run(c.String(), func(t *testing.T) { matchPipe(t, c, cycles) })
	}
	for _, c := range []units.Config{
		{Unit: "elastic-bchc", Values: units.Values{}},
		{Unit: "elastic-bchc", Values: units.Values{"sets": 1, "ways": 2}},
		{Unit: "elastic-bchc", Values: units.Values{"sets": 4, "ways": 4}},
	} {
		t.Run(c.String(), func(t *testing.T) { matchHistoryCache(t, c, cycles) })
	}
	for _, c := range []units.Config{
		{Unit: "elastic-warpmask", Values: units.Values{}},
		{Unit: "elastic-warpmask", Values: units.Values{"warps": 4, "warp": 8, "lanes": 2, "sets": 2, "ways": 2, "pcw": 3}},
	} {
		t.Run(c.String(), func(t *testing.T) { matchWarpMask(t, c, cycles) })
	}
}

// pipeParams declares c's back end as units/elastic registers it:
// elastic-basepipe's is the Pipe with Base set (no PREMEM and NONMEM
// queues).
func pipeParams(c units.Config) func(*el.Pipe, *units.Decl) {
	if c.Unit == "elastic-basepipe" {
		return func(p *el.Pipe, d *units.Decl) { p.Base = true; p.Params(d) }
	}
	return (*el.Pipe).Params
}

// pipeOnBench is a back end (elastic-pipe or elastic-basepipe) at c's
// values on a bench, with its port record.
func pipeOnBench(t *testing.T, c units.Config) (*verify.Bench, el.PipePorts, el.Pipe) {
	pipe, err := units.FillConfig(c, pipeParams(c))
	require.NoError(t, err)
	m, ports := pipe.WithPorts("dut")
	return verify.NewBench(t, m), ports, pipe
}

// in and out are the bench's handles of one port of the block's record.
func in(b *verify.Bench, port *hdl.Signal) verify.In   { return b.Ins(port)[0] }
func out(b *verify.Bench, port *hdl.Signal) verify.Out { return b.Outs(port)[0] }

// seed is a per-configuration random source.
func seed(c units.Config) *rand.Rand {
	s := c.String()
	h := uint64(0)
	for i := range len(s) {
		h = h*131 + uint64(s[i])
	}
	return rand.New(rand.NewPCG(11, h))
}

// pcPool is PCs of pcw bits from a few sets of a sets-set cache, several
// tags each (more than ways), so that hits, misses and replacements all
// happen.
func pcPool(r *rand.Rand, sets, ways, pcw int) []int {
	tags := 1 << pcw / sets
	var pool []int
	for range min(sets, 3) {
		set := r.IntN(sets)
		for range min(tags, ways+2) {
			pool = append(pool, set+sets*r.IntN(tags))
		}
	}
	return pool
}

func matchPipe(t *testing.T, c units.Config, cycles int) {
	b, ports, pipe := pipeOnBench(t, c)
	r := seed(c)
	base := pipe.Base
	var model el.Backend
	if base {
		model = el.NewBasePipe(pipe.MStages)
	} else {
		model = el.NewElasticPipe(pipe.MStages, pipe.Premem, pipe.Nonmem)
	}
	rst, exValid, exMem := b.In("rst"), in(b, ports.Ex.Valid), in(b, ports.Ex.Payload.Mem)
	exHold, exTag, icValid, icTag := in(b, ports.Ex.Payload.Hold), in(b, ports.Ex.Payload.Tag), in(b, ports.ICValid), in(b, ports.IC.Tag)
	exReady, wbValid, wbSrc, wbTag := out(b, ports.Ex.Ready), out(b, ports.WBValid), out(b, ports.WBSrc), out(b, ports.WB.Tag)
	var prememCount, nonmemCount verify.Out
	if !base {
		prememCount, nonmemCount = out(b, ports.PrememCount), out(b, ports.NonmemCount)
	}
	holds := 1 << el.ExtraWidth(pipe.Lanes)
	tags := 1 << pipe.Tw

	var ex *el.Instr
	var ic *int
	var refused, ics, mems, nonmems, maxPremem, maxNonmem int
	b.Before(func(uint64) {
		b.Set(rst, 0)
		// A refused instruction is mostly presented again, as EXE does.
		if ex == nil || r.IntN(4) == 0 {
			ex = nil
			if r.IntN(10) < 8 {
				ex = &el.Instr{Mem: r.IntN(2) == 0, Tag: r.IntN(tags)}
				if r.IntN(3) == 0 { // the base pipe holds any instruction, the elastic one memory ones
					ex.Hold = r.IntN(holds)
				}
			}
		}
		ic = nil
		if r.IntN(10) == 0 {
			tag := r.IntN(tags)
			ic = &tag
		}
		b.Set(exValid, verify.Bit(ex != nil))
		if ex != nil {
			b.Set(exMem, verify.Bit(ex.Mem))
			b.Set(exHold, uint64(ex.Hold))
			b.Set(exTag, uint64(ex.Tag))
		} else { // junk the block must ignore
			b.Set(exMem, r.Uint64N(2))
			b.Set(exHold, r.Uint64N(uint64(holds)))
			b.Set(exTag, r.Uint64N(uint64(tags)))
		}
		b.Set(icValid, verify.Bit(ic != nil))
		if ic != nil {
			b.Set(icTag, uint64(*ic))
		} else {
			b.Set(icTag, r.Uint64N(uint64(tags)))
		}
	})
	b.After(func(cycle uint64) {
		pc, nc := model.Counts()
		ready, wb := model.Step(ex, ic)
		in := fmt.Sprintf("cycle %d: ex %+v ic %v", cycle, ex, ic)
		if ic != nil {
			in = fmt.Sprintf("cycle %d: ex %+v ic %d", cycle, ex, *ic)
		}
		maxPremem, maxNonmem = max(maxPremem, pc), max(maxNonmem, nc)
		if !base {
			require.Equal(t, [2]uint64{uint64(pc), uint64(nc)}, [2]uint64{b.Get(prememCount), b.Get(nonmemCount)}, "%s: premem_count, nonmem_count", in)
		}
		// ex_ready is only meaningful with ex_valid (the base pipe's
		// ex_ready is S_0 being free, whatever ex_valid says).
		if ex != nil {
			require.Equal(t, verify.Bit(ready), b.Get(exReady), "%s: ex_ready", in)
		}
		require.Equal(t, verify.Bit(wb.Valid), b.Get(wbValid), "%s: wb_valid", in)
		if wb.Valid {
			require.Equal(t, [2]uint64{uint64(wb.Src), uint64(wb.Tag)}, [2]uint64{b.Get(wbSrc), b.Get(wbTag)}, "%s: wb_src, wb_tag", in)
			switch wb.Src {
			case el.SrcIC:
				ics++
			case el.SrcMem:
				mems++
			default:
				nonmems++
			}
		}
		if ex != nil {
			if ready {
				ex = nil
			} else {
				refused++
			}
		}
	})
	b.Run(cycles)
	require.NotZero(t, refused, "EXE was never refused")
	require.NotZero(t, ics)
	require.NotZero(t, mems)
	if !base {
		require.NotZero(t, nonmems)
		require.Equal(t, [2]int{pipe.Premem, pipe.Nonmem}, [2]int{maxPremem, maxNonmem}, "PREMEM and NONMEM never both filled")
	}
	t.Logf("%s: %d cycles, %d refusals; writebacks: %d ic, %d mem, %d nonmem/exe", c, cycles, refused, ics, mems, nonmems)
}

func matchHistoryCache(t *testing.T, c units.Config, cycles int) {
	hc, err := units.FillConfig(c, (*el.HistoryCacheBlock).Params)
	require.NoError(t, err)
	m, ports := hc.WithPorts("dut")
	b := verify.NewBench(t, m)
	r := seed(c)
	model := el.NewHistoryCache(hc.Sets, hc.Ways, hc.Pcw, hc.Warp)
	pool := pcPool(r, hc.Sets, hc.Ways, hc.Pcw)
	rst, clr := b.In("rst"), in(b, ports.Clear)
	rdEn, rdPC, wrEn, wrPC, wrValue := in(b, ports.RdEn), in(b, ports.RdPC), in(b, ports.WrEn), in(b, ports.WrPC), in(b, ports.WrValue)
	rdHit, rdValue := out(b, ports.RdHit), out(b, ports.RdVal)

	type inputs struct {
		rdEn, wrEn, clear   bool
		rdPC, wrPC, wrValue int
	}
	var in inputs
	var hits int
	b.Before(func(uint64) {
		in = inputs{rdEn: r.IntN(2) == 0, wrEn: r.IntN(3) == 0, clear: r.IntN(300) == 0,
			rdPC: pool[r.IntN(len(pool))], wrPC: pool[r.IntN(len(pool))], wrValue: r.IntN(hc.Warp)}
		b.Set(rst, 0)
		b.Set(clr, verify.Bit(in.clear))
		b.Set(rdEn, verify.Bit(in.rdEn))
		b.Set(rdPC, uint64(in.rdPC))
		b.Set(wrEn, verify.Bit(in.wrEn))
		b.Set(wrPC, uint64(in.wrPC))
		b.Set(wrValue, uint64(in.wrValue))
	})
	b.After(func(cycle uint64) {
		hit, value := model.Read(in.rdPC)
		if !in.rdEn {
			hit, value = false, 0
		}
		require.Equal(t, [2]uint64{verify.Bit(hit), uint64(value)}, [2]uint64{b.Get(rdHit), b.Get(rdValue)},
			"cycle %d: %+v: rd_hit, rd_value", cycle, in)
		if hit {
			hits++
		}
		model.Step(in.rdEn, in.rdPC, in.wrEn, in.wrPC, in.wrValue, in.clear)
	})
	b.Run(cycles)
	require.Greater(t, hits, cycles/20, "too few hits")
	t.Logf("%s: %d cycles, %d read hits", c, cycles, hits)
}

func matchWarpMask(t *testing.T, c units.Config, cycles int) {
	wm, err := units.FillConfig(c, (*el.WarpMaskBlock).Params)
	require.NoError(t, err)
	m, ports := wm.WithPorts("dut")
	b := verify.NewBench(t, m)
	r := seed(c)
	warps := wm.Warps
	model := el.NewWarpMask(warps, wm.Warp, wm.Lanes, wm.Sets, wm.Ways, wm.Pcw)
	pool := pcPool(r, wm.Sets, wm.Ways, wm.Pcw)
	extras := 1 << el.ExtraWidth(wm.Lanes)
	rst, launch := b.In("rst"), in(b, ports.Launch)
	var ready, isMem []verify.In
	var schedReady []verify.Out
	for _, w := range ports.Warps {
		ready, isMem = append(ready, in(b, w.Ready)), append(isMem, in(b, w.IsMem))
		schedReady = append(schedReady, out(b, w.SchedReady))
	}
	sched := b.Ins([]*hdl.Signal{ports.SchedValid, ports.SchedShmem, ports.SchedPC})
	schedValid, schedShmem, schedPC := sched[0], sched[1], sched[2]
	res := b.Ins([]*hdl.Signal{ports.ResValid, ports.ResPC, ports.ResExtra, ports.ResLast})
	resValid, resPC, resExtra, resLast := res[0], res[1], res[2], res[3]
	outs := b.Outs([]*hdl.Signal{ports.PredHit, ports.Pred, ports.Count, ports.Acc, ports.Block})
	predHit, pred, count, acc, block := outs[0], outs[1], outs[2], outs[3], outs[4]

	var in el.MaskIn
	var hits, blocked int
	b.Before(func(uint64) {
		in = el.MaskIn{Ready: make([]bool, warps), IsMem: make([]bool, warps),
			SchedValid: r.IntN(3) == 0, SchedShmem: r.IntN(2) == 0, SchedPC: pool[r.IntN(len(pool))],
			ResValid: r.IntN(2) == 0, ResPC: pool[r.IntN(len(pool))], ResExtra: r.IntN(extras), ResLast: r.IntN(3) == 0,
			Launch: r.IntN(500) == 0}
		b.Set(rst, 0)
		for j := range warps {
			in.Ready[j], in.IsMem[j] = r.IntN(2) == 0, r.IntN(2) == 0
			b.Set(ready[j], verify.Bit(in.Ready[j]))
			b.Set(isMem[j], verify.Bit(in.IsMem[j]))
		}
		b.Set(schedValid, verify.Bit(in.SchedValid))
		b.Set(schedShmem, verify.Bit(in.SchedShmem))
		b.Set(schedPC, uint64(in.SchedPC))
		b.Set(resValid, verify.Bit(in.ResValid))
		b.Set(resPC, uint64(in.ResPC))
		b.Set(resExtra, uint64(in.ResExtra))
		b.Set(resLast, verify.Bit(in.ResLast))
		b.Set(launch, verify.Bit(in.Launch))
	})
	b.After(func(cycle uint64) {
		out := model.Eval(in)
		what := fmt.Sprintf("cycle %d: %+v", cycle, in)
		got := []uint64{b.Get(predHit), b.Get(pred), b.Get(count), b.Get(acc), b.Get(block)}
		want := []uint64{verify.Bit(out.PredHit), uint64(out.Pred), uint64(out.Count), uint64(out.Acc), verify.Bit(out.Block)}
		require.Equal(t, want, got, "%s: pred_hit, pred, count, acc, block", what)
		for j := range warps {
			require.Equal(t, verify.Bit(out.SchedReady[j]), b.Get(schedReady[j]), "%s: sched_ready_%d", what, j)
		}
		if out.PredHit {
			hits++
		}
		if out.Block {
			blocked++
		}
		model.Step(in)
	})
	b.Run(cycles)
	require.NotZero(t, hits, "no prediction hits")
	require.Greater(t, blocked, cycles/10, "too few blocked cycles")
	t.Logf("%s: %d cycles, %d prediction hits, %d blocked cycles", c, cycles, hits, blocked)
}
