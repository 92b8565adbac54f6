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
	return m, ports
}
