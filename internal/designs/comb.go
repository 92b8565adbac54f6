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
	made := map[string]bool{} // operations made, by kind and operands
	for n := 0; n < nodes; n++ {
		a := first()
		op := r.IntN(9)
		if op == 8 && n+2 > nodes {
			op = 2
		}
		var b *hdl.Signal
		k := 0
		switch op {
		case 5, 6:
			k = 1 + r.IntN(width-1)
		case 7:
		default:
			b = pick()
		}
		if op == 8 && b == a { // the multiplexer would pass its one operand on and cost nothing (simulators fold it)
			b = pool[len(pool)-1] // (not marked used, nor drawn: the rest of the design stays as it was)
			if b == a {
				b = pool[len(pool)-2]
			}
		}
		// No operation twice: simulators merge equal ones (the Go
		// simulator and Verilator both do), which would leave fewer than
		// nodes to evaluate. A repeat becomes an XOR with another operand.
		for key := fmt.Sprintf("%d %p %p %d", op, a, b, k); made[key]; key = fmt.Sprintf("%d %p %p %d", op, a, b, k) {
			op, b, k = 2, pick(), 0
		}
		made[fmt.Sprintf("%d %p %p %d", op, a, b, k)] = true
		var s *hdl.Signal
		switch op {
		case 0:
			s = a.Add(b)
		case 1:
			s = a.Sub(b)
		case 2:
			s = a.Xor(b)
		case 3:
			s = a.And(b)
		case 4:
			s = a.Or(b)
		case 5:
			s = a.Shl(k)
		case 6:
			s = a.Shr(k)
		case 7:
			s = a.Not()
		default:
			s = hdl.Mux(a.Lt(b), a, b) // two nodes: a compare and a multiplexer
			n++
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
