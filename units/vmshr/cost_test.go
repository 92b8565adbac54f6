package vmshr

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Deferred reservation in the RTL: vmshr-elastic holds exactly the Data
// bits of vmshr-base (m normal blocks, not m hyper blocks), m x GW HBS
// flip-flops more, and otherwise the same state.
func TestElasticStorageEqualsBase(t *testing.T) {
	for _, v := range []units.Values{{}, {"m": 16, "dw": 32}, {"m": 5, "s": 3, "dw": 7}} {
		bits := func(unit string) (data, hbs, other int) {
			d, err := units.Config{Unit: unit, Values: v}.Build("dut")
			require.NoError(t, err)
			return stateBits(d)
		}
		ed, eh, eo := bits("vmshr-elastic")
		bd, bh, bo := bits("vmshr-base")
		m, dw := MSHRs, 8*NormalBlock
		if x, ok := v["m"]; ok {
			m = x
		}
		if x, ok := v["dw"]; ok {
			dw = x
		}
		require.Equal(t, m*dw, ed, "%v: elastic Data bits", v)
		require.Equal(t, ed, bd, "%v: equal Data bits", v)
		require.Equal(t, m*hbsWidth(HyperMax), eh, "%v: HBS flip-flops", v)
		require.Zero(t, bh, "%v: the base has no HBS", v)
		require.Equal(t, bo, eo, "%v: the rest of the state", v)
	}
}

// The cost claims follow the measurements: planted gate counts and depths
// (no Yosys) turn each claim's verdict.
func TestCostClaimsFollowTheMeasurements(t *testing.T) {
	n := 2 * len(costEntries)
	plant := func(elastic, elasticDepth, hitIdx int) []verdict.Claim {
		c := &costs{gates: make([]synth.Gates, n+2), fast: make([]synth.Gates, n+2), fill: make([]synth.Gates, 4), fillFast: make([]synth.Gates, 4)}
		for i, m := range costEntries {
			c.fast[2*i] = synth.Gates{Gates: 100*m + 14*m, OutputDepth: map[string]int{"hit_idx": hitIdx}}
			c.fast[2*i+1] = synth.Gates{Gates: 100 * m, OutputDepth: map[string]int{"hit_idx": 10}}
		}
		c.gates[n] = synth.Gates{Gates: elastic, Depth: elasticDepth}
		c.gates[n+1] = synth.Gates{Gates: 1000, Depth: 20}
		return costClaims(c)
	}
	verdicts := func(cs []verdict.Claim) []verdict.Verdict {
		var vs []verdict.Verdict
		for _, c := range cs {
			vs = append(vs, c.Verdict)
		}
		return vs
	}
	cs := plant(1050, 20, 10)
	require.Len(t, cs, 4)
	assert.Equal(t, "2-input AND x 6M, 3-input AND x M, 3-bit comparator x M, M-input NOR x 1", cs[0].Printed)
	assert.Contains(t, []verdict.Verdict{verdict.Exact, verdict.Matches}, cs[0].Verdict, "14 gates per PMSHR")
	assert.Equal(t, []verdict.Verdict{verdict.DirectionOnly, verdict.Exact, verdict.Exact}, verdicts(cs[1:]), "+5%, the same depths")
	assert.Equal(t, []verdict.Verdict{verdict.Differs, verdict.Differs, verdict.Differs}, verdicts(plant(2000, 26, 11)[1:]), "+100%, deeper")
}

// FillBlock, the fill path vmshr-cost synthesizes alone, on the Go
// simulator against 6.4.2's deferred reservation: a PMSHR takes the
// returned packet when it is valid, not ready, and its block lies in the
// packet's aligned range of 2^g normal blocks (g = min(fill_hbs, hmax)),
// takes the block at its offset in the packet, and fill_drop counts the
// packet's blocks no PMSHR takes.
func TestFillBlockDefersReservation(t *testing.T) {
	for _, c := range []FillBlock{{M: 4, Hmax: 2, Aw: 5, Dw: 6}, {M: 5, Hmax: 3, Aw: 6, Dw: 3}, {M: 3, Hmax: 3, Aw: 4, Dw: 5, Base: true}} {
		m, p := c.WithPorts("fill")
		d, err := hdl.Elaborate(m)
		require.NoError(t, err)
		s := sim.New(d)
		set := func(port *hdl.Signal, v uint64) { require.NoError(t, s.SetU(port.Name(), v), port.Name()) }
		get := func(port *hdl.Signal) uint64 {
			v, err := s.GetU(port.Name())
			require.NoError(t, err, port.Name())
			return v
		}
		hmax := c.Hmax
		if c.Base {
			hmax = 0
		}
		r := rand.New(rand.NewPCG(uint64(c.M), uint64(hmax)))
		for range 500 {
			valid, blk := r.IntN(4) > 0, r.Uint64N(1<<c.Aw)
			g := 0
			if !c.Base {
				hbs := r.IntN(1 << hbsWidth(hmax))
				set(p.Fill.HBS[0], uint64(hbs))
				g = min(hbs, hmax)
			}
			set(p.Fill.Valid, verify.Bit(valid))
			set(p.Fill.Blk, blk)
			data := make([]uint64, 1<<hmax)
			for k := range data {
				data[k] = r.Uint64N(1 << c.Dw)
				set(p.Fill.Data[k], data[k])
			}
			start := blk &^ (1<<g - 1)
			taken := map[uint64]bool{}
			for i := range c.M {
				v, y := r.IntN(4) > 0, r.IntN(3) == 0
				tag := start + r.Uint64N(1<<(g+1)) // inside the range or just beyond it
				tag &= 1<<c.Aw - 1
				set(p.Entries[i].V, verify.Bit(v))
				set(p.Entries[i].Y, verify.Bit(y))
				set(p.Entries[i].Tag, tag)
				waits := v && !y && tag>>g == blk>>g
				if waits {
					taken[tag] = true
				}
				want := uint64(0)
				if valid && waits {
					want = 1
				}
				require.Equal(t, want, get(p.Take[i]), "%+v entry %d", c, i)
				if waits {
					require.Equal(t, data[tag-start], get(p.Piece[i]), "%+v entry %d", c, i)
				}
			}
			drop := 0
			if valid {
				for k := range uint64(1) << g {
					if !taken[start+k] {
						drop++
					}
				}
			}
			require.Equal(t, uint64(drop), get(p.Drop), "%+v", c)
		}
	}
}
