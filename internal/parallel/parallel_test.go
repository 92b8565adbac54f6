package parallel

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMapKeepsOrder(t *testing.T) {
	var items []int
	for i := range 100 {
		items = append(items, i)
	}
	var calls atomic.Int64
	got, err := Map(items, func(i int) (string, error) { calls.Add(1); return fmt.Sprint(i * i), nil })
	require.NoError(t, err)
	require.Equal(t, int64(100), calls.Load())
	for i, s := range got {
		require.Equal(t, fmt.Sprint(i*i), s)
	}
	empty, err := Map(nil, func(int) (int, error) { return 0, nil })
	require.NoError(t, err)
	require.Empty(t, empty)
}

func TestMapReturnsTheFirstErrorInOrder(t *testing.T) {
	_, err := Map([]int{0, 1, 2, 3}, func(i int) (int, error) {
		if i%2 == 1 {
			return 0, fmt.Errorf("item %d", i)
		}
		return i, nil
	})
	require.EqualError(t, err, "item 1")
}
