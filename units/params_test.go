package units

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIntParam: the shorthand is a plain Int with a constant default and
// range.
func TestIntParam(t *testing.T) {
	p := IntParam("m", "entries", 64, 1, 128)
	require.Equal(t, Int, p.Kind)
	require.Equal(t, 64, p.Default(nil))
	lo, hi := p.Range(nil)
	require.Equal(t, []int{1, 128}, []int{lo, hi})
	require.NoError(t, Params{p}.check("test"))
}
