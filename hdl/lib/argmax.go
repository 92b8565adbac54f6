package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// Argmax selects the largest score among the entries whose valid bit is
// set, ties going to the lower index: a balanced tournament tree of
// comparators in which the right (higher) side wins only when strictly
// larger. found = valid != 0; with nothing valid, idx and best are 0.
//
// For the DRAM scheduler's row and request scores (Li, Rule 1: ties to
// the older request, then the lower slot) and, over age counters, for
// oldest-first picks (an entry's age is its score).
func Argmax(scores []*hdl.Signal, valid *hdl.Signal) (found, idx, best *hdl.Signal) {
	m := valid.Module()
	iw := IndexWidth(len(scores))
	leaves := make([]contender, len(scores))
	for i, s := range scores {
		leaves[i] = contender{valid.Bit(i), s, m.ConstU(iw, uint64(i))}
	}
	w := tournament(leaves)
	return w.valid, w.idx, w.score.And(w.valid.Repl(w.score.Width()))
}

type contender struct{ valid, score, idx *hdl.Signal }

func tournament(c []contender) contender {
	if len(c) == 1 {
		return c[0]
	}
	lo, hi := tournament(c[:len(c)/2]), tournament(c[len(c)/2:])
	takeHi := hi.valid.And(lo.valid.Not().Or(hi.score.Gt(lo.score)))
	return contender{
		valid: lo.valid.Or(hi.valid),
		score: hdl.Mux(takeHi, hi.score, lo.score),
		idx:   hdl.Mux(takeHi, hi.idx, lo.idx),
	}
}

// ArgmaxUnit is the lib-argmax unit over N scores of W bits; ArgmaxPorts
// are its ports.
type ArgmaxUnit struct{ N, W int }

// ModuleName is the module's name with its parameters: lib_argmax_n8_w8.
func (a ArgmaxUnit) ModuleName() string { return fmt.Sprintf("lib_argmax_n%d_w%d", a.N, a.W) }

// ArgmaxPorts are lib-argmax's ports (DESIGN.md, lib-argmax).
type ArgmaxPorts struct {
	Valid *hdl.Signal   `doc:"[n-1:0] the entries that compete"`
	Score []*hdl.Signal `doc:"[w-1:0] the score of lane i"`
	Found *hdl.Signal   `doc:"an entry is valid: valid != 0"`
	Idx   *hdl.Signal   `doc:"[IW-1:0] the entry of the largest valid score, 0 when none"`
	Best  *hdl.Signal   `doc:"[w-1:0] the largest valid score, 0 when none"`
}

// Build makes the module called name.
func (a ArgmaxUnit) Build(name string) *hdl.Module { return hdl.ModuleOf(a.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (a ArgmaxUnit) WithPorts(name string) (*hdl.Module, ArgmaxPorts) {
	m := hdl.NewModule(name)
	ports := ArgmaxPorts{Valid: m.Input("valid", a.N), Score: m.InputFields("").Vec("score", a.N, a.W)}
	found, idx, best := Argmax(ports.Score, ports.Valid)
	ports.Found = drivenBy(m.Output("found", 1), found)
	ports.Idx = drivenBy(m.Output("idx", IndexWidth(a.N)), idx)
	ports.Best = drivenBy(m.Output("best", a.W), best)
	a.properties(m, ports)
	return m, ports
}

// properties states what the selection promises (DESIGN.md, lib-argmax;
// Li's Rule 1 breaks ties to the lower index): found says whether an
// entry is valid, the winner is valid and best its score, no valid score
// is larger, and every valid entry below the winner scores less; with
// nothing valid, idx and best are 0.
func (a ArgmaxUnit) properties(m *hdl.Module, p ArgmaxPorts) {
	m.Assert(p.Found.Eq(p.Valid.RedOr()), "found_iff_valid", "found does not say whether an entry is valid")
	winner := hdl.Select(p.Idx, Split(p.Valid)...)
	m.Assert(hdl.Mux(p.Found, winner.And(hdl.Select(p.Idx, p.Score...).Eq(p.Best)), p.Idx.EqConst(0).And(p.Best.EqConst(0))),
		"best_is_the_winners", "the winner is not valid or best is not its score (or idx and best are not 0 with nothing valid)")
	larger := make([]*hdl.Signal, a.N)
	tieBelow := make([]*hdl.Signal, a.N)
	lost := make([]*hdl.Signal, a.N)
	for i, score := range p.Score {
		valid := p.Valid.Bit(i)
		larger[i] = valid.And(score.Gt(p.Best))
		tieBelow[i] = valid.And(score.Eq(p.Best)).And(p.Idx.Gt(m.ConstU(p.Idx.Width(), uint64(i))))
		lost[i] = valid.And(score.Eq(p.Best)).And(p.Idx.Ne(m.ConstU(p.Idx.Width(), uint64(i))))
	}
	m.Assert(Bus(larger).RedOr().Not(), "best_is_largest", "a valid score is larger than best")
	m.Assert(Bus(tieBelow).RedOr().Not(), "ties_to_lower_index", "a valid entry below the winner has the same score")
	if a.N > 1 {
		m.Cover(Bus(lost).RedOr(), "tie_lost")
	}
	m.Cover(p.Found.Not(), "none_valid")
	m.Cover(p.Found.And(p.Idx.EqConst(uint64(a.N-1))), "last_wins")
}
