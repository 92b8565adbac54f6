package verify

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/sim/vec"
)

// CompiledStreamsBench is StreamsBench on compiled Go: the design compiled
// by sim.Sim.GoStreamsSource, sixteen or eight streams to a vector
// (sim.Sim.StreamLaneBits), the groups of a vector's streams spread over
// every core, each stream's stimulus generated in the process as
// GoBench's (stream l from StreamSeed(seed, l)). It returns each stream's
// checksum, equal to GoBench's for the same seed, and the nanoseconds the
// cycles took on the wall clock. The program is built for AVX-512
// (GOEXPERIMENT=simd) and, on a machine without it, again with the
// portable package vec.
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
// package vec's source at each width they use (vec8/: eight 64-bit
// lanes, the stimulus and checksums; vec16/: sixteen 32-bit lanes, the
// design's where it fits them); for AVX-512 if simd.
func buildCompiledStreams(d *hdl.Design, simd bool) (string, error) {
	sm := sim.New(d)
	bits := sm.StreamLaneBits()
	src, err := sm.GoStreamsSource("main", "parmemsim/"+vecDir[bits])
	if err != nil {
		return "", err
	}
	files := map[string]string{"design.go": string(src), "main.go": goStreamsHarness(PortsOf(d), bits)}
	for _, w := range []int{64, bits} {
		for name, text := range vec.Files(w) {
			files[vecDir[w]+"/"+name] = string(text)
		}
	}
	dir, _, err := buildGo("gostreams", d, files, simd)
	return dir, err
}

// vecDir is where a compiled multi-stream simulator imports package vec
// from, by lane width.
var vecDir = map[int]string{64: "vec8", 32: "vec16"}

// goStreamsHarness writes main.go of the compiled multi-stream simulator
// of a design in lanes of bits bits: run `sim streams cycles seed`, print
// each stream's checksum and the nanoseconds taken, one number to a line.
func goStreamsHarness(ports Ports, bits int) string {
	imports := []string{"fmt", "os", "runtime", "strconv", "sync", "time", ""}
	group := goStreamsGroup64
	if bits == 32 {
		imports, group = append(imports, "vec16 parmemsim/vec16"), goStreamsGroup32
	}
	imports = append(imports, "vec8 parmemsim/vec8")
	return harness("the benchmark of the compiled multi-stream simulator", imports, ports, goStreamsHarnessBody+group)
}

// goStreamsHarnessBody is the in-simulator stimulus of verify/lfsr.go run
// on eight generators at once (draw, drawReset), its checksum (mix), and
// main, which runs the streams in groups of a Design's lanes; a group
// function (goStreamsGroup64 or 32) runs a group.
const goStreamsHarnessBody = `func next(s vec8.V) vec8.V {
	s = vec8.Xor(s, vec8.ShlK(s, 13))
	s = vec8.Xor(s, vec8.ShrK(s, 7))
	return vec8.Xor(s, vec8.ShlK(s, 17))
}

// draw is one-word input p's value in each lane of generators s, and the
// generators after it: each draws x, and the value is picked by x >> 61
// with a lane permutation rather than branches (a lane that takes the
// uniform case draws again). The Go compiler inlines it (rst, which would
// take it past the inlining budget, is drawReset's), so that a loop
// drawing for two vectors of generators runs their chains side by side.
func draw(p *stimPort, s vec8.V) (v, after vec8.V) {
	s = next(s)
	// By x >> 61: 0, top, sign, x & 3, the next draw: the lane's entry
	// of cases ANDed with all ones, x or the next draw (which then
	// becomes the lane's generator).
	sel := vec8.ShrK(s, 61)
	s = vec8.Mux(vec8.And(sel, four), next(s), s)
	x := vec8.Or(s, vec8.Lookup(vec8.Load(&lfsrConstant), sel))
	return vec8.And(vec8.Lookup(vec8.Load(&p.cases), sel), x), s
}

// drawReset is rst's value in each lane of generators s (set one time in
// 64), and the generators after it.
func drawReset(s vec8.V) (v, after vec8.V) {
	s = next(s)
	return vec8.Eq(vec8.And(s, sixtyThree), zero), s
}

// mix adds output word x to each lane's checksum h.
func mix(h, x vec8.V) vec8.V { return vec8.Mul(vec8.Xor(h, x), fnvPrime) }

// The constants above in every lane, package variables that are read
// from memory whole (sim's splat says why).
var four, sixtyThree, zero, fnvPrime = vec8.Splat(4), vec8.Splat(63), vec8.Splat(0), vec8.Splat(0x100000001b3)

// start is the generators of streams first to first+7 and their
// checksums' initial values.
func start(first int, seed uint64) (s, h vec8.V) {
	var seeds, sums [8]uint64
	for l := range seeds {
		seeds[l] = seed + uint64(first+l)
		if seeds[l] == 0 {
			seeds[l] = 0x9e3779b97f4a7c15
		}
		sums[l] = 0xcbf29ce484222325
	}
	return vec8.Load(&seeds), vec8.Load(&sums)
}

// ports is d's inputs as the stimulus writes them, rst (nil if there is
// none) apart from the others.
func ports(d *Design) (rst *stimPort, in []stimPort) {
	in = stimPorts(d)
	if len(in) > 0 && in[0].rst {
		return &in[0], in[1:]
	}
	return nil, in
}

// reset holds rst for one edge, the other inputs zero.
func reset(d *Design, rst *stimPort) {
	if rst != nil {
		for l := range d.Lanes(rst.slot) {
			d.Lanes(rst.slot)[l] = 1
		}
	}
	d.Eval()
	d.Step()
}

// store writes the checksums h into sums.
func store(sums []uint64, h vec8.V) {
	var out [8]uint64
	vec8.Store(&out, h)
	copy(sums, out[:])
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
	if !vec8.Supported() { // (and package vec at every width)
		fmt.Fprintln(os.Stderr, "sim: built for AVX-512, which this machine lacks")
		os.Exit(3) // verify.noAVX512
	}
	groups := (streams + lanes - 1) / lanes
	sums := make([]uint64, lanes*groups)
	// Worker w runs groups w, w+workers, ... on designs it makes and
	// resets before the clock starts, as the other harnesses' designs are
	// (each worker's own, so that no two cores share their cache lines).
	workers := min(groups, runtime.GOMAXPROCS(0))
	var ready, done sync.WaitGroup
	ready.Add(workers)
	clock := make(chan struct{})
	for w := range workers {
		done.Go(func() {
			var designs []*Design
			for g := w; g < groups; g += workers {
				d := NewDesign()
				rst, _ := ports(d)
				reset(d, rst)
				designs = append(designs, d)
			}
			ready.Done()
			<-clock
			for i, d := range designs {
				g := w + i*workers
				group(d, lanes*g, cycles, seed, sums[lanes*g:lanes*(g+1)])
			}
		})
	}
	ready.Wait()
	start := time.Now()
	close(clock)
	done.Wait()
	nanos := time.Since(start).Nanoseconds()
	for _, h := range sums[:streams] {
		fmt.Printf("%#x\n", h)
	}
	fmt.Println(nanos)
}
`

// goStreamsGroup64 runs a group on one Design of eight 64-bit lanes.
const goStreamsGroup64 = `
const lanes = 8

// group runs eight streams, first to first+7, on d (reset) for cycles
// cycles and writes their checksums into sums.
func group(d *Design, first int, cycles, seed uint64, sums []uint64) {
	rst, in := ports(d)
	out := words(d, outPorts)
	s, hash := start(first, seed)
	for range cycles {
		if rst != nil {
			var v vec8.V
			v, s = drawReset(s)
			vec8.Store(d.Lanes(rst.slot), v)
		}
		for i := range in {
			p := &in[i]
			if p.n > 1 {
				s = wide(d, p, s)
				continue
			}
			var v vec8.V
			v, s = draw(p, s)
			vec8.Store(d.Lanes(p.slot), v)
		}
		d.Eval()
		for _, slot := range out {
			hash = mix(hash, vec8.Load(d.Lanes(slot)))
		}
		d.Step()
	}
	store(sums, hash)
}

// wide draws a multi-word input lane by lane, as verify's lfsrPort, from
// generators s, and returns them after it.
func wide(d *Design, p *stimPort, s vec8.V) vec8.V {
	var seeds [8]uint64
	vec8.Store(&seeds, s)
	for l := range seeds {
		s := &seeds[l]
		x := lfsrNext(s)
		w := p.drawn
		clear(w)
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
	return vec8.Load(&seeds)
}
`

// goStreamsGroup32 runs a group on one Design of sixteen 32-bit lanes:
// the stimulus and checksums of lanes 0 to 7 and 8 to 15 in two vectors of
// 64-bit lanes, whose generator chains run side by side, joined into and
// split from the design's (every input fits 32 bits, so none is wide).
// Its loop has goStreamsGroup64's shape; one loop for both, calling a
// width's methods to draw the inputs and hash the outputs, ran counter_ram,
// comb1000 and smm2d at 0.92-0.93x the speed (alternated, fastest of 5).
const goStreamsGroup32 = `
const lanes = 16

// group runs sixteen streams, first to first+15, on d (reset) for
// cycles cycles and writes their checksums into sums.
func group(d *Design, first int, cycles, seed uint64, sums []uint64) {
	rst, in := ports(d)
	out := words(d, outPorts)
	s0, h0 := start(first, seed)
	s1, h1 := start(first+8, seed)
	for range cycles {
		if rst != nil {
			var lo, hi vec8.V
			lo, s0 = drawReset(s0)
			hi, s1 = drawReset(s1)
			vec16.Store(d.Lanes(rst.slot), vec16.Join(lo, hi))
		}
		for i := range in {
			var lo, hi vec8.V
			lo, s0 = draw(&in[i], s0)
			hi, s1 = draw(&in[i], s1)
			vec16.Store(d.Lanes(in[i].slot), vec16.Join(lo, hi))
		}
		d.Eval()
		for _, slot := range out {
			lo, hi := vec16.Split(vec16.Load(d.Lanes(slot)))
			h0, h1 = mix(h0, lo), mix(h1, hi)
		}
		d.Step()
	}
	store(sums[:8], h0)
	store(sums[8:], h1)
}
`
