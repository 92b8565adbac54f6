package rsdmm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/units"
	rs "github.com/parmem/parmem/units/rsdmm"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestRPUMatchesPack drives rsdmm-rpu, both circuits, with random super
// warps over few rows (so that addresses repeat and banks fill) and
// requires every stage, leader, load and the congestion to be Pack's.
func TestRPUMatchesPack(t *testing.T) {
	t.Parallel()
	for _, v := range []units.Values{{"lw": 2, "s": 3, "rb": 2}, {"lw": 4, "s": 2, "rb": 2}, {"lw": 3, "s": 1, "rb": 4}, {"lw": 5, "s": 5, "rb": 3}} {
		for _, all := range []int{0, 1} {
			vv := units.Values{"allpairs": all}
			for k, x := range v {
				vv[k] = x
			}
			c := units.Config{Unit: "rsdmm-rpu", Values: vv}
			t.Run(c.String(), func(t *testing.T) {
				t.Parallel()
				design, err := c.Build("dut")
				require.NoError(t, err)
				b := verify.NewBenchDesign(t, design)
				b.DontRecord()
				w, n := 1<<vv["lw"], vv["s"]<<vv["lw"]
				r := rand.New(rand.NewPCG(uint64(w), uint64(n)))
				rounds := 3000
				if n > 100 {
					rounds = 300
				}
				maxCong := 0
				for range rounds {
					reqs := make([]rs.Request, n)
					rows := 1 + r.IntN(1<<vv["rb"])
					for i := range reqs {
						reqs[i] = rs.Request{Valid: r.IntN(5) > 0, Bank: r.IntN(w), Row: r.IntN(rows)}
						if r.IntN(4) == 0 {
							reqs[i].Bank = 0 // a hot bank
						}
						b.Set(b.In(fmt.Sprintf("valid_%d", i)), verify.Bit(reqs[i].Valid))
						b.Set(b.In(fmt.Sprintf("bank_%d", i)), uint64(reqs[i].Bank))
						b.Set(b.In(fmt.Sprintf("row_%d", i)), uint64(reqs[i].Row))
					}
					b.Step()
					p := rs.Pack(reqs, w)
					for i := range reqs {
						require.Equal(t, uint64(p.Stage[i]), b.Get(b.Out(fmt.Sprintf("stage_%d", i))), "stage_%d of %+v", i, reqs)
						require.Equal(t, p.Lead[i], b.Get(b.Out(fmt.Sprintf("lead_%d", i))) == 1, "lead_%d", i)
					}
					for k := range w {
						require.Equal(t, uint64(p.Load[k]), b.Get(b.Out(fmt.Sprintf("load_%d", k))), "load_%d", k)
					}
					require.Equal(t, uint64(p.Cong), b.Get(b.Out("cong")))
					maxCong = max(maxCong, p.Cong)
				}
				t.Logf("%s: %d super warps, largest congestion %d", c, rounds, maxCong)
			})
		}
	}
}
