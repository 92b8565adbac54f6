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

// cmdqBuild is a dram-cmdq under construction: the command issued this
// cycle (wires the banks read and the arbiter drives), the timing
// counters and the completion delay line.
type cmdqBuild struct {
	c                            CmdQBlock
	m                            *hdl.Module
	issued, issuedBank, issuedOp *hdl.Signal
	column                       *hdl.Signal // a RD or WR issued
	counters                     *countdowns
	rrd, ccds, rdWait, wrWait    *hdl.Signal // the constraints across banks
	ccdl                         []*hdl.Signal
	line                         []done
}

// done is a stage of the completion delay line.
type done struct{ Valid, Write, Tag *hdl.Signal }

// bankHead is a bank's head request and the command it needs.
type bankHead struct {
	legal, op, row, tag, write *hdl.Signal
}

// is is "op was issued this cycle".
func (b *cmdqBuild) is(op Op) *hdl.Signal { return b.issued.And(b.issuedOp.EqConst(uint64(op))) }

// Build makes the module called name: the timing constraints, the
// completion delay line, a queue per bank with the command its head needs
// (section 2.3: open page), and the round-robin choice of a bank whose
// command is legal.
func (c CmdQBlock) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	reqValid, reqWrite := m.Input("req_valid", 1), m.Input("req_write", 1)
	reqBank, reqRow, reqTag := m.Input("req_bank", c.BankBits), m.Input("req_row", c.RowBits), m.Input("req_tag", c.TagBits)
	b := &cmdqBuild{c: c, m: m}
	b.constraints()
	b.delayLine()
	heads := make([]bankHead, 1<<c.BankBits)
	for k := range heads {
		heads[k] = b.bank(k, reqValid, reqBank, cmdReq{reqWrite, reqRow, reqTag})
	}
	b.counters.update()
	b.issue(heads)
	return m
}

// constraints declares the timing constraints across banks: every
// constraint is a down-counter that a command may pass at 0; issuing
// loads the counters it constrains with the gap less one.
func (b *cmdqBuild) constraints() {
	c, m, t := b.c, b.m, b.c.T
	cw := lib.CountWidth(max(t.RC, t.RP, t.RCD, t.RAS, t.RTPL, t.writeToPre(), t.CCDL, t.CCDS, t.RRD, t.writeToRead(), t.readToWrite()))
	b.counters = &countdowns{m: m, width: cw}
	b.issued, b.issuedBank, b.issuedOp = m.Wire("issued", 1), m.Wire("issued_bank", c.BankBits), m.Wire("issued_op", 2)
	b.column = b.is(RD).Or(b.is(WR))
	b.rrd = b.counters.add("rrd_wait", wait{b.is(ACT), t.RRD})
	b.ccds = b.counters.add("ccds_wait", wait{b.column, t.CCDS})
	b.rdWait = b.counters.add("rd_wait", wait{b.is(WR), t.writeToRead()})
	b.wrWait = b.counters.add("wr_wait", wait{b.is(RD), t.readToWrite()})
	groupBits := c.BankBits - c.BGBits
	for g := range 1 << c.BGBits {
		inGroup := b.issuedBank.Shr(groupBits).Trunc(max(1, c.BGBits)).EqConst(uint64(g))
		if c.BGBits == 0 {
			inGroup = m.ConstU(1, 1)
		}
		b.ccdl = append(b.ccdl, b.counters.add(fmt.Sprintf("ccdl_wait_%d", g), wait{b.column.And(inGroup), t.CCDL}))
	}
}

// delayLine declares the data's completion, tcl+tburst after RD and
// twl+tburst after WR: a delay line whose stage k completes k cycles from
// now.
func (b *cmdqBuild) delayLine() {
	t := b.c.T
	b.line = make([]done, max(t.ReadDone(), t.WriteDone()))
	for k := range b.line {
		b.line[k] = done{b.m.Reg(fmt.Sprintf("done_v_%d", k), 1), b.m.Reg(fmt.Sprintf("done_w_%d", k), 1),
			b.m.Reg(fmt.Sprintf("done_tag_%d", k), b.c.TagBits)}
	}
}

// slotFree is "the delay line's stage lat-1 is free after the edge".
func (b *cmdqBuild) slotFree(lat int) *hdl.Signal {
	if lat >= len(b.line) {
		return b.m.ConstU(1, 1)
	}
	return b.line[lat].Valid.Not()
}

// bank is bank k's queue (taking req when valid for bank k), its open
// row and its own constraints, and the command its head needs next, from
// the bank's state (open page).
func (b *cmdqBuild) bank(k int, valid, bank *hdl.Signal, req cmdReq) bankHead {
	c, m, t := b.c, b.m, b.c.T
	pop := m.Wire(fmt.Sprintf("pop_%d", k), 1)
	q := lib.NewQueue(m, fmt.Sprintf("queue_%d", k), c.Depth, valid.And(bank.EqConst(uint64(k))), req, pop)
	m.Output(fmt.Sprintf("rdy_%d", k), 1).Drive(q.InReady)
	openV, openRow := m.Reg(fmt.Sprintf("open_v_%d", k), 1), m.Reg(fmt.Sprintf("open_row_%d", k), c.RowBits)
	here := b.issued.And(b.issuedBank.EqConst(uint64(k)))
	act := b.counters.add(fmt.Sprintf("act_wait_%d", k), wait{here.And(b.is(ACT)), t.RC}, wait{here.And(b.is(PRE)), t.RP})
	col := b.counters.add(fmt.Sprintf("col_wait_%d", k), wait{here.And(b.is(ACT)), t.RCD})
	pre := b.counters.add(fmt.Sprintf("pre_wait_%d", k),
		wait{here.And(b.is(ACT)), t.RAS}, wait{here.And(b.is(RD)), t.RTPL}, wait{here.And(b.is(WR)), t.writeToPre()})
	group := b.ccdl[0]
	if c.BGBits > 0 {
		group = b.ccdl[k>>(c.BankBits-c.BGBits)]
	}

	needAct := openV.Not()
	needPre := openV.And(openRow.Ne(q.Out.Row))
	colOK := zero(col).And(zero(group)).And(zero(b.ccds)).And(hdl.Mux(q.Out.Write,
		zero(b.wrWait).And(b.slotFree(t.WriteDone())), zero(b.rdWait).And(b.slotFree(t.ReadDone()))))
	legal := q.OutValid.And(hdl.Mux(needAct, zero(act).And(zero(b.rrd)), hdl.Mux(needPre, zero(pre), colOK)))
	colOp := hdl.Mux(q.Out.Write, m.ConstU(2, uint64(WR)), m.ConstU(2, uint64(RD)))
	op := hdl.Mux(needAct, m.ConstU(2, uint64(ACT)), hdl.Mux(needPre, m.ConstU(2, uint64(PRE)), colOp))
	pop.Drive(here.And(b.column))
	m.If(here.And(b.is(ACT)), func() {
		openV.SetU(1)
		openRow.Set(q.Out.Row)
	}).Elif(here.And(b.is(PRE)), func() { openV.SetU(0) })
	return bankHead{legal: legal, op: op, row: q.Out.Row, tag: q.Out.Tag, write: q.Out.Write}
}

// issue: banks round robin, starting after the bank that issued last;
// the issued column command enters the delay line at its completion.
func (b *cmdqBuild) issue(heads []bankHead) {
	c, m, t := b.c, b.m, b.c.T
	legal, ops, rows, tags, writes := make([]*hdl.Signal, len(heads)), make([]*hdl.Signal, len(heads)),
		make([]*hdl.Signal, len(heads)), make([]*hdl.Signal, len(heads)), make([]*hdl.Signal, len(heads))
	for k, h := range heads {
		legal[k], ops[k], rows[k], tags[k], writes[k] = h.legal, h.op, h.row, h.tag, h.write
	}
	valid, idx, _ := lib.RoundRobin(m, "rr", lib.Bus(legal), m.ConstU(1, 1))
	b.issued.Drive(valid)
	b.issuedBank.Drive(idx)
	b.issuedOp.Drive(hdl.Select(idx, ops...).And(valid.Repl(2)))
	m.Output("cmd_valid", 1).Drive(valid)
	m.Output("cmd_op", 2).Drive(b.issuedOp)
	m.Output("cmd_bank", c.BankBits).Drive(idx)
	m.Output("cmd_row", c.RowBits).Drive(hdl.Select(idx, rows...).And(valid.Repl(c.RowBits)))

	line := b.line
	m.Output("done_valid", 1).Drive(line[0].Valid)
	m.Output("done_write", 1).Drive(line[0].Write)
	m.Output("done_tag", c.TagBits).Drive(line[0].Tag)
	tag, write := hdl.Select(idx, tags...), hdl.Select(idx, writes...)
	for k := range line {
		next := done{m.ConstU(1, 0), m.ConstU(1, 0), m.ConstU(c.TagBits, 0)}
		if k+1 < len(line) {
			next = line[k+1]
		}
		enters := b.column.And(hdl.Mux(write, m.ConstU(1, b2u(k == t.WriteDone()-1)), m.ConstU(1, b2u(k == t.ReadDone()-1))))
		line[k].Valid.Drive(next.Valid.Or(enters))
		line[k].Write.Drive(hdl.Mux(enters, write, next.Write))
		line[k].Tag.Drive(hdl.Mux(enters, tag, next.Tag))
	}
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
