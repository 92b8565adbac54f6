package verify

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/vec8"
)

// CompiledStreamsBench is StreamsBench on compiled Go: the design compiled
// by hdl.Sim.GoStreamsSource, eight streams to a vector, the groups of
// eight spread over every core, each stream's stimulus generated in the
// process as GoBench's (stream l from StreamSeed(seed, l)). It returns
// each stream's checksum, equal to GoBench's for the same seed, and the
// nanoseconds the cycles took on the wall clock. The program is built
// for AVX-512 (GOEXPERIMENT=simd) and, on a machine without it, again
// with the portable vec8.
func CompiledStreamsBench(d *hdl.Design, streams int, cycles, seed uint64) (checksums []uint64, nanos uint64, err error) {
	return compiledStreamsBench(d, streams, cycles, seed, true)
}

// compiledStreamsBench is CompiledStreamsBench, trying AVX-512 only if
// simd.
func compiledStreamsBench(d *hdl.Design, streams int, cycles, seed uint64, simd bool) (checksums []uint64, nanos uint64, err error) {
	if streams < 1 {
		return nil, 0, fmt.Errorf("compiled streams: %d streams; want at least 1", streams)
	}
	dir, err := buildCompiledStreams(d, simd)
	if err != nil {
		return nil, 0, err
	}
	cmd := exec.Command(filepath.Join(dir, "sim"), fmt.Sprint(streams), fmt.Sprint(cycles), fmt.Sprint(seed))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); ok && simd && exit.ExitCode() == noAVX512 {
		return compiledStreamsBench(d, streams, cycles, seed, false)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("compiled streams of %s: %v\n%s", d.Top().Name(), err, lastLines(stderr.String(), 10))
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		v, err := strconv.ParseUint(sc.Text(), 0, 64)
		if err != nil {
			return nil, 0, fmt.Errorf("compiled streams of %s: bad line %q", d.Top().Name(), sc.Text())
		}
		checksums = append(checksums, v)
	}
	if len(checksums) != streams+1 {
		return nil, 0, fmt.Errorf("compiled streams of %s: %d lines, want %d checksums and the time", d.Top().Name(), len(checksums), streams)
	}
	return checksums[:streams], checksums[streams], nil
}

// noAVX512 is the compiled streams' exit status on a machine that lacks
// the AVX-512 they were built for.
const noAVX512 = 3

// buildCompiledStreams builds (or finds in the tool cache) the compiled
// multi-stream simulator of d: the generated design, the harness, and
// package vec8's source; for AVX-512 if simd.
func buildCompiledStreams(d *hdl.Design, simd bool) (string, error) {
	src, err := hdl.NewSim(d).GoStreamsSource("main", "parmemsim/vec8")
	if err != nil {
		return "", err
	}
	files := map[string]string{"design.go": string(src), "main.go": goStreamsHarness(PortsOf(d))}
	for name, text := range vec8.Files() {
		files["vec8/"+name] = string(text)
	}
	dir, _, err := buildGo("gostreams", d, files, simd)
	return dir, err
}

// goStreamsHarness writes main.go of the compiled multi-stream simulator:
// run `sim streams cycles seed`, print each stream's checksum and the
// nanoseconds taken, one number to a line.
func goStreamsHarness(ports Ports) string {
	return harness("the benchmark of the compiled multi-stream simulator",
		[]string{"fmt", "os", "runtime", "strconv", "sync", "time", "", "parmemsim/vec8"}, ports, goStreamsHarnessBody)
}

// goStreamsHarnessBody is the in-simulator stimulus of verify/lfsr.go run
// on eight generators at once: each cycle, each one-word input draws x from
// every lane's generator and picks the value by x >> 61 with a lane
// permutation rather than branches (a lane that takes the uniform case
// draws again); wider inputs are drawn lane by lane.
const goStreamsHarnessBody = `func next(s vec8.V) vec8.V {
	s = vec8.Xor(s, vec8.ShlK(s, 13))
	s = vec8.Xor(s, vec8.ShrK(s, 7))
	return vec8.Xor(s, vec8.ShlK(s, 17))
}

// group runs eight streams, first to first+7, for cycles cycles and
// writes their checksums into sums.
func group(first int, cycles, seed uint64, sums []uint64) {
	d := NewDesign()
	in, out := stimPorts(d), words(d, outPorts)
	var seeds, h [8]uint64
	for l := range seeds {
		seeds[l] = seed + uint64(first+l)
		if seeds[l] == 0 {
			seeds[l] = 0x9e3779b97f4a7c15
		}
		h[l] = 0xcbf29ce484222325
	}
	if len(in) > 0 && in[0].rst { // reset: rst for one edge, the other inputs zero
		*d.Lanes(in[0].slot) = [8]uint64{1, 1, 1, 1, 1, 1, 1, 1}
	}
	d.Eval()
	d.Step()
	constant := vec8.Load(&lfsrConstant)
	s, hash := vec8.Load(&seeds), vec8.Load(&h)
	zero, four := vec8.Splat(0), vec8.Splat(4)
	prime := vec8.Splat(0x100000001b3)
	for range cycles {
		for i := range in {
			p := &in[i]
			if p.n > 1 {
				vec8.Store(&seeds, s)
				wide(d, p, &seeds)
				s = vec8.Load(&seeds)
				continue
			}
			s = next(s)
			if p.rst {
				vec8.Store(d.Lanes(p.slot), vec8.Eq(vec8.And(s, vec8.Splat(63)), zero))
				continue
			}
			// By x >> 61: 0, top, sign, x & 3, the next draw: the
			// lane's entry of cases ANDed with all ones, x or the
			// next draw (which then becomes the lane's generator).
			sel := vec8.ShrK(s, 61)
			s = vec8.Mux(vec8.And(sel, four), next(s), s)
			draw := vec8.Or(s, vec8.Lookup(constant, sel))
			vec8.Store(d.Lanes(p.slot), vec8.And(vec8.Lookup(vec8.Load(&p.cases), sel), draw))
		}
		d.Eval()
		for _, slot := range out {
			hash = vec8.Mul(vec8.Xor(hash, vec8.Load(d.Lanes(slot))), prime)
		}
		d.Step()
	}
	vec8.Store(&h, hash)
	copy(sums, h[:])
}

// wide draws a multi-word input lane by lane, as verify's lfsrPort.
func wide(d *Design, p *stimPort, seeds *[8]uint64) {
	for l := range seeds {
		s := &seeds[l]
		x := lfsrNext(s)
		w := make([]uint64, p.n)
		switch x >> 61 {
		case 0:
		case 1:
			for k := range w {
				w[k] = ^uint64(0)
			}
			w[p.n-1] = p.top
		case 2:
			w[p.n-1] = p.sign
		case 3:
			w[0] = x & 3
		default:
			for k := range w {
				w[k] = lfsrNext(s)
			}
			w[p.n-1] &= p.top
		}
		for k, v := range w {
			d.Lanes(p.slot + k)[l] = v
		}
	}
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: sim streams cycles seed")
		os.Exit(2)
	}
	streams, err1 := strconv.Atoi(os.Args[1])
	cycles, err2 := strconv.ParseUint(os.Args[2], 10, 64)
	seed, err3 := strconv.ParseUint(os.Args[3], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || streams < 1 {
		fmt.Fprintln(os.Stderr, "sim: streams (at least 1), cycles and seed must be numbers")
		os.Exit(2)
	}
	if !vec8.Supported() {
		fmt.Fprintln(os.Stderr, "sim: built for AVX-512, which this machine lacks")
		os.Exit(3) // verify.noAVX512
	}
	groups := (streams + 7) / 8
	sums := make([]uint64, 8*groups)
	work := make(chan int, groups)
	for g := range groups {
		work <- g
	}
	close(work)
	var wg sync.WaitGroup
	start := time.Now()
	for range min(groups, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for g := range work {
				group(8*g, cycles, seed, sums[8*g:8*g+8])
			}
		})
	}
	wg.Wait()
	nanos := time.Since(start).Nanoseconds()
	for _, h := range sums[:streams] {
		fmt.Printf("%#x\n", h)
	}
	fmt.Println(nanos)
}
`
