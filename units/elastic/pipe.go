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

// Build makes the module called name.
func (p Pipe) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	hw := ExtraWidth(p.Lanes)
	exValid, exMem, exHold := m.Input("ex_valid", 1), m.Input("ex_mem", 1), m.Input("ex_hold", hw)
	ex := p.payload(lanes(m.InputFields, "ex"))
	exReady := m.Output("ex_ready", 1)
	icValid := m.Input("ic_valid", 1)
	ic := p.payload(lanes(m.InputFields, "ic"))
	one, zero := m.ConstU(1, 1), m.ConstU(1, 0)

	// The MEM stages. S_0's hold counts the cycles it still stays; the
	// tail writes back when the interconnect does not.
	s := make([]stage, p.MStages)
	for k := range s {
		prefix := "s" + strconv.Itoa(k)
		s[k] = stage{Valid: m.Reg(prefix+"_valid", 1), Payload: p.payload(lanes(m.RegFields, prefix))}
	}
	hold := m.Reg("s0_hold", hw)
	done := hold.RedOr().Not()
	tail := s[p.MStages-1]
	tailReady := tail.Valid
	if p.MStages == 1 {
		tailReady = tailReady.And(done)
	}
	leaves := make([]*hdl.Signal, p.MStages) // S_k's instruction moves on at this edge
	leaves[p.MStages-1] = icValid.Not().And(tailReady)
	for k := p.MStages - 2; k >= 0; k-- {
		leaves[k] = s[k].Valid.And(s[k+1].Valid.Not().Or(leaves[k+1]))
		if k == 0 {
			leaves[k] = leaves[k].And(done)
		}
	}
	s0Free := s[0].Valid.Not().Or(leaves[0])

	// Writeback candidates in priority order, and what enters S_0.
	sources := []source{{icValid, SrcIC, ic}, {tailReady, SrcMem, tail.Payload}}
	var enter, enterHold *hdl.Signal
	var enterPayload payload
	if p.Base {
		// Fig. 5.4(a): every instruction takes the MEM stages.
		enter, enterHold, enterPayload = exValid.And(s0Free), exHold, ex
		exReady.Drive(s0Free)
	} else {
		exMemValid, exNonmem := exValid.And(exMem), exValid.And(exMem.Not())
		// PREMEM (Eq. 5.5): S_0 takes its head, or EXE's memory
		// instruction directly when it is empty; a memory instruction
		// not taken waits in it (a free slot, or the head leaving).
		exReadyMem, prememCount := s0Free, zero
		enter, enterHold, enterPayload = exMemValid.And(s0Free), exHold, ex
		if p.Premem > 0 {
			empty := m.Wire("premem_empty", 1)
			direct := empty.And(s0Free)
			pm := lib.NewQueueOf(m, "premem_fifo", lib.FIFO{Depth: p.Premem, Pipe: true},
				exMemValid.And(direct.Not()), held{Hold: exHold, Payload: ex}, s0Free)
			empty.Drive(pm.OutValid.Not())
			enter = s0Free.And(pm.OutValid.Or(exMemValid))
			enterHold = hdl.Mux(pm.OutValid, pm.Out.Hold, exHold)
			enterPayload = hdl.MuxRecord(pm.OutValid, pm.Out.Payload, ex)
			exReadyMem, prememCount = direct.Or(pm.InReady), pm.Count
		}
		// NONMEM (Eq. 5.4): its oldest entry writes back when neither
		// the interconnect nor the MEM tail does, EXE's non-memory
		// instruction when it is empty too; one not written back waits
		// in it.
		slotFree := icValid.Or(tailReady).Not()
		empty := m.Wire("nonmem_empty", 1)
		wbExe := slotFree.And(empty)
		nm := lib.NewQueueOf(m, "nonmem_fifo", lib.FIFO{Depth: p.Nonmem, Pipe: true}, exNonmem.And(wbExe.Not()), ex, slotFree)
		empty.Drive(nm.OutValid.Not())
		sources = append(sources, source{nm.OutValid, SrcNonmem, nm.Out}, source{exNonmem, SrcExe, ex})
		exReady.Drive(hdl.Mux(exMem, exReadyMem, wbExe.Or(nm.InReady)))
		m.Output("premem_count", lib.CountWidth(p.Premem)).Drive(prememCount)
		m.Output("nonmem_count", lib.CountWidth(p.Nonmem)).Drive(nm.Count)
	}

	// Writeback: the first valid source (Fig. 5.6's priority multiplexer).
	last := sources[len(sources)-1]
	wbValid, wbSrc, wbPayload := last.valid, m.ConstU(2, uint64(last.src)), last.payload
	for i := len(sources) - 2; i >= 0; i-- {
		c := sources[i]
		wbValid = c.valid.Or(wbValid)
		wbSrc = hdl.Mux(c.valid, m.ConstU(2, uint64(c.src)), wbSrc)
		wbPayload = hdl.MuxRecord(c.valid, c.payload, wbPayload)
	}
	m.Output("wb_valid", 1).Drive(wbValid)
	m.Output("wb_src", 2).Drive(wbSrc)
	hdl.DriveRecord(p.payload(lanes(m.OutputFields, "wb")), wbPayload)

	// Each stage's next value: S_0 loads what enters and counts its hold
	// down; S_k takes S_{k-1}'s instruction when it moves on, and empties
	// when its own leaves with nothing behind.
	m.If(enter, func() {
		hdl.SetRecord(s[0], stage{Valid: one, Payload: enterPayload})
		hold.Set(enterHold)
	}).Elif(leaves[0], func() { s[0].Valid.Set(zero) })
	m.If(enter.Not().And(done.Not()), func() { hold.Set(hold.Sub(m.ConstU(hw, 1))) })
	for k := 1; k < p.MStages; k++ {
		m.If(leaves[k-1], func() { hdl.SetRecord(s[k], stage{Valid: one, Payload: s[k-1].Payload}) }).
			Elif(leaves[k], func() { s[k].Valid.Set(zero) })
	}
	return m
}

// source is one writeback candidate.
type source struct {
	valid   *hdl.Signal
	src     int
	payload payload
}
