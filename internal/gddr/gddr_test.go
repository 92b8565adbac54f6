package gddr

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// addr builds a channel-local address of the GDDR3 mapping by hand:
// column in bits 0-11, bank in bits 12-14, row above.
func addr(bank int, row uint64, col uint64) uint64 {
	return row<<15 | uint64(bank)<<12 | col
}

// sim drives a channel and records the cycle in which every request
// completed and every command issued.
type sim struct {
	t      *testing.T
	ch     *Channel
	doneAt map[uint64]int64
	order  []uint64
	cmds   []command
}

func newSim(t *testing.T, c Config) *sim {
	s := &sim{t: t, ch: NewChannel(c), doneAt: map[uint64]int64{}}
	s.ch.trace = func(c command) { s.cmds = append(s.cmds, c) }
	return s
}

func (s *sim) enqueue(rs ...Request) {
	for _, r := range rs {
		require.True(s.t, s.ch.Enqueue(r), "request %d refused", r.ID)
	}
}

// tick runs one cycle and returns the cycle it modelled.
func (s *sim) tick() int64 {
	cycle := s.ch.now
	for _, r := range s.ch.Tick() {
		_, seen := s.doneAt[r.ID]
		require.False(s.t, seen, "request %d returned twice", r.ID)
		s.doneAt[r.ID] = cycle
		s.order = append(s.order, r.ID)
	}
	return cycle
}

// drain ticks until the channel is idle.
func (s *sim) drain() {
	for i := 0; !s.ch.Idle(); i++ {
		require.Less(s.t, i, 1_000_000, "channel never idles")
		s.tick()
	}
}

// cycles returns the cycles of the commands of one kind.
func (s *sim) cycles(kind cmdKind) []int64 {
	var out []int64
	for _, c := range s.cmds {
		if c.kind == kind {
			out = append(out, c.cycle)
		}
	}
	return out
}

func TestGDDR3IsTable62(t *testing.T) {
	c := GDDR3()
	require.NoError(t, c.Validate())
	require.Equal(t, Config{Banks: 8, RowBytes: 4096, BusBytes: 8, Queue: 32,
		Timing: Timing{CL: 12, RP: 12, RC: 41, RAS: 29, RCD: 14, RRD: 10, WL: 4, ReadToWrite: 2, WriteToRead: 2}}, c)

	bad := []func(*Config){
		func(c *Config) { c.Banks = 6 },
		func(c *Config) { c.Banks = 0 },
		func(c *Config) { c.RowBytes = 3000 },
		func(c *Config) { c.BusBytes = 0 },
		func(c *Config) { c.RowBytes, c.BusBytes = 4, 8 },
		func(c *Config) { c.Queue = 0 },
		func(c *Config) { c.Timing.CL = 0 },
		func(c *Config) { c.Timing.RRD = -1 },
		func(c *Config) { c.Timing.WL = 0 },
		func(c *Config) { c.Timing.ReadToWrite = -1 },
	}
	for i, f := range bad {
		c := GDDR3()
		f(&c)
		require.Error(t, c.Validate(), "case %d", i)
		require.Panics(t, func() { NewChannel(c) }, "case %d", i)
	}
	c = GDDR3()
	c.Timing.ReadToWrite, c.Timing.WriteToRead = 0, 0
	require.NoError(t, c.Validate())
}

func TestAddressMapping(t *testing.T) {
	c := GDDR3()
	// 0x12345678: column 0x678, bank 0x12345 & 7 = 5, row 0x12345678 >> 15 = 0x2468.
	require.Equal(t, 5, c.Bank(0x12345678))
	require.Equal(t, uint64(0x2468), c.Row(0x12345678))
	require.Equal(t, 0, c.Bank(4095))
	require.Equal(t, 1, c.Bank(4096))
	require.Equal(t, 7, c.Bank(7*4096+100))
	require.Equal(t, uint64(0), c.Row(8*4096-1))
	require.Equal(t, uint64(1), c.Row(8*4096))
	require.Equal(t, 3, c.Bank(addr(3, 99, 8)))
	require.Equal(t, uint64(99), c.Row(addr(3, 99, 8)))
}

func TestEnqueueRejectsMalformedRequests(t *testing.T) {
	ch := NewChannel(GDDR3())
	require.Panics(t, func() { ch.Enqueue(Request{Bytes: 0}) })
	require.Panics(t, func() { ch.Enqueue(Request{Bytes: 12}) })
	require.Panics(t, func() { ch.Enqueue(Request{Addr: 4096 - 16, Bytes: 32}) })
	require.True(t, ch.Enqueue(Request{Addr: 4096 - 32, Bytes: 32}))
	require.True(t, ch.Enqueue(Request{Addr: 4096, Bytes: 4096}))
}

// A 32 B read (4 beats, 2 bus cycles) to a closed bank enqueued before
// cycle 0: ACT at 0, RD at tRCD = 14, data in cycles 26 and 27, so it is
// returned by the Tick of cycle 27 = RCD + CL + 2 - 1, the 28th Tick. A
// second read of the same row enqueued before cycle 28 is a row hit: RD at
// 28, data in 40 and 41, returned in cycle 41 = 28 + CL + 2 - 1.
func TestClosedBankReadThenRowHit(t *testing.T) {
	s := newSim(t, GDDR3())
	s.enqueue(Request{ID: 1, Addr: addr(2, 7, 64), Bytes: 32})
	for range 27 {
		require.Empty(t, s.ch.Tick())
	}
	require.Equal(t, []Request{{ID: 1, Addr: addr(2, 7, 64), Bytes: 32}}, s.ch.Tick())
	require.True(t, s.ch.Idle())
	require.Equal(t, []int64{0}, s.cycles(cmdACT))
	require.Equal(t, []int64{14}, s.cycles(cmdRD))

	s.enqueue(Request{ID: 2, Addr: addr(2, 7, 1024), Bytes: 32})
	s.drain()
	require.Equal(t, int64(41), s.doneAt[2])
	require.Equal(t, []int64{14, 28}, s.cycles(cmdRD))

	st := s.ch.Stats()
	require.Equal(t, Stats{
		Transfers: 8, ActiveCycles: 28 + 14, BusyCycles: 4, Reads: 2,
		RowHits: 1, RowMisses: 1, Activates: 1, Bytes: 64,
	}, st)
	require.InDelta(t, 8.0/(2*42), st.Efficiency(), 1e-12)
	require.Zero(t, Stats{}.Efficiency())

	// Idle cycles are not active.
	for range 10 {
		require.Empty(t, s.ch.Tick())
	}
	require.Equal(t, int64(42), s.ch.Stats().ActiveCycles)
}

// An odd number of beats takes the last bus cycle half: an 8 B read (one
// beat) is data in cycle 26 only, a 24 B read of the same row issued at 15
// has three beats in cycles 27 and 28.
func TestOddBeatBursts(t *testing.T) {
	s := newSim(t, GDDR3())
	s.enqueue(
		Request{ID: 1, Addr: addr(3, 1, 8), Bytes: 8},
		Request{ID: 2, Addr: addr(3, 1, 16), Bytes: 24},
	)
	s.drain()
	require.Equal(t, []int64{14, 15}, s.cycles(cmdRD))
	require.Equal(t, map[uint64]int64{1: 26, 2: 28}, s.doneAt)
	st := s.ch.Stats()
	require.Equal(t, int64(4), st.Transfers)
	require.Equal(t, int64(3), st.BusyCycles)
	require.Equal(t, int64(32), st.Bytes)
}

// Two 32 B reads to rows 0 and 1 of bank 0, both enqueued before cycle 0.
// A: ACT 0, RD 14, data 26-27. B conflicts: PRE at max(ACT + tRAS = 29,
// end of A's data = 28) = 29, ACT at max(ACT + tRC = 41, PRE + tRP = 41) =
// 41, RD 55, data 67-68.
func TestRowConflictWaitsForRASRPAndRC(t *testing.T) {
	a := Request{ID: 1, Addr: addr(0, 0, 0), Bytes: 32}
	b := Request{ID: 2, Addr: addr(0, 1, 0), Bytes: 32}

	s := newSim(t, GDDR3())
	s.enqueue(a, b)
	s.drain()
	require.Equal(t, []int64{0, 41}, s.cycles(cmdACT))
	require.Equal(t, []int64{29}, s.cycles(cmdPRE))
	require.Equal(t, []int64{14, 55}, s.cycles(cmdRD))
	require.Equal(t, int64(27), s.doneAt[1])
	require.Equal(t, int64(68), s.doneAt[2])
	st := s.ch.Stats()
	require.Equal(t, int64(1), st.RowMisses)
	require.Equal(t, int64(1), st.RowConflicts)
	require.Equal(t, int64(2), st.Activates)
	require.Equal(t, int64(1), st.Precharges)

	// tRC = 50 binds over tRAS + tRP = 41: the second ACT moves to 50,
	// RD to 64, data 76-77.
	c := GDDR3()
	c.Timing.RC = 50
	s = newSim(t, c)
	s.enqueue(a, b)
	s.drain()
	require.Equal(t, []int64{0, 50}, s.cycles(cmdACT))
	require.Equal(t, []int64{29}, s.cycles(cmdPRE))
	require.Equal(t, int64(77), s.doneAt[2])

	// A 256 B first read keeps the bus from 26 to 41: PRE waits for its
	// end, 42; ACT 54, RD 68, data 80-81.
	s = newSim(t, GDDR3())
	a.Bytes = 256
	s.enqueue(a, b)
	s.drain()
	require.Equal(t, int64(41), s.doneAt[1])
	require.Equal(t, []int64{42}, s.cycles(cmdPRE))
	require.Equal(t, []int64{0, 54}, s.cycles(cmdACT))
	require.Equal(t, int64(81), s.doneAt[2])
}

// Three 32 B reads to closed banks 0, 1 and 2 enqueued before cycle 0: ACTs
// at 0, 10, 20 (tRRD), RDs at 14, 24, 34, completions at 27, 37, 47.
func TestActivatesAreRRDApart(t *testing.T) {
	s := newSim(t, GDDR3())
	s.enqueue(
		Request{ID: 1, Addr: addr(0, 5, 0), Bytes: 32},
		Request{ID: 2, Addr: addr(1, 5, 0), Bytes: 32},
		Request{ID: 3, Addr: addr(2, 5, 0), Bytes: 32},
	)
	s.drain()
	require.Equal(t, []int64{0, 10, 20}, s.cycles(cmdACT))
	require.Equal(t, []int64{14, 24, 34}, s.cycles(cmdRD))
	require.Equal(t, map[uint64]int64{1: 27, 2: 37, 3: 47}, s.doneAt)
}

// Bank 0 holds row 0 open after request P (completes at 27). Before cycle
// 28, X (row 1, a conflict) is enqueued and then Y (row 0, a hit). FR-FCFS
// issues Y first: RD at 28, data 40-41. X then precharges at Y's data end
// 42, activates at 54, reads at 68, data 80-81. In FCFS order X would have
// completed at 68.
func TestFRFCFSServesAYoungerRowHitFirst(t *testing.T) {
	s := newSim(t, GDDR3())
	s.enqueue(Request{ID: 1, Addr: addr(0, 0, 0), Bytes: 32})
	for range 28 {
		s.tick()
	}
	require.Equal(t, int64(27), s.doneAt[1])
	s.enqueue(
		Request{ID: 2, Addr: addr(0, 1, 0), Bytes: 32},   // X, older
		Request{ID: 3, Addr: addr(0, 0, 256), Bytes: 32}, // Y, younger
	)
	s.drain()
	require.Equal(t, []uint64{1, 3, 2}, s.order)
	require.Equal(t, int64(41), s.doneAt[3])
	require.Equal(t, []int64{42}, s.cycles(cmdPRE))
	require.Equal(t, int64(81), s.doneAt[2])
	st := s.ch.Stats()
	require.Equal(t, int64(1), st.RowHits)
	require.Equal(t, int64(1), st.RowConflicts)
}

// The open row is not precharged for an older conflict while a younger
// request hits it, even when the hit merely waits for the data bus.
//
// All enqueued before cycle 0: W, a 4 KB write to bank 1; A, a read of row
// 0 of bank 0; X, a read of row 1 of bank 0; R, a read of row 0 of bank 0.
// ACT bank 1 at 0, ACT bank 0 (row 0, for A) at 10, WR at 14 with data
// 18..273 (512 beats). A's data must start at 274 + WriteToRead = 276: RD
// A at 264, data 276-277; RD R at 266, data 278-279. X could precharge
// from ACT + tRAS = 39 on, but A and R hit the open row, so PRE waits for
// them: PRE at R's data end 280, ACT at 292, RD 306, data 318-319.
func TestNoPrechargeUnderAPendingHit(t *testing.T) {
	s := newSim(t, GDDR3())
	s.enqueue(
		Request{ID: 1, Addr: addr(1, 0, 0), Bytes: 4096, Write: true}, // W
		Request{ID: 2, Addr: addr(0, 0, 0), Bytes: 32},                // A
		Request{ID: 3, Addr: addr(0, 1, 0), Bytes: 32},                // X
		Request{ID: 4, Addr: addr(0, 0, 64), Bytes: 32},               // R
	)
	s.drain()
	require.Equal(t, []uint64{1, 2, 4, 3}, s.order)
	require.Equal(t, map[uint64]int64{1: 273, 2: 277, 4: 279, 3: 319}, s.doneAt)
	require.Equal(t, []int64{0, 10, 292}, s.cycles(cmdACT))
	require.Equal(t, []int64{280}, s.cycles(cmdPRE))
	require.Equal(t, []int64{264, 266, 306}, s.cycles(cmdRD))
	st := s.ch.Stats()
	require.Equal(t, int64(1), st.RowHits)
	require.Equal(t, int64(2), st.RowMisses)
	require.Equal(t, int64(1), st.RowConflicts)
}

func TestQueueRefusesThe33rdWaitingRequest(t *testing.T) {
	ch := NewChannel(GDDR3())
	for i := range 32 {
		require.False(t, ch.Full())
		require.True(t, ch.Enqueue(Request{ID: uint64(i), Addr: addr(0, 0, uint64(i)*128), Bytes: 128}))
	}
	require.True(t, ch.Full())
	require.False(t, ch.Enqueue(Request{ID: 32, Addr: 0, Bytes: 32}))
	// Cycles 0..13 only activate; the first column command issues at 14.
	for range 14 {
		ch.Tick()
		require.True(t, ch.Full())
	}
	ch.Tick()
	require.False(t, ch.Full())
	require.True(t, ch.Enqueue(Request{ID: 32, Addr: 0, Bytes: 32}))
	require.True(t, ch.Full())
}

// Read then write of the same row, both enqueued before cycle 0: ACT 0,
// RD 14, read data 26-27. The write's data must start at 28 + ReadToWrite
// = 30, so WR at 26, data 30-31. Without the turnaround: WR 24, data
// 28-29.
//
// A 256 B write then a 32 B read: WR 14, write data 18..33. The read data
// must start at 34 + WriteToRead = 36, so RD at 24, data 36-37. Without
// the turnaround: RD 22, data 34-35.
func TestTurnaroundInsertsTheGap(t *testing.T) {
	run := func(gap int, first, second Request) *sim {
		c := GDDR3()
		c.Timing.ReadToWrite, c.Timing.WriteToRead = gap, gap
		s := newSim(t, c)
		s.enqueue(first, second)
		s.drain()
		return s
	}
	rd := Request{ID: 1, Addr: addr(4, 3, 0), Bytes: 32}
	wr := Request{ID: 2, Addr: addr(4, 3, 512), Bytes: 32, Write: true}

	s := run(2, rd, wr)
	require.Equal(t, map[uint64]int64{1: 27, 2: 31}, s.doneAt)
	require.Equal(t, []int64{26}, s.cycles(cmdWR))
	s = run(0, rd, wr)
	require.Equal(t, map[uint64]int64{1: 27, 2: 29}, s.doneAt)

	wr.Bytes = 256
	s = run(2, wr, rd)
	require.Equal(t, map[uint64]int64{2: 33, 1: 37}, s.doneAt)
	require.Equal(t, []int64{24}, s.cycles(cmdRD))
	s = run(0, wr, rd)
	require.Equal(t, map[uint64]int64{2: 33, 1: 35}, s.doneAt)

	// Same direction needs no gap: two 32 B reads back to back.
	rd2 := Request{ID: 3, Addr: addr(4, 3, 64), Bytes: 32}
	s = run(2, rd, rd2)
	require.Equal(t, map[uint64]int64{1: 27, 3: 29}, s.doneAt)
}

// stream keeps the request buffer full from reqs until all complete.
func stream(t *testing.T, s *sim, reqs []Request) {
	next := 0
	for i := 0; next < len(reqs) || !s.ch.Idle(); i++ {
		require.Less(t, i, 100_000_000)
		for next < len(reqs) && s.ch.Enqueue(reqs[next]) {
			next++
		}
		s.tick()
	}
	require.Len(t, s.doneAt, len(reqs))
}

func TestEfficiency(t *testing.T) {
	const n = 8192
	seq := make([]Request, n)
	for i := range seq {
		seq[i] = Request{ID: uint64(i), Addr: uint64(i) * 256, Bytes: 256}
	}
	s := newSim(t, GDDR3())
	stream(t, s, seq)
	seqE := s.ch.Stats().Efficiency()
	t.Logf("sequential 256 B reads: efficiency %.4f over %d active cycles", seqE, s.ch.Stats().ActiveCycles)
	require.Greater(t, seqE, 0.9)

	rng := rand.New(rand.NewPCG(1, 2))
	rnd := make([]Request, n)
	for i := range rnd {
		a := addr(rng.IntN(8), rng.Uint64N(8192), rng.Uint64N(4096/32)*32)
		rnd[i] = Request{ID: uint64(i), Addr: a, Bytes: 32}
	}
	s = newSim(t, GDDR3())
	stream(t, s, rnd)
	rndE := s.ch.Stats().Efficiency()
	t.Logf("random 32 B reads: efficiency %.4f over %d active cycles", rndE, s.ch.Stats().ActiveCycles)
	require.Less(t, rndE, 0.5)
}

// checkTiming replays the command trace against the DRAM rules,
// independently of the channel's bookkeeping.
func checkTiming(t *testing.T, c Config, s *sim) {
	tm := c.Timing
	type bank struct {
		open              bool
		row               uint64
		act, pre, dataEnd int64
		hasAct, hasPre    bool
	}
	banks := make([]bank, c.Banks)
	var lastAct int64 = -1 << 40
	var busEnd int64 = -1 << 40 // cycle after the last burst
	var busWrite bool
	lastCycle := int64(-1)
	for _, cmd := range s.cmds {
		require.Greater(t, cmd.cycle, lastCycle, "two commands in cycle %d", cmd.cycle)
		lastCycle = cmd.cycle
		b := &banks[cmd.bank]
		require.Equal(t, c.Bank(cmd.req.Addr), cmd.bank)
		require.Equal(t, c.Row(cmd.req.Addr), cmd.row)
		switch cmd.kind {
		case cmdACT:
			require.False(t, b.open, "ACT to an open bank at %d", cmd.cycle)
			require.GreaterOrEqual(t, cmd.cycle, lastAct+int64(tm.RRD), "tRRD at %d", cmd.cycle)
			if b.hasAct {
				require.GreaterOrEqual(t, cmd.cycle, b.act+int64(tm.RC), "tRC at %d", cmd.cycle)
			}
			if b.hasPre {
				require.GreaterOrEqual(t, cmd.cycle, b.pre+int64(tm.RP), "tRP at %d", cmd.cycle)
			}
			b.open, b.row, b.act, b.hasAct = true, cmd.row, cmd.cycle, true
			lastAct = cmd.cycle
		case cmdPRE:
			require.True(t, b.open)
			require.NotEqual(t, b.row, cmd.row, "PRE of the requested row")
			require.GreaterOrEqual(t, cmd.cycle, b.act+int64(tm.RAS), "tRAS at %d", cmd.cycle)
			require.GreaterOrEqual(t, cmd.cycle, b.dataEnd, "PRE before data end at %d", cmd.cycle)
			b.open, b.pre, b.hasPre = false, cmd.cycle, true
		case cmdRD, cmdWR:
			write := cmd.kind == cmdWR
			require.Equal(t, cmd.req.Write, write)
			require.True(t, b.open)
			require.Equal(t, b.row, cmd.row)
			require.GreaterOrEqual(t, cmd.cycle, b.act+int64(tm.RCD), "tRCD at %d", cmd.cycle)
			lat := int64(tm.CL)
			if write {
				lat = int64(tm.WL)
			}
			start := cmd.cycle + lat
			end := start + int64(cmd.req.Bytes/c.BusBytes+1)/2
			gap := int64(0)
			if busWrite != write {
				gap = int64(tm.WriteToRead)
				if write {
					gap = int64(tm.ReadToWrite)
				}
			}
			require.GreaterOrEqual(t, start, busEnd+gap, "bus overlap at %d", cmd.cycle)
			busEnd, busWrite = end, write
			b.dataEnd = max(b.dataEnd, end)
			require.Equal(t, end-1, s.doneAt[cmd.req.ID], "completion of %d", cmd.req.ID)
		}
	}
}

func TestRandomMixStatsAndCompletion(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		c := GDDR3()
		rng := rand.New(rand.NewPCG(seed, 99))
		s := newSim(t, c)
		const n = 4000
		var reads, writes, bytes int64
		next := 0
		for i := 0; next < n || !s.ch.Idle(); i++ {
			require.Less(t, i, 10_000_000)
			// Bursty arrivals with idle gaps.
			if next < n && rng.IntN(4) == 0 {
				for k := rng.IntN(6); k > 0 && next < n && !s.ch.Full(); k-- {
					size := (1 + rng.IntN(8)) * 32
					col := rng.Uint64N(uint64(4096-size)/8+1) * 8
					r := Request{
						ID:    uint64(1000 + next),
						Addr:  addr(rng.IntN(8), rng.Uint64N(4), col),
						Bytes: size,
						Write: rng.IntN(3) == 0,
					}
					require.True(t, s.ch.Enqueue(r))
					if r.Write {
						writes++
					} else {
						reads++
					}
					bytes += int64(size)
					next++
				}
			}
			s.tick()
		}
		require.True(t, s.ch.Idle())
		require.Len(t, s.doneAt, n)
		for id := range s.doneAt {
			require.True(t, id >= 1000 && id < 1000+n)
		}
		checkTiming(t, c, s)

		st := s.ch.Stats()
		require.Equal(t, reads, st.Reads)
		require.Equal(t, writes, st.Writes)
		require.Equal(t, bytes, st.Bytes)
		require.Equal(t, st.Bytes/8, st.Transfers)
		require.Equal(t, st.Reads+st.Writes, st.RowHits+st.RowMisses+st.RowConflicts)
		require.Equal(t, st.RowMisses+st.RowConflicts, st.Activates)
		require.Equal(t, st.RowConflicts, st.Precharges)
		require.LessOrEqual(t, (st.Transfers+1)/2, st.BusyCycles)
		require.LessOrEqual(t, st.BusyCycles, st.ActiveCycles)
		require.Positive(t, st.RowHits)
		require.Positive(t, st.RowConflicts)
		require.InDelta(t, float64(st.Transfers)/float64(2*st.ActiveCycles), st.Efficiency(), 1e-12)
		require.Equal(t, int64(len(s.cycles(cmdACT))), st.Activates)
		require.Equal(t, int64(len(s.cycles(cmdPRE))), st.Precharges)
		t.Logf("seed %d: %d cycles, efficiency %.3f, hits %d misses %d conflicts %d",
			seed, s.ch.now, st.Efficiency(), st.RowHits, st.RowMisses, st.RowConflicts)
	}
}

// BenchmarkChannel measures one op = one bus cycle of a channel kept busy
// with a random mix of reads and writes.
func BenchmarkChannel(b *testing.B) {
	c := GDDR3()
	ch := NewChannel(c)
	rng := rand.New(rand.NewPCG(7, 7))
	var id uint64
	b.ReportAllocs()
	for b.Loop() {
		for !ch.Full() {
			size := (1 + rng.IntN(8)) * 32
			id++
			ch.Enqueue(Request{
				ID:    id,
				Addr:  addr(rng.IntN(8), rng.Uint64N(16), rng.Uint64N(uint64(4096-size)/8+1)*8),
				Bytes: size,
				Write: rng.IntN(4) == 0,
			})
		}
		ch.Tick()
	}
}
