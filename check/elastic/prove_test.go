package elastic

import (
	"flag"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

var proveAll = flag.Bool("prove.all", false, "prove the bigger configurations too (make prove), not only the small ones")

// proveConfigs are the configurations whose properties the proofs cover:
// each unit at a small size that still reaches every cover point (three
// ways, so the LRU order has triples; pipes with two MEM stages and
// queues of one, and without PREMEM), and with -prove.all bigger ones,
// among them the lockstep's NONMEM of one entry and the default PREMEM of
// three.
func proveConfigs() []units.Config {
	cs := []units.Config{
		{Unit: "elastic-bkconf", Values: units.Values{"lanes": 5, "banks": 4, "aw": 3, "ports": 2, "broadcast": 1}},
		{Unit: "elastic-bkconf", Values: units.Values{"lanes": 2, "banks": 2, "aw": 2, "ports": 1}},
		{Unit: "elastic-bchc", Values: units.Values{"sets": 1, "ways": 3, "pcw": 3, "warp": 8}},
		{Unit: "elastic-warpmask", Values: units.Values{"warps": 2, "warp": 4, "lanes": 4, "sets": 1, "ways": 1, "pcw": 1}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 1, "tw": 1, "mstages": 2, "premem": 1, "nonmem": 1}},
		{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 1, "tw": 1, "mstages": 1, "premem": 0, "nonmem": 2}},
		{Unit: "elastic-basepipe", Values: units.Values{"lanes": 2, "w": 1, "tw": 1, "mstages": 2}},
	}
	if *proveAll {
		cs = append(cs,
			units.Config{Unit: "elastic-bkconf", Values: units.Values{"lanes": 8, "banks": 4, "aw": 3, "ports": 3}},
			units.Config{Unit: "elastic-bchc", Values: units.Values{"sets": 2, "ways": 4, "pcw": 4, "warp": 8}},
			units.Config{Unit: "elastic-warpmask", Values: units.Values{"warps": 2, "warp": 8, "lanes": 4, "sets": 2, "ways": 3, "pcw": 3}},
			units.Config{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 1, "tw": 1, "mstages": 1, "premem": 0, "nonmem": 1}},
			units.Config{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 1, "tw": 1, "mstages": 2, "premem": 2, "nonmem": 2}},
			units.Config{Unit: "elastic-pipe", Values: units.Values{"lanes": 2, "w": 1, "tw": 1, "mstages": 3, "premem": 3, "nonmem": 4}},
			units.Config{Unit: "elastic-basepipe", Values: units.Values{"lanes": 4, "w": 1, "tw": 1, "mstages": 3}})
	}
	return cs
}

// TestProveProperties proves the blocks' properties (units/elastic's
// properties methods: no instruction lost, duplicated or reordered on
// the back end's paths, the queues within their depths, the history
// cache's LRU order a permutation per set, the conflict degree and Eq.
// 5.3's cycles, the countdown within its load) on the emitted Verilog
// with Yosys: every assertion proven by k-induction, every cover point
// reached (every writeback source, each queue full and empty, each of the
// cache's write cases, a conflict).
func TestProveProperties(t *testing.T) {
	for _, c := range proveConfigs() {
		t.Run(c.String(), func(t *testing.T) { verify.RequireProperties(t, c, nil) })
	}
}
