package lib

import "slices"

// The components' behaviour in plain Go: the reference the tests compare
// the hardware against, and what a family's cycle-level model uses in
// place of the hardware. Values are uint64 bit sets (bit i for entry i)
// where the hardware has a bus of at most 64 bits.

// FirstSet is Priority: the lowest set bit of the n-bit req (the highest
// with highest), and whether there is one.
func FirstSet(req uint64, n int, highest bool) (valid bool, idx int) {
	for k := range n {
		i := k
		if highest {
			i = n - 1 - k
		}
		if req>>uint(i)&1 == 1 {
			return true, i
		}
	}
	return false, 0
}

// ArgmaxOf is Argmax: the largest score among the valid entries, ties to
// the lower index; idx and best are 0 when none is valid.
func ArgmaxOf(scores []uint64, valid uint64) (found bool, idx int, best uint64) {
	for i, s := range scores {
		if valid>>uint(i)&1 == 1 && (!found || s > best) {
			found, idx, best = true, i, s
		}
	}
	return found, idx, best
}

// FIFOModel is FIFO: entries are any values, oldest first.
type FIFOModel[T any] struct {
	Depth    int
	Standard bool
	Pipe     bool
	entries  []T
	last     T // Standard: the entry popped at the last pop
}

// InReady is in_ready: not full (with Pipe, or popping).
func (f *FIFOModel[T]) InReady(outReady bool) bool {
	return len(f.entries) < f.Depth || f.Pipe && outReady
}

// OutValid is out_valid: not empty.
func (f *FIFOModel[T]) OutValid() bool { return len(f.entries) > 0 }

// Count is count.
func (f *FIFOModel[T]) Count() int { return len(f.entries) }

// Out is out_data (meaningful when OutValid, or always with Standard).
func (f *FIFOModel[T]) Out() T {
	if f.Standard || len(f.entries) == 0 {
		return f.last
	}
	return f.entries[0]
}

// Step is a clock edge: it reports whether it pushed and popped.
func (f *FIFOModel[T]) Step(inValid bool, in T, outReady bool) (pushed, popped bool) {
	pushed, popped = inValid && f.InReady(outReady), outReady && f.OutValid()
	if popped {
		if f.Standard {
			f.last = f.entries[0]
		}
		f.entries = f.entries[1:]
	}
	if pushed {
		f.entries = append(f.entries, in)
	}
	return pushed, popped
}

// Reset empties the queue.
func (f *FIFOModel[T]) Reset() { f.entries = nil }

// RoundRobinModel is RoundRobin's pointer and choice.
type RoundRobinModel struct {
	N, P int
}

// Grant is the first requester at or after P, cyclically.
func (r *RoundRobinModel) Grant(req uint64) (valid bool, idx int) {
	for k := range r.N {
		i := (r.P + k) % r.N
		if req>>uint(i)&1 == 1 {
			return true, i
		}
	}
	return false, 0
}

// Step is a clock edge.
func (r *RoundRobinModel) Step(req uint64, ack bool) {
	if valid, idx := r.Grant(req); valid && ack {
		r.P = (idx + 1) % r.N
	}
}

// AgeOrder is AgeMatrix and TrueLRU: entries from the oldest (least
// recently used) to the youngest.
type AgeOrder struct{ order []int }

// NewAgeOrder is the order after reset: 0, 1, ..., n-1.
func NewAgeOrder(n int) *AgeOrder {
	a := &AgeOrder{}
	for i := range n {
		a.order = append(a.order, i)
	}
	return a
}

// Touch makes entry i the youngest.
func (a *AgeOrder) Touch(i int) {
	if k := slices.Index(a.order, i); k >= 0 {
		a.order = append(slices.Delete(a.order, k, k+1), i)
	}
}

// Oldest is the oldest entry whose bit in valid is set.
func (a *AgeOrder) Oldest(valid uint64) (found bool, idx int) {
	for _, i := range a.order {
		if valid>>uint(i)&1 == 1 {
			return true, i
		}
	}
	return false, 0
}

// Victim is the least recently used entry.
func (a *AgeOrder) Victim() int { return a.order[0] }

// PLRUModel is TreePLRU: Bits[k] for node k = 1..ways-1, each pointing to
// the half holding the victim (false: the lower ways).
type PLRUModel struct {
	Ways int
	Bits []bool
}

// NewPLRUModel is the state after reset.
func NewPLRUModel(ways int) *PLRUModel { return &PLRUModel{Ways: ways, Bits: make([]bool, ways)} }

// Victim follows the bits from the root.
func (p *PLRUModel) Victim() int {
	k := 1
	for k < p.Ways {
		k = 2*k + b2i(p.Bits[k])
	}
	return k - p.Ways
}

// Touch points every node on way's path away from it.
func (p *PLRUModel) Touch(way int) {
	for k := way + p.Ways; k > 1; k /= 2 {
		p.Bits[k/2] = k%2 == 0 // the touched child is the lower one: point up
	}
}

// CAMModel is CAM.
type CAMModel struct {
	Valid []bool
	Keys  []uint64
}

// NewCAMModel is an empty CAM of n entries.
func NewCAMModel(n int) *CAMModel { return &CAMModel{Valid: make([]bool, n), Keys: make([]uint64, n)} }

// Lookup returns the entries holding key (bit i for entry i).
func (c *CAMModel) Lookup(key uint64) (match uint64) {
	for i, v := range c.Valid {
		if v && c.Keys[i] == key {
			match |= 1 << uint(i)
		}
	}
	return match
}

// Step is a clock edge: clear, then write (write wins on one entry).
func (c *CAMModel) Step(write bool, writeIdx int, writeKey uint64, clear bool, clearIdx int) {
	if clear && clearIdx < len(c.Valid) {
		c.Valid[clearIdx] = false
	}
	if write && writeIdx < len(c.Valid) {
		c.Valid[writeIdx], c.Keys[writeIdx] = true, writeKey
	}
}
