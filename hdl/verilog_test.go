package hdl_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// Every operation at every test width in one module: its Verilog passes
// Verilator's -Wall lint, and Icarus running it computes what the Go
// simulator computes on the same random operands.

type opPort struct {
	inputs []*hdl.Signal
	output *hdl.Signal
	widths []int
}

func allOpsModule() (*hdl.Module, []opPort) {
	m := hdl.NewModule("all_ops")
	var ports []opPort
	for k, oc := range allOps() {
		for _, w := range testWidths {
			if oc.name == "Slice" && w < 2 || oc.name == "ZextWord" && w > 64 {
				continue
			}
			p := opPort{widths: oc.widths(w)}
			for j, iw := range p.widths {
				p.inputs = append(p.inputs, m.Input(fmt.Sprintf("i%d_%d_%d", k, w, j), iw))
			}
			y := oc.sig(m, p.inputs)
			p.output = m.Output(fmt.Sprintf("o%d_%d", k, w), y.Width())
			p.output.Drive(y)
			ports = append(ports, p)
		}
	}
	return m, ports
}

func hexDigits(w int) int { return (w + 3) / 4 }

func TestAllOperationsVerilogMatchesGo(t *testing.T) {
	tools.Need(t, "iverilog", "vvp", "verilator")
	m, ports := allOpsModule()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "all_ops.v"), d.Verilog(), 0o644))
	tools.LintClean(t, dir, "all_ops.v")

	const vectors = 12
	r := rand.New(rand.NewPCG(opsSeed, 7))
	s := sim.New(d)
	var tb strings.Builder
	tb.WriteString("module tb;\n")
	conns := []string{}
	for _, p := range ports {
		for _, in := range p.inputs {
			fmt.Fprintf(&tb, "  reg [%d:0] %s;\n", in.Width()-1, in.Name())
			conns = append(conns, fmt.Sprintf(".%s(%s)", in.Name(), in.Name()))
		}
		fmt.Fprintf(&tb, "  wire [%d:0] %s;\n", p.output.Width()-1, p.output.Name())
		conns = append(conns, fmt.Sprintf(".%s(%s)", p.output.Name(), p.output.Name()))
	}
	fmt.Fprintf(&tb, "  all_ops dut (%s);\n  initial begin\n", strings.Join(conns, ", "))
	var want []string
	for range vectors {
		for _, p := range ports {
			for _, in := range p.inputs {
				v, err := hdl.FromBig(in.Width(), operand(r, in.Width()))
				require.NoError(t, err)
				require.NoError(t, s.Set(in.Name(), v))
				fmt.Fprintf(&tb, "    %s = %s;\n", in.Name(), v)
			}
		}
		tb.WriteString("    #1;\n")
		for _, p := range ports {
			fmt.Fprintf(&tb, "    $display(\"%s %%h\", %s);\n", p.output.Name(), p.output.Name())
			got, err := s.Get(p.output.Name())
			require.NoError(t, err)
			want = append(want, fmt.Sprintf("%s %0*s", p.output.Name(), hexDigits(got.Width()), got.Big().Text(16)))
		}
	}
	tb.WriteString("    $finish;\n  end\nendmodule\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tb.v"), []byte(tb.String()), 0o644))
	tools.IverilogCompile(t, dir, "tb.vvp", "tb.v", "all_ops.v")
	out := tools.Run(t, dir, "vvp", "-n", "tb.vvp")

	var got []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "o") {
			got = append(got, line)
		}
	}
	require.Len(t, got, len(want))
	for i := range want {
		require.Equalf(t, want[i], got[i], "line %d: Go simulator vs Icarus (name, hex value)", i)
	}
	t.Logf("%d outputs x %d vectors agree", len(ports), vectors)
}

// TestConstantOperandsNeedingNames covers Verilog forms a literal cannot take: a
// part-select, sign extension and one-hot select of constants.
func TestConstantOperandsNeedingNames(t *testing.T) {
	tools.Need(t, "verilator", "iverilog")
	m := hdl.NewModule("consts")
	c := m.ConstU(8, 0xa5)
	sel := m.ConstU(2, 2)
	in := m.Input("x", 4)
	m.Output("lo", 4).Drive(c.Slice(3, 0).Xor(in))
	m.Output("sx", 12).Drive(c.Sext(12))
	m.Output("oh", 4).Drive(hdl.OneHotSelect(sel, in, in.Not()))
	// Comparisons that a boundary constant decides are emitted as
	// constants: Verilator's lint rejects them written out (CMPCONST,
	// UNSIGNED).
	zero, ones := m.ConstU(4, 0), m.ConstU(4, 15)
	minS, maxS := m.ConstU(4, 8), m.ConstU(4, 7)
	m.Output("decided", 8).Drive(hdl.Concat(in.Ge(zero), in.Lt(zero), in.Le(ones), ones.Lt(in),
		in.GeS(minS), in.GtS(maxS), minS.LeS(in), maxS.GeS(in)))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	require.NoError(t, s.SetU("x", 3))
	for name, want := range map[string]uint64{"lo": 0x5 ^ 3, "sx": 0xfa5, "oh": 0xc, "decided": 0b10101011} {
		got, err := s.GetU(name)
		require.NoError(t, err)
		require.Equal(t, want, got, name)
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "consts.v"), d.Verilog(), 0o644))
	tools.LintClean(t, dir, "consts.v")
	tools.IverilogCompile(t, dir, "/dev/null", "consts.v")
}

// TestUnusedSinkWraps: a sink of more than 1024 unused bits is written
// over several lines (Verilator refuses lines of over 40,000 tokens);
// each line holds at most 1024 names.
func TestUnusedSinkWraps(t *testing.T) {
	m := hdl.NewModule("many")
	a := m.Input("a", 8)
	for i := range 3000 {
		m.Wire(fmt.Sprintf("w_%d", i), 8).Drive(a.Xor(m.ConstU(8, uint64(i%256))))
	}
	m.Output("y", 8).Drive(a)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	v := string(d.Verilog())
	i := strings.Index(v, "_unused_ok")
	require.Positive(t, i)
	sink := v[i : i+strings.Index(v[i:], ";")]
	lines := strings.Split(sink, "\n")
	require.Greater(t, len(lines), 2)
	for _, l := range lines {
		require.LessOrEqual(t, strings.Count(l, ","), 1025) // 1024 names, the first line's 1'b0, a comma at the end
	}
}

// TestReductionsAndConstantSelects: a reduction of one bit is emitted as
// the bit and a reduction of a constant as its value; a parity of more
// than 64 bits over its 64-bit pieces (Verilator 5.006 refuses
// ^~{89'd0, a}); a Select with a constant index as an assignment of its
// choice, or of zero past the last (Icarus warns that a case block
// reading nothing never runs). Lint and Icarus take the module without a
// message, and the Go simulator gives each value.
func TestReductionsAndConstantSelects(t *testing.T) {
	m := hdl.NewModule("reductions")
	a, x := m.Input("a", 1), m.Input("x", 3)
	wide := func(w int) *hdl.Signal { return a.Zext(w).Not().Named(fmt.Sprintf("n%d", w)) }
	n90 := wide(90)
	m.Output("one", 3).Drive(hdl.Concat(a.RedAnd(), a.RedOr(), a.RedXor()))
	m.Output("konst", 3).Drive(hdl.Concat(m.ConstU(4, 15).RedAnd(), m.ConstU(70, 0).RedOr(), m.ConstU(90, 7).RedXor()))
	m.Output("par", 5).Drive(hdl.Concat(wide(64).RedXor(), wide(65).RedXor(), n90.RedXor(), wide(128).RedXor(), wide(130).RedXor()))
	m.Output("andor", 2).Drive(hdl.Concat(n90.RedAnd(), n90.RedOr()))
	m.Output("sel", 3).Drive(hdl.Select(m.ConstU(2, 1), x.Not(), x, m.ConstU(3, 5)))
	m.Output("sel_past", 3).Drive(hdl.Select(m.ConstU(2, 3), x, m.ConstU(3, 5)))
	m.Output("sel_const", 3).Drive(hdl.Select(m.ConstU(1, 0), m.ConstU(3, 6)))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	v := string(d.Verilog())
	for _, form := range []string{
		" = a;", " = 1'b1;", " = 1'b0;",
		" = ^n64;", " = ^n65[63:0] ^ n65[64];", " = ^n90[63:0] ^ ^n90[89:64];",
		" = ^n128[63:0] ^ ^n128[127:64];", " = ^n130[63:0] ^ ^n130[127:64] ^ ^n130[129:128];",
		" = &n90;", " = |n90;", " = x;", " = 3'h0;", " = 3'h6;",
	} {
		require.Containsf(t, v, form, "no %q", form)
	}
	for _, absent := range []string{"= &a;", "= |a;", "= ^a;", "always @(*)"} {
		require.NotContainsf(t, v, absent, "emitted %q", absent)
	}
	s := sim.New(d)
	for _, in := range []struct{ a, x uint64 }{{0, 3}, {1, 5}} {
		require.NoError(t, s.SetU("a", in.a))
		require.NoError(t, s.SetU("x", in.x))
		// ~{zeros, a}: w-1 ones and ~a; its parity is that of w-1+(1-a) ones.
		parity := func(w uint64) uint64 { return (w - in.a) & 1 }
		want := map[string]uint64{
			"one": in.a * 7, "konst": 0b101,
			"par":   parity(64)<<4 | parity(65)<<3 | parity(90)<<2 | parity(128)<<1 | parity(130),
			"andor": (1-in.a)<<1 | 1, "sel": in.x, "sel_past": 0, "sel_const": 6,
		}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s at a=%d x=%d", name, in.a, in.x)
		}
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "reductions.v"), d.Verilog(), 0o644))
	tools.LintClean(t, dir, "reductions.v")
	tools.IverilogCompile(t, dir, "/dev/null", "reductions.v")
}
