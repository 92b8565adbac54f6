package dram

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// rowTabState is what the row-score table's properties read: per entry
// its registers, and this edge's events (enter, leave, dummy) as they
// reach the entries.
type rowTabState struct {
	v, bank, row, n, mlen, age []*hdl.Signal
	hitAny, freeAny            *hdl.Signal // the entering read's row has an entry; an entry is free
	enqValid                   *hdl.Signal // a read enters (enq_valid), counted or not
	enq, deq, dmy              *hdl.Signal // the events that reach a valid entry (enter: any entry)
	enqPtr, deqPtr             *hdl.Signal
}

// properties states what the row-score table of section 4.5 promises
// (DESIGN.md, dram-rowtab): a free entry reads 0 in every field, a valid
// one counts at least one read (its last read leaving frees it), and no
// two valid entries hold the same row of the same bank (a read enters its
// row's entry when there is one), so each row has one score. Cover
// points: a read opening an entry and joining one, the last read of an
// entry leaving, a read dropped by a full table (where one can be), and a
// read entering and one leaving at the same entry.
func (c RowTabBlock) properties(m *hdl.Module, s rowTabState) {
	for r := range s.v {
		clear := s.bank[r].EqConst(0).And(s.row[r].EqConst(0)).And(s.n[r].EqConst(0)).And(s.mlen[r].EqConst(0)).And(s.age[r].EqConst(0))
		m.Assert(s.v[r].Or(clear), fmt.Sprintf("free_entry_clear_%d", r), "a free row-score entry holds a row or scores")
		m.Assert(s.v[r].Not().Or(s.n[r].EqConst(0).Not()), fmt.Sprintf("valid_entry_counts_reads_%d", r), "a valid row-score entry counts no read")
		for q := r + 1; q < len(s.v); q++ {
			same := s.v[r].And(s.v[q]).And(s.bank[r].Eq(s.bank[q])).And(s.row[r].Eq(s.row[q]))
			m.Assert(same.Not(), fmt.Sprintf("one_entry_per_row_%d_%d", r, q), "two row-score entries hold the same row")
		}
	}
	lastLeaves := make([]*hdl.Signal, len(s.v))
	for r := range s.v {
		lastLeaves[r] = s.deq.And(s.deqPtr.EqConst(uint64(r))).And(s.n[r].EqConst(1)).And(s.enq.And(s.enqPtr.EqConst(uint64(r))).Not())
	}
	m.Cover(s.enq.And(s.hitAny.Not()), "read_opens_entry")
	m.Cover(s.enq.And(s.hitAny), "read_joins_entry")
	m.Cover(lib.Bus(lastLeaves).RedOr(), "last_read_leaves")
	if !c.FedByQueue {
		m.Cover(s.enqValid.And(s.enq.Not()), "read_dropped_table_full")
	}
	m.Cover(s.enq.And(s.deq).And(s.enqPtr.Eq(s.deqPtr)), "enter_and_leave_one_entry")
}
