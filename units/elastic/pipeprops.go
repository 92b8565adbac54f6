package elastic

import (
	"math/bits"
	"strconv"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// properties states what the back end promises (thesis 5.4, Figs. 5.4(a)
// and 5.6; DESIGN.md, elastic-pipe and elastic-basepipe): no instruction
// EXE hands over is lost, duplicated or reordered on its path (the memory
// path through PREMEM and the MEM stages; the elastic pipeline's
// non-memory path through NONMEM or straight to writeback, which may pass
// the memory path as Fig. 5.5 intends), and neither queue holds more than
// its depth. The cover points are every writeback source, each queue full
// and empty, a stall, a held S_0 and full MEM stages.
func (b *pipeBuild) properties() {
	b.memPathProperties()
	if !b.p.Base {
		b.nonmemPathProperties()
	}
	m, p := b.m, b.p
	for _, src := range b.sources {
		name := [...]string{SrcIC: "wb_ic", SrcMem: "wb_mem", SrcNonmem: "wb_nonmem", SrcExe: "wb_exe"}[src.src]
		m.Cover(b.WBValid.And(b.WBSrc.EqConst(uint64(src.src))), name)
	}
	m.Cover(b.Ex.Valid.And(b.Ex.Ready.Not()), "ex_stalled")
	m.Cover(b.s[0].Valid.And(b.done.Not()), "s0_held")
	valids := make([]*hdl.Signal, p.MStages)
	for k, st := range b.s {
		valids[k] = st.Valid
	}
	m.Cover(lib.Bus(valids).RedAnd(), "mem_stages_full")
	m.Cover(lib.Bus(valids).RedOr().Not(), "mem_stages_empty")
}

// memPathProperties: a ghost sequence number follows each memory
// instruction from EXE (seq_in counts them, seq_out the MEM tail's
// writebacks): the instructions in flight are the PREMEM entries and the
// valid MEM stages, the youngest in PREMEM (a FIFO), and the valid stages
// hold the numbers just below PREMEM's in order, so the tail holds
// seq_out: it writes back the oldest instruction, once. S_0 takes PREMEM's head, seq_in - count,
// or EXE's instruction, seq_in (Fig. 5.6's multiplexer before MEM0).
func (b *pipeBuild) memPathProperties() {
	m, p := b.m, b.p
	queued := m.ConstU(1, 0)
	fromQueue := m.ConstU(1, 0)
	if !p.Base && p.Premem > 0 {
		queued, fromQueue = b.PrememCount, b.entries[0].valid // PREMEM's head comes first
	}
	w := bits.Len(uint(p.Premem+p.MStages)) + 1 // in flight < 2^(w-1)
	one := m.ConstU(w, 1)
	taken := b.Ex.Valid.And(b.Ex.Ready)
	if !p.Base {
		taken = taken.And(b.Ex.Payload.Mem)
	}
	seqIn, seqOut := m.Reg("ghost_mem_seq_in", w), m.Reg("ghost_mem_seq_out", w)
	m.If(taken, func() { seqIn.Set(seqIn.Add(one)) })
	m.If(b.WBValid.And(b.WBSrc.EqConst(SrcMem)), func() { seqOut.Set(seqOut.Add(one)) })

	seq := make([]*hdl.Signal, p.MStages)
	for k := range seq {
		seq[k] = m.Reg("ghost_s"+strconv.Itoa(k)+"_seq", w)
	}
	m.If(b.enter, func() { seq[0].Set(hdl.Mux(fromQueue, seqIn.Sub(queued.Zext(w)), seqIn)) })
	for k := 1; k < p.MStages; k++ {
		m.If(b.leaves[k-1], func() { seq[k].Set(seq[k-1]) })
	}

	valids := make([]*hdl.Signal, p.MStages)
	for k, st := range b.s {
		valids[k] = st.Valid
	}
	inStages := lib.PopCount(lib.Bus(valids)).Zext(w)
	m.Assert(seqIn.Sub(seqOut).Eq(queued.Zext(w).Add(inStages)), "mem_none_lost",
		"the memory instructions taken minus those written back from MEM are not the PREMEM entries and valid MEM stages")
	// Counted back from EXE's side, so that the order needs no other
	// assertion to be inductive: S_k holds the instruction just older than
	// PREMEM's entries and the valid stages before it.
	var ordered []*hdl.Signal
	for k := range p.MStages {
		younger := queued.Zext(w).Add(lib.PopCount(lib.Bus(valids[:k+1])).Zext(w))
		ordered = append(ordered, valids[k].Not().Or(seq[k].Eq(seqIn.Sub(younger))))
	}
	m.Assert(lib.Bus(ordered).RedAnd(), "mem_in_order",
		"a MEM stage holds a memory instruction out of EXE's order")
	if !p.Base && p.Premem > 0 {
		m.Assert(b.PrememCount.Le(m.ConstU(b.PrememCount.Width(), uint64(p.Premem))), "premem_le_depth",
			"PREMEM holds more than its depth (Eq. 5.5)")
		m.Cover(b.PrememCount.EqConst(uint64(p.Premem)), "premem_full")
		m.Cover(b.PrememCount.EqConst(0).And(b.s[0].Valid), "premem_empty_s0_busy")
	}
}

// nonmemPathProperties: the non-memory instructions EXE hands over minus
// those written back from NONMEM or straight from EXE are NONMEM's
// entries (a ghost counter), EXE's writeback is an instruction EXE gives
// up in that cycle and passes none in NONMEM (NONMEM is a FIFO, so the
// path keeps EXE's order), and NONMEM holds at most its depth (Eq. 5.4).
func (b *pipeBuild) nonmemPathProperties() {
	m, p, count := b.m, b.p, b.NonmemCount
	cw := count.Width()
	one := m.ConstU(cw, 1)
	in := b.Ex.Valid.And(b.Ex.Ready).And(b.Ex.Payload.Mem.Not())
	out := b.WBValid.And(b.WBSrc.EqConst(SrcNonmem).Or(b.WBSrc.EqConst(SrcExe)))
	ghost := m.Reg("ghost_nonmem_count", cw)
	m.If(in.And(out.Not()), func() { ghost.Set(ghost.Add(one)) }).
		Elif(out.And(in.Not()), func() { ghost.Set(ghost.Sub(one)) })
	m.Assert(ghost.Eq(count), "nonmem_none_lost",
		"the non-memory instructions taken minus those written back are not NONMEM's entries")
	m.If(b.WBValid.And(b.WBSrc.EqConst(SrcExe)), func() {
		m.Assert(in.And(count.EqConst(0)), "exe_wb_taken_in_order",
			"EXE's writeback is not an instruction EXE gives up, or it passes NONMEM's entries")
	})
	m.Assert(count.Le(m.ConstU(cw, uint64(p.Nonmem))), "nonmem_le_depth", "NONMEM holds more than its depth (Eq. 5.4)")
	m.Cover(count.EqConst(uint64(p.Nonmem)), "nonmem_full")
	m.Cover(count.EqConst(0).And(b.Ex.Valid).And(b.Ex.Payload.Mem.Not()), "nonmem_empty_exe_nonmem")
}
