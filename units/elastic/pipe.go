package elastic

import (
	"strconv"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// Pipe is the back end of a GPU core pipeline from EXE to writeback, one
// SIMD instruction (Lanes words of W bits and a Tw-bit tag) per stage:
// the elastic back end of thesis Fig. 5.6 (elastic-pipe) or, with Base,
// the baseline with unified memory stages of Fig. 5.4(a)
// (elastic-basepipe).
//
//	clk, rst
//	in ex_valid, ex_mem, ex_hold[HW-1:0], ex_tag[Tw-1:0], ex_data_<i>[W-1:0]; out ex_ready
//	in ic_valid, ic_tag[Tw-1:0], ic_data_<i>[W-1:0]        (never refused)
//	out wb_valid, wb_src[1:0], wb_tag[Tw-1:0], wb_data_<i>[W-1:0]
//	out premem_count, nonmem_count                          (elastic only)
//
// Both have MStages memory stages S_0..S_{M-1}; an instruction that enters
// S_0 with hold h stays there h+1 cycles (a conflict of degree h+1 on
// single-ported banks, Eq. 5.3), S_k passes to S_{k+1} when S_{k+1} is
// empty or leaves, and the tail leaves when it is written back. The
// elastic back end adds the PREMEM queue before S_0 (Premem entries, Eq.
// 5.5: a warp's other subwarps wait there while the first one is held)
// and the NONMEM queue (Nonmem entries, Eq. 5.4) beside the MEM stages,
// which non-memory instructions bypass to writeback. Writeback priority
// (Fig. 5.6's numbered multiplexer inputs): the interconnect, the MEM
// tail, the oldest NONMEM entry, then EXE's non-memory instruction.
type Pipe struct {
	Lanes, W, MStages, Premem, Nonmem, Tw int
	Base                                  bool
}

// Writeback sources on wb_src.
const (
	SrcIC     = 0
	SrcMem    = 1
	SrcNonmem = 2
	SrcExe    = 3
)

// payload is what an instruction carries through the back end unchanged.
type payload struct {
	Tag  *hdl.Signal
	Data []*hdl.Signal
}

// held is a memory instruction before S_0: its payload and its hold.
type held struct {
	Hold    *hdl.Signal
	Payload payload
}

// stage is one MEM stage's pipeline register.
type stage struct {
	Valid   *hdl.Signal
	Payload payload
}

func (p Pipe) payload(f func(lane int) hdl.Fields) payload {
	pl := payload{Tag: f(-1)("tag", p.Tw)}
	for i := range p.Lanes {
		pl.Data = append(pl.Data, f(i)("data", p.W))
	}
	return pl
}

// lanes turns a Fields maker with lanes into one for payload: lane -1 is
// the unlaned tag.
func lanes(make func(prefix string, lane ...int) hdl.Fields, prefix string) func(int) hdl.Fields {
	return func(lane int) hdl.Fields {
		if lane < 0 {
			return make(prefix)
		}
		return make(prefix, lane)
	}
}

// Build makes the module called name, in Fig. 5.6's parts: the ports,
// the MEM stages, what enters S_0 and which instructions may write back
// (every instruction through the MEM stages in the baseline of Fig.
// 5.4(a); PREMEM and NONMEM beside them in the elastic pipeline), the
// writeback's priority multiplexer, and each stage's next value.
func (p Pipe) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	b := &pipeBuild{p: p, m: m, hw: ExtraWidth(p.Lanes)}
	b.exValid, b.exMem, b.exHold = m.Input("ex_valid", 1), m.Input("ex_mem", 1), m.Input("ex_hold", b.hw)
	b.ex = p.payload(lanes(m.InputFields, "ex"))
	b.exReady = m.Output("ex_ready", 1)
	b.icValid = m.Input("ic_valid", 1)
	b.ic = p.payload(lanes(m.InputFields, "ic"))
	b.one, b.zero = m.ConstU(1, 1), m.ConstU(1, 0)
	b.memStages()
	if p.Base {
		b.baseEntry()
	} else {
		b.elasticEntry()
	}
	b.writeback()
	b.edge()
	return m
}

// pipeBuild is a pipe under construction.
type pipeBuild struct {
	p         Pipe
	m         *hdl.Module
	hw        int // the hold's width
	exValid   *hdl.Signal
	exMem     *hdl.Signal
	exHold    *hdl.Signal
	ex        payload
	exReady   *hdl.Signal
	icValid   *hdl.Signal
	ic        payload
	one, zero *hdl.Signal

	s         []stage
	hold      *hdl.Signal // S_0's cycles still to stay
	done      *hdl.Signal // S_0's hold is over
	tailReady *hdl.Signal
	leaves    []*hdl.Signal // S_k's instruction moves on at this edge
	s0Free    *hdl.Signal

	sources      []source // writeback candidates in priority order
	enter        *hdl.Signal
	enterHold    *hdl.Signal
	enterPayload payload
}

// memStages are the MEM stages. S_0's hold counts the cycles it still
// stays; the tail writes back when the interconnect does not.
func (b *pipeBuild) memStages() {
	p, m := b.p, b.m
	b.s = make([]stage, p.MStages)
	for k := range b.s {
		prefix := "s" + strconv.Itoa(k)
		b.s[k] = stage{Valid: m.Reg(prefix+"_valid", 1), Payload: p.payload(lanes(m.RegFields, prefix))}
	}
	b.hold = m.Reg("s0_hold", b.hw)
	b.done = b.hold.RedOr().Not()
	tail := b.s[p.MStages-1]
	b.tailReady = tail.Valid
	if p.MStages == 1 {
		b.tailReady = b.tailReady.And(b.done)
	}
	b.leaves = make([]*hdl.Signal, p.MStages)
	b.leaves[p.MStages-1] = b.icValid.Not().And(b.tailReady)
	for k := p.MStages - 2; k >= 0; k-- {
		b.leaves[k] = b.s[k].Valid.And(b.s[k+1].Valid.Not().Or(b.leaves[k+1]))
		if k == 0 {
			b.leaves[k] = b.leaves[k].And(b.done)
		}
	}
	b.s0Free = b.s[0].Valid.Not().Or(b.leaves[0])
	b.sources = []source{{b.icValid, SrcIC, b.ic}, {b.tailReady, SrcMem, tail.Payload}}
}

// baseEntry: Fig. 5.4(a): every instruction takes the MEM stages.
func (b *pipeBuild) baseEntry() {
	b.enter, b.enterHold, b.enterPayload = b.exValid.And(b.s0Free), b.exHold, b.ex
	b.exReady.Drive(b.s0Free)
}

// elasticEntry is Fig. 5.5's queues beside the MEM stages.
func (b *pipeBuild) elasticEntry() {
	p, m, ex, exHold, s0Free := b.p, b.m, b.ex, b.exHold, b.s0Free
	exMemValid, exNonmem := b.exValid.And(b.exMem), b.exValid.And(b.exMem.Not())
	// PREMEM (Eq. 5.5): S_0 takes its head, or EXE's memory instruction
	// directly when it is empty; a memory instruction not taken waits in
	// it (a free slot, or the head leaving).
	exReadyMem, prememCount := s0Free, b.zero
	b.enter, b.enterHold, b.enterPayload = exMemValid.And(s0Free), exHold, ex
	if p.Premem > 0 {
		empty := m.Wire("premem_empty", 1)
		direct := empty.And(s0Free)
		pm := lib.NewQueueOf(m, "premem_fifo", lib.FIFO{Depth: p.Premem, Pipe: true},
			exMemValid.And(direct.Not()), held{Hold: exHold, Payload: ex}, s0Free)
		empty.Drive(pm.OutValid.Not())
		b.enter = s0Free.And(pm.OutValid.Or(exMemValid))
		b.enterHold = hdl.Mux(pm.OutValid, pm.Out.Hold, exHold)
		b.enterPayload = hdl.MuxRecord(pm.OutValid, pm.Out.Payload, ex)
		exReadyMem, prememCount = direct.Or(pm.InReady), pm.Count
	}
	// NONMEM (Eq. 5.4): its oldest entry writes back when neither the
	// interconnect nor the MEM tail does, EXE's non-memory instruction
	// when it is empty too; one not written back waits in it.
	slotFree := b.icValid.Or(b.tailReady).Not()
	empty := m.Wire("nonmem_empty", 1)
	wbExe := slotFree.And(empty)
	nm := lib.NewQueueOf(m, "nonmem_fifo", lib.FIFO{Depth: p.Nonmem, Pipe: true}, exNonmem.And(wbExe.Not()), ex, slotFree)
	empty.Drive(nm.OutValid.Not())
	b.sources = append(b.sources, source{nm.OutValid, SrcNonmem, nm.Out}, source{exNonmem, SrcExe, ex})
	b.exReady.Drive(hdl.Mux(b.exMem, exReadyMem, wbExe.Or(nm.InReady)))
	m.Output("premem_count", lib.CountWidth(p.Premem)).Drive(prememCount)
	m.Output("nonmem_count", lib.CountWidth(p.Nonmem)).Drive(nm.Count)
}

// writeback: the first valid source (Fig. 5.6's priority multiplexer).
func (b *pipeBuild) writeback() {
	m := b.m
	last := b.sources[len(b.sources)-1]
	wbValid, wbSrc, wbPayload := last.valid, m.ConstU(2, uint64(last.src)), last.payload
	for i := len(b.sources) - 2; i >= 0; i-- {
		c := b.sources[i]
		wbValid = c.valid.Or(wbValid)
		wbSrc = hdl.Mux(c.valid, m.ConstU(2, uint64(c.src)), wbSrc)
		wbPayload = hdl.MuxRecord(c.valid, c.payload, wbPayload)
	}
	m.Output("wb_valid", 1).Drive(wbValid)
	m.Output("wb_src", 2).Drive(wbSrc)
	hdl.DriveRecord(b.p.payload(lanes(m.OutputFields, "wb")), wbPayload)
}

// edge is each stage's next value: S_0 loads what enters and counts its
// hold down; S_k takes S_{k-1}'s instruction when it moves on, and
// empties when its own leaves with nothing behind.
func (b *pipeBuild) edge() {
	m, s, one, zero := b.m, b.s, b.one, b.zero
	m.If(b.enter, func() {
		hdl.SetRecord(s[0], stage{Valid: one, Payload: b.enterPayload})
		b.hold.Set(b.enterHold)
	}).Elif(b.leaves[0], func() { s[0].Valid.Set(zero) })
	m.If(b.enter.Not().And(b.done.Not()), func() { b.hold.Set(b.hold.Sub(m.ConstU(b.hw, 1))) })
	for k := 1; k < b.p.MStages; k++ {
		m.If(b.leaves[k-1], func() { hdl.SetRecord(s[k], stage{Valid: one, Payload: s[k-1].Payload}) }).
			Elif(b.leaves[k], func() { s[k].Valid.Set(zero) })
	}
}

// source is one writeback candidate.
type source struct {
	valid   *hdl.Signal
	src     int
	payload payload
}
