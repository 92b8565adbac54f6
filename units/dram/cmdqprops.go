package dram

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// timingRule is one constraint of Table 5.1 as the properties see it:
// the command it constrains (on: that command issues) must come at least
// gap cycles after the last command it follows, counted by the ghost
// since; wait is the hardware's counter that enforces it.
type timingRule struct {
	name        string
	on          *hdl.Signal
	since, wait *hdl.Signal
	gap         int
}

// cmdqGhosts counts, beside the hardware, the cycles since each kind of
// command last issued: per bank ACT, PRE, RD and WR; per bank group a
// column command; and across banks ACT, a column command, RD and WR
// (TimingChecker's lastX, as distances).
type cmdqGhosts struct {
	act, pre, rd, wr             []*hdl.Signal // per bank
	col                          []*hdl.Signal // per bank group
	anyAct, anyCol, anyRd, anyWr *hdl.Signal
}

// properties states what dram-cmdq promises (DESIGN.md, dram-cmdq; Li,
// section 2.3 and Table 5.1): every command suits its bank's state (ACT
// to a closed bank, PRE, RD and WR to an open one, RD and WR to the
// head's row, from a bank with a request queued); no command issues
// before every constraint of Table 5.1 that binds it has passed, each
// measured by a ghost counter of the cycles since the command it follows
// (and, to make the proof inductive, that the hardware's down-counter
// waits at least what the rule still needs); and completions leave in the
// order their column commands issued, none lost in the delay line (the
// contract's done, tCL+tburst after RD, tWL+tburst after WR). Cover
// points: each command kind, each completion kind, each queue drained
// (its FIFO covers full), and two banks contending for the command bus.
func (b *cmdqBuild) properties(banks []bankState) {
	m, t := b.m, b.c.T
	op := func(o Op) *hdl.Signal { return b.issued.And(b.issuedOp.EqConst(uint64(o))) }
	act, pre, rd, wr := op(ACT), op(PRE), op(RD), op(WR)
	col := rd.Or(wr)
	top := max(t.RC, t.RP, t.RCD, t.RAS, t.RTPL, t.writeToPre(), t.CCDL, t.CCDS, t.RRD, t.writeToRead(), t.readToWrite(),
		t.ReadDone(), t.WriteDone())
	since := func(by *hdl.Signal, name string, lane ...int) *hdl.Signal {
		return ghostSince(m, by, top, name, lane...)
	}
	var g cmdqGhosts
	var rules []timingRule
	for k, s := range banks {
		at := s.here.And(b.issued)
		g.act = append(g.act, since(at.And(act), "ghost_since_act", k))
		g.pre = append(g.pre, since(at.And(pre), "ghost_since_pre", k))
		g.rd = append(g.rd, since(at.And(rd), "ghost_since_rd", k))
		g.wr = append(g.wr, since(at.And(wr), "ghost_since_wr", k))
		rules = append(rules,
			timingRule{fmt.Sprintf("trp_%d", k), at.And(act), g.pre[k], s.act, t.RP},
			timingRule{fmt.Sprintf("trc_%d", k), at.And(act), g.act[k], s.act, t.RC},
			timingRule{fmt.Sprintf("tras_%d", k), at.And(pre), g.act[k], s.pre, t.RAS},
			timingRule{fmt.Sprintf("trtpl_%d", k), at.And(pre), g.rd[k], s.pre, t.RTPL},
			timingRule{fmt.Sprintf("twr_%d", k), at.And(pre), g.wr[k], s.pre, t.writeToPre()},
			timingRule{fmt.Sprintf("trcd_%d", k), at.And(col), g.act[k], s.col, t.RCD})
		b.bankProperties(k, s, act, pre, col)
	}
	for gr := range b.ccdl {
		inGroup := b.inGroup[gr].And(col)
		g.col = append(g.col, since(inGroup, "ghost_since_col", gr))
		rules = append(rules, timingRule{fmt.Sprintf("tccdl_%d", gr), inGroup, g.col[gr], b.ccdl[gr], t.CCDL})
	}
	g.anyAct, g.anyCol = since(act, "ghost_since_any_act"), since(col, "ghost_since_any_col")
	g.anyRd, g.anyWr = since(rd, "ghost_since_any_rd"), since(wr, "ghost_since_any_wr")
	rules = append(rules,
		timingRule{"trrd", act, g.anyAct, b.rrd, t.RRD},
		timingRule{"tccds", col, g.anyCol, b.ccds, t.CCDS},
		timingRule{"wr_to_rd", rd, g.anyWr, b.rdWait, t.writeToRead()},
		timingRule{"rd_to_wr", wr, g.anyRd, b.wrWait, t.readToWrite()})
	for _, r := range rules {
		gap := m.ConstU(r.since.Width(), uint64(r.gap))
		m.If(r.on, func() {
			m.Assert(r.since.Ge(gap), r.name, fmt.Sprintf("Table 5.1: %s issued fewer than %d cycles after the command it follows", r.name, r.gap))
		})
		w := max(r.since.Width(), r.wait.Width()) + 1
		m.Assert(r.wait.Zext(w).Add(r.since.Zext(w)).Ge(m.ConstU(w, uint64(r.gap))), r.name+"_counted",
			fmt.Sprintf("the counter enforcing %s waits less than the rule still needs", r.name))
	}
	b.completionProperties(g, rd, wr)
	m.Cover(act, "act")
	m.Cover(pre, "pre")
	m.Cover(rd, "rd")
	m.Cover(wr, "wr")
	m.Cover(b.p.Done.Valid.And(b.p.Done.Write.Not()), "read_done")
	m.Cover(b.p.Done.Valid.And(b.p.Done.Write), "write_done")
	legal := make([]*hdl.Signal, len(banks))
	for k, s := range banks {
		legal[k] = s.headValid.And(s.ready)
	}
	m.Cover(lib.PopCount(lib.Bus(legal)).Gt(m.ConstU(lib.CountWidth(len(banks)), 1)), "banks_contend")
}

// bankProperties: bank k's command suits its state (section 2.3, open
// page: Fig. 2.4(a)'s cases), and its queue is seen drained.
func (b *cmdqBuild) bankProperties(k int, s bankState, act, pre, col *hdl.Signal) {
	m := b.m
	m.If(s.here.And(b.issued), func() {
		m.Assert(s.headValid, fmt.Sprintf("from_queue_%d", k), "a command issued for a bank with no request queued")
		m.Assert(act.Not().Or(s.openV.Not()), fmt.Sprintf("act_closed_%d", k), "ACT to an open bank")
		m.Assert(pre.Or(col).Not().Or(s.openV), fmt.Sprintf("pre_col_open_%d", k), "PRE, RD or WR to a closed bank")
		m.Assert(col.Not().Or(s.openRow.Eq(s.head.Row)), fmt.Sprintf("col_open_row_%d", k), "RD or WR to a row that is not open")
	})
	m.Cover(s.pop.And(s.count.EqConst(1)), fmt.Sprintf("queue_drained_%d", k)) // full: the queue's own cover point
}

// completionProperties: a column command's completion enters the delay
// line behind every completion already in it (DESIGN.md, dram-cmdq: done
// in the order of the column commands, none overwritten): a WR's shorter
// latency never overtakes a RD, by Table 5.1's RD->WR turnaround
// tCL+tburst+1-tWL. The strengthening
// invariant: a completion at stage k of the line was issued lat-k cycles
// ago, so the last command of its kind was at most that long ago.
func (b *cmdqBuild) completionProperties(g cmdqGhosts, rd, wr *hdl.Signal) {
	m, t := b.m, b.c.T
	for k, d := range b.line {
		for _, kind := range []struct {
			write bool
			lat   int
			since *hdl.Signal
		}{{false, t.ReadDone(), g.anyRd}, {true, t.WriteDone(), g.anyWr}} {
			here := d.Valid.And(d.Write.Eq(m.ConstU(1, b2u(kind.write))))
			ok := m.ConstU(1, 0)
			if k < kind.lat {
				ok = kind.since.Le(m.ConstU(kind.since.Width(), uint64(kind.lat-k)))
			}
			name := fmt.Sprintf("done_%d_rd_age", k)
			if kind.write {
				name = fmt.Sprintf("done_%d_wr_age", k)
			}
			m.Assert(here.Not().Or(ok), name, "a completion in the delay line is further from its column command than its latency")
		}
	}
	for _, c := range []struct {
		on   *hdl.Signal
		lat  int
		name string
	}{{rd, t.ReadDone(), "rd_done_in_order"}, {wr, t.WriteDone(), "wr_done_in_order"}} {
		later := m.ConstU(1, 0) // a completion at stage lat or beyond: at lat-1 or beyond after the edge
		for k := c.lat; k < len(b.line); k++ {
			later = later.Or(b.line[k].Valid)
		}
		m.If(c.on, func() {
			m.Assert(later.Not(), c.name, "a column command's completion would overtake or overwrite one already in the delay line")
		})
	}
}

// ghostSince is a ghost counter of the cycles since by was last 1: 1 in
// the cycle after it, counting up to top and staying there, and top
// (long ago) after reset.
func ghostSince(m *hdl.Module, by *hdl.Signal, top int, name string, lane ...int) *hdl.Signal {
	w := lib.CountWidth(top)
	g := m.RegInitFields("", lane...)(name, hdl.MustU(w, uint64(top)))
	m.If(by, func() { g.SetU(1) }).Elif(g.Lt(m.ConstU(w, uint64(top))), func() { g.Set(g.Add(m.ConstU(w, 1))) })
	return g
}
