package elastic

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// cacheState is what the history cache's properties read: its valid
// bits and LRU order, the read's hit ways, the write's case and clear.
type cacheState struct {
	clear           *hdl.Signal
	valid           []*hdl.Signal // per set, one bit a way
	lru             *lib.AgeArray
	setWidth        int
	rdHits          *hdl.Signal // one bit a way
	write, wrMatch  *hdl.Signal // a write, and a valid line of its set holds its tag
	wrFull, touched *hdl.Signal // its set has no invalid way; the ways of its set the read hits
}

// properties states what the history cache promises (thesis 5.5.2, Fig.
// 5.7, Table 5.3; DESIGN.md, elastic-bchc): each set's true-LRU order is
// a permutation of its ways (every three ways have exactly one oldest:
// the one-hot choice decodes its index; so the age relation has no
// cycle; with two ways or fewer any state is one). That no two valid lines of a set hold one tag is not stated: it
// reads the line memories at every set, and hdl emits a memory read that
// only properties use in the hardware Verilog, not under FORMAL. The
// cover points are a read's hit and miss, each of the write's three cases
// (update, fill an invalid way, evict the least recently used) and an
// eviction beside a read hit in the same set, a full set, and a clear
// (kernel launch) of valid lines; the eviction and the full set only in
// caches small enough for random PCs to fill a set.
func (c HistoryCacheBlock) properties(m *hdl.Module, s cacheState) {
	var total []*hdl.Signal
	for set := range c.Sets {
		idx := m.ConstU(s.setWidth, uint64(set))
		for _, mask := range triples(c.Ways) {
			found, way, onehot := s.lru.Oldest(idx, m.ConstU(c.Ways, mask))
			total = append(total, found.And(onehot.Eq(lib.BinaryToOneHot(way, c.Ways))))
		}
	}
	if len(total) > 0 {
		m.Assert(lib.Bus(total).RedAnd(), "lru_order_total", "a set's LRU order has a cycle: three ways without an oldest")
	}
	m.Cover(s.rdHits.RedOr(), "read_hit")
	m.Cover(s.rdHits.RedOr().Not(), "read_miss")
	m.Cover(s.write.And(s.wrMatch), "write_update")
	m.Cover(s.write.And(s.wrMatch.Not()).And(s.wrFull.Not()), "write_fill")
	// A full set and an eviction are stated where the lockstep's random
	// PCs, cleared by a launch every few cycles, fill a set (a family pack
	// fails on a cover point its stimulus never reaches, unless Yosys
	// shows it unreachable): a set of up to 3 ways, and evictions in
	// caches of up to 3 lines.
	if c.Ways <= 3 {
		var full []*hdl.Signal
		for _, v := range s.valid {
			full = append(full, v.RedAnd())
		}
		m.Cover(lib.Bus(full).RedOr(), "set_full")
	}
	if c.Sets*c.Ways <= 3 {
		evict := s.write.And(s.wrMatch.Not()).And(s.wrFull)
		m.Cover(evict, "write_evict")
		if c.Ways > 1 { // the read's way is spared, another evicted
			m.Cover(evict.And(s.touched.RedOr()), "write_evict_beside_read_hit")
		}
	}
	m.Cover(s.clear.And(lib.Bus(s.valid).RedOr()), "clear_valid_lines")
}

// triples are the masks of every three of n ways.
func triples(n int) []uint64 {
	var masks []uint64
	for a := range n {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				masks = append(masks, 1<<a|1<<b|1<<c)
			}
		}
	}
	return masks
}
