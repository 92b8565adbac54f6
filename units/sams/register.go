package sams

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
)

// The registry entries: each unit's parameters, defaults and ranges,
// declared once for gen -list, flag checking and the builders.

var (
	paramQ = units.Param{Name: "q", Doc: "2^q memory modules (banks) and lanes", Default: units.Const(3), Range: units.Fixed(1, 6)}
	// Thesis Table 3.1 goes to n = 64 for the address logic; the memory's
	// banks must fit a simulator.
	paramN = func(maxN int) units.Param {
		return units.Param{Name: "n", Doc: "address bits: 2^n elements", Default: units.Const(16),
			Range: func(v units.Values) (int, int) { return v["q"] + 2, maxN }}
	}
	paramW     = units.Param{Name: "w", Doc: "element bits", Default: units.Const(32), Range: units.Fixed(1, 64)}
	paramLanes = units.Param{Name: "lanes", Doc: "addresses translated at once (default 2^q; 1 is thesis Table 3.1's single translator)",
		Default: func(v units.Values) int { return 1 << uint(v["q"]) },
		Range:   func(v units.Values) (int, int) { return 1, 2 << uint(v["q"]) }}
	paramMatched = units.Param{Name: "matched", Doc: "Matched SAMS (thesis 3.2.4): every strided layout is family q", Default: units.Const(0), Bool: true}
)

func init() {
	units.Register(&units.Unit{
		Name: "sams-agu", Doc: "address generation: 2^q addresses and the stride family (thesis Table 4.1)",
		Params: []units.Param{paramQ, paramN(64)},
		Build: func(v units.Values, name string) (*hdl.Module, error) {
			return AGU{v["q"], v["n"]}.Build(name), nil
		},
	})
	units.Register(&units.Unit{
		Name: "sams-atu", Doc: "address translation: module, row, offset (thesis Eq. 3.1-3.3, Fig. 3.9)",
		Params: []units.Param{paramQ, paramN(64), paramLanes},
		Build: func(v units.Values, name string) (*hdl.Module, error) {
			return ATU{v["q"], v["n"], v["lanes"]}.Build(name), nil
		},
	})
	registerQNW("sams-inswitch", "2^q x 2^(q+1) crossbar from lanes to bank slots", func(q, n, w int, name string) *hdl.Module {
		return InSwitch{q, n, w}.Build(name)
	})
	units.Register(&units.Unit{
		Name: "sams-outswitch", Doc: "2^(q+1) x 2^q crossbar from bank slots to lanes",
		Params: []units.Param{paramQ, paramW},
		Build: func(v units.Values, name string) (*hdl.Module, error) {
			return OutSwitch{v["q"], v["w"]}.Build(name), nil
		},
	})
	registerQNW("sams-prs", "post-read shuffle: a wide line in internal order to linear order", func(q, n, w int, name string) *hdl.Module {
		return Shuffle{q, n, w, false}.Build(name)
	})
	registerQNW("sams-pws", "pre-write shuffle: a wide line in linear order to internal order", func(q, n, w int, name string) *hdl.Module {
		return Shuffle{q, n, w, true}.Build(name)
	})
	registerQNW("sams-inbound", "the inbound path of thesis Table 4.2: AGU -> ATU -> InSwitch, combinational", func(q, n, w int, name string) *hdl.Module {
		return Logic{q, n, w, true}.Build(name)
	})
	registerQNW("sams-logic", "the memory logic of thesis Table 4.2: inbound path and OutSwitch, no banks or registers", func(q, n, w int, name string) *hdl.Module {
		return Logic{q, n, w, false}.Build(name)
	})
	units.Register(&units.Unit{
		Name: "sams", Doc: "the SAMS multi-layout memory: banks, AGU, ATU, switches, conflict splitter, wide port",
		Params: []units.Param{paramQ, paramN(20), paramW, paramMatched},
		Build: func(v units.Values, name string) (*hdl.Module, error) {
			return Memory{v["q"], v["n"], v["w"], v["matched"] == 1}.Build(name), nil
		},
	})
}

// registerQNW registers a unit whose parameters are q, n (up to 64) and w.
func registerQNW(name, doc string, build func(q, n, w int, name string) *hdl.Module) {
	units.Register(&units.Unit{
		Name: name, Doc: doc,
		Params: []units.Param{paramQ, paramN(64), paramW},
		Build: func(v units.Values, top string) (*hdl.Module, error) {
			return build(v["q"], v["n"], v["w"], top), nil
		},
	})
}
