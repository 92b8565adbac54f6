package dram

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units"
	d "github.com/parmem/parmem/units/dram"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestRowTabMatchesContract drives dram-rowtab with random events over
// few banks and rows (rows share entries, entries empty and refill), reads
// leaving and dummies at random entries (valid or not) with merge lengths
// and ages up to their widths' largest (the sums wrap), and compares the
// entry a read enters and every entry with RowTable each cycle.
func TestRowTabMatchesContract(t *testing.T) {
	t.Parallel()
	for _, v := range []units.Values{
		{"entries": 4, "bankbits": 1, "rowbits": 2, "mlbits": 2, "agebits": 3},
		{"entries": 16, "bankbits": 3, "rowbits": 2, "mlbits": 5, "agebits": 6},
	} {
		c := units.Config{Unit: "dram-rowtab", Values: v}
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			blk, err := units.FillConfig(c, (*d.RowTabBlock).Params)
			require.NoError(t, err)
			m, p := blk.WithPorts("dut")
			b := newBench(t, m)
			ins, enqPtr := b.Ins(p.In), b.Outs(p.Out.EnqPtr)[0]
			n, iw := blk.Entries, lib.CountWidth(blk.Entries-1)
			entryOut := make([][]verify.Out, n)
			for e := range entryOut {
				entryOut[e] = b.Outs(p.Out.Entry[e])
			}
			ref := d.NewRowTable(n, blk.MlBits, blk.AgeBits)
			r := rand.New(rand.NewPCG(7, uint64(n)))
			banks, rows := 1<<blk.BankBits, 1<<blk.RowBits
			mlMax, ageMax := uint64(1)<<blk.MlBits-1, uint64(1)<<blk.AgeBits-1
			counts := map[string]int{}
			for range 40_000 {
				in := d.RowTabIn{Enq: r.IntN(2) == 0, EnqBank: r.IntN(banks), EnqRow: r.IntN(rows), EnqAge: pickValue(r, ageMax),
					Deq: r.IntN(2) == 0, DeqPtr: r.IntN(1 << iw), DeqMlen: pickValue(r, mlMax), DeqAge: pickValue(r, ageMax),
					Dmy: r.IntN(2) == 0, DmyPtr: r.IntN(1 << iw), DmyMlenWas: pickValue(r, mlMax), DmyMlen: pickValue(r, mlMax),
					DmyAge: pickValue(r, ageMax)}
				setAll(b, ins, verify.Bit(in.Enq), uint64(in.EnqBank), uint64(in.EnqRow), in.EnqAge,
					verify.Bit(in.Deq), uint64(in.DeqPtr), in.DeqMlen, in.DeqAge,
					verify.Bit(in.Dmy), uint64(in.DmyPtr), in.DmyMlenWas, in.DmyMlen, in.DmyAge)
				b.Step()
				want := ref.EnqPtr(in.EnqBank, in.EnqRow)
				if want < n {
					require.Equal(t, uint64(want), b.Get(enqPtr), "cycle %d enq_ptr", b.Cycle())
				} else {
					counts["full"]++
				}
				valid := 0
				for e := range n {
					require.Equal(t, []uint64{verify.Bit(ref.V[e]), uint64(ref.Bank[e]), uint64(ref.Row[e]), ref.Mlen[e], ref.Age[e]},
						getAll(b, entryOut[e]), "cycle %d entry %d (v bank row mlen age)", b.Cycle(), e)
					if ref.V[e] {
						valid++
						counts[fmt.Sprintf("reads %d", min(ref.N[e], 3))]++
					}
				}
				if valid == 0 {
					counts["empty"]++
				}
				ref.Step(in)
			}
			t.Logf("%s: %v", c, counts)
			for _, k := range []string{"full", "empty", "reads 1", "reads 2", "reads 3"} {
				require.Positive(t, counts[k], k)
			}
		})
	}
}

// TestRowScoresAgree runs dram-sched with -rowscore table and with
// -rowscore sum and Sched, the plain-Go scheduler, in lockstep on random
// traffic of the kind the L2 MSHR sends (a block has at most one read in
// the queue; arrival and dummy ages as Eq. 4.1 gives them, far below
// saturation), 100,000 cycles per policy, and requires the same issue
// every cycle from all three.
func TestRowScoresAgree(t *testing.T) {
	t.Parallel()
	v := units.Values{"entries": 16, "wentries": 16, "bankbits": 2, "rowbits": 2, "agebits": 15, "blkbits": 8}
	for _, pol := range d.Policies {
		t.Run(pol.String(), func(t *testing.T) {
			t.Parallel()
			with := func(score d.RowScores) units.Values {
				out := units.Values{}
				for k, x := range v {
					out[k] = x
				}
				out["rowscore"] = int(score)
				return out
			}
			table := newSchedBench(t, units.Config{Unit: "dram-sched", Values: with(d.TableScores)})
			sum := newSchedBench(t, units.Config{Unit: "dram-sched", Values: with(d.SummedScores)})
			r := rand.New(rand.NewPCG(11, uint64(pol)))
			queued := map[uint64]bool{} // blocks with a read in the queue
			var inQueue []uint64        // the same, in arrival order
			rdy := make([]bool, table.banks)
			maxAge := uint64(0)
			for cyc := range 100_000 {
				for k := range rdy {
					rdy[k] = r.IntN(3) == 0
				}
				in := d.SchedIn{Pol: pol, Rdy: rdy}
				if r.IntN(8) > 0 {
					blk := r.Uint64N(256)
					if !queued[blk] && table.ref.ReadReady() {
						queued[blk] = true
						inQueue = append(inQueue, blk)
						in.Read = &d.Request{Bank: r.IntN(table.banks), Row: r.IntN(3), Blk: blk, Age: r.Uint64N(200)}
					}
				}
				if r.IntN(8) == 0 {
					in.Write = &d.Request{Bank: r.IntN(table.banks), Row: r.IntN(3), Blk: r.Uint64N(256)}
				}
				if r.IntN(2) == 0 {
					in.Dummy = &d.DummyReq{Blk: r.Uint64N(256), Mlen: 1 + r.Uint64N(16), Age: r.Uint64N(100)}
					if len(inQueue) > 0 && r.IntN(4) > 0 { // most dummies are of a block in the queue
						in.Dummy.Blk = inQueue[r.IntN(len(inQueue))]
					}
				}
				if table.ref.Reads() >= table.blk.Entries/2 {
					table.counts["half full"]++
				}
				a, b := table.step(t, in), sum.step(t, in)
				require.Equal(t, a, b, "cycle %d: table and sum issue differently", cyc)
				if a.Valid && !a.Write {
					delete(queued, a.Blk)
					inQueue = slices.DeleteFunc(inQueue, func(b uint64) bool { return b == a.Blk })
					maxAge = max(maxAge, a.Age)
				}
			}
			t.Logf("%v: %v; oldest read issued at age %d", pol, table.counts, maxAge)
			require.Less(t, maxAge, uint64(1)<<table.blk.AgeBits-1, "an age saturated: the traffic leaves the table's conditions")
			require.Greater(t, table.counts["half full"], 50_000)
		})
	}
}
