package lib

import (
	"fmt"
	"math/bits"

	"github.com/parmem/parmem/hdl"
)

// TreePLRU is tree pseudo-LRU replacement state of one set of ways ways (a
// power of two, 2..64): ways-1 bits in a binary tree, registers of m named
// <name>_<node> with node 1 the root and nodes 2k, 2k+1 the children of k.
// A node's bit points to the half holding the victim (0 the lower ways).
// At an edge where touch is 1 each node on way's path points away from
// it; victim follows the bits from the root. After reset every bit is 0
// and the victim is way 0.
func TreePLRU(m *hdl.Module, name string, ways int, touch, way *hdl.Signal) (victim *hdl.Signal) {
	levels := bits.Len(uint(ways)) - 1
	node := make([]*hdl.Signal, ways) // node[k], k = 1..ways-1
	for k := 1; k < ways; k++ {
		node[k] = m.Reg(fmt.Sprintf("%s_%d", name, k), 1)
	}
	for l := range levels {
		// The nodes of level l are 2^l + p for each path prefix p of l bits;
		// way's bit below its prefix says which half it is in.
		wayBit := way.Bit(levels - 1 - l)
		for p := range 1 << uint(l) {
			onPath := touch
			if l > 0 {
				onPath = onPath.And(way.Slice(levels-1, levels-l).EqConst(uint64(p)))
			}
			m.If(onPath, func() { node[1<<uint(l)+p].Set(wayBit.Not()) })
		}
	}
	// The victim's bits, top first: at level l the node picked by the bits
	// chosen so far.
	var chosen []*hdl.Signal
	for l := range levels {
		level := node[1<<uint(l) : 2<<uint(l)]
		bit := level[0]
		if l > 0 {
			bit = hdl.Select(hdl.Concat(chosen...), level...)
		}
		chosen = append(chosen, bit)
	}
	return hdl.Concat(chosen...)
}

// PLRU is the lib-plru unit: tree pseudo-LRU of one set of Ways ways (2, 4
// or 8), with lib-lru's ports (LRUPorts).
type PLRU struct{ Ways int }

// ModuleName is the module's name with its parameters: lib_plru_w4.
func (p PLRU) ModuleName() string { return fmt.Sprintf("lib_plru_w%d", p.Ways) }

// Build makes the module called name.
func (p PLRU) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports,
// lib-lru's.
func (p PLRU) WithPorts(name string) (*hdl.Module, LRUPorts) {
	return replacementUnit(name, p.Ways, func(m *hdl.Module, touch, way *hdl.Signal) *hdl.Signal {
		victim := TreePLRU(m, "node", p.Ways, touch, way)
		p.properties(m, touch, way, victim)
		return victim
	})
}

// properties states what the tree promises (DESIGN.md, lib-plru): a touch
// points every node on the way's path away from it, so the way touched
// last (kept in ghost registers) is not the victim until another is
// touched; inductive as it stands.
func (p PLRU) properties(m *hdl.Module, touch, way, victim *hdl.Signal) {
	last, seen := m.Reg("ghost_last", way.Width()), m.Reg("ghost_touched", 1)
	m.If(touch, func() { last.Set(way); seen.SetU(1) })
	m.Assert(seen.Not().Or(victim.Ne(last)), "touched_is_not_victim", "the way touched last is the victim")
	coverVictims(m, victim, p.Ways)
}
