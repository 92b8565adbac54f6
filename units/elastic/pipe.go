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
// (elastic-basepipe); PipePorts are their ports.
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

// Payload is what an instruction carries through the back end unchanged:
// its tag and its lanes' words (<prefix>_tag, <prefix>_data_<i>).
type Payload struct {
	Tag  *hdl.Signal   `doc:"[tw-1:0] instruction tag"`
	Data []*hdl.Signal `doc:"[w-1:0] word of lane i"`
}

// ExInstr is EXE's instruction: a memory one or not, its hold and its
// payload.
type ExInstr struct {
	Mem  *hdl.Signal `doc:"a memory instruction"`
	Hold *hdl.Signal `doc:"[HW-1:0] extra MEM0 cycles (Eq. 5.3)"`
	Payload
}

// PipePorts are elastic-pipe's and elastic-basepipe's ports (Figs. 5.4(a),
// 5.6).
type PipePorts struct {
	// Ex is EXE's instruction; Ex.Ready 0 stalls the upstream pipeline.
	Ex hdl.Stream[ExInstr] `doc:"EXE"`
	// ICValid, IC: the interconnect's return, never refused.
	ICValid *hdl.Signal `doc:"interconnect return: valid (never refused)"`
	IC      Payload     `doc:"interconnect return"`
	// WBValid, WBSrc, WB: the writeback and its source (SrcIC ..
	// SrcExe, Fig. 5.6's priority multiplexer).
	WBValid *hdl.Signal `doc:"writeback: valid"`
	WBSrc   *hdl.Signal `doc:"writeback: [1:0] source: 0 ic, 1 MEM, 2 NONMEM, 3 EXE"`
	WB      Payload     `doc:"writeback"`
	// PrememCount, NonmemCount: the queues' occupancy (elastic only; nil
	// in the baseline, which has no queues).
	PrememCount *hdl.Signal `doc:"[PW-1:0] PREMEM entries held"`
	NonmemCount *hdl.Signal `doc:"[NW-1:0] NONMEM entries held"`
}

// held is a memory instruction before S_0: its payload and its hold.
type held struct {
	Hold    *hdl.Signal
	Payload Payload
}

// stage is one MEM stage's pipeline register.
type stage struct {
	Valid   *hdl.Signal
	Payload Payload
}

func (p Pipe) payload(f hdl.Fields) Payload {
	return Payload{Tag: f("tag", p.Tw), Data: f.Vec("data", p.Lanes, p.W)}
}

// Build makes the module called name, in Fig. 5.6's parts: the ports,
// the MEM stages, what enters S_0 and which instructions may write back
// (every instruction through the MEM stages in the baseline of Fig.
// 5.4(a); PREMEM and NONMEM beside them in the elastic pipeline), the
// writeback's priority multiplexer, and each stage's next value.
func (p Pipe) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the module called name (see Build) and returns its
// ports.
func (p Pipe) WithPorts(name string) (*hdl.Module, PipePorts) {
	m := hdl.NewModule(name)
	b := &pipeBuild{p: p, m: m, hw: ExtraWidth(p.Lanes)}
	b.Ex = hdl.InStream(m, "ex", func(f hdl.Fields) ExInstr {
		return ExInstr{Mem: f("mem", 1), Hold: f("hold", b.hw), Payload: p.payload(f)}
	})
	b.ICValid = m.Input("ic_valid", 1)
	b.IC = p.payload(m.InputFields("ic"))
	b.one, b.zero = m.ConstU(1, 1), m.ConstU(1, 0)
	b.memStages()
	if p.Base {
		b.baseEntry()
	} else {
		b.elasticEntry()
	}
	b.writeback()
	b.edge()
	b.properties()
	return m, b.PipePorts
}

// pipeBuild is a pipe under construction.
type pipeBuild struct {
	p         Pipe
	m         *hdl.Module
	hw        int // the hold's width
	PipePorts     // as the parts declare them
	one, zero *hdl.Signal

	s         []stage
	hold      *hdl.Signal // S_0's cycles still to stay
	done      *hdl.Signal // S_0's hold is over
	tailReady *hdl.Signal
	leaves    []*hdl.Signal // S_k's instruction moves on at this edge
	s0Free    *hdl.Signal

	sources []source // writeback candidates in priority order
	entries []entry  // what S_0 takes when free, in priority order
	enter   *hdl.Signal
}

// memStages are the MEM stages. S_0's hold counts the cycles it still
// stays; the tail writes back when the interconnect does not.
func (b *pipeBuild) memStages() {
	p, m := b.p, b.m
	b.s = make([]stage, p.MStages)
	for k := range b.s {
		prefix := "s" + strconv.Itoa(k)
		b.s[k] = stage{Valid: m.Reg(prefix+"_valid", 1), Payload: p.payload(m.RegFields(prefix))}
	}
	b.hold = m.Reg("s0_hold", b.hw)
	b.done = b.hold.RedOr().Not()
	tail := b.s[p.MStages-1]
	b.tailReady = tail.Valid
	if p.MStages == 1 {
		b.tailReady = b.tailReady.And(b.done)
	}
	b.leaves = make([]*hdl.Signal, p.MStages)
	b.leaves[p.MStages-1] = b.ICValid.Not().And(b.tailReady)
	for k := p.MStages - 2; k >= 0; k-- {
		b.leaves[k] = b.s[k].Valid.And(b.s[k+1].Valid.Not().Or(b.leaves[k+1]))
		if k == 0 {
			b.leaves[k] = b.leaves[k].And(b.done)
		}
	}
	b.s0Free = b.s[0].Valid.Not().Or(b.leaves[0])
	b.sources = []source{{b.ICValid, SrcIC, b.IC}, {b.tailReady, SrcMem, tail.Payload}}
}

// baseEntry: Fig. 5.4(a): every instruction takes the MEM stages, and
// EXE stalls while S_0 cannot take its instruction.
func (b *pipeBuild) baseEntry() {
	ex := b.Ex.Payload
	b.entries = []entry{{b.Ex.Valid, held{Hold: ex.Hold, Payload: ex.Payload}}}
	b.Ex.Ready.Drive(b.s0Free)
}

// elasticEntry is Fig. 5.5's queues beside the MEM stages. PREMEM (Eq.
// 5.5: a warp's other subwarps wait there while the first one is held):
// S_0 takes its head, else EXE's memory instruction, which steps into S_0
// directly only while PREMEM is empty. NONMEM (Eq. 5.4): its oldest entry
// writes back when neither the interconnect nor the MEM tail does, else
// EXE's non-memory instruction, directly only while NONMEM is empty.
func (b *pipeBuild) elasticEntry() {
	p, m, ex := b.p, b.m, b.Ex.Payload.Payload
	exHeld := held{Hold: b.Ex.Payload.Hold, Payload: ex}
	memDirect, prememCount := b.s0Free, b.zero
	var premem *queueIn
	if p.Premem > 0 {
		push := b.pushWire("premem_push")
		pm := lib.NewQueueOf(m, "premem_fifo", lib.FIFO{Depth: p.Premem, Pipe: true}, push, exHeld, b.s0Free)
		premem = &queueIn{push, pm.InReady}
		b.entries = append(b.entries, entry{pm.OutValid, pm.Out})
		memDirect, prememCount = pm.OutValid.Not().And(b.s0Free), pm.Count
	}
	exValid, exMem := b.Ex.Valid, b.Ex.Payload.Mem
	b.entries = append(b.entries, entry{exValid.And(exMem), exHeld})
	slotFree := b.ICValid.Or(b.tailReady).Not()
	push := b.pushWire("nonmem_push")
	nm := lib.NewQueueOf(m, "nonmem_fifo", lib.FIFO{Depth: p.Nonmem, Pipe: true}, push, ex, slotFree)
	b.sources = append(b.sources, source{nm.OutValid, SrcNonmem, nm.Out}, source{exValid.And(exMem.Not()), SrcExe, ex})

	// EXE's instruction takes the memory path or the non-memory one
	// (Fig. 5.5); EXE stalls unless it can go on.
	b.Ex.Ready.Set(b.zero)
	m.If(exMem, func() { b.route(memDirect, premem) }).
		Else(func() { b.route(slotFree.And(nm.OutValid.Not()), &queueIn{push, nm.InReady}) })
	b.PrememCount = m.Output("premem_count", lib.CountWidth(p.Premem))
	b.PrememCount.Drive(prememCount)
	b.NonmemCount = m.Output("nonmem_count", lib.CountWidth(p.Nonmem))
	b.NonmemCount.Drive(nm.Count)
}

// queueIn is a queue's input side as EXE sees it: its push (a pushWire)
// and whether it has room.
type queueIn struct{ push, ready *hdl.Signal }

// pushWire is a queue's push: 0 unless route Sets it.
func (b *pipeBuild) pushWire(name string) *hdl.Signal {
	push := b.m.Wire(name, 1)
	push.Set(b.zero)
	return push
}

// route is EXE's instruction's cases on its path: it goes on directly
// (into S_0, or to writeback) when direct; else it waits in the queue q,
// if there is one, and EXE stalls unless q has room; without a queue, EXE
// stalls.
func (b *pipeBuild) route(direct *hdl.Signal, q *queueIn) {
	c := b.m.If(direct, func() { b.Ex.Ready.Set(b.one) })
	if q != nil {
		c.Else(func() {
			q.push.Set(b.Ex.Valid)
			b.Ex.Ready.Set(q.ready)
		})
	}
}

// writeback: the first valid source (Fig. 5.6's priority multiplexer).
func (b *pipeBuild) writeback() {
	m, n := b.m, len(b.sources)
	valids := make([]*hdl.Signal, n)
	for i, c := range b.sources {
		valids[i] = c.valid
	}
	wbValid := valids[n-1]
	for i := n - 2; i >= 0; i-- {
		wbValid = valids[i].Or(wbValid)
	}
	b.WBValid = m.Output("wb_valid", 1)
	b.WBValid.Drive(wbValid)
	wbSrc, wb := m.Output("wb_src", 2), b.p.payload(m.OutputFields("wb"))
	b.WBSrc, b.WB = wbSrc, wb
	firstOf(m, valids, func(i int) {
		wbSrc.Set(m.ConstU(2, uint64(b.sources[i].src)))
		hdl.SetRecord(wb, b.sources[i].payload)
	})
}

// edge is each stage's next value: S_0, when free, loads the first
// instruction that enters, with its hold (Fig. 5.6's multiplexer before
// MEM0: PREMEM's head before EXE's), or empties, and while none enters
// counts its hold down (Eq. 5.3); S_k takes S_{k-1}'s instruction when it
// moves on, and empties when its own leaves with nothing behind.
func (b *pipeBuild) edge() {
	m, s, one, zero := b.m, b.s, b.one, b.zero
	valids := make([]*hdl.Signal, len(b.entries))
	for i, e := range b.entries {
		valids[i] = e.valid
	}
	enter := lib.Bus(valids).RedOr().And(b.s0Free)
	b.enter = enter
	m.If(enter, func() {
		firstOf(m, valids, func(i int) {
			hdl.SetRecord(s[0], stage{Valid: one, Payload: b.entries[i].in.Payload})
			b.hold.Set(b.entries[i].in.Hold)
		})
	}).Elif(b.leaves[0], func() { s[0].Valid.Set(zero) })
	m.If(enter.Not().And(b.done.Not()), func() { b.hold.Set(b.hold.Sub(m.ConstU(b.hw, 1))) })
	for k := 1; k < b.p.MStages; k++ {
		m.If(b.leaves[k-1], func() { hdl.SetRecord(s[k], stage{Valid: one, Payload: s[k-1].Payload}) }).
			Elif(b.leaves[k], func() { s[k].Valid.Set(zero) })
	}
}

// firstOf is an If/Elif/Else chain in priority order: arm(i) applies for
// the first i whose valids[i] is 1, the last arm when no earlier one is.
func firstOf(m *hdl.Module, valids []*hdl.Signal, arm func(i int)) {
	last := len(valids) - 1
	if last == 0 {
		arm(0)
		return
	}
	c := m.If(valids[0], func() { arm(0) })
	for i := 1; i < last; i++ {
		c.Elif(valids[i], func() { arm(i) })
	}
	c.Else(func() { arm(last) })
}

// entry is an instruction S_0 may take.
type entry struct {
	valid *hdl.Signal
	in    held
}

// source is one writeback candidate.
type source struct {
	valid   *hdl.Signal
	src     int
	payload Payload
}
