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

	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units"
	d "github.com/parmem/parmem/units/dram"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestUnitsInLockstep runs every registered dram configuration (each unit
// at its defaults and at 4 and 16 entries) packed under one top on the Go
// simulator, Verilator and Icarus in lockstep.
func TestUnitsInLockstep(t *testing.T) {
	t.Parallel()
	verify.LockstepFamily(t, "dram")
}

// bench is a unit on verify's Go-simulator bench with its resolved
// parameters.
type bench struct {
	*verify.Bench
	v units.Values
}

func newBench(t *testing.T, c units.Config) bench {
	design, err := c.Build("dut")
	require.NoError(t, err)
	_, v, err := c.Resolve()
	require.NoError(t, err)
	b := verify.NewBenchDesign(t, design)
	b.DontRecord()
	return bench{b, v}
}

func (b bench) set(name string, x uint64)         { b.Set(b.In(name), x) }
func (b bench) seti(name string, i int, x uint64) { b.set(fmt.Sprintf("%s_%d", name, i), x) }
func (b bench) get(name string) uint64            { return b.Get(b.Out(name)) }
func (b bench) geti(name string, i int) uint64    { return b.get(fmt.Sprintf("%s_%d", name, i)) }

// lanes returns the handles of inputs name_0 .. name_<n-1>, for loops that
// set them many times (a lookup by name costs more than the cycle).
func (b bench) lanes(name string, n int) []verify.In {
	hs := make([]verify.In, n)
	for i := range hs {
		hs[i] = b.In(fmt.Sprintf("%s_%d", name, i))
	}
	return hs
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
			b := newBench(t, c)
			n, banks := b.v["entries"], 1<<b.v["bankbits"]
			rows := min(1<<b.v["rowbits"], 3)
			r := rand.New(rand.NewPCG(uint64(n), 12))
			slots := make([]d.Slot, n)
			bs := make([]d.Bank, banks)
			counts := map[string]int{}
			v, bank, row, mlen, age, ord := b.lanes("v", n), b.lanes("bank", n), b.lanes("row", n), b.lanes("mlen", n), b.lanes("age", n), b.lanes("ord", n)
			rdy, openV, openRow := b.lanes("rdy", banks), b.lanes("open_v", banks), b.lanes("open_row", banks)
			polIn, gnt, idxOut, hitOut := b.In("pol"), b.Out("gnt"), b.Out("idx"), b.Out("hit")
			for q := range 4 * tc.queues {
				pol := d.Policies[q%4]
				mlMax, ageMax := uint64(1)<<b.v["mlbits"]-1, uint64(1)<<b.v["agebits"]-1
				for i := range slots {
					slots[i] = d.Slot{Valid: r.IntN(3) > 0, Bank: r.IntN(banks), Row: r.IntN(rows),
						Mlen: pickValue(r, mlMax), Age: pickValue(r, ageMax), Ord: r.IntN(n)}
				}
				for k := range bs {
					bs[k] = d.Bank{Ready: r.IntN(6) > 0, Open: r.IntN(tc.open) == 0, Row: r.IntN(rows)}
				}
				b.Set(polIn, uint64(pol))
				for i, s := range slots {
					b.Set(v[i], verify.Bit(s.Valid))
					b.Set(bank[i], uint64(s.Bank))
					b.Set(row[i], uint64(s.Row))
					b.Set(mlen[i], s.Mlen)
					b.Set(age[i], s.Age)
					b.Set(ord[i], uint64(s.Ord))
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
				got := [3]uint64{b.Get(gnt), b.Get(idxOut), b.Get(hitOut)}
				require.Equal(t, [3]uint64{verify.Bit(ok), uint64(idx), verify.Bit(hit)}, got, "queue %d, %v: %+v banks %+v", q, pol, slots, bs)
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
			b := newBench(t, c)
			n, mw := b.v["entries"], lib.CountWidth(b.v["merges"])
			ref := d.NewMIB(n, b.v["merges"], b.v["agebits"])
			r := rand.New(rand.NewPCG(5, uint64(n)))
			blocks := uint64(min(6, 1<<b.v["blkbits"]))
			saturated := 0
			for range cycles {
				in := d.MIBIn{Alloc: r.IntN(3) == 0, AllocIdx: r.IntN(n + 1), AllocBlk: r.Uint64N(blocks),
					AllocAge: pickValue(r, uint64(1)<<b.v["agebits"]-1),
					Upd:      r.IntN(2) == 0, UpdBlk: r.Uint64N(blocks), UpdMlen: r.Uint64N(1 << mw),
					UpdAge: pickValue(r, 40), Free: r.IntN(4) == 0, FreeIdx: r.IntN(n + 1)}
				b.set("alloc_valid", verify.Bit(in.Alloc))
				b.set("alloc_idx", uint64(in.AllocIdx)%(1<<lib.CountWidth(n-1)))
				b.set("alloc_blk", in.AllocBlk)
				b.set("alloc_age", in.AllocAge)
				b.set("upd_valid", verify.Bit(in.Upd))
				b.set("upd_blk", in.UpdBlk)
				b.set("upd_mlen", in.UpdMlen)
				b.set("upd_age", in.UpdAge)
				b.set("free_valid", verify.Bit(in.Free))
				b.set("free_idx", uint64(in.FreeIdx)%(1<<lib.CountWidth(n-1)))
				in.AllocIdx %= 1 << lib.CountWidth(n-1)
				in.FreeIdx %= 1 << lib.CountWidth(n-1)
				b.Step()
				for i := range n {
					require.Equal(t, [3]uint64{verify.Bit(ref.V[i]), ref.Mlen[i], ref.Age[i]},
						[3]uint64{b.geti("v", i), b.geti("mlen", i), b.geti("age", i)}, "cycle %d slot %d", b.Cycle(), i)
					if ref.Age[i] == uint64(1)<<b.v["agebits"]-1 {
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
			b := newBench(t, c)
			n := b.v["entries"]
			ref := d.NewL2MIB(n, b.v["merges"], b.v["agebits"])
			r := rand.New(rand.NewPCG(6, uint64(n)))
			iw := lib.CountWidth(n - 1)
			dummies := 0
			for range cycles {
				in := d.L2MIBIn{Alloc: r.IntN(8) == 0, AllocIdx: r.IntN(1 << iw), Mrg: r.IntN(2) == 0,
					MrgIdx: r.IntN(1 << iw), MrgAge: pickValue(r, min(20, uint64(1)<<b.v["agebits"]-1)), Free: r.IntN(8) == 0, FreeIdx: r.IntN(1 << iw),
					DmyReady: r.IntN(3) == 0}
				b.set("alloc_valid", verify.Bit(in.Alloc))
				b.set("alloc_idx", uint64(in.AllocIdx))
				b.set("mrg_valid", verify.Bit(in.Mrg))
				b.set("mrg_idx", uint64(in.MrgIdx))
				b.set("mrg_age", in.MrgAge)
				b.set("free_valid", verify.Bit(in.Free))
				b.set("free_idx", uint64(in.FreeIdx))
				b.set("dmy_ready", verify.Bit(in.DmyReady))
				b.Step()
				ok, idx, mlen, age := ref.Dummy()
				require.Equal(t, [4]uint64{verify.Bit(ok), uint64(idx), mlen, age},
					[4]uint64{b.get("dmy_valid"), b.get("dmy_idx"), b.get("dmy_mlen"), b.get("dmy_age")}, "cycle %d", b.Cycle())
				if ok && in.DmyReady {
					dummies++
				}
				ref.Step(in)
			}
			require.Positive(t, dummies)
		})
	}
}
