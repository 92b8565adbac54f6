// Package designs holds reference designs that benchmarks and tests share.
package designs

import (
	"fmt"
	"math/rand/v2"

	"github.com/parmem/parmem/hdl"
)

// CombInputs is the number of input ports of RandomComb designs.
const CombInputs = 16

// RandomComb builds a combinational design of exactly `nodes` operations on
// `width`-bit values: CombInputs inputs in0..in15, a random DAG of adds,
// subtracts, bitwise operations, constant shifts, comparisons and
// multiplexers whose operands are drawn mostly from the last few dozen
// nodes (so the logic is deep as well as wide), and 16 outputs out0..out15.
// Every node feeds an output: the first operand of each operation is the
// oldest result nothing uses yet, once 16 are waiting, and the
// last 16 unused results are the outputs. So no logic is dead and every
// simulator evaluates all of it. The same seed gives the same design.
func RandomComb(name string, nodes, width int, seed uint64) *hdl.Module {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	m := hdl.NewModule(name)
	var pool []*hdl.Signal
	for i := range CombInputs {
		pool = append(pool, m.Input(fmt.Sprintf("in%d", i), width))
	}
	unused := map[*hdl.Signal]bool{}
	var waiting []*hdl.Signal // unused results, oldest first
	use := func(s *hdl.Signal) *hdl.Signal {
		delete(unused, s)
		return s
	}
	pick := func() *hdl.Signal {
		if r.IntN(4) == 0 {
			return use(pool[r.IntN(len(pool))])
		}
		return use(pool[max(0, len(pool)-1-r.IntN(32))])
	}
	first := func() *hdl.Signal {
		for len(waiting) >= CombInputs {
			s := waiting[0]
			waiting = waiting[1:]
			if unused[s] {
				return use(s)
			}
		}
		return pick()
	}
	for made := 0; made < nodes; made++ {
		a := first()
		var s *hdl.Signal
		op := r.IntN(9)
		if op == 8 && made+2 > nodes {
			op = 2
		}
		switch op {
		case 0:
			s = a.Add(pick())
		case 1:
			s = a.Sub(pick())
		case 2:
			s = a.Xor(pick())
		case 3:
			s = a.And(pick())
		case 4:
			s = a.Or(pick())
		case 5:
			s = a.Shl(1 + r.IntN(width-1))
		case 6:
			s = a.Shr(1 + r.IntN(width-1))
		case 7:
			s = a.Not()
		default:
			b := pick()
			s = hdl.Mux(a.Lt(b), a, b) // two nodes: a compare and a multiplexer
			made++
		}
		pool = append(pool, s)
		unused[s] = true
		waiting = append(waiting, s)
	}
	var outs []*hdl.Signal
	for _, s := range waiting {
		if unused[s] {
			outs = append(outs, s)
		}
	}
	for i := 0; len(outs) < CombInputs; i++ { // top up with the last results
		outs = append(outs, pool[len(pool)-1-i])
	}
	for i, s := range outs[len(outs)-CombInputs:] {
		m.Output(fmt.Sprintf("out%d", i), width).Drive(s)
	}
	return m
}
