package lib

import (
	"flag"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

var proveAll = flag.Bool("prove.all", false, "prove the larger configurations too (make prove), not only the small ones")

// proveConfigs are the configurations whose properties are proven: every
// unit small, the FIFO in each read mode and at depths that are and are
// not powers of two; with -prove.all, larger ones besides.
func proveConfigs() []units.Config {
	small := []units.Config{
		{Unit: "lib-fifo", Values: units.Values{"depth": 1, "width": 2}},
		{Unit: "lib-fifo", Values: units.Values{"depth": 3, "width": 2}},
		{Unit: "lib-fifo", Values: units.Values{"depth": 4, "width": 2, "standard": 1}},
		{Unit: "lib-fifo", Values: units.Values{"depth": 2, "width": 2, "pipe": 1}},
		{Unit: "lib-prio", Values: units.Values{}},
		{Unit: "lib-prio", Values: units.Values{"n": 5, "msb": 1}},
		{Unit: "lib-rrarb", Values: units.Values{}},
		{Unit: "lib-rrarb", Values: units.Values{"n": 5}},
		{Unit: "lib-age", Values: units.Values{"n": 5}},
		{Unit: "lib-argmax", Values: units.Values{"n": 5, "w": 2}},
		{Unit: "lib-cam", Values: units.Values{"n": 5, "w": 2}},
		{Unit: "lib-lru", Values: units.Values{"ways": 3}},
		{Unit: "lib-lru", Values: units.Values{}},
		{Unit: "lib-plru", Values: units.Values{}},
		{Unit: "lib-popcount", Values: units.Values{}},
		{Unit: "lib-encode", Values: units.Values{"n": 6}},
		{Unit: "lib-decode", Values: units.Values{"n": 6}},
		{Unit: "lib-satcnt", Values: units.Values{}},
		{Unit: "lib-downcnt", Values: units.Values{"w": 3}},
	}
	if !*proveAll {
		return small
	}
	return append(small,
		units.Config{Unit: "lib-fifo", Values: units.Values{"depth": 5, "width": 8, "standard": 1}},
		units.Config{Unit: "lib-fifo", Values: units.Values{"depth": 8, "width": 4, "pipe": 1}},
		units.Config{Unit: "lib-prio", Values: units.Values{"n": 32}},
		units.Config{Unit: "lib-rrarb", Values: units.Values{"n": 8}},
		units.Config{Unit: "lib-age", Values: units.Values{"n": 8}},
		units.Config{Unit: "lib-argmax", Values: units.Values{"n": 8, "w": 3}},
		units.Config{Unit: "lib-cam", Values: units.Values{"n": 8, "w": 3}},
		units.Config{Unit: "lib-lru", Values: units.Values{"ways": 8}},
		units.Config{Unit: "lib-plru", Values: units.Values{"ways": 8}},
		units.Config{Unit: "lib-popcount", Values: units.Values{"n": 32}},
		units.Config{Unit: "lib-satcnt", Values: units.Values{"w": 3}},
		units.Config{Unit: "lib-downcnt", Values: units.Values{"w": 8}},
	)
}

// TestProveProperties proves every lib unit's properties on its Verilog
// with Yosys: each assertion holds in every reachable state (k-induction)
// and each cover point is reached. (The configurations stay small and
// their inputs at most 32 bits wide: verify reads no wider input from a
// Yosys trace.)
func TestProveProperties(t *testing.T) {
	for _, c := range proveConfigs() {
		t.Run(c.String(), func(t *testing.T) { verify.RequireProperties(t, c, nil) })
	}
}
