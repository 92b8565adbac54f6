// Package lib registers hdl/lib's components as the units of the lib
// family, so that each can be emitted, linted and measured on its own:
// go run ./gen -unit lib-fifo -depth 5 -width 8. The components' contracts
// are in DESIGN.md (lib-fifo, lib-prio, lib-rrarb and lib-lru are binding:
// external test benches drive them).
package lib

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units"
)

func param(name, doc string, def, lo, hi int) units.Param {
	return units.Param{Name: name, Doc: doc, Default: units.Const(def), Range: units.Fixed(lo, hi)}
}

var (
	paramN    = func(def, lo int) units.Param { return param("n", "inputs (requesters, entries)", def, lo, 64) }
	paramWays = param("ways", "ways of the set", 4, 2, 8)
	paramW    = func(def int) units.Param { return param("w", "bits of a key, score or count", def, 1, 64) }
)

// unit declares a unit whose Build ignores errors (the library's builders
// check nothing the parameter ranges do not).
func unit(name, doc string, ps units.Params, build func(v units.Values, name string) *hdl.Module) *units.Unit {
	return &units.Unit{Name: name, Doc: doc, Params: ps,
		Build: func(v units.Values, name string) (*hdl.Module, error) { return build(v, name), nil }}
}

func libUnits() []*units.Unit {
	return []*units.Unit{
		unit("lib-fifo", "synchronous FIFO: valid/ready in and out, count, first-word fall-through", units.Params{
			param("depth", "entries", 4, 1, 256),
			param("width", "bits per entry", 8, 1, 256),
			{Name: "standard", Doc: "standard read mode: out_data is the entry popped at the last pop (a synchronous read)", Kind: units.Bool},
			{Name: "pipe", Doc: "a full queue takes a push in a cycle it pops: in_ready = count < depth | out_ready", Kind: units.Bool},
		}, func(v units.Values, name string) *hdl.Module {
			return lib.FIFO{Depth: v["depth"], Width: v["width"], Standard: v["standard"] == 1, Pipe: v["pipe"] == 1}.Build(name)
		}),
		unit("lib-prio", "priority encoder: the lowest (or highest) set bit as valid, index and one-hot", units.Params{
			param("n", "request bits", 8, 1, 64),
			{Name: "msb", Doc: "the highest set bit wins", Kind: units.Bool},
		}, func(v units.Values, name string) *hdl.Module {
			return lib.Prio{N: v["n"], MSB: v["msb"] == 1}.Build(name)
		}),
		unit("lib-rrarb", "round-robin arbiter: the first requester at or after a pointer that moves past each grant",
			units.Params{paramN(4, 2)},
			func(v units.Values, name string) *hdl.Module { return lib.RRArb{N: v["n"]}.Build(name) }),
		unit("lib-age", "oldest-first selection over entries by an age matrix of touch order",
			units.Params{paramN(8, 1)},
			func(v units.Values, name string) *hdl.Module { return lib.AgeUnit{N: v["n"]}.Build(name) }),
		unit("lib-argmax", "the largest score among valid entries, ties to the lower index",
			units.Params{paramN(8, 1), paramW(8)},
			func(v units.Values, name string) *hdl.Module { return lib.ArgmaxUnit{N: v["n"], W: v["w"]}.Build(name) }),
		unit("lib-cam", "content-addressable memory: valid keys matched in parallel, written and cleared by index",
			units.Params{paramN(8, 1), paramW(8)},
			func(v units.Values, name string) *hdl.Module { return lib.CAM{N: v["n"], W: v["w"]}.Build(name) }),
		unit("lib-lru", "true LRU replacement state of one set (an age matrix over the ways)",
			units.Params{paramWays},
			func(v units.Values, name string) *hdl.Module { return lib.LRU{Ways: v["ways"]}.Build(name) }),
		unit("lib-plru", "tree pseudo-LRU replacement state of one set",
			units.Params{{Name: "ways", Doc: "ways of the set", Kind: units.Pow2, Default: units.Const(4), Range: units.Fixed(2, 8)}},
			func(v units.Values, name string) *hdl.Module { return lib.PLRU{Ways: v["ways"]}.Build(name) }),
		unit("lib-popcount", "population count: the number of set bits",
			units.Params{param("n", "input bits", 8, 1, 256)},
			func(v units.Values, name string) *hdl.Module { return lib.PopCountUnit{N: v["n"]}.Build(name) }),
		unit("lib-encode", "one-hot to binary",
			units.Params{paramN(8, 1)},
			func(v units.Values, name string) *hdl.Module { return lib.Encode{N: v["n"]}.Build(name) }),
		unit("lib-decode", "binary to one-hot",
			units.Params{paramN(8, 1)},
			func(v units.Values, name string) *hdl.Module { return lib.Decode{N: v["n"]}.Build(name) }),
		unit("lib-satcnt", "saturating up/down counter",
			units.Params{paramW(2)},
			func(v units.Values, name string) *hdl.Module { return lib.SatCounterUnit{W: v["w"]}.Build(name) }),
		unit("lib-downcnt", "loadable down counter that stops at zero",
			units.Params{paramW(4)},
			func(v units.Values, name string) *hdl.Module { return lib.DownCounterUnit{W: v["w"]}.Build(name) }),
	}
}

// lockstepConfigs covers every unit: the FIFO at depths 1, 2 and 5, with a
// 100-bit word, in standard read mode and as a pipe queue; both priority directions up to 64
// bits; the arbiters and selectors at powers of two and not.
func lockstepConfigs() []units.Config {
	var cs []units.Config
	add := func(unit string, v units.Values) { cs = append(cs, units.Config{Unit: unit, Values: v}) }
	for _, d := range []int{1, 2, 5} {
		add("lib-fifo", units.Values{"depth": d})
	}
	add("lib-fifo", units.Values{"depth": 3, "width": 100})
	add("lib-fifo", units.Values{"depth": 5, "standard": 1})
	add("lib-fifo", units.Values{"depth": 2, "pipe": 1})
	add("lib-prio", units.Values{})
	add("lib-prio", units.Values{"msb": 1})
	add("lib-prio", units.Values{"n": 64})
	add("lib-rrarb", units.Values{})
	add("lib-rrarb", units.Values{"n": 5})
	add("lib-age", units.Values{"n": 5})
	add("lib-argmax", units.Values{"n": 8, "w": 3})
	add("lib-argmax", units.Values{"n": 5, "w": 2})
	add("lib-cam", units.Values{"n": 8, "w": 3})
	for _, w := range []int{2, 3, 4, 8} {
		add("lib-lru", units.Values{"ways": w})
	}
	add("lib-plru", units.Values{"ways": 8})
	add("lib-popcount", units.Values{"n": 37})
	add("lib-encode", units.Values{"n": 6})
	add("lib-decode", units.Values{"n": 6})
	add("lib-satcnt", units.Values{})
	add("lib-downcnt", units.Values{"w": 3})
	return cs
}

func init() {
	var canonical []units.Canonical
	for _, u := range []string{"lib-fifo", "lib-prio", "lib-rrarb", "lib-lru"} {
		top := (&units.Unit{Name: u}).ModuleName()
		canonical = append(canonical, units.Canonical{File: "lib/" + top + ".v", Unit: u, Values: units.Values{}, Top: top})
	}
	units.RegisterFamily(&units.Family{
		Name:      "lib",
		Doc:       "component library: queues, encoders, arbiters, selectors, replacement state (hdl/lib)",
		Units:     libUnits(),
		Canonical: canonical,
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 5000},
		Examples:  []string{"-unit lib-fifo -depth 5 -width 8 > fifo.v"},
	})
}
