package verify

import (
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/cache"
)

// The Icarus back-end compiles the emitted Verilog with a generated test
// bench (`iverilog -g2005`) and runs `vvp`, which reads commands as text on
// stdin:
//
//	1 <hex per input>   run one cycle; the bench prints "= <hex per output>"
//	2 <path>            start a VCD of the design
//	3                   flush the answers so far
//	4 <n>               run n cycles of the in-simulator stimulus (lfsr.go),
//	                    printing "= <hash>" for each
//	5 <hex seed>        seed the in-simulator stimulus
//	6                   the cover counts: "= <n>", then "= <count>" for
//	                    each cover point (property.go)
//	0                   quit
//
// The bench zeroes every register and memory at time 0, as the Go
// simulator and Verilator (--x-initial 0) start, so no run depends on
// uninitialized state. Outputs with x or z bits are reported as
// UnknownError. With +bench=<cycles> +seed=<seed> the bench instead runs the
// LFSR benchmark and prints "= <checksum>". A design with properties is
// compiled with FORMAL defined (as SystemVerilog, its immediate
// assertions ignored), and the bench checks them on their wires before
// each clock edge (property.go); its benchmark is built without.

// Icarus runs a design in vvp.
type Icarus struct {
	ports Ports
	proc  *proc
	dir   string
	// batches of the fast mode asked for and not yet read
	batches batchQueue
	// Built reports whether this instance compiled its program.
	Built bool
}

// UnknownError reports output bits that an RTL simulator left x or z.
type UnknownError struct {
	Sim   string
	Cycle int // within the batch given to Run
	Port  string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("%s: output %s has unknown (x or z) bits in cycle %d of the batch", e.Sim, e.Port, e.Cycle)
}

// NewIcarus compiles (or finds in the cache) and starts the Icarus
// simulator of an elaborated design.
func NewIcarus(d *hdl.Design) (*Icarus, error) { return NewIcarusVerilog(d, d.Verilog()) }

// NewIcarusVerilog runs verilog, which must declare the same modules, ports
// and state as d (the mutation test hands it deliberately changed text).
func NewIcarusVerilog(d *hdl.Design, verilog []byte) (*Icarus, error) {
	dir, hit, err := icarusBuild(d, verilog, harnessProperties(d.Netlist()))
	if err != nil {
		return nil, err
	}
	p, err := startProc("icarus", dir, "vvp", "-n", "tb.vvp")
	if err != nil {
		return nil, err
	}
	return &Icarus{ports: PortsOf(d), proc: p, dir: dir, Built: !hit}, nil
}

// ignoredAssertions is the warning iverilog gives for each FORMAL section's
// block of immediate assertions, which -gno-assertions leaves empty.
var ignoredAssertions = regexp.MustCompile(`(?m)^[\w.]+\.v:\d+: warning: @\* found no sensitivities so it will never trigger\.\n`)

// icarusBuild compiles the design with its bench, which checks props.
func icarusBuild(d *hdl.Design, verilog []byte, props []harnessProperty) (string, bool, error) {
	for _, tool := range []string{"iverilog", "vvp"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", false, fmt.Errorf("%s is not installed; run `make deps`", tool)
		}
	}
	top := d.Top().Name()
	tb := icarusBench(d, props)
	args := []string{"-g2005"}
	if len(props) > 0 {
		args = []string{"-g2012", "-gno-assertions", "-DFORMAL"}
	}
	args = append(args, "-o", "tb.vvp", "tb.v", top+".v")
	key := cache.Key(string(verilog), tb, strings.Join(args, " "), cache.ToolVersion("iverilog", "-V"))
	return cache.Build("icarus", key, func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, top+".v"), verilog, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "tb.v"), []byte(tb), 0o644); err != nil {
			return err
		}
		cmd := exec.Command("iverilog", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if out = ignoredAssertions.ReplaceAll(out, nil); err != nil || len(out) > 0 {
			return fmt.Errorf("iverilog build of %s failed: %v\n%s", top, err, lastLines(string(out), 30))
		}
		return nil
	})
}

// Name implements Simulator.
func (ic *Icarus) Name() string { return "icarus" }

// Ports implements Simulator.
func (ic *Icarus) Ports() Ports { return ic.ports }

// Run implements Simulator. The inputs are written while the answers are
// read: vvp answers each cycle as it goes, and a pipe full of unread
// answers would otherwise stop it reading.
func (ic *Icarus) Run(in []Vector) ([]Vector, error) {
	written := make(chan error, 1)
	go func() {
		w := ic.proc.in
		for _, v := range in {
			w.WriteString("1")
			for i, p := range ic.ports.In {
				w.WriteByte(' ')
				w.WriteString(hexWords(v.Field(ic.ports.In, i), p.Width))
			}
			w.WriteByte('\n')
		}
		w.WriteString("3\n")
		written <- w.Flush()
	}()
	out := make([]Vector, len(in))
	var unknown error
	for c := range out {
		line, err := ic.answer()
		if err != nil {
			return nil, err
		}
		fields := strings.Fields(line)
		if len(fields) != len(ic.ports.Out) {
			return nil, ic.proc.fail(fmt.Errorf("answer %q has %d values, want %d", line, len(fields), len(ic.ports.Out)))
		}
		v := make(Vector, 0, ic.ports.OutWords())
		for i, p := range ic.ports.Out {
			words, ok := parseHexWords(fields[i], p.Width)
			if !ok && unknown == nil {
				unknown = &UnknownError{Sim: ic.Name(), Cycle: c, Port: p.Name}
			}
			v = append(v, words...)
		}
		out[c] = v
	}
	if err := <-written; err != nil {
		return nil, ic.proc.fail(err)
	}
	return out, unknown
}

// answer returns the next "= ..." line, skipping vvp's own messages.
func (ic *Icarus) answer() (string, error) {
	for {
		line, err := ic.proc.out.ReadString('\n')
		if err != nil {
			return "", ic.proc.fail(err)
		}
		if rest, ok := strings.CutPrefix(line, "="); ok {
			return strings.TrimSpace(rest), nil
		}
	}
}

// Trace implements Tracer.
func (ic *Icarus) Trace(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if strings.ContainsAny(abs, " \t\n") {
		return fmt.Errorf("icarus: waveform path %q must not contain spaces", abs)
	}
	fmt.Fprintf(ic.proc.in, "2 %s\n", abs)
	return ic.proc.in.Flush()
}

func (ic *Icarus) seedStimulus(seed uint64) error {
	fmt.Fprintf(ic.proc.in, "5 %x\n", lfsrSeed(seed))
	return ic.proc.in.Flush()
}

// requestDigest asks the test bench for n cycles, which it answers with a
// hash line each; readDigest folds them.
func (ic *Icarus) requestDigest(n int) error {
	fmt.Fprintf(ic.proc.in, "4 %d\n", n)
	if err := ic.proc.in.Flush(); err != nil {
		return ic.proc.fail(err)
	}
	ic.batches.push(n)
	return nil
}

func (ic *Icarus) readDigest() (uint64, error) {
	digest := uint64(lfsrChecksumInit)
	for c := range ic.batches.pop() {
		line, err := ic.answer()
		if err != nil {
			return 0, err
		}
		h, err := strconv.ParseUint(line, 16, 64)
		if err != nil {
			// x or z bits in an output: a hash no other simulator makes
			h = ^uint64(0) - uint64(c)
		}
		digest = batchDigest(digest, h)
	}
	return digest, nil
}

// coverHits asks the bench for its cover counts.
func (ic *Icarus) coverHits() ([]uint64, error) {
	ic.proc.in.WriteString("6\n")
	if err := ic.proc.in.Flush(); err != nil {
		return nil, ic.proc.fail(err)
	}
	var hits []uint64
	for n := -1; len(hits) != n; {
		line, err := ic.answer()
		if err != nil {
			return nil, err
		}
		x, err := strconv.ParseUint(line, 10, 64)
		if err != nil {
			return nil, ic.proc.fail(fmt.Errorf("cover count %q: %v", line, err))
		}
		if n < 0 {
			n, hits = int(x), make([]uint64, 0, x)
			continue
		}
		hits = append(hits, x)
	}
	return hits, nil
}

// Close implements Simulator.
func (ic *Icarus) Close() error { return ic.proc.close([]byte("0\n")) }

// IcarusBench runs the LFSR benchmark in a fresh vvp process and returns
// the checksum and the wall-clock nanoseconds of the whole run.
func IcarusBench(d *hdl.Design, cycles, seed uint64) (checksum, nanos uint64, err error) {
	dir, _, err := icarusBuild(d, d.Verilog(), nil)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	cmd := exec.Command("vvp", "-n", "tb.vvp", fmt.Sprintf("+bench=%d", cycles), fmt.Sprintf("+seed=%d", lfsrSeed(seed)))
	cmd.Dir = dir
	out, err := cmd.Output()
	elapsed := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("icarus bench: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "="); ok {
			sum, perr := strconv.ParseUint(strings.TrimSpace(rest), 16, 64)
			return sum, uint64(elapsed.Nanoseconds()), perr
		}
	}
	return 0, 0, fmt.Errorf("icarus bench printed no checksum:\n%s", out)
}

// hexWords renders a value held in words as hexadecimal digits.
func hexWords(w []uint64, width int) string {
	b, err := hdl.FromWords(width, w)
	if err != nil {
		return "0"
	}
	return b.Big().Text(16)
}

// parseHexWords reads a %h value; ok is false when it has x or z digits.
func parseHexWords(s string, width int) ([]uint64, bool) {
	words := make([]uint64, (width+63)/64)
	if strings.ContainsAny(s, "xXzZ") {
		return words, false
	}
	x, ok := new(big.Int).SetString(s, 16)
	if !ok {
		return words, false
	}
	b, err := hdl.FromBig(width, x)
	if err != nil {
		return words, false
	}
	return b.Words(), true
}

// icarusBench writes the test bench for the design.
func icarusBench(d *hdl.Design, props []harnessProperty) string {
	ports := PortsOf(d)
	top := d.Top().Name()
	var b strings.Builder
	// Ports are vectors even when one bit wide, so part-selects apply.
	rng := func(w int) string { return fmt.Sprintf("[%d:0] ", w-1) }
	fmt.Fprintf(&b, "// Generated by parmem verify: the lockstep bench for %s.\n", top)
	b.WriteString("module parmem_tb;\n")
	conns := []string{}
	if d.HasState() {
		b.WriteString("  reg clk = 1'b0;\n")
		conns = append(conns, ".clk(clk)")
	}
	for _, p := range ports.In {
		fmt.Fprintf(&b, "  reg %s_i_%s;\n", rng(p.Width), p.Name)
		conns = append(conns, fmt.Sprintf(".%s(_i_%s)", p.Name, p.Name))
	}
	for _, p := range ports.Out {
		fmt.Fprintf(&b, "  wire %s_o_%s;\n", rng(p.Width), p.Name)
		conns = append(conns, fmt.Sprintf(".%s(_o_%s)", p.Name, p.Name))
	}
	// The instance is named after its module, so waveform paths end in
	// <top>.<signal> as they do in the Go and Verilator waveforms.
	fmt.Fprintf(&b, "  %s %s (%s);\n", top, top, strings.Join(conns, ", "))
	b.WriteString("  integer _tb_fd, _tb_cmd, _tb_n, _tb_i;\n  reg [8*4096-1:0] _tb_path;\n")
	b.WriteString("  reg [63:0] _tb_s, _tb_x, _tb_chk, _tb_cycles, _tb_c;\n")
	b.WriteString("  task _tb_next;\n    begin\n      _tb_x = _tb_s;\n      _tb_x = _tb_x ^ (_tb_x << 13);\n      _tb_x = _tb_x ^ (_tb_x >> 7);\n      _tb_x = _tb_x ^ (_tb_x << 17);\n      _tb_s = _tb_x;\n    end\n  endtask\n")
	b.WriteString(icarusStimulus(ports, d.HasState()))
	b.WriteString(icarusChecks(top, d.HasState(), props))
	// A cycle: inputs change at 10c, outputs are sampled at 10c+5 just
	// before the rising edge, and the clock falls again at 10c+10.
	edge := "        clk = 1'b1;\n        #5;\n        clk = 1'b0;\n"
	if !d.HasState() {
		edge = "        #5;\n"
	}

	var outs, args []string
	for _, p := range ports.Out {
		outs = append(outs, "%h")
		args = append(args, "_o_"+p.Name)
	}
	display := fmt.Sprintf("$display(\"=%s\"%s);", strings.Join(outs, " "), prefixComma(args))

	b.WriteString("  initial begin\n")
	for _, p := range ports.In { // in the initial block: an event at time 0 for every always @(*) that reads it
		fmt.Fprintf(&b, "    _i_%s = %d'd0;\n", p.Name, p.Width)
	}
	state := d.StateElements()
	if len(props) > 0 {
		state = append(state, d.GhostState()...)
	}
	for _, se := range state {
		if se.Depth == 0 {
			fmt.Fprintf(&b, "    %s.%s = %d'd0;\n", top, se.Path, se.Width)
		} else {
			fmt.Fprintf(&b, "    for (_tb_i = 0; _tb_i < %d; _tb_i = _tb_i + 1) %s.%s[_tb_i] = %d'd0;\n", se.Depth, top, se.Path, se.Width)
		}
	}
	// Benchmark mode: one reset cycle, then cycles of the in-simulator
	// stimulus, folding every output word into one checksum.
	b.WriteString("    if ($value$plusargs(\"bench=%d\", _tb_cycles)) begin\n")
	b.WriteString("      if (!$value$plusargs(\"seed=%d\", _tb_s)) _tb_s = 64'h9e3779b97f4a7c15;\n")
	if d.HasState() {
		b.WriteString("      _i_rst = 1'b1;\n")
	}
	b.WriteString("      #5;\n" + edge + "      _tb_chk = 64'hcbf29ce484222325;\n")
	b.WriteString("      for (_tb_c = 0; _tb_c < _tb_cycles; _tb_c = _tb_c + 1) begin\n")
	b.WriteString("        _tb_fill;\n        #5;\n        _tb_chk = _tb_hash(_tb_chk);\n" + edge)
	b.WriteString("      end\n      $display(\"=%h\", _tb_chk);\n      $finish;\n    end\n")
	// Lockstep mode.
	b.WriteString("    _tb_fd = $fopen(\"/dev/stdin\", \"r\");\n    forever begin\n")
	b.WriteString("      _tb_n = $fscanf(_tb_fd, \"%d\", _tb_cmd);\n      if (_tb_n != 1 || _tb_cmd == 0) $finish;\n")
	b.WriteString("      if (_tb_cmd == 1) begin\n")
	for _, p := range ports.In {
		fmt.Fprintf(&b, "        _tb_n = $fscanf(_tb_fd, \"%%h\", _i_%s);\n", p.Name)
	}
	fmt.Fprintf(&b, "        #5;\n        _tb_check;\n        %s\n", display)
	b.WriteString(edge)
	b.WriteString("      end else if (_tb_cmd == 2) begin\n        _tb_n = $fscanf(_tb_fd, \"%s\", _tb_path);\n        $dumpfile(_tb_path);\n        $dumpvars(0, " + top + ");\n")
	b.WriteString("      end else if (_tb_cmd == 3) begin\n        _tb_at = 0;\n        $fflush;\n")
	b.WriteString("      end else if (_tb_cmd == 4) begin\n        _tb_n = $fscanf(_tb_fd, \"%d\", _tb_cycles);\n        _tb_at = 0;\n")
	b.WriteString("        for (_tb_c = 0; _tb_c < _tb_cycles; _tb_c = _tb_c + 1) begin\n")
	b.WriteString("          _tb_fill;\n          #5;\n          _tb_check;\n          $display(\"=%h\", _tb_hash(64'hcbf29ce484222325));\n")
	b.WriteString(strings.ReplaceAll(edge, "        ", "          "))
	b.WriteString("        end\n        $fflush;\n")
	b.WriteString("      end else if (_tb_cmd == 5) begin\n        _tb_n = $fscanf(_tb_fd, \"%h\", _tb_s);\n")
	b.WriteString("      end else if (_tb_cmd == 6) begin\n        $display(\"=%0d\", _tb_covers);\n")
	b.WriteString("        for (_tb_i = 0; _tb_i < _tb_covers; _tb_i = _tb_i + 1) $display(\"=%0d\", _tb_hits[_tb_i]);\n        $fflush;\n")
	b.WriteString("      end\n    end\n  end\nendmodule\n")
	return b.String()
}

// icarusStimulus writes the in-simulator stimulus (task _tb_fill, word
// for word as lfsrFill) and the per-cycle output hash (function _tb_hash).
func icarusStimulus(ports Ports, hasReset bool) string {
	var b strings.Builder
	b.WriteString("  task _tb_fill;\n    begin\n")
	for i, p := range ports.In {
		fmt.Fprintf(&b, "      _tb_next;\n      _i_%s = %d'd0;\n", p.Name, p.Width)
		if i == 0 && hasReset {
			b.WriteString("      _i_rst = _tb_x[5:0] == 6'd0;\n")
			continue
		}
		low := min(p.Width, 2)
		fmt.Fprintf(&b, "      case (_tb_x[63:61])\n        3'd0: ;\n        3'd1: _i_%s = ~%d'd0;\n", p.Name, p.Width)
		fmt.Fprintf(&b, "        3'd2: _i_%s[%d] = 1'b1;\n        3'd3: _i_%s[%d:0] = _tb_x[%d:0];\n        default: begin\n", p.Name, p.Width-1, p.Name, low-1, low-1)
		for k := range p.Words() {
			n := min(64, p.Width-64*k)
			fmt.Fprintf(&b, "          _tb_next;\n          _i_%s[%d +: %d] = _tb_x[%d:0];\n", p.Name, 64*k, n, n-1)
		}
		b.WriteString("        end\n      endcase\n")
	}
	b.WriteString("    end\n  endtask\n")
	b.WriteString("  function [63:0] _tb_hash;\n    input [63:0] h;\n    begin\n      _tb_hash = h;\n")
	for _, p := range ports.Out {
		for k := range p.Words() {
			n := min(64, p.Width-64*k)
			part := fmt.Sprintf("_o_%s[%d +: %d]", p.Name, 64*k, n)
			if n < 64 {
				part = fmt.Sprintf("{%d'd0, %s}", 64-n, part)
			}
			fmt.Fprintf(&b, "      _tb_hash = (_tb_hash ^ %s) * 64'h100000001b3;\n", part)
		}
	}
	b.WriteString("    end\n  endfunction\n")
	return b.String()
}

// icarusChecks writes the bench's property checks (property.go): task
// _tb_check, run before each clock edge, stops the simulation at the first
// property that fails out of reset, saying so on stderr, and counts the
// cover points reached in _tb_hits; _tb_at counts the batch's cycles.
func icarusChecks(top string, hasReset bool, props []harnessProperty) string {
	var b strings.Builder
	covers := coverCount(props)
	fmt.Fprintf(&b, "  integer _tb_at = 0, _tb_covers = %d;\n  reg [63:0] _tb_hits [0:%d];\n", covers, max(covers, 1)-1)
	b.WriteString("  integer _tb_k;\n  initial for (_tb_k = 0; _tb_k < _tb_covers; _tb_k = _tb_k + 1) _tb_hits[_tb_k] = 64'd0;\n")
	b.WriteString("  task _tb_check;\n    begin\n")
	indent := "      "
	if hasReset && len(props) > 0 {
		b.WriteString("      if (!_i_rst) begin\n")
		indent += "  "
	}
	k := 0
	for _, p := range props {
		wire := top + "." + p.NetProperty.Wire
		if p.Kind == hdl.CoverPoint {
			fmt.Fprintf(&b, "%sif (%s === 1'b1) _tb_hits[%d] = _tb_hits[%d] + 64'd1;\n", indent, wire, k, k)
			k++
			continue
		}
		fmt.Fprintf(&b, "%sif (%s !== 1'b1) begin\n", indent, wire)
		fmt.Fprintf(&b, "%s  $fdisplay(32'h8000_0002, %q, _tb_at, %s);\n%s  $finish;\n%send\n", indent, strings.Replace(propertyLine, "%d", "%0d", 1), octalString(p.What), indent, indent)
	}
	if hasReset && len(props) > 0 {
		b.WriteString("      end\n")
	}
	b.WriteString("      _tb_at = _tb_at + 1;\n    end\n  endtask\n")
	return b.String()
}

func prefixComma(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return ", " + strings.Join(args, ", ")
}
