package synth

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
	"github.com/stretchr/testify/require"
)

// TestPlaceRoute is the one place and route of make test (a second or
// two): an accumulator, r <= r + a, and y = r ^ b out. Every port bit is
// in a flip-flop, so the critical path runs between flip-flops: from a or
// r to r or y, named by port bit or register; Fmax is 1000 / its ns.
func TestPlaceRoute(t *testing.T) {
	tools.Need(t, "yosys", "nextpnr-ice40")
	m := hdl.NewModule("acc")
	r := m.Reg("r", 8)
	r.Drive(r.Add(m.Input("a", 8)))
	m.Output("y", 8).Drive(r.Xor(m.Input("b", 8)))
	got, err := PlaceRoute("acc", verilogOf(t, m))
	require.NoError(t, err)
	t.Logf("%+v", got)
	require.True(t, got.Fits)
	require.Equal(t, hx8kLCs, got.PartLCs)
	require.Equal(t, hx8kRAMs, got.PartRAMs)
	require.Greater(t, got.LCs, got.LUT4, "the ports' flip-flops take logic cells too")
	require.Greater(t, got.Delay, 1.0)
	require.InDelta(t, got.Delay, got.Logic+got.Routing, 1e-9)
	require.InDelta(t, 1000/got.Delay, got.Fmax, 0.5)
	require.Regexp(t, `^(in a\[\d\]|r\[\d\])$`, got.From)
	require.Regexp(t, `^(r\[\d\]|out y\[\d\])$`, got.To)
}

// Timing reads nextpnr's report: the longest path between flip-flops (not
// the one from the pnr_in pin), its cells' and wires' shares, and its
// ends by the flip-flops the logic cells hold: a LUT packed with a port's
// flip-flop ("x_LC"), a flip-flop alone ("y_DFFLC").
func TestTimingReadsTheReport(t *testing.T) {
	w := &wrapped{
		ff:   map[string]string{"lut": "pnr_out$y[1]", "pnr_out$y[1]": "pnr_out$y[1]", "pnr_in$a[0]": "pnr_in$a[0]", "count_DFF": "count_DFF"},
		name: map[string]string{"pnr_out$y[1]": "out y[1]", "pnr_in$a[0]": "in a[0]", "count_DFF": "count[2]"},
	}
	step := func(typ string, delay float64, to string) map[string]any {
		return map[string]any{"type": typ, "delay": delay, "from": map[string]any{"cell": "x"}, "to": map[string]any{"cell": to}}
	}
	report := map[string]any{
		"utilization": map[string]any{"ICESTORM_LC": map[string]any{"used": 42, "available": 7680}, "ICESTORM_RAM": map[string]any{"used": 1, "available": 32}},
		"fmax":        map[string]any{"clk": map[string]any{"achieved": 200.0, "constraint": 12.0}},
		"critical_paths": []any{
			map[string]any{"from": "<async>", "to": "posedge clk", "path": []any{step("source", 0, "pnr_in$a[0]_DFFLC"), step("routing", 9, "pnr_in$a[0]_DFFLC")}},
			map[string]any{"from": "posedge clk", "to": "posedge clk", "path": []any{
				step("clk-to-q", 0.5, "pnr_in$a[0]_DFFLC"), step("routing", 2, "lut_LC"), step("logic", 0.5, "lut_LC"), step("setup", 1, "lut_LC")}},
			map[string]any{"from": "negedge clk", "to": "posedge clk", "path": []any{
				step("clk-to-q", 0.5, "count_DFF_DFFLC"), step("setup", 1, "ram")}},
		},
	}
	data, err := json.Marshal(report)
	require.NoError(t, err)
	var got Timing
	require.NoError(t, got.read(data, w))
	require.Equal(t, Timing{Fits: true, LCs: 42, RAMs: 1, Fmax: 200, Delay: 4, Logic: 2, Routing: 2, From: "in a[0]", To: "out y[1]"}, got)

	require.ErrorContains(t, new(Timing).read([]byte(`{"critical_paths": []}`), w), "no path between flip-flops")
	require.Error(t, new(Timing).read([]byte(`{`), w))
}

// A failed run's log says what the design takes of each resource, and
// the part's.
func TestUtilisation(t *testing.T) {
	log := "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  8203/ 7680   106%\nInfo: \t        ICESTORM_RAM:    40/   32   125%\nInfo: \t               SB_IO:     2/  256     0%\nERROR: Unable to place cell"
	require.Equal(t, map[string][2]int{"ICESTORM_LC": {8203, 7680}, "ICESTORM_RAM": {40, 32}, "SB_IO": {2, 256}}, utilisation(log))
	require.Empty(t, utilisation("ERROR: no utilisation"))
}

// registerPorts turns every port but the clock into flip-flops: the
// inputs load from pnr_in, the outputs are loads of their own; a design
// without a clock gets pnr_clk.
func TestRegisterPorts(t *testing.T) {
	netlist := `{"creator": "test", "modules": {"SB_LUT4": {"attributes": {"blackbox": "1"}}, "top": {
		"attributes": {"top": "1"},
		"ports": {"a": {"direction": "input", "bits": [2, 3]}, "y": {"direction": "output", "bits": [4, "0"]}},
		"cells": {"l": {"hide_name": 0, "type": "SB_LUT4", "parameters": {}, "attributes": {},
			"port_directions": {"I0": "input", "I1": "input", "O": "output"}, "connections": {"I0": [2], "I1": [3], "O": [4]}}},
		"netnames": {"a": {"hide_name": 0, "bits": [2, 3], "attributes": {}}, "y": {"hide_name": 0, "bits": [4, "0"], "attributes": {}}}}}}`
	w, err := registerPorts([]byte(netlist), "top")
	require.NoError(t, err)
	var doc struct {
		Modules map[string]yosysModule `json:"modules"`
	}
	require.NoError(t, json.Unmarshal(w.json, &doc))
	require.Len(t, doc.Modules, 1, "the cells' blackboxes left out")
	m := doc.Modules["top"]
	require.ElementsMatch(t, []string{"pnr_clk", "pnr_in"}, slices.Collect(maps.Keys(m.Ports)))
	conn := func(cell, pin string) string { return string(must(json.Marshal(m.Cells[cell].Connections[pin]))) }
	require.Equal(t, conn("pnr_in$a[0]", "Q"), "[2]")
	require.Equal(t, conn("pnr_in$a[1]", "Q"), "[3]")
	for _, c := range []string{"pnr_in$a[0]", "pnr_in$a[1]"} {
		require.Equal(t, conn(c, "D"), string(must(json.Marshal(m.Ports["pnr_in"].Bits))))
	}
	require.Equal(t, conn("pnr_out$y[0]", "D"), "[4]")
	require.NotContains(t, m.Cells, "pnr_out$y[1]", "a constant bit needs no flip-flop")
	for _, c := range []string{"pnr_in$a[0]", "pnr_in$a[1]", "pnr_out$y[0]"} {
		require.Equal(t, conn(c, "C"), string(must(json.Marshal(m.Ports["pnr_clk"].Bits))))
		require.Equal(t, "SB_DFF", m.Cells[c].Type)
	}
	require.Equal(t, "out y[0]", w.signal("l_LC"), "the LUT packed with y[0]'s flip-flop")
	require.Equal(t, "in a[1]", w.signal("pnr_in$a[1]_DFFLC"))
	require.Equal(t, "other_cell", w.signal("other_cell"), "a cell that holds no flip-flop (a RAM) by its name")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
