package elastic

import (
	"math/bits"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// ExtraWidth is EW = max(1, ceil(log2 lanes)): bits of an extra, which is
// at most lanes - 1 (footnote 10's zero-aligned conflict degree).
func ExtraWidth(lanes int) int { return lib.IndexWidth(lanes) }

// DegreeWidth is DW = floor(log2 lanes) + 1: bits of a degree, which is at
// most lanes.
func DegreeWidth(lanes int) int { return bits.Len(uint(lanes)) }

// BankConflict is the elastic-bkconf unit: the bank conflict degree of one
// SIMD shared-memory access (thesis 5.3.1) and the cycles it holds MEM0
// (Eq. 5.3), the detection logic footnote 9 says the baseline already has;
// BankConflictPorts are its ports.
//
// The bank of a lane is its address mod Banks. Per bank, a population
// count of the enabled lanes in it (with Broadcast, of the lanes that are
// the first to read their word: lanes reading one word are served
// together); degree is the largest count (a max tree), cycles = max(1,
// ceil(degree/Ports)) counts the k with k*Ports < degree, extra = cycles -
// 1 and conflict = extra != 0.
type BankConflict struct {
	Lanes, Banks, Aw, Ports int
	Broadcast               bool
}

// BankConflictPorts are elastic-bkconf's ports.
type BankConflictPorts struct {
	// Lanes are the lanes of one SIMD shared-memory access (thesis
	// 5.3.1).
	Lanes    []AccessLane
	Degree   *hdl.Signal `doc:"[DW-1:0] bank conflict degree (5.3.1)"`
	Cycles   *hdl.Signal `doc:"[DW-1:0] cycles the access holds MEM0 (Eq. 5.3)"`
	Extra    *hdl.Signal `doc:"[EW-1:0] cycles - 1 (footnote 10's zero-aligned degree)"`
	Conflict *hdl.Signal `doc:"extra != 0"`
}

// AccessLane is one lane of a shared-memory access: enabled, and its word
// address.
type AccessLane struct {
	En   *hdl.Signal `doc:"lane i is enabled"`
	Addr *hdl.Signal `doc:"[aw-1:0] word address of lane i"`
}

// Build makes the module called name.
func (b BankConflict) Build(name string) *hdl.Module { return hdl.ModuleOf(b.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (b BankConflict) WithPorts(name string) (*hdl.Module, BankConflictPorts) {
	m := hdl.NewModule(name)
	var ps BankConflictPorts
	en := make([]*hdl.Signal, b.Lanes)
	addr := make([]*hdl.Signal, b.Lanes)
	for i := range b.Lanes {
		in := m.InputFields("", i)
		lane := AccessLane{En: in("en", 1), Addr: in("addr", b.Aw)}
		en[i], addr[i] = lane.En, lane.Addr
		ps.Lanes = append(ps.Lanes, lane)
	}
	counted := en
	if b.Broadcast {
		counted = firstReaders(en, addr)
	}
	bankBits := bits.Len(uint(b.Banks - 1))
	counts := make([]*hdl.Signal, b.Banks)
	for bank := range b.Banks {
		var in []*hdl.Signal
		for i := range b.Lanes {
			lane := counted[i]
			if bankBits > 0 {
				lane = lane.And(addr[i].Slice(bankBits-1, 0).EqConst(uint64(bank)))
			}
			in = append(in, lane)
		}
		counts[bank] = lib.PopCount(lib.Bus(in)).Zext(DegreeWidth(b.Lanes))
	}
	_, _, degree := lib.Argmax(counts, m.ConstU(1, 1).Repl(b.Banks))

	dw := DegreeWidth(b.Lanes)
	var steps []*hdl.Signal // k*Ports < degree for k = 1 .. ceil(Lanes/Ports)-1
	for k := 1; k*b.Ports < b.Lanes; k++ {
		steps = append(steps, degree.Gt(m.ConstU(dw, uint64(k*b.Ports))))
	}
	extra := m.ConstU(ExtraWidth(b.Lanes), 0)
	if len(steps) > 0 {
		extra = lib.PopCount(lib.Bus(steps)).Zext(ExtraWidth(b.Lanes))
	}
	out := m.OutputFields("")
	ps.Degree = out("degree", dw)
	ps.Degree.Drive(degree)
	ps.Cycles = out("cycles", dw)
	ps.Cycles.Drive(extra.Zext(dw).Add(m.ConstU(dw, 1)))
	ps.Extra = out("extra", ExtraWidth(b.Lanes))
	ps.Extra.Drive(extra)
	ps.Conflict = out("conflict", 1)
	ps.Conflict.Drive(extra.RedOr())
	b.properties(m, ps, en, counted)
	return m, ps
}

// properties states the unit's contract (thesis 5.3.1, Eq. 5.3;
// DESIGN.md, elastic-bkconf): degree <= lanes, degree 0 exactly when no
// lane is enabled, cycles = max(1, ceil(degree/ports)) (stated as
// (cycles-1)*ports < degree <= cycles*ports, or cycles = 1 for a degree
// within one cycle), extra = cycles - 1 and conflict = extra != 0. The
// cover points are a conflict (where the most degree exceeds the ports),
// with Broadcast lanes served together, and in configurations small
// enough for random lanes no lane, the most degree (every lane in one
// bank; with Broadcast, every word of one bank) and the most cycles.
func (b BankConflict) properties(m *hdl.Module, ps BankConflictPorts, en, counted []*hdl.Signal) {
	dw := ps.Degree.Width()
	lanes := m.ConstU(dw, uint64(b.Lanes))
	m.Assert(ps.Degree.Le(lanes), "degree_le_lanes", "the conflict degree exceeds the lanes")
	anyEn := lib.Bus(en).RedOr()
	m.Assert(anyEn.Eq(ps.Degree.RedOr()), "degree_zero_iff_idle", "degree is 0 with a lane enabled, or not 0 with none")
	cycles, degree := ps.Cycles, ps.Degree
	pw := dw + bits.Len(uint(b.Ports)) // the width of cycles * ports
	covers := cycles.MulConst(uint64(b.Ports)).Ge(degree.Zext(pw))
	before := cycles.Sub(m.ConstU(dw, 1)).MulConst(uint64(b.Ports)).Lt(degree.Zext(pw))
	ceil := cycles.RedOr().And(covers).And(cycles.EqConst(1).Or(before))
	m.Assert(ceil, "cycles_ceil", "cycles is not max(1, ceil(degree/ports)) (Eq. 5.3)")
	extraOk := ps.Extra.Zext(dw).Add(m.ConstU(dw, 1)).Eq(cycles).And(ps.Conflict.Eq(ps.Extra.RedOr()))
	m.Assert(extraOk, "extra_is_cycles_minus_one", "extra is not cycles - 1, or conflict not extra != 0")
	most := b.Lanes // every lane in one bank; with Broadcast, at most the bank's words
	if words := 1 << max(0, b.Aw-bits.Len(uint(b.Banks-1))); b.Broadcast && words < most {
		most = words
	}
	if most > b.Ports {
		m.Cover(ps.Conflict, "conflict")
	}
	// Stated where the lockstep's random lanes get there (a family pack
	// fails on a cover point its stimulus never reaches, unless Yosys
	// shows it unreachable): no lane enabled up to 8 lanes, the most
	// degree where it is at most 2.
	if b.Lanes <= 8 {
		m.Cover(anyEn.Not(), "no_lane")
	}
	if most <= 2 {
		m.Cover(degree.EqConst(uint64(most)), "most_degree")
		m.Cover(cycles.EqConst(uint64((most+b.Ports-1)/b.Ports)), "most_cycles")
	}
	if b.Broadcast {
		m.Cover(lib.Bus(en).Ne(lib.Bus(counted)), "broadcast")
	}
}

// firstReaders marks the enabled lanes that no lower enabled lane reads the
// same word as: one per distinct address.
func firstReaders(en, addr []*hdl.Signal) []*hdl.Signal {
	first := make([]*hdl.Signal, len(en))
	for i := range en {
		var same []*hdl.Signal
		for j := range i {
			same = append(same, en[j].And(addr[j].Eq(addr[i])))
		}
		first[i] = en[i]
		if len(same) > 0 {
			first[i] = en[i].And(lib.Bus(same).RedOr().Not())
		}
	}
	return first
}
