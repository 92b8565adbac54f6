package lib_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// The temporal helpers (temporal.go), each on a trace that keeps it and
// one that breaks it in the Go simulator, and proven by Yosys on a small
// block that keeps it and refuted on a broken one.

// cycles are a trace's inputs, one map a cycle, the first after reset:
// cycle 1 for a block with state (Reset's edge is cycle 0), cycle 0 for
// one without, which has no reset.
type cycles []map[string]uint64

// runTrace resets m's design, runs the trace and returns the simulator.
func runTrace(t *testing.T, m *hdl.Module, trace cycles) *sim.Sim {
	t.Helper()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	s.Reset()
	for _, in := range trace {
		for name, v := range in {
			require.NoError(t, s.SetU(name, v))
		}
		s.Step()
	}
	return s
}

// requireKept runs the trace and requires no property to fail.
func requireKept(t *testing.T, m *hdl.Module, trace cycles) *sim.Sim {
	t.Helper()
	s := runTrace(t, m, trace)
	require.Nil(t, s.Violation(), "%v", s.Violations())
	return s
}

// requireBroken runs the trace and requires name to be the first property
// that fails, in cycle.
func requireBroken(t *testing.T, m *hdl.Module, trace cycles, name string, cycle uint64) {
	t.Helper()
	v := runTrace(t, m, trace).Violation()
	require.NotNil(t, v, "%s kept", name)
	require.Equal(t, name, v.Name, v.Error())
	require.Equal(t, cycle, v.Cycle, v.Error())
	require.Equal(t, "temporal_test.go", v.Pos.File, "the failure points at the line that called the helper")
	t.Logf("%s", v.Error())
}

// covered is how often the trace reached cover point name.
func covered(s *sim.Sim, name string) uint64 {
	for _, c := range s.Covers() {
		if c.Name == name {
			return c.Hits
		}
	}
	panic("no cover point " + name)
}

func TestOneHotInSimulation(t *testing.T) {
	build := func() *hdl.Module {
		m := hdl.NewModule("onehot_check")
		s := m.Input("s", 4)
		lib.OneHot(m, s, "one_hot", "s is not one-hot")
		lib.AtMostOneHot(m, s, "at_most_one", "s has two bits set")
		return m
	}
	requireKept(t, build(), cycles{{"s": 1}, {"s": 2}, {"s": 4}, {"s": 8}})
	requireBroken(t, build(), cycles{{"s": 1}, {"s": 8}, {"s": 0}}, "one_hot", 2)
	requireBroken(t, build(), cycles{{"s": 2}, {"s": 6}}, "one_hot", 1) // one_hot comes first in one cycle
	at := func() *hdl.Module {
		m := hdl.NewModule("at_most_one_check")
		lib.AtMostOneHot(m, m.Input("s", 4), "at_most_one", "s has two bits set")
		return m
	}
	requireKept(t, at(), cycles{{"s": 0}, {"s": 8}, {"s": 1}, {"s": 0}})
	requireBroken(t, at(), cycles{{"s": 0}, {"s": 4}, {"s": 12}}, "at_most_one", 2)
}

func TestNeverBothInSimulation(t *testing.T) {
	build := func() *hdl.Module {
		m := hdl.NewModule("never_both_check")
		lib.NeverBoth(m, m.Input("a", 1), m.Input("b", 1), "not_both", "a and b in one cycle")
		return m
	}
	requireKept(t, build(), cycles{{"a": 1}, {"a": 0, "b": 1}, {"b": 0}, {"a": 1}})
	requireBroken(t, build(), cycles{{"a": 1}, {"b": 1}}, "not_both", 1)
}

// TestNeverBothOnAPath: inside an If body it applies where the path is
// taken.
func TestNeverBothOnAPath(t *testing.T) {
	build := func() *hdl.Module {
		m := hdl.NewModule("never_both_path")
		a, b, en := m.Input("a", 1), m.Input("b", 1), m.Input("en", 1)
		m.If(en, func() { lib.NeverBoth(m, a, b, "not_both", "a and b in one cycle while en") })
		return m
	}
	requireKept(t, build(), cycles{{"a": 1, "b": 1}, {"en": 1, "a": 0}})
	requireBroken(t, build(), cycles{{"a": 1, "b": 1}, {"en": 1}}, "not_both", 1)
}

// withinN is a monitor of WithinN(start, done, n) with its worst case as
// cover point "worst".
func withinN(n int) *hdl.Module {
	m := hdl.NewModule("within_check")
	d := lib.WithinN(m, m.Input("start", 1), m.Input("done", 1), n, "done_in_time", "start waited too long for done")
	m.Cover(d.Worst(), "worst")
	return m
}

func TestWithinNInSimulation(t *testing.T) {
	// done in the start's cycle + 2, the last allowed: the worst case.
	s := requireKept(t, withinN(2), cycles{{"start": 1}, {"start": 0}, {"done": 1}, {"done": 0}})
	require.Equal(t, uint64(1), covered(s, "worst"))
	s = requireKept(t, withinN(2), cycles{{"start": 1}, {"start": 0, "done": 1}, {"done": 0}})
	require.Equal(t, uint64(0), covered(s, "worst"), "done 1 cycle after the start")
	// A start in done's cycle is answered at once; a second start while
	// one is pending keeps the first's deadline.
	requireKept(t, withinN(2), cycles{{"start": 1, "done": 1}, {"start": 0, "done": 0}, {}, {}})
	requireBroken(t, withinN(2), cycles{{"start": 1}, {"start": 0}, {"start": 1}, {"start": 0}, {"done": 1}}, "done_in_time", 3)
	requireBroken(t, withinN(2), cycles{{}, {"start": 1}, {"start": 0}, {}, {"done": 1}}, "done_in_time", 4)
	// n = 0: done in the start's own cycle.
	requireKept(t, withinN(0), cycles{{"start": 1, "done": 1}, {"start": 0, "done": 0}, {}})
	requireBroken(t, withinN(0), cycles{{"done": 1}, {"start": 1, "done": 0}}, "done_in_time", 2)
	// Reset drops a pending start.
	m := withinN(1)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	sm := sim.New(d)
	sm.Reset()
	require.NoError(t, sm.SetU("start", 1))
	sm.Step()
	require.NoError(t, sm.SetU("start", 0))
	sm.Reset()
	sm.Step()
	sm.Step()
	require.Nil(t, sm.Violation())
}

func TestWithinNTicksInSimulation(t *testing.T) {
	build := func() *hdl.Module {
		m := hdl.NewModule("ticks_check")
		lib.WithinNTicks(m, m.Input("start", 1), m.Input("done", 1), m.Input("tick", 1), 1, "served", "more than one tick passed before done")
		return m
	}
	// One tick passes (the start's own cycle counts); done comes in the
	// second tick's cycle, after a cycle without one.
	requireKept(t, build(), cycles{{"start": 1, "tick": 1}, {"start": 0, "tick": 0}, {"tick": 1, "done": 1}, {"done": 0}})
	requireKept(t, build(), cycles{{"start": 1}, {"start": 0}, {}, {}, {"tick": 1}, {"tick": 0, "done": 1}})
	requireBroken(t, build(), cycles{{"start": 1}, {"start": 0, "tick": 1}, {"tick": 0}, {"tick": 1}}, "served", 4)
}

// stableCheck is a monitor of StableUntil(from, until, value).
func stableCheck() *hdl.Module {
	m := hdl.NewModule("stable_check")
	lib.StableUntil(m, m.Input("opens", 1), m.Input("closes", 1), m.Input("value", 4), "kept", "value changed before until")
	return m
}

func TestStableUntilInSimulation(t *testing.T) {
	// From cycle 2 (from) through cycle 4 (until) value stays 5; then it
	// is free.
	requireKept(t, stableCheck(), cycles{{"value": 3}, {"opens": 1, "value": 5}, {"opens": 0}, {"closes": 1}, {"closes": 0, "value": 7}})
	// until in the from cycle asks nothing of later ones.
	requireKept(t, stableCheck(), cycles{{"opens": 1, "closes": 1, "value": 5}, {"opens": 0, "closes": 0, "value": 6}})
	requireBroken(t, stableCheck(), cycles{{"opens": 1, "value": 5}, {"opens": 0}, {"value": 6, "closes": 1}}, "kept", 3)
}

// streamCheck is a module whose output stream out (its valid and data
// the inputs v and d) is held with StreamStable, whole or without the
// payload.
func streamCheck(validOnly bool) *hdl.Module {
	m := hdl.NewModule("stream_check")
	out := hdl.OutStream(m, "out", func(f hdl.Fields) *hdl.Signal { return f("data", 4) })
	out.Valid.Drive(m.Input("v", 1))
	out.Payload.Drive(m.Input("d", 4))
	if validOnly {
		lib.StreamStable(m, hdl.Stream[struct{}]{Valid: out.Valid, Ready: out.Ready}, "offer_held", "the offer was withdrawn")
	} else {
		lib.StreamStable(m, out, "offer_held", "the offer was withdrawn or changed")
	}
	return m
}

func TestStreamStableInSimulation(t *testing.T) {
	// Offered in cycle 1, taken in cycle 3; then a new offer at once.
	keep := cycles{{"v": 1, "d": 9}, {}, {"out_ready": 1}, {"d": 2}, {"v": 0, "d": 5}}
	requireKept(t, streamCheck(false), keep)
	requireBroken(t, streamCheck(false), cycles{{"v": 1, "d": 9}, {"d": 8}}, "offer_held", 2)
	requireBroken(t, streamCheck(false), cycles{{"v": 1, "d": 9}, {}, {"v": 0}}, "offer_held", 3)
	requireKept(t, streamCheck(true), cycles{{"v": 1, "d": 9}, {"d": 8}, {"out_ready": 1, "d": 7}})
	requireBroken(t, streamCheck(true), cycles{{"v": 1, "d": 9}, {"v": 0}}, "offer_held", 2)
}

// Blocks that keep a helper's property, or break it, for the proofs.

// ring is a one-hot token that moves one place on step; broken, it
// shifts off the top instead of wrapping.
func ring(broken bool) *hdl.Module {
	m := hdl.NewModule("ring")
	tok := m.RegInit("tok", hdl.MustU(4, 1))
	next := hdl.Concat(tok.Slice(2, 0), tok.Bit(3))
	if broken {
		next = tok.Shl(1)
	}
	tok.Drive(hdl.Mux(m.Input("step", 1), next, tok))
	m.Output("token", 4).Drive(tok)
	lib.OneHot(m, tok, "token_one_hot", "the token is lost or doubled")
	return m
}

// firstOne grants the lowest request; broken, every request.
func firstOne(broken bool) *hdl.Module {
	m := hdl.NewModule("first_one")
	req := m.Input("req", 4)
	grant := lib.FirstOneHot(lib.Split(req), false)
	if broken {
		grant = req
	}
	m.Output("grant", 4).Drive(grant)
	lib.AtMostOneHot(m, grant, "one_grant", "two grants at once")
	return m
}

// pingPong sends go to a in one cycle and to b in the next alternately;
// broken, b takes every go.
func pingPong(broken bool) *hdl.Module {
	m := hdl.NewModule("ping_pong")
	g := m.Input("go", 1)
	turn := m.Reg("turn", 1)
	turn.Drive(turn.Xor(g))
	a, b := g.And(turn.Not()), g.And(turn)
	if broken {
		b = g
	}
	m.Output("a", 1).Drive(a)
	m.Output("b", 1).Drive(b)
	lib.NeverBoth(m, a, b, "a_or_b", "a and b in one cycle")
	return m
}

// delayLine answers req 2 cycles later through a shift register, stated
// as an ack within 2 cycles; broken, 3 cycles later.
func delayLine(broken bool) *hdl.Module {
	m := hdl.NewModule("delay_line")
	depth := 2
	if broken {
		depth = 3
	}
	req := m.Input("req", 1)
	prev := req
	for i := range depth {
		r := m.Reg(fmt.Sprintf("d%d", i), 1)
		r.Drive(prev)
		prev = r
	}
	m.Output("ack", 1).Drive(prev)
	d := lib.WithinN(m, req, prev, 2, "ack_within_2", "a request waited more than 2 cycles for its ack")
	m.Cover(d.Worst(), "ack_at_2")
	return m
}

// latch takes x into r on go while idle and holds it while busy, three
// cycles; broken, it takes x on every go. The lemma held -> busy makes
// r_stable 1-inductive (without it, k-induction needs k = 3: an idle
// latch looks the same with and without a from pending).
func latch(broken bool) *hdl.Module {
	m := hdl.NewModule("latch")
	g, x := m.Input("go", 1), m.Input("x", 4)
	busy, cnt, r := m.Reg("busy", 1), m.Reg("cnt", 2), m.Reg("r", 4)
	done := busy.And(cnt.EqConst(2))
	take := g.And(busy.Not())
	if broken {
		take = g
	}
	m.If(take, func() { r.Set(x) })
	m.If(done, func() { busy.SetU(0) }).Elif(take, func() { busy.SetU(1); cnt.SetU(0) })
	m.If(busy.And(done.Not()), func() { cnt.Set(cnt.Add(m.ConstU(2, 1))) })
	m.Output("r_out", 4).Drive(r)
	m.Output("done", 1).Drive(done)
	held := lib.StableUntil(m, busy, done, r, "r_stable", "r changed while busy")
	m.Assert(held.Not().Or(busy), "held_while_busy", "a from is pending with the latch idle")
	return m
}

// pipeReg is a pipeline register with valid/ready: it takes the input
// when empty or when its word leaves; broken, its data follows the input
// while it waits.
func pipeReg(broken bool) *hdl.Module {
	m := hdl.NewModule("pipe_reg")
	in := hdl.InStream(m, "in", func(f hdl.Fields) *hdl.Signal { return f("data", 4) })
	out := hdl.OutStream(m, "out", func(f hdl.Fields) *hdl.Signal { return f("data", 4) })
	v, d := m.Reg("v", 1), m.Reg("d", 4)
	free := v.Not().Or(out.Ready)
	in.Ready.Drive(free)
	m.If(free, func() { v.Set(in.Valid); d.Set(in.Payload) })
	if broken {
		m.If(free.Not(), func() { d.Set(in.Payload) })
	}
	out.Valid.Drive(v)
	out.Payload.Drive(d)
	lib.StreamStable(m, out, "out_stable", "the output offer changed before it was taken")
	return m
}

// TestHelpersProven proves each helper's assertion on a block that keeps
// it and refutes it on a broken one: Yosys's counterexample, replayed in
// the Go simulator, fails the same assertion in its last cycle.
func TestHelpersProven(t *testing.T) {
	tools.Need(t, "yosys")
	for _, c := range []struct {
		name, assertion string
		build           func(broken bool) *hdl.Module
		cycles          int // the counterexample's length, reset included
	}{
		{"one_hot", "token_one_hot", ring, 6},         // reset, four steps shift the token out, the check
		{"at_most_one_hot", "one_grant", firstOne, 1}, // no reset: two requests
		{"never_both", "a_or_b", pingPong, 2},         // reset, a go while turn is 0
		{"within_n", "ack_within_2", delayLine, 4},    // reset, req, two cycles without ack
		{"stable_until", "r_stable", latch, 4},        // reset, go, go again in the first busy cycle, the check
		{"stream_stable", "out_stable", pipeReg, 4},   // reset, a word taken in, offered and changed while waiting, the check
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			good := verify.ProvedByName(t, elaborate(t, c.build(false)))
			for name, r := range good {
				want := map[hdl.PropertyKind]verify.Verdict{hdl.Assertion: verify.Proven, hdl.CoverPoint: verify.Reached}[r.Kind]
				require.Equal(t, want, r.Verdict, "%s: %s", name, r.Method())
				t.Logf("kept: %s %s: %s (%s)", r.Kind, name, r.Verdict, r.Method())
			}
			d := elaborate(t, c.build(true))
			bad := verify.ProvedByName(t, d)[c.assertion]
			require.Equal(t, verify.Failed, bad.Verdict, bad.Method())
			require.Len(t, bad.Trace, c.cycles)
			s, err := verify.Replay(d, bad.Trace, "")
			require.NoError(t, err)
			v := s.Violation()
			require.NotNil(t, v)
			require.Equal(t, c.assertion, v.Name)
			require.Equal(t, uint64(len(bad.Trace)-1), v.Cycle)
			t.Logf("broken: %s fails on a trace of %d cycles; %.1f s", c.assertion, len(bad.Trace), time.Since(start).Seconds())
		})
	}
}

func elaborate(t *testing.T, m *hdl.Module) *hdl.Design {
	t.Helper()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	return d
}

// TestGhostStateOnlyUnderFormal: the helpers' registers are ghost state,
// absent from a block's StateElements and from its Verilog outside
// `ifdef FORMAL, which is the same with and without them.
func TestGhostStateOnlyUnderFormal(t *testing.T) {
	plain := func(m *hdl.Module) *hdl.Design { return elaborate(t, m) }
	for _, c := range []struct {
		name  string
		build func(helper bool) *hdl.Module
		ghost []string
	}{
		{"within_n", func(helper bool) *hdl.Module {
			m := hdl.NewModule("block")
			req, tick := m.Input("req", 1), m.Input("tick", 1)
			r := m.Reg("r", 1)
			r.Drive(req.And(tick))
			m.Output("ack", 1).Drive(r)
			if helper {
				lib.WithinNTicks(m, req, r, tick, 3, "ack_in_time", "late")
			}
			return m
		}, []string{"ghost_ack_in_time_wait"}},
		{"stable", func(helper bool) *hdl.Module {
			m := hdl.NewModule("block")
			out := hdl.OutStream(m, "out", func(f hdl.Fields) *hdl.Signal { return f("data", 4) })
			v, d := m.Reg("v", 1), m.Reg("d", 4)
			v.Drive(m.Input("in_valid", 1))
			d.Drive(m.Input("in_data", 4).Xor(out.Ready.Repl(4)))
			out.Valid.Drive(v)
			out.Payload.Drive(d)
			if helper {
				lib.StreamStable(m, out, "out_stable", "changed")
				lib.StableUntil(m, v, out.Ready, d, "d_stable", "changed")
			}
			return m
		}, []string{"ghost_out_stable_held", "ghost_out_stable_past", "ghost_d_stable_held", "ghost_d_stable_past"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			with, without := plain(c.build(true)), plain(c.build(false))
			require.Equal(t, without.StateElements(), with.StateElements())
			require.Equal(t, withoutFormal(t, without.Verilog()), withoutFormal(t, with.Verilog()))
			_, formal, ok := bytes.Cut(with.Verilog(), []byte("`ifdef FORMAL"))
			require.True(t, ok)
			for _, g := range c.ghost {
				require.Contains(t, string(formal), g+";", "ghost register %s declared under FORMAL", g)
				require.NotContains(t, withoutFormal(t, with.Verilog()), g)
			}
		})
	}
}

// withoutFormal is Verilog with its `ifdef FORMAL sections cut out.
func withoutFormal(t *testing.T, v []byte) string {
	var out bytes.Buffer
	for {
		before, rest, ok := bytes.Cut(v, []byte("`ifdef FORMAL\n"))
		out.Write(before)
		if !ok {
			return out.String()
		}
		_, after, ok := bytes.Cut(rest, []byte("`endif\n"))
		require.True(t, ok, "an `ifdef FORMAL without its `endif")
		v = after
	}
}
