package dram

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// mibProperties states what the MIB of section 4.4 (mibLogic, registers
// <name>_...) promises (DESIGN.md, dram-mib): a free slot's merge length
// and age read 0, and a slot's age, kept from one edge to the next (not
// freed, not allocated), never goes down: Age_MSHR saturates at its
// width's largest value and never wraps (4.3, 4.5's 15-bit ages). A
// ghost register keeps each slot's age of the cycle before. Cover points:
// a read allocated, a dummy updating a slot, slot 0's age saturating, every
// slot valid, and a slot freed and one allocated at the same edge.
func mibProperties(m *hdl.Module, name string, in MIBInputs, s mibSlots) {
	agebits := in.AllocAge.Width()
	top := m.ConstU(agebits, ageMax(agebits))
	at := func(valid, idx *hdl.Signal, i int) *hdl.Signal { return valid.And(idx.EqConst(uint64(i))) }
	for i := range s.V {
		m.Assert(s.V[i].Or(s.Mlen[i].EqConst(0).And(s.Age[i].EqConst(0))), fmt.Sprintf("%s_free_slot_clear_%d", name, i),
			"a free MIB slot shows a merge length or an age")
		kept := m.RegFields(name+"_ghost", i)("kept", 1) // the slot was valid and neither freed nor allocated at the last edge
		was := m.RegFields(name+"_ghost", i)("age", agebits)
		kept.Set(s.V[i].And(at(in.FreeValid, in.FreeIdx, i).Not()).And(at(in.AllocValid, in.AllocIdx, i).Not()))
		was.Set(s.Age[i])
		m.If(kept, func() {
			m.Assert(s.Age[i].Ge(was), fmt.Sprintf("%s_age_never_wraps_%d", name, i), "a read's Age_MSHR went down: it wrapped instead of saturating")
		})
		if i == 0 {
			m.Cover(kept.And(was.Lt(top)).And(s.Age[i].Eq(top)), name+"_age_saturates")
		}
	}
	m.Cover(in.AllocValid, name+"_alloc")
	m.Cover(lib.Bus(s.Match).RedOr(), name+"_dummy_updates")
	m.Cover(lib.Bus(s.V).RedAnd(), name+"_all_valid")
	m.Cover(in.FreeValid.And(in.AllocValid), name+"_free_and_alloc")
}

// l2mibState is what dram-l2mib's properties read: per entry its merge
// count, its ages since the last dummy and whether a dummy is due; per
// entry whether the edge clears it (freed or allocated), merges into it,
// or sends its dummy.
type l2mibState struct {
	cnt, age, pend     []*hdl.Signal
	clear, merge, left []*hdl.Signal
	lastCnt            *hdl.Signal
}

// l2mibProperties states what the L2 MIB of section 4.4 promises
// (DESIGN.md, dram-l2mib): an entry's merge count stays below the merges
// an L2 MSHR entry takes, an entry with no dummy due holds no ages, and a
// merge that does not also send the entry's dummy never lowers its count
// or its ages: both saturate, never wrap (ghost registers keep the values
// of the cycle before). Cover points: a dummy sent, a count and an age
// saturating, a merge into the entry whose dummy leaves at that edge.
func l2mibProperties(m *hdl.Module, s l2mibState, dmyValid, dmyReady *hdl.Signal) {
	agebits := s.age[0].Width()
	top := m.ConstU(agebits, ageMax(agebits))
	for i := range s.cnt {
		m.Assert(s.cnt[i].Le(s.lastCnt), fmt.Sprintf("cnt_below_merges_%d", i), "an entry's merge count passed the merges an L2 MSHR entry takes")
		m.Assert(s.pend[i].Or(s.age[i].EqConst(0)), fmt.Sprintf("ages_only_pending_%d", i), "an entry with no dummy due holds ages")
		r := m.RegFields("ghost", i)
		merged, wasCnt, wasAge := r("merged", 1), r("cnt", s.cnt[i].Width()), r("age", agebits)
		merged.Set(s.merge[i].And(s.clear[i].Not()).And(s.left[i].Not()))
		wasCnt.Set(s.cnt[i])
		wasAge.Set(s.age[i])
		m.If(merged, func() {
			m.Assert(s.cnt[i].Ge(wasCnt), fmt.Sprintf("cnt_never_wraps_%d", i), "a merge lowered an entry's merge count: it wrapped instead of saturating")
			m.Assert(s.age[i].Ge(wasAge), fmt.Sprintf("age_never_wraps_%d", i), "a merge lowered an entry's ages: they wrapped instead of saturating")
		})
		if i == 0 {
			m.Cover(merged.And(wasCnt.Lt(s.lastCnt)).And(s.cnt[i].Eq(s.lastCnt)), "cnt_saturates")
			m.Cover(merged.And(wasAge.Lt(top)).And(s.age[i].Eq(top)), "age_saturates")
			m.Cover(s.merge[i].And(s.left[i]).And(s.clear[i].Not()), "merge_as_dummy_leaves")
		}
	}
	m.Cover(dmyValid.And(dmyReady), "dummy_sent")
	m.Cover(dmyValid.And(dmyReady.Not()), "dummy_held")
}
