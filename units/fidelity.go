package units

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
)

// Claims is how a family sets the results of its papers beside its own
// (gen -report fidelity): every result it reproduces, and every one it
// does not, with the reason.
type Claims struct {
	// Yosys says it runs Yosys (results cached in rtl/synth-results.json).
	Yosys bool
	// Time is roughly how long Run takes alone on two cores with nothing
	// cached but rtl/synth-results.json.
	Time time.Duration
	// Run measures with the code of the family's reports (their runs are
	// jobs, as Report.Run's are, and shared with the reports where the
	// family keeps them) and returns the claims in the papers' order.
	Run func(progress io.Writer) ([]verdict.Claim, error)
}

// FidelityName is the report that gathers every family's claims.
const FidelityName = "fidelity"

// FamilyClaim is a claim with the family that reproduces it.
type FamilyClaim struct {
	Family string
	verdict.Claim
}

// claimants are the families that declare claims, in family order.
func (r *Registry) claimants() []*Family {
	var fs []*Family
	for _, f := range r.families {
		if f.Claims != nil {
			fs = append(fs, f)
		}
	}
	return fs
}

// Claims runs the Claims of the families that declare them, in family
// order; with only, of that family alone.
func (r *Registry) Claims(only string, progress io.Writer) ([]FamilyClaim, error) {
	var out []FamilyClaim
	for _, f := range r.claimants() {
		if only != "" && f.Name != only {
			continue
		}
		cs, err := f.Claims.Run(progress)
		if err != nil {
			return nil, fmt.Errorf("family %s's claims: %w", f.Name, err)
		}
		for _, c := range cs {
			out = append(out, FamilyClaim{f.Name, c})
		}
	}
	return out, nil
}

// fidelityReport is gen -report fidelity over the registry's families.
func (r *Registry) fidelityReport() *Report {
	var names []string
	for _, f := range r.claimants() {
		names = append(names, f.Name)
	}
	all := len(names)
	rep := &Report{
		Name: FidelityName,
		Doc:  "every result reproduced from the four papers beside the paper's value as printed, under one rule",
		Params: Params{{Name: "family", Doc: "the family whose results to list, or all", Kind: Choice,
			Choices: append(names, "all"), Default: Const(all)}},
		Run: func(v Values, progress io.Writer) ([]*table.Table, error) {
			only := ""
			if k := v["family"]; k < all {
				only = names[k]
			}
			cs, err := r.Claims(only, progress)
			if err != nil {
				return nil, err
			}
			return FidelityTables(cs), nil
		},
		Charts: fidelityCharts,
	}
	for _, f := range r.families {
		if f.Claims != nil {
			rep.Time += f.Claims.Time
			rep.Yosys = rep.Yosys || f.Claims.Yosys
		}
	}
	return rep
}

// hasClaims reports whether some family declares claims.
func (r *Registry) hasClaims() bool { return len(r.claimants()) > 0 }

// FidelityTables are the fidelity report: the verdicts per family, every
// claim, and the largest gaps.
func FidelityTables(cs []FamilyClaim) []*table.Table {
	plain := make([]verdict.Claim, len(cs))
	for i, c := range cs {
		plain[i] = c.Claim
	}
	all := &table.Table{
		Title: "Fidelity: every result reproduced from the four papers, under one rule",
		Header: []string{"family", "source", "result", "paper, as printed", "ours", "ours / paper", "verdict",
			"why not closer (measured)"},
		Notes: []string{verdict.Summary(plain) + ".", verdict.Rule,
			"Paper, as printed: the paper's number or words exactly as it prints them, never one we derive from its formulas; ours: our blocks, models and Yosys runs, the numbers the family's own report shows."},
	}
	for _, c := range cs {
		all.Add(c.Family, c.Source(), c.What, c.Printed, c.Ours, c.Gap(), c.Verdict.String(), c.Why)
	}
	return []*table.Table{perFamily(cs), all, largestGaps(cs, 5)}
}

// perFamily counts each family's verdicts.
func perFamily(cs []FamilyClaim) *table.Table {
	header := []string{"family", "results"}
	for v := verdict.Exact; v <= verdict.NotReproduced; v++ {
		header = append(header, v.String())
	}
	t := &table.Table{Title: "Fidelity: the verdicts per family", Header: append(header, "exact or matches")}
	var families []string
	for _, c := range cs {
		if !slices.Contains(families, c.Family) {
			families = append(families, c.Family)
		}
	}
	row := func(name string, of []verdict.Claim) {
		n := verdict.Counts(of)
		cells := []string{name, fmt.Sprint(len(of))}
		for _, k := range n {
			cells = append(cells, fmt.Sprint(k))
		}
		t.Add(append(cells, fmt.Sprint(n[verdict.Exact]+n[verdict.Matches]))...)
	}
	var every []verdict.Claim
	for _, f := range families {
		var of []verdict.Claim
		for _, c := range cs {
			if c.Family == f {
				of = append(of, c.Claim)
			}
		}
		row(f, of)
		every = append(every, of...)
	}
	row("all", every)
	return t
}

// largestGaps are the n results farthest from the paper's: those that
// differ first, then by how far ours is from the paper's (the factor
// either way), with their measured causes.
func largestGaps(cs []FamilyClaim, n int) *table.Table {
	t := &table.Table{
		Title:  fmt.Sprintf("Fidelity: the %d largest gaps and their measured causes", n),
		Header: []string{"family", "source", "result", "paper, as printed", "ours", "ours / paper", "verdict", "measured cause"},
		Notes:  []string{"Ordered by verdict (differs before direction only), then by the factor between ours and the paper's, either way (the opposite sign farthest); results without a magnitude after those with one."},
	}
	far := func(c FamilyClaim) float64 {
		if d := c.Distance(); !math.IsNaN(d) {
			return d
		}
		return math.Inf(-1)
	}
	var gaps []FamilyClaim
	for _, c := range cs {
		if c.Verdict == verdict.Differs || c.Verdict == verdict.DirectionOnly || c.Verdict == verdict.Close {
			gaps = append(gaps, c)
		}
	}
	slices.SortStableFunc(gaps, func(a, b FamilyClaim) int {
		if a.Verdict != b.Verdict {
			return cmp.Compare(b.Verdict, a.Verdict)
		}
		return cmp.Compare(far(b), far(a))
	})
	for _, c := range gaps[:min(n, len(gaps))] {
		t.Add(c.Family, c.Source(), c.What, c.Printed, c.Ours, c.Gap(), c.Verdict.String(), c.Why)
	}
	return t
}
