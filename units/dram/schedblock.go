package dram

import (
	"strconv"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// SchedBlock is the dram-sched unit: the read/write request scheduler of
// Figures 2.3 and 4.2 (contract dram-sched). Reads wait in a queue with
// the MIB beside it and leave by Rule 1 under pol; writes wait in their
// own queue and leave FR-FCFS; the write drain of 2.3 decides between
// them. Sched is the same in plain Go.
//
// Scores says where Rule 1's row scores come from.
type SchedBlock struct {
	Entries, WEntries, HiWM, LoWM               int
	BankBits, RowBits, BlkBits, Merges, AgeBits int
	Scores                                      RowScores
}

// RowScores is how dram-sched scores the read queue's rows (-rowscore).
type RowScores int

const (
	// SummedScores sums each slot's row every cycle, as dram-pick does.
	SummedScores RowScores = iota
	// TableScores reads them from a dram-rowtab instance kept by the
	// reads' arrivals, issues and dummies (4.5); it issues what
	// SummedScores does under RowTable's conditions.
	TableScores
	// NoScores schedules reads FR-FCFS whatever pol says: dram-cost's
	// baseline, as dram-pick -frfcfs.
	NoScores
)

// RowScoreNames are the -rowscore values in RowScores order.
var RowScoreNames = []string{"sum", "table", "none"}

// SchedPorts are dram-sched's ports (Figures 2.3 and 4.2): Rule 1's
// policy for the reads (4.1-4.3), the read and write channels, the L2
// MIB's dummy requests (4.4), the command queues' readiness and the
// request issued.
type SchedPorts struct {
	Pol *hdl.Signal           `doc:"reads' policy: 0 FR-FCFS, 1 MSHR-M, 2 MSHR-S, 3 MSHR-S+A"`
	Rd  hdl.Stream[SchedRead] `doc:"read"`
	Dmy SchedDummy
	Wr  hdl.Stream[SchedWrite] `doc:"write"`
	Rdy []*hdl.Signal          `doc:"bank i's command queue can take a request"`
	Iss SchedIssue
}

// SchedRead is a read: its bank, row, and its block and age for the MIB
// (4.4).
type SchedRead struct {
	Bank *hdl.Signal `doc:"[bankbits-1:0] bank"`
	Row  *hdl.Signal `doc:"[rowbits-1:0] row"`
	Blk  *hdl.Signal `doc:"[blkbits-1:0] block"`
	Age  *hdl.Signal `doc:"[agebits-1:0] age"`
}

// SchedDummy is a dummy request, always taken: its block, merge length
// and age.
type SchedDummy struct {
	Valid *hdl.Signal `doc:"a dummy request"`
	Blk   *hdl.Signal `doc:"[blkbits-1:0] the dummy's block"`
	Mlen  *hdl.Signal `doc:"[MW-1:0] the dummy's merge length"`
	Age   *hdl.Signal `doc:"[agebits-1:0] the dummy's age"`
}

// SchedWrite is a write: its bank, row and block.
type SchedWrite struct {
	Bank *hdl.Signal `doc:"[bankbits-1:0] bank"`
	Row  *hdl.Signal `doc:"[rowbits-1:0] row"`
	Blk  *hdl.Signal `doc:"[blkbits-1:0] block"`
}

// SchedIssue is the request issued: a read or a write, its bank, row and
// block, whether it hits the open row, and a read's merge length and age.
type SchedIssue struct {
	Valid *hdl.Signal `doc:"a request is issued"`
	Write *hdl.Signal `doc:"the issued request is a write"`
	Bank  *hdl.Signal `doc:"[bankbits-1:0] the issued request's bank"`
	Row   *hdl.Signal `doc:"[rowbits-1:0] the issued request's row"`
	Blk   *hdl.Signal `doc:"[blkbits-1:0] the issued request's block"`
	Hit   *hdl.Signal `doc:"the issued request hits its bank's open row"`
	Mlen  *hdl.Signal `doc:"[MW-1:0] the issued read's merge length"`
	Age   *hdl.Signal `doc:"[agebits-1:0] the issued read's age"`
}

// Build makes the module called name.
func (c SchedBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name, in Figure 4.2's parts: the
// ports, the read and write queues with the MIB (and under -rowscore
// table the row-score table), Rule 1's choice of a read and FR-FCFS's of
// a write with the drain deciding between them, and the open rows and
// the drain at the edge, and its properties; it returns the ports.
func (c SchedBlock) WithPorts(name string) (*hdl.Module, SchedPorts) {
	b := &schedBuild{c: c, m: hdl.NewModule(name), mw: lib.CountWidth(c.Merges)}
	b.ports()
	b.queues(name)
	b.pick()
	b.edge()
	b.properties()
	return b.m, b.p
}

// schedBuild is a dram-sched under construction.
type schedBuild struct {
	c  SchedBlock
	m  *hdl.Module
	mw int // merge length width

	p                                    SchedPorts
	banks                                PickBanks
	drain                                *hdl.Signal
	issRead, issWrite, readOut, writeOut *hdl.Signal // what leaves the queues, decided by pick
	reads, writes                        requestQueue
	mib                                  mibSlots
	rowtab                               *hdl.Instance // under -rowscore table
	tabIn                                RowTabInputs
	tabOut                               RowTabOut
	valid, bank, row                     *hdl.Signal // the request issued
	readEligible, writeEligible          *hdl.Signal // a read, a write may leave (Rule 1's, FR-FCFS's grant)
}

// ports declares the ports, and each bank's open row.
func (b *schedBuild) ports() {
	c, m, p := b.c, b.m, &b.p
	p.Pol = m.Input("pol", 2)
	p.Rd = hdl.InStream(m, "rd", func(in hdl.Fields) SchedRead {
		return SchedRead{Bank: in("bank", c.BankBits), Row: in("row", c.RowBits), Blk: in("blk", c.BlkBits), Age: in("age", c.AgeBits)}
	})
	in := m.InputFields("dmy")
	p.Dmy = SchedDummy{in("valid", 1), in("blk", c.BlkBits), in("mlen", b.mw), in("age", c.AgeBits)}
	p.Wr = hdl.InStream(m, "wr", func(in hdl.Fields) SchedWrite {
		return SchedWrite{Bank: in("bank", c.BankBits), Row: in("row", c.RowBits), Blk: in("blk", c.BlkBits)}
	})
	for k := range 1 << c.BankBits {
		p.Rdy = append(p.Rdy, m.InputFields("", k)("rdy", 1))
		open := m.RegFields("open", k)
		b.banks.OpenV = append(b.banks.OpenV, open("v", 1))
		b.banks.OpenRow = append(b.banks.OpenRow, open("row", c.RowBits))
	}
	b.banks.Rdy = p.Rdy
	b.drain = m.Reg("drain", 1)
}

// queues: the two queues' registers and the MIB come first; what leaves
// them is decided by pick from their state.
func (b *schedBuild) queues(name string) {
	c, m := b.c, b.m
	b.issRead, b.issWrite = m.Wire("read_issued", 1), m.Wire("write_issued", 1)
	b.readOut, b.writeOut = m.Wire("read_out", lib.CountWidth(c.Entries-1)), m.Wire("write_out", lib.CountWidth(c.WEntries-1))
	readFields := []*hdl.Signal{b.p.Rd.Payload.Bank, b.p.Rd.Payload.Row}
	if c.Scores == TableScores {
		sub, p := RowTabBlock{Entries: c.Entries, BankBits: c.BankBits, RowBits: c.RowBits,
			MlBits: b.mw, AgeBits: c.AgeBits, FedByQueue: true}.WithPorts(name + "_rowtab")
		b.rowtab, b.tabIn = m.Instance("rowtab", sub), p.In
		b.tabOut = hdl.OutRecord(b.rowtab, p.Out)
		readFields = append(readFields, b.tabOut.EnqPtr) // each read keeps its row's entry
	}
	b.reads = newRequestQueue(m, "rq", c.Entries, b.p.Rd.Valid, readFields, b.issRead, b.readOut)
	b.writes = newRequestQueue(m, "wq", c.WEntries, b.p.Wr.Valid, []*hdl.Signal{b.p.Wr.Payload.Bank, b.p.Wr.Payload.Row, b.p.Wr.Payload.Blk}, b.issWrite, b.writeOut)
	b.p.Rd.Ready.Drive(b.reads.ready)
	b.p.Wr.Ready.Drive(b.writes.ready)
	b.mib = mibLogic(m, "mib", c.Entries, MIBInputs{
		AllocValid: b.reads.take, AllocIdx: b.reads.slot, AllocBlk: b.p.Rd.Payload.Blk, AllocAge: b.p.Rd.Payload.Age,
		UpdValid: b.p.Dmy.Valid, UpdBlk: b.p.Dmy.Blk, UpdMlen: b.p.Dmy.Mlen, UpdAge: b.p.Dmy.Age,
		FreeValid: b.issRead, FreeIdx: b.readOut,
	}, c.Scores == TableScores)
}

// pick: Rule 1 over the reads (by the row-score table, the summed scores
// or FR-FCFS), FR-FCFS over the writes, and the request issued.
func (b *schedBuild) pick() {
	c, m, reads, writes, mib := b.c, b.m, b.reads, b.writes, b.mib
	readSlots := make([]PickSlot, c.Entries)
	for i := range readSlots {
		readSlots[i] = PickSlot{V: reads.v[i], Bank: reads.fields[0][i], Row: reads.fields[1][i],
			Mlen: mib.Mlen[i], Age: mib.Age[i], Ord: reads.ord[i]}
	}
	writeSlots := make([]PickSlot, c.WEntries)
	for i := range writeSlots {
		writeSlots[i] = PickSlot{V: writes.v[i], Bank: writes.fields[0][i], Row: writes.fields[1][i], Ord: writes.ord[i]}
	}
	var rgnt, ridx, rhit *hdl.Signal
	switch c.Scores {
	case TableScores:
		events := dummyOf(mib, reads.fields[2], b.p.Dmy.Mlen, b.p.Dmy.Age)
		events.EnqValid, events.EnqBank, events.EnqRow, events.EnqAge = reads.take, b.p.Rd.Payload.Bank, b.p.Rd.Payload.Row, b.p.Rd.Payload.Age
		events.DeqValid, events.DeqPtr = b.issRead, hdl.Select(b.readOut, reads.fields[2]...)
		events.DeqMlen, events.DeqAge = hdl.Select(b.readOut, mib.Mlen...), hdl.Select(b.readOut, mib.Age...)
		hdl.ConnectRecord(b.rowtab, b.tabIn, events)
		rgnt, ridx, rhit = pickByRows(b.p.Pol, readSlots, reads.fields[2], b.banks, b.tabOut.Entry)
	case NoScores:
		rgnt, ridx, rhit = pickLogic(nil, readSlots, b.banks)
	default:
		rgnt, ridx, rhit = pickLogic(b.p.Pol, readSlots, b.banks)
	}
	wgnt, widx, whit := pickLogic(nil, writeSlots, b.banks)
	// 2.3 and reading 8: in a drain writes go first; otherwise a write
	// leaves only in a cycle without an eligible read.
	b.issWrite.Drive(wgnt.And(b.drain.Or(rgnt.Not())))
	b.readEligible, b.writeEligible = rgnt, wgnt
	b.issRead.Drive(rgnt.And(b.issWrite.Not()))
	b.readOut.Drive(ridx)
	b.writeOut.Drive(widx)

	pickField := func(read, write []*hdl.Signal) *hdl.Signal {
		return hdl.Mux(b.issWrite, hdl.Select(widx, write...), hdl.Select(ridx, read...))
	}
	b.valid = rgnt.Or(wgnt)
	b.bank = pickField(reads.fields[0], writes.fields[0])
	b.row = pickField(reads.fields[1], writes.fields[1])
	o, iss := m.OutputFields("iss"), &b.p.Iss
	outPort(o, &iss.Valid, "valid", 1).Drive(b.valid)
	outPort(o, &iss.Write, "write", 1).Drive(b.issWrite)
	outPort(o, &iss.Bank, "bank", c.BankBits).Drive(b.bank)
	outPort(o, &iss.Row, "row", c.RowBits).Drive(b.row)
	outPort(o, &iss.Blk, "blk", c.BlkBits).Drive(pickField(mib.Blk, writes.fields[2]))
	outPort(o, &iss.Hit, "hit", 1).Drive(hdl.Mux(b.issWrite, whit, rhit))
	outPort(o, &iss.Mlen, "mlen", b.mw).Drive(hdl.Select(ridx, mib.Mlen...).And(b.issRead.Repl(b.mw)))
	outPort(o, &iss.Age, "age", c.AgeBits).Drive(hdl.Select(ridx, mib.Age...).And(b.issRead.Repl(c.AgeBits)))
}

// edge: the open row of a bank is the row last issued to it; the drain
// starts at the high watermark and ends at the low one (2.3).
func (b *schedBuild) edge() {
	c, m := b.c, b.m
	for k := range b.banks.OpenV {
		m.If(b.valid.And(b.bank.EqConst(uint64(k))), func() {
			b.banks.OpenV[k].SetU(1)
			b.banks.OpenRow[k].Set(b.row)
		})
	}
	cw := b.writes.count.Width()
	m.If(b.writes.nextCount.Ge(m.ConstU(cw, uint64(c.HiWM))), func() { b.drain.SetU(1) }).
		Elif(b.writes.nextCount.Le(m.ConstU(cw, uint64(c.LoWM))), func() { b.drain.SetU(0) })
}

// requestQueue is a scheduler queue: slots that requests enter at the
// lowest free one and leave from any, each with its arrival rank ord, the
// number of older requests in the queue.
type requestQueue struct {
	v, ord            []*hdl.Signal
	fields            [][]*hdl.Signal // per field, per slot
	count, nextCount  *hdl.Signal
	ready, take, slot *hdl.Signal // not full; a request enters slot
}

// newRequestQueue declares a queue of n slots in m, registers
// <name>_v_<i>, <name>_ord_<i> and <name>_f<k>_<i> for the fields. A
// request (fields in) enters at an edge where valid and the queue is not
// full; the slot out leaves where leave, and the slots younger than it
// move up a rank.
func newRequestQueue(m *hdl.Module, name string, n int, valid *hdl.Signal, in []*hdl.Signal, leave, out *hdl.Signal) requestQueue {
	iw, cw := lib.CountWidth(n-1), lib.CountWidth(n)
	q := requestQueue{fields: make([][]*hdl.Signal, len(in)), count: m.Reg(name+"_count", cw)}
	for i := range n {
		r := m.RegFields(name, i)
		q.v = append(q.v, r("v", 1))
		q.ord = append(q.ord, r("ord", iw))
		for k, f := range in {
			q.fields[k] = append(q.fields[k], r("f"+strconv.Itoa(k), f.Width()))
		}
	}
	q.ready = q.count.Ne(m.ConstU(cw, uint64(n)))
	q.take = valid.And(q.ready)
	_, q.slot, _ = lib.Priority(lib.Bus(q.v).Not(), false)
	leaving := hdl.Select(out, q.ord...)
	q.nextCount = q.count.Add(q.take.Zext(cw)).Sub(leave.Zext(cw))
	q.count.Drive(q.nextCount)
	rank := q.count.Sub(leave.Zext(cw)).Trunc(iw) // older requests once out has left
	for i := range n {
		m.If(leave.And(out.EqConst(uint64(i))), func() {
			q.v[i].SetU(0)
		}).Elif(q.take.And(q.slot.EqConst(uint64(i))), func() {
			q.v[i].SetU(1)
			q.ord[i].Set(rank)
			for k, f := range in {
				q.fields[k][i].Set(f)
			}
		}).Elif(leave.And(q.v[i]).And(q.ord[i].Gt(leaving)), func() {
			q.ord[i].Set(q.ord[i].Sub(m.ConstU(iw, 1)))
		})
	}
	return q
}

// dummyOf are the row-score table's dummy inputs: the slot the MIB's
// dummy updates this edge (the MIB updates one, firstOnly), its row's
// entry ptrs[j] and its merge length before the dummy.
func dummyOf(mib mibSlots, ptrs []*hdl.Signal, mlen, age *hdl.Signal) RowTabInputs {
	found, j, _ := lib.Priority(lib.Bus(mib.Match), false)
	return RowTabInputs{DmyValid: found, DmyPtr: hdl.Select(j, ptrs...), DmyMlenWas: hdl.Select(j, mib.Mlen...),
		DmyMlen: mlen, DmyAge: age}
}

// outPort makes the output port name of a record with o and keeps it in
// its field, for a port made where the logic that drives it is.
func outPort(o hdl.Fields, field **hdl.Signal, name string, width int) *hdl.Signal {
	*field = o(name, width)
	return *field
}
