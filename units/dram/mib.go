package dram

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// MIBBlock is the dram-mib unit: the DRAM controller's Merge Information
// Buffer of section 4.4 and Figure 4.2 (contract dram-mib); MIBPorts are
// its ports.
type MIBBlock struct {
	Entries, BlkBits, Merges, AgeBits int
}

// MIBInputs are the MIB's inputs (4.4, Figure 4.2): a read allocates
// slot alloc_idx for its block with its age; a dummy request updates
// the slots of its block with its merge length and age; a read that
// issues frees its slot.
type MIBInputs struct {
	AllocValid *hdl.Signal `doc:"a read enters slot alloc_idx"`
	AllocIdx   *hdl.Signal `doc:"[IW-1:0] the slot the read enters"`
	AllocBlk   *hdl.Signal `doc:"[blkbits-1:0] the read's block"`
	AllocAge   *hdl.Signal `doc:"[agebits-1:0] the read's age"`
	UpdValid   *hdl.Signal `doc:"a dummy request updates its block's slots"`
	UpdBlk     *hdl.Signal `doc:"[blkbits-1:0] the dummy's block"`
	UpdMlen    *hdl.Signal `doc:"[MW-1:0] the dummy's merge length"`
	UpdAge     *hdl.Signal `doc:"[agebits-1:0] the dummy's age"`
	FreeValid  *hdl.Signal `doc:"the read in slot free_idx was issued"`
	FreeIdx    *hdl.Signal `doc:"[IW-1:0] the slot freed"`
}

// MIBOut is a slot's outputs, its registered state: valid, its merge
// length and age, Rule 1's request score (4.1-4.3).
type MIBOut struct {
	V    *hdl.Signal `doc:"slot i holds a read"`
	Mlen *hdl.Signal `doc:"[MW-1:0] merge length of slot i, 0 when v = 0"`
	Age  *hdl.Signal `doc:"[agebits-1:0] age of slot i, 0 when v = 0"`
}

// MIBPorts are dram-mib's ports.
type MIBPorts struct {
	In    MIBInputs
	Slots []MIBOut
}

// mibSlots are the MIB's registers per slot, and per slot whether this
// cycle's dummy is of its block.
type mibSlots struct {
	V, Blk, Mlen, Age []*hdl.Signal
	Match             []*hdl.Signal
}

// Build makes the module called name.
func (c MIBBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (c MIBBlock) WithPorts(name string) (*hdl.Module, MIBPorts) {
	m := hdl.NewModule(name)
	iw, mw := lib.CountWidth(c.Entries-1), lib.CountWidth(c.Merges)
	f := m.InputFields("")
	p := MIBPorts{In: MIBInputs{
		AllocValid: f("alloc_valid", 1), AllocIdx: f("alloc_idx", iw),
		AllocBlk: f("alloc_blk", c.BlkBits), AllocAge: f("alloc_age", c.AgeBits),
		UpdValid: f("upd_valid", 1), UpdBlk: f("upd_blk", c.BlkBits),
		UpdMlen: f("upd_mlen", mw), UpdAge: f("upd_age", c.AgeBits),
		FreeValid: f("free_valid", 1), FreeIdx: f("free_idx", iw),
	}}
	s := mibLogic(m, "mib", c.Entries, p.In, false)
	for i := range c.Entries {
		o := m.OutputFields("", i)
		out := MIBOut{o("v", 1), o("mlen", mw), o("age", c.AgeBits)}
		hdl.DriveRecord(out, MIBOut{s.V[i], s.Mlen[i], s.Age[i]})
		p.Slots = append(p.Slots, out)
	}
	return m, p
}

// mibLogic declares the MIB's registers (<name>_v_<i>, ...) in m. At each
// edge, per slot, the first that applies: free clears it; alloc loads the
// read (merge length 1, its age); a valid slot ages by its merge length
// (4.3: each merged request ages a cycle) and a dummy of its block
// overwrites the merge length and adds its age (4.4). mlen and age are
// 0 whenever v is.
//
// firstOnly is MIB.FirstOnly: the dummy updates only the lowest valid
// slot of its block that is not freed, and each slot has one adder
// (sat(age + mlen + dummy age) = sat(sat(age + mlen) + dummy age)), the
// dummy's merge length and age added once for all slots.
func mibLogic(m *hdl.Module, name string, entries int, in MIBInputs, firstOnly bool) mibSlots {
	agebits, mw := in.AllocAge.Width(), in.UpdMlen.Width()
	var s mibSlots
	for i := range entries {
		r := m.RegFields(name, i)
		s.V = append(s.V, r("v", 1))
		s.Blk = append(s.Blk, r("blk", in.AllocBlk.Width()))
		s.Mlen = append(s.Mlen, r("mlen", mw))
		s.Age = append(s.Age, r("age", agebits))
		s.Match = append(s.Match, s.V[i].And(in.UpdValid).And(s.Blk[i].Eq(in.UpdBlk)))
	}
	freed := func(i int) *hdl.Signal { return in.FreeValid.And(in.FreeIdx.EqConst(uint64(i))) }
	var dummyAdd *hdl.Signal // firstOnly: the updated slot's merge length plus the dummy's age
	if firstOnly {
		for i := range s.Match {
			s.Match[i] = s.Match[i].And(freed(i).Not())
		}
		_, j, first := lib.Priority(lib.Bus(s.Match), false)
		s.Match = lib.Split(first)
		w := max(mw, agebits) + 1
		dummyAdd = hdl.Select(j, s.Mlen...).Zext(w).Add(in.UpdAge.Zext(w))
	}
	for i := range entries {
		v, blk, mlen, age, match := s.V[i], s.Blk[i], s.Mlen[i], s.Age[i], s.Match[i]
		var aged, updated *hdl.Signal
		if firstOnly {
			aged = satAdd(age, hdl.Mux(match, dummyAdd, mlen.Zext(dummyAdd.Width())))
			updated = aged
		} else {
			aged = satAdd(age, mlen) // a1 = sat(age + mlen)
			updated = satAdd(aged, in.UpdAge)
		}
		m.If(freed(i), func() {
			v.SetU(0)
			blk.SetU(0)
			mlen.SetU(0)
			age.SetU(0)
		}).Elif(in.AllocValid.And(in.AllocIdx.EqConst(uint64(i))), func() {
			v.SetU(1)
			blk.Set(in.AllocBlk)
			mlen.SetU(1)
			age.Set(in.AllocAge)
		}).Elif(match, func() {
			mlen.Set(in.UpdMlen)
			age.Set(updated)
		}).Elif(v, func() {
			age.Set(aged)
		})
	}
	mibProperties(m, name, in, s)
	return s
}

// satAdd is sat(a + b) in a's width: the sum is taken one bit wider than
// both and clamps to a's largest value.
func satAdd(a, b *hdl.Signal) *hdl.Signal {
	w := max(a.Width(), b.Width()) + 1
	sum := a.Zext(w).Add(b.Zext(w))
	top := a.Module().ConstU(w, ageMax(a.Width()))
	return hdl.Mux(sum.Gt(top), top, sum).Trunc(a.Width())
}

// L2MIBBlock is the dram-l2mib unit: the L2 cache's Merge Information
// Buffer of section 4.4 beside the MSHR (contract dram-l2mib);
// L2MIBPorts are its ports.
type L2MIBBlock struct {
	Entries, Merges, AgeBits int
}

// L2MIBPorts are dram-l2mib's ports (4.4): an L2 MSHR entry is
// allocated, a request merges into one with its age, one is freed; the
// dummy request carries an entry's merge length and ages to the DRAM
// controller's MIB.
type L2MIBPorts struct {
	AllocValid *hdl.Signal            `doc:"an L2 MSHR entry is allocated by a first miss"`
	AllocIdx   *hdl.Signal            `doc:"[IW-1:0] the entry allocated"`
	MrgValid   *hdl.Signal            `doc:"a request merges into entry mrg_idx"`
	MrgIdx     *hdl.Signal            `doc:"[IW-1:0] the entry merged into"`
	MrgAge     *hdl.Signal            `doc:"[agebits-1:0] the merged request's age (Eq. 4.1)"`
	FreeValid  *hdl.Signal            `doc:"entry free_idx's fill returned"`
	FreeIdx    *hdl.Signal            `doc:"[IW-1:0] the entry freed"`
	Dmy        hdl.Stream[L2MIBDummy] `doc:"dummy request"`
}

// L2MIBDummy is a dummy request: the pending entry with the largest merge
// length (then the lowest index), its merge length and the ages merged
// into it since its last dummy.
type L2MIBDummy struct {
	Idx  *hdl.Signal `doc:"[IW-1:0] the entry"`
	Mlen *hdl.Signal `doc:"[MW-1:0] its merge length, cnt+1"`
	Age  *hdl.Signal `doc:"[agebits-1:0] its ages since its last dummy"`
}

// Build makes the module called name.
func (c L2MIBBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (c L2MIBBlock) WithPorts(name string) (*hdl.Module, L2MIBPorts) {
	m := hdl.NewModule(name)
	iw, lw, mw := lib.CountWidth(c.Entries-1), lib.CountWidth(c.Merges-1), lib.CountWidth(c.Merges)
	f := m.InputFields("")
	p := L2MIBPorts{AllocValid: f("alloc_valid", 1), AllocIdx: f("alloc_idx", iw),
		MrgValid: f("mrg_valid", 1), MrgIdx: f("mrg_idx", iw), MrgAge: f("mrg_age", c.AgeBits),
		FreeValid: f("free_valid", 1), FreeIdx: f("free_idx", iw), Dmy: hdl.Stream[L2MIBDummy]{Ready: f("dmy_ready", 1)}}

	cnt := make([]*hdl.Signal, c.Entries)  // merge length - 1 (reading 1)
	age := make([]*hdl.Signal, c.Entries)  // ages merged since the last dummy
	pend := make([]*hdl.Signal, c.Entries) // a dummy is due
	for i := range c.Entries {
		r := m.RegFields("", i)
		cnt[i], age[i], pend[i] = r("cnt", lw), r("age", c.AgeBits), r("pend", 1)
	}
	// The dummy: the pending entry with the largest merge length, then the
	// lowest index ("a dummy request with the maximum request score", 4.4).
	found, idx, best := lib.Argmax(cnt, lib.Bus(pend))
	// The dummy's outputs are made here, beside their logic: where a port
	// is made fixes its place in the Verilog and its neighbours' names.
	o, dmy := m.OutputFields("dmy"), &p.Dmy.Payload
	p.Dmy.Valid, dmy.Idx = o("valid", 1), o("idx", iw)
	p.Dmy.Valid.Drive(found)
	dmy.Idx.Drive(idx)
	dmy.Mlen = o("mlen", mw)
	dmy.Mlen.Drive(best.Zext(mw).Add(m.ConstU(mw, 1)).And(found.Repl(mw)))
	dmy.Age = o("age", c.AgeBits)
	dmy.Age.Drive(hdl.Select(idx, age...))
	sent := found.And(p.Dmy.Ready) // the dummy is sent (found is dmy_valid)

	lastCnt := m.ConstU(lw, uint64(c.Merges-1))
	st := l2mibState{cnt: cnt, age: age, pend: pend, lastCnt: lastCnt}
	for i := range c.Entries {
		at := func(valid, index *hdl.Signal) *hdl.Signal { return valid.And(index.EqConst(uint64(i))) }
		clear, left, merge := at(p.FreeValid, p.FreeIdx).Or(at(p.AllocValid, p.AllocIdx)), at(sent, idx), at(p.MrgValid, p.MrgIdx)
		st.clear, st.left, st.merge = append(st.clear, clear), append(st.left, left), append(st.merge, merge)
		m.If(clear, func() {
			cnt[i].SetU(0)
			age[i].SetU(0)
			pend[i].SetU(0)
		}).Else(func() { // left: the dummy left with the ages so far
			m.If(left, func() {
				age[i].SetU(0)
				pend[i].SetU(0)
			})
			m.If(merge, func() {
				cnt[i].Set(hdl.Mux(cnt[i].Eq(lastCnt), lastCnt, cnt[i].Add(m.ConstU(lw, 1))))
				age[i].Set(satAdd(hdl.Mux(left, m.ConstU(c.AgeBits, 0), age[i]), p.MrgAge))
				pend[i].SetU(1)
			})
		})
	}
	l2mibProperties(m, st, found, p.Dmy.Ready)
	return m, p
}
