package elastic

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/units"
	el "github.com/parmem/parmem/units/elastic"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// instr is one instruction EXE hands to a back end: its class, its hold
// (extra MEM0 cycles) and a payload the back end must carry unchanged.
type instr struct {
	mem  bool
	hold uint64
	tag  uint64
	data []uint64
}

// pipeBench drives a back end (elastic-pipe or elastic-basepipe) through
// verify's test bench: ex from a source with random gaps, ic returns at
// random, and it checks every writeback as it happens.
type pipeBench struct {
	b                *verify.Bench
	pipe             el.Pipe // the back end's block
	exData, icData   []verify.In
	wbData           []verify.Out
	exMem, exHold    verify.In
	exTag, icValid   verify.In
	icTag            verify.In
	wbValid, wbSrc   verify.Out
	wbTag            verify.Out
	mem, nonmem      []instr // accepted, not yet written back, in order
	ic               *instr  // the interconnect return driven this cycle
	written, returns int
}

func newPipeBench(t *testing.T, c units.Config) *pipeBench {
	b, ports, pipe := pipeOnBench(t, c)
	return &pipeBench{b: b, pipe: pipe,
		exMem: in(b, ports.Ex.Payload.Mem), exHold: in(b, ports.Ex.Payload.Hold), exTag: in(b, ports.Ex.Payload.Tag),
		icValid: in(b, ports.ICValid), icTag: in(b, ports.IC.Tag),
		wbValid: out(b, ports.WBValid), wbSrc: out(b, ports.WBSrc), wbTag: out(b, ports.WB.Tag),
		exData: b.Ins(ports.Ex.Payload.Data), icData: b.Ins(ports.IC.Data), wbData: b.Outs(ports.WB.Data)}
}

// random makes an instruction with a random payload: a W-bit word a lane.
func (p *pipeBench) random(r *rand.Rand) instr {
	in := instr{mem: r.IntN(2) == 0, tag: r.Uint64N(32)}
	if in.mem && r.IntN(3) == 0 {
		in.hold = r.Uint64N(uint64(p.pipe.Lanes)) // a conflict of degree hold+1
	}
	for range p.pipe.Lanes {
		in.data = append(in.data, r.Uint64()>>(64-uint(p.pipe.W)))
	}
	return in
}

// check compares the cycle's writeback with the oldest instruction of its
// class: the interconnect's return this very cycle, memory instructions in
// order, non-memory ones in order (the base pipe keeps one order).
func (p *pipeBench) check(t *testing.T, cycle uint64) {
	b := p.b
	if p.ic != nil {
		require.Equal(t, uint64(1), b.Get(p.wbValid), "cycle %d: an interconnect return is never refused", cycle)
	}
	if b.Get(p.wbValid) == 0 {
		return
	}
	src := b.Get(p.wbSrc)
	var want instr
	switch {
	case src == el.SrcIC:
		require.NotNil(t, p.ic, "cycle %d: writeback from the interconnect, which returns nothing", cycle)
		want = *p.ic
	case src == el.SrcMem:
		queue := &p.mem
		if p.pipe.Base {
			queue = &p.nonmem // the base pipe keeps every instruction in one order
		}
		require.NotEmpty(t, *queue, "cycle %d: a MEM writeback with no instruction in flight", cycle)
		want, *queue = (*queue)[0], (*queue)[1:]
		if !p.pipe.Base {
			require.True(t, want.mem, "cycle %d", cycle)
		}
	default:
		require.False(t, p.pipe.Base, "cycle %d: the base pipe writes back from source %d", cycle, src)
		require.NotEmpty(t, p.nonmem, "cycle %d: a non-memory writeback with none in flight", cycle)
		want, p.nonmem = p.nonmem[0], p.nonmem[1:]
	}
	got := []uint64{b.Get(p.wbTag)}
	exp := []uint64{want.tag}
	for i := range p.pipe.Lanes {
		got = append(got, b.Get(p.wbData[i]))
		exp = append(exp, want.data[i])
	}
	require.Equal(t, exp, got, "cycle %d: writeback from source %d: tag and data", cycle, src)
	p.written++
}

// TestBackEndsScoreboard drives elastic-pipe and elastic-basepipe with
// 100,000 random cycles each (instructions with random gaps and holds,
// interconnect returns in a tenth of the cycles) and checks that each
// instruction is written back once with its data, memory ones in order,
// non-memory ones in order; then replays the recordings at the contract's
// defaults on Verilator (the other two differ from TestUnitsInLockstep's
// pipes only in their tag widths; each C++ build costs make test time).
func TestBackEndsScoreboard(t *testing.T) {
	const cycles = 100_000
	for _, c := range []units.Config{
		{Unit: "elastic-pipe", Values: units.Values{}},
		{Unit: "elastic-basepipe", Values: units.Values{}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 8, "mstages": 1, "premem": 0, "nonmem": 1}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 3, "w": 4, "mstages": 2, "premem": 3, "nonmem": 2}},
	} {
		t.Run(c.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(c.String()))))
			p := newPipeBench(t, c)
			b := p.b
			src := verify.NewSource(b, "ex", func(in instr) {
				b.Set(p.exMem, verify.Bit(in.mem))
				b.Set(p.exHold, in.hold)
				b.Set(p.exTag, in.tag)
				for i, x := range in.data {
					b.Set(p.exData[i], x)
				}
			}).ValidWhen(verify.Randomly(r, 0.7))
			src.OnAccept(func(a verify.Accepted[instr]) {
				if a.Tx.mem && !p.pipe.Base {
					p.mem = append(p.mem, a.Tx)
				} else {
					p.nonmem = append(p.nonmem, a.Tx)
				}
			})
			returning := true
			b.Before(func(uint64) {
				if returning && src.Pending() < 2 {
					src.Push(p.random(r))
				}
				p.ic = nil
				if returning && r.IntN(10) == 0 {
					in := p.random(r)
					p.ic = &in
					p.returns++
				}
				b.Set(p.icValid, verify.Bit(p.ic != nil))
				if p.ic != nil {
					b.Set(p.icTag, p.ic.tag)
					for i, x := range p.ic.data {
						b.Set(p.icData[i], x)
					}
				}
			})
			b.After(func(cycle uint64) { p.check(t, cycle) })
			b.Run(cycles)
			returning = false
			pushed := src.NumAccepted()
			b.RunUntil(1000, "the back end to drain", func() bool { return src.Idle() && len(p.mem)+len(p.nonmem) == 0 })
			require.Equal(t, src.NumAccepted()+p.returns, p.written, "every instruction and return written back once")
			require.Greater(t, pushed, cycles/2, "the back end took too little")
			t.Logf("%s: %d instructions and %d returns written back in %d cycles", c, src.NumAccepted(), p.returns, b.Cycle())
			if len(c.Values) == 0 {
				b.Replay(verify.ReplayOptions{})
			}
		})
	}
}
