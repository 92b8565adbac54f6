package verdict

import (
	"fmt"
	"math"
	"strings"

	"github.com/parmem/parmem/internal/table"
)

// Paper is one of the four seed papers the families reproduce.
type Paper int

const (
	// Thesis: Gou's thesis, customizable memory schemes (SAMS, 2DSMM, the
	// elastic pipeline, the vector MSHR).
	Thesis Paper = iota
	// IJPP: Gou and Gaydadjiev's elastic pipeline paper.
	IJPP
	// Li: Li's thesis, inter-core locality aware DRAM scheduling.
	Li
	// Nakano: Nakano's random address shift (RSDMM).
	Nakano
)

var paperNames = [...]string{"thesis", "IJPP", "Li", "Nakano"}

func (p Paper) String() string {
	if p >= 0 && int(p) < len(paperNames) {
		return paperNames[p]
	}
	return fmt.Sprintf("Paper(%d)", int(p))
}

// Seed is the paper's text file under ../shared/seeds/.
func (p Paper) Seed() string {
	return [...]string{"gou-thesis-customizable-memory-schemes.txt", "gou-elastic-pipeline-ijpp2013.txt",
		"li-inter-core-locality-scheduling.txt", "nakano-rsdmm-random-address-shift.txt"}[p]
}

// Claim is one result a paper states, set beside ours.
type Claim struct {
	Paper Paper
	Where string // where the paper states it: "Table 3.1", "Fig. 6.1", "Theorem 2", "4.5"
	What  string // the result and the configuration it is about, one line
	// Printed is the paper's value exactly as the paper prints it, or its
	// words for a result without a number ("up", "lowest"); never a number
	// we derive from the paper's formulas (that goes in What or Why).
	Printed string
	Ours    string
	// Ratio is ours over the paper's for the compared quantity (for a
	// change, the change itself); NaN when the result has no magnitude.
	Ratio   float64
	Verdict Verdict
	// Why says, for anything short of matches, what we measured that
	// explains the gap, and for not reproduced, the reason.
	Why string
}

// Measured is a result with a number: the paper's value (printed as
// printed) against ours (shown as oursText), judged by Value. For a change
// or a gain pass the change itself (+10.9 % as 0.109).
func Measured(p Paper, where, what, printed string, paper, ours float64, oursText string) Claim {
	r := math.NaN()
	if paper != 0 {
		r = ours / paper
	} else if ours == 0 {
		r = 1
	}
	return Claim{Paper: p, Where: where, What: what, Printed: printed, Ours: oursText, Ratio: r, Verdict: Value(paper, ours)}
}

// Stated is a result without a magnitude (an order, a direction, "none
// slows down", a property proven): DirectionOnly when ours holds it,
// Differs when not; exact says the paper states it exactly (a theorem, a
// cell the paper gives exactly), so that holding it is Exact.
func Stated(p Paper, where, what, printed string, holds, exact bool, oursText string) Claim {
	v := Direction(holds)
	if holds && exact {
		v = Exact
	}
	return Claim{Paper: p, Where: where, What: what, Printed: printed, Ours: oursText, Ratio: math.NaN(), Verdict: v}
}

// Missing is a result we do not reproduce, with the reason.
func Missing(p Paper, where, what, printed, why string) Claim {
	return Claim{Paper: p, Where: where, What: what, Printed: printed, Ratio: math.NaN(), Verdict: NotReproduced, Why: why}
}

// Because sets the claim's measured cause.
func (c Claim) Because(why string) Claim {
	c.Why = why
	return c
}

// Gap is the ratio as a report shows it: "0.03x", "<0.01x", "opposite
// sign", "" when there is none.
func (c Claim) Gap() string {
	switch r := c.Ratio; {
	case math.IsNaN(r) || math.IsInf(r, 0):
		return ""
	case r < 0:
		return "opposite sign"
	case r > 0 && r < 0.01:
		return "<0.01x"
	default:
		return fmt.Sprintf("%.3gx", r)
	}
}

// Distance is how far ours is from the paper's: the factor between them
// either way, as |log(ours / paper)|; +Inf for the opposite sign or a 0
// against a value, NaN for a result without a magnitude.
func (c Claim) Distance() float64 {
	switch r := c.Ratio; {
	case math.IsNaN(r):
		return r
	case r <= 0:
		return math.Inf(1)
	default:
		return math.Abs(math.Log(r))
	}
}

// Source is where the paper states it: "thesis Table 3.1".
func (c Claim) Source() string { return c.Paper.String() + " " + c.Where }

// Counts counts the claims of each verdict.
func Counts(cs []Claim) [NotReproduced + 1]int {
	var n [NotReproduced + 1]int
	for _, c := range cs {
		n[c.Verdict]++
	}
	return n
}

// Summary is one line counting the claims of each verdict:
// "31 results: 4 exact, 2 matches, ...".
func Summary(cs []Claim) string {
	n := Counts(cs)
	parts := make([]string, len(n))
	for v, k := range n {
		parts[v] = fmt.Sprintf("%d %s", k, Verdict(v))
	}
	return fmt.Sprintf("%d results: %s", len(cs), strings.Join(parts, ", "))
}

// Rule is the note every table of claims carries: the rule in one line.
var Rule = fmt.Sprintf("Verdicts (internal/verdict, the project's one rule): exact (equal: counts, bits, proofs, cells the paper gives exactly), matches (within %.0f%%), close (within a factor of %.0f), direction only (the same sign or order beyond that, or a result without a number that ours holds), differs (the opposite sign or order), not reproduced (the reason beside). A change is compared as the change itself: +1.1%% against +10.9%% is 10x off, direction only; a speedup of 1.29X against 1.42X compares 0.29 with 0.42.",
	100*MatchTolerance, CloseFactor)

// Table lists claims: where, what, the paper's value as printed, ours,
// ours over the paper's, the verdict and why not closer.
func Table(title string, cs []Claim, notes ...string) *table.Table {
	t := &table.Table{
		Title:  title,
		Header: []string{"source", "result", "paper, as printed", "ours", "ours / paper", "verdict", "why not closer (measured)"},
		Notes:  append([]string{Summary(cs) + ".", Rule}, notes...),
	}
	for _, c := range cs {
		t.Add(c.Source(), c.What, c.Printed, c.Ours, c.Gap(), c.Verdict.String(), c.Why)
	}
	return t
}
