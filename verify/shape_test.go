package verify

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// covtestPorts are the ports of the covtest family's lockstep pack.
func covtestPorts(t *testing.T, configs []units.Config) Ports {
	var mods []*hdl.Module
	for _, c := range configs {
		m, err := buildConfig(c)
		require.NoError(t, err)
		mods = append(mods, m)
	}
	d, err := hdl.Elaborate(Pack("top", "c", mods))
	require.NoError(t, err)
	return PortsOf(d)
}

// In the shaped stimulus the reset comes only at a block's start, each
// shaped configuration's
// phase sets the inputs its shape names (here en: 1 in a fill, 0 in a
// drain, random in a random block, within one block alike), and every
// other input stays the in-simulator stimulus's, cycle for cycle.
func TestShapedStimulus(t *testing.T) {
	f, err := units.LookupFamily("covtest")
	require.NoError(t, err)
	configs := f.Lockstep.Configs
	ports := covtestPorts(t, configs)
	shape := func(_ units.Values, ph units.Phase, _ int, _ *rand.Rand, set func(string, uint64)) {
		set("en", map[units.Phase]uint64{units.PhaseFill: 1, units.PhaseDrain: 0}[ph])
	}
	mk, check, err := shapedStimulus(ports, configs, map[string]units.Shape{"covtest": shape})
	require.NoError(t, err)
	s, lfsr := mk(7), NewLFSR(ports, 7)
	index := func(name string) int {
		for i, p := range ports.In {
			if p.Name == name {
				return i
			}
		}
		t.Fatalf("no input %s", name)
		return -1
	}
	en0, en2, a1 := index("c0_en"), index("c2_en"), index("c1_a")
	seen := map[string]bool{} // the kinds of block met
	var blockEn [2][]uint64   // c0_en's and c2_en's values in the block
	for c := uint64(0); c < 8*shapeBlock; c++ {
		v, want := make(Vector, ports.InWords()), make(Vector, ports.InWords())
		s.Fill(c, v)
		lfsr.Fill(c, want)
		step := c % shapeBlock
		if step != 0 {
			require.Zero(t, v[0], "rst in cycle %d, not a block start", c)
		}
		require.Equal(t, want.Field(ports.In, a1), v.Field(ports.In, a1), "the unshaped c1_a in cycle %d", c)
		for k, i := range []int{en0, en2} {
			blockEn[k] = append(blockEn[k], v.Field(ports.In, i)[0])
		}
		if step == shapeBlock-1 {
			for _, en := range blockEn {
				ones := 0
				for _, x := range en {
					ones += int(x)
				}
				switch ones {
				case 0:
					seen["drain"] = true
				case shapeBlock:
					seen["fill"] = true
				default:
					seen["random"] = true
				}
			}
			blockEn = [2][]uint64{}
		}
	}
	require.NoError(t, check())
	require.Len(t, seen, 3, "fill, drain and random blocks all met")
}

// A shape that sets an input its configuration lacks, or a value its
// input cannot hold, is reported by the check.
func TestShapedStimulusReportsABadShape(t *testing.T) {
	f, err := units.LookupFamily("covtest")
	require.NoError(t, err)
	configs := f.Lockstep.Configs
	ports := covtestPorts(t, configs)
	for bad, shape := range map[string]units.Shape{
		`shape of covtest -limit 5: no input "nope"`: func(_ units.Values, _ units.Phase, _ int, _ *rand.Rand, set func(string, uint64)) {
			set("nope", 1)
		},
		"shape of covtest -limit 5: 2 does not fit input en's 1 bits": func(_ units.Values, _ units.Phase, _ int, _ *rand.Rand, set func(string, uint64)) {
			set("en", 2)
		},
	} {
		mk, check, err := shapedStimulus(ports, configs, map[string]units.Shape{"covtest": shape})
		require.NoError(t, err)
		s := mk(1)
		for c := uint64(0); c < 4*shapeBlock; c++ {
			s.Fill(c, make(Vector, ports.InWords()))
		}
		require.EqualError(t, check(), bad)
	}
	mk, check, err := shapedStimulus(ports, configs, map[string]units.Shape{"covtest-other": nil})
	require.NoError(t, err)
	require.Nil(t, mk, "no configuration's unit is shaped: the in-simulator stimulus")
	require.Nil(t, check)
}
