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
// its contract in plain Go.
//
//	clk, rst
//	in req_valid, req_blk[Aw-1:0], req_hbs[GW-1:0], req_tid[Tw-1:0], req_reg[Rw-1:0],
//	   req_off[Ow-1:0], req_fmt[Fw-1:0], icnt_ready
//	out req_kind[1:0], mshr_alloc_fail, fire_read_packet, fire_blk[Aw-1:0], fire_hbs[GW-1:0],
//	    alloc_entry[EW-1:0], alloc_slot[SW-1:0]
//	in fill_valid, fill_blk[Aw-1:0], fill_hbs[GW-1:0], fill_data_<k>[Dw-1:0] for k < 2^Hmax
//	out fill_drop[Hmax:0]
//	in wb_ready; out wb_valid, wb_entry[EW-1:0], wb_slot[SW-1:0], wb_blk[Aw-1:0],
//	    wb_tid, wb_reg, wb_off, wb_fmt, wb_data[Dw-1:0]
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

// pmshr is a primary MSHR's registers besides HBS and Data.
type pmshr struct{ V, Tag, Y *hdl.Signal }

// target is where a load's data goes (Tid, R, O, F of Fig. 6.5(a)).
type target struct{ Tid, Reg, Off, Fmt *hdl.Signal }

// smshr is a secondary MSHR.
type smshr struct {
	V *hdl.Signal
	T target
}

// Build makes the module called name; its tag search is the sub-module
// <name>_match. It is built in Fig. 6.5's parts: the ports, the PMSHR and
// SMSHR registers, the request's tag search and kind, the MSHRs each kind
// takes, the fill, and the writeback; each part sets the registers it
// decides.
func (c MSHRBlock) Build(name string) *hdl.Module {
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
	return b.m
}

// mshrBuild is an MSHR under construction: its ports, its registers and
// the decisions its parts share.
type mshrBuild struct {
	c             MSHRBlock
	m             *hdl.Module
	hmax, gw      int // Hmax, HBS width
	ew, sw        int // entry and slot index widths
	zeroHBS       *hdl.Signal
	hasHBS        bool // at hmax 0 every HBS is 0: no registers
	reqValid      *hdl.Signal
	reqBlk        *hdl.Signal
	reqHBS        *hdl.Signal
	req           target
	icntReady     *hdl.Signal
	kindOut       *hdl.Signal
	failOut       *hdl.Signal
	fireOut       *hdl.Signal
	fireBlkOut    *hdl.Signal
	fireHBSOut    *hdl.Signal // nil in vmshr-base
	allocEntryOut *hdl.Signal
	allocSlotOut  *hdl.Signal
	fillValid     *hdl.Signal
	fillBlk       *hdl.Signal
	fillHBS       *hdl.Signal
	fillData      []*hdl.Signal
	fillDropOut   *hdl.Signal
	wbReady       *hdl.Signal
	wbValidOut    *hdl.Signal
	wbEntryOut    *hdl.Signal
	wbSlotOut     *hdl.Signal
	wbBlkOut      *hdl.Signal
	wbOut         target
	wbDataOut     *hdl.Signal

	// State.
	p          *hdl.Array[pmshr]
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
}

// ports declares the module's ports.
func (b *mshrBuild) ports() {
	c, m := b.c, b.m
	b.hasHBS = b.hmax > 0
	b.reqValid, b.reqBlk = m.Input("req_valid", 1), m.Input("req_blk", c.Aw)
	b.reqHBS = b.zeroHBS
	if !c.Base {
		b.reqHBS = m.Input("req_hbs", b.gw)
	}
	b.req = target{m.Input("req_tid", c.Tw), m.Input("req_reg", c.Rw), m.Input("req_off", c.Ow), m.Input("req_fmt", c.Fw)}
	b.icntReady = m.Input("icnt_ready", 1)
	b.kindOut, b.failOut, b.fireOut = m.Output("req_kind", 2), m.Output("mshr_alloc_fail", 1), m.Output("fire_read_packet", 1)
	b.fireBlkOut = m.Output("fire_blk", c.Aw)
	if !c.Base {
		b.fireHBSOut = m.Output("fire_hbs", b.gw)
	}
	b.allocEntryOut, b.allocSlotOut = m.Output("alloc_entry", b.ew), m.Output("alloc_slot", b.sw)

	b.fillValid, b.fillBlk = m.Input("fill_valid", 1), m.Input("fill_blk", c.Aw)
	b.fillHBS = b.zeroHBS
	if !c.Base {
		b.fillHBS = m.Input("fill_hbs", b.gw)
	}
	b.fillData = m.InputFields("fill").Vec("data", 1<<b.hmax, c.Dw)
	b.fillDropOut = m.Output("fill_drop", b.hmax+1)

	b.wbReady = m.Input("wb_ready", 1)
	b.wbValidOut, b.wbEntryOut, b.wbSlotOut = m.Output("wb_valid", 1), m.Output("wb_entry", b.ew), m.Output("wb_slot", b.sw)
	b.wbBlkOut = m.Output("wb_blk", c.Aw)
	b.wbOut = target{m.Output("wb_tid", c.Tw), m.Output("wb_reg", c.Rw), m.Output("wb_off", c.Ow), m.Output("wb_fmt", c.Fw)}
	b.wbDataOut = m.Output("wb_data", c.Dw)
}

// state declares the PMSHRs (V, tag, Y, data and HBS) and each one's
// SMSHRs (Fig. 6.5).
func (b *mshrBuild) state() {
	c, m := b.c, b.m
	b.p = hdl.RegArray(m, "p", c.M, func(f hdl.Fields) pmshr { return pmshr{f("v", 1), f("tag", c.Aw), f("y", 1)} })
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
			return smshr{f("v", 1), target{f("tid", c.Tw), f("reg", c.Rw), f("off", c.Ow), f("fmt", c.Fw)}}
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
	search.In.Blk.Drive(b.reqBlk)
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
	fail := b.reqValid.And(b.fillValid.Or(full))
	b.failOut.Drive(fail)
	b.accepted = b.reqValid.And(fail.Not())
	b.secondary = b.accepted.And(search.Out.Any)
	fireHBS := clampHBS(b.reqHBS, b.hmax)
	if b.fireHBSOut != nil {
		b.fireHBSOut.Drive(fireHBS)
	}
	b.fireBlkOut.Drive(clearLow(b.reqBlk, thermometer(b.reqHBS, b.hmax)))

	// The kind as File.Classify reads the search (6.4.1's primary and
	// secondary loads, 6.4.2's deferred one) and what each kind needs: a
	// secondary load a free SMSHR of E; a deferred one a free PMSHR (the
	// lowest: alloc_entry for every kind but secondary); a primary one a
	// free PMSHR and an interconnect buffer for the packet it fires, whose
	// HBS its PMSHR records (a deferred load's records 0: deferred
	// reservation keeps a normal block).
	b.kind, b.newHBS = m.Wire("kind", 2), m.Wire("new_hbs", b.gw)
	b.allocEntryOut.Set(freeIdx)
	b.allocSlotOut.SetU(0)
	b.fireOut.SetU(0)
	b.newHBS.Set(b.zeroHBS)
	m.If(search.Out.Any, func() { // a PMSHR E holds the block: secondary
		b.kind.SetU(uint64(Secondary))
		b.allocEntryOut.Set(search.Out.Idx)
		b.allocSlotOut.Set(slotIdx)
		full.Set(slotFree.Not())
	}).Elif(search.Out.Primary.Not(), func() { // a pending hyper block covers it: deferred
		b.kind.SetU(uint64(Deferred))
		full.Set(anyFree.Not())
	}).Else(func() { // a new block: primary
		b.kind.SetU(uint64(Primary))
		full.Set(anyFree.Not().Or(b.icntReady.Not()))
		b.fireOut.Set(b.accepted)
		b.newHBS.Set(fireHBS)
	})
	b.kindOut.SetU(uint64(Idle))
	m.If(b.reqValid, func() { b.kindOut.Set(b.kind) })
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
						m.If(b.slotOne.Bit(j), func() { hdl.SetRecord(s, smshr{one, b.req}) })
					}
				})
			}
		}).Cases([]uint64{uint64(Primary), uint64(Deferred)}, func() {
			for i, e := range b.p.Elems() {
				m.If(b.freeOne.Bit(i), func() {
					e.V.SetU(1)
					e.Tag.Set(b.reqBlk)
					e.Y.SetU(0)
					if b.hasHBS {
						b.hbs[i].Set(b.newHBS)
					}
					for j, s := range b.slots[i].Elems() {
						if j == 0 {
							hdl.SetRecord(s, smshr{one, b.req})
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
	b.fillDropOut.Drive(fillPath(b.p.Elems(), b.fillValid, b.fillBlk, b.fillHBS, b.fillData, b.hmax, func(i int, take, piece *hdl.Signal) {
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
	b.wbValidOut.Drive(wbValid)
	b.wbEntryOut.Drive(wbIdx)
	b.wbSlotOut.Drive(wbSlotIdx)
	tags, datas := make([]*hdl.Signal, c.M), b.data.Elems()
	for i, e := range b.p.Elems() {
		tags[i] = e.Tag
	}
	b.wbBlkOut.Drive(hdl.OneHotSelect(wbOne, tags...))
	b.wbDataOut.Drive(hdl.OneHotSelect(wbOne, datas...))
	perSlot := make([]*hdl.Signal, c.S) // slot j's target of the writeback PMSHR
	for j := range c.S {
		col := make([]*hdl.Signal, c.M)
		for i := range c.M {
			col[i] = hdl.Pack(b.slots[i].At(j).T)
		}
		perSlot[j] = hdl.OneHotSelect(wbOne, col...)
	}
	hdl.DriveRecord(b.wbOut, hdl.Unpack(hdl.OneHotSelect(wbSlotOne, perSlot...), b.wbOut))
	taken := wbValid.And(b.wbReady)
	// The PMSHR is freed when its last SMSHR leaves and no secondary joins
	// it at the same edge.
	keeps := wbSlots.And(wbSlotOne.Not()).RedOr().Or(b.secondary.And(b.hitOne.And(wbOne).RedOr()))
	release := taken.And(keeps.Not())
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
func fillPath(entries []pmshr, fillValid, fillBlk, fillHBS *hdl.Signal, fillData []*hdl.Signal, hmax int,
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
// full tag compare, no multiplexer).
//
//	in fill_valid, fill_blk[Aw-1:0], fill_hbs[GW-1:0], fill_data_<k>[Dw-1:0] for k < 2^Hmax;
//	   for i < M: v_<i>, y_<i>, tag_<i>[Aw-1:0]
//	out take_<i>, piece_<i>[Dw-1:0] for i < M; fill_drop[Hmax:0]
//
// With Base there is no fill_hbs.
type FillBlock struct {
	M, Hmax, Aw, Dw int
	Base            bool
}

// Build makes the module called name.
func (c FillBlock) Build(name string) *hdl.Module {
	if c.Base {
		c.Hmax = 0
	}
	m := hdl.NewModule(name)
	fillValid, fillBlk := m.Input("fill_valid", 1), m.Input("fill_blk", c.Aw)
	fillHBS := m.ConstU(hbsWidth(c.Hmax), 0)
	if !c.Base {
		fillHBS = m.Input("fill_hbs", hbsWidth(c.Hmax))
	}
	fillData := m.InputFields("fill").Vec("data", 1<<c.Hmax, c.Dw)
	entries := make([]pmshr, c.M)
	for i := range entries {
		f := m.InputFields("", i)
		entries[i] = pmshr{f("v", 1), f("tag", c.Aw), f("y", 1)}
	}
	drop := fillPath(entries, fillValid, fillBlk, fillHBS, fillData, c.Hmax, func(i int, take, piece *hdl.Signal) {
		f := m.OutputFields("", i)
		f("take", 1).Drive(take)
		f("piece", c.Dw).Drive(piece)
	})
	m.Output("fill_drop", c.Hmax+1).Drive(drop)
	return m
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
