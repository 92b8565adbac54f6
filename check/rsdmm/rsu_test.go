// Package rsdmm checks the random address shift family end to end: every
// unit in lockstep on Go, Verilator and Icarus, and each block against
// the paper's math in plain Go (units/rsdmm's spec).
package rsdmm

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/units"
	rs "github.com/parmem/parmem/units/rsdmm"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestUnitsInLockstep runs every registered rsdmm configuration packed
// under one top on the Go simulator, Verilator and Icarus in lockstep,
// and requires every cover point reached or proven unreachable: the
// memory's shaped stimulus (units/rsdmm's memoryShape) must bring its
// RPU to full congestion, all N requests of a super warp in one bank,
// which random addresses never do.
func TestUnitsInLockstep(t *testing.T) {
	t.Parallel()
	for _, rec := range verify.LockstepFamily(t, "rsdmm") {
		for _, p := range rec.Gaps() {
			t.Errorf("%s: cover point %s.%s never reached", rec.Pack, p.Module, p.Name)
		}
	}
}

// TestRSUMatchesShift drives rsdmm-rsu with random writes and addresses
// and requires every lane's saddr to be the spec's shift: with the table
// of the values written (lanes whose row was never written are
// unspecified and skipped), with H3 over the keys after reset and the
// writes since (writes past the row bits ignored).
func TestRSUMatchesShift(t *testing.T) {
	t.Parallel()
	const cycles = 20_000
	for _, v := range []units.Values{{"lw": 2, "ab": 10}, {"lw": 2, "ab": 10, "hash": 1}, {}, {"hash": 1}, {"hash": 1, "ab": 32, "lanes": 4, "seed": 7}} {
		c := units.Config{Unit: "rsdmm-rsu", Values: v}
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			rsu, err := units.FillConfig(c, (*rs.RSUBlock).Params)
			require.NoError(t, err)
			lw, ab, lanes, hash := rsu.LW, rsu.AB, rsu.Lanes, rsu.Hash
			dut, ports := rsu.WithPorts("dut")
			b := verify.NewBench(t, dut)
			propertiesHold(t, b)
			b.DontRecord()
			addr, saddr := b.Ins(ports.Addr), b.Outs(ports.SAddr)
			m := rs.Machine{LW: lw}
			rowBits := ab - lw
			keys := rs.HashKeys(lw, rowBits, rsu.Seed)
			table := map[int]int{}
			we, idx, val := b.In(ports.Tbl.We.Name()), b.In(ports.Tbl.Idx.Name()), b.In(ports.Tbl.Val.Name())
			r := rand.New(rand.NewPCG(uint64(lw), uint64(ab)))
			rows := min(1<<rowBits, 64) // few rows, so that written ones recur
			checked := 0
			for range cycles {
				addrs := make([]int, lanes)
				for i := range addrs {
					addrs[i] = r.IntN(rows)<<lw | r.IntN(m.W())
					if r.IntN(8) == 0 && ab < 63 {
						addrs[i] = int(r.Uint64N(1 << ab))
					}
					b.Set(addr[i], uint64(addrs[i]))
				}
				write := r.IntN(3) == 0
				wi, wv := r.IntN(rows), r.IntN(m.W())
				if hash {
					wi = r.IntN(1 << bits.Len(uint(rowBits-1))) // past the row bits too, where tbl_idx can say so
				}
				b.Set(we, verify.Bit(write))
				b.Set(idx, uint64(wi))
				b.Set(val, uint64(wv))
				b.Step()
				for i, a := range addrs {
					shift, known := 0, true
					if hash {
						shift = rs.H3(keys, m.Row(a))
					} else {
						shift, known = table[m.Row(a)]
					}
					if known {
						want := m.Shift(a, func(int) int { return shift })
						require.Equal(t, uint64(want), b.Get(saddr[i]), "cycle %d lane %d addr %#x", b.Cycle(), i, a)
						checked++
					}
				}
				if write && hash && wi < rowBits {
					keys[wi] = wv
				} else if write && !hash {
					table[wi] = wv
				}
			}
			t.Logf("%s: %d lane results checked", c, checked)
			require.Greater(t, checked, cycles*lanes/2)
		})
	}
}
