package dram

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// RowTable is the row-score table of section 4.5 (contract dram-rowtab)
// in plain Go: one entry per row that has reads in the read queue, with
// its bank and row, the number of its reads, and the sums of their merge
// lengths and ages (the MSHR-S and MSHR-S+A row scores of 4.2-4.3). It
// is kept by events, never by summing the queue: a read entering adds
// itself, a read leaving takes itself off, a dummy changes its read's
// merge length and adds its age, and every cycle each entry's age sum
// grows by its merge length sum (4.3: every merged request ages a cycle).
//
// The sums are exact sums of the ages each read would have without
// saturating, so they equal the sums of the MIB's saturating ages while
// no read's age has saturated; and a dummy changes one read's scores, as
// it does when a block has at most one read in the queue (the L2 MSHR
// sends one read per block). The sums wrap at their widths (sumWidths).
type RowTable struct {
	MlBits, AgeBits int
	V               []bool
	Bank, Row, N    []int
	Mlen, Age       []uint64 // sums over the row's reads
}

// NewRowTable returns an empty table of entries rows.
func NewRowTable(entries, mlbits, agebits int) *RowTable {
	return &RowTable{MlBits: mlbits, AgeBits: agebits, V: make([]bool, entries), Bank: make([]int, entries),
		Row: make([]int, entries), N: make([]int, entries), Mlen: make([]uint64, entries), Age: make([]uint64, entries)}
}

// sumWidths are the widths of a table entry's merge length and age sums:
// entries reads of the largest merge length and age fit.
func sumWidths(entries, mlbits, agebits int) (ml, age int) {
	return lib.CountWidth(entries * int(ageMax(mlbits))), lib.CountWidth(entries * int(ageMax(agebits)))
}

// RowTabIn is one edge's events: a read entering with its bank, row and
// age (merge length 1); the read of entry DeqPtr leaving with its merge
// length and age of this cycle; a dummy that changed the merge length of
// a read of entry DmyPtr from DmyMlenWas to DmyMlen and added DmyAge to
// its age. Leave and dummy at entries not valid change nothing.
type RowTabIn struct {
	Enq             bool
	EnqBank, EnqRow int
	EnqAge          uint64
	Deq             bool
	DeqPtr          int
	DeqMlen, DeqAge uint64
	Dmy             bool
	DmyPtr          int
	DmyMlenWas      uint64
	DmyMlen, DmyAge uint64
}

// EnqPtr is the entry a read of bank and row enters: the valid entry of
// that row, else the lowest entry not valid, else len(V) (the read is
// not counted).
func (t *RowTable) EnqPtr(bank, row int) int {
	free := len(t.V)
	for r, v := range t.V {
		if v && t.Bank[r] == bank && t.Row[r] == row {
			return r
		}
		if !v && free == len(t.V) {
			free = r
		}
	}
	return free
}

// Step applies one rising edge.
func (t *RowTable) Step(in RowTabIn) {
	mlw, agew := sumWidths(len(t.V), t.MlBits, t.AgeBits)
	mlMask, ageMask := uint64(1)<<mlw-1, uint64(1)<<agew-1
	nMask := 1<<lib.CountWidth(len(t.V)) - 1 // the count of a row's reads wraps past entries
	enq := len(t.V)
	if in.Enq {
		enq = t.EnqPtr(in.EnqBank, in.EnqRow)
	}
	for r := range t.V {
		atEnq := enq == r
		atDeq := in.Deq && in.DeqPtr == r && t.V[r]
		atDmy := in.Dmy && in.DmyPtr == r && t.V[r]
		if !t.V[r] {
			if atEnq {
				t.V[r], t.Bank[r], t.Row[r], t.N[r], t.Mlen[r], t.Age[r] = true, in.EnqBank, in.EnqRow, 1, 1, in.EnqAge
			}
			continue
		}
		n, ml, age := t.N[r], t.Mlen[r], t.Age[r]+t.Mlen[r] // every read ages by its merge length
		if atEnq {
			n, ml, age = n+1, ml+1, age+in.EnqAge
		}
		if atDeq {
			n, ml, age = n-1, ml-in.DeqMlen, age-in.DeqMlen-in.DeqAge // it leaves unaged
		}
		if atDmy {
			ml, age = ml+in.DmyMlen-in.DmyMlenWas, age+in.DmyAge
		}
		if n &= nMask; n == 0 {
			t.V[r], t.Bank[r], t.Row[r], t.N[r], t.Mlen[r], t.Age[r] = false, 0, 0, 0, 0, 0
			continue
		}
		t.N[r], t.Mlen[r], t.Age[r] = n, ml&mlMask, age&ageMask
	}
}

// RowTabBlock is the dram-rowtab unit: RowTable in hardware (contract
// dram-rowtab); RowTabPorts are its ports.
type RowTabBlock struct {
	Entries, BankBits, RowBits, MlBits, AgeBits int
	// FedByQueue: its reads come from a queue of Entries slots that takes
	// none while full (dram-sched), so no read ever finds the table full
	// (each valid entry counts a queued read) and the table states no
	// cover point for one.
	FedByQueue bool
}

// RowTabPorts are dram-rowtab's ports (4.5's row-score table).
type RowTabPorts struct {
	In  RowTabInputs
	Out RowTabOut
}

// RowTabInputs are the table's inputs, its events: a read entering the
// queue (enq_*), one issued with its merge length and age (deq_*), and
// the dummy request that updates a queued read's merge length and age
// (dmy_*; 4.4).
type RowTabInputs struct {
	EnqValid   *hdl.Signal `doc:"a read enters, merge length 1"`
	EnqBank    *hdl.Signal `doc:"[bankbits-1:0] the entering read's bank"`
	EnqRow     *hdl.Signal `doc:"[rowbits-1:0] the entering read's row"`
	EnqAge     *hdl.Signal `doc:"[agebits-1:0] the entering read's age"`
	DeqValid   *hdl.Signal `doc:"a read of entry deq_ptr leaves"`
	DeqPtr     *hdl.Signal `doc:"[IW-1:0] the leaving read's entry"`
	DeqMlen    *hdl.Signal `doc:"[mlbits-1:0] its merge length of this cycle"`
	DeqAge     *hdl.Signal `doc:"[agebits-1:0] its age of this cycle"`
	DmyValid   *hdl.Signal `doc:"a dummy changed a read of entry dmy_ptr"`
	DmyPtr     *hdl.Signal `doc:"[IW-1:0] that read's entry"`
	DmyMlenWas *hdl.Signal `doc:"[mlbits-1:0] its merge length before the dummy"`
	DmyMlen    *hdl.Signal `doc:"[mlbits-1:0] its merge length after the dummy"`
	DmyAge     *hdl.Signal `doc:"[agebits-1:0] the age the dummy added to it"`
}

// RowTabEntry is one entry as the table shows it: valid, its bank and
// row, its reads' merge length and age sums.
type RowTabEntry struct {
	V    *hdl.Signal `doc:"entry i holds a row"`
	Bank *hdl.Signal `doc:"[bankbits-1:0] bank of entry i"`
	Row  *hdl.Signal `doc:"[rowbits-1:0] row of entry i"`
	Mlen *hdl.Signal `doc:"[SW-1:0] sum of entry i's reads' merge lengths"`
	Age  *hdl.Signal `doc:"[AW-1:0] sum of entry i's reads' ages"`
}

// RowTabOut are the table's outputs: the entry a read entering now takes,
// and the entries.
type RowTabOut struct {
	EnqPtr *hdl.Signal `doc:"[IW-1:0] the entry a read entering takes"`
	Entry  []RowTabEntry
}

// inputs makes the table's inputs with f.
func (c RowTabBlock) inputs(f hdl.Fields) RowTabInputs {
	iw := lib.CountWidth(c.Entries - 1)
	return RowTabInputs{
		EnqValid: f("enq_valid", 1), EnqBank: f("enq_bank", c.BankBits), EnqRow: f("enq_row", c.RowBits), EnqAge: f("enq_age", c.AgeBits),
		DeqValid: f("deq_valid", 1), DeqPtr: f("deq_ptr", iw), DeqMlen: f("deq_mlen", c.MlBits), DeqAge: f("deq_age", c.AgeBits),
		DmyValid: f("dmy_valid", 1), DmyPtr: f("dmy_ptr", iw), DmyMlenWas: f("dmy_mlen_was", c.MlBits),
		DmyMlen: f("dmy_mlen", c.MlBits), DmyAge: f("dmy_age", c.AgeBits),
	}
}

// entry makes one entry's signals with f.
func (c RowTabBlock) entry(f hdl.Fields) RowTabEntry {
	mlw, agew := sumWidths(c.Entries, c.MlBits, c.AgeBits)
	return RowTabEntry{V: f("v", 1), Bank: f("bank", c.BankBits), Row: f("row", c.RowBits), Mlen: f("mlen", mlw), Age: f("age", agew)}
}

// Build makes the module called name.
func (c RowTabBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (c RowTabBlock) WithPorts(name string) (*hdl.Module, RowTabPorts) {
	m := hdl.NewModule(name)
	in := c.inputs(m.InputFields(""))
	out := RowTabOut{EnqPtr: m.Output("enq_ptr", lib.CountWidth(c.Entries-1))}
	for r := range c.Entries {
		out.Entry = append(out.Entry, c.entry(m.OutputFields("", r)))
	}
	hdl.DriveRecord(out, c.logic(m, "rt", in))
	return m, RowTabPorts{in, out}
}

// logic declares the table's registers (<name>_v_<r>, ...) in m and
// their updates, RowTable.Step. Each entry has one adder, 4.5's
// row-score adder: its age sum plus its merge length sum, every cycle.
// The events of an edge (a read entering, one leaving, a dummy) reach at
// most three entries; what each event's entry becomes is computed once,
// by adders shared by all entries, and the entries an event reaches take
// it (two events at one entry compute the same values). Its properties
// follow.
func (c RowTabBlock) logic(m *hdl.Module, name string, in RowTabInputs) RowTabOut {
	entries, cw := c.Entries, lib.CountWidth(c.Entries)
	mlw, agew := sumWidths(c.Entries, c.MlBits, c.AgeBits)
	var t struct{ V, Bank, Row, Mlen, Age []*hdl.Signal } // the registers by field
	var n, aged []*hdl.Signal
	for r := range entries {
		e := c.entry(m.RegFields(name, r))
		t.V, t.Bank, t.Row = append(t.V, e.V), append(t.Bank, e.Bank), append(t.Row, e.Row)
		t.Mlen, t.Age = append(t.Mlen, e.Mlen), append(t.Age, e.Age)
		n = append(n, m.RegFields(name, r)("n", cw))
		aged = append(aged, e.Age.Add(fit(e.Mlen, agew))) // 4.3: each read ages by its merge length
	}
	keys := make([]*hdl.Signal, entries)
	for r := range entries {
		keys[r] = hdl.Concat(t.Bank[r], t.Row[r])
	}
	hitAny, hitIdx, _ := lib.Priority(lib.Match(hdl.Concat(in.EnqBank, in.EnqRow), keys, lib.Bus(t.V)), false)
	freeAny, freeIdx, _ := lib.Priority(lib.Bus(t.V).Not(), false)
	enqPtr := hdl.Mux(hitAny, hitIdx, freeIdx)
	valid := lib.Bus(t.V)

	// The events and the entries they reach: a leave or dummy at an entry
	// not valid is dropped.
	type event struct{ on, ptr *hdl.Signal }
	events := []event{
		{in.EnqValid.And(hitAny.Or(freeAny)), enqPtr},
		{in.DeqValid.And(valid.ShrBy(in.DeqPtr).Bit(0)), in.DeqPtr},
		{in.DmyValid.And(valid.ShrBy(in.DmyPtr).Bit(0)), in.DmyPtr},
	}
	// Their contributions by which of them reach one entry (bit 0 enter,
	// bit 1 leave, bit 2 dummy).
	zml, zage := m.ConstU(mlw, 0), m.ConstU(agew, 0)
	enqAge := fit(in.EnqAge, agew)
	deqML := fit(in.DeqMlen, mlw)
	deqAge := fit(in.DeqMlen, agew).Add(fit(in.DeqAge, agew)) // it leaves unaged
	dmyML := fit(in.DmyMlen, mlw).Sub(fit(in.DmyMlenWas, mlw))
	dmyAge := fit(in.DmyAge, agew)
	var dN, dML, dAge []*hdl.Signal
	for k := range 8 {
		dn, ml, age := m.ConstU(cw, 0), zml, zage
		if k&1 != 0 {
			dn, ml, age = m.ConstU(cw, 1), m.ConstU(mlw, 1), enqAge
		}
		if k&2 != 0 {
			dn, ml, age = dn.Sub(m.ConstU(cw, 1)), ml.Sub(deqML), age.Sub(deqAge)
		}
		if k&4 != 0 {
			ml, age = ml.Add(dmyML), age.Add(dmyAge)
		}
		dN, dML, dAge = append(dN, dn), append(dML, ml), append(dAge, age)
	}
	// What each event's entry becomes.
	nextN, nextML, nextAge := make([]*hdl.Signal, 3), make([]*hdl.Signal, 3), make([]*hdl.Signal, 3)
	for e, ev := range events {
		var here []*hdl.Signal // which events reach ev's entry
		for _, o := range events {
			here = append(here, o.on.And(o.ptr.Eq(ev.ptr)))
		}
		which := lib.Bus(here)
		nextN[e] = hdl.Select(ev.ptr, n...).Add(hdl.Select(which, dN...))
		nextML[e] = hdl.Select(ev.ptr, t.Mlen...).Add(hdl.Select(which, dML...))
		nextAge[e] = hdl.Select(ev.ptr, aged...).Add(hdl.Select(which, dAge...))
	}
	for r := range entries {
		at := make([]*hdl.Signal, 3)
		for e, ev := range events {
			at[e] = ev.on.And(ev.ptr.EqConst(uint64(r)))
		}
		pick := func(vals []*hdl.Signal) *hdl.Signal { return hdl.Mux(at[0], vals[0], hdl.Mux(at[1], vals[1], vals[2])) }
		m.If(t.V[r].Not(), func() {
			m.If(at[0], func() {
				t.V[r].SetU(1)
				t.Bank[r].Set(in.EnqBank)
				t.Row[r].Set(in.EnqRow)
				n[r].SetU(1)
				t.Mlen[r].SetU(1)
				t.Age[r].Set(enqAge)
			})
		}).Elif(lib.Bus(at).RedOr().Not(), func() {
			t.Age[r].Set(aged[r])
		}).Elif(pick(nextN).EqConst(0), func() { // its last read left
			t.V[r].SetU(0)
			t.Bank[r].SetU(0)
			t.Row[r].SetU(0)
			n[r].SetU(0)
			t.Mlen[r].SetU(0)
			t.Age[r].SetU(0)
		}).Else(func() {
			n[r].Set(pick(nextN))
			t.Mlen[r].Set(pick(nextML))
			t.Age[r].Set(pick(nextAge))
		})
	}
	c.properties(m, rowTabState{v: t.V, bank: t.Bank, row: t.Row, n: n, mlen: t.Mlen, age: t.Age, hitAny: hitAny, freeAny: freeAny, enqValid: in.EnqValid,
		enq: events[0].on, deq: events[1].on, dmy: events[2].on, enqPtr: enqPtr, deqPtr: in.DeqPtr})
	out := RowTabOut{EnqPtr: enqPtr}
	for r := range entries {
		out.Entry = append(out.Entry, RowTabEntry{V: t.V[r], Bank: t.Bank[r], Row: t.Row[r], Mlen: t.Mlen[r], Age: t.Age[r]})
	}
	return out
}

// fit is x zero-extended or truncated to w bits: the sums wrap at their
// widths.
func fit(x *hdl.Signal, w int) *hdl.Signal {
	if x.Width() > w {
		return x.Trunc(w)
	}
	return x.Zext(w)
}
