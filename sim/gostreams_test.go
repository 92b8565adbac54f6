package sim_test

import (
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// TestStreamLaneBits: the compiled streams take 32-bit lanes exactly where
// every value fits 32 bits and every memory port is a vector statement.
// (verify's compiled-streams tests run both widths against the
// interpreter.)
func TestStreamLaneBits(t *testing.T) {
	memory := func(width int, masked bool) *hdl.Module {
		m := hdl.NewModule("memory")
		addr, data, en := m.Input("addr", 4), m.Input("data", width), m.Input("en", 1)
		mem := m.Mem("m", 4, width)
		if masked {
			mem.WriteMasked(addr, data, m.Input("mask", width), en)
		} else {
			mem.Write(addr, data, en)
		}
		m.Output("q", width).Drive(mem.Read(addr))
		return m
	}
	for _, tc := range []struct {
		name string
		m    *hdl.Module
		bits int
	}{
		{"32-bit random logic", designs.RandomComb("comb32", 200, 32, 1), 32},
		{"33-bit random logic", designs.RandomComb("comb33", 200, 33, 1), 64},
		{"counter with a memory", designs.CounterRAM(), 32},
		{"32-bit memory", memory(32, false), 32},
		{"33-bit memory", memory(33, false), 64},
		{"masked writes", memory(8, true), 64},
	} {
		d, err := hdl.Elaborate(tc.m)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.bits, sim.New(d).StreamLaneBits(), tc.name)
	}
}
