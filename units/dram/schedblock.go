package dram

import (
	"fmt"

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

// Build makes the module called name, in Figure 4.2's parts: the ports,
// the read and write queues with the MIB (and under -rowscore table the
// row-score table), Rule 1's choice of a read and FR-FCFS's of a write
// with the drain deciding between them, and the open rows and the drain
// at the edge.
func (c SchedBlock) Build(name string) *hdl.Module {
	b := &schedBuild{c: c, m: hdl.NewModule(name), mw: lib.CountWidth(c.Merges)}
	b.ports()
	b.queues(name)
	b.pick()
	b.edge()
	return b.m
}

// schedBuild is a dram-sched under construction.
type schedBuild struct {
	c  SchedBlock
	m  *hdl.Module
	mw int // merge length width

	pol                                    *hdl.Signal
	rdValid, rdReady, rdBank, rdRow        *hdl.Signal
	rdBlk, rdAge                           *hdl.Signal
	dmyValid, dmyBlk, dmyMlen, dmyAge      *hdl.Signal
	wrValid, wrReady, wrBank, wrRow, wrBlk *hdl.Signal
	banks                                  pickBanks
	drain                                  *hdl.Signal
	issRead, issWrite, readOut, writeOut   *hdl.Signal // what leaves the queues, decided by pick
	reads, writes                          requestQueue
	mib                                    mibSlots
	rowtab                                 *hdl.Instance // under -rowscore table
	tabIn                                  rowTabPorts
	tabOut                                 rowTabOut
	valid, bank, row                       *hdl.Signal // the request issued
}

// ports declares the ports, and each bank's open row.
func (b *schedBuild) ports() {
	c, m := b.c, b.m
	b.pol = m.Input("pol", 2)
	b.rdValid = m.Input("rd_valid", 1)
	b.rdReady = m.Output("rd_ready", 1)
	b.rdBank, b.rdRow = m.Input("rd_bank", c.BankBits), m.Input("rd_row", c.RowBits)
	b.rdBlk, b.rdAge = m.Input("rd_blk", c.BlkBits), m.Input("rd_age", c.AgeBits)
	b.dmyValid, b.dmyBlk = m.Input("dmy_valid", 1), m.Input("dmy_blk", c.BlkBits)
	b.dmyMlen, b.dmyAge = m.Input("dmy_mlen", b.mw), m.Input("dmy_age", c.AgeBits)
	b.wrValid = m.Input("wr_valid", 1)
	b.wrReady = m.Output("wr_ready", 1)
	b.wrBank, b.wrRow, b.wrBlk = m.Input("wr_bank", c.BankBits), m.Input("wr_row", c.RowBits), m.Input("wr_blk", c.BlkBits)
	for k := range 1 << c.BankBits {
		b.banks.Rdy = append(b.banks.Rdy, m.Input(fmt.Sprintf("rdy_%d", k), 1))
		b.banks.OpenV = append(b.banks.OpenV, m.Reg(fmt.Sprintf("open_v_%d", k), 1))
		b.banks.OpenRow = append(b.banks.OpenRow, m.Reg(fmt.Sprintf("open_row_%d", k), c.RowBits))
	}
	b.drain = m.Reg("drain", 1)
}

// queues: the two queues' registers and the MIB come first; what leaves
// them is decided by pick from their state.
func (b *schedBuild) queues(name string) {
	c, m := b.c, b.m
	b.issRead, b.issWrite = m.Wire("read_issued", 1), m.Wire("write_issued", 1)
	b.readOut, b.writeOut = m.Wire("read_out", lib.CountWidth(c.Entries-1)), m.Wire("write_out", lib.CountWidth(c.WEntries-1))
	readFields := []*hdl.Signal{b.rdBank, b.rdRow}
	if c.Scores == TableScores {
		sub, in, out := RowTabBlock{Entries: c.Entries, BankBits: c.BankBits, RowBits: c.RowBits,
			MlBits: b.mw, AgeBits: c.AgeBits}.build(name + "_rowtab")
		b.rowtab, b.tabIn = m.Instance("rowtab", sub), in
		b.tabOut = hdl.OutRecord(b.rowtab, out)
		readFields = append(readFields, b.tabOut.EnqPtr) // each read keeps its row's entry
	}
	b.reads = newRequestQueue(m, "rq", c.Entries, b.rdValid, readFields, b.issRead, b.readOut)
	b.writes = newRequestQueue(m, "wq", c.WEntries, b.wrValid, []*hdl.Signal{b.wrBank, b.wrRow, b.wrBlk}, b.issWrite, b.writeOut)
	b.rdReady.Drive(b.reads.ready)
	b.wrReady.Drive(b.writes.ready)
	b.mib = mibLogic(m, "mib", c.Entries, mibPorts{
		AllocValid: b.reads.take, AllocIdx: b.reads.slot, AllocBlk: b.rdBlk, AllocAge: b.rdAge,
		UpdValid: b.dmyValid, UpdBlk: b.dmyBlk, UpdMlen: b.dmyMlen, UpdAge: b.dmyAge,
		FreeValid: b.issRead, FreeIdx: b.readOut,
	}, c.Scores == TableScores)
}

// pick: Rule 1 over the reads (by the row-score table, the summed scores
// or FR-FCFS), FR-FCFS over the writes, and the request issued.
func (b *schedBuild) pick() {
	c, m, reads, writes, mib := b.c, b.m, b.reads, b.writes, b.mib
	readSlots := make([]pickSlot, c.Entries)
	for i := range readSlots {
		readSlots[i] = pickSlot{V: reads.v[i], Bank: reads.fields[0][i], Row: reads.fields[1][i],
			Mlen: mib.Mlen[i], Age: mib.Age[i], Ord: reads.ord[i]}
	}
	writeSlots := make([]pickSlot, c.WEntries)
	for i := range writeSlots {
		writeSlots[i] = pickSlot{V: writes.v[i], Bank: writes.fields[0][i], Row: writes.fields[1][i], Ord: writes.ord[i]}
	}
	var rgnt, ridx, rhit *hdl.Signal
	switch c.Scores {
	case TableScores:
		events := dummyOf(mib, reads.fields[2], b.dmyMlen, b.dmyAge)
		events.EnqValid, events.EnqBank, events.EnqRow, events.EnqAge = reads.take, b.rdBank, b.rdRow, b.rdAge
		events.DeqValid, events.DeqPtr = b.issRead, hdl.Select(b.readOut, reads.fields[2]...)
		events.DeqMlen, events.DeqAge = hdl.Select(b.readOut, mib.Mlen...), hdl.Select(b.readOut, mib.Age...)
		hdl.ConnectRecord(b.rowtab, b.tabIn, events)
		rgnt, ridx, rhit = pickByRows(b.pol, readSlots, reads.fields[2], b.banks, b.tabOut.Entry)
	case NoScores:
		rgnt, ridx, rhit = pickLogic(nil, readSlots, b.banks)
	default:
		rgnt, ridx, rhit = pickLogic(b.pol, readSlots, b.banks)
	}
	wgnt, widx, whit := pickLogic(nil, writeSlots, b.banks)
	// 2.3 and reading 8: in a drain writes go first; otherwise a write
	// leaves only in a cycle without an eligible read.
	b.issWrite.Drive(wgnt.And(b.drain.Or(rgnt.Not())))
	b.issRead.Drive(rgnt.And(b.issWrite.Not()))
	b.readOut.Drive(ridx)
	b.writeOut.Drive(widx)

	pickField := func(read, write []*hdl.Signal) *hdl.Signal {
		return hdl.Mux(b.issWrite, hdl.Select(widx, write...), hdl.Select(ridx, read...))
	}
	b.valid = rgnt.Or(wgnt)
	b.bank = pickField(reads.fields[0], writes.fields[0])
	b.row = pickField(reads.fields[1], writes.fields[1])
	m.Output("iss_valid", 1).Drive(b.valid)
	m.Output("iss_write", 1).Drive(b.issWrite)
	m.Output("iss_bank", c.BankBits).Drive(b.bank)
	m.Output("iss_row", c.RowBits).Drive(b.row)
	m.Output("iss_blk", c.BlkBits).Drive(pickField(mib.Blk, writes.fields[2]))
	m.Output("iss_hit", 1).Drive(hdl.Mux(b.issWrite, whit, rhit))
	m.Output("iss_mlen", b.mw).Drive(hdl.Select(ridx, mib.Mlen...).And(b.issRead.Repl(b.mw)))
	m.Output("iss_age", c.AgeBits).Drive(hdl.Select(ridx, mib.Age...).And(b.issRead.Repl(c.AgeBits)))
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
		q.v = append(q.v, m.Reg(fmt.Sprintf("%s_v_%d", name, i), 1))
		q.ord = append(q.ord, m.Reg(fmt.Sprintf("%s_ord_%d", name, i), iw))
		for k, f := range in {
			q.fields[k] = append(q.fields[k], m.Reg(fmt.Sprintf("%s_f%d_%d", name, k, i), f.Width()))
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
func dummyOf(mib mibSlots, ptrs []*hdl.Signal, mlen, age *hdl.Signal) rowTabPorts {
	found, j, _ := lib.Priority(lib.Bus(mib.Match), false)
	return rowTabPorts{DmyValid: found, DmyPtr: hdl.Select(j, ptrs...), DmyMlenWas: hdl.Select(j, mib.Mlen...),
		DmyMlen: mlen, DmyAge: age}
}
