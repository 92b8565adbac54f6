package verify

import (
	"fmt"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/stretchr/testify/require"
)

// TestCompiledMatchesInterpreter: compiled Go computes what the hdl
// interpreter computes on random logic at every width class its code
// generator treats apart (8, 16 and 32 bits are cut by conversions, 13
// and 64 otherwise), output by output, cycle by cycle.
func TestCompiledMatchesInterpreter(t *testing.T) {
	for _, w := range []int{8, 13, 16, 32, 64} {
		t.Run(fmt.Sprint("w", w), func(t *testing.T) {
			d, err := hdl.Elaborate(designs.RandomComb(fmt.Sprintf("comb_w%d", w), 300, w, uint64(w)))
			require.NoError(t, err)
			res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Seed: 7, Cycles: 2000})
			require.NoError(t, err)
			require.Equal(t, uint64(2000), res.Cycles)
		})
	}
}
