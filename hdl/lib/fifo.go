package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// FIFO is the lib-fifo unit: a synchronous queue of Depth words of Width
// bits (any depth, not only powers of two), kept in a memory addressed by
// a head and a tail pointer; FIFOPorts are its ports.
//
// For the elastic pipeline's NONMEM queue, the vector MSHR's fill queue
// and the DRAM read and write queues (through NewQueue).
type FIFO struct {
	Depth, Width int
	Standard     bool
	Pipe         bool
}

// FIFOPorts are a FIFO module's ports (DESIGN.md, lib-fifo). in_ready =
// count < depth (not full), with Pipe also when out_ready (Chisel's pipe
// queue; the elastic pipeline's queues take an instruction when "a slot is
// free or the head leaves"); out_valid = count > 0 (not empty). At an edge
// a push (In transfers) and a pop (Out transfers) both take effect and
// count becomes count + push - pop; rst empties the queue. out_data is the
// oldest entry, first-word fall-through: an entry pushed at an edge is
// visible right after it. With Standard, it is instead the entry popped at
// the last pop, read synchronously (a block RAM's read port).
type FIFOPorts struct {
	In    hdl.Stream[FIFOWord] `doc:"push"`
	Out   hdl.Stream[FIFOWord] `doc:"pop"`
	Count *hdl.Signal          `doc:"[CW-1:0] the entries held"`
}

// FIFOWord is the word a FIFO pushes and pops.
type FIFOWord struct {
	Data *hdl.Signal `doc:"[width-1:0] the word"`
}

// ModuleName is the module's name with its parameters: lib_fifo_d5_w8
// (lib_fifo_d5_w8_std with Standard, lib_fifo_d5_w8_pipe with Pipe).
func (f FIFO) ModuleName() string {
	name := fmt.Sprintf("lib_fifo_d%d_w%d", f.Depth, f.Width)
	if f.Standard {
		name += "_std"
	}
	if f.Pipe {
		name += "_pipe"
	}
	return name
}

// Build makes the module called name.
func (f FIFO) Build(name string) *hdl.Module { return hdl.ModuleOf(f.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (f FIFO) WithPorts(name string) (*hdl.Module, FIFOPorts) {
	m := hdl.NewModule(name)
	cw, width := CountWidth(f.Depth), f.Width
	word := func(f hdl.Fields) FIFOWord { return FIFOWord{Data: f("data", width)} }
	p := FIFOPorts{In: hdl.InStream(m, "in", word), Out: hdl.OutStream(m, "out", word), Count: m.Output("count", cw)}
	fill := m.Reg("fill", cw)
	head, tail := m.Reg("head", IndexWidth(f.Depth)), m.Reg("tail", IndexWidth(f.Depth))
	notFull, notEmpty := plant("fifo.not_full", fill.Lt(m.ConstU(cw, uint64(f.Depth)))), fill.RedOr()
	inReady := notFull
	if f.Pipe {
		inReady = notFull.Or(p.Out.Ready)
	}
	push, pop := p.In.Valid.And(inReady), notEmpty.And(p.Out.Ready)

	slots := m.MemDepth("slot", f.Depth, f.Width)
	slots.Write(tail, p.In.Payload.Data, push)
	m.If(push, func() { tail.Set(wrapInc(tail, f.Depth)) })
	m.If(pop, func() { head.Set(wrapInc(head, f.Depth)) })
	m.If(push.And(pop.Not()), func() { fill.Set(fill.Add(m.ConstU(cw, 1))) }).
		Elif(pop.And(push.Not()), func() { fill.Set(fill.Sub(m.ConstU(cw, 1))) })

	p.In.Ready.Drive(inReady)
	p.Out.Valid.Drive(notEmpty)
	p.Count.Drive(fill)
	if f.Standard {
		p.Out.Payload.Data.Drive(slots.ReadSync(head, pop))
	} else {
		p.Out.Payload.Data.Drive(slots.Read(head))
	}
	f.properties(m, fifoState{fill: fill, head: head, tail: tail, push: push, pop: pop, refused: p.In.Valid.And(inReady.Not()), out: p.Out})
	return m, p
}

// fifoState is what the FIFO's properties read.
type fifoState struct {
	fill, head, tail, push, pop, refused *hdl.Signal
	out                                  hdl.Stream[FIFOWord]
}

// properties states what the queue promises (DESIGN.md, lib-fifo): it
// never holds more than Depth entries, its count is the pushes taken
// minus the pops (ghost counters kept beside it), the pointers are that
// count apart, a push is taken only into a free slot (or, Pipe, one the
// head leaves in the same cycle), words leave in the order they came, and
// the word offered stays offered, unchanged, until it is popped.
//
// The order is checked through a ghost copy of the slots' order: beside
// each pushed word a ghost tag holds the pushes before it, so the word a
// pop takes must carry the pops so far. held_in_push_order makes this
// inductive: the k-th word from head carries the pops so far plus k. The
// ghost counters and tags count modulo 2^CW > Depth, so the tags of the
// words held are distinct. The cover points: full, drained (a pop that
// empties it), a push and a pop at once, a push refused, the head
// wrapping.
func (f FIFO) properties(m *hdl.Module, s fifoState) {
	cw := s.fill.Width()
	depth, one := m.ConstU(cw, uint64(f.Depth)), m.ConstU(cw, 1)
	m.Assert(s.fill.Le(depth), "count_le_depth", "the queue holds at most depth entries")
	pushes, pops := m.Reg("ghost_pushes", cw), m.Reg("ghost_pops", cw)
	m.If(s.push, func() { pushes.Set(pushes.Add(one)) })
	m.If(s.pop, func() { pops.Set(pops.Add(one)) })
	m.Assert(pushes.Sub(pops).Eq(s.fill), "count_is_pushes_minus_pops", "count equals the pushes taken minus the pops")
	head, tail := s.head.Zext(cw), s.tail.Zext(cw)
	m.Assert(head.Lt(depth).And(tail.Lt(depth)), "pointers_in_range", "a pointer names no slot")
	m.Assert(f.past(head, tail).Eq(hdl.Mux(s.fill.Eq(depth), m.ConstU(cw, 0), s.fill)), "pointers_apart_by_count", "tail is count entries past head, modulo depth")
	m.If(s.push, func() {
		free := s.fill.Lt(depth)
		if f.Pipe {
			free = free.Or(s.pop)
		}
		m.Assert(free, "push_into_free_slot", "a push is taken only into a free slot")
	})
	tags := hdl.RegArray(m, "ghost_tag", f.Depth, func(f hdl.Fields) *hdl.Signal { return f("", cw) })
	m.If(s.push, func() { tags.Write(s.tail, pushes) })
	m.If(s.pop, func() {
		m.Assert(tags.Read(s.head).Eq(pops), "popped_in_push_order", "the word popped is not the oldest held: its tag is not the pops so far")
	})
	inOrder := make([]*hdl.Signal, f.Depth)
	for i, tag := range tags.Elems() {
		k := f.past(head, m.ConstU(cw, uint64(i)))
		inOrder[i] = k.Ge(s.fill).Or(tag.Eq(pops.Add(k)))
	}
	m.Assert(Bus(inOrder).RedAnd(), "held_in_push_order", "the k-th word from head does not carry the pops so far plus k")
	StreamStable(m, s.out, "out_stable", "out_valid fell or out_data changed before the pop")
	m.Cover(s.fill.Eq(depth), "full")
	m.Cover(s.pop.And(s.push.Not()).And(s.fill.EqConst(1)), "drained")
	if f.Depth > 1 || f.Pipe { // a queue of one slot takes a push only when empty
		m.Cover(s.push.And(s.pop), "push_and_pop")
	}
	m.Cover(s.refused, "push_refused")
	m.Cover(s.pop.And(s.head.EqConst(uint64(f.Depth-1))), "head_wraps")
}

// past is how far slot to lies past slot from, modulo Depth (both below
// Depth, as wide as a count).
func (f FIFO) past(from, to *hdl.Signal) *hdl.Signal {
	depth := from.Module().ConstU(from.Width(), uint64(f.Depth))
	return hdl.Mux(to.Ge(from), to.Sub(from), to.Add(depth).Sub(from))
}

// Queue is a FIFO of records placed in a parent module by NewQueue: the
// parent drives a record in and reads the oldest one out.
type Queue[T any] struct {
	InReady  *hdl.Signal // not full (or, Pipe, popping): a push is taken
	OutValid *hdl.Signal // not empty: Out is the oldest record
	Out      T
	Count    *hdl.Signal
}

// NewQueue places a first-word fall-through FIFO of depth records shaped
// like in, an instance called name of the shared module FIFO{depth, width
// of in}.ModuleName(). The parent pushes in when inValid (and InReady) and
// pops when outReady (and OutValid); each record travels packed (hdl.Pack)
// and comes out with in's field widths.
//
//	type req struct{ Addr, Tag *hdl.Signal }
//	q := lib.NewQueue(m, "pending", 5, arrive, req{addr, tag}, issue)
//	m.If(q.OutValid, func() { next.Set(q.Out.Addr) })
func NewQueue[T any](m *hdl.Module, name string, depth int, inValid *hdl.Signal, in T, outReady *hdl.Signal) Queue[T] {
	return NewQueueOf(m, name, FIFO{Depth: depth}, inValid, in, outReady)
}

// NewQueueOf is NewQueue for a FIFO of any kind (Standard, Pipe); its
// Width is in's.
func NewQueueOf[T any](m *hdl.Module, name string, f FIFO, inValid *hdl.Signal, in T, outReady *hdl.Signal) Queue[T] {
	f.Width = hdl.RecordWidth(in)
	sub, ports := f.WithPorts(f.ModuleName())
	p := hdl.Use(m, name, sub, ports)
	p.In.Valid.Drive(inValid)
	p.In.Payload.Data.Drive(hdl.Pack(in))
	p.Out.Ready.Drive(outReady)
	return Queue[T]{InReady: p.In.Ready, OutValid: p.Out.Valid, Out: hdl.Unpack(p.Out.Payload.Data, in), Count: p.Count}
}
