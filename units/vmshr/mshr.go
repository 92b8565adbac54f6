package vmshr

import (
	"fmt"
	"math/bits"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// MSHRBlock is the vmshr-elastic unit, the vector MSHR file of thesis
// Fig. 6.5(b) with deferred reservation (6.4.1-6.4.2), and with Base the
// vmshr-base unit, the baseline of Fig. 6.5(a) (Hmax is then 0). File is
// its contract in plain Go; MSHRPorts are its ports.
//
// vmshr-base has no req_hbs, fire_hbs or fill_hbs. The request's tag
// search is a vmshr-match instance (<name>_match) on the PMSHRs' V, Y,
// tag and HBS; its hit names the secondary's PMSHR and its primary output
// tells a primary from a deferred request. The fill's search is the same
// split compare inline, with the packet's one HBS for every entry. PMSHRs
// (p_v, p_tag, p_hbs, p_y, p_data) and SMSHRs (smshr<i>_v, _tid, _reg,
// _off, _fmt) are registers: a fill writes every waiting PMSHR in its
// range at once.
type MSHRBlock struct {
	M, S, Hmax, Aw, Dw int
	Tw, Rw, Ow, Fw     int
	Base               bool
}

// PMSHRSignals are a primary MSHR's valid bit, block tag and ready bit
// Y (Fig. 6.5): its registers besides HBS and Data, or the ports that
// carry them.
type PMSHRSignals struct {
	V   *hdl.Signal `doc:"V of PMSHR i"`
	Tag *hdl.Signal `doc:"[aw-1:0] tag of PMSHR i"`
	Y   *hdl.Signal `doc:"Y (data ready) of PMSHR i"`
}

// TargetSignals are where a load's data goes (Tid, R, O, F of Fig.
// 6.5(a)).
type TargetSignals struct {
	Tid *hdl.Signal `doc:"[tw-1:0] hardware thread id (Tid)"`
	Reg *hdl.Signal `doc:"[rw-1:0] destination register (R)"`
	Off *hdl.Signal `doc:"[ow-1:0] offset in the block (O)"`
	Fmt *hdl.Signal `doc:"[fw-1:0] format (F)"`
}

// smshr is a secondary MSHR.
type smshr struct {
	V *hdl.Signal
	T TargetSignals
}

// MSHRPorts are the MSHR file's ports (Fig. 6.5) by channel; vmshr-base
// has none of the HBS fields (they are then empty).
type MSHRPorts struct {
	// Req is a load: its normal block, its hyper block size (Alg. 6.1's
	// HBS) and its target.
	Req MSHRReq `doc:"request"`
	// IcntReady is an interconnect buffer free for the read packet a
	// primary load fires.
	IcntReady *hdl.Signal `doc:"an interconnect buffer is free"`
	// Resp is what the file does with the load (6.4.1, 6.4.2).
	Resp MSHRResp
	// Fill is a read packet returning.
	Fill MSHRFill `doc:"fill"`
	// FillDrop counts the packet's blocks no PMSHR waits for (deferred
	// reservation, 6.4.2).
	FillDrop *hdl.Signal `doc:"[hmax:0] the packet's blocks no PMSHR waits for"`
	// WB is a load's data written back.
	WB hdl.Stream[MSHRWriteback] `doc:"writeback"`
}

// MSHRReq is a load request.
type MSHRReq struct {
	Valid *hdl.Signal   `doc:"valid"`
	Blk   *hdl.Signal   `doc:"[aw-1:0] the normal block"`
	HBS   []*hdl.Signal `doc:"[GW-1:0] hyper block size (HBS)"` // one signal; none in vmshr-base
	T     TargetSignals
}

// MSHRResp is the file's answer to a load: its kind, whether it failed,
// the read packet fired and the MSHRs taken.
type MSHRResp struct {
	Kind       *hdl.Signal   `doc:"[1:0] 0 idle, 1 primary, 2 deferred, 3 secondary"`
	Fail       *hdl.Signal   `doc:"the request is refused"`
	Fire       *hdl.Signal   `doc:"a primary request fires a read packet"`
	FireBlk    *hdl.Signal   `doc:"[aw-1:0] the packet's block, B(req_blk, fire_hbs)"`
	FireHBS    []*hdl.Signal `doc:"[GW-1:0] the packet's HBS, g(req_hbs)"` // one signal; none in vmshr-base
	AllocEntry *hdl.Signal   `doc:"[EW-1:0] the PMSHR taken"`
	AllocSlot  *hdl.Signal   `doc:"[SW-1:0] the SMSHR taken"`
}

// MSHRFill is a returning read packet: its block, its HBS and its
// normal blocks' data.
type MSHRFill struct {
	Valid *hdl.Signal   `doc:"valid"`
	Blk   *hdl.Signal   `doc:"[aw-1:0] the packet's block"`
	HBS   []*hdl.Signal `doc:"[GW-1:0] the packet's HBS"` // one signal; none in vmshr-base
	Data  []*hdl.Signal `doc:"[dw-1:0] normal block i of the packet"`
}

// MSHRWriteback is a load's writeback: the PMSHR and SMSHR it leaves,
// its block, its target and its block's data.
type MSHRWriteback struct {
	Entry *hdl.Signal `doc:"[EW-1:0] the PMSHR"`
	Slot  *hdl.Signal `doc:"[SW-1:0] its SMSHR"`
	Blk   *hdl.Signal `doc:"[aw-1:0] its block (tag)"`
	T     TargetSignals
	Data  *hdl.Signal `doc:"[dw-1:0] its block's data"`
}

// Build makes the module called name.
func (c MSHRBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports; its tag
// search is the sub-module <name>_match. It is built in Fig. 6.5's
// parts: the ports, the PMSHR and SMSHR registers, the request's tag
// search and kind, the MSHRs each kind takes, the fill, and the
// writeback; each part sets the registers it decides.
func (c MSHRBlock) WithPorts(name string) (*hdl.Module, MSHRPorts) {
	if c.Base {
		c.Hmax = 0
	}
	b := &mshrBuild{c: c, m: hdl.NewModule(name), hmax: c.Hmax, gw: hbsWidth(c.Hmax),
		ew: lib.IndexWidth(c.M), sw: lib.IndexWidth(c.S)}
	b.zeroHBS = b.m.ConstU(b.gw, 0)
	b.ports()
	b.state()
	b.request(name)
	b.take()
	b.fill()
	b.writeback()
	b.properties()
	return b.m, b.io
}

// mshrBuild is an MSHR under construction: its ports, its registers and
// the decisions its parts share.
type mshrBuild struct {
	c        MSHRBlock
	m        *hdl.Module
	hmax, gw int // Hmax, HBS width
	ew, sw   int // entry and slot index widths
	zeroHBS  *hdl.Signal
	hasHBS   bool // at hmax 0 every HBS is 0: no registers
	io       MSHRPorts
	reqHBS   *hdl.Signal // req_hbs, or 0 in vmshr-base
	fillHBS  *hdl.Signal // fill_hbs, or 0 in vmshr-base

	// State.
	p          *hdl.Array[PMSHRSignals]
	data       *hdl.Array[*hdl.Signal]
	hbs        []*hdl.Signal // HBS_i (the constant 0 without registers)
	slots      []*hdl.Array[smshr]
	valid      []*hdl.Signal // V_i
	ready      []*hdl.Signal // V_i & Y_i: waiting for writeback
	slotsValid []*hdl.Signal // SMSHR (i, j) V as S bits

	// The request's decisions.
	hitOne, freeOne, slotOne *hdl.Signal // the hit PMSHR, the free PMSHR, the free SMSHR, one-hot
	kind                     *hdl.Signal // File.Classify's Kind of req_blk, req_valid aside
	accepted, secondary      *hdl.Signal
	newHBS                   *hdl.Signal

	// What the properties read: each PMSHR's fill take, the writeback's
	// transfer and its PMSHR's release.
	fillTake         []*hdl.Signal
	wbTaken, release *hdl.Signal
}

// ports declares the module's ports.
func (b *mshrBuild) ports() {
	c, m, p := b.c, b.m, &b.io
	b.hasHBS = b.hmax > 0
	hbs := func(f hdl.Fields) []*hdl.Signal { // none in vmshr-base
		if c.Base {
			return nil
		}
		return []*hdl.Signal{f("hbs", b.gw)}
	}
	in := m.InputFields("req")
	p.Req.Valid, p.Req.Blk = in("valid", 1), in("blk", c.Aw)
	p.Req.HBS = hbs(in)
	p.Req.T = c.target(in)
	p.IcntReady = m.Input("icnt_ready", 1)
	out := m.OutputFields("")
	p.Resp = MSHRResp{Kind: out("req_kind", 2), Fail: out("mshr_alloc_fail", 1), Fire: out("fire_read_packet", 1),
		FireBlk: out("fire_blk", c.Aw), FireHBS: hbs(m.OutputFields("fire"))}
	p.Resp.AllocEntry, p.Resp.AllocSlot = out("alloc_entry", b.ew), out("alloc_slot", b.sw)

	in = m.InputFields("fill")
	p.Fill = MSHRFill{Valid: in("valid", 1), Blk: in("blk", c.Aw), HBS: hbs(in), Data: in.Vec("data", 1<<b.hmax, c.Dw)}
	p.FillDrop = m.Output("fill_drop", b.hmax+1)

	p.WB = hdl.OutStream(m, "wb", func(out hdl.Fields) MSHRWriteback {
		return MSHRWriteback{Entry: out("entry", b.ew), Slot: out("slot", b.sw), Blk: out("blk", c.Aw),
			T: c.target(out), Data: out("data", c.Dw)}
	})
	b.reqHBS, b.fillHBS = b.zeroHBS, b.zeroHBS
	if !c.Base {
		b.reqHBS, b.fillHBS = p.Req.HBS[0], p.Fill.HBS[0]
	}
}

// target makes a load's target with f.
func (c MSHRBlock) target(f hdl.Fields) TargetSignals {
	return TargetSignals{f("tid", c.Tw), f("reg", c.Rw), f("off", c.Ow), f("fmt", c.Fw)}
}

// state declares the PMSHRs (V, tag, Y, data and HBS) and each one's
// SMSHRs (Fig. 6.5).
func (b *mshrBuild) state() {
	c, m := b.c, b.m
	b.p = hdl.RegArray(m, "p", c.M, func(f hdl.Fields) PMSHRSignals { return PMSHRSignals{f("v", 1), f("tag", c.Aw), f("y", 1)} })
	b.data = hdl.RegArray(m, "p", c.M, func(f hdl.Fields) *hdl.Signal { return f("data", c.Dw) })
	b.hbs = make([]*hdl.Signal, c.M)
	if b.hasHBS {
		copy(b.hbs, hdl.RegArray(m, "p", c.M, func(f hdl.Fields) *hdl.Signal { return f("hbs", b.gw) }).Elems())
	} else {
		for i := range b.hbs {
			b.hbs[i] = b.zeroHBS
		}
	}
	b.slots = make([]*hdl.Array[smshr], c.M)
	for i := range b.slots {
		b.slots[i] = hdl.RegArray(m, fmt.Sprintf("smshr%d", i), c.S, func(f hdl.Fields) smshr {
			return smshr{f("v", 1), c.target(f)}
		})
	}
	b.valid, b.ready, b.slotsValid = make([]*hdl.Signal, c.M), make([]*hdl.Signal, c.M), make([]*hdl.Signal, c.M)
	for i, e := range b.p.Elems() {
		b.valid[i], b.ready[i] = e.V, e.V.And(e.Y)
		var vs []*hdl.Signal
		for _, s := range b.slots[i].Elems() {
			vs = append(vs, s.V)
		}
		b.slotsValid[i] = lib.Bus(vs)
	}
}

// request: the tag search of Fig. 6.5 (a vmshr-match instance), the
// request's kind, and what each kind needs and is given (6.4.1's MSHR
// allocation, 6.4.2's deferred reservation).
func (b *mshrBuild) request(name string) {
	c, m := b.c, b.m
	sub, ports := MatchBlock{M: c.M, Hmax: b.hmax, Aw: c.Aw, Base: c.Base}.WithPorts(name + "_match")
	search := hdl.Use(m, "search", sub, ports)
	search.In.Blk.Drive(b.io.Req.Blk)
	for i, e := range b.p.Elems() {
		search.In.V[i].Drive(e.V)
		search.In.Y[i].Drive(e.Y)
		search.In.Tag[i].Drive(e.Tag)
		search.In.HBS[i].Drive(b.hbs[i])
	}
	b.hitOne = lib.Bus(search.Out.Hit) // E, one-hot (a block is in at most one PMSHR)
	anyFree, freeIdx, freeOne := lib.Priority(lib.Bus(b.valid).Not(), false)
	slotFree, slotIdx, slotOne := lib.Priority(hdl.OneHotSelect(b.hitOne, b.slotsValid...).Not(), false)
	b.freeOne, b.slotOne = freeOne, slotOne

	full := m.Wire("full", 1) // what the request's kind needs is not free
	fail := b.io.Req.Valid.And(b.io.Fill.Valid.Or(full))
	b.io.Resp.Fail.Drive(fail)
	b.accepted = b.io.Req.Valid.And(fail.Not())
	b.secondary = b.accepted.And(search.Out.Any)
	fireHBS := clampHBS(b.reqHBS, b.hmax)
	for _, o := range b.io.Resp.FireHBS {
		o.Drive(fireHBS)
	}
	b.io.Resp.FireBlk.Drive(clearLow(b.io.Req.Blk, thermometer(b.reqHBS, b.hmax)))

	// The kind as File.Classify reads the search (6.4.1's primary and
	// secondary loads, 6.4.2's deferred one) and what each kind needs: a
	// secondary load a free SMSHR of E; a deferred one a free PMSHR (the
	// lowest: alloc_entry for every kind but secondary); a primary one a
	// free PMSHR and an interconnect buffer for the packet it fires, whose
	// HBS its PMSHR records (a deferred load's records 0: deferred
	// reservation keeps a normal block).
	b.kind, b.newHBS = m.Wire("kind", 2), m.Wire("new_hbs", b.gw)
	b.io.Resp.AllocEntry.Set(freeIdx)
	b.io.Resp.AllocSlot.SetU(0)
	b.io.Resp.Fire.SetU(0)
	b.newHBS.Set(b.zeroHBS)
	m.If(search.Out.Any, func() { // a PMSHR E holds the block: secondary
		b.kind.SetU(uint64(Secondary))
		b.io.Resp.AllocEntry.Set(search.Out.Idx)
		b.io.Resp.AllocSlot.Set(slotIdx)
		full.Set(slotFree.Not())
	}).Elif(search.Out.Primary.Not(), func() { // a pending hyper block covers it: deferred
		b.kind.SetU(uint64(Deferred))
		full.Set(anyFree.Not())
	}).Else(func() { // a new block: primary
		b.kind.SetU(uint64(Primary))
		full.Set(anyFree.Not().Or(b.io.IcntReady.Not()))
		b.io.Resp.Fire.Set(b.accepted)
		b.newHBS.Set(fireHBS)
	})
	b.io.Resp.Kind.SetU(uint64(Idle))
	m.If(b.io.Req.Valid, func() { b.io.Resp.Kind.Set(b.kind) })
}

// take is the edge of an accepted request, by its kind: a secondary load
// takes SMSHR (E, alloc_slot); a primary or deferred one takes PMSHR
// alloc_entry: V, tag, HBS, Y = 0, SMSHR 0 the request and the others
// invalid (footnote 5).
func (b *mshrBuild) take() {
	m := b.m
	one := m.ConstU(1, 1)
	m.If(b.accepted, func() {
		m.Switch(b.kind).Case(uint64(Secondary), func() {
			for i := range b.p.Len() {
				m.If(b.hitOne.Bit(i), func() {
					for j, s := range b.slots[i].Elems() {
						m.If(b.slotOne.Bit(j), func() { hdl.SetRecord(s, smshr{one, b.io.Req.T}) })
					}
				})
			}
		}).Cases([]uint64{uint64(Primary), uint64(Deferred)}, func() {
			for i, e := range b.p.Elems() {
				m.If(b.freeOne.Bit(i), func() {
					e.V.SetU(1)
					e.Tag.Set(b.io.Req.Blk)
					e.Y.SetU(0)
					if b.hasHBS {
						b.hbs[i].Set(b.newHBS)
					}
					for j, s := range b.slots[i].Elems() {
						if j == 0 {
							hdl.SetRecord(s, smshr{one, b.io.Req.T})
						} else {
							s.V.SetU(0)
						}
					}
				})
			}
		})
	})
}

// fill: every waiting PMSHR inside the packet's aligned range takes its
// block; the packet's blocks no PMSHR waits for are dropped.
func (b *mshrBuild) fill() {
	b.io.FillDrop.Drive(fillPath(b.p.Elems(), b.io.Fill.Valid, b.io.Fill.Blk, b.fillHBS, b.io.Fill.Data, b.hmax, func(i int, take, piece *hdl.Signal) {
		b.fillTake = append(b.fillTake, take)
		b.m.If(take, func() {
			b.p.At(i).Y.SetU(1)
			b.data.At(i).Set(piece)
		})
	}))
}

// writeback: the lowest ready PMSHR's lowest valid SMSHR, which leaves at
// the edge when taken.
func (b *mshrBuild) writeback() {
	c, m := b.c, b.m
	wbValid, wbIdx, wbOne := lib.Priority(lib.Bus(b.ready), false)
	wbSlots := hdl.OneHotSelect(wbOne, b.slotsValid...)
	_, wbSlotIdx, wbSlotOne := lib.Priority(wbSlots, false)
	b.io.WB.Valid.Drive(wbValid)
	wb := b.io.WB.Payload
	wb.Entry.Drive(wbIdx)
	wb.Slot.Drive(wbSlotIdx)
	tags, datas := make([]*hdl.Signal, c.M), b.data.Elems()
	for i, e := range b.p.Elems() {
		tags[i] = e.Tag
	}
	wb.Blk.Drive(hdl.OneHotSelect(wbOne, tags...))
	wb.Data.Drive(hdl.OneHotSelect(wbOne, datas...))
	perSlot := make([]*hdl.Signal, c.S) // slot j's target of the writeback PMSHR
	for j := range c.S {
		col := make([]*hdl.Signal, c.M)
		for i := range c.M {
			col[i] = hdl.Pack(b.slots[i].At(j).T)
		}
		perSlot[j] = hdl.OneHotSelect(wbOne, col...)
	}
	hdl.DriveRecord(wb.T, hdl.Unpack(hdl.OneHotSelect(wbSlotOne, perSlot...), wb.T))
	taken := wbValid.And(b.io.WB.Ready) // WB's transfer, from wb_valid's driver
	// The PMSHR is freed when its last SMSHR leaves and no secondary joins
	// it at the same edge.
	keeps := wbSlots.And(wbSlotOne.Not()).RedOr().Or(b.secondary.And(b.hitOne.And(wbOne).RedOr()))
	release := taken.And(keeps.Not())
	b.wbTaken, b.release = taken, release
	for i, e := range b.p.Elems() {
		m.If(release.And(wbOne.Bit(i)), func() { e.V.SetU(0) })
		leave := taken.And(wbOne.Bit(i))
		for j, s := range b.slots[i].Elems() {
			m.If(leave.And(wbSlotOne.Bit(j)), func() { s.V.SetU(0) })
		}
	}
}

// fillPath is the fill side of MSHRBlock: for each PMSHR i in entries it
// calls set(i, take, piece) with take = fill_valid & "PMSHR i waits for a
// block of the packet" (V, not Y, its tag inside the packet's aligned
// range) and piece the packet's block it waits for (the 2^hmax:1
// multiplexer of Dw bits), and it returns fill_drop, the count of the
// packet's blocks no PMSHR waits for (deferred reservation, 6.4.2).
func fillPath(entries []PMSHRSignals, fillValid, fillBlk, fillHBS *hdl.Signal, fillData []*hdl.Signal, hmax int,
	set func(i int, take, piece *hdl.Signal)) *hdl.Signal {
	fillTherm := thermometer(fillHBS, hmax)
	present := make([]*hdl.Signal, len(entries)) // which block of the packet PMSHR i waits for, one-hot over 2^hmax
	for i, e := range entries {
		hi, lo := splitCompare(e.Tag, fillBlk, hmax)
		waits := e.V.And(e.Y.Not()).And(sameHyper(hi, lo, fillTherm))
		piece := fillData[0]
		onehot := waits
		if hmax > 0 {
			k := e.Tag.Slice(hmax-1, 0).And(fillTherm) // tag mod 2^G
			piece = hdl.Select(k, fillData...)
			onehot = lib.BinaryToOneHot(k, 1<<hmax).And(waits.Repl(1 << hmax))
		}
		present[i] = onehot
		set(i, fillValid.And(waits), piece)
	}
	covered := orAll(present) // bit k: some waiting PMSHR has block B(fill_blk, G) + k
	missing := make([]*hdl.Signal, 1<<hmax)
	for k := range missing {
		missing[k] = covered.Bit(k).Not()
		if k > 0 { // k < 2^G, i.e. G >= bits.Len(k)
			missing[k] = missing[k].And(fillTherm.Bit(bits.Len(uint(k)) - 1))
		}
	}
	return lib.PopCount(lib.Bus(missing)).And(fillValid.Repl(hmax + 1))
}

// FillBlock is MSHRBlock's fill path alone (fillPath), which vmshr-cost
// synthesizes to tell the logic our fill adds from the tag search Table
// 6.1 counts; with Base it is vmshr-base's (Hmax 0: one normal block, a
// full tag compare, no multiplexer). FillPorts are its ports; with Base
// there is no fill_hbs.
type FillBlock struct {
	M, Hmax, Aw, Dw int
	Base            bool
}

// FillPorts are FillBlock's ports: the fill of MSHRPorts, the PMSHRs'
// V, tag and Y, and per PMSHR whether it takes a block of the packet and
// which, and fill_drop.
type FillPorts struct {
	Fill    MSHRFill `doc:"fill"`
	Entries []PMSHRSignals
	Take    []*hdl.Signal `doc:"PMSHR i takes a block of the packet"`
	Piece   []*hdl.Signal `doc:"[dw-1:0] the block PMSHR i takes"`
	Drop    *hdl.Signal   `doc:"[hmax:0] the packet's blocks no PMSHR waits for"`
}

// Build makes the module called name.
func (c FillBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (c FillBlock) WithPorts(name string) (*hdl.Module, FillPorts) {
	if c.Base {
		c.Hmax = 0
	}
	m := hdl.NewModule(name)
	gw := hbsWidth(c.Hmax)
	in := m.InputFields("fill")
	p := FillPorts{Fill: MSHRFill{Valid: in("valid", 1), Blk: in("blk", c.Aw)}}
	fillHBS := m.ConstU(gw, 0)
	if !c.Base {
		fillHBS = in("hbs", gw)
		p.Fill.HBS = []*hdl.Signal{fillHBS}
	}
	p.Fill.Data = in.Vec("data", 1<<c.Hmax, c.Dw)
	for i := range c.M {
		f := m.InputFields("", i)
		p.Entries = append(p.Entries, PMSHRSignals{f("v", 1), f("tag", c.Aw), f("y", 1)})
	}
	drop := fillPath(p.Entries, p.Fill.Valid, p.Fill.Blk, fillHBS, p.Fill.Data, c.Hmax, func(i int, take, piece *hdl.Signal) {
		f := m.OutputFields("", i)
		p.Take, p.Piece = append(p.Take, f("take", 1)), append(p.Piece, f("piece", c.Dw))
		p.Take[i].Drive(take)
		p.Piece[i].Drive(piece)
	})
	p.Drop = m.Output("fill_drop", c.Hmax+1)
	p.Drop.Drive(drop)
	return m, p
}

// clampHBS is g(hbs) = min(hbs, hmax).
func clampHBS(hbs *hdl.Signal, hmax int) *hdl.Signal {
	m := hbs.Module()
	w := hbs.Width()
	switch {
	case hmax == 0:
		return m.ConstU(w, 0)
	case 1<<w-1 <= hmax: // hbs cannot exceed hmax
		return hbs
	}
	limit := m.ConstU(w, uint64(hmax))
	return hdl.Mux(hbs.Gt(limit), limit, hbs)
}

// clearLow is B(blk, h): blk with the low bits that therm (the
// thermometer code of h) marks cleared.
func clearLow(blk, therm *hdl.Signal) *hdl.Signal {
	if therm == nil {
		return blk
	}
	h, w := therm.Width(), blk.Width()
	return hdl.Concat(blk.Slice(w-1, h), blk.Slice(h-1, 0).And(therm.Not()))
}

// orAll is the bitwise OR of equal-width signals, as a balanced tree.
func orAll(s []*hdl.Signal) *hdl.Signal {
	if len(s) == 1 {
		return s[0]
	}
	return orAll(s[:len(s)/2]).Or(orAll(s[len(s)/2:]))
}
