package lib_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestOddEvenMergePairsSort: the pairs sort every 0/1 input of 2, 4, 8
// and 16 (the 0-1 principle) and have Batcher's comparator count.
func TestOddEvenMergePairsSort(t *testing.T) {
	for k := 1; k <= 4; k++ {
		n := 1 << k
		pairs := lib.OddEvenMergePairs(n)
		require.Len(t, pairs, (k*k-k+4)*(1<<k)/4-1, "n=%d", n)
		for x := range 1 << n {
			v := make([]int, n)
			for i := range v {
				v[i] = x >> i & 1
			}
			for _, c := range pairs {
				if v[c[0]] > v[c[1]] {
					v[c[0]], v[c[1]] = v[c[1]], v[c[0]]
				}
			}
			require.True(t, slices.IsSorted(v), "n=%d input %b", n, x)
		}
	}
}

// TestSortCircuit sorts random 6-bit keys of 8 records with payloads on
// the Go simulator.
func TestSortCircuit(t *testing.T) {
	const n = 8
	m := hdl.NewModule("sorter")
	var keys, pays []*hdl.Signal
	for i := range n {
		keys = append(keys, m.Input(fmt.Sprintf("k_%d", i), 6))
		pays = append(pays, m.Input(fmt.Sprintf("p_%d", i), 3))
	}
	sk, sp := lib.Sort(keys, pays)
	for i := range n {
		m.Output(fmt.Sprintf("sk_%d", i), 6).Drive(sk[i])
		m.Output(fmt.Sprintf("sp_%d", i), 3).Drive(sp[i])
	}
	b := verify.NewBench(t, m)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var want []uint64
		for i := range n {
			k := uint64(r.IntN(8))<<3 | uint64(i) // unique: the index in the low bits
			want = append(want, k)
			b.Set(b.In(fmt.Sprintf("k_%d", i)), k)
			b.Set(b.In(fmt.Sprintf("p_%d", i)), uint64(i))
		}
		b.Step()
		slices.Sort(want)
		for i, k := range want {
			require.Equal(t, k, b.Get(b.Out(fmt.Sprintf("sk_%d", i))))
			require.Equal(t, k&7, b.Get(b.Out(fmt.Sprintf("sp_%d", i))), "the payload travels with its key")
		}
	}
}
