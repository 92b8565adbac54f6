// Package lib registers hdl/lib's components as the units of the lib
// family, so that each can be emitted, linted and measured on its own:
// go run ./gen -unit lib-fifo -depth 5 -width 8. The components' contracts
// are in DESIGN.md (lib-fifo, lib-prio, lib-rrarb and lib-lru are binding:
// external test benches drive them).
package lib

import (
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units"
)

// nParam declares n, the inputs (requesters, entries) of a selector or
// encoder.
func nParam(n *int, d *units.Decl, def, lo int) {
	d.Int(n, "n", "inputs (requesters, entries)", def, lo, 64)
}

// wParam declares w, the bits of a key, score or count.
func wParam(w *int, d *units.Decl, def int) {
	d.Int(w, "w", "bits of a key, score or count", def, 1, 64)
}

func libUnits() []*units.Unit {
	return []*units.Unit{
		units.NewUnit("lib-fifo", "synchronous FIFO: valid/ready in and out, count, first-word fall-through", func(f *lib.FIFO, d *units.Decl) {
			d.Int(&f.Depth, "depth", "entries", 4, 1, 256)
			d.Int(&f.Width, "width", "bits per entry", 8, 1, 256)
			d.Bool(&f.Standard, "standard", "standard read mode: out_data is the entry popped at the last pop (a synchronous read)")
			d.Bool(&f.Pipe, "pipe", "a full queue takes a push in a cycle it pops: in_ready = count < depth | out_ready")
		}, lib.FIFO.Build),
		units.NewUnit("lib-prio", "priority encoder: the lowest (or highest) set bit as valid, index and one-hot", func(p *lib.Prio, d *units.Decl) {
			d.Int(&p.N, "n", "request bits", 8, 1, 64)
			d.Bool(&p.MSB, "msb", "the highest set bit wins")
		}, lib.Prio.Build),
		units.NewUnit("lib-rrarb", "round-robin arbiter: the first requester at or after a pointer that moves past each grant",
			func(a *lib.RRArb, d *units.Decl) { nParam(&a.N, d, 4, 2) }, lib.RRArb.Build),
		units.NewUnit("lib-age", "oldest-first selection over entries by an age matrix of touch order",
			func(a *lib.AgeUnit, d *units.Decl) { nParam(&a.N, d, 8, 1) }, lib.AgeUnit.Build),
		units.NewUnit("lib-argmax", "the largest score among valid entries, ties to the lower index",
			func(a *lib.ArgmaxUnit, d *units.Decl) { nParam(&a.N, d, 8, 1); wParam(&a.W, d, 8) }, lib.ArgmaxUnit.Build),
		units.NewUnit("lib-cam", "content-addressable memory: valid keys matched in parallel, written and cleared by index",
			func(c *lib.CAM, d *units.Decl) { nParam(&c.N, d, 8, 1); wParam(&c.W, d, 8) }, lib.CAM.Build),
		units.NewUnit("lib-lru", "true LRU replacement state of one set (an age matrix over the ways)",
			func(l *lib.LRU, d *units.Decl) { d.Int(&l.Ways, "ways", "ways of the set", 4, 2, 8) }, lib.LRU.Build),
		units.NewUnit("lib-plru", "tree pseudo-LRU replacement state of one set",
			func(p *lib.PLRU, d *units.Decl) { d.Pow2(&p.Ways, "ways", "ways of the set", 4, 2, 8) }, lib.PLRU.Build),
		units.NewUnit("lib-popcount", "population count: the number of set bits",
			func(p *lib.PopCountUnit, d *units.Decl) { d.Int(&p.N, "n", "input bits", 8, 1, 256) }, lib.PopCountUnit.Build),
		units.NewUnit("lib-encode", "one-hot to binary",
			func(e *lib.Encode, d *units.Decl) { nParam(&e.N, d, 8, 1) }, lib.Encode.Build),
		units.NewUnit("lib-decode", "binary to one-hot",
			func(e *lib.Decode, d *units.Decl) { nParam(&e.N, d, 8, 1) }, lib.Decode.Build),
		units.NewUnit("lib-satcnt", "saturating up/down counter",
			func(c *lib.SatCounterUnit, d *units.Decl) { wParam(&c.W, d, 2) }, lib.SatCounterUnit.Build),
		units.NewUnit("lib-downcnt", "loadable down counter that stops at zero",
			func(c *lib.DownCounterUnit, d *units.Decl) { wParam(&c.W, d, 4) }, lib.DownCounterUnit.Build),
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
		Reports:   libReports,
		Canonical: canonical,
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 5000},
		Examples:  []string{"-unit lib-fifo -depth 5 -width 8 > fifo.v"},
	})
}
