// Package parallel runs independent jobs on every CPU.
package parallel

import (
	"runtime"
	"sync"
)

// Map applies f to every item, as many at once as there are CPUs, and
// returns the results in the items' order, or the first error in that
// order. It starts from the end of the list, where callers put their
// largest jobs, so that the longest one does not start last.
func Map[T, R any](items []T, f func(T) (R, error)) ([]R, error) {
	results := make([]R, len(items))
	errs := make([]error, len(items))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), len(items)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = f(items[i])
			}
		}()
	}
	for i := len(items) - 1; i >= 0; i-- {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
