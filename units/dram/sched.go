package dram

import (
	"slices"

	"github.com/parmem/parmem/hdl/lib"
)

// SchedConfig sizes the request scheduler of Figures 2.3 and 4.2 (contract
// dram-sched).
type SchedConfig struct {
	Entries, WEntries int // read and write queue slots
	HiWM, LoWM        int // write drain watermarks (2.3)
	Banks             int
	Merges, AgeBits   int
	// RowTable scores rows under MSHR-S and MSHR-S+A from a RowTable
	// kept beside the queue (4.5), as dram-sched -rowscore table does.
	RowTable bool
}

// Table51Sched is Table 5.1's scheduler: 64 reads, 128 writes, watermarks
// 96/80, 16 banks, 16 merges, 15-bit ages.
func Table51Sched() SchedConfig {
	return SchedConfig{Entries: 64, WEntries: 128, HiWM: 96, LoWM: 80, Banks: 16, Merges: 16, AgeBits: 15}
}

// Request is a read or write as it enters the scheduler.
type Request struct {
	Bank, Row int
	Blk       uint64
	Age       uint64 // a read's age on arrival (Eq. 4.1); writes have none
}

// DummyReq is a dummy request from the L2 MIB: a block's absolute merge
// length and the ages merged since its last dummy (reading 4).
type DummyReq struct{ Blk, Mlen, Age uint64 }

// queued is a queue slot: the request and its arrival rank, the number of
// older valid requests of its queue.
type queued struct {
	Valid bool
	Request
	Ord int
}

// Sched is the read/write request scheduler (contract dram-sched) in plain
// Go, cycle for cycle: a read queue with its MIB scheduled by Pick under
// the policy, a write queue scheduled FR-FCFS, the write drain, and the
// open row of every bank as the rows last issued to it.
type Sched struct {
	C        SchedConfig
	reads    []queued
	mib      *MIB
	writes   []queued
	open     []bool
	openRow  []int
	drain    bool
	nReads   int
	nWrites  int
	scratch  []Slot // the eligible slots of a queue
	index    []int  // their slot numbers
	bankView []Bank
	// choiceReads and choiceRows are the eligible reads of the last Issue
	// and their distinct rows (Choice).
	choiceReads, choiceRows int
	rows                    *RowTable // with C.RowTable
	rowOf                   []int     // per read slot, its row's entry in rows
}

// NewSched returns an empty scheduler, as after reset.
func NewSched(c SchedConfig) *Sched {
	s := &Sched{C: c, reads: make([]queued, c.Entries), mib: NewMIB(c.Entries, c.Merges, c.AgeBits),
		writes: make([]queued, c.WEntries), open: make([]bool, c.Banks), openRow: make([]int, c.Banks),
		scratch: make([]Slot, max(c.Entries, c.WEntries)), index: make([]int, max(c.Entries, c.WEntries)),
		bankView: make([]Bank, c.Banks)}
	if c.RowTable {
		s.rows, s.rowOf = NewRowTable(c.Entries, lib.CountWidth(c.Merges), c.AgeBits), make([]int, c.Entries)
		s.mib.FirstOnly = true
	}
	return s
}

// SchedIn is one cycle's inputs; nil channels are not valid this cycle.
type SchedIn struct {
	Pol   Policy
	Read  *Request
	Dummy *DummyReq
	Write *Request
	Rdy   []bool // per bank: its command queue takes a request
}

// Issued is the request the scheduler issues in a cycle.
type Issued struct {
	Valid, Write bool
	Request
	Hit  bool
	Mlen uint64 // reads: the MIB's merge length and age; writes 0
	slot int
}

// ReadReady reports whether the read queue has a free slot.
func (s *Sched) ReadReady() bool { return s.nReads < s.C.Entries }

// WriteReady reports whether the write queue has a free slot.
func (s *Sched) WriteReady() bool { return s.nWrites < s.C.WEntries }

// Reads and Writes are the queues' occupancies.
func (s *Sched) Reads() int  { return s.nReads }
func (s *Sched) Writes() int { return s.nWrites }

// Choice is what Rule 1 chose among at the last Step: the eligible reads
// (valid, their bank ready) and their distinct rows.
func (s *Sched) Choice() (reads, rows int) { return s.choiceReads, s.choiceRows }

// Draining reports whether the write queue is being drained.
func (s *Sched) Draining() bool { return s.drain }

func (s *Sched) banks(rdy []bool) []Bank {
	for b := range s.bankView {
		s.bankView[b] = Bank{Ready: rdy[b], Open: s.open[b], Row: s.openRow[b]}
	}
	return s.bankView
}

// eligible gathers the slots of q that may issue (valid, their bank ready)
// into scratch, in slot order, with their slot numbers in s.index (Pick's
// rule depends only on them, and keeps their order for its ties); with
// mib, the reads' merge lengths and ages.
func (s *Sched) eligible(q []queued, mib *MIB, rdy []bool) []Slot {
	out, index := s.scratch[:0], s.index[:0]
	for i := range q {
		e := &q[i]
		if !e.Valid || !rdy[e.Bank] {
			continue
		}
		sl := Slot{Valid: true, Bank: e.Bank, Row: e.Row, Ord: e.Ord}
		if mib != nil {
			sl.Mlen, sl.Age = mib.Mlen[i], mib.Age[i]
		}
		out, index = append(out, sl), append(index, i)
	}
	s.index = index
	return out
}

// rowsOf counts the distinct (bank, row) of slots.
func rowsOf(slots []Slot) int {
	n := 0
	for i, a := range slots {
		if !slices.ContainsFunc(slots[:i], func(b Slot) bool { return a.Bank == b.Bank && a.Row == b.Row }) {
			n++
		}
	}
	return n
}

// Issue is the request issued this cycle: in a drain the FR-FCFS write
// if one is eligible, else the read of Pick, else (no eligible read) the
// write.
func (s *Sched) Issue(pol Policy, rdy []bool) Issued {
	banks := s.banks(rdy)
	s.choiceReads, s.choiceRows = 0, 0
	write := func() Issued {
		ok, idx, hit := Pick(FRFCFS, s.eligible(s.writes, nil, rdy), banks)
		if !ok {
			return Issued{}
		}
		idx = s.index[idx]
		w := s.writes[idx].Request
		w.Age = 0
		return Issued{Valid: true, Write: true, Request: w, Hit: hit, slot: idx}
	}
	if s.drain && s.nWrites > 0 {
		if w := write(); w.Valid {
			return w
		}
	}
	var rowScore func(i int) uint64
	switch {
	case s.C.RowTable && pol == MSHRS:
		rowScore = func(i int) uint64 { return s.rows.Mlen[s.rowOf[s.index[i]]] }
	case s.C.RowTable && pol == MSHRSA:
		rowScore = func(i int) uint64 { return s.rows.Age[s.rowOf[s.index[i]]] }
	}
	reads := s.eligible(s.reads, s.mib, rdy)
	s.choiceReads, s.choiceRows = len(reads), rowsOf(reads)
	if ok, idx, hit := pick(pol, reads, banks, rowScore); ok {
		idx = s.index[idx]
		r := s.reads[idx].Request
		r.Age = s.mib.Age[idx]
		return Issued{Valid: true, Request: r, Hit: hit, Mlen: s.mib.Mlen[idx], slot: idx}
	}
	if s.nWrites > 0 {
		return write()
	}
	return Issued{}
}

// Step runs one cycle: it returns the cycle's issue and applies the
// rising edge (reads and writes taken into the lowest free slots, the
// issued request leaving, the dummy updating the MIB).
func (s *Sched) Step(in SchedIn) Issued {
	iss := s.Issue(in.Pol, in.Rdy)
	mibIn := MIBIn{}
	if in.Dummy != nil {
		mibIn.Upd, mibIn.UpdBlk, mibIn.UpdMlen, mibIn.UpdAge = true, in.Dummy.Blk, in.Dummy.Mlen, in.Dummy.Age
	}
	var readIn, writeIn *Request
	if in.Read != nil && s.ReadReady() {
		readIn = in.Read
	}
	if in.Write != nil && s.WriteReady() {
		writeIn = in.Write
	}
	if iss.Valid && !iss.Write {
		mibIn.Free, mibIn.FreeIdx = true, iss.slot
	}
	if readIn != nil {
		mibIn.Alloc, mibIn.AllocIdx, mibIn.AllocBlk, mibIn.AllocAge = true, freeSlot(s.reads), readIn.Blk, readIn.Age
	}
	if s.C.RowTable {
		s.stepRows(readIn, iss, mibIn)
	}
	s.nReads += enqueue(s.reads, readIn, s.nReads, iss.Valid && !iss.Write, iss.slot)
	s.nWrites += enqueue(s.writes, writeIn, s.nWrites, iss.Valid && iss.Write, iss.slot)
	s.mib.Step(mibIn)
	if iss.Valid {
		s.open[iss.Bank], s.openRow[iss.Bank] = true, iss.Row
	}
	s.drain = NextDrain(s.drain, s.nWrites, s.C.HiWM, s.C.LoWM)
	return iss
}

// stepRows applies the edge's events to the row-score table: the read
// entering (its slot keeps its row's entry), the read issued, and the
// read the MIB's dummy updates (mib, the MIB's inputs of the edge).
func (s *Sched) stepRows(in *Request, iss Issued, mib MIBIn) {
	var ev RowTabIn
	if in != nil {
		ev.Enq, ev.EnqBank, ev.EnqRow, ev.EnqAge = true, in.Bank, in.Row, in.Age
		if k := freeSlot(s.reads); k < len(s.reads) {
			s.rowOf[k] = s.rows.EnqPtr(in.Bank, in.Row)
		}
	}
	if iss.Valid && !iss.Write {
		o := iss.slot
		ev.Deq, ev.DeqPtr, ev.DeqMlen, ev.DeqAge = true, s.rowOf[o], s.mib.Mlen[o], s.mib.Age[o]
	}
	if j := s.mib.firstUpdated(mib); j >= 0 {
		ev.Dmy, ev.DmyPtr, ev.DmyMlenWas, ev.DmyMlen, ev.DmyAge = true, s.rowOf[j], s.mib.Mlen[j], mib.UpdMlen, mib.UpdAge
	}
	s.rows.Step(ev)
}

func freeSlot(q []queued) int {
	for i, e := range q {
		if !e.Valid {
			return i
		}
	}
	return len(q)
}

// enqueue applies an edge to a queue of n requests: the slot at out
// leaves when leave (the younger ones move up a rank), r enters the lowest
// free slot as the youngest. It returns the change of n.
func enqueue(q []queued, r *Request, n int, leave bool, out int) int {
	d := 0
	if leave {
		gone := q[out].Ord
		for i := range q {
			if q[i].Valid && q[i].Ord > gone {
				q[i].Ord--
			}
		}
		d--
	}
	if r != nil {
		i := freeSlot(q) // before out is freed: the freed slot is taken from the next edge
		q[i] = queued{Valid: true, Request: *r, Ord: n + d}
		d++
	}
	if leave {
		q[out] = queued{}
	}
	return d
}
