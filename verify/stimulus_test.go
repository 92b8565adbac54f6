package verify

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/stretchr/testify/require"
)

// adderModel is adderModule(false) written in plain Go.
type adderModel struct{ acc uint64 }

func (m *adderModel) Cycle(in []hdl.Bits) []hdl.Bits {
	rst, a, b := in[0].Uint64(), in[1].Uint64(), in[2].Uint64()
	sum := (a + b) & 0xff
	out := []hdl.Bits{hdl.MustU(8, sum), hdl.MustU(8, m.acc)}
	if rst == 1 {
		m.acc = 0
	} else {
		m.acc ^= sum
	}
	return out
}

func TestBehavioralModelInLockstep(t *testing.T) {
	d, err := hdl.Elaborate(adderModule("adder", false))
	require.NoError(t, err)
	ports := PortsOf(d)
	model := ModelBackend("model", ports, func() Model { return &adderModel{} })
	res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), model}, Seed: 3, Cycles: 5000})
	require.NoError(t, err)
	require.Equal(t, uint64(5000), res.Cycles)

	broken := ModelBackend("model", ports, func() Model { return &brokenAdderModel{} })
	_, err = Lockstep(Config{Backends: []Backend{GoBackend(d), broken}, Seed: 3, Cycles: 5000, NoReplay: true})
	var me *MismatchError
	require.ErrorAs(t, err, &me, "a model that differs is caught")
}

// brokenAdderModel forgets the carry into bit 4.
type brokenAdderModel struct{ adderModel }

func (m *brokenAdderModel) Cycle(in []hdl.Bits) []hdl.Bits {
	out := m.adderModel.Cycle(in)
	a, b := in[1].Uint64(), in[2].Uint64()
	lo := (a&15 + b&15) & 15
	hi := (a>>4 + b>>4) & 15
	out[0] = hdl.MustU(8, hi<<4|lo)
	return out
}

const adderTable = `
# the accumulating adder after reset
  rst a      b      | y      acc_q
  1   -      -      | -      -
  0   8'h01  8'h02  | 8'h03  8'h00
  0   0x10   0x20   | 0x30   3
  0   255    1      | 0      0x33
  0   -      -      | -      0x33
`

func TestDirectedVectorsCheckExpectedOutputs(t *testing.T) {
	d, err := hdl.Elaborate(adderModule("adder", false))
	require.NoError(t, err)
	ports := PortsOf(d)
	stim := func(seed uint64) Stimulus {
		s, err := ParseDirected(ports, adderTable, seed)
		require.NoError(t, err)
		return s
	}
	res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), IcarusBackend(d)}, Stimulus: stim, Seed: 1, Cycles: 5})
	require.NoError(t, err)
	require.Equal(t, uint64(5), res.Cycles)

	wrong := strings.Replace(adderTable, "| 0x30   3", "| 0x31   3", 1)
	bad := func(seed uint64) Stimulus {
		s, err := ParseDirected(ports, wrong, seed)
		require.NoError(t, err)
		return s
	}
	_, err = Lockstep(Config{Backends: []Backend{GoBackend(d)}, Stimulus: bad, Seed: 1, Cycles: 5, NoReplay: true})
	var me *MismatchError
	require.ErrorAs(t, err, &me)
	require.Equal(t, uint64(2), me.M.Cycle)
	require.Equal(t, "y", me.M.Port)
	require.Equal(t, SimValue{"expected", "8'h31"}, me.M.Values[len(me.M.Values)-1])
}

func TestDirectedTableErrors(t *testing.T) {
	d, err := hdl.Elaborate(adderModule("adder", false))
	require.NoError(t, err)
	ports := PortsOf(d)
	for table, want := range map[string]string{
		"":                    "no header",
		"a q | y\n1 2 | 3":    `"q" is not an input`,
		"a b | z\n1 2 | 3":    `"z" is not an output`,
		"a b | y\n1 | 3":      "1 input and 1 output values",
		"a b | y\n1 2 | 4'h3": "4'h3 is 4 bits",
		"a b | y\n1 zz | 3":   `"zz" for b is not a number`,
		"a b | y\n1 2 | 300":  "does not fit",
	} {
		_, err := ParseDirected(ports, table, 1)
		require.Errorf(t, err, "table %q", table)
		require.Containsf(t, err.Error(), want, "table %q", table)
	}
}

func TestGeneratorConstrainsInputs(t *testing.T) {
	d, err := hdl.Elaborate(adderModule("adder", false))
	require.NoError(t, err)
	ports := PortsOf(d)
	gen := NewGenerator(ports, 9, func(r *rand.Rand, cycle uint64, in *Inputs) {
		require.NoError(t, in.Set("a", uint64(r.IntN(16))))
		require.NoError(t, in.Set("b", cycle&0xff))
		require.Error(t, in.Set("b", 256), "out of range")
		require.Error(t, in.Set("nope", 1), "unknown input")
	})
	v := make(Vector, ports.InWords())
	for c := range uint64(300) {
		gen.Fill(c, v)
		require.Less(t, v.Field(ports.In, 1)[0], uint64(16))
		require.Equal(t, c&0xff, v.Field(ports.In, 2)[0])
	}
}
