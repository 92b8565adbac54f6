package verify

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/parmem/parmem/hdl"
)

// DefaultStreams is the number of stimulus streams a multi-stream run
// simulates unless told otherwise.
const DefaultStreams = 64

// StreamSeed is the LFSR seed of stream l of a multi-stream run from seed:
// stream 0 runs the single-stream stimulus of seed itself.
func StreamSeed(seed uint64, l int) uint64 { return seed + uint64(l) }

// StreamsBench runs the LFSR benchmark of GoBench on streams independent
// stimulus streams at once (stream l from StreamSeed(seed, l)) with
// hdl.Streams, the streams split evenly over every core. It returns each
// stream's checksum, equal to GoBench's for the same seed, and the
// nanoseconds the cycles took on the wall clock.
func StreamsBench(d *hdl.Design, streams int, cycles, seed uint64) (checksums []uint64, nanos uint64, err error) {
	groups := min(streams, runtime.GOMAXPROCS(0))
	runners := make([]*streamRunner, groups)
	for g := range groups {
		first, last := g*streams/groups, (g+1)*streams/groups
		if runners[g], err = newStreamRunner(d, seed, first, last); err != nil {
			return nil, 0, err
		}
	}
	var wg sync.WaitGroup
	start := time.Now()
	for _, r := range runners {
		wg.Go(func() { r.run(cycles) })
	}
	wg.Wait()
	nanos = uint64(time.Since(start).Nanoseconds())
	for _, r := range runners {
		checksums = append(checksums, r.sums...)
	}
	return checksums, nanos, nil
}

// streamRunner runs streams first..last-1 of a multi-stream benchmark on
// one hdl.Streams.
type streamRunner struct {
	sim   *hdl.Streams
	ports Ports
	ins   []hdl.InputRef
	outs  []hdl.SignalRef
	lfsr  []uint64   // each stream's generator state
	sums  []uint64   // each stream's checksum
	buf   []uint64   // one input's words
	lanes [][]uint64 // the lanes of each of one input's words
}

func newStreamRunner(d *hdl.Design, seed uint64, first, last int) (*streamRunner, error) {
	sim, err := hdl.NewStreams(d, last-first)
	if err != nil {
		return nil, err
	}
	r := &streamRunner{sim: sim, ports: PortsOf(d)}
	for _, p := range r.ports.In {
		r.buf = make([]uint64, max(len(r.buf), p.Words()))
		r.lanes = make([][]uint64, len(r.buf))
		in, err := sim.Input(p.Name)
		if err != nil {
			return nil, err
		}
		r.ins = append(r.ins, in)
	}
	for _, p := range r.ports.Out {
		out, err := sim.Signal(p.Name)
		if err != nil {
			return nil, err
		}
		r.outs = append(r.outs, out)
	}
	for l := first; l < last; l++ {
		r.lfsr = append(r.lfsr, lfsrSeed(StreamSeed(seed, l)))
		r.sums = append(r.sums, lfsrChecksumInit)
	}
	sim.Reset() // as Reset does for one stream: rst for one edge, inputs zero
	return r, nil
}

// run simulates cycles of every stream: each stream's inputs from its own
// generator, its outputs folded into its own checksum, then one clock edge
// for all of them. Each input and output word is handled for all streams
// at once, which keeps every stream's own order of generator draws and
// checksum folds.
func (r *streamRunner) run(cycles uint64) {
	for range cycles {
		for i, p := range r.ports.In {
			w := r.buf[:p.Words()]
			for j := range w {
				r.lanes[j] = r.sim.InputLanes(r.ins[i], j)
			}
			for l := range r.lfsr {
				lfsrPort(&r.lfsr[l], i, p, w)
				for j, x := range w {
					r.lanes[j][l] = x
				}
			}
		}
		for o, p := range r.ports.Out {
			for j := range p.Words() {
				word := r.sim.SignalLanes(r.outs[o], j)[:len(r.sums)]
				for l, x := range word {
					r.sums[l] = lfsrChecksum(r.sums[l], x)
				}
			}
		}
		r.sim.Step()
	}
}

// CheckStreams runs d on streams stimulus streams at once and each stream
// alone on the interpreter, for cycles cycles from seed, and returns an
// error naming the first stream whose checksum differs. The interpreter is
// the one every lockstep test holds to the RTL, so a design that passes
// both runs the same on all of them.
func CheckStreams(d *hdl.Design, streams int, cycles, seed uint64) error {
	return checkStreams(d, StreamsBench, streams, cycles, seed)
}

// CheckCompiledStreams is CheckStreams for the compiled multi-stream
// simulator (CompiledStreamsBench).
func CheckCompiledStreams(d *hdl.Design, streams int, cycles, seed uint64) error {
	return checkStreams(d, CompiledStreamsBench, streams, cycles, seed)
}

func checkStreams(d *hdl.Design, bench func(*hdl.Design, int, uint64, uint64) ([]uint64, uint64, error), streams int, cycles, seed uint64) error {
	sums, _, err := bench(d, streams, cycles, seed)
	if err != nil {
		return err
	}
	for l, got := range sums {
		want, _, err := GoBench(d, cycles, StreamSeed(seed, l))
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("multi-stream run of %s: stream %d of %d (seed %d) has checksum %#x after %d cycles; alone it has %#x",
				d.Top().Name(), l, streams, StreamSeed(seed, l), got, cycles, want)
		}
	}
	return nil
}
