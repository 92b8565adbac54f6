package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// Helpers for the properties written most (hdl's Module.Assert): one-hot, at most one-hot and never-both are immediate assertions;
// within-n and stable-until follow a condition across cycles with ghost
// registers that only their assertion reads, so the Verilog holds them
// inside `ifdef FORMAL alone and the design's StateElements leave them
// out.
//
// Every helper samples its signals as Assert does: in each cycle in which
// rst is 0, on that cycle's values before the clock edge. A cycle in which
// rst is 1 neither checks nor starts anything, and its edge resets the
// ghost registers, which drops every obligation pending. name is the
// assertion's, unique among the module's properties as Assert requires,
// and names the ghost registers (ghost_<name>_...); message says what
// went wrong. Called inside an If or Switch body, the assertion applies
// only on that path, as Assert's would; the ghost registers follow their
// signals in every cycle wherever the helper is called. Each is an
// hdl.Helper: a failure, and an error in its arguments, point at the line
// that called it.

// OneHot asserts that s has exactly one bit set.
func OneHot(m *hdl.Module, s *hdl.Signal, name, message string) {
	hdl.Helper()
	m.Assert(exactlyOne(s), name, message)
}

// AtMostOneHot asserts that s has at most one bit set (none is allowed).
func AtMostOneHot(m *hdl.Module, s *hdl.Signal, name, message string) {
	hdl.Helper()
	m.Assert(atMostOne(s), name, message)
}

// NeverBoth asserts that a and b (of one width; conditions of 1 bit, as a
// rule) are never 1 in the same bit in the same cycle.
func NeverBoth(m *hdl.Module, a, b *hdl.Signal, name, message string) {
	hdl.Helper()
	m.Assert(a.And(b).RedOr().Not(), name, message)
}

// exactlyOne is 1 when s has exactly one bit set.
func exactlyOne(s *hdl.Signal) *hdl.Signal { return atMostOne(s).And(s.RedOr()) }

// atMostOne is 1 when s has at most one bit set: clearing its lowest set
// bit leaves none.
func atMostOne(s *hdl.Signal) *hdl.Signal {
	return s.And(s.Sub(s.Module().ConstU(s.Width(), 1))).RedOr().Not()
}

// Deadline is what WithinN and WithinNTicks track, for further properties
// (a lemma that makes a proof inductive, a cover point); only properties
// may read it, or its ghost register would be hardware.
type Deadline struct {
	// Waited (CountWidth(n+1) bits) is the ticks that passed without done
	// since the oldest start still pending, this cycle's not counted: at
	// most n in every cycle the assertion holds, 0 when no start is
	// pending.
	Waited *hdl.Signal

	open, done, limit *hdl.Signal
}

// Worst is 1 in a cycle where done answers a start as late as n allows:
// a start is open and done is 1 after n ticks passed. It is made when
// asked for, as every signal the helpers make is read by a property:
// logic that none reads counts as hardware, ghost registers and all.
func (d Deadline) Worst() *hdl.Signal { return d.open.And(d.done).And(d.Waited.Eq(d.limit)) }

// WithinN asserts that once start is 1, done is 1 within n cycles: in the
// start's cycle or in one of the n cycles after it (SVA's start |->
// ##[0:n] done; n = 0 asks for done in the start's cycle). A start while
// another is pending adds nothing: one done answers every start before it
// and in its own cycle, and the oldest start's deadline is the earliest.
// The assertion fails in the last cycle allowed, the oldest pending
// start's + n, if done is 0 in it; the obligation is then dropped, so a
// later start is checked afresh. For a response owed to each request
// apiece, count them instead (as FIFO's ghost counters do).
func WithinN(m *hdl.Module, start, done *hdl.Signal, n int, name, message string) Deadline {
	hdl.Helper()
	return WithinNTicks(m, start, done, m.ConstU(1, 1), n, name, message)
}

// WithinNTicks is WithinN counting only the cycles in which tick is 1:
// once start is 1, done must be 1 before more than n ticks pass, where a
// tick passes in a cycle with tick 1 and done 0 (the start's own cycle
// included). So done may come in the cycle of the (n+1)-th tick, and it
// fails in a cycle where tick is 1, done 0 and n ticks passed already.
// With tick always 1 this is WithinN; with tick the grants an arbiter
// hands out, "a requester waits for at most n grants to others".
//
// The ghost register ghost_<name>_wait is 0 while no start is pending
// and 1 + Waited while one is.
func WithinNTicks(m *hdl.Module, start, done, tick *hdl.Signal, n int, name, message string) Deadline {
	hdl.Helper()
	if n < 0 {
		panic(fmt.Sprintf("lib.WithinNTicks %s: n = %d, want n >= 0", name, n))
	}
	w := CountWidth(n + 1)
	wait := m.Reg("ghost_"+name+"_wait", w)
	zero, one, limit := m.ConstU(w, 0), m.ConstU(w, 1), m.ConstU(w, uint64(n))
	pending := wait.RedOr()
	waited := hdl.Mux(pending, wait.Sub(one), zero)
	open, missing := pending.Or(start), done.Not()
	passed := waited.Add(tick.Zext(w)) // waited < 2^w - 1: no carry out
	late := passed.Gt(limit)
	m.Assert(open.And(missing).And(late).Not(), name, message)
	wait.Drive(hdl.Mux(open.And(missing).And(late.Not()), passed.Add(one), zero))
	return Deadline{Waited: waited, open: open, done: done, limit: limit}
}

// StableUntil asserts that value keeps, from a cycle in which from is 1
// through the first cycle from then on in which until is 1, the value it
// had in the from cycle. Nothing is asked of the from cycle itself, or of
// any later one when until is 1 in the from cycle; a from while one is
// pending adds nothing (value has not changed since). The assertion fails
// in the first cycle whose value differs from the cycle before while a
// from is pending.
//
// Its ghost registers are ghost_<name>_held, which it returns (a from is
// pending: 1 from the cycle after a from through the cycle of until), and
// ghost_<name>_past (value in the cycle before). k-induction proves it at
// a small k where the design's state shows a pending from; where that
// state looks the same with and without one while value may change, the
// induction must run past every such state, and a lemma of what held
// implies (held -> busy) keeps it short. For a stream's valid and payload
// use StreamStable, which holds valid itself.
func StableUntil(m *hdl.Module, from, until, value *hdl.Signal, name, message string) (held *hdl.Signal) {
	hdl.Helper()
	held, past := stableSince(m, from, until, value, name)
	m.Assert(held.Not().Or(value.Eq(past)), name, message)
	return held
}

// StreamStable asserts a producer's side of the valid/ready rule on s: an
// offer is not withdrawn or changed before it is taken. From a cycle in
// which Valid is 1 and Ready 0, Valid stays 1 and the payload (all its
// fields, hdl.Pack) keeps its value through the cycle in which Ready is 1
// (the transfer moves the payload first offered). It is StableUntil(m,
// Valid, Ready, Valid and payload), stated so that k-induction can prove
// it: a pending offer with Valid 0 fails at once. For a stream whose
// payload may change while offered pass it without the payload,
// hdl.Stream[struct{}]{Valid: s.Valid, Ready: s.Ready}: Valid alone is
// held.
func StreamStable[P any](m *hdl.Module, s hdl.Stream[P], name, message string) {
	hdl.Helper()
	payload := hdl.Pack(s.Payload)
	if payload == nil {
		held, _ := stableSince(m, s.Valid, s.Ready, nil, name)
		m.Assert(held.Not().Or(s.Valid), name, message)
		return
	}
	held, past := stableSince(m, s.Valid, s.Ready, payload, name)
	m.Assert(held.Not().Or(s.Valid.And(payload.Eq(past))), name, message)
}

// stableSince makes StableUntil's ghost registers: held is 1 while a from
// is pending (from or held in the cycle before, and until not), past is
// value in the cycle before (nil for no value).
func stableSince(m *hdl.Module, from, until, value *hdl.Signal, name string) (held, past *hdl.Signal) {
	hdl.Helper()
	held = m.Reg("ghost_"+name+"_held", 1)
	held.Drive(held.Or(from).And(until.Not()))
	if value != nil {
		past = m.Reg("ghost_"+name+"_past", value.Width())
		past.Drive(value)
	}
	return held, past
}
