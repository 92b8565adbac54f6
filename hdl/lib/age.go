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
	return oldest(a.n, a.isOlder, valid)
}

// bits packs the matrix's registers, older[0][1] first (row by row).
func (a *AgeMatrix) bits() *hdl.Signal {
	var bs []*hdl.Signal
	for i := range a.n {
		bs = append(bs, a.older[i][i+1:]...)
	}
	return Bus(bs)
}

// properties states what the order promises (the lib-age and lib-lru
// contracts in DESIGN.md): it stays total, a permutation of the entries
// (one of each pair is older by construction, and such a tournament is a
// total order exactly when no three entries are each older than the
// next), and the entry last touched, kept in ghost registers, is the
// youngest until another is touched. Both hold after each edge given they
// held before it, so they are inductive as they stand.
func (a *AgeMatrix) properties(m *hdl.Module, idx, en *hdl.Signal) {
	var cycles []*hdl.Signal
	for i := range a.n {
		for j := i + 1; j < a.n; j++ {
			for k := j + 1; k < a.n; k++ {
				cycles = append(cycles, a.isOlder(i, j).And(a.isOlder(j, k)).And(a.isOlder(k, i)),
					a.isOlder(j, i).And(a.isOlder(k, j)).And(a.isOlder(i, k)))
			}
		}
	}
	if len(cycles) > 0 {
		m.Assert(Bus(cycles).RedOr().Not(), "order_is_a_permutation", "three entries are each older than the next: the age order is no longer total")
	}
	if a.n == 1 {
		return // one entry is always the youngest
	}
	last, seen := m.Reg("ghost_last", idx.Width()), m.Reg("ghost_touched", 1)
	m.If(en.And(below(idx, a.n)), func() { last.Set(idx); seen.SetU(1) })
	m.Assert(seen.Not().Or(hdl.Select(last, a.youngest(m)...)), "touched_is_youngest", "the entry touched last is not the youngest")
}

// anyOlder is, for each entry i, 1 when an entry j != i with bit j of
// among set is older than i (for properties).
func (a *AgeMatrix) anyOlder(among *hdl.Signal) []*hdl.Signal {
	out := make([]*hdl.Signal, a.n)
	for i := range a.n {
		older := []*hdl.Signal{among.Module().ConstU(1, 0)}
		for j := range a.n {
			if j != i {
				older = append(older, among.Bit(j).And(a.isOlder(j, i)))
			}
		}
		out[i] = Bus(older).RedOr()
	}
	return out
}

// youngest is, for each entry, 1 when every other entry is older (for
// properties).
func (a *AgeMatrix) youngest(m *hdl.Module) []*hdl.Signal {
	out := make([]*hdl.Signal, a.n)
	for i := range a.n {
		older := []*hdl.Signal{m.ConstU(1, 1)}
		for j := range a.n {
			if j != i {
				older = append(older, a.isOlder(j, i))
			}
		}
		out[i] = Bus(older).RedAnd()
	}
	return out
}

// oldest picks the oldest valid entry of an order given by isOlder.
func oldest(n int, isOlder func(i, j int) *hdl.Signal, valid *hdl.Signal) (found, idx, onehot *hdl.Signal) {
	wins := make([]*hdl.Signal, n)
	for i := range n {
		var beaten []*hdl.Signal
		for j := range n {
			if j != i {
				beaten = append(beaten, valid.Bit(j).And(isOlder(j, i)))
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

// AgeArray is the replacement state of a set-associative cache: one
// AgeMatrix of n ways per set, registers named <name>_<set>_<i>_<j>,
// touched and queried at dynamic set indexes. Touches apply in call order
// (a later touch of the same set sees the earlier one, hdl's last
// assignment wins), so a read hit and a fill in one cycle update the order
// as two touches in sequence. Oldest reads the state before the edge.
//
// For the elastic pipeline's bank-conflict history cache (thesis 5.5.2).
type AgeArray struct {
	n    int
	sets []*AgeMatrix
}

// NewAgeArray declares sets matrices of n entries in m.
func NewAgeArray(m *hdl.Module, name string, sets, n int) *AgeArray {
	a := &AgeArray{n: n}
	for s := range sets {
		a.sets = append(a.sets, NewAgeMatrix(m, fmt.Sprintf("%s_%d", name, s), n))
	}
	return a
}

// Touch makes entry idx of set the youngest at the next edge where en is
// 1.
func (a *AgeArray) Touch(set, idx, en *hdl.Signal) {
	for s, ages := range a.sets {
		ages.Touch(idx, en.And(set.EqConst(uint64(s))))
	}
}

// Oldest selects the oldest entry of set among those whose valid bit is
// set, as AgeMatrix.Oldest.
func (a *AgeArray) Oldest(set, valid *hdl.Signal) (found, idx, onehot *hdl.Signal) {
	if a.n == 1 {
		return a.sets[0].Oldest(valid)
	}
	packed := make([]*hdl.Signal, len(a.sets))
	for s, ages := range a.sets {
		packed[s] = ages.bits()
	}
	bits := Split(hdl.Select(set, packed...))
	pair := make(map[[2]int]*hdl.Signal)
	k := 0
	for i := range a.n {
		for j := i + 1; j < a.n; j++ {
			pair[[2]int{i, j}] = bits[k]
			k++
		}
	}
	return oldest(a.n, func(i, j int) *hdl.Signal {
		if i < j {
			return pair[[2]int{i, j}]
		}
		return pair[[2]int{j, i}].Not()
	}, valid)
}

// AgeUnit is the lib-age unit: oldest-first selection over N entries;
// AgePorts are its ports. touch makes touch_idx the youngest at the edge;
// the outputs pick the oldest valid entry before it.
type AgeUnit struct{ N int }

// ModuleName is the module's name with its parameters: lib_age_n8.
func (a AgeUnit) ModuleName() string { return fmt.Sprintf("lib_age_n%d", a.N) }

// AgePorts are lib-age's ports (DESIGN.md, lib-age).
type AgePorts struct {
	TouchIdx *hdl.Signal `doc:"[IW-1:0] the entry touch makes the youngest"`
	Touch    *hdl.Signal `doc:"entry touch_idx becomes the youngest at the edge"`
	Valid    *hdl.Signal `doc:"[n-1:0] the entries that compete"`
	Found    *hdl.Signal `doc:"an entry is valid: valid != 0"`
	Idx      *hdl.Signal `doc:"[IW-1:0] the oldest valid entry, 0 when none"`
	Onehot   *hdl.Signal `doc:"[n-1:0] the oldest valid entry as one-hot, 0 when none"`
}

// Build makes the module called name.
func (a AgeUnit) Build(name string) *hdl.Module { return hdl.ModuleOf(a.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (a AgeUnit) WithPorts(name string) (*hdl.Module, AgePorts) {
	m := hdl.NewModule(name)
	ages := NewAgeMatrix(m, "older", a.N)
	ports := AgePorts{TouchIdx: m.Input("touch_idx", IndexWidth(a.N)), Touch: m.Input("touch", 1)}
	ages.Touch(ports.TouchIdx, ports.Touch)
	ports.Valid = m.Input("valid", a.N)
	found, idx, onehot := ages.Oldest(ports.Valid)
	ports.Found = drivenBy(m.Output("found", 1), found)
	ports.Idx = drivenBy(m.Output("idx", IndexWidth(a.N)), idx)
	ports.Onehot = drivenBy(m.Output("onehot", a.N), onehot)
	a.properties(m, ages, ports)
	return m, ports
}

// properties states what the selection promises (DESIGN.md, lib-age):
// the order's (AgeMatrix.properties), and that the entry picked is valid,
// one-hot as idx, and no valid entry is older.
func (a AgeUnit) properties(m *hdl.Module, ages *AgeMatrix, p AgePorts) {
	ages.properties(m, p.TouchIdx, p.Touch)
	m.Assert(p.Found.Eq(p.Valid.RedOr()), "found_iff_valid", "found does not say whether an entry is valid")
	m.Assert(p.Onehot.Eq(BinaryToOneHot(p.Idx, a.N).And(p.Found.Repl(a.N))), "onehot_is_idx", "onehot is not idx as one-hot (or not 0 with nothing valid)")
	m.Assert(p.Onehot.And(p.Valid.Not()).RedOr().Not(), "picks_a_valid_entry", "the entry picked is not valid")
	m.Assert(hdl.Select(p.Idx, ages.anyOlder(p.Valid)...).Not(), "picks_the_oldest", "a valid entry is older than the one picked")
	m.Cover(p.Valid.RedAnd(), "all_valid")
	m.Cover(p.Found.And(hdl.Select(p.Idx, ages.youngest(m)...)), "youngest_picked")
}

// TrueLRU is the replacement state of one set of ways ways, registers of m
// named <name>_<i>_<j>: at an edge where touch is 1, way becomes the most
// recently used; victim is the least recently used way. After reset the
// order from least to most recently used is 0, 1, ..., ways-1. It is an
// AgeMatrix in which every way takes part, which it returns too (for
// properties of the order).
func TrueLRU(m *hdl.Module, name string, ways int, touch, way *hdl.Signal) (victim *hdl.Signal, ages *AgeMatrix) {
	ages = NewAgeMatrix(m, name, ways)
	ages.Touch(plant("lru.touch_way", way), touch)
	_, victim, _ = ages.Oldest(m.ConstU(1, 1).Repl(ways))
	return victim, ages
}

// LRU is the lib-lru unit: true LRU of one set of Ways ways (2..8);
// LRUPorts are its ports.
type LRU struct{ Ways int }

// ModuleName is the module's name with its parameters: lib_lru_w4.
func (l LRU) ModuleName() string { return fmt.Sprintf("lib_lru_w%d", l.Ways) }

// LRUPorts are lib-lru's ports, and lib-plru's (DESIGN.md, lib-lru).
type LRUPorts struct {
	Touch    *hdl.Signal `doc:"way touch_way is used at the edge"`
	TouchWay *hdl.Signal `doc:"[WW-1:0] the way used"`
	Victim   *hdl.Signal `doc:"[WW-1:0] the way to replace"`
}

// Build makes the module called name.
func (l LRU) Build(name string) *hdl.Module { return hdl.ModuleOf(l.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (l LRU) WithPorts(name string) (*hdl.Module, LRUPorts) {
	return replacementUnit(name, l.Ways, func(m *hdl.Module, touch, way *hdl.Signal) *hdl.Signal {
		victim, ages := TrueLRU(m, "older", l.Ways, touch, way)
		ages.properties(m, way, touch)
		m.Assert(hdl.Select(victim, ages.anyOlder(m.ConstU(1, 1).Repl(l.Ways))...).Not(), "victim_is_least_recent", "a way is older than the victim: it is not the least recently used")
		coverVictims(m, victim, l.Ways)
		return victim
	})
}

// replacementUnit is a module with lib-lru's ports around the replacement
// state that state makes.
func replacementUnit(name string, ways int, state func(m *hdl.Module, touch, way *hdl.Signal) (victim *hdl.Signal)) (*hdl.Module, LRUPorts) {
	m := hdl.NewModule(name)
	ww := IndexWidth(ways)
	victim := m.Output("victim", ww)
	ports := LRUPorts{Touch: m.Input("touch", 1), TouchWay: m.Input("touch_way", ww), Victim: victim}
	victim.Drive(state(m, ports.Touch, ports.TouchWay))
	return m, ports
}

// coverVictims makes a cover point for each way becoming the victim.
func coverVictims(m *hdl.Module, victim *hdl.Signal, ways int) {
	for w := range ways {
		m.Cover(victim.EqConst(uint64(w)), fmt.Sprintf("victim_%d", w))
	}
}
