package hdl_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/internal/vcd"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// The example design (counter, RAM, register file as a sub-module) through
// every stage: simulation against a model written separately in Go, Verilog
// that Verilator's -Wall lint and Icarus accept, RAM inference in Yosys, and
// a Go waveform whose names and values match Icarus's waveform of the RTL.

// counterRAMModel is designs.CounterRAM written as plain Go.
type counterRAMModel struct {
	count uint8
	ram   [16]uint16
	rf    [8]uint16
	ramQ  uint16
}

type counterRAMIn struct {
	en           bool
	wdata, raddr uint16
}

func (m *counterRAMModel) step(in counterRAMIn) {
	next := m.ram[in.raddr&15] // synchronous read sees the word before this edge's write
	if in.en {
		m.ram[m.count&15] = in.wdata
		m.rf[m.count&7] = in.wdata ^ uint16(m.count)
		m.count++
	}
	m.ramQ = next
}

// outputs returns the model's outputs for the current inputs.
func (m *counterRAMModel) outputs(in counterRAMIn) map[string]uint64 {
	rfA := m.rf[in.raddr&7]
	return map[string]uint64{
		"count_q": uint64(m.count), "ram_q_o": uint64(m.ramQ),
		"rf_a": uint64(rfA), "rf_b": uint64(m.rf[m.count&7]), "sum": uint64(rfA + m.ramQ),
	}
}

func randomInputs(r *rand.Rand, n int) []counterRAMIn {
	ins := make([]counterRAMIn, n)
	for i := range ins {
		ins[i] = counterRAMIn{en: r.IntN(4) != 0, wdata: uint16(r.Uint32()), raddr: uint16(r.IntN(16))}
	}
	return ins
}

func putInputs(t *testing.T, s *sim.Sim, in counterRAMIn) {
	en := uint64(0)
	if in.en {
		en = 1
	}
	require.NoError(t, s.SetU("en", en))
	require.NoError(t, s.SetU("wdata", uint64(in.wdata)))
	require.NoError(t, s.SetU("raddr", uint64(in.raddr)))
}

func TestExampleSimulationMatchesModel(t *testing.T) {
	d, err := hdl.Elaborate(designs.CounterRAM())
	require.NoError(t, err)
	s := sim.New(d)
	s.Reset()
	var m counterRAMModel
	r := rand.New(rand.NewPCG(1, 2))
	for cycle, in := range randomInputs(r, 2000) {
		putInputs(t, s, in)
		for name, want := range m.outputs(in) {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, want, got, "cycle %d before the edge: %s", cycle, name)
		}
		s.Step()
		m.step(in)
		for name, want := range m.outputs(in) {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, want, got, "cycle %d after the edge: %s", cycle, name)
		}
	}
	inner, err := s.Peek("rf.wd")
	require.NoError(t, err, "inner signals are visible by hierarchical name")
	require.Equal(t, 16, inner.Width())
}

func TestExampleVerilogIsDeterministicAndToolClean(t *testing.T) {
	d1, err := hdl.Elaborate(designs.CounterRAM())
	require.NoError(t, err)
	d2, err := hdl.Elaborate(designs.CounterRAM())
	require.NoError(t, err)
	v := d1.Verilog()
	require.Equal(t, v, d2.Verilog(), "two elaborations of the same design emit the same bytes")
	for _, name := range []string{"count", "ram_q", "wdata", "raddr", "module regfile", "rf (", "reg [15:0] ram [0:15]"} {
		require.Contains(t, string(v), name, "user names survive into Verilog")
	}
	require.NotContains(t, string(v), "lint_off", "no lint waivers")

	dir := t.TempDir()
	file := filepath.Join(dir, "counter_ram.v")
	require.NoError(t, os.WriteFile(file, v, 0o644))
	tools.LintClean(t, dir, "counter_ram.v")
	// The file name need not match the top module: each module carries a
	// `line directive naming its own file.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "any_name.v"), v, 0o644))
	tools.LintClean(t, dir, "any_name.v")
	tools.IverilogCompile(t, dir, "/dev/null", "counter_ram.v")

	stat := tools.YosysStat(t, dir, "counter_ram", "counter_ram.v")
	mems := regexp.MustCompile(`(?m)^\s+\$mem_v2\s+(\d+)$`).FindAllStringSubmatch(stat, -1)
	require.NotEmpty(t, mems, "Yosys infers memories:\n%s", stat)
	require.Equal(t, "2", mems[len(mems)-1][1], "both the RAM and the register file become $mem cells")
}

// icarusBench drives the example design through ins, one input change per
// 10 ns with the clock rising at +5, as the Go trace does, and dumps a VCD.
func icarusBench(ins []counterRAMIn) string {
	var b strings.Builder
	b.WriteString("`timescale 1ns/1ns\nmodule tb;\n  reg clk = 1'b0, rst = 1'b0, en = 1'b0;\n  reg [15:0] wdata = 16'h0;\n  reg [3:0] raddr = 4'h0;\n")
	b.WriteString("  wire [7:0] count_q;\n  wire [15:0] ram_q_o, rf_a, rf_b, sum;\n")
	b.WriteString("  counter_ram dut (.clk(clk), .rst(rst), .en(en), .wdata(wdata), .raddr(raddr), .count_q(count_q), .ram_q_o(ram_q_o), .rf_a(rf_a), .rf_b(rf_b), .sum(sum));\n")
	b.WriteString("  integer i;\n  initial begin\n")
	b.WriteString("    for (i = 0; i < 16; i = i + 1) dut.ram[i] = 16'h0;\n    for (i = 0; i < 8; i = i + 1) dut.rf.r[i] = 16'h0;\n")
	b.WriteString("    $dumpfile(\"rtl.vcd\");\n    $dumpvars(0, dut);\n")
	b.WriteString("    rst = 1'b1;\n    #5 clk = 1'b1;\n    #5 clk = 1'b0;\n    rst = 1'b0;\n")
	for _, in := range ins {
		en := 0
		if in.en {
			en = 1
		}
		fmt.Fprintf(&b, "    en = 1'b%d; wdata = 16'h%04x; raddr = 4'h%x;\n    #5 clk = 1'b1;\n    #5 clk = 1'b0;\n", en, in.wdata, in.raddr)
	}
	b.WriteString("    $finish;\n  end\nendmodule\n")
	return b.String()
}

func TestExampleWaveformMatchesIcarus(t *testing.T) {
	tools.Need(t, "iverilog", "vvp")
	d, err := hdl.Elaborate(designs.CounterRAM())
	require.NoError(t, err)
	ins := randomInputs(rand.New(rand.NewPCG(3, 4)), 60)

	var goVCD bytes.Buffer
	s := sim.New(d)
	require.NoError(t, s.TraceVCD(&goVCD))
	s.Reset()
	for _, in := range ins {
		putInputs(t, s, in)
		s.Step()
	}
	require.NoError(t, s.FlushTrace())

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "counter_ram.v"), d.Verilog(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tb.v"), []byte(icarusBench(ins)), 0o644))
	tools.IverilogCompile(t, dir, "tb.vvp", "tb.v", "counter_ram.v")
	tools.Run(t, dir, "vvp", "-n", "tb.vvp")
	rtlFile, err := os.Open(filepath.Join(dir, "rtl.vcd"))
	require.NoError(t, err)
	defer rtlFile.Close()

	gw, err := vcd.Parse(&goVCD)
	require.NoError(t, err, "the Go waveform parses")
	rw, err := vcd.Parse(rtlFile)
	require.NoError(t, err, "the Icarus waveform parses")

	end := uint64(10 * (len(ins) + 1))
	compared := 0
	for _, path := range gw.Paths() {
		g := gw.Vars[path]
		rtlPath := "tb.dut" + strings.TrimPrefix(path, "counter_ram")
		r, ok := rw.Vars[rtlPath]
		require.Truef(t, ok, "Go waveform variable %s has no RTL counterpart %s", path, rtlPath)
		require.Equal(t, r.Width, g.Width, path)
		for tm := uint64(5); tm < end; tm += 5 { // from the reset edge on
			require.Equalf(t, r.At(tm), g.At(tm), "%s at %d ns", path, tm)
			compared++
		}
	}
	for _, want := range []string{"counter_ram.clk", "counter_ram.count", "counter_ram.ram_q", "counter_ram.rf.wd", "counter_ram.rf.rd1"} {
		require.Contains(t, gw.Vars, want)
	}
	t.Logf("compared %d samples of %d variables", compared, len(gw.Vars))
}
