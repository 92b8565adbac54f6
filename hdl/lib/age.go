package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// AgeMatrix keeps the order in which n entries were last touched, for
// oldest-first selection without age counters: one register per pair i <
// j, set when entry i is older than entry j (n(n-1)/2 bits). After reset
// the order is the index order (entry 0 the oldest). Touching an entry
// makes it the youngest; the order stays total, so among any set of
// entries exactly one is the oldest.
//
// For queues that leave out of order (the elastic pipeline's NONMEM
// entries, the vector MSHR's pending misses) and, over every entry, as
// true LRU (TrueLRU).
type AgeMatrix struct {
	n     int
	older [][]*hdl.Signal // older[i][j] for i < j
}

// NewAgeMatrix declares the matrix's registers in m, named
// <name>_<i>_<j>.
func NewAgeMatrix(m *hdl.Module, name string, n int) *AgeMatrix {
	a := &AgeMatrix{n: n, older: make([][]*hdl.Signal, n)}
	for i := range n {
		a.older[i] = make([]*hdl.Signal, n)
		for j := i + 1; j < n; j++ {
			a.older[i][j] = m.RegInit(fmt.Sprintf("%s_%d_%d", name, i, j), hdl.MustU(1, 1))
		}
	}
	return a
}

// isOlder is 1 when entry i is older than entry j (i != j).
func (a *AgeMatrix) isOlder(i, j int) *hdl.Signal {
	if i < j {
		return a.older[i][j]
	}
	return a.older[j][i].Not()
}

// Touch makes entry idx the youngest at the next edge where en is 1 (an
// idx of n or more changes nothing).
func (a *AgeMatrix) Touch(idx, en *hdl.Signal) {
	m := en.Module()
	for k := range a.n {
		m.If(en.And(idx.EqConst(uint64(k))), func() {
			for j := range a.n {
				switch {
				case j < k:
					a.older[j][k].SetU(1)
				case j > k:
					a.older[k][j].SetU(0)
				}
			}
		})
	}
}

// Oldest selects the oldest entry whose valid bit is set: found = valid !=
// 0, onehot and idx 0 when none. An entry wins when no other valid entry
// is older.
func (a *AgeMatrix) Oldest(valid *hdl.Signal) (found, idx, onehot *hdl.Signal) {
	wins := make([]*hdl.Signal, a.n)
	for i := range a.n {
		var beaten []*hdl.Signal
		for j := range a.n {
			if j != i {
				beaten = append(beaten, valid.Bit(j).And(a.isOlder(j, i)))
			}
		}
		wins[i] = valid.Bit(i)
		if len(beaten) > 0 {
			wins[i] = wins[i].And(hdl.Concat(beaten...).RedOr().Not())
		}
	}
	onehot = Bus(wins)
	return valid.RedOr(), OneHotToBinary(onehot), onehot
}

// AgeUnit is the lib-age unit: oldest-first selection over N entries.
//
//	clk, rst; in touch, touch_idx[IW-1:0], valid[N-1:0];
//	out found, idx[IW-1:0], onehot[N-1:0]
//
// touch makes touch_idx the youngest at the edge; the outputs pick the
// oldest valid entry before it.
type AgeUnit struct{ N int }

// ModuleName is the module's name with its parameters: lib_age_n8.
func (a AgeUnit) ModuleName() string { return fmt.Sprintf("lib_age_n%d", a.N) }

// Build makes the module called name.
func (a AgeUnit) Build(name string) *hdl.Module {
	m := hdl.NewModule(name)
	ages := NewAgeMatrix(m, "older", a.N)
	ages.Touch(m.Input("touch_idx", IndexWidth(a.N)), m.Input("touch", 1))
	found, idx, onehot := ages.Oldest(m.Input("valid", a.N))
	m.Output("found", 1).Drive(found)
	m.Output("idx", IndexWidth(a.N)).Drive(idx)
	m.Output("onehot", a.N).Drive(onehot)
	return m
}

// TrueLRU is the replacement state of one set of ways ways, registers of m
// named <name>_<i>_<j>: at an edge where touch is 1, way becomes the most
// recently used; victim is the least recently used way. After reset the
// order from least to most recently used is 0, 1, ..., ways-1. It is an
// AgeMatrix in which every way takes part.
func TrueLRU(m *hdl.Module, name string, ways int, touch, way *hdl.Signal) (victim *hdl.Signal) {
	ages := NewAgeMatrix(m, name, ways)
	ages.Touch(way, touch)
	_, victim, _ = ages.Oldest(m.ConstU(1, 1).Repl(ways))
	return victim
}

// LRU is the lib-lru unit: true LRU of one set of Ways ways (2..8).
//
//	clk, rst; in touch, touch_way[WW-1:0]; out victim[WW-1:0]
type LRU struct{ Ways int }

// ModuleName is the module's name with its parameters: lib_lru_w4.
func (l LRU) ModuleName() string { return fmt.Sprintf("lib_lru_w%d", l.Ways) }

// Build makes the module called name.
func (l LRU) Build(name string) *hdl.Module { return replacementUnit(name, "older", l.Ways, TrueLRU) }

// replacementUnit is a module with lib-lru's ports around the replacement
// state that state makes, its registers named after reg.
func replacementUnit(name, reg string, ways int, state func(m *hdl.Module, name string, ways int, touch, way *hdl.Signal) *hdl.Signal) *hdl.Module {
	m := hdl.NewModule(name)
	ww := IndexWidth(ways)
	m.Output("victim", ww).Drive(state(m, reg, ways, m.Input("touch", 1), m.Input("touch_way", ww)))
	return m
}
