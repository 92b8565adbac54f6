package sim_test

import (
	"regexp"
	"strings"
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

// TestStreamsReadConstantsFromMemory: the compiled streams' statements
// read every constant from a package variable, declared once (a
// vec.Splat in them becomes a scalar that Go 1.26 spills and reloads with
// legacy-SSE instructions, sim's splat); only NewDesign, which runs once,
// and the declarations splat. The designs: random logic at 64 and 32 bits,
// a memory, and selects over constant choices.
func TestStreamsReadConstantsFromMemory(t *testing.T) {
	for _, m := range []*hdl.Module{designs.RandomComb("comb33", 300, 33, 1), designs.RandomComb("comb32", 300, 32, 2), designs.CounterRAM()} {
		d, err := hdl.Elaborate(m)
		require.NoError(t, err)
		src, err := sim.New(d).GoStreamsSource("main", "parmemsim/vec8")
		require.NoError(t, err)
		text := string(src)
		newDesign := regexp.MustCompile(`(?s)\nfunc NewDesign\(\) \*Design \{.*?\n\}\n`).FindString(text)
		decls := regexp.MustCompile(`(?s)\nvar \(\n(\tk0x[0-9a-f]+ += vec\.Splat\(0x[0-9a-f]+\)\n)+\)\n`).FindString(text)
		require.NotEmpty(t, newDesign, m.Name())
		require.NotEmpty(t, decls, "%s: the constants' declarations", m.Name())
		rest := strings.Replace(strings.Replace(text, newDesign, "", 1), decls, "", 1)
		require.NotContains(t, rest, "vec.Splat(", "%s: a statement splats a constant", m.Name())
		declared := regexp.MustCompile(`\n\t(k0x[0-9a-f]+) `).FindAllStringSubmatch(decls, -1)
		read := map[string]bool{}
		for _, k := range regexp.MustCompile(`\bk0x[0-9a-f]+\b`).FindAllString(rest, -1) {
			read[k] = true
		}
		require.Len(t, declared, len(read), "%s: each constant read is declared once", m.Name())
		for _, k := range declared {
			require.True(t, read[k[1]], "%s: %s declared, not read", m.Name(), k[1])
		}
	}
}
