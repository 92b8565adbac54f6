package rsdmm

import (
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
				rpu, err := units.FillConfig(c, (*rs.RPUBlock).Params)
				require.NoError(t, err)
				dut, ports := rpu.WithPorts("dut")
				b := verify.NewBench(t, dut)
				propertiesHold(t, b)
				b.DontRecord()
				w, n := 1<<rpu.LW, rpu.S<<rpu.LW
				load, cong := b.Outs(ports.Load), b.Out(ports.Cong.Name())
				r := rand.New(rand.NewPCG(uint64(w), uint64(n)))
				rounds := 3000
				if n > 100 {
					rounds = 300
				}
				maxCong := 0
				for range rounds {
					reqs := make([]rs.Request, n)
					rows := 1 + r.IntN(1<<rpu.RB)
					for i := range reqs {
						reqs[i] = rs.Request{Valid: r.IntN(5) > 0, Bank: r.IntN(w), Row: r.IntN(rows)}
						if r.IntN(4) == 0 {
							reqs[i].Bank = 0 // a hot bank
						}
						in := ports.In[i]
						b.Set(b.In(in.Valid.Name()), verify.Bit(reqs[i].Valid))
						b.Set(b.In(in.Bank.Name()), uint64(reqs[i].Bank))
						b.Set(b.In(in.Row.Name()), uint64(reqs[i].Row))
					}
					b.Step()
					p := rs.Pack(reqs, w)
					for i := range reqs {
						out := ports.Out[i]
						require.Equal(t, uint64(p.Stage[i]), b.Get(b.Out(out.Stage.Name())), "%s of %+v", out.Stage.Name(), reqs)
						require.Equal(t, p.Lead[i], b.Get(b.Out(out.Lead.Name())) == 1, "%s", out.Lead.Name())
					}
					for k := range w {
						require.Equal(t, uint64(p.Load[k]), b.Get(load[k]), "%s", ports.Load[k].Name())
					}
					require.Equal(t, uint64(p.Cong), b.Get(cong))
					maxCong = max(maxCong, p.Cong)
				}
				t.Logf("%s: %d super warps, largest congestion %d", c, rounds, maxCong)
			})
		}
	}
}
