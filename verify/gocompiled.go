package verify

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/cache"
	"github.com/parmem/parmem/sim"
)

// GoCompiled runs a design as Go compiled from sim.Sim.GoSource, in its
// own process speaking the Verilator harness's binary protocol. It is the
// golden model's fast form: the same program as the interpreter, so it is
// checked in lockstep against the interpreter itself as well as the RTL.
type GoCompiled struct {
	pipeSim
	// Built reports whether this instance compiled its program.
	Built bool
}

// NewGoCompiled builds (or finds in the cache) and starts the compiled Go
// simulator of a design.
func NewGoCompiled(d *hdl.Design) (*GoCompiled, error) {
	b, err := buildGoCompiled(d)
	if err != nil {
		return nil, err
	}
	return b.start()
}

// GoCompiledBackend runs the design as compiled Go. It generates and
// builds (or finds) the program once, when it first starts one: the
// source of a 1,000-node design takes longer to write than the simulator
// takes to start (20 ms against 2).
func GoCompiledBackend(d *hdl.Design) Backend {
	build := sync.OnceValues(func() (goCompiledBuild, error) { return buildGoCompiled(d) })
	var starts atomic.Int64
	return func(bool) (Simulator, error) {
		b, err := build()
		if err != nil {
			return nil, err
		}
		b.hit = b.hit || starts.Add(1) > 1 // only the first start can have built it
		return b.start()
	}
}

// goCompiledBuild is a design's compiled Go simulator in the tool cache.
type goCompiledBuild struct {
	ports Ports
	dir   string
	hit   bool // the cache had it
}

// buildGoCompiled generates the design's program and builds it, or finds
// it in the cache.
func buildGoCompiled(d *hdl.Design) (goCompiledBuild, error) {
	src, slot, err := sim.New(d).GoSourceSlots("main")
	if err != nil {
		return goCompiledBuild{}, err
	}
	ports := PortsOf(d)
	harness := goHarness(ports, slot) + propertyCode(d.Netlist(), slot)
	dir, hit, err := buildGo("gocompiled", d, map[string]string{"design.go": string(src), "main.go": harness}, false)
	return goCompiledBuild{ports: ports, dir: dir, hit: hit}, err
}

// start starts a simulator of the build.
func (b goCompiledBuild) start() (*GoCompiled, error) {
	p, err := startProc("go-compiled", b.dir, filepath.Join(b.dir, "sim"))
	if err != nil {
		return nil, err
	}
	return &GoCompiled{pipeSim: pipeSim{name: "go-compiled", ports: b.ports, proc: p}, Built: !b.hit}, nil
}

// buildGo builds (or finds in the tool cache under kind) a Go program of
// files, module parmemsim, into the command sim of the directory it
// returns, and reports whether the cache had it. With simd it is built
// with GOEXPERIMENT=simd, for AVX-512.
func buildGo(kind string, d *hdl.Design, files map[string]string, simd bool) (dir string, hit bool, err error) {
	gobin, err := goTool()
	if err != nil {
		return "", false, err
	}
	files["go.mod"] = "module parmemsim\n\ngo 1.26\n"
	names := slices.Sorted(maps.Keys(files))
	parts := []string{runtime.Version(), fmt.Sprint(simd)}
	for _, name := range names {
		parts = append(parts, name, files[name])
	}
	return cache.Build(kind, cache.Key(parts...), func(dir string) error {
		for _, name := range names {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
				return err
			}
		}
		cmd := exec.Command(gobin, "build", "-o", "sim", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOWORK=off", "GOEXPERIMENT=")
		if simd {
			cmd.Env = append(cmd.Env, "GOEXPERIMENT=simd")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build of the compiled %s failed: %v\n%s", d.Top().Name(), err, lastLines(string(out), 30))
		}
		return nil
	})
}

// goTool finds the go command: on PATH, or in the Go installation that
// `go test` puts in GOROOT.
func goTool() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	if root := os.Getenv("GOROOT"); root != "" {
		return exec.LookPath(filepath.Join(root, "bin", "go"))
	}
	return "", fmt.Errorf("the go command is not on PATH; the compiled Go simulator needs it")
}

// goHarness writes main.go: the protocol loop around the generated Design.
// A port of more than 64 bits takes consecutive words from its slot on;
// slot gives a port's first state word (sim.Sim.GoSourceSlots).
func goHarness(ports Ports, slot func(name string) int) string {
	return harness("the protocol loop of the compiled Go simulator", []string{"bufio", "encoding/binary", "io", "os", "strconv", "time"}, ports,
		goHarnessBody+stimulusCode(ports, slot))
}

// propertyCode writes checkProperties, which the harness calls before
// each clock edge: out of reset it settles the properties' conditions
// (the compiled Eval leaves them, so that the benchmark, which does not
// check them, skips them) and stops the program at the first of the
// design's assertions and assumptions that fails, as the interpreter's
// Violation does, saying so on stderr (property.go), and counts the cover
// points reached in coverHits.
func propertyCode(nl *hdl.Netlist, slot func(name string) int) string {
	var b strings.Builder
	props := harnessProperties(nl)
	fmt.Fprintf(&b, "\nvar coverHits [%d]uint64\n\n// batchCycle is the cycle within the batch being run.\nvar batchCycle int\n\n", coverCount(props))
	b.WriteString("func checkProperties(d *Design) {\n")
	if nl.Seq {
		fmt.Fprintf(&b, "\tif d.Word(%d) != 0 {\n\t\treturn\n\t}\n", slot(hdl.ResetName))
	}
	b.WriteString("\td.Properties()\n")
	k := 0
	for _, p := range props {
		if p.Kind == hdl.CoverPoint {
			fmt.Fprintf(&b, "\tcoverHits[%d] += d.Word(%d)\n", k, slot(p.NetProperty.Wire))
			k++
			continue
		}
		fmt.Fprintf(&b, "\tif d.Word(%d) == 0 {\n\t\tpropertyFailed(%q)\n\t}\n", slot(p.NetProperty.Wire), p.What)
	}
	b.WriteString("}\n\n")
	prefix, suffix, _ := strings.Cut(propertyLine, "%d")
	suffix = strings.TrimSuffix(suffix, "%s")
	fmt.Fprintf(&b, "func propertyFailed(what string) {\n\tos.Stderr.WriteString(%q + strconv.Itoa(batchCycle) + %q + what + \"\\n\")\n\tos.Exit(3)\n}\n", prefix, suffix)
	return b.String()
}

// stimulusCode writes stimulate, the in-simulator stimulus of verify/lfsr.go
// drawn into the inputs, and hashOutputs, the hash of the outputs, as one
// statement per input or output word at its constant state index, as the
// C++ harnesses have them. On sams q = 4 it executes 4.0 k instructions a
// cycle where the loop over a port table it replaces took 6.8 k (callgrind;
// Verilator's harness 4.3 k).
func stimulusCode(ports Ports, slot func(name string) int) string {
	var b strings.Builder
	widths := map[int]bool{}
	b.WriteString("func stimulate(d *Design, in []stimPort, r uint64) uint64 {\n\tsel, u := uint64(0), uint64(0)\n\t_, _ = sel, u // (a design whose inputs are all wide does not use them)\n")
	for i, p := range ports.In {
		at := slot(p.Name)
		b.WriteString("\tr = lfsrStep(r)\n")
		switch {
		case isReset(i, p):
			fmt.Fprintf(&b, "\tst[%d] = FromBool(r&63 == 0)\n", at)
		case p.Width <= 64: // its case picked without a branch; a uniform case draws again
			// (r ^= (r ^ next) & mask, next's last xorshift step written
			// out from u, its first two: r ^ u and u << 17 then run side
			// by side, as g++ compiles the C++ harness's; from
			// lfsrStep(r) the Go compiler left two moves in series in the
			// chain of draws)
			widths[p.Width] = true
			fmt.Fprintf(&b, "\tsel = r >> 61\n\tu = r ^ r<<13\n\tu ^= u >> 7\n\tr ^= (r ^ u ^ u<<17) & -(sel >> 2)\n\tst[%d] = cases%d[sel] & (r | lfsrConstant[sel])\n", at, p.Width)
		default:
			fmt.Fprintf(&b, "\tr = stimWide(d, &in[%d], r)\n", i)
		}
	}
	b.WriteString("\treturn r\n}\n\n")
	for _, w := range slices.Sorted(maps.Keys(widths)) {
		top, sign := wordMask(w, 0), uint64(1)<<(w-1)
		fmt.Fprintf(&b, "// cases%d is a %d-bit input's value by x >> 61, before the AND with x or the next draw.\n", w, w)
		fmt.Fprintf(&b, "var cases%d = [8]uint64{0, %#x, %#x, %#x, %#x, %#x, %#x, %#x}\n\n", w, top, sign, 3&top, top, top, top, top)
	}
	b.WriteString("func hashOutputs(d *Design, h uint64) uint64 {\n")
	for _, p := range ports.Out {
		for k := range (p.Width + 63) / 64 {
			fmt.Fprintf(&b, "\th = (h ^ st[%d]) * 0x100000001b3\n", slot(p.Name)+k)
		}
	}
	b.WriteString("\treturn h\n}\n")
	return b.String()
}

// harness is a compiled simulator's main.go: a comment saying what it is,
// the imports ("" a blank line, "name path" a named one), the shared
// prelude for ports, then body.
func harness(what string, imports []string, ports Ports, body string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Generated by parmem verify: %s.\n\npackage main\n\nimport (\n", what)
	for _, imp := range imports {
		if imp == "" {
			b.WriteString("\n")
			continue
		}
		if name, path, ok := strings.Cut(imp, " "); ok { // a named import
			fmt.Fprintf(&b, "\t%s %q\n", name, path)
			continue
		}
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString(")\n\n")
	writeHarnessPrelude(&b, ports)
	b.WriteString(body)
	return b.String()
}

// writeHarnessPrelude writes what both compiled harnesses share: the
// tables of the design's input and output ports, in port order, and the
// scalar stimulus generator.
func writeHarnessPrelude(b *strings.Builder, ports Ports) {
	list := func(name string, ps []Port) {
		fmt.Fprintf(b, "var %s = []port{\n", name)
		for _, p := range ps {
			fmt.Fprintf(b, "\t{%q, %d},\n", p.Name, p.Width)
		}
		b.WriteString("}\n\n")
	}
	b.WriteString("type port struct {\n\tname  string\n\twidth uint\n}\n\n")
	list("inPorts", ports.In)
	list("outPorts", ports.Out)
	b.WriteString(harnessPrelude)
}

// harnessPrelude is the generator of verify/lfsr.go and the input and
// output ports as the stimulus and the hash see them, for a Design with
// Slot.
const harnessPrelude = `func lfsrStep(x uint64) uint64 {
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	return x
}

func lfsrNext(s *uint64) uint64 {
	*s = lfsrStep(*s)
	return *s
}

// lfsrConstant marks the cases whose value takes no bits of a draw (see
// stimPort's cases).
var lfsrConstant = [8]uint64{1: ^uint64(0), 2: ^uint64(0)}

// wordMask is the mask of word k of a w-bit value.
func wordMask(w uint, k int) uint64 {
	if rem := int(w) - 64*k; rem < 64 {
		return 1<<uint(rem) - 1
	}
	return ^uint64(0)
}

// stimPort is an input as the stimulus writes it: its first state word,
// its words, the masks of its top word and of its sign bit (in its top
// word), whether it is rst, and, for a one-word input, its value by
// x >> 61 before the AND with all ones (lfsrConstant), x or the next
// draw: 0, top, sign, 3, then top for the uniform cases.
type stimPort struct {
	slot, n   int
	top, sign uint64
	rst       bool
	cases     [8]uint64
	drawn     []uint64 // a multi-word port's words as a lane draws them (the compiled streams' wide)
}

func stimPorts(d *Design) []stimPort {
	var ps []stimPort
	for i, p := range inPorts {
		n := int(p.width+63) / 64
		top := wordMask(p.width, n-1)
		ps = append(ps, stimPort{d.Slot(p.name), n, top, 1 << ((p.width - 1) % 64), i == 0 && p.name == "rst",
			[8]uint64{0, top, 1 << ((p.width - 1) % 64), 3 & top, top, top, top, top}, make([]uint64, n)})
	}
	return ps
}

// words lists the state words of ports: each port's words from its slot.
func words(d *Design, ports []port) []int {
	var all []int
	for _, p := range ports {
		for k := range int(p.width+63) / 64 {
			all = append(all, d.Slot(p.name)+k)
		}
	}
	return all
}

`

const goHarnessBody = `// stimWide draws the stimulus of an input of more than one word, whose
// first draw r is made (stimulate does the one-word inputs itself).
func stimWide(d *Design, p *stimPort, r uint64) uint64 {
	x := r
	for k := range p.n {
		d.SetWord(p.slot+k, 0)
	}
	switch x >> 61 {
	case 0:
	case 1:
		for k := range p.n {
			d.SetWord(p.slot+k, ^uint64(0))
		}
		d.SetWord(p.slot+p.n-1, p.top)
	case 2:
		d.SetWord(p.slot+p.n-1, p.sign)
	case 3:
		d.SetWord(p.slot, x&3)
	default:
		for k := range p.n {
			r = lfsrStep(r)
			d.SetWord(p.slot+k, r)
		}
		d.SetWord(p.slot+p.n-1, d.Word(p.slot+p.n-1)&p.top)
	}
	return r
}

// cycle runs one cycle of the in-simulator stimulus (see verify/lfsr.go)
// and folds the outputs into h; with check, a property that fails stops
// the program.
func cycle(d *Design, in []stimPort, s *uint64, h uint64, check bool) uint64 {
	*s = stimulate(d, in, *s)
	d.Eval()
	if check {
		checkProperties(d)
	}
	h = hashOutputs(d, h)
	d.Step()
	return h
}

func main() {
	d := NewDesign()
	in, inWords := stimPorts(d), words(d, inPorts)
	out := words(d, outPorts)
	r := bufio.NewReaderSize(os.Stdin, 1<<16)
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	le := binary.LittleEndian
	var buf [16]byte
	var inBuf, outBuf []byte
	stim := uint64(1)
	for {
		if _, err := io.ReadFull(r, buf[:8]); err != nil {
			return
		}
		switch cmd, n := le.Uint32(buf[0:]), le.Uint32(buf[4:]); cmd {
		case 0:
			return
		case 1: // run n cycles: read the batch, answer cycle by cycle
			if cap(inBuf) < int(n)*8*len(inWords) {
				inBuf = make([]byte, int(n)*8*len(inWords))
			}
			batch := inBuf[:int(n)*8*len(inWords)]
			if _, err := io.ReadFull(r, batch); err != nil {
				os.Exit(1)
			}
			outBuf = outBuf[:0]
			for c := range int(n) {
				batchCycle = c
				for i, slot := range inWords {
					d.SetWord(slot, le.Uint64(batch[8*(c*len(inWords)+i):]))
				}
				d.Eval()
				checkProperties(d)
				for _, slot := range out {
					outBuf = le.AppendUint64(outBuf, d.Word(slot))
				}
				d.Step()
			}
			w.Write(outBuf)
			w.Flush()
		case 3: // benchmark: reset, then cycles of the in-simulator stimulus
			if _, err := io.ReadFull(r, buf[:16]); err != nil {
				os.Exit(1)
			}
			cycles, s := le.Uint64(buf[0:]), le.Uint64(buf[8:])
			for _, slot := range inWords {
				d.SetWord(slot, 0)
			}
			if len(in) > 0 && in[0].rst {
				d.SetWord(in[0].slot, 1)
			}
			d.Eval()
			d.Step()
			chk := uint64(0xcbf29ce484222325)
			start := time.Now()
			for range cycles {
				chk = cycle(d, in, &s, chk, false)
			}
			le.PutUint64(buf[0:], chk)
			le.PutUint64(buf[8:], uint64(time.Since(start).Nanoseconds()))
			w.Write(buf[:16])
			w.Flush()
		case 4: // n cycles of the in-simulator stimulus, answered by their digest
			digest := uint64(0xcbf29ce484222325)
			for c := range int(n) {
				batchCycle = c
				digest = (digest ^ cycle(d, in, &stim, 0xcbf29ce484222325, true)) * 0x100000001b3
			}
			le.PutUint64(buf[:8], digest)
			w.Write(buf[:8])
			w.Flush()
		case 6: // the cover counts
			out := le.AppendUint64(nil, uint64(len(coverHits)))
			for _, h := range coverHits {
				out = le.AppendUint64(out, h)
			}
			w.Write(out)
			w.Flush()
		case 5: // seed the in-simulator stimulus
			if _, err := io.ReadFull(r, buf[:8]); err != nil {
				os.Exit(1)
			}
			stim = le.Uint64(buf[:8])
		default:
			os.Stderr.WriteString("unknown command\n")
			os.Exit(1)
		}
	}
}
`
