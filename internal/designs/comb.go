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
// nodes (so the logic is deep as well as wide), and 16 outputs out0..out15
// taken from the last nodes. The same seed gives the same design.
func RandomComb(name string, nodes, width int, seed uint64) *hdl.Module {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	m := hdl.NewModule(name)
	var pool []*hdl.Signal
	for i := range CombInputs {
		pool = append(pool, m.Input(fmt.Sprintf("in%d", i), width))
	}
	pick := func() *hdl.Signal {
		if r.IntN(4) == 0 {
			return pool[r.IntN(len(pool))]
		}
		return pool[max(0, len(pool)-1-r.IntN(32))]
	}
	for made := 0; made < nodes; made++ {
		a, b := pick(), pick()
		var s *hdl.Signal
		op := r.IntN(9)
		if op == 8 && made+2 > nodes {
			op = 2
		}
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
			s = a.Shl(1 + r.IntN(width-1))
		case 6:
			s = a.Shr(1 + r.IntN(width-1))
		case 7:
			s = a.Not()
		default:
			s = hdl.Mux(a.Lt(b), a, b) // two nodes: a compare and a multiplexer
			made++
		}
		pool = append(pool, s)
	}
	for i := range CombInputs {
		m.Output(fmt.Sprintf("out%d", i), width).Drive(pool[len(pool)-1-i])
	}
	return m
}
