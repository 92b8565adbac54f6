package dram

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// CmdQBlock is the dram-cmdq unit: the per-bank command queues of section
// 2.3 and Figure 2.3 with the GDDR5 timing of Table 5.1 (contract
// dram-cmdq). CmdQ is the same in plain Go.
//
//	clk, rst; in req_valid, req_write, req_bank, req_row, req_tag; out rdy_<b>
//	out cmd_valid, cmd_op[1:0], cmd_bank, cmd_row; out done_valid, done_write, done_tag
type CmdQBlock struct {
	BankBits, BGBits, Depth, RowBits, TagBits int
	T                                         Timing
}

// cmdReq is a request in a bank's queue.
type cmdReq struct{ Write, Row, Tag *hdl.Signal }

// Build makes the module called name.
func (c CmdQBlock) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	t, n := c.T, 1<<c.BankBits
	reqValid, reqWrite := m.Input("req_valid", 1), m.Input("req_write", 1)
	reqBank, reqRow, reqTag := m.Input("req_bank", c.BankBits), m.Input("req_row", c.RowBits), m.Input("req_tag", c.TagBits)

	// Every constraint is a down-counter that a command may pass at 0;
	// issuing loads the counters it constrains with the gap less one.
	cw := lib.CountWidth(max(t.RC, t.RP, t.RCD, t.RAS, t.RTPL, t.writeToPre(), t.CCDL, t.CCDS, t.RRD, t.writeToRead(), t.readToWrite()))
	counters := &countdowns{m: m, width: cw}
	issued, issuedBank, issuedOp := m.Wire("issued", 1), m.Wire("issued_bank", c.BankBits), m.Wire("issued_op", 2)
	is := func(op Op) *hdl.Signal { return issued.And(issuedOp.EqConst(uint64(op))) }
	column := is(RD).Or(is(WR))
	rrd := counters.add("rrd_wait", wait{is(ACT), t.RRD})
	ccds := counters.add("ccds_wait", wait{column, t.CCDS})
	rdWait := counters.add("rd_wait", wait{is(WR), t.writeToRead()})
	wrWait := counters.add("wr_wait", wait{is(RD), t.readToWrite()})
	groupBits := c.BankBits - c.BGBits
	var ccdl []*hdl.Signal
	for g := range 1 << c.BGBits {
		inGroup := issuedBank.Shr(groupBits).Trunc(max(1, c.BGBits)).EqConst(uint64(g))
		if c.BGBits == 0 {
			inGroup = m.ConstU(1, 1)
		}
		ccdl = append(ccdl, counters.add(fmt.Sprintf("ccdl_wait_%d", g), wait{column.And(inGroup), t.CCDL}))
	}

	// The data's completion, tcl+tburst after RD and twl+tburst after WR: a
	// delay line whose stage k completes k cycles from now.
	lines := max(t.ReadDone(), t.WriteDone())
	type done struct{ Valid, Write, Tag *hdl.Signal }
	line := make([]done, lines)
	for k := range line {
		line[k] = done{m.Reg(fmt.Sprintf("done_v_%d", k), 1), m.Reg(fmt.Sprintf("done_w_%d", k), 1),
			m.Reg(fmt.Sprintf("done_tag_%d", k), c.TagBits)}
	}
	slotFree := func(lat int) *hdl.Signal { // the stage lat-1 is free after the edge
		if lat >= lines {
			return m.ConstU(1, 1)
		}
		return line[lat].Valid.Not()
	}

	legal := make([]*hdl.Signal, n)
	ops := make([]*hdl.Signal, n)
	rows := make([]*hdl.Signal, n)
	tags := make([]*hdl.Signal, n)
	writes := make([]*hdl.Signal, n)
	for b := range n {
		pop := m.Wire(fmt.Sprintf("pop_%d", b), 1)
		q := lib.NewQueue(m, fmt.Sprintf("queue_%d", b), c.Depth, reqValid.And(reqBank.EqConst(uint64(b))),
			cmdReq{reqWrite, reqRow, reqTag}, pop)
		m.Output(fmt.Sprintf("rdy_%d", b), 1).Drive(q.InReady)
		openV, openRow := m.Reg(fmt.Sprintf("open_v_%d", b), 1), m.Reg(fmt.Sprintf("open_row_%d", b), c.RowBits)
		here := issued.And(issuedBank.EqConst(uint64(b)))
		act := counters.add(fmt.Sprintf("act_wait_%d", b), wait{here.And(is(ACT)), t.RC}, wait{here.And(is(PRE)), t.RP})
		col := counters.add(fmt.Sprintf("col_wait_%d", b), wait{here.And(is(ACT)), t.RCD})
		pre := counters.add(fmt.Sprintf("pre_wait_%d", b),
			wait{here.And(is(ACT)), t.RAS}, wait{here.And(is(RD)), t.RTPL}, wait{here.And(is(WR)), t.writeToPre()})
		group := ccdl[0]
		if c.BGBits > 0 {
			group = ccdl[b>>groupBits]
		}

		// The head's next command, from its bank's state (open page).
		needAct := openV.Not()
		needPre := openV.And(openRow.Ne(q.Out.Row))
		colOK := zero(col).And(zero(group)).And(zero(ccds)).And(hdl.Mux(q.Out.Write,
			zero(wrWait).And(slotFree(t.WriteDone())), zero(rdWait).And(slotFree(t.ReadDone()))))
		legal[b] = q.OutValid.And(hdl.Mux(needAct, zero(act).And(zero(rrd)), hdl.Mux(needPre, zero(pre), colOK)))
		colOp := hdl.Mux(q.Out.Write, m.ConstU(2, uint64(WR)), m.ConstU(2, uint64(RD)))
		ops[b] = hdl.Mux(needAct, m.ConstU(2, uint64(ACT)), hdl.Mux(needPre, m.ConstU(2, uint64(PRE)), colOp))
		rows[b], tags[b], writes[b] = q.Out.Row, q.Out.Tag, q.Out.Write
		pop.Drive(here.And(column))
		m.If(here.And(is(ACT)), func() {
			openV.SetU(1)
			openRow.Set(q.Out.Row)
		}).Elif(here.And(is(PRE)), func() { openV.SetU(0) })
	}
	counters.update()

	// Banks round robin, starting after the bank that issued last.
	valid, idx, _ := lib.RoundRobin(m, "rr", lib.Bus(legal), m.ConstU(1, 1))
	issued.Drive(valid)
	issuedBank.Drive(idx)
	issuedOp.Drive(hdl.Select(idx, ops...).And(valid.Repl(2)))
	m.Output("cmd_valid", 1).Drive(valid)
	m.Output("cmd_op", 2).Drive(issuedOp)
	m.Output("cmd_bank", c.BankBits).Drive(idx)
	m.Output("cmd_row", c.RowBits).Drive(hdl.Select(idx, rows...).And(valid.Repl(c.RowBits)))

	m.Output("done_valid", 1).Drive(line[0].Valid)
	m.Output("done_write", 1).Drive(line[0].Write)
	m.Output("done_tag", c.TagBits).Drive(line[0].Tag)
	tag, write := hdl.Select(idx, tags...), hdl.Select(idx, writes...)
	for k := range line {
		next := done{m.ConstU(1, 0), m.ConstU(1, 0), m.ConstU(c.TagBits, 0)}
		if k+1 < lines {
			next = line[k+1]
		}
		enters := column.And(hdl.Mux(write, m.ConstU(1, b2u(k == t.WriteDone()-1)), m.ConstU(1, b2u(k == t.ReadDone()-1))))
		line[k].Valid.Drive(next.Valid.Or(enters))
		line[k].Write.Drive(hdl.Mux(enters, write, next.Write))
		line[k].Tag.Drive(hdl.Mux(enters, tag, next.Tag))
	}
	return m
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func zero(s *hdl.Signal) *hdl.Signal { return s.EqConst(0) }

// wait is a constraint a command imposes: when cond, the counter waits
// gap cycles.
type wait struct {
	cond *hdl.Signal
	gap  int
}

// countdowns are the timing counters of a module: each decrements to 0
// and takes the largest gap-1 of the loads that apply.
type countdowns struct {
	m     *hdl.Module
	width int
	regs  []*hdl.Signal
	loads [][]wait
}

// add declares a counter register called name.
func (c *countdowns) add(name string, loads ...wait) *hdl.Signal {
	r := c.m.Reg(name, c.width)
	c.regs, c.loads = append(c.regs, r), append(c.loads, loads)
	return r
}

// update drives every counter's next value; call it once the loads'
// conditions are all declared.
func (c *countdowns) update() {
	for i, r := range c.regs {
		next := hdl.Mux(zero(r), r, r.Sub(c.m.ConstU(c.width, 1)))
		for _, l := range c.loads[i] {
			g := c.m.ConstU(c.width, uint64(l.gap-1))
			next = hdl.Mux(l.cond.And(g.Gt(next)), g, next)
		}
		r.Drive(next)
	}
}
