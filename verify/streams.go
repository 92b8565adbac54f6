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
	lfsr  []uint64 // each stream's generator state
	sums  []uint64 // each stream's checksum
	vec   Vector
	buf   []uint64
}

func newStreamRunner(d *hdl.Design, seed uint64, first, last int) (*streamRunner, error) {
	sim, err := hdl.NewStreams(d, last-first)
	if err != nil {
		return nil, err
	}
	r := &streamRunner{sim: sim, ports: PortsOf(d)}
	r.vec = make(Vector, r.ports.InWords())
	for _, p := range r.ports.In {
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
// for all of them.
func (r *streamRunner) run(cycles uint64) {
	for range cycles {
		for l := range r.lfsr {
			lfsrFill(&r.lfsr[l], r.ports, r.vec)
			off := 0
			for i, p := range r.ports.In {
				r.sim.PutWords(r.ins[i], l, r.vec[off:off+p.Words()])
				off += p.Words()
			}
		}
		r.sim.Eval()
		for l := range r.sums {
			h := r.sums[l]
			for _, out := range r.outs {
				r.buf = r.sim.Words(out, l, r.buf[:0])
				for _, w := range r.buf {
					h = lfsrChecksum(h, w)
				}
			}
			r.sums[l] = h
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
	sums, _, err := StreamsBench(d, streams, cycles, seed)
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
