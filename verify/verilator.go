package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/cache"
)

// The Verilator back-end compiles the emitted Verilog with a generated C++
// harness (`verilator --cc --exe --build`) and talks to the resulting
// program over a binary pipe protocol; no cgo. All numbers are little
// endian. Commands start with two uint32s, the command and an argument:
//
//	1 n        run n cycles: n input vectors follow (InWords uint64 each);
//	           the answer is n output vectors (OutWords uint64 each)
//	2 len      start a VCD (built with tracing): len bytes of path follow
//	3 0        benchmark: uint64 cycles and uint64 seed follow; one reset
//	           cycle, then cycles of the in-simulator stimulus (lfsr.go); the
//	           answer is the output checksum and the elapsed nanoseconds
//	4 n        run n cycles of the in-simulator stimulus; the answer is one
//	           uint64 digest: each cycle's output hash folded (batchDigest)
//	5 0        seed the in-simulator stimulus: a uint64 follows
//	6 0        cover counts: the answer is their number, then the cycles
//	           that reached each cover point (property.go)
//	0 0        quit
//
// Each cycle sets the inputs with clk low, evaluates, samples the outputs,
// raises clk and evaluates again: the same cycle as sim.Sim.Step, and the
// same VCD times (10c before the edge, 10c+5 after).

const (
	cmdQuit   = 0
	cmdRun    = 1
	cmdTrace  = 2
	cmdBench  = 3
	cmdDigest = 4
	cmdSeed   = 5
	cmdCovers = 6
)

// VerilatorOptions tune a Verilator build.
type VerilatorOptions struct {
	// Trace builds with --trace so Trace can write VCD.
	Trace bool
	// CFlags are passed to the C++ compiler (for example "-O1"); empty
	// keeps Verilator's defaults.
	CFlags string
	// Flags are extra Verilator options, such as warnings to waive for
	// machine-made designs (-Wno-CMPCONST).
	Flags []string
	// Optimize compiles the model's C++ as Verilator does by default
	// (OPT_FAST's -Os) and the harness with -O2: for speed figures.
	// Without it everything is compiled without optimization (-O0): half
	// the build time and a slower simulator, which is what a test's
	// thousands of cycles want.
	Optimize bool
	// OptFast, with Optimize, compiles the model's fast code with these
	// g++ flags (Verilator's OPT_FAST) in place of its default -Os: make
	// bench's anchor is the faster of the default and BestFlags.
	OptFast string
	// Lint builds with -Wall: any lint warning fails the build, so the
	// build is the design's `verilator --lint-only -Wall` too (without
	// parsing and elaborating it twice).
	Lint bool
	// Unchecked builds the hardware alone, as a user's simulation of the
	// Verilog without FORMAL runs it: the design's properties are neither
	// checked nor counted (speed figures). Otherwise the build defines
	// FORMAL and the harness checks them (property.go).
	Unchecked bool
}

// MachineMade waives the two lint rules that random logic trips by design:
// comparisons that Verilator's constant propagation decides (CMPCONST,
// UNSIGNED). Designs people write keep every warning fatal.
var MachineMade = VerilatorOptions{Flags: []string{"-Wno-UNSIGNED", "-Wno-CMPCONST"}}

// Verilator runs a design in a Verilator-built process.
type Verilator struct {
	pipeSim
	trace bool
	// Built reports whether this instance compiled its program (false: it
	// came from the build cache).
	Built bool
}

// NewVerilator builds (or finds in the cache) and starts the Verilator
// simulator of an elaborated design.
func NewVerilator(d *hdl.Design, opt VerilatorOptions) (*Verilator, error) {
	if _, err := exec.LookPath("verilator"); err != nil {
		return nil, fmt.Errorf("verilator is not installed; run `make deps`")
	}
	ports := PortsOf(d)
	top := d.Top().Name()
	verilog := d.Verilog()
	var props []harnessProperty
	if !opt.Unchecked {
		props = harnessProperties(d.Netlist())
	}
	harness := verilatorHarness(top, ports, d.HasState(), opt, props)
	args := verilatorArgs(top, opt)
	if len(props) > 0 {
		args = append(args, "-DFORMAL", "properties.vlt")
	}
	key := cache.Key(string(verilog), harness, strings.Join(args, " "), strings.Join(makeFlags(opt), " "), machineOf(opt), cache.ToolVersion("verilator", "--version"))
	dir, hit, err := cache.Build("verilator", key, func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, top+".v"), verilog, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "harness.cpp"), []byte(harness), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "properties.vlt"), []byte(propertiesVlt), 0o644); err != nil {
			return err
		}
		cmd := exec.Command("verilator", append(args, top+".v", "harness.cpp")...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("verilator build of %s failed: %v\n%s", top, err, lastLines(string(out), 30))
		}
		return makeSim(filepath.Join(dir, "obj_dir"), top, opt)
	})
	if err != nil {
		return nil, err
	}
	p, err := startProc("verilator", dir, filepath.Join(dir, "obj_dir", "sim"))
	if err != nil {
		return nil, err
	}
	return &Verilator{pipeSim: pipeSim{name: "verilator", ports: ports, proc: p}, trace: opt.Trace, Built: !hit}, nil
}

// propertiesVlt makes the wires of the properties' conditions readable
// from the harness, by their names in the Verilog, wherever Verilator
// inlines their modules.
const propertiesVlt = "`verilator_config\n" +
	"public_flat_rd -module \"*\" -var \"_assert_*\"\n" +
	"public_flat_rd -module \"*\" -var \"_assume_*\"\n" +
	"public_flat_rd -module \"*\" -var \"_cover_*\"\n"

// verilatorWorkarounds disable optimizations that Verilator 5.006 (the
// Debian 12 package) gets wrong where the emitter cannot steer around
// them (DESIGN.md): its bit-op-tree constant folding miscompiles one-bit
// logic of bits from different words of wide sums, and its constant
// folding after substitution of wide values' words computes a wide value
// with constant words, such as ~{127'd0, a}, wrongly for a reader of its
// other words where another reads only constant ones ({n[15], |n[127:64]}).
var verilatorWorkarounds = []string{"-fno-const-bit-op-tree", "-fno-subst-const"}

// verilatorArgs are the options that make Verilator write the C++ of top
// and its makefile; makeSim builds the program from them. The model's C++
// is split into files and functions at Verilator's default size (20,000
// statements): g++'s time grows faster than a function's size, and the
// files compile two at a time.
func verilatorArgs(top string, opt VerilatorOptions) []string {
	args := []string{"--cc", "--exe", "--x-assign", "0", "--x-initial", "0",
		"--top-module", top, "-o", "sim"}
	args = append(args, verilatorWorkarounds...)
	if opt.Trace {
		args = append(args, "--trace")
	}
	if opt.CFlags != "" {
		args = append(args, "-CFLAGS", opt.CFlags)
	}
	if opt.Lint {
		args = append(args, "-Wall")
	}
	return append(args, opt.Flags...)
}

// makeSim compiles and links the program Verilator wrote into objDir (as
// its --build does), with the runtime objects every build compiles alike
// (verilated.o and the like, Verilator's VM_GLOBAL classes) taken from the
// cache: their compile commands and Verilator's version are the key, so a
// design's build compiles only its own classes.
func makeSim(objDir, top string, opt VerilatorOptions) error {
	globals, commands, err := runtimeCommands(objDir, top, opt)
	if err != nil {
		return err
	}
	shared, hit, err := cache.Build("verilated", cache.Key(commands, cache.ToolVersion("verilator", "--version")), func(dir string) error {
		if _, err := runMake(objDir, top, opt, globals...); err != nil {
			return err
		}
		for _, o := range globals {
			if err := copyFile(filepath.Join(objDir, o), filepath.Join(dir, o)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if hit { // (a miss built them here; a copy is newer than the makefile, and make keeps it)
		for _, o := range globals {
			if err := copyFile(filepath.Join(shared, o), filepath.Join(objDir, o)); err != nil {
				return err
			}
		}
	}
	if err := writePCH(objDir, top); err != nil {
		return err
	}
	if _, err = runMake(objDir, top, opt, "-f", pchMk); err != nil {
		return err
	}
	// (tens of megabytes the cached build has no more use for; absent when
	// Verilator compiles the model as one file, VM_PARALLEL_BUILDS=0)
	if err := os.Remove(filepath.Join(objDir, pchHeader+".gch")); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// pchMk is the makefile, added to Verilator's, that precompiles the
// headers every file of the model's C++ starts with, verilated.h and the
// design's root class (V<top>___024root.h, most of a large design's
// declarations), and has each model file include them first (-include).
// Parsing them took about half of each file's -O0 compile, and a large
// pack is split into dozens of files: the DRAM pack's build went from 40
// to 24 CPU seconds. GCC takes the .gch for a file compiled with the
// options it was made with (the model's fast code, OPT_FAST) and reads
// the headers themselves in any other; the files' own #includes of them
// then find them included.
const (
	pchMk     = "parmem_pch.mk"
	pchHeader = "parmem_pch.h"
)

func writePCH(objDir, top string) error {
	root := "V" + top + "___024root.h"
	if _, err := os.Stat(filepath.Join(objDir, root)); err != nil {
		return fmt.Errorf("verilator wrote no root header for %s (a Verilator other than 5.x?): %v", top, err)
	}
	h := fmt.Sprintf("#include \"verilated.h\"\n#include \"%s\"\n", root)
	if err := os.WriteFile(filepath.Join(objDir, pchHeader), []byte(h), 0o644); err != nil {
		return err
	}
	mk := `H = ` + pchHeader + `
$(H).gch: $(H)
	$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(OPT_FAST) -x c++-header -o $@ $<
$(VK_FAST_OBJS) $(VK_SLOW_OBJS): $(H).gch
$(VK_FAST_OBJS) $(VK_SLOW_OBJS): private CPPFLAGS += -include $(H)
`
	return os.WriteFile(filepath.Join(objDir, pchMk), []byte(mk), 0o644)
}

// runtimeCommands lists the runtime objects of the build in objDir and
// the dry run of their compile, which keys them in the cache.
func runtimeCommands(objDir, top string, opt VerilatorOptions) (globals []string, commands string, err error) {
	if globals, err = globalObjects(filepath.Join(objDir, "V"+top+"_classes.mk")); err != nil {
		return nil, "", err
	}
	commands, err = runMake(objDir, top, opt, append([]string{"-n"}, globals...)...)
	return globals, commands, err
}

// runMake runs Verilator's makefile of top in dir with args.
func runMake(dir, top string, opt VerilatorOptions, args ...string) (string, error) {
	flags := append([]string{"-f", "V" + top + ".mk", "-j", "2", "--no-print-directory"}, makeFlags(opt)...)
	cmd := exec.Command("make", append(flags, args...)...)
	cmd.Dir, cmd.Env = dir, outsideMake(os.Environ())
	out, err := cmd.CombinedOutput()
	if err != nil {
		err = fmt.Errorf("make of the %s simulator failed: %v\n%s", top, err, lastLines(string(out), 30))
	}
	return string(out), err
}

// makeFlags are the optimization variables runMake gives Verilator's
// makefile: -O0 throughout unless Optimize, then OptFast where given.
func makeFlags(opt VerilatorOptions) []string {
	switch {
	case !opt.Optimize:
		return []string{"OPT_FAST=-O0", "OPT_SLOW=-O0", "OPT_GLOBAL=-O0"}
	case opt.OptFast != "":
		return []string{"OPT_FAST=" + opt.OptFast}
	}
	return nil
}

// BestFlags are the model's fast-code flags of Verilator at its best
// (VerilatorOptions.OptFast), for the machine that builds it.
const BestFlags = "-O3 -march=native"

// machineOf is what a build's key must know of the machine: its CPU's
// model and features when OptFast may tune the code for them
// (-march=native), so that a cache shared between machines never hands
// one another's program; nothing otherwise.
func machineOf(opt VerilatorOptions) string {
	if !opt.Optimize || !strings.Contains(opt.OptFast, "native") {
		return ""
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "cpu unknown"
	}
	var model, flags string
	for line := range strings.Lines(string(info)) {
		key, value, _ := strings.Cut(line, ":")
		switch strings.TrimSpace(key) {
		case "model name":
			model = strings.TrimSpace(value)
		case "flags":
			flags = strings.TrimSpace(value)
		}
		if model != "" && flags != "" {
			break
		}
	}
	return model + "\n" + flags
}

// outsideMake drops from env the variables by which a make run by make
// (the tests under make test) joins its parent: their jobserver, and the
// directory messages that put each build's own directory into the dry
// run keying the runtime objects, which then missed in every build.
func outsideMake(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return name == "MAKEFLAGS" || name == "MFLAGS" || name == "MAKELEVEL"
	})
}

// globalObjects lists the object files of the VM_GLOBAL_FAST and
// VM_GLOBAL_SLOW classes in Verilator's V<top>_classes.mk.
func globalObjects(classesMk string) ([]string, error) {
	text, err := os.ReadFile(classesMk)
	if err != nil {
		return nil, err
	}
	var objs []string
	inGlobal := false
	for _, line := range strings.Split(string(text), "\n") {
		switch {
		case strings.HasPrefix(line, "VM_GLOBAL_"):
			inGlobal = true
		case inGlobal && strings.HasPrefix(line, "\t"):
			objs = append(objs, strings.TrimSpace(strings.TrimSuffix(line, "\\"))+".o")
		default:
			inGlobal = false
		}
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("%s lists no VM_GLOBAL classes", classesMk)
	}
	return objs, nil
}

// copyFile writes the bytes of src to dst, which gets the current time.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Trace implements Tracer; the simulator must be built with Trace.
func (v *Verilator) Trace(path string) error {
	if !v.trace {
		return fmt.Errorf("verilator: built without tracing; use VerilatorOptions{Trace: true}")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	v.command(cmdTrace, uint32(len(abs)))
	v.proc.in.WriteString(abs)
	return v.proc.in.Flush()
}

// cType is the Verilator C++ type of a port of width w (<= 64).
func cType(w int) string {
	switch {
	case w <= 8:
		return "CData"
	case w <= 16:
		return "SData"
	case w <= 32:
		return "IData"
	}
	return "QData"
}

// verilatorHarness writes the C++ main for top. Verilator compiles it as
// it compiles the model's fast code (OPT_FAST, -Os by default), where g++
// keeps lfsrStep out of line and the stimulus took half a cycle of a
// sams -q 3 run; so an Optimize build's harness asks for -O2, and speed
// figures time Verilator's model, not our harness.
func verilatorHarness(top string, ports Ports, hasClock bool, opt VerilatorOptions, props []harnessProperty) string {
	var b strings.Builder
	cls := "V" + top
	trace := opt.Trace
	fmt.Fprintf(&b, "// Generated by parmem verify: the lockstep harness for %s.\n", top)
	if opt.Optimize {
		b.WriteString("#pragma GCC optimize(\"O2\")\n")
	}
	fmt.Fprintf(&b, "#include \"%s.h\"\n#include \"verilated.h\"\n#include \"verilated_syms.h\"\n", cls)
	if trace {
		b.WriteString("#include \"verilated_vcd_c.h\"\n")
	}
	b.WriteString("#include <algorithm>\n#include <chrono>\n#include <cstdint>\n#include <cstdio>\n#include <string>\n#include <vector>\n\n")
	fmt.Fprintf(&b, "static const size_t IN_WORDS = %d, OUT_WORDS = %d;\n\n", ports.InWords(), ports.OutWords())
	b.WriteString("static bool readAll(void* p, size_t n) { return fread(p, 1, n, stdin) == n; }\n\n")
	b.WriteString(lfsrC)

	// setInputs copies one input vector into the model.
	fmt.Fprintf(&b, "static void setInputs(%s* top, const uint64_t* iv) {\n", cls)
	off := 0
	for _, p := range ports.In {
		if p.Width <= 64 {
			fmt.Fprintf(&b, "  top->%s = (%s)iv[%d];\n", p.Name, cType(p.Width), off)
		} else {
			for k := 0; k < (p.Width+31)/32; k++ {
				fmt.Fprintf(&b, "  top->%s[%d] = (uint32_t)(iv[%d] >> %d);\n", p.Name, k, off+k/2, 32*(k%2))
			}
		}
		off += p.Words()
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "static void getOutputs(%s* top, uint64_t* ov) {\n", cls)
	off = 0
	for _, p := range ports.Out {
		if p.Width <= 64 {
			fmt.Fprintf(&b, "  ov[%d] = (uint64_t)top->%s;\n", off, p.Name)
		} else {
			for k := 0; k < p.Words(); k++ {
				fmt.Fprintf(&b, "  ov[%d] = (uint64_t)top->%s[%d]", off+k, p.Name, 2*k)
				if 2*k+1 < (p.Width+31)/32 {
					fmt.Fprintf(&b, " | (uint64_t)top->%s[%d] << 32", p.Name, 2*k+1)
				}
				b.WriteString(";\n")
			}
		}
		off += p.Words()
	}
	b.WriteString("}\n\n")
	// The in-simulator stimulus, word for word as lfsrFill. The generator
	// is copied into a local, which the compiler keeps in a register
	// (stores into iv could alias the caller's state).
	b.WriteString("static void lfsrInputs(uint64_t* state, uint64_t* iv) {\n  uint64_t local = *state, x;\n  uint64_t* s = &local;\n")
	off = 0
	for i, p := range ports.In {
		b.WriteString("  x = lfsrNext(s);\n")
		for k := range p.Words() {
			fmt.Fprintf(&b, "  iv[%d] = 0;\n", off+k)
		}
		if i == 0 && hasClock {
			b.WriteString("  iv[0] = (x & 63) == 0;\n")
			off++
			continue
		}
		if p.Words() == 1 { // (see lfsrC)
			top, sign := wordMask(p.Width, 0), uint64(1)<<((p.Width-1)%64)
			fmt.Fprintf(&b, "  { static const uint64_t cases[8] = {0, 0x%xULL, 0x%xULL, 0x%xULL, 0x%xULL, 0x%xULL, 0x%xULL, 0x%xULL};\n", top, sign, 3&top, top, top, top, top)
			b.WriteString("    uint64_t sel = x >> 61, big = 0 - (sel >> 2);\n    *s ^= (*s ^ lfsrStep(*s)) & big;\n")
			fmt.Fprintf(&b, "    iv[%d] = cases[sel] & (*s | lfsrConstant[sel]); }\n", off)
			off++
			continue
		}
		b.WriteString("  switch (x >> 61) {\n  case 0: break;\n  case 1:")
		for k := range p.Words() {
			fmt.Fprintf(&b, " iv[%d] = 0x%xULL;", off+k, wordMask(p.Width, k))
		}
		fmt.Fprintf(&b, " break;\n  case 2: iv[%d] = 1ULL << %d; break;\n", off+(p.Width-1)/64, (p.Width-1)%64)
		fmt.Fprintf(&b, "  case 3: iv[%d] = x & 3 & 0x%xULL; break;\n  default:", off, wordMask(p.Width, 0))
		for k := range p.Words() {
			fmt.Fprintf(&b, " iv[%d] = lfsrNext(s) & 0x%xULL;", off+k, wordMask(p.Width, k))
		}
		b.WriteString("\n  }\n")
		off += p.Words()
	}
	b.WriteString("  *state = local;\n}\n\n")

	fmt.Fprintf(&b, "static %s* top;\nstatic uint64_t t;\n", cls)
	if trace {
		b.WriteString("static VerilatedVcdC* tfp;\n")
	}
	dump := func(at string) string {
		if trace {
			return fmt.Sprintf("\n  if (tfp) tfp->dump(%s);", at)
		}
		return ""
	}
	clockLow, clockHigh := "", ""
	if hasClock {
		clockLow, clockHigh = "\n  top->clk = 0;", "\n  top->clk = 1;"
	}
	closeTrace := ""
	if trace {
		closeTrace = "\n      if (tfp) tfp->close();"
	}
	writeHarnessChecks(&b, top, hasClock, props, closeTrace)
	b.WriteString("// One clock cycle: inputs with clk low, settle, check, sample, rising edge.\n")
	fmt.Fprintf(&b, "static void cycle(const uint64_t* iv, uint64_t* ov) {\n  setInputs(top, iv);%s\n  top->eval();%s\n  checkProperties();\n", clockLow, dump("10 * t"))
	fmt.Fprintf(&b, "  getOutputs(top, ov);%s\n  top->eval();%s\n  t++;\n}\n\n", clockHigh, dump("10 * t + 5"))

	b.WriteString("int main(int argc, char** argv) {\n")
	b.WriteString("  VerilatedContext* ctx = new VerilatedContext;\n  ctx->commandArgs(argc, argv);\n")
	if trace {
		b.WriteString("  ctx->traceEverOn(true);\n")
	}
	fmt.Fprintf(&b, "  top = new %s{ctx};\n  findProperties(ctx);\n", cls)
	b.WriteString("  std::vector<uint64_t> in, out, iv(IN_WORDS + 1), ov(OUT_WORDS + 1);\n  uint64_t stim = 1;\n")
	b.WriteString("  for (;;) {\n    uint32_t hdr[2];\n    if (!readAll(hdr, sizeof hdr) || hdr[0] == 0) break;\n")
	b.WriteString(`    if (hdr[0] == 1) { // run a batch of given inputs
      in.resize(size_t(hdr[1]) * IN_WORDS);
      out.assign(size_t(hdr[1]) * OUT_WORDS, 0);
      if (!readAll(in.data(), in.size() * 8)) break;
      for (uint32_t c = 0; c < hdr[1]; c++) {
        batchCycle = c;
        cycle(&in[c * IN_WORDS], &out[c * OUT_WORDS]);
      }
      fwrite(out.data(), 8, out.size(), stdout);
      fflush(stdout);
    } else if (hdr[0] == 2) { // start a waveform
      std::string path(hdr[1], '\0');
      if (!readAll(&path[0], hdr[1])) break;
`)
	if trace {
		b.WriteString("      tfp = new VerilatedVcdC;\n      top->trace(tfp, 99);\n      tfp->open(path.c_str());\n")
	} else {
		b.WriteString("      fprintf(stderr, \"built without --trace\\n\");\n      return 1;\n")
	}
	b.WriteString("    } else if (hdr[0] == 3) { // benchmark: reset, then cycles of the in-simulator stimulus\n")
	b.WriteString("      uint64_t arg[2];\n      if (!readAll(arg, sizeof arg)) break;\n")
	b.WriteString("      uint64_t s = arg[1], chk = lfsrChecksumInit;\n      std::fill(iv.begin(), iv.end(), 0);\n")
	if hasClock {
		b.WriteString("      iv[0] = 1;\n")
	}
	b.WriteString(`      cycle(iv.data(), ov.data());
      auto start = std::chrono::steady_clock::now();
      for (uint64_t c = 0; c < arg[0]; c++) {
        lfsrInputs(&s, iv.data());
        cycle(iv.data(), ov.data());
        for (size_t k = 0; k < OUT_WORDS; k++) chk = lfsrChecksum(chk, ov[k]);
      }
      uint64_t res[2] = {chk, (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count()};
      fwrite(res, 8, 2, stdout);
      fflush(stdout);
    } else if (hdr[0] == 4) { // n cycles of the in-simulator stimulus; answer their digest
      uint64_t digest = lfsrChecksumInit;
      for (uint32_t c = 0; c < hdr[1]; c++) {
        batchCycle = c;
        lfsrInputs(&stim, iv.data());
        cycle(iv.data(), ov.data());
        uint64_t h = lfsrChecksumInit;
        for (size_t k = 0; k < OUT_WORDS; k++) h = lfsrChecksum(h, ov[k]);
        digest = lfsrChecksum(digest, h);
      }
      fwrite(&digest, 8, 1, stdout);
      fflush(stdout);
    } else if (hdr[0] == 5) { // seed the in-simulator stimulus
      if (!readAll(&stim, sizeof stim)) break;
    } else if (hdr[0] == 6) { // the cover counts
      uint64_t n = COVERS;
      fwrite(&n, 8, 1, stdout);
      fwrite(coverHits, 8, COVERS, stdout);
      fflush(stdout);
    } else {
      fprintf(stderr, "unknown command %u\n", hdr[0]);
      return 1;
    }
`)
	if trace {
		b.WriteString("    if (tfp) tfp->flush();\n")
	}
	b.WriteString("  }\n")
	if trace {
		b.WriteString("  if (tfp) tfp->close();\n")
	}
	b.WriteString("  top->final();\n  delete top;\n  delete ctx;\n  return 0;\n}\n")
	return b.String()
}

// writeHarnessChecks writes the Verilator harness's property checks
// (property.go): findProperties finds each condition's wire by its scope
// and name, and checkProperties, called before each clock edge, stops the
// program at the first that fails out of reset (closing the waveform
// first) and counts the cover points reached.
func writeHarnessChecks(b *strings.Builder, top string, hasClock bool, props []harnessProperty, closeTrace string) {
	fmt.Fprintf(b, "static const size_t COVERS = %d;\nstatic uint64_t coverHits[COVERS + 1];\nstatic uint32_t batchCycle;\n\n", coverCount(props))
	b.WriteString("struct Property { const char* scope; const char* wire; const char* what; const CData* value; };\n")
	fmt.Fprintf(b, "static Property properties[%d] = {\n", len(props)+1)
	for _, p := range props {
		scope := "TOP." + top
		if p.Scope != "" {
			scope += "." + p.Scope
		}
		what := "nullptr" // a cover point
		if p.Kind != hdl.CoverPoint {
			what = octalString(p.What)
		}
		fmt.Fprintf(b, "  {%q, %q, %s, nullptr},\n", scope, p.Wire, what)
	}
	b.WriteString("};\n\n")
	fmt.Fprintf(b, "static void findProperties(VerilatedContext* ctx) {\n  for (size_t i = 0; i < %d; i++) {\n", len(props))
	b.WriteString(`    Property& p = properties[i];
    const VerilatedScope* s = ctx->scopeFind(p.scope);
    const VerilatedVar* v = s ? s->varFind(p.wire) : nullptr;
    if (!v) {
      fprintf(stderr, "harness: no wire %s in scope %s\n", p.wire, p.scope);
      exit(1);
    }
    p.value = (const CData*)v->datap();
  }
}

`)
	b.WriteString("static void checkProperties() {\n")
	if hasClock {
		b.WriteString("  if (top->rst) return;\n")
	}
	fmt.Fprintf(b, "  size_t k = 0;\n  for (size_t i = 0; i < %d; i++) {\n", len(props))
	b.WriteString("    const Property& p = properties[i];\n    if (!p.what) {\n      coverHits[k++] += *p.value;\n    } else if (!*p.value) {")
	fmt.Fprintf(b, "%s\n      fprintf(stderr, %q, batchCycle, p.what);\n      exit(3);\n    }\n  }\n}\n\n", closeTrace, strings.Replace(propertyLine, "%d", "%u", 1)+"\n")
}

// wordMask is the mask of word k of a w-bit port.
func wordMask(w, k int) uint64 {
	if rem := w - 64*k; rem < 64 {
		return 1<<uint(rem) - 1
	}
	return ^uint64(0)
}
