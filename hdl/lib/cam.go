package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// Match is a content-addressable lookup: bit i is 1 when entry i is valid
// and its key equals key (one comparator per entry, all in parallel).
// For the vector MSHR's tag match (thesis 6.4), the bank-conflict
// history cache's tags and the DRAM MIB.
func Match(key *hdl.Signal, keys []*hdl.Signal, valid *hdl.Signal) *hdl.Signal {
	hits := make([]*hdl.Signal, len(keys))
	for i, k := range keys {
		hits[i] = valid.Bit(i).And(k.Eq(key))
	}
	return Bus(hits)
}

// CAM is the lib-cam unit: N entries of W-bit keys with a valid bit each;
// CAMPorts are its ports. At an edge, clear invalidates entry clear_idx
// and write stores write_key in entry write_idx and validates it (write
// wins when both name one entry). The lookup is combinational: match has
// a bit per valid entry holding key, idx is the lowest of them, hit =
// match != 0.
type CAM struct{ N, W int }

// ModuleName is the module's name with its parameters: lib_cam_n8_w8.
func (c CAM) ModuleName() string { return fmt.Sprintf("lib_cam_n%d_w%d", c.N, c.W) }

// CAMPorts are lib-cam's ports (DESIGN.md, lib-cam).
type CAMPorts struct {
	Write    *hdl.Signal `doc:"store write_key in entry write_idx and validate it"`
	WriteIdx *hdl.Signal `doc:"[IW-1:0] the entry written"`
	WriteKey *hdl.Signal `doc:"[w-1:0] the key written"`
	Clear    *hdl.Signal `doc:"invalidate entry clear_idx"`
	ClearIdx *hdl.Signal `doc:"[IW-1:0] the entry cleared"`
	Key      *hdl.Signal `doc:"[w-1:0] the key looked up"`
	Hit      *hdl.Signal `doc:"a valid entry holds key: match != 0"`
	Idx      *hdl.Signal `doc:"[IW-1:0] the lowest matching entry, 0 when none"`
	Match    *hdl.Signal `doc:"[n-1:0] a bit per valid entry holding key"`
}

// Build makes the module called name.
func (c CAM) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (c CAM) WithPorts(name string) (*hdl.Module, CAMPorts) {
	type entry struct{ Valid, Key *hdl.Signal }
	m := hdl.NewModule(name)
	iw := IndexWidth(c.N)
	ports := CAMPorts{Write: m.Input("write", 1), WriteIdx: m.Input("write_idx", iw), WriteKey: m.Input("write_key", c.W),
		Clear: m.Input("clear", 1), ClearIdx: m.Input("clear_idx", iw), Key: m.Input("key", c.W)}

	entries := hdl.RegArray(m, "e", c.N, func(f hdl.Fields) entry { return entry{f("valid", 1), f("key", c.W)} })
	valid := make([]*hdl.Signal, c.N)
	keys := make([]*hdl.Signal, c.N)
	for i, e := range entries.Elems() {
		valid[i], keys[i] = e.Valid, e.Key
		m.If(ports.Clear.And(ports.ClearIdx.EqConst(uint64(i))), func() { e.Valid.SetU(0) })
	}
	m.If(ports.Write, func() { entries.Write(ports.WriteIdx, entry{m.ConstU(1, 1), ports.WriteKey}) })

	match := Match(ports.Key, keys, Bus(valid))
	hit, idx, _ := Priority(match, false)
	ports.Hit = drivenBy(m.Output("hit", 1), hit)
	ports.Idx = drivenBy(m.Output("idx", iw), idx)
	ports.Match = drivenBy(m.Output("match", c.N), match)
	c.properties(m, ports, Bus(valid), keys)
	return m, ports
}

// properties states what the CAM promises (DESIGN.md, lib-cam): hit says
// whether an entry matches and idx is the lowest that does; the entry
// written last, kept in ghost registers, holds its key (and a lookup of
// that key hits it) until it is cleared or written again, and the entry
// cleared last stays invalid until it is written. The ghosts follow the
// ports, so each property holds after an edge given it held before: they
// are inductive as they stand.
func (c CAM) properties(m *hdl.Module, p CAMPorts, valid *hdl.Signal, keys []*hdl.Signal) {
	iw := p.Idx.Width()
	m.Assert(p.Hit.Eq(p.Match.RedOr()), "hit_iff_match", "hit does not say whether an entry matches")
	lowest := BinaryToOneHot(p.Idx, c.N)
	m.Assert(p.Hit.Not().Or(p.Match.And(lowest).RedOr().And(p.Match.And(lowest.Sub(m.ConstU(c.N, 1))).RedOr().Not())),
		"idx_is_lowest_match", "idx is not the lowest matching entry")

	wrote, wIdx, wKey := m.Reg("ghost_written", 1), m.Reg("ghost_written_idx", iw), m.Reg("ghost_written_key", c.W)
	cleared, cIdx := m.Reg("ghost_cleared", 1), m.Reg("ghost_cleared_idx", iw)
	write := p.Write.And(below(p.WriteIdx, c.N)) // a write past the end writes nothing
	clear := p.Clear.And(write.And(p.WriteIdx.Eq(p.ClearIdx)).Not())
	m.If(write, func() { wrote.SetU(1); wIdx.Set(p.WriteIdx); wKey.Set(p.WriteKey) }).
		Elif(clear.And(p.ClearIdx.Eq(wIdx)), func() { wrote.SetU(0) })
	m.If(clear.And(below(p.ClearIdx, c.N)), func() { cleared.SetU(1); cIdx.Set(p.ClearIdx) }).
		Elif(write.And(p.WriteIdx.Eq(cIdx)), func() { cleared.SetU(0) })
	holds := hdl.Select(wIdx, Split(valid)...).And(hdl.Select(wIdx, keys...).Eq(wKey))
	m.Assert(wrote.Not().Or(holds), "written_key_held", "the entry written last lost its key or its valid bit before it was cleared or written again")
	m.Assert(wrote.And(p.Key.Eq(wKey)).Not().Or(hdl.Select(wIdx, Split(p.Match)...)), "written_key_found", "a lookup of the key written last misses its entry")
	NeverBoth(m, cleared, hdl.Select(cIdx, Split(valid)...), "cleared_stays_invalid", "the entry cleared last is valid before it was written again")
	m.Cover(p.Write.And(p.Clear).And(p.WriteIdx.Eq(p.ClearIdx)), "write_wins_over_clear")
	if c.N > 1 {
		m.Cover(p.Match.And(p.Match.Sub(m.ConstU(c.N, 1))).RedOr(), "several_match")
	}
	m.Cover(valid.RedAnd(), "all_valid")
}
