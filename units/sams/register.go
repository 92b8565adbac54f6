package sams

import (
	"fmt"

	"github.com/parmem/parmem/units"
)

// The registry entry of the SAMS family: each block's parameters, its
// Params method (names, docs, defaults and ranges), declared once for gen
// -list, flag checking and the builders, and the units; the
// design-review reports (reports.go), the thesis's results beside ours
// (claims.go), the layout picture (layout.go), the canonical RTL and the
// lockstep configurations.

func qParam(x *int, d *units.Decl) { d.Int(x, "q", "2^q memory modules (banks) and lanes", 3, 1, 6) }

// nParam declares n. Thesis Table 3.1 goes to n = 64 for the address
// logic; the memory's banks must fit a simulator (maxN 20).
func nParam(x *int, d *units.Decl, q, maxN int) {
	d.Int(x, "n", "address bits: 2^n elements", 16, q+2, maxN)
}

func wParam(x *int, d *units.Decl) { d.Int(x, "w", "element bits", 32, 1, 64) }

// qnwParams declares q, n (up to 64) and w.
func qnwParams(q, n, w *int, d *units.Decl) {
	qParam(q, d)
	nParam(n, d, *q, 64)
	wParam(w, d)
}

func (p *AGU) Params(d *units.Decl) {
	qParam(&p.Q, d)
	nParam(&p.N, d, p.Q, 64)
}

func (p *ATU) Params(d *units.Decl) {
	qParam(&p.Q, d)
	nParam(&p.N, d, p.Q, 64)
	d.Int(&p.Lanes, "lanes", "addresses translated at once (default 2^q; 1 is thesis Table 3.1's single translator)",
		1<<uint(p.Q), 1, 2<<uint(p.Q))
}

func (p *InSwitch) Params(d *units.Decl) { qnwParams(&p.Q, &p.N, &p.W, d) }

func (p *OutSwitch) Params(d *units.Decl) {
	qParam(&p.Q, d)
	wParam(&p.W, d)
}

func (p *Shuffle) Params(d *units.Decl) { qnwParams(&p.Q, &p.N, &p.W, d) }

func (p *Logic) Params(d *units.Decl) { qnwParams(&p.Q, &p.N, &p.W, d) }

func (p *Memory) Params(d *units.Decl) {
	qParam(&p.Q, d)
	nParam(&p.N, d, p.Q, 20)
	wParam(&p.W, d)
	d.Bool(&p.Matched, "matched", "Matched SAMS (thesis 3.2.4): every strided layout is family q")
}

func init() {
	units.RegisterFamily(&units.Family{
		Name:      "sams",
		Doc:       "SAMS multi-layout parallel memory (Gou's thesis, chapters 3 and 4)",
		Units:     samsUnits(),
		Reports:   samsReports,
		Claims:    samsClaims,
		Pictures:  []*units.Picture{layoutPicture},
		Canonical: canonical(),
		Lockstep:  units.Lockstep{Configs: lockstepConfigs(), Cycles: 3000, Long: longLockstepConfigs(), LongCycles: 1000},
		Prove:     proveConfigs,
		Speed:     []units.Config{{Unit: "sams", Values: units.Values{"q": 2}}, {Unit: "sams", Values: units.Values{"q": 3}}, {Unit: "sams", Values: units.Values{"q": 4}}},
		Examples: []string{
			"-unit sams -q 3 > sams.v",
			"-unit sams-atu -q 3 -n 23 -lanes 1 -o atu.v",
			"-layout -q 2 -family 2 -base 1 -stride 3 -mode 3 -format svg -o layout.svg",
		},
	})
}

func samsUnits() []*units.Unit {
	return []*units.Unit{
		units.NewUnit("sams-agu", "address generation: 2^q addresses and the stride family (thesis Table 4.1)",
			(*AGU).Params, AGU.Build),
		units.NewUnit("sams-atu", "address translation: module, row, offset (thesis Eq. 3.1-3.3, Fig. 3.9)",
			(*ATU).Params, ATU.Build),
		units.NewUnit("sams-inswitch", "2^q x 2^(q+1) crossbar from lanes to bank slots",
			(*InSwitch).Params, InSwitch.Build),
		units.NewUnit("sams-outswitch", "2^(q+1) x 2^q crossbar from bank slots to lanes",
			(*OutSwitch).Params, OutSwitch.Build),
		units.NewUnit("sams-prs", "post-read shuffle: a wide line in internal order to linear order",
			(*Shuffle).Params, Shuffle.Build),
		units.NewUnit("sams-pws", "pre-write shuffle: a wide line in linear order to internal order",
			func(p *Shuffle, d *units.Decl) { p.Write = true; p.Params(d) }, Shuffle.Build),
		units.NewUnit("sams-inbound", "the inbound path of thesis Table 4.2: AGU -> ATU -> InSwitch, combinational",
			func(p *Logic, d *units.Decl) { p.InboundOnly = true; p.Params(d) }, Logic.Build),
		units.NewUnit("sams-logic", "the memory logic of thesis Table 4.2: inbound path and OutSwitch, no banks or registers",
			(*Logic).Params, Logic.Build),
		units.NewUnit("sams", "the SAMS multi-layout memory: banks, AGU, ATU, switches, conflict splitter, wide port",
			(*Memory).Params, Memory.Build),
	}
}

// canonical is the reviewed RTL in rtl/sams: make rtl regenerates it (gen
// -canonical rtl), and a test fails when a file there is stale.
func canonical() []units.Canonical {
	var cs []units.Canonical
	for _, q := range []int{2, 3, 4} {
		top := fmt.Sprintf("sams_q%d", q)
		cs = append(cs, units.Canonical{File: "sams/" + top + ".v", Unit: "sams", Values: units.Values{"q": q, "n": 16, "w": 32}, Top: top})
	}
	return append(cs,
		units.Canonical{File: "sams/sams_atu_q3_n23.v", Unit: "sams-atu", Values: units.Values{"q": 3, "n": 23}, Top: "sams_atu_q3_n23"},
		units.Canonical{File: "sams/sams_agu_q3_n16.v", Unit: "sams-agu", Values: units.Values{"q": 3, "n": 16}, Top: "sams_agu_q3_n16"},
	)
}

// lockstepConfigs is every SAMS block at q = 2, 3 (n = 16, w = 32) and
// the small ones (AGU, ATU, OutSwitch) at q = 4, the Table 4.2 measurement
// units (sams-inbound, sams-logic) at q = 2, 3 with w = 8, the Matched
// memory, and the AGU also at q = 5 and the AGU and ATU at n = 23, 32, 64.
func lockstepConfigs() []units.Config {
	var cs []units.Config
	add := func(unit string, v units.Values) { cs = append(cs, units.Config{Unit: unit, Values: v}) }
	for q := 2; q <= 3; q++ {
		for _, u := range []string{"sams-agu", "sams-atu", "sams-inswitch", "sams-outswitch", "sams-prs", "sams-pws", "sams"} {
			add(u, units.Values{"q": q})
		}
	}
	for _, u := range []string{"sams-agu", "sams-atu", "sams-outswitch"} {
		add(u, units.Values{"q": 4})
	}
	for q := 2; q <= 3; q++ { // the Table 4.2 measurement units, narrow to keep the builds short
		add("sams-inbound", units.Values{"q": q, "w": 8})
		add("sams-logic", units.Values{"q": q, "w": 8})
	}
	add("sams", units.Values{"q": 3, "matched": 1})
	add("sams-atu", units.Values{"q": 3, "n": 23, "lanes": 1}) // thesis Table 3.1's single translator
	add("sams-agu", units.Values{"q": 5})
	for _, u := range []string{"sams-agu", "sams-atu"} {
		for _, n := range []int{23, 32, 64} {
			add(u, units.Values{"q": 3, "n": n})
		}
	}
	return cs
}

// longLockstepConfigs are the large blocks at q = 4 (the memory, its
// InSwitch and shuffles: 1.5 MB of Verilog, two thirds of the pack's) and
// the ATU at q = 5, which make long runs; make test runs the same blocks
// at q = 2, 3, where Verilog emission takes the same paths.
func longLockstepConfigs() []units.Config {
	cs := []units.Config{{Unit: "sams-atu", Values: units.Values{"q": 5}}}
	for _, u := range []string{"sams-inswitch", "sams-prs", "sams-pws", "sams"} {
		cs = append(cs, units.Config{Unit: u, Values: units.Values{"q": 4}})
	}
	return cs
}

// proveConfigs are the sizes at which check/sams proves the blocks'
// properties: the memory without Matched, where every access is
// conflict-free (Theorem 2), and Matched with four lanes and four rows a
// bank, where an access takes up to four sub-accesses (its conflict cover
// points need three).
var proveConfigs = units.Prove{
	Configs: []units.Config{
		{Unit: "sams-agu", Values: units.Values{"q": 2, "n": 12}},
		{Unit: "sams-atu", Values: units.Values{"q": 2, "n": 12}},
		{Unit: "sams", Values: units.Values{"q": 1, "n": 3, "w": 1}},
		{Unit: "sams", Values: units.Values{"q": 2, "n": 5, "w": 1, "matched": 1}},
	},
	More: []units.Config{
		{Unit: "sams-agu", Values: units.Values{"q": 3, "n": 16}},
		{Unit: "sams-atu", Values: units.Values{"q": 3, "n": 16}},
		{Unit: "sams", Values: units.Values{"q": 2, "n": 5, "w": 2}},
		{Unit: "sams", Values: units.Values{"q": 2, "n": 6, "w": 2, "matched": 1}},
	},
}
