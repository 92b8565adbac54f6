package dram

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// CmdQBlock is the dram-cmdq unit: the per-bank command queues of section
// 2.3 and Figure 2.3 with the GDDR5 timing of Table 5.1 (contract
// dram-cmdq); CmdQPorts are its ports. CmdQ is the same in plain Go.
type CmdQBlock struct {
	BankBits, BGBits, Depth, RowBits, TagBits int
	T                                         Timing
}

// CmdQPorts are dram-cmdq's ports (2.3, Figure 2.3).
type CmdQPorts struct {
	// Req is a request from the scheduler, taken by its bank's queue.
	Req CmdQReq
	Rdy []*hdl.Signal `doc:"bank i's queue can take one request"`
	// Cmd is the GDDR5 command issued.
	Cmd CmdQCmd
	// Done is a request's data completing, tCL+tburst after its RD,
	// tWL+tburst after its WR.
	Done CmdDone
}

// CmdQReq is a request for a bank's queue.
type CmdQReq struct {
	Valid *hdl.Signal `doc:"a request from the scheduler"`
	Write *hdl.Signal `doc:"the request is a write"`
	Bank  *hdl.Signal `doc:"[bankbits-1:0] the request's bank"`
	Row   *hdl.Signal `doc:"[rowbits-1:0] the request's row"`
	Tag   *hdl.Signal `doc:"[tagbits-1:0] the request's tag"`
}

// CmdQCmd is a command to the DRAM: ACT, PRE, RD or WR, its bank and row.
type CmdQCmd struct {
	Valid *hdl.Signal `doc:"a command is issued"`
	Op    *hdl.Signal `doc:"the command: 0 ACT, 1 PRE, 2 RD, 3 WR"`
	Bank  *hdl.Signal `doc:"[bankbits-1:0] the command's bank"`
	Row   *hdl.Signal `doc:"[rowbits-1:0] the command's row"`
}

// cmdReq is a request in a bank's queue.
type cmdReq struct{ Write, Row, Tag *hdl.Signal }

// cmdqBuild is a dram-cmdq under construction: the command issued this
// cycle (wires the banks read and the arbiter drives), the timing
// counters and the completion delay line.
type cmdqBuild struct {
	c                            CmdQBlock
	m                            *hdl.Module
	p                            CmdQPorts
	issued, issuedBank, issuedOp *hdl.Signal
	issuedTag                    *hdl.Signal // the issued bank's head's tag
	counters                     *countdowns
	rrd, ccds, rdWait, wrWait    *hdl.Signal   // the constraints across banks
	ccdl, inGroup                []*hdl.Signal // per bank group: tCCDL, "the issued bank is in it"
	line                         []CmdDone
}

// CmdDone is a request's completion, and a stage of the completion delay
// line.
type CmdDone struct {
	Valid *hdl.Signal `doc:"a request's data completes"`
	Write *hdl.Signal `doc:"the request was a write"`
	Tag   *hdl.Signal `doc:"[tagbits-1:0] the request's tag"`
}

// bankState is a bank's queue head, its open row and the counters of its
// own constraints, and the command its head needs.
type bankState struct {
	here           *hdl.Signal // the issued command is the bank's
	pop, headValid *hdl.Signal
	count          *hdl.Signal // the requests queued
	head           cmdReq
	openV, openRow *hdl.Signal
	act, col, pre  *hdl.Signal // tRC after ACT and tRP after PRE; tRCD after ACT; tRAS after ACT, tRTPL after RD, tWL+tburst+tWR after WR
	op, ready      *hdl.Signal // the command and whether its counters let it issue
}

// Build makes the module called name.
func (c CmdQBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name: the timing constraints, the
// completion delay line, a queue per bank with the command its head needs
// (section 2.3: open page), the round-robin choice of a bank whose
// command is legal, and what the issued command does, and its
// properties; it returns the ports.
func (c CmdQBlock) WithPorts(name string) (*hdl.Module, CmdQPorts) {
	m := hdl.NewModule(name)
	f := m.InputFields("req")
	b := &cmdqBuild{c: c, m: m, p: CmdQPorts{Req: CmdQReq{f("valid", 1), f("write", 1), f("bank", c.BankBits),
		f("row", c.RowBits), f("tag", c.TagBits)}}}
	req := b.p.Req
	b.constraints()
	b.delayLine()
	banks := make([]bankState, 1<<c.BankBits)
	for k := range banks {
		banks[k] = b.bank(k, req.Valid, req.Bank, cmdReq{req.Write, req.Row, req.Tag})
	}
	b.issue(banks)
	b.apply(banks)
	b.properties(banks)
	return m, b.p
}

// constraints declares the timing constraints across banks: every
// constraint is a down-counter that a command may pass at 0 (countdowns).
func (b *cmdqBuild) constraints() {
	c, m, t := b.c, b.m, b.c.T
	cw := lib.CountWidth(max(t.RC, t.RP, t.RCD, t.RAS, t.RTPL, t.writeToPre(), t.CCDL, t.CCDS, t.RRD, t.writeToRead(), t.readToWrite()))
	b.counters = &countdowns{m: m, width: cw}
	b.issued, b.issuedBank, b.issuedOp = m.Wire("issued", 1), m.Wire("issued_bank", c.BankBits), m.Wire("issued_op", 2)
	b.rrd = b.counters.add("rrd_wait")
	b.ccds = b.counters.add("ccds_wait")
	b.rdWait = b.counters.add("rd_wait")
	b.wrWait = b.counters.add("wr_wait")
	groupBits := c.BankBits - c.BGBits
	for g := range 1 << c.BGBits {
		inGroup := b.issuedBank.Shr(groupBits).Trunc(max(1, c.BGBits)).EqConst(uint64(g))
		if c.BGBits == 0 {
			inGroup = m.ConstU(1, 1)
		}
		b.inGroup = append(b.inGroup, inGroup)
		b.ccdl = append(b.ccdl, b.counters.add("ccdl_wait", g))
	}
}

// delayLine declares the data's completion, tcl+tburst after RD and
// twl+tburst after WR: a delay line whose stage k completes k cycles from
// now. Every cycle each stage takes the next one's; a column command
// enters at its completion (apply).
func (b *cmdqBuild) delayLine() {
	t, m := b.c.T, b.m
	b.line = make([]CmdDone, max(t.ReadDone(), t.WriteDone()))
	for k := range b.line {
		r := m.RegFields("done", k)
		b.line[k] = CmdDone{r("v", 1), r("w", 1), r("tag", b.c.TagBits)}
	}
	for k := range b.line {
		next := CmdDone{m.ConstU(1, 0), m.ConstU(1, 0), m.ConstU(b.c.TagBits, 0)}
		if k+1 < len(b.line) {
			next = b.line[k+1]
		}
		hdl.SetRecord(b.line[k], next)
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
// row and its own counters, and the command its head needs next, from
// the bank's state (open page), as the ordered cases of section 2.3 and
// Fig. 2.4(a) (CmdQ.headCmd): a closed bank is activated; another row
// open is a row miss, precharged first; the open row is a row hit, read
// or written. Each command may issue when the counters that constrain it
// are 0.
func (b *cmdqBuild) bank(k int, valid, bank *hdl.Signal, req cmdReq) bankState {
	c, m, t := b.c, b.m, b.c.T
	wire := m.WireFields("", k)
	pop := wire("pop", 1)
	pop.SetU(0) // the head leaves with its RD or WR (apply)
	q := lib.NewQueue(m, fmt.Sprintf("queue_%d", k), c.Depth, valid.And(bank.EqConst(uint64(k))), req, pop)
	b.p.Rdy = append(b.p.Rdy, m.OutputFields("", k)("rdy", 1))
	b.p.Rdy[k].Drive(q.InReady)
	open := m.RegFields("open", k)
	s := bankState{here: b.issuedBank.EqConst(uint64(k)), pop: pop, headValid: q.OutValid, count: q.Count, head: q.Out,
		openV: open("v", 1), openRow: open("row", c.RowBits),
		act: b.counters.add("act_wait", k), col: b.counters.add("col_wait", k), pre: b.counters.add("pre_wait", k),
		op: wire("op", 2), ready: wire("ready", 1)}
	column := zero(s.col).And(zero(b.ccdl[b.group(k)])).And(zero(b.ccds))
	m.If(s.openV.Not(), func() {
		s.op.SetU(uint64(ACT))
		s.ready.Set(zero(s.act).And(zero(b.rrd)))
	}).Elif(s.openRow.Ne(q.Out.Row), func() {
		s.op.SetU(uint64(PRE))
		s.ready.Set(zero(s.pre))
	}).Elif(q.Out.Write, func() {
		s.op.SetU(uint64(WR))
		s.ready.Set(column.And(zero(b.wrWait)).And(b.slotFree(t.WriteDone())))
	}).Else(func() {
		s.op.SetU(uint64(RD))
		s.ready.Set(column.And(zero(b.rdWait)).And(b.slotFree(t.ReadDone())))
	})
	return s
}

// group is bank k's bank group (0 without groups).
func (b *cmdqBuild) group(k int) int { return k >> (b.c.BankBits - b.c.BGBits) }

// issue: banks round robin among those whose head's command may issue,
// starting after the bank that issued last (section 2.3: the priority
// pointer moves to the next bank when a command is sent).
func (b *cmdqBuild) issue(banks []bankState) {
	c, m := b.c, b.m
	legal, ops, rows, tags := make([]*hdl.Signal, len(banks)), make([]*hdl.Signal, len(banks)),
		make([]*hdl.Signal, len(banks)), make([]*hdl.Signal, len(banks))
	for k, s := range banks {
		legal[k], ops[k], rows[k], tags[k] = s.headValid.And(s.ready), s.op, s.head.Row, s.head.Tag
	}
	valid, idx, _ := lib.RoundRobin(m, "rr", lib.Bus(legal), m.ConstU(1, 1))
	b.issued.Drive(valid)
	b.issuedBank.Drive(idx)
	b.issuedOp.Drive(hdl.Select(idx, ops...).And(valid.Repl(2)))
	b.issuedTag = hdl.Select(idx, tags...)
	o, cmd := m.OutputFields("cmd"), &b.p.Cmd
	outPort(o, &cmd.Valid, "valid", 1).Drive(valid)
	outPort(o, &cmd.Op, "op", 2).Drive(b.issuedOp)
	outPort(o, &cmd.Bank, "bank", c.BankBits).Drive(idx)
	outPort(o, &cmd.Row, "row", c.RowBits).Drive(hdl.Select(idx, rows...).And(valid.Repl(c.RowBits)))
	o = m.OutputFields("done")
	b.p.Done = CmdDone{o("valid", 1), o("write", 1), o("tag", c.TagBits)}
	hdl.DriveRecord(b.p.Done, b.line[0])
}

// apply is what the issued command does, by its op (CmdQ.apply): it
// starts the constraints of Table 5.1 that follow it (load), opens or
// closes its bank's row, and a RD or WR takes its bank's head out of the
// queue and into the delay line at its completion. Every counter first
// counts down.
func (b *cmdqBuild) apply(banks []bankState) {
	m, t := b.m, b.c.T
	b.counters.countDown()
	at := func(body func(s bankState)) { // on the issued bank
		for _, s := range banks {
			m.If(s.here, func() { body(s) })
		}
	}
	m.If(b.issued, func() {
		m.Switch(b.issuedOp).Case(uint64(ACT), func() {
			b.counters.load(b.rrd, t.RRD)
			at(func(s bankState) {
				s.openV.SetU(1)
				s.openRow.Set(s.head.Row)
				b.counters.load(s.act, t.RC)
				b.counters.load(s.col, t.RCD)
				b.counters.load(s.pre, t.RAS)
			})
		}).Case(uint64(PRE), func() {
			at(func(s bankState) {
				s.openV.SetU(0)
				b.counters.load(s.act, t.RP)
			})
		}).Cases([]uint64{uint64(RD), uint64(WR)}, func() {
			b.counters.load(b.ccds, t.CCDS)
			for g, r := range b.ccdl {
				m.If(b.inGroup[g], func() { b.counters.load(r, t.CCDL) })
			}
			at(func(s bankState) { s.pop.SetU(1) })
			m.Switch(b.issuedOp).Case(uint64(RD), func() {
				b.column(at, t.ReadDone(), false, b.wrWait, t.readToWrite(), t.RTPL)
			}).Case(uint64(WR), func() {
				b.column(at, t.WriteDone(), true, b.rdWait, t.writeToRead(), t.writeToPre())
			})
		})
	})
}

// column is what a RD (write false) or WR does besides tCCDS and tCCDL:
// turn, the other column command's counter, waits turnGap (the bus
// turnaround), its bank's pre_wait preGap, and its bank's head enters the
// delay line's stage lat-1.
func (b *cmdqBuild) column(at func(func(bankState)), lat int, write bool, turn *hdl.Signal, turnGap, preGap int) {
	b.counters.load(turn, turnGap)
	at(func(s bankState) { b.counters.load(s.pre, preGap) })
	hdl.SetRecord(b.line[lat-1], CmdDone{b.m.ConstU(1, 1), b.m.ConstU(1, b2u(write)), b.issuedTag})
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func zero(s *hdl.Signal) *hdl.Signal { return s.EqConst(0) }

// countdowns are the timing counters of a module, one per constraint of
// Table 5.1: each counts down to 0, and a command the constraint follows
// loads it (CmdQ's dec and load).
type countdowns struct {
	m     *hdl.Module
	width int
	regs  []*hdl.Signal
}

// add declares a counter register called name, or name_<lane> for a
// counter of a bank or a bank group.
func (c *countdowns) add(name string, lane ...int) *hdl.Signal {
	r := c.m.RegFields("", lane...)(name, c.width)
	c.regs = append(c.regs, r)
	return r
}

// countDown makes every counter not at 0 count down; give it before the
// loads, which win.
func (c *countdowns) countDown() {
	for _, r := range c.regs {
		c.m.If(zero(r).Not(), func() { r.Set(r.Sub(c.m.ConstU(c.width, 1))) })
	}
}

// load makes counter r wait gap cycles from now: it takes gap-1 unless
// it already waits longer (r > gap-1, so its count down r-1 is at least
// gap-1), which is CmdQ's max(dec(r), gap-1). Each counter has at most one
// load per command.
func (c *countdowns) load(r *hdl.Signal, gap int) {
	g := c.m.ConstU(c.width, uint64(gap-1))
	c.m.If(r.Le(g), func() { r.Set(g) })
}
