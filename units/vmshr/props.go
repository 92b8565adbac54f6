package vmshr

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// allOf is 1 when every condition is (1 for none).
func allOf(m *hdl.Module, conds []*hdl.Signal) *hdl.Signal {
	if len(conds) == 0 {
		return m.ConstU(1, 1)
	}
	return lib.Bus(conds).RedAnd()
}

// properties states what the MSHR file promises (DESIGN.md, vmshr-elastic
// and vmshr-base; thesis 6.4.1-6.4.2, Fig. 6.5): a block is in at most one
// PMSHR, a PMSHR is valid exactly while it holds an SMSHR, every
// allocation takes a free MSHR, a fill writes only waiting PMSHRs inside
// its packet's aligned hyper block and drops at most the packet, and a
// writeback names a valid SMSHR of a ready PMSHR and stays offered until
// taken. The cover points are
// each kind of load accepted and each reason to refuse one, a fill taken
// and dropped, a writeback and a release, a full and an empty file (the
// full file and the refusals for it only in files small enough for the
// lockstep's random traffic to fill: requestCovers).
func (b *mshrBuild) properties() {
	c, m := b.c, b.m
	// 6.4.1: a load to a block a PMSHR holds takes an SMSHR of it, so no
	// two valid PMSHRs hold one block (vmshr-match's hit is one-hot).
	var distinct []*hdl.Signal
	for i, e := range b.p.Elems() {
		for j := i + 1; j < c.M; j++ {
			f := b.p.At(j)
			distinct = append(distinct, e.V.And(f.V).And(e.Tag.Eq(f.Tag)).Not())
		}
	}
	m.Assert(allOf(m, distinct), "one_pmshr_per_block", "two valid PMSHRs hold the same block")
	// Fig. 6.5: a PMSHR lives while a load waits in one of its SMSHRs
	// (footnote 5: the primary load takes SMSHR 0; the last writeback
	// frees it), and a free PMSHR holds no SMSHR.
	var holds []*hdl.Signal
	for i := range c.M {
		holds = append(holds, b.valid[i].Eq(b.slotsValid[i].RedOr()))
	}
	m.Assert(allOf(m, holds), "valid_pmshr_holds_smshr", "a valid PMSHR without a valid SMSHR, or a free one with one")
	b.allocProperties()
	b.fillProperties()
	b.writebackProperties()
	b.requestCovers()
}

// allocProperties: an accepted load takes a free MSHR of its kind
// (DESIGN.md's request semantics): a secondary one a free SMSHR of the
// PMSHR that holds its block, a primary or deferred one a free PMSHR.
func (b *mshrBuild) allocProperties() {
	m := b.m
	m.If(b.accepted, func() {
		m.Switch(b.kind).Case(uint64(Secondary), func() {
			free := hdl.OneHotSelect(b.hitOne, b.slotsValid...).And(b.slotOne).RedOr().Not()
			m.Assert(free.And(b.slotOne.RedOr()), "secondary_takes_free_smshr", "a secondary load overwrites a valid SMSHR")
		}).Cases([]uint64{uint64(Primary), uint64(Deferred)}, func() {
			free := lib.Bus(b.valid).And(b.freeOne).RedOr().Not()
			m.Assert(free.And(b.freeOne.RedOr()), "load_takes_free_pmshr", "a primary or deferred load overwrites a valid PMSHR")
		})
	})
}

// fillProperties: a fill writes only PMSHRs that wait (V, not Y) for a
// block inside its aligned hyper block, tag >> G == fill_blk >> G with G
// = g(fill_hbs) (6.4.2, stated here with shifts where the hardware uses
// Fig. 6.5(b)'s split compare), and drops at most the packet's 2^G
// blocks.
func (b *mshrBuild) fillProperties() {
	m, fill := b.m, b.io.Fill
	g := clampHBS(b.fillHBS, b.hmax)
	var inside []*hdl.Signal
	for i, e := range b.p.Elems() {
		ok := e.V.And(e.Y.Not()).And(e.Tag.ShrBy(g).Eq(fill.Blk.ShrBy(g)))
		inside = append(inside, b.fillTake[i].Not().Or(ok))
	}
	m.Assert(allOf(m, inside), "fill_inside_hyper_block", "a fill wrote a PMSHR outside its hyper block or one not waiting")
	if b.hmax > 0 { // else fill_drop is one bit, at most the packet's one block
		dw := b.io.FillDrop.Width()
		m.Assert(b.io.FillDrop.Le(m.ConstU(dw, 1).ShlBy(g)), "fill_drop_le_packet", "fill_drop counts more blocks than the packet has")
	}
	took := lib.Bus(b.fillTake)
	m.Cover(took.RedOr(), "fill")
	m.Cover(b.io.FillDrop.RedOr(), "fill_drop")
	if b.hmax > 0 { // one packet, two PMSHRs: a primary and the load it deferred
		m.Cover(took.And(took.Sub(m.ConstU(took.Width(), 1))).RedOr(), "fill_takes_two")
	}
}

// writebackProperties: the writeback names a valid SMSHR of a PMSHR
// whose data is ready (DESIGN.md's writeback semantics), and wb_valid,
// once 1, stays 1 until the writeback is taken: a ready PMSHR (V and Y)
// is freed only by its writeback. The payload may change meanwhile: a
// fill can make a lower PMSHR ready, and wb_entry is the lowest.
func (b *mshrBuild) writebackProperties() {
	c, m, wb := b.c, b.m, b.io.WB
	lib.StreamStable(m, hdl.Stream[struct{}]{Valid: wb.Valid, Ready: wb.Ready}, "wb_valid_held", "wb_valid fell before the writeback was taken")
	var named []*hdl.Signal
	for i := range c.M {
		for j, s := range b.slots[i].Elems() {
			at := wb.Valid.And(wb.Payload.Entry.EqConst(uint64(i))).And(wb.Payload.Slot.EqConst(uint64(j)))
			named = append(named, at.Not().Or(b.ready[i].And(s.V)))
		}
	}
	m.Assert(allOf(m, named), "wb_names_waiting_smshr", "the writeback names an invalid SMSHR or a PMSHR without data")
	m.Cover(b.wbTaken, "writeback")
	m.Cover(wb.Valid.And(wb.Ready.Not()), "writeback_stalled")
	m.Cover(b.release, "pmshr_freed")
	if b.c.S > 1 { // else no secondary is ever accepted
		m.Cover(b.wbTaken.And(b.release.Not()).And(b.secondary), "writeback_beside_secondary")
	}
}

// requestCovers: each kind of load accepted and each reason to refuse
// one; the file full and empty.
func (b *mshrBuild) requestCovers() {
	m, req := b.m, b.io.Req
	kinds := map[Kind]string{Primary: "primary", Secondary: "secondary", Deferred: "deferred"}
	for _, k := range []Kind{Primary, Secondary, Deferred} {
		if k == Deferred && b.hmax == 0 || k == Secondary && b.c.S == 1 {
			continue // no hyper block covers another block; the primary holds the only SMSHR
		}
		m.Cover(b.accepted.And(b.kind.EqConst(uint64(k))), kinds[k])
	}
	allValid := lib.Bus(b.valid).RedAnd()
	var slotsFull []*hdl.Signal
	for _, v := range b.slotsValid {
		slotsFull = append(slotsFull, v.RedAnd())
	}
	asked := req.Valid.And(b.io.Fill.Valid.Not())
	m.Cover(req.Valid.And(b.io.Fill.Valid), "refused_for_fill")
	m.Cover(asked.And(b.kind.EqConst(uint64(Primary))).And(allValid.Not()).And(b.io.IcntReady.Not()), "refused_no_icnt")
	m.Cover(lib.Bus(slotsFull).RedOr(), "smshrs_full")
	// The file full, and a load refused for it, are stated where the
	// lockstep's random traffic gets there (a family pack fails on a cover
	// point its stimulus never reaches, unless Yosys shows it unreachable,
	// which it cannot at the defaults): up to 8 PMSHRs, up to 3 SMSHRs.
	if b.c.M <= 8 {
		m.Cover(asked.And(b.kind.EqConst(uint64(Secondary)).Not()).And(allValid), "refused_no_pmshr")
		m.Cover(allValid, "pmshrs_full")
	}
	if b.c.S <= 3 {
		m.Cover(asked.And(b.kind.EqConst(uint64(Secondary))).And(b.io.Resp.Fail), "refused_no_smshr")
	}
	m.Cover(lib.Bus(b.valid).RedOr().Not(), "empty")
}
