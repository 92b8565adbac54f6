package vmshr

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	vm "github.com/parmem/parmem/units/vmshr"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestBlocksMatchFile drives vmshr-elastic and vmshr-base on verify's
// bench with random loads to a small pool of blocks (so secondaries,
// deferred loads, full PMSHRs and full SMSHRs all happen), every fired
// packet returned once, late and out of order, with random interconnect
// and writeback back-pressure, and steps the contract in plain Go (File)
// beside it: every output must equal File's every cycle (alloc_entry and
// alloc_slot when a request is offered, the writeback's fields when
// wb_valid). End to end, every accepted load is written back exactly once
// with its own block's data.
func TestBlocksMatchFile(t *testing.T) {
	t.Parallel()
	const cycles = 50_000
	for _, c := range []units.Config{
		{Unit: "vmshr-elastic", Values: units.Values{}},
		{Unit: "vmshr-elastic", Values: units.Values{"m": 4, "s": 2, "hmax": 2, "aw": 6, "dw": 8, "tw": 3, "rw": 2, "ow": 2, "fw": 1}},
		{Unit: "vmshr-elastic", Values: units.Values{"m": 8, "s": 1, "hmax": 0, "aw": 5, "dw": 12, "tw": 4, "rw": 1, "ow": 2, "fw": 1}},
		{Unit: "vmshr-elastic", Values: units.Values{"m": 6, "s": 3, "hmax": 4, "aw": 9, "dw": 70, "tw": 2, "rw": 3, "ow": 1, "fw": 2}},
		{Unit: "vmshr-base", Values: units.Values{}},
		{Unit: "vmshr-base", Values: units.Values{"m": 3, "s": 2, "aw": 4, "dw": 8, "tw": 3, "rw": 2, "ow": 2, "fw": 1}},
	} {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			n := newRun(t, c, nil)
			n.run(cycles)
			n.drain()
			t.Logf("%s: %d cycles: %v", c, n.cycle, n.counts)
			for _, k := range []string{"primary", "fail", "writeback", "full pmshrs", "full smshrs"} {
				require.Positive(t, n.counts[k], "no %s", k)
			}
			if n.s > 1 { // one SMSHR is always busy while its PMSHR is valid
				require.Positive(t, n.counts["secondary"], "no secondary")
			}
			if n.hmax > 0 {
				require.Positive(t, n.counts["deferred"], "no deferred")
				require.Positive(t, n.counts["dropped"], "no block dropped")
			}
		})
	}
}

// TestElasticAtHmax0IsBase drives vmshr-elastic at hmax 0 and vmshr-base
// with the same other parameters with the same inputs (req_hbs and
// fill_hbs random on the elastic one: at hmax 0 every HBS means 0), and
// requires every output they share to be equal every cycle, writeback
// fields included whatever wb_valid says.
func TestElasticAtHmax0IsBase(t *testing.T) {
	t.Parallel()
	const cycles = 20_000
	for _, v := range []units.Values{{}, {"m": 4, "s": 2, "aw": 4, "dw": 8, "tw": 3, "rw": 2, "ow": 2, "fw": 1}} {
		base := units.Config{Unit: "vmshr-base", Values: v}
		el := units.Values{"hmax": 0}
		for k, x := range v {
			el[k] = x
		}
		t.Run(base.String(), func(t *testing.T) {
			t.Parallel()
			n := newRun(t, units.Config{Unit: "vmshr-elastic", Values: el}, &base)
			n.run(cycles)
			t.Logf("%s: %d cycles: %v", base, n.cycle, n.counts)
			require.Positive(t, n.counts["writeback"])
		})
	}
}

// block is a normal block's data, dw bits as little-endian words.
type block [16]uint64

// blockData is the data of block b in the tests, a hash of its number so
// that a writeback of another block's data shows.
func blockData(b uint64, dw int) block {
	var d block
	x := b
	for i := range (dw + 63) / 64 {
		x += 0x9e3779b97f4a7c15
		z := (x ^ x>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		d[i] = z ^ z>>31
	}
	return mask(d, dw)
}

// mask clears the bits of d at and above dw.
func mask(d block, dw int) block {
	for i := range d {
		switch {
		case 64*i >= dw:
			d[i] = 0
		case 64*(i+1) > dw:
			d[i] &= 1<<uint(dw-64*i) - 1
		}
	}
	return d
}

// dut is an MSHR file on a bench: its port handles.
type dut struct {
	b      *verify.Bench
	hasHBS bool
	words  int // of a block's data
	// inputs
	reqValid, reqBlk, reqHBS, reqTid, reqReg, reqOff, reqFmt, icnt verify.In
	fillValid, fillBlk, fillHBS, wbReady, rst                      verify.In
	fillData                                                       []verify.In
	// outputs
	kind, fail, fire, fireBlk, fireHBS, entry, slot, drop verify.Out
	wbValid, wbEntry, wbSlot, wbBlk, wbTid, wbReg, wbOff  verify.Out
	wbFmt, wbData                                         verify.Out
	outs                                                  []verify.Out // every output, in port order
}

// mshrOf is the MSHR file of a vmshr-elastic or vmshr-base
// configuration, filled from its resolved values by the unit's
// declaration as units/vmshr registers it (vmshr-base's is the
// MSHRBlock's with Base set; units.Fill panics on a declared parameter
// without a value).
func mshrOf(t *testing.T, c units.Config) vm.MSHRBlock {
	declare := (*vm.MSHRBlock).Params
	if c.Unit == "vmshr-base" {
		declare = func(b *vm.MSHRBlock, d *units.Decl) { b.Base = true; b.Params(d) }
	}
	b, err := units.FillConfig(c, declare)
	require.NoError(t, err)
	return b
}

// inOf and outOf look up the handle of one port of a block's record on
// the bench.
func inOf(b *verify.Bench) func(*hdl.Signal) verify.In {
	return func(s *hdl.Signal) verify.In { return b.Ins(s)[0] }
}

func outOf(b *verify.Bench) func(*hdl.Signal) verify.Out {
	return func(s *hdl.Signal) verify.Out { return b.Outs(s)[0] }
}

func newDUT(t *testing.T, c units.Config) (*dut, vm.MSHRBlock) {
	blk := mshrOf(t, c)
	m, p := blk.WithPorts("dut")
	b := verify.NewBench(t, m)
	b.DontRecord() // never replayed: the lockstep test runs the RTL
	u := &dut{b: b, hasHBS: !blk.Base, words: (blk.Dw + 63) / 64}
	in, out := inOf(b), outOf(b)
	u.reqValid, u.reqBlk, u.icnt = in(p.Req.Valid), in(p.Req.Blk), in(p.IcntReady)
	u.reqTid, u.reqReg, u.reqOff, u.reqFmt = in(p.Req.T.Tid), in(p.Req.T.Reg), in(p.Req.T.Off), in(p.Req.T.Fmt)
	u.fillValid, u.fillBlk, u.wbReady, u.rst = in(p.Fill.Valid), in(p.Fill.Blk), in(p.WB.Ready), b.In("rst")
	u.kind, u.fail, u.fire, u.fireBlk = out(p.Resp.Kind), out(p.Resp.Fail), out(p.Resp.Fire), out(p.Resp.FireBlk)
	u.entry, u.slot, u.drop = out(p.Resp.AllocEntry), out(p.Resp.AllocSlot), out(p.FillDrop)
	wb := p.WB.Payload
	u.wbValid, u.wbEntry, u.wbSlot, u.wbBlk = out(p.WB.Valid), out(wb.Entry), out(wb.Slot), out(wb.Blk)
	u.wbTid, u.wbReg, u.wbOff, u.wbFmt, u.wbData = out(wb.T.Tid), out(wb.T.Reg), out(wb.T.Off), out(wb.T.Fmt), out(wb.Data)
	if u.hasHBS {
		u.reqHBS, u.fillHBS, u.fireHBS = in(p.Req.HBS[0]), in(p.Fill.HBS[0]), out(p.Resp.FireHBS[0])
	}
	u.fillData = b.Ins(p.Fill.Data)
	for _, port := range b.Ports().Out {
		u.outs = append(u.outs, b.Out(port.Name))
	}
	return u, blk
}

// cycleIn is one cycle's inputs.
type cycleIn struct {
	rst      bool
	req      vm.Request
	fill     vm.Fill[block]
	fillHBS  uint64  // fill_hbs as driven (fill.HBS, or junk)
	fillData []block // every fill_data_<k>, junk past the packet
	wbReady  bool
}

// drive sets the bench's inputs for the coming cycle.
func (u *dut) drive(in *cycleIn) {
	b := u.b
	b.Set(u.rst, verify.Bit(in.rst))
	b.Set(u.reqValid, verify.Bit(in.req.Valid))
	b.Set(u.reqBlk, in.req.Blk)
	b.Set(u.reqTid, in.req.Target.Tid)
	b.Set(u.reqReg, in.req.Target.Reg)
	b.Set(u.reqOff, in.req.Target.Off)
	b.Set(u.reqFmt, in.req.Target.Fmt)
	b.Set(u.icnt, verify.Bit(in.req.ICNTReady))
	b.Set(u.fillValid, verify.Bit(in.fill.Valid))
	b.Set(u.fillBlk, in.fill.Blk)
	for k, h := range u.fillData {
		b.SetWords(h, in.fillData[k][:u.words])
	}
	b.Set(u.wbReady, verify.Bit(in.wbReady))
	if u.hasHBS {
		b.Set(u.reqHBS, uint64(in.req.HBS))
		b.Set(u.fillHBS, in.fillHBS)
	}
}

// outputs reads the cycle's outputs as File's Outputs: alloc_entry and
// alloc_slot only with a request, the writeback's fields only when
// wb_valid.
func (u *dut) outputs(reqValid bool) vm.Outputs[block] {
	b := u.b
	o := vm.Outputs[block]{Kind: vm.Kind(b.Get(u.kind)), Fail: b.Get(u.fail) == 1, Fire: b.Get(u.fire) == 1,
		FireBlk: b.Get(u.fireBlk), FillDrop: int(b.Get(u.drop))}
	if u.hasHBS {
		o.FireHBS = int(b.Get(u.fireHBS))
	}
	if reqValid {
		o.AllocEntry, o.AllocSlot = int(b.Get(u.entry)), int(b.Get(u.slot))
	}
	if b.Get(u.wbValid) == 1 {
		o.WB = vm.Writeback[block]{Valid: true, Entry: int(b.Get(u.wbEntry)), Slot: int(b.Get(u.wbSlot)), Blk: b.Get(u.wbBlk),
			Target: vm.Target{Tid: b.Get(u.wbTid), Reg: b.Get(u.wbReg), Off: b.Get(u.wbOff), Fmt: b.Get(u.wbFmt)}}
		copy(o.WB.Data[:], b.Words(u.wbData))
	}
	return o
}

// packet is a fired read in flight: its range and the cycle it may
// return from.
type packet struct {
	blk uint64
	hbs int
	due int
}

// run is a random-traffic run of one MSHR file against File, and of an
// optional twin (vmshr-base beside vmshr-elastic at hmax 0) against it.
type run struct {
	t      *testing.T
	r      *rand.Rand
	u      *dut
	twin   *dut
	same   []verify.Out // the twin's outputs on u, in the twin's order
	file   *vm.File[block]
	hmax   int
	s      int
	hbsTop uint64 // req_hbs and fill_hbs reach this (the port's largest value up to hmax+1)
	dw     int
	aw     int
	fields [4]int // tw, rw, ow, fw
	// the pool of blocks: regions of span blocks
	regions []uint64
	span    uint64
	latency int // a packet returns 3 to latency+2 cycles after it fires

	cycle   int
	in      cycleIn
	retry   *vm.Request          // a refused request, mostly presented again
	flight  []packet             // fired, not yet returned
	waiting map[vm.Target]uint64 // accepted loads not written back: their block
	counts  map[string]int
	stop    bool // no more requests (drain)
}

func newRun(t *testing.T, c units.Config, twin *units.Config) *run {
	u, blk := newDUT(t, c)
	n := &run{t: t, r: rand.New(rand.NewPCG(uint64(len(c.String())), seedOf(c.String()))), u: u,
		file: vm.NewFile[block](blk.M, blk.S, blk.Hmax), hmax: blk.Hmax, s: blk.S, dw: blk.Dw, aw: blk.Aw,
		fields:  [4]int{blk.Tw, blk.Rw, blk.Ow, blk.Fw},
		waiting: map[vm.Target]uint64{}, counts: map[string]int{}}
	if twin != nil {
		n.twin, _ = newDUT(t, *twin)
		for _, h := range n.twin.outs {
			n.same = append(n.same, u.b.Out(n.twin.b.OutPort(h).Name))
		}
	}
	gw := 1
	for 1<<gw-1 < n.hmax {
		gw++
	}
	n.hbsTop = min(uint64(n.hmax+1), 1<<gw-1)
	// Regions of two largest hyper blocks, enough of them for about 2 m
	// blocks, so loads share blocks and hyper blocks, and packets late
	// enough to fill the file.
	n.span = 2 << n.hmax
	n.latency = 8*blk.M + 20
	for range max(2, (2*blk.M+int(n.span)-1)/int(n.span)) {
		n.regions = append(n.regions, n.r.Uint64N(1<<n.aw)/n.span*n.span)
	}
	return n
}

func seedOf(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(s) {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// target makes a load's target from a number below 2^(tw+rw+ow+fw).
func (n *run) target(id uint64) vm.Target {
	var f [4]uint64
	for i, w := range n.fields {
		f[i] = id & (1<<w - 1)
		id >>= w
	}
	return vm.Target{Tid: f[0], Reg: f[1], Off: f[2], Fmt: f[3]}
}

// newTarget draws a target no waiting load has.
func (n *run) newTarget() vm.Target {
	bits := n.fields[0] + n.fields[1] + n.fields[2] + n.fields[3]
	for {
		tg := n.target(n.r.Uint64N(1 << bits))
		if _, busy := n.waiting[tg]; !busy {
			return tg
		}
	}
}

// inputs draws one cycle's inputs.
func (n *run) inputs() {
	r := n.r
	in := cycleIn{wbReady: r.IntN(4) > 0, rst: !n.stop && r.IntN(20_000) == 0}
	switch {
	case n.stop:
	case n.retry != nil && r.IntN(4) > 0:
		in.req = *n.retry
	case r.IntN(3) > 0:
		blk := n.regions[r.IntN(len(n.regions))] + r.Uint64N(n.span)
		in.req = vm.Request{Valid: true, Blk: blk, HBS: r.IntN(int(n.hbsTop) + 1), Target: n.newTarget()}
	default: // junk on an idle port
		in.req = vm.Request{Blk: r.Uint64N(1 << n.aw), HBS: r.IntN(int(n.hbsTop) + 1), Target: n.target(r.Uint64())}
	}
	in.req.ICNTReady = r.IntN(4) > 0
	// A packet returns, late and in any order; fill_blk is any block of
	// its range, fill_hbs may exceed hmax when the packet is the largest.
	var due []int
	for i, p := range n.flight {
		if p.due <= n.cycle {
			due = append(due, i)
		}
	}
	in.fillData = make([]block, 1<<n.hmax)
	for k := range in.fillData {
		in.fillData[k] = mask(block{r.Uint64(), r.Uint64()}, n.dw)
	}
	if len(due) > 0 && (n.stop || r.IntN(3) == 0) {
		i := due[r.IntN(len(due))]
		p := n.flight[i]
		n.flight = append(n.flight[:i], n.flight[i+1:]...)
		in.fill = vm.Fill[block]{Valid: true, Blk: p.blk + r.Uint64N(1<<p.hbs), HBS: p.hbs}
		for k := range 1 << p.hbs {
			in.fill.Data = append(in.fill.Data, blockData(p.blk+uint64(k), n.dw))
			in.fillData[k] = in.fill.Data[k]
		}
		in.fillHBS = uint64(p.hbs)
		if p.hbs == n.hmax && in.fillHBS < n.hbsTop && r.IntN(2) == 0 {
			in.fillHBS = n.hbsTop
			in.fill.HBS = int(n.hbsTop)
		}
	} else {
		in.fill.Blk = r.Uint64N(1 << n.aw)
		in.fillHBS = r.Uint64N(n.hbsTop + 1)
	}
	n.in = in
}

// step runs one cycle on the bench (and the twin) and on File and
// compares them.
func (n *run) step() {
	t := n.t
	n.inputs()
	in := &n.in
	n.u.drive(in)
	n.u.b.Step()
	got := n.u.outputs(in.req.Valid)
	if n.twin != nil {
		n.twin.drive(in)
		n.twin.b.Step()
		for i, h := range n.twin.outs {
			if !slices.Equal(n.u.b.Words(n.same[i]), n.twin.b.Words(h)) {
				t.Fatalf("cycle %d: %s: vmshr-elastic (hmax 0) %x, vmshr-base %x (inputs %+v)", n.cycle, n.twin.b.OutPort(h).Name,
					n.u.b.Words(n.same[i]), n.twin.b.Words(h), *in)
			}
		}
	}
	full := n.file.Busy() == n.file.M
	kind, e := n.file.Classify(in.req.Blk)
	fullSlots := kind == vm.Secondary && allValid(n.file.P[e].Slots)
	want := n.file.Step(in.req, in.fill, in.wbReady)
	if !in.req.Valid {
		want.AllocEntry, want.AllocSlot = 0, 0
	}
	if !want.WB.Valid {
		want.WB = vm.Writeback[block]{}
	}
	if got != want {
		t.Fatalf("cycle %d: inputs %+v:\nblock %+v\nFile  %+v", n.cycle, *in, got, want)
	}
	if in.rst {
		n.file.Reset()
		n.waiting = map[vm.Target]uint64{}
		n.counts["resets"]++
	}
	n.account(want, full, fullSlots)
	n.cycle++
}

func allValid(s []vm.SMSHR) bool {
	for _, x := range s {
		if !x.V {
			return false
		}
	}
	return true
}

// account keeps the end-to-end books of a cycle whose outputs matched.
func (n *run) account(o vm.Outputs[block], full, fullSlots bool) {
	t, in := n.t, &n.in
	n.retry = nil
	if in.req.Valid {
		switch {
		case o.Fail:
			n.counts["fail"]++
			if !in.fill.Valid && (full && o.Kind != vm.Secondary) {
				n.counts["full pmshrs"]++
			}
			if !in.fill.Valid && fullSlots {
				n.counts["full smshrs"]++
			}
			req := in.req
			n.retry = &req
		case !in.rst:
			n.counts[o.Kind.String()]++
			n.waiting[in.req.Target] = in.req.Blk
		}
	}
	if o.Fire {
		n.flight = append(n.flight, packet{o.FireBlk, o.FireHBS, n.cycle + 3 + n.r.IntN(n.latency)})
	}
	if in.fill.Valid {
		n.counts["fills"]++
		n.counts["dropped"] += o.FillDrop
	}
	if o.WB.Valid && in.wbReady && !in.rst {
		blk, ok := n.waiting[o.WB.Target]
		require.True(t, ok, "cycle %d: writeback of %+v, which no load waits for", n.cycle, o.WB.Target)
		require.Equal(t, blk, o.WB.Blk, "cycle %d: load %+v written back with another block", n.cycle, o.WB.Target)
		require.Equal(t, blockData(blk, n.dw), o.WB.Data, "cycle %d: load %+v written back with another block's data", n.cycle, o.WB.Target)
		delete(n.waiting, o.WB.Target)
		n.counts["writeback"]++
	}
}

func (n *run) run(cycles int) {
	for range cycles {
		n.step()
	}
}

// drain stops new loads and returns every packet in flight; every
// accepted load must then be written back.
func (n *run) drain() {
	n.stop, n.retry = true, nil
	for start := n.cycle; len(n.waiting) > 0 || len(n.flight) > 0; {
		require.Less(n.t, n.cycle-start, 100_000, "loads never written back: %v", n.waiting)
		for i := range n.flight {
			n.flight[i].due = 0
		}
		n.step()
	}
	require.Zero(n.t, n.file.Busy(), "PMSHRs still valid with every load written back")
}

// TestMatchAgainstContract drives vmshr-match with random entries whose
// tags mostly differ from blk in a few low bits (so hits, several hits,
// covers and misses all happen, with HBS values above hmax too) and
// compares every output with the contract computed in plain Go.
func TestMatchAgainstContract(t *testing.T) {
	t.Parallel()
	for _, c := range []units.Config{
		{Unit: "vmshr-match", Values: units.Values{}},
		{Unit: "vmshr-match", Values: units.Values{"base": 1}},
		{Unit: "vmshr-match", Values: units.Values{"m": 5, "hmax": 2, "aw": 6}},
		{Unit: "vmshr-match", Values: units.Values{"m": 3, "hmax": 0, "aw": 4}},
		{Unit: "vmshr-match", Values: units.Values{"m": 1, "hmax": 4, "aw": 5}},
		{Unit: "vmshr-match", Values: units.Values{"m": 7, "hmax": 4, "aw": 58, "base": 1}},
		{Unit: "vmshr-match", Values: units.Values{"m": 9, "hmax": 1, "aw": 58}},
	} {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			mb, err := units.FillConfig(c, (*vm.MatchBlock).Params)
			require.NoError(t, err)
			m, hmax, aw, base := mb.M, mb.Hmax, mb.Aw, mb.Base
			mod, p := mb.WithPorts("dut")
			b := verify.NewBench(t, mod)
			b.DontRecord()
			gw := 1
			for 1<<gw-1 < hmax {
				gw++
			}
			r := rand.New(rand.NewPCG(5, seedOf(c.String())))
			out := outOf(b)
			blkIn := inOf(b)(p.In.Blk)
			vIn, yIn, tagIn, hbsIn := b.Ins(p.In.V), b.Ins(p.In.Y), b.Ins(p.In.Tag), b.Ins(p.In.HBS)
			hitOut, covOut := b.Outs(p.Out.Hit), b.Outs(p.Out.Cov)
			hitAny, hitIdx, primary := out(p.Out.Any), out(p.Out.Idx), out(p.Out.Primary)
			awMask := uint64(1)<<aw - 1
			counts := map[string]int{}
			for range 3000 {
				blk := r.Uint64() & awMask
				near := r.IntN(4) > 0 // else every tag random: mostly a primary
				b.Set(blkIn, blk)
				want := make([][2]uint64, m)
				anyHit, first, prim := uint64(0), uint64(0), uint64(1)
				for i := range m {
					tag := r.Uint64() & awMask
					if near && r.IntN(4) > 0 { // near blk: differ in a few low bits
						tag = blk ^ r.Uint64N(1<<min(aw, hmax+2))>>r.IntN(4)
					}
					valid, ready, hbs := r.IntN(4) > 0, r.IntN(3) == 0, r.Uint64N(1<<gw)
					b.Set(vIn[i], verify.Bit(valid))
					b.Set(yIn[i], verify.Bit(ready))
					b.Set(tagIn[i], tag)
					b.Set(hbsIn[i], hbs)
					g := min(int(hbs), hmax)
					hit := valid && tag == blk
					cov := !base && valid && !ready && tag>>g == blk>>g
					want[i] = [2]uint64{verify.Bit(hit), verify.Bit(cov)}
					if hit && anyHit == 0 {
						anyHit, first = 1, uint64(i)
					}
					if hit || cov {
						prim = 0
					}
					if hit {
						counts["hit"]++
					}
					if cov && !hit {
						counts["cover"]++
					}
				}
				b.Step()
				for i := range m {
					require.Equal(t, want[i], [2]uint64{b.Get(hitOut[i]), b.Get(covOut[i])}, "cycle %d: hit_%d, cov_%d", b.Cycle()-1, i, i)
				}
				require.Equal(t, [3]uint64{anyHit, first, prim}, [3]uint64{b.Get(hitAny), b.Get(hitIdx), b.Get(primary)}, "cycle %d: hit, hit_idx, primary", b.Cycle()-1)
				if prim == 1 {
					counts["primary"]++
				}
			}
			t.Logf("%s: %v", c, counts)
			require.Positive(t, counts["hit"])
			require.Positive(t, counts["primary"])
			if !base && hmax > 0 {
				require.Positive(t, counts["cover"])
			}
		})
	}
}
