package rsdmm

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// memoryWatch is the state the memory's properties read, kept by its
// parts as they are built.
type memoryWatch struct {
	take, full          *hdl.Signal // a warp is accepted; collect holds a whole super warp
	issWrite, t, window *hdl.Signal // issue's super warp is a write; its window's cycle and length
	lastCycle           *hdl.Signal // the window's last cycle, which issues its last stage
	mmu                 []mmuStage  // the MMU's pipeline registers, mmu1 first
	retRead, retLast    *hdl.Signal // ret holds a read stage; it is its super warp's last
	left                *hdl.Signal // emit's warps still to answer
}

// properties states what the memory promises (DESIGN.md, rsdmm; Nakano,
// section IV, Figure 1 and Lemma 1): collect never holds more than s
// warps; the issue window (Idle, Window) runs its t over max(s, c)
// cycles; every accepted read warp gets exactly one response, and no
// response is invented: a ghost counter of the responses owed (accepted
// read warps less responses given) equals the read warps in collect,
// issue, the MMU, ret and emit, and a response comes only when one is
// owed; a read super warp's last stage reaches emit only when the one
// before has at most its last response to give, so responses never
// overlap and leave in the order the warps came. Strengthening
// invariants: a last stage in flight is at least s cycles behind the one
// ahead and behind every earlier window, and emit is close enough to
// done for a read's last stage d cycles from ret. Cover points: both
// states of the window, a window opening at the edge another ends,
// congestion stretching a window past s, a configuration write, a warp
// refused, a response.
func (b *memoryBuild) properties(w memoryWatch) {
	p, m := b.p, b.m
	st, busy := b.issueState, b.busy
	sw := lib.CountWidth(p.S)
	cw := w.t.Width()
	m.Assert(b.collected.Le(m.ConstU(b.collected.Width(), uint64(p.S))), "collected_le_s", "collect holds more than s warps")
	m.Assert(w.left.Le(m.ConstU(sw, uint64(p.S))), "left_le_s", "emit has more than s warps to answer")
	m.If(busy, func() { m.Assert(w.t.Lt(w.window), "t_in_window", "the issue window ran past max(s, c) cycles") })

	// Where each last stage in flight is: its cycles to ret (d for the
	// MMU's register d of l-1, 0 for ret itself).
	type inFlight struct {
		last, read *hdl.Signal
		dist       int
	}
	var flight []inFlight
	for d, s := range w.mmu {
		flight = append(flight, inFlight{s.Valid.And(s.Last), s.Read, p.L - 1 - d})
	}
	flight = append(flight, inFlight{w.retLast, w.retRead, 0})
	dw := lib.CountWidth(p.L + p.S)
	for i, f := range flight {
		m.If(f.last.And(f.read), func() {
			m.Assert(w.left.Zext(dw).Le(m.ConstU(dw, uint64(1+f.dist))), fmt.Sprintf("emit_ready_%d", f.dist),
				"a read's last stage is on its way and emit cannot finish the super warp before it")
		})
		for _, g := range flight[i+1:] { // g is ahead of f
			if f.dist-g.dist < p.S {
				m.Assert(f.last.And(g.last).Not(), fmt.Sprintf("last_stages_apart_%d_%d", f.dist, g.dist), "two last stages in flight fewer than s cycles apart")
			}
		}
		// every last stage in flight left s0 before the window opened:
		// l - dist cycles ago, at least t+1
		if age := p.L - f.dist; age >= 1 {
			m.If(busy.And(f.last), func() {
				m.Assert(w.t.Lt(m.ConstU(cw, uint64(age))), fmt.Sprintf("window_after_%d", f.dist), "a last stage in flight left after the window it precedes opened")
			})
		}
	}
	done := w.retRead.And(w.retLast)
	m.If(done, func() {
		m.Assert(w.left.Le(m.ConstU(sw, 1)), "responses_never_overlap", "a read super warp finished while emit still answered the one before")
	})
	b.owedProperties(w)

	m.Cover(st.Is("Idle"), "state_idle")
	m.Cover(busy, "state_window")
	m.Cover(w.lastCycle.And(b.transfer), "window_after_window")
	m.Cover(busy.And(w.window.Gt(m.ConstU(cw, uint64(p.S)))), "congestion_stretches_window")
	m.Cover(b.cfgTake, "cfg_write")
	m.Cover(b.io.Req.Valid.And(b.io.Req.Ready.Not()), "warp_refused")
	m.Cover(b.io.Resp.Valid, "response")
}

// owedProperties: the ghost count of responses owed, read warps accepted
// less responses given, equals the read warps held: collect's (a read
// super warp's, col_write 0), s for a read super warp in issue or a read
// last stage in the MMU or ret, and emit's left.
func (b *memoryBuild) owedProperties(w memoryWatch) {
	p, m := b.p, b.m
	ow := lib.CountWidth(p.S * (p.L + 3))
	owed := m.Reg("ghost_owed", ow)
	readWarp := w.take.And(hdl.Mux(w.full.Or(b.collected.EqConst(0)), b.io.Req.Payload.Write, b.colWrite).Not())
	owed.Set(owed.Add(readWarp.Zext(ow)).Sub(b.io.Resp.Valid.Zext(ow)))
	s := m.ConstU(ow, uint64(p.S))
	held := hdl.Mux(b.colWrite, m.ConstU(ow, 0), b.collected.Zext(ow)).Add(w.left.Zext(ow))
	held = held.Add(hdl.Mux(b.busy.And(w.issWrite.Not()), s, m.ConstU(ow, 0)))
	for _, st := range w.mmu {
		held = held.Add(hdl.Mux(st.Valid.And(st.Last).And(st.Read), s, m.ConstU(ow, 0)))
	}
	held = held.Add(hdl.Mux(w.retRead.And(w.retLast), s, m.ConstU(ow, 0)))
	m.Assert(owed.Eq(held), "owed_is_held", "the responses owed are not the read warps the memory holds: one was lost or invented")
	m.If(b.io.Resp.Valid, func() { m.Assert(owed.EqConst(0).Not(), "response_owed", "a response came with none owed") })
}
