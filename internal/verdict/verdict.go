// Package verdict is the project's one rule for setting a reproduced
// result beside a paper's: how close a measured number, change or order
// is to the one the paper prints. Every report that compares with a
// paper uses it, so "matches" means the same everywhere.
package verdict

import (
	"fmt"
	"math"
)

// Verdict is how close a reproduced result is to the paper's, best first.
type Verdict int

const (
	// Exact: equal (counts, bits, proofs, cells the paper gives exactly).
	Exact Verdict = iota
	// Matches: within 10 % of the paper's value.
	Matches
	// Close: within a factor of 2.
	Close
	// DirectionOnly: the same sign or order, beyond a factor of 2.
	DirectionOnly
	// Differs: the opposite sign or order.
	Differs
	// NotReproduced: nothing measured to compare (the reason goes beside).
	NotReproduced
)

// MatchTolerance and CloseFactor are the bounds of Matches and Close.
const (
	MatchTolerance = 0.10
	CloseFactor    = 2.0
)

var names = [...]string{"exact", "matches", "close", "direction only", "differs", "not reproduced"}

func (v Verdict) String() string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// AtLeast reports whether v is as good as w or better.
func (v Verdict) AtLeast(w Verdict) bool { return v <= w }

// Value sets our value beside the paper's: Exact when equal, Matches
// within 10 % of the paper's, Close within a factor of 2, DirectionOnly
// with the same sign beyond that, Differs with the opposite sign (or
// where one is 0 and the other not). A change or a gain is compared as
// the change itself: +1.1 % against +10.9 % is Value(0.109, 0.011), 10x
// off (DirectionOnly); a speedup of 1.29X against 1.42X is Gain(1.42,
// 1.29), 0.29 against 0.42 (Close). NaN is NotReproduced.
func Value(paper, ours float64) Verdict {
	switch {
	case math.IsNaN(paper) || math.IsNaN(ours):
		return NotReproduced
	case ours == paper:
		return Exact
	case paper == 0 || ours == 0 || (paper > 0) != (ours > 0):
		return Differs
	}
	const ulp = 1e-12 // 110 against 100 is within 10 % though 110/100-1 rounds above 0.1
	r := ours / paper // > 0
	switch {
	case math.Abs(r-1) <= MatchTolerance+ulp:
		return Matches
	case r <= CloseFactor+ulp && r >= 1/CloseFactor-ulp:
		return Close
	}
	return DirectionOnly
}

// Gain compares two ratios (speedups, 1.29X) by their gains over 1.
func Gain(paper, ours float64) Verdict { return Value(paper-1, ours-1) }

// Direction is the verdict on a finding that states a direction without a
// number (an order, "the lowest of the three", "none slows down"):
// DirectionOnly when ours holds it (it has no magnitude to match),
// Differs when not.
func Direction(holds bool) Verdict {
	if holds {
		return DirectionOnly
	}
	return Differs
}
