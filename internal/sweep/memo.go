package sweep

import "sync"

// Memo holds the results of the jobs this process ran, by key, so that
// reports that share jobs share their results: gen -report all runs a
// family's report and the fidelity report's claims, which need some of
// the same runs. Call Get from inside a Map job: only a job that runs
// reaches it, so a shard's placeholders for other shards' jobs, and
// Plan's, never enter it. The zero Memo is empty and ready.
type Memo[K comparable, V any] struct{ m sync.Map } // K -> *memoEntry[V]

type memoEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// Get is key's result, run the first time any caller asks for it (a
// caller asking while it runs waits for it).
func (m *Memo[K, V]) Get(key K, run func() (V, error)) (V, error) {
	e, _ := m.m.LoadOrStore(key, &memoEntry[V]{})
	r := e.(*memoEntry[V])
	r.once.Do(func() { r.v, r.err = run() })
	return r.v, r.err
}
