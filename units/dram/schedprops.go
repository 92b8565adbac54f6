package dram

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// properties states what dram-sched promises (DESIGN.md, dram-sched; Li,
// section 2.3 and Figure 4.2): each queue's count stays within its slots
// and equals its valid slots; the write drain has its hysteresis (on at
// hiwm writes or more, off at lowm or fewer, starting only at hiwm and
// ending only at lowm: a ghost register keeps the drain of the cycle
// before); in a drain an eligible
// write goes first, and out of one a write leaves only when no read is
// eligible; at most one request leaves a cycle. Cover points: each queue
// full and drained, the drain starting and ending, a write issued in and
// out of a drain, a read issued under each policy.
func (b *schedBuild) properties() {
	c, m, rgnt, wgnt := b.c, b.m, b.readEligible, b.writeEligible
	for _, q := range []struct {
		name  string
		q     requestQueue
		slots int
		leave *hdl.Signal
	}{{"rq", b.reads, c.Entries, b.issRead}, {"wq", b.writes, c.WEntries, b.issWrite}} {
		cw := q.q.count.Width()
		m.Assert(q.q.count.Le(m.ConstU(cw, uint64(q.slots))), q.name+"_count_le_slots", "a queue counts more requests than it has slots")
		m.Assert(q.q.count.Eq(lib.PopCount(lib.Bus(q.q.v)).Zext(cw)), q.name+"_count_is_valid_slots", "a queue's count is not its valid slots")
		m.Cover(q.q.count.EqConst(uint64(q.slots)), q.name+"_full")
		m.Cover(q.leave.And(q.q.count.EqConst(1)).And(q.q.take.Not()), q.name+"_drained")
	}
	cw := b.writes.count.Width()
	hi, lo := m.ConstU(cw, uint64(c.HiWM)), m.ConstU(cw, uint64(c.LoWM))
	m.If(b.writes.count.Ge(hi), func() { m.Assert(b.drain, "drain_at_hiwm", "hiwm writes or more are queued and no drain runs") })
	m.If(b.writes.count.Le(lo), func() {
		m.Assert(b.drain.Not(), "no_drain_at_lowm", "lowm writes or fewer are queued and a drain runs")
	})
	was := m.Reg("ghost_drain_was", 1)
	was.Set(b.drain)
	m.If(b.drain.And(was.Not()), func() { m.Assert(b.writes.count.Ge(hi), "drain_starts_at_hiwm", "a drain started below hiwm writes") })
	m.If(b.drain.Not().And(was), func() { m.Assert(b.writes.count.Le(lo), "drain_ends_at_lowm", "a drain ended above lowm writes") })
	m.If(b.drain.And(wgnt), func() { m.Assert(b.issWrite, "drain_writes_first", "in a drain an eligible write did not leave") })
	m.If(b.drain.Not().And(rgnt), func() { m.Assert(b.issRead, "reads_first", "out of a drain an eligible read did not leave") })
	m.Assert(b.issRead.And(b.issWrite).Not(), "one_request", "a read and a write left in one cycle")
	m.Cover(b.drain.And(was.Not()), "drain_starts")
	m.Cover(b.drain.Not().And(was), "drain_ends")
	m.Cover(b.drain.And(b.issWrite).And(rgnt), "write_in_drain_over_read")
	m.Cover(b.drain.Not().And(b.issWrite), "write_without_drain")
	if c.Scores != NoScores {
		for pol := range 4 {
			m.Cover(b.issRead.And(b.p.Pol.EqConst(uint64(pol))), fmt.Sprintf("read_under_pol_%d", pol))
		}
	}
}
