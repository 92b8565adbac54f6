package smm2d

import (
	"maps"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
)

// The registry entry of the smm2d family: each unit's parameters,
// defaults and ranges (the contracts in DESIGN.md), the reports, the
// claims, the layout picture, the canonical RTL and the lockstep
// configurations.

var (
	paramP = units.IntParam("p", "2^p rows of banks (1 <= p <= q)", 1, 1, 3)
	paramQ = units.Param{Name: "q", Doc: "2^q columns of banks; L = 2^(p+q) lanes and banks",
		Default: func(v units.Values) int { return max(2, v["p"]) },
		Range:   func(v units.Values) (int, int) { return v["p"], 6 - v["p"] }}
	paramMB = units.Param{Name: "mb", Doc: "M = 2^mb rows (vertical address i)", Default: units.Const(10),
		Range: func(v units.Values) (int, int) { return v["p"] + 1, 32 }}
	paramNB = units.Param{Name: "nb", Doc: "N = 2^nb columns (horizontal address j)", Default: units.Const(8),
		Range: func(v units.Values) (int, int) { return v["p"] + v["q"], 32 }}
	// The memory's banks must fit a simulator: mb+nb <= 20.
	paramMemMB = units.Param{Name: "mb", Doc: "M = 2^mb rows (vertical address i); mb+nb <= 20", Default: units.Const(10),
		Range: func(v units.Values) (int, int) { return v["p"] + 1, 20 - v["p"] - v["q"] }}
	paramMemNB = units.Param{Name: "nb", Doc: "N = 2^nb columns (horizontal address j); mb+nb <= 20", Default: units.Const(8),
		Range: func(v units.Values) (int, int) { return v["p"] + v["q"], 20 - v["mb"] }}
	paramPost = units.Param{Name: "post", Doc: "m_v in section 3.3's post-add form (default: 3.4.2's pre-add)", Kind: units.Bool}
	paramOut  = units.Param{Name: "out", Doc: "the outward router: banks to lanes (default: lanes to banks)", Kind: units.Bool}
)

func init() {
	units.RegisterFamily(&units.Family{
		Name:     "smm2d",
		Doc:      "2DSMM 2D strided multi-access memory (Gou's thesis, sections 3.3 and 3.4.2, appendix B)",
		Units:    smm2dUnits(),
		Reports:  smm2dReports,
		Claims:   smm2dClaims,
		Pictures: []*units.Picture{layoutView},
		Canonical: []units.Canonical{
			{File: "smm2d/smm2d.v", Unit: "smm2d", Values: units.Values{}, Top: "smm2d"},
			{File: "smm2d/smm2d_atu.v", Unit: "smm2d-atu", Values: units.Values{}, Top: "smm2d_atu"},
			{File: "smm2d/smm2d_atu_post.v", Unit: "smm2d-atu", Values: units.Values{"post": 1}, Top: "smm2d_atu_post"},
		},
		// Icarus takes about 25 ms a cycle on these 24 configurations (the
		// memories dominate); the scoreboard replays 250,000 cycles of the
		// memory on Verilator.
		Lockstep: units.Lockstep{Configs: lockstepConfigs(), Cycles: 600},
		Speed:    []units.Config{{Unit: "smm2d", Values: units.Values{}}},
		Examples: []string{
			"-unit smm2d > smm2d.v",
			"-unit smm2d-atu -p 2 -q 2 -post -o atu.v",
			"-layout -unit smm2d -p 1 -q 2 -mb 3 -nb 4 -vs 1 -hs 1",
			"-layout -unit smm2d -mb 4 -nb 5 -pattern 2 -bi 1 -bj 3 -vstride 2 -hstride 6 -format svg -o diag.svg",
		},
	})
}

func geometry(v units.Values) Geometry {
	return Geometry{P: v["p"], Q: v["q"], MB: v["mb"], NB: v["nb"]}
}

func smm2dUnits() []*units.Unit {
	return []*units.Unit{
		{
			Name: "smm2d-atu", Doc: "address translation: every lane's (i, j) to m_v, m_h and row (section 3.3, Fig. 3.12)",
			Params: units.Params{paramP, paramQ, paramMB, paramNB, paramPost},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return ATU{geometry(v), v["post"] == 1}.Build(name), nil
			},
		},
		{
			Name: "smm2d-agu", Doc: "address generation: the L addresses of the six patterns (Figs. 3.10, 3.11)",
			Params: units.Params{paramP, paramQ, paramMB, paramNB},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return AGU{geometry(v)}.Build(name), nil
			},
		},
		{
			Name: "smm2d-route", Doc: "the two-stage address and data router, inward or outward (Figs. 3.14-3.16)",
			Params: units.Params{paramP, paramQ, units.IntParam("w", "data bits", 32, 1, 128), paramOut},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				// The router does not depend on M and N.
				return Route{Geometry{P: v["p"], Q: v["q"]}, v["w"], v["out"] == 1}.Build(name), nil
			},
		},
		{
			Name: "smm2d", Doc: "the 2DSMM memory: configuration, stride table, AGU, ATU, routers, banks, sub-accesses",
			Params: units.Params{paramP, paramQ, paramMemMB, paramMemNB, units.IntParam("w", "element bits", 32, 1, 64), paramPost},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				return Memory{Geometry: geometry(v), W: v["w"], Post: v["post"] == 1}.Build(name), nil
			},
		},
	}
}

// lockstepConfigs is every unit at (p, q) = (1, 2), (2, 2), (1, 3) with
// mb = nb = 10, the ATU in both forms and the router both ways, and the
// AGU and ATU also at (2, 4) with mb = nb = 32.
func lockstepConfigs() []units.Config {
	var cs []units.Config
	add := func(unit string, v units.Values) { cs = append(cs, units.Config{Unit: unit, Values: v}) }
	for _, pq := range [][2]int{{1, 2}, {2, 2}, {1, 3}} {
		at := func(more units.Values) units.Values {
			v := units.Values{"p": pq[0], "q": pq[1], "mb": 10, "nb": 10}
			maps.Copy(v, more)
			return v
		}
		add("smm2d-agu", at(nil))
		add("smm2d-atu", at(nil))
		add("smm2d-atu", at(units.Values{"post": 1}))
		add("smm2d", at(nil))
		add("smm2d", at(units.Values{"post": 1}))
		add("smm2d-route", units.Values{"p": pq[0], "q": pq[1]})
		add("smm2d-route", units.Values{"p": pq[0], "q": pq[1], "out": 1})
	}
	for _, post := range []int{0, 1} {
		add("smm2d-atu", units.Values{"p": 2, "q": 4, "mb": 32, "nb": 32, "post": post})
	}
	add("smm2d-agu", units.Values{"p": 2, "q": 4, "mb": 32, "nb": 32})
	return cs
}
