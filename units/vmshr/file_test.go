package vmshr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fired is a fired read in flight: its aligned range and when it returns.
type fired struct {
	blk uint64
	hbs int
	due int
}

// blockData is a block's data in the tests: its address, so a writeback
// with another block's data shows.
func blockData(b uint64) uint64 { return b*7919 + 1 }

// traffic drives a File with random loads to a small pool of blocks, each
// fired packet returning once, late and out of order, and checks the
// contract's invariants every cycle and end to end.
type traffic struct {
	t       *testing.T
	r       *rand.Rand
	f       *File[uint64]
	blocks  uint64 // the pool: block numbers below this
	hbsMax  int    // requests' HBS drawn from 0..hbsMax
	flight  []fired
	waiting map[Target]uint64 // accepted, not written back: its block
	next    uint64            // the next load's Tid
	cycle   int
	counts  map[string]int
	pending *Request // a refused request is presented again
}

func newTraffic(t *testing.T, seed uint64, m, s, hmax int, blocks uint64, hbsMax int) *traffic {
	return &traffic{t: t, r: rand.New(rand.NewPCG(seed, 3)), f: NewFile[uint64](m, s, hmax),
		blocks: blocks, hbsMax: hbsMax, waiting: map[Target]uint64{}, counts: map[string]int{}}
}

// inputs draws one cycle's inputs.
func (tr *traffic) inputs() (Request, Fill[uint64], bool) {
	r := tr.r
	var req Request
	if tr.pending != nil {
		req = *tr.pending
	} else if r.IntN(3) > 0 {
		req = Request{Valid: true, Blk: r.Uint64N(tr.blocks), HBS: r.IntN(tr.hbsMax + 1), Target: Target{Tid: tr.next}}
		tr.next++
	}
	req.ICNTReady = r.IntN(4) > 0
	var fill Fill[uint64]
	if r.IntN(3) == 0 {
		for i, p := range tr.flight {
			if p.due <= tr.cycle {
				tr.flight = append(tr.flight[:i], tr.flight[i+1:]...)
				fill = fillOf(p)
				break
			}
		}
	}
	return req, fill, r.IntN(4) > 0
}

// fillOf is a packet's return: its 2^hbs blocks' data.
func fillOf(p fired) Fill[uint64] {
	fill := Fill[uint64]{Valid: true, Blk: p.blk, HBS: p.hbs}
	for k := range 1 << p.hbs {
		fill.Data = append(fill.Data, blockData(p.blk+uint64(k)))
	}
	return fill
}

// writeback checks a taken writeback against the loads waiting.
func (tr *traffic) writeback(o Outputs[uint64], wbReady bool) {
	t := tr.t
	if !o.WB.Valid || !wbReady {
		return
	}
	blk, ok := tr.waiting[o.WB.Target]
	require.True(t, ok, "cycle %d: writeback of %v, which is not waiting (twice?)", tr.cycle, o.WB.Target)
	require.Equal(t, blk, o.WB.Blk, "cycle %d: load %v written back for another block", tr.cycle, o.WB.Target)
	require.Equal(t, blockData(blk), o.WB.Data, "cycle %d: load %v gets another block's data", tr.cycle, o.WB.Target)
	delete(tr.waiting, o.WB.Target)
	tr.counts["writebacks"]++
}

func (tr *traffic) step() {
	t := tr.t
	req, fill, wbReady := tr.inputs()
	before := tr.f.Busy()
	o := tr.f.Step(req, fill, wbReady)
	f := tr.f

	if !req.Valid {
		require.Equal(t, Idle, o.Kind)
	}
	if o.Fail {
		tr.counts["fail"]++
		tr.pending = &req
	} else {
		tr.pending = nil
	}
	if req.Valid && !o.Fail {
		tr.counts[o.Kind.String()]++
		tr.waiting[req.Target] = req.Blk
	}
	if o.Fire {
		require.Equal(t, Primary, o.Kind)
		require.Equal(t, min(req.HBS, f.Hmax), o.FireHBS)
		require.True(t, Covers(req.Blk, o.FireHBS, o.FireBlk) && o.FireBlk%(1<<o.FireHBS) == 0, "cycle %d: the packet is the aligned hyper block of the request", tr.cycle)
		tr.flight = append(tr.flight, fired{o.FireBlk, o.FireHBS, tr.cycle + 5 + tr.r.IntN(60)})
		tr.counts["packets"]++
	}
	if fill.Valid {
		tr.counts["dropped"] += o.FillDrop
		tr.counts["fills"]++
	}
	tr.writeback(o, wbReady)

	// Invariants after the edge.
	tags := map[uint64]bool{}
	for i, p := range f.P {
		if !p.V {
			continue
		}
		require.False(t, tags[p.Tag], "cycle %d: two PMSHRs hold block %d", tr.cycle, p.Tag)
		tags[p.Tag] = true
		_, any := lowestSlot(p.Slots, true)
		require.True(t, any, "cycle %d: PMSHR %d is valid without an SMSHR", tr.cycle, i)
		require.LessOrEqual(t, p.HBS, f.Hmax)
	}
	require.LessOrEqual(t, f.Busy(), before+1)
	tr.cycle++
}

// drain stops new loads and returns every packet in flight until every
// accepted load is written back.
func (tr *traffic) drain() {
	for n := 0; len(tr.waiting) > 0; n++ {
		require.Less(tr.t, n, 100_000, "loads never written back: %v", tr.waiting)
		var fill Fill[uint64]
		if len(tr.flight) > 0 {
			fill = fillOf(tr.flight[0])
			tr.flight = tr.flight[1:]
		}
		tr.writeback(tr.f.Step(Request{}, fill, true), true)
		tr.cycle++
	}
}

// TestFileUnderRandomTraffic: every accepted load is written back once
// with its block's data, no two PMSHRs hold one block, every valid PMSHR
// holds an SMSHR, for hmax 0..4 and small and large files.
func TestFileUnderRandomTraffic(t *testing.T) {
	for _, c := range []struct{ m, s, hmax int }{{64, 2, 3}, {4, 2, 3}, {8, 1, 4}, {3, 4, 2}, {16, 2, 0}, {1, 1, 1}} {
		t.Run(fmt.Sprintf("m%d_s%d_hmax%d", c.m, c.s, c.hmax), func(t *testing.T) {
			tr := newTraffic(t, uint64(c.m*100+c.s*10+c.hmax), c.m, c.s, c.hmax, 48, c.hmax+1)
			for range 20_000 {
				tr.step()
			}
			tr.drain()
			t.Logf("%v", tr.counts)
			for _, k := range []string{"primary", "fail", "writebacks"} {
				assert.Positive(t, tr.counts[k], "%s never happened", k)
			}
			// one SMSHR is the primary's own (footnote 5)
			assert.Equal(t, c.s > 1, tr.counts["secondary"] > 0, "secondaries")
			// a deferred load needs a second PMSHR and a hyper block
			assert.Equal(t, c.hmax > 0 && c.m > 1, tr.counts["deferred"] > 0, "deferred reservations")
			assert.Equal(t, c.hmax > 0, tr.counts["dropped"] > 0, "dropped pieces")
			assert.Len(t, tr.f.P, c.m, "Data is m normal blocks")
		})
	}
}

// TestHmax0IsTheBaseline: at hmax 0 the request's HBS is ignored (g(x) =
// 0), so a file fed any HBS behaves exactly as one fed 0; and a file with
// hmax 4 fed only HBS 0 behaves as the hmax-0 file (never deferred).
func TestHmax0IsTheBaseline(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	base := NewFile[uint64](8, 2, 0)
	anyHBS := NewFile[uint64](8, 2, 0)
	wide := NewFile[uint64](8, 2, 4)
	var flight []uint64
	for cycle := range 20_000 {
		req := Request{Valid: r.IntN(2) == 0, Blk: r.Uint64N(24), Target: Target{Tid: uint64(cycle)}, ICNTReady: r.IntN(3) > 0}
		var fill Fill[uint64]
		if len(flight) > 0 && r.IntN(3) == 0 {
			i := r.IntN(len(flight))
			fill = Fill[uint64]{Valid: true, Blk: flight[i], Data: []uint64{blockData(flight[i])}}
			flight = append(flight[:i], flight[i+1:]...)
		}
		wb := r.IntN(2) == 0
		want := base.Step(req, fill, wb)
		req.HBS = r.IntN(5)
		got := anyHBS.Step(req, fill, wb)
		require.Equal(t, want, got, "cycle %d: hmax 0 with HBS %d", cycle, req.HBS)
		req.HBS = 0
		require.Equal(t, want, wide.Step(req, fill, wb), "cycle %d: hmax 4 with HBS 0", cycle)
		require.NotEqual(t, Deferred, want.Kind)
		if want.Fire {
			flight = append(flight, want.FireBlk)
		}
	}
}

// TestDeferredReservation walks 6.4.2's story: a primary load of block 10
// fires the 256 B packet of blocks 8..15; loads of blocks 9 and 11 are
// deferred (no packet) with their own PMSHR; the packet fills 10, 9 and 11
// and drops the five
// pieces nobody asked for; a load of 12 after the fill is a new primary.
func TestDeferredReservation(t *testing.T) {
	f := NewFile[uint64](4, 2, 3)
	none := Fill[uint64]{}
	o := f.Step(Request{Valid: true, Blk: 10, HBS: 3, ICNTReady: true}, none, false)
	require.Equal(t, Primary, o.Kind)
	require.True(t, o.Fire)
	require.Equal(t, uint64(8), o.FireBlk)
	require.Equal(t, 3, o.FireHBS)
	for i, blk := range []uint64{9, 11} {
		o = f.Step(Request{Valid: true, Blk: blk, HBS: 3}, none, false) // no interconnect buffer needed
		require.Equal(t, Deferred, o.Kind)
		require.False(t, o.Fail || o.Fire)
		require.Equal(t, i+1, o.AllocEntry)
	}
	o = f.Step(Request{Valid: true, Blk: 9, Target: Target{Tid: 1}}, none, false)
	require.Equal(t, Secondary, o.Kind)
	require.Equal(t, []int{1, 1}, []int{o.AllocEntry, o.AllocSlot})
	o = f.Step(Request{Valid: true, Blk: 9}, none, false)
	require.True(t, o.Fail, "both SMSHRs of block 9 taken")
	var data []uint64
	for k := range 8 {
		data = append(data, blockData(8+uint64(k)))
	}
	o = f.Step(Request{Valid: true, Blk: 13, ICNTReady: true}, Fill[uint64]{Valid: true, Blk: 8, HBS: 3, Data: data}, false)
	require.True(t, o.Fail, "a fill owns the tag search")
	require.Equal(t, 5, o.FillDrop, "8 pieces, 3 waited for (10, 9, 11)")
	o = f.Step(Request{Valid: true, Blk: 12, HBS: 3, ICNTReady: true}, none, false)
	require.Equal(t, Primary, o.Kind, "the hyper block has returned: 12 is not covered")
	require.True(t, o.WB.Valid)
	require.Equal(t, uint64(10), o.WB.Blk)
	require.Equal(t, blockData(10), o.WB.Data)
}
