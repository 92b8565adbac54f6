package hdl

// Array is an indexed set of registers, each a record T (or a plain
// *Signal): the entries of a CAM, the tags of a cache set, the slots of a
// queue. Element i's fields are named <name>_<field>_<i> (<name>_<i> for a
// plain signal). Read is a multiplexer on a dynamic index; Write, under the
// current condition, loads one element chosen by a dynamic index through
// decoded enables.
//
//	type entry struct{ Valid, Tag *hdl.Signal }
//	tags := hdl.RegArray(m, "e", 8, func(f hdl.Fields) entry {
//		return entry{Valid: f("valid", 1), Tag: f("tag", 20)}
//	})
//	hit := tags.Read(idx)                  // e_valid_<idx>, e_tag_<idx>
//	m.If(fill, func() { tags.Write(victim, entry{Valid: one, Tag: tag}) })
type Array[T any] struct {
	m     *Module
	name  string
	elems []T
}

// RegArray declares n registers (each reset to zero) made by fields, named
// after name and the element index.
func RegArray[T any](m *Module, name string, n int, fields func(f Fields) T) *Array[T] {
	pos := callerPos()
	if n < 1 {
		m.errorf(pos, "RegArray %q: %d elements; need at least 1", name, n)
		n = 1
	}
	a := &Array[T]{m: m, name: name}
	for i := range n {
		a.elems = append(a.elems, fields(func(field string, width int) *Signal {
			s := m.add(pos, OpReg, width, fieldName(name, field, []int{i}), nil, nil)
			s.val = Zero(s.width)
			return s
		}))
	}
	return a
}

// Len returns the number of elements.
func (a *Array[T]) Len() int { return len(a.elems) }

// At returns element i.
func (a *Array[T]) At(i int) T { return a.elems[i] }

// Elems returns every element in index order.
func (a *Array[T]) Elems() []T { return append([]T(nil), a.elems...) }

// Read returns element idx (zeros when idx is past the end).
func (a *Array[T]) Read(idx *Signal) T {
	return SelectRecord(idx, a.elems...)
}

// Write makes element idx take v at the next edge, under the current
// condition (an idx past the end writes nothing); the other elements keep
// their values unless assigned elsewhere.
func (a *Array[T]) Write(idx *Signal, v T) {
	pos := callerPos()
	if idx == nil || idx.mod != a.m {
		a.m.errorf(pos, "Write %q: the index is nil or belongs to another module", a.name)
		return
	}
	for i, e := range a.elems {
		if idx.width < 64 && uint64(i) >= 1<<uint(idx.width) {
			break
		}
		a.m.If(a.m.decode(pos, idx, uint64(i)), func() { SetRecord(e, v) })
	}
}

// decodeKey names one comparator idx == k.
type decodeKey struct {
	idx *Signal
	k   uint64
}

// decode returns idx == k, made once per module.
func (m *Module) decode(pos Pos, idx *Signal, k uint64) *Signal {
	key := decodeKey{idx, k}
	if s, ok := m.decoded[key]; ok {
		return s
	}
	if m.decoded == nil {
		m.decoded = map[decodeKey]*Signal{}
	}
	c := m.add(pos, OpConst, idx.width, "")
	c.val = MustU(idx.width, k)
	s := m.add(pos, OpEq, 1, "", idx, c)
	m.decoded[key] = s
	return s
}
