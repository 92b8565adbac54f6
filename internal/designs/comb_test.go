package designs

import (
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// RandomComb's promise: no dead logic, so every simulator evaluates every
// node (the Go simulator's live-node count is the node count).
func TestRandomCombHasNoDeadLogic(t *testing.T) {
	for _, nodes := range []int{20, 100, 1000} {
		for seed := uint64(1); seed <= 150; seed++ {
			d, err := hdl.Elaborate(RandomComb("comb", nodes, 16, seed))
			require.NoError(t, err)
			require.Equalf(t, nodes, sim.New(d).Ops(), "nodes=%d seed=%d: every node is live", nodes, seed)
		}
	}
}
