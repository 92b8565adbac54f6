// Package dram checks the inter-core locality DRAM scheduling family end
// to end: every unit in lockstep on Go, Verilator and Icarus; each block
// on the Go simulator against its contract in plain Go (units/dram's Pick,
// MIB, L2MIB, Sched, CmdQ) under random traffic; dram-sched under the
// cycle model's traffic; dram-cmdq's commands through an independent
// timing checker.
package dram

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units"
	d "github.com/parmem/parmem/units/dram"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestUnitsInLockstep runs every registered dram configuration (each unit
// at 4 and 16 entries, the MIB at 4 and 3; with -verify.long, at its
// defaults too) packed under one top on the Go simulator, Verilator and
// Icarus in lockstep, and requires every cover point reached or proven
// unreachable: the shaped stimulus (units/dram's shapes) must fill the
// queues (Table 5.1's too), start and end the write drain and saturate
// the merge counts.
func TestUnitsInLockstep(t *testing.T) {
	t.Parallel()
	for _, rec := range verify.LockstepFamily(t, "dram") {
		for _, p := range rec.Gaps() {
			t.Errorf("%s: cover point %s.%s never reached", rec.Pack, p.Module, p.Name)
		}
	}
}

// newBench puts a block's module on verify's Go-simulator bench, which
// the test drives and reads through the block's port record; at the end
// of the test no property of the block may have failed on the stimulus.
func newBench(t *testing.T, m *hdl.Module) *verify.Bench {
	b := verify.NewBench(t, m)
	b.DontRecord()
	t.Cleanup(func() {
		if v := b.Sim().Violation(); v != nil {
			t.Errorf("%s: %v", m.Name(), v)
		}
	})
	return b
}

// setAll sets the inputs hs (a record's handles, in field order) to xs.
func setAll(b *verify.Bench, hs []verify.In, xs ...uint64) {
	for i, h := range hs {
		b.Set(h, xs[i])
	}
}

// getAll reads the outputs hs.
func getAll(b *verify.Bench, hs []verify.Out) []uint64 {
	xs := make([]uint64, len(hs))
	for i, h := range hs {
		xs[i] = b.Get(h)
	}
	return xs
}

// TestPickMatchesRule1 drives dram-pick with random queues, per policy,
// over few banks and rows so that hits, shared rows and equal scores are
// common, with merge lengths and ages up to their widths' largest values
// (row sums must not wrap), and compares gnt, idx and hit with Pick.
func TestPickMatchesRule1(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		values units.Values
		queues int // per policy
		open   int // one bank in open has a row open: about half the queues have no hit
	}{
		{units.Values{"entries": 4, "bankbits": 1, "rowbits": 2, "mlbits": 2, "agebits": 3}, 100_000, 2},
		{units.Values{"entries": 16, "bankbits": 2, "rowbits": 2, "mlbits": 5, "agebits": 15}, 100_000, 3},
		{units.Values{}, 5_000, 16},
	} {
		c := units.Config{Unit: "dram-pick", Values: tc.values}
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			blk, err := units.FillConfig(c, (*d.PickBlock).Params)
			require.NoError(t, err)
			m, p := blk.WithPorts("dut")
			b := newBench(t, m)
			n, banks := blk.Entries, 1<<blk.BankBits
			rows := min(1<<blk.RowBits, 3)
			r := rand.New(rand.NewPCG(uint64(n), 12))
			slots := make([]d.Slot, n)
			bs := make([]d.Bank, banks)
			counts := map[string]int{}
			slotIn := make([][]verify.In, n)
			for i := range slotIn {
				slotIn[i] = b.Ins(p.Slots[i])
			}
			rdy, openV, openRow := b.Ins(p.Banks.Rdy), b.Ins(p.Banks.OpenV), b.Ins(p.Banks.OpenRow)
			polIn, outs := b.Ins(p.Pol)[0], b.Outs([]*hdl.Signal{p.Gnt, p.Idx, p.Hit})
			for q := range 4 * tc.queues {
				pol := d.Policies[q%4]
				mlMax, ageMax := uint64(1)<<blk.MlBits-1, uint64(1)<<blk.AgeBits-1
				for i := range slots {
					slots[i] = d.Slot{Valid: r.IntN(3) > 0, Bank: r.IntN(banks), Row: r.IntN(rows),
						Mlen: pickValue(r, mlMax), Age: pickValue(r, ageMax), Ord: r.IntN(n)}
				}
				for k := range bs {
					bs[k] = d.Bank{Ready: r.IntN(6) > 0, Open: r.IntN(tc.open) == 0, Row: r.IntN(rows)}
				}
				b.Set(polIn, uint64(pol))
				for i, s := range slots {
					setAll(b, slotIn[i], verify.Bit(s.Valid), uint64(s.Bank), uint64(s.Row), s.Mlen, s.Age, uint64(s.Ord))
				}
				for k, bk := range bs {
					b.Set(rdy[k], verify.Bit(bk.Ready))
					b.Set(openV[k], verify.Bit(bk.Open))
					b.Set(openRow[k], uint64(bk.Row))
				}
				b.Step()
				ok, idx, hit := d.Pick(pol, slots, bs)
				if !ok {
					idx = 0
				}
				require.Equal(t, []uint64{verify.Bit(ok), uint64(idx), verify.Bit(hit)}, getAll(b, outs), "queue %d, %v: %+v banks %+v", q, pol, slots, bs)
				counts[fmt.Sprintf("%v hit=%v", pol, hit)]++
			}
			t.Logf("%v", counts)
			for _, pol := range d.Policies {
				require.Positive(t, counts[fmt.Sprintf("%v hit=true", pol)])
				require.Positive(t, counts[fmt.Sprintf("%v hit=false", pol)])
			}
		})
	}
}

// pickValue is a random value up to hi, often hi itself or small ones.
func pickValue(r *rand.Rand, hi uint64) uint64 {
	switch r.IntN(4) {
	case 0:
		return hi
	case 1:
		return uint64(r.IntN(3))
	}
	return r.Uint64N(hi + 1)
}

// TestMIBsMatchContract drives dram-mib and dram-l2mib with random
// allocations, dummies or merges and frees over few blocks (so dummies
// match, several slots share a block, ages saturate) and compares every
// output with MIB and L2MIB each cycle.
func TestMIBsMatchContract(t *testing.T) {
	t.Parallel()
	const cycles = 30_000
	for _, v := range []units.Values{{"entries": 4, "blkbits": 2, "merges": 5, "agebits": 6}, {}} {
		c := units.Config{Unit: "dram-mib", Values: v}
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			blk, err := units.FillConfig(c, (*d.MIBBlock).Params)
			require.NoError(t, err)
			m, p := blk.WithPorts("dut")
			b := newBench(t, m)
			n, mw := blk.Entries, lib.CountWidth(blk.Merges)
			ref := d.NewMIB(n, blk.Merges, blk.AgeBits)
			r := rand.New(rand.NewPCG(5, uint64(n)))
			blocks := uint64(min(6, 1<<blk.BlkBits))
			ins := b.Ins(p.In)
			slotOut := make([][]verify.Out, n)
			for i := range slotOut {
				slotOut[i] = b.Outs(p.Slots[i])
			}
			saturated := 0
			for range cycles {
				in := d.MIBIn{Alloc: r.IntN(3) == 0, AllocIdx: r.IntN(n + 1), AllocBlk: r.Uint64N(blocks),
					AllocAge: pickValue(r, uint64(1)<<blk.AgeBits-1),
					Upd:      r.IntN(2) == 0, UpdBlk: r.Uint64N(blocks), UpdMlen: r.Uint64N(1 << mw),
					UpdAge: pickValue(r, 40), Free: r.IntN(4) == 0, FreeIdx: r.IntN(n + 1)}
				in.AllocIdx %= 1 << lib.CountWidth(n-1)
				in.FreeIdx %= 1 << lib.CountWidth(n-1)
				setAll(b, ins, verify.Bit(in.Alloc), uint64(in.AllocIdx), in.AllocBlk, in.AllocAge,
					verify.Bit(in.Upd), in.UpdBlk, in.UpdMlen, in.UpdAge, verify.Bit(in.Free), uint64(in.FreeIdx))
				b.Step()
				for i := range n {
					require.Equal(t, []uint64{verify.Bit(ref.V[i]), ref.Mlen[i], ref.Age[i]},
						getAll(b, slotOut[i]), "cycle %d slot %d", b.Cycle(), i)
					if ref.Age[i] == uint64(1)<<blk.AgeBits-1 {
						saturated++
					}
				}
				ref.Step(in)
			}
			require.Positive(t, saturated)
		})
	}
	for _, v := range []units.Values{{"entries": 4, "merges": 3, "agebits": 5}, {"entries": 1, "merges": 2, "agebits": 3}, {}} {
		c := units.Config{Unit: "dram-l2mib", Values: v}
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			blk, err := units.FillConfig(c, (*d.L2MIBBlock).Params)
			require.NoError(t, err)
			m, p := blk.WithPorts("dut")
			b := newBench(t, m)
			n := blk.Entries
			ref := d.NewL2MIB(n, blk.Merges, blk.AgeBits)
			ins := b.Ins([]*hdl.Signal{p.AllocValid, p.AllocIdx, p.MrgValid, p.MrgIdx, p.MrgAge, p.FreeValid, p.FreeIdx, p.Dmy.Ready})
			outs := b.Outs([]*hdl.Signal{p.Dmy.Valid, p.Dmy.Payload.Idx, p.Dmy.Payload.Mlen, p.Dmy.Payload.Age})
			r := rand.New(rand.NewPCG(6, uint64(n)))
			iw := lib.CountWidth(n - 1)
			dummies := 0
			for range cycles {
				in := d.L2MIBIn{Alloc: r.IntN(8) == 0, AllocIdx: r.IntN(1 << iw), Mrg: r.IntN(2) == 0,
					MrgIdx: r.IntN(1 << iw), MrgAge: pickValue(r, min(20, uint64(1)<<blk.AgeBits-1)), Free: r.IntN(8) == 0, FreeIdx: r.IntN(1 << iw),
					DmyReady: r.IntN(3) == 0}
				setAll(b, ins, verify.Bit(in.Alloc), uint64(in.AllocIdx), verify.Bit(in.Mrg), uint64(in.MrgIdx), in.MrgAge,
					verify.Bit(in.Free), uint64(in.FreeIdx), verify.Bit(in.DmyReady))
				b.Step()
				ok, idx, mlen, age := ref.Dummy()
				require.Equal(t, []uint64{verify.Bit(ok), uint64(idx), mlen, age}, getAll(b, outs), "cycle %d", b.Cycle())
				if ok && in.DmyReady {
					dummies++
				}
				ref.Step(in)
			}
			require.Positive(t, dummies)
		})
	}
}
