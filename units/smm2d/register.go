package smm2d

import (
	"maps"

	"github.com/parmem/parmem/units"
)

// The registry entry of the smm2d family: each block's parameters, its
// Params method (names, docs, defaults and ranges: the contracts in
// DESIGN.md), and the units; the reports, the claims, the layout picture,
// the canonical RTL and the lockstep configurations.

// pqParams declares the bank array: 2^p x 2^q banks (section 3.3).
func (g *Geometry) pqParams(d *units.Decl) {
	d.Int(&g.P, "p", "2^p rows of banks (1 <= p <= q)", 1, 1, 3)
	d.Int(&g.Q, "q", "2^q columns of banks; L = 2^(p+q) lanes and banks", max(2, g.P), g.P, 6-g.P)
}

// Params declares the bank array and the M x N elements it holds.
func (g *Geometry) Params(d *units.Decl) {
	g.pqParams(d)
	d.Int(&g.MB, "mb", "M = 2^mb rows (vertical address i)", 10, g.P+1, 32)
	d.Int(&g.NB, "nb", "N = 2^nb columns (horizontal address j)", 8, g.P+g.Q, 32)
}

func postParam(x *bool, d *units.Decl) {
	d.Bool(x, "post", "m_v in section 3.3's post-add form (default: 3.4.2's pre-add)")
}

func (a *ATU) Params(d *units.Decl) {
	a.Geometry.Params(d)
	postParam(&a.Post, d)
}

// Params declares the router's bank array; it does not depend on M and N.
func (r *Route) Params(d *units.Decl) {
	r.pqParams(d)
	d.Int(&r.W, "w", "data bits", 32, 1, 128)
	d.Bool(&r.Out, "out", "the outward router: banks to lanes (default: lanes to banks)")
}

// Params declares the memory's; its banks must fit a simulator: mb+nb <=
// 20.
func (m *Memory) Params(d *units.Decl) {
	m.pqParams(d)
	d.Int(&m.MB, "mb", "M = 2^mb rows (vertical address i); mb+nb <= 20", 10, m.P+1, 20-m.P-m.Q)
	d.Int(&m.NB, "nb", "N = 2^nb columns (horizontal address j); mb+nb <= 20", 8, m.P+m.Q, 20-m.MB)
	d.Int(&m.W, "w", "element bits", 32, 1, 64)
	postParam(&m.Post, d)
}

// The layout picture's (picture.go) p, q and post are the units', and its
// geometry the p, q, mb and nb of its values.
var (
	pq        = units.ParamsOf((*Geometry).pqParams)
	paramP    = pq[0]
	paramQ    = pq[1]
	paramPost = units.ParamsOf(postParam)[0]
)

func geometry(v units.Values) Geometry { return units.Fill(v, (*Geometry).Params) }

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
		Prove:    proveConfigs,
		Speed:    []units.Config{{Unit: "smm2d", Values: units.Values{}}},
		Examples: []string{
			"-unit smm2d > smm2d.v",
			"-unit smm2d-atu -p 2 -q 2 -post -o atu.v",
			"-layout -unit smm2d -p 1 -q 2 -mb 3 -nb 4 -vs 1 -hs 1",
			"-layout -unit smm2d -mb 4 -nb 5 -pattern 2 -bi 1 -bj 3 -vstride 2 -hstride 6 -format svg -o diag.svg",
		},
	})
}

func smm2dUnits() []*units.Unit {
	return []*units.Unit{
		units.NewUnit("smm2d-atu", "address translation: every lane's (i, j) to m_v, m_h and row (section 3.3, Fig. 3.12)",
			(*ATU).Params, ATU.Build),
		units.NewUnit("smm2d-agu", "address generation: the L addresses of the six patterns (Figs. 3.10, 3.11)",
			(*AGU).Params, AGU.Build),
		units.NewUnit("smm2d-route", "the two-stage address and data router, inward or outward (Figs. 3.14-3.16)",
			(*Route).Params, Route.Build),
		units.NewUnit("smm2d", "the 2DSMM memory: configuration, stride table, AGU, ATU, routers, banks, sub-accesses",
			(*Memory).Params, Memory.Build),
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

// proveConfigs are the sizes at which check/smm2d proves the memory's
// properties (units/smm2d, units/internal/splitmem).
var proveConfigs = units.Prove{
	Configs: []units.Config{
		{Unit: "smm2d", Values: units.Values{"p": 1, "q": 1, "mb": 2, "nb": 2, "w": 1}},
	},
	More: []units.Config{
		{Unit: "smm2d", Values: units.Values{"p": 1, "q": 1, "mb": 2, "nb": 2, "w": 1, "post": 1}},
		{Unit: "smm2d", Values: units.Values{"p": 1, "q": 2, "mb": 2, "nb": 3, "w": 1}},
	},
}
