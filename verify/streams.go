package verify

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// DefaultStreams is the number of stimulus streams a multi-stream run
// simulates unless told otherwise.
const DefaultStreams = 64

// StreamSeed is the LFSR seed of stream l of a multi-stream run from seed:
// stream 0 runs the single-stream stimulus of seed itself.
func StreamSeed(seed uint64, l int) uint64 { return seed + uint64(l) }

// CheckCompiledStreams runs d on streams stimulus streams at once on the
// compiled multi-stream simulator (CompiledStreamsBench) and each stream
// alone on the Go simulator, for cycles cycles from seed, and returns an
// error naming the first stream whose checksum differs. The Go simulator
// is the one every lockstep test holds to the RTL, so a design that passes
// both runs the same on all of them; it checks the design's properties
// on every stream, which the multi-stream engine, built for speed, does
// not.
func CheckCompiledStreams(d *hdl.Design, streams int, cycles, seed uint64) error {
	return checkStreams(d, CompiledStreamsBench, streams, cycles, seed)
}

// checkStreams is CheckCompiledStreams on the multi-stream run bench.
func checkStreams(d *hdl.Design, bench func(*hdl.Design, int, uint64, uint64) ([]uint64, uint64, error), streams int, cycles, seed uint64) error {
	sums, _, err := bench(d, streams, cycles, seed)
	if err != nil {
		return err
	}
	for l, got := range sums {
		var g *GoSim
		keep := func(d *hdl.Design) (*GoSim, error) {
			var err error
			g, err = NewGoSim(d)
			return g, err
		}
		want, _, err := goBench(keep, d, cycles, StreamSeed(seed, l))
		if err != nil {
			return err
		}
		if v := g.sim.Violation(); v != nil {
			return fmt.Errorf("multi-stream run of %s: stream %d of %d (seed %d), on the Go simulator: %v", d.Top().Name(), l, streams, StreamSeed(seed, l), v)
		}
		if got != want {
			return fmt.Errorf("multi-stream run of %s: stream %d of %d (seed %d) has checksum %#x after %d cycles; alone it has %#x",
				d.Top().Name(), l, streams, StreamSeed(seed, l), got, cycles, want)
		}
	}
	return nil
}
