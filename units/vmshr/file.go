package vmshr

// File is the vmshr-elastic contract in plain Go (thesis 6.4.1-6.4.2,
// Fig. 6.5(b)): an MSHR file of M fully associative PMSHRs with S SMSHRs
// each, hyper blocks up to 2^Hmax normal blocks, deferred reservation.
// With Hmax = 0 it is vmshr-base (Fig. 6.5(a)). D is a normal block's
// data: hdl.Bits for the scoreboard, a block number for the cycle model.
//
// Step takes one cycle's inputs and returns the outputs, which are a
// function of the state before the edge and those inputs, then applies the
// edge, like the unit.
type File[D any] struct {
	M, S, Hmax int
	P          []PMSHR[D]
}

// PMSHR is a primary MSHR: V, tag (a normal-block address), HBS (log2 of
// the hyper block ratio, at most Hmax), Y (data ready), Data (one normal
// block: deferred reservation) and its SMSHRs.
type PMSHR[D any] struct {
	V     bool
	Tag   uint64
	HBS   int
	Y     bool
	Data  D
	Slots []SMSHR
}

// SMSHR is a secondary MSHR: V and the fields the unit returns at
// writeback (Tid, R, O, F of Fig. 6.5(a)).
type SMSHR struct {
	V bool
	Target
}

// Target is where a load's data goes: the hardware thread, register,
// offset in the Data field and format (opaque to the MSHR file).
type Target struct{ Tid, Reg, Off, Fmt uint64 }

// Kind is a request's req_kind.
type Kind int

const (
	Idle      Kind = iota // no request
	Primary               // a new block: allocate a PMSHR and fire a packet
	Deferred              // inside a pending hyper block: allocate a PMSHR, fire nothing
	Secondary             // a PMSHR holds the block: allocate an SMSHR
)

var kindNames = [...]string{"idle", "primary", "deferred", "secondary"}

func (k Kind) String() string { return kindNames[k] }

// Request is one normal-block sub-vector load (footnote 7) and whether an
// interconnect buffer is free.
type Request struct {
	Valid     bool
	Blk       uint64 // byte address / 32
	HBS       int    // the instruction's scheduled granularity (log2 ratio)
	Target    Target
	ICNTReady bool
}

// Fill is a returned packet: 2^G normal blocks from B(Blk, G), G =
// g(HBS); Data[k] is block B(Blk, G) + k.
type Fill[D any] struct {
	Valid bool
	Blk   uint64
	HBS   int
	Data  []D
}

// Outputs are the unit's outputs for one cycle.
type Outputs[D any] struct {
	Kind                  Kind
	Fail, Fire            bool
	FireBlk               uint64
	FireHBS               int
	AllocEntry, AllocSlot int
	FillDrop              int
	WB                    Writeback[D]
}

// Writeback is the writeback port: the lowest ready PMSHR's lowest valid
// SMSHR (fields other than Valid are meaningful only when Valid).
type Writeback[D any] struct {
	Valid       bool
	Entry, Slot int
	Blk         uint64
	Target      Target
	Data        D
}

// NewFile makes an empty MSHR file.
func NewFile[D any](m, s, hmax int) *File[D] {
	f := &File[D]{M: m, S: s, Hmax: hmax, P: make([]PMSHR[D], m)}
	for i := range f.P {
		f.P[i].Slots = make([]SMSHR, s)
	}
	return f
}

// Reset clears every V bit (rst).
func (f *File[D]) Reset() {
	for i := range f.P {
		f.P[i].V = false
		for j := range f.P[i].Slots {
			f.P[i].Slots[j].V = false
		}
	}
}

// g is the contract's g(x) = min(x, hmax).
func (f *File[D]) g(hbs int) int { return min(hbs, f.Hmax) }

// Base is B(b, h): b with its low h bits cleared, the first block of the
// aligned hyper block of 2^h blocks holding b.
func Base(b uint64, h int) uint64 { return b >> h << h }

// Covers reports whether the aligned hyper block of 2^h blocks holding
// tag also holds blk (vmshr-match's cov_i without the valid and ready
// terms).
func Covers(tag uint64, h int, blk uint64) bool { return tag>>h == blk>>h }

// Classify is the request's kind and the PMSHR it names (E for a
// secondary), from the state before the edge.
func (f *File[D]) Classify(blk uint64) (Kind, int) {
	for i, p := range f.P {
		if p.V && p.Tag == blk {
			return Secondary, i
		}
	}
	for _, p := range f.P {
		if p.V && !p.Y && Covers(p.Tag, p.HBS, blk) {
			return Deferred, 0
		}
	}
	return Primary, 0
}

// Busy is the number of valid PMSHRs.
func (f *File[D]) Busy() int {
	n := 0
	for _, p := range f.P {
		if p.V {
			n++
		}
	}
	return n
}

func (f *File[D]) lowestFree() (int, bool) {
	for i, p := range f.P {
		if !p.V {
			return i, true
		}
	}
	return 0, false
}

func lowestSlot(slots []SMSHR, valid bool) (int, bool) {
	for j, s := range slots {
		if s.V == valid {
			return j, true
		}
	}
	return 0, false
}

// Step is one cycle: the outputs from the state before the edge, then the
// edge.
func (f *File[D]) Step(req Request, fill Fill[D], wbReady bool) Outputs[D] {
	var o Outputs[D]
	// Request (6.4.1's MSHR allocation, 6.4.2's deferred reservation).
	o.FireHBS = f.g(req.HBS)
	o.FireBlk = Base(req.Blk, o.FireHBS)
	var entry int
	if req.Valid {
		o.Kind, entry = f.Classify(req.Blk)
	}
	free, anyFree := f.lowestFree()
	o.AllocEntry = free // the contract's "else": also when idle
	switch o.Kind {
	case Secondary:
		o.AllocEntry = entry
		slot, ok := lowestSlot(f.P[entry].Slots, false)
		o.AllocSlot = slot
		o.Fail = !ok
	case Primary, Deferred:
		o.Fail = !anyFree || (o.Kind == Primary && !req.ICNTReady)
	}
	o.Fail = req.Valid && (o.Fail || fill.Valid)
	accepted := req.Valid && !o.Fail
	o.Fire = accepted && o.Kind == Primary

	// Fill: every waiting PMSHR in the packet's range takes its block.
	var filled []int
	if fill.Valid {
		g := f.g(fill.HBS)
		base := Base(fill.Blk, g)
		waits := make([]bool, 1<<g)
		for i, p := range f.P {
			if p.V && !p.Y && Covers(p.Tag, g, fill.Blk) {
				filled = append(filled, i)
				waits[p.Tag-base] = true
			}
		}
		for _, w := range waits {
			if !w {
				o.FillDrop++
			}
		}
	}

	// Writeback: the lowest ready PMSHR's lowest valid SMSHR.
	for i, p := range f.P {
		if p.V && p.Y {
			slot, _ := lowestSlot(p.Slots, true)
			o.WB = Writeback[D]{Valid: true, Entry: i, Slot: slot, Blk: p.Tag, Target: p.Slots[slot].Target, Data: p.Data}
			break
		}
	}

	// The edge.
	if accepted {
		e := &f.P[o.AllocEntry]
		if o.Kind == Secondary {
			e.Slots[o.AllocSlot] = SMSHR{V: true, Target: req.Target}
		} else {
			e.V, e.Tag, e.Y = true, req.Blk, false
			e.HBS = 0
			if o.Kind == Primary {
				e.HBS = o.FireHBS
			}
			for j := range e.Slots {
				e.Slots[j].V = false
			}
			e.Slots[0] = SMSHR{V: true, Target: req.Target}
		}
	}
	for _, i := range filled {
		p := &f.P[i]
		p.Data, p.Y = fill.Data[p.Tag-Base(fill.Blk, f.g(fill.HBS))], true
	}
	if o.WB.Valid && wbReady {
		p := &f.P[o.WB.Entry]
		p.Slots[o.WB.Slot].V = false
		if _, any := lowestSlot(p.Slots, true); !any {
			p.V = false
		}
	}
	return o
}
