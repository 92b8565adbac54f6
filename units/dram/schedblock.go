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

// Build makes the module called name.
func (c SchedBlock) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	mw := lib.CountWidth(c.Merges)
	pol := m.Input("pol", 2)
	rdValid := m.Input("rd_valid", 1)
	rdReady := m.Output("rd_ready", 1)
	rdBank, rdRow := m.Input("rd_bank", c.BankBits), m.Input("rd_row", c.RowBits)
	rdBlk, rdAge := m.Input("rd_blk", c.BlkBits), m.Input("rd_age", c.AgeBits)
	dmyValid, dmyBlk := m.Input("dmy_valid", 1), m.Input("dmy_blk", c.BlkBits)
	dmyMlen, dmyAge := m.Input("dmy_mlen", mw), m.Input("dmy_age", c.AgeBits)
	wrValid := m.Input("wr_valid", 1)
	wrReady := m.Output("wr_ready", 1)
	wrBank, wrRow, wrBlk := m.Input("wr_bank", c.BankBits), m.Input("wr_row", c.RowBits), m.Input("wr_blk", c.BlkBits)
	var banks pickBanks
	for b := range 1 << c.BankBits {
		banks.Rdy = append(banks.Rdy, m.Input(fmt.Sprintf("rdy_%d", b), 1))
		banks.OpenV = append(banks.OpenV, m.Reg(fmt.Sprintf("open_v_%d", b), 1))
		banks.OpenRow = append(banks.OpenRow, m.Reg(fmt.Sprintf("open_row_%d", b), c.RowBits))
	}
	drain := m.Reg("drain", 1)

	// The two queues' registers and the MIB come first; what leaves them
	// is decided below from their state.
	issRead, issWrite := m.Wire("read_issued", 1), m.Wire("write_issued", 1)
	readOut, writeOut := m.Wire("read_out", lib.CountWidth(c.Entries-1)), m.Wire("write_out", lib.CountWidth(c.WEntries-1))
	readFields := []*hdl.Signal{rdBank, rdRow}
	var rowtab *hdl.Instance
	var tabIn rowTabPorts
	var tabOut rowTabOut
	if c.Scores == TableScores {
		sub, in, out := RowTabBlock{Entries: c.Entries, BankBits: c.BankBits, RowBits: c.RowBits,
			MlBits: mw, AgeBits: c.AgeBits}.build(name + "_rowtab")
		rowtab, tabIn = m.Instance("rowtab", sub), in
		tabOut = hdl.OutRecord(rowtab, out)
		readFields = append(readFields, tabOut.EnqPtr) // each read keeps its row's entry
	}
	reads := newRequestQueue(m, "rq", c.Entries, rdValid, readFields, issRead, readOut)
	writes := newRequestQueue(m, "wq", c.WEntries, wrValid, []*hdl.Signal{wrBank, wrRow, wrBlk}, issWrite, writeOut)
	rdReady.Drive(reads.ready)
	wrReady.Drive(writes.ready)
	mib := mibLogic(m, "mib", c.Entries, mibPorts{
		AllocValid: reads.take, AllocIdx: reads.slot, AllocBlk: rdBlk, AllocAge: rdAge,
		UpdValid: dmyValid, UpdBlk: dmyBlk, UpdMlen: dmyMlen, UpdAge: dmyAge,
		FreeValid: issRead, FreeIdx: readOut,
	}, c.Scores == TableScores)

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
		events := dummyOf(mib, reads.fields[2], dmyMlen, dmyAge)
		events.EnqValid, events.EnqBank, events.EnqRow, events.EnqAge = reads.take, rdBank, rdRow, rdAge
		events.DeqValid, events.DeqPtr = issRead, hdl.Select(readOut, reads.fields[2]...)
		events.DeqMlen, events.DeqAge = hdl.Select(readOut, mib.Mlen...), hdl.Select(readOut, mib.Age...)
		hdl.ConnectRecord(rowtab, tabIn, events)
		rgnt, ridx, rhit = pickByRows(pol, readSlots, reads.fields[2], banks, tabOut.Entry)
	case NoScores:
		rgnt, ridx, rhit = pickLogic(nil, readSlots, banks)
	default:
		rgnt, ridx, rhit = pickLogic(pol, readSlots, banks)
	}
	wgnt, widx, whit := pickLogic(nil, writeSlots, banks)
	// 2.3 and reading 8: in a drain writes go first; otherwise a write
	// leaves only in a cycle without an eligible read.
	issWrite.Drive(wgnt.And(drain.Or(rgnt.Not())))
	issRead.Drive(rgnt.And(issWrite.Not()))
	readOut.Drive(ridx)
	writeOut.Drive(widx)

	pickField := func(read, write []*hdl.Signal) *hdl.Signal {
		return hdl.Mux(issWrite, hdl.Select(widx, write...), hdl.Select(ridx, read...))
	}
	valid := rgnt.Or(wgnt)
	bank := pickField(reads.fields[0], writes.fields[0])
	row := pickField(reads.fields[1], writes.fields[1])
	m.Output("iss_valid", 1).Drive(valid)
	m.Output("iss_write", 1).Drive(issWrite)
	m.Output("iss_bank", c.BankBits).Drive(bank)
	m.Output("iss_row", c.RowBits).Drive(row)
	m.Output("iss_blk", c.BlkBits).Drive(pickField(mib.Blk, writes.fields[2]))
	m.Output("iss_hit", 1).Drive(hdl.Mux(issWrite, whit, rhit))
	m.Output("iss_mlen", mw).Drive(hdl.Select(ridx, mib.Mlen...).And(issRead.Repl(mw)))
	m.Output("iss_age", c.AgeBits).Drive(hdl.Select(ridx, mib.Age...).And(issRead.Repl(c.AgeBits)))

	// The open row of a bank is the row last issued to it.
	for b := range banks.OpenV {
		m.If(valid.And(bank.EqConst(uint64(b))), func() {
			banks.OpenV[b].SetU(1)
			banks.OpenRow[b].Set(row)
		})
	}
	cw := writes.count.Width()
	m.If(writes.nextCount.Ge(m.ConstU(cw, uint64(c.HiWM))), func() { drain.SetU(1) }).
		Elif(writes.nextCount.Le(m.ConstU(cw, uint64(c.LoWM))), func() { drain.SetU(0) })
	return m
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
