package dram

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	d "github.com/parmem/parmem/units/dram"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// schedBench is dram-sched on the bench with Sched stepped beside it,
// and the handles of its port record.
type schedBench struct {
	b          *verify.Bench
	blk        d.SchedBlock
	ref        *d.Sched
	frfcfsOnly bool // -rowscore none: Sched runs FR-FCFS whatever pol says
	banks      int
	counts     map[string]int

	pol          verify.In
	rd, wr, dmy  []verify.In // valid, then the request's fields in SchedRead's, SchedWrite's, SchedDummy's order
	rdy          []verify.In
	ready, issue []verify.Out // rd_ready and wr_ready; SchedIssue
}

func newSchedBench(t *testing.T, c units.Config) *schedBench {
	blk, err := units.FillConfig(c, (*d.SchedBlock).Params)
	require.NoError(t, err)
	m, p := blk.WithPorts("dut")
	b := newBench(t, m)
	return &schedBench{b: b, blk: blk, banks: 1 << blk.BankBits, counts: map[string]int{},
		ref: d.NewSched(d.SchedConfig{Entries: blk.Entries, WEntries: blk.WEntries, HiWM: blk.HiWM, LoWM: blk.LoWM,
			Banks: 1 << blk.BankBits, Merges: blk.Merges, AgeBits: blk.AgeBits, RowTable: blk.Scores == d.TableScores}),
		frfcfsOnly: blk.Scores == d.NoScores,
		pol:        b.Ins(p.Pol)[0],
		rd:         b.Ins([]*hdl.Signal{p.Rd.Valid, p.Rd.Payload.Bank, p.Rd.Payload.Row, p.Rd.Payload.Blk, p.Rd.Payload.Age}),
		wr:         b.Ins([]*hdl.Signal{p.Wr.Valid, p.Wr.Payload.Bank, p.Wr.Payload.Row, p.Wr.Payload.Blk}),
		dmy:        b.Ins(p.Dmy), rdy: b.Ins(p.Rdy),
		ready: b.Outs([]*hdl.Signal{p.Rd.Ready, p.Wr.Ready}), issue: b.Outs(p.Iss)}
}

// step drives one cycle's inputs on both, requires the same ready and
// issue outputs, and applies the edge.
func (s *schedBench) step(t *testing.T, in d.SchedIn) d.Issued {
	b := s.b
	b.Set(s.pol, uint64(in.Pol))
	drive := func(hs []verify.In, r *d.Request) { // a write has no age: setAll stops at its handles
		b.Set(hs[0], verify.Bit(r != nil))
		if r != nil {
			setAll(b, hs[1:], uint64(r.Bank), uint64(r.Row), r.Blk, r.Age)
		}
	}
	drive(s.rd, in.Read)
	drive(s.wr, in.Write)
	b.Set(s.dmy[0], verify.Bit(in.Dummy != nil))
	if in.Dummy != nil {
		setAll(b, s.dmy[1:], in.Dummy.Blk, in.Dummy.Mlen, in.Dummy.Age)
	}
	for k, r := range in.Rdy {
		b.Set(s.rdy[k], verify.Bit(r))
	}
	b.Step()
	require.Equal(t, []uint64{verify.Bit(s.ref.ReadReady()), verify.Bit(s.ref.WriteReady())}, getAll(b, s.ready),
		"cycle %d ready", b.Cycle())
	if s.frfcfsOnly {
		in.Pol = d.FRFCFS
	}
	iss := s.ref.Step(in)
	got := getAll(b, s.issue)
	want := []uint64{verify.Bit(iss.Valid), verify.Bit(iss.Write), uint64(iss.Bank), uint64(iss.Row), iss.Blk, verify.Bit(iss.Hit), iss.Mlen, iss.Age}
	if !iss.Valid {
		got, want = got[:1], want[:1]
	}
	require.Equal(t, want, got, "cycle %d issue (valid write bank row blk hit mlen age), drain %v", b.Cycle(), s.ref.Draining())
	if iss.Valid {
		s.counts[fmt.Sprintf("write=%v hit=%v", iss.Write, iss.Hit)]++
	}
	if s.ref.Draining() {
		s.counts["drain cycles"]++
	}
	return iss
}

// TestSchedRandom drives dram-sched and Sched with random reads, writes
// and dummies over few blocks, banks and rows, the policy changing every
// few hundred cycles and banks ready at random, and requires the same
// outputs every cycle; with -rowscore table Sched keeps a
// RowTable too, so saturated ages and dummies of blocks queued twice
// (which the table follows as RowTable says) are compared as well.
func TestSchedRandom(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v      units.Values
		cycles int
	}{
		{units.Values{"entries": 4, "wentries": 4, "bankbits": 2, "rowbits": 2, "agebits": 6, "blkbits": 4, "merges": 5}, 60_000},
		{units.Values{"entries": 16, "wentries": 16, "bankbits": 2, "rowbits": 2, "agebits": 8, "blkbits": 5}, 60_000},
		{units.Values{"entries": 4, "wentries": 4, "bankbits": 2, "rowbits": 2, "agebits": 6, "blkbits": 4, "merges": 5, "rowscore": int(d.TableScores)}, 60_000},
		{units.Values{"entries": 4, "wentries": 4, "bankbits": 2, "rowbits": 2, "agebits": 6, "blkbits": 4, "merges": 5, "rowscore": int(d.NoScores)}, 20_000},
		{units.Values{"entries": 16, "wentries": 16, "bankbits": 2, "rowbits": 2, "agebits": 8, "blkbits": 5, "rowscore": int(d.TableScores)}, 60_000},
		{units.Values{}, 6_000},
		{units.Values{"rowscore": int(d.TableScores)}, 6_000},
	} {
		c := units.Config{Unit: "dram-sched", Values: tc.v}
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			s := newSchedBench(t, c)
			blk := s.blk
			r := rand.New(rand.NewPCG(9, uint64(blk.Entries)))
			blocks := min(uint64(1)<<blk.BlkBits, 2*uint64(blk.Entries))
			rows := min(1<<blk.RowBits, 3)
			ageMax := uint64(1)<<blk.AgeBits - 1
			pol := d.MSHRS
			rdy := make([]bool, s.banks)
			for cyc := range tc.cycles {
				if cyc%300 == 0 {
					pol = d.Policies[r.IntN(4)]
				}
				// Phases of heavy writes fill the write queue to its high watermark.
				writeRate := 4
				if cyc/2000%2 == 1 {
					writeRate = 1
				}
				in := d.SchedIn{Pol: pol, Rdy: rdy}
				for k := range rdy {
					rdy[k] = r.IntN(3) > 0
				}
				if r.IntN(2) == 0 {
					in.Read = &d.Request{Bank: r.IntN(s.banks), Row: r.IntN(rows), Blk: r.Uint64N(blocks), Age: pickValue(r, ageMax)}
				}
				if r.IntN(writeRate) == 0 {
					in.Write = &d.Request{Bank: r.IntN(s.banks), Row: r.IntN(rows), Blk: r.Uint64N(blocks)}
				}
				if r.IntN(2) == 0 {
					in.Dummy = &d.DummyReq{Blk: r.Uint64N(blocks), Mlen: 1 + r.Uint64N(uint64(blk.Merges)), Age: pickValue(r, 30)}
				}
				s.step(t, in)
			}
			t.Logf("%s: %v", c, s.counts)
			for _, k := range []string{"write=false hit=true", "write=false hit=false", "write=true hit=true", "write=true hit=false", "drain cycles"} {
				require.Positive(t, s.counts[k], k)
			}
		})
	}
}
