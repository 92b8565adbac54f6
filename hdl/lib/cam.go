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

// CAM is the lib-cam unit: N entries of W-bit keys with a valid bit each.
//
//	clk, rst; in write, write_idx[IW-1:0], write_key[W-1:0],
//	   clear, clear_idx[IW-1:0], key[W-1:0];
//	out hit, idx[IW-1:0], match[N-1:0]
//
// At an edge, clear invalidates entry clear_idx and write stores
// write_key in entry write_idx and validates it (write wins when both
// name one entry). The lookup is combinational: match has a bit per valid
// entry holding key, idx is the lowest of them, hit = match != 0.
type CAM struct{ N, W int }

// ModuleName is the module's name with its parameters: lib_cam_n8_w8.
func (c CAM) ModuleName() string { return fmt.Sprintf("lib_cam_n%d_w%d", c.N, c.W) }

// Build makes the module called name.
func (c CAM) Build(name string) *hdl.Module {
	type entry struct{ Valid, Key *hdl.Signal }
	m := hdl.NewModule(name)
	iw := IndexWidth(c.N)
	write, writeIdx, writeKey := m.Input("write", 1), m.Input("write_idx", iw), m.Input("write_key", c.W)
	clear, clearIdx, key := m.Input("clear", 1), m.Input("clear_idx", iw), m.Input("key", c.W)

	entries := hdl.RegArray(m, "e", c.N, func(f hdl.Fields) entry { return entry{f("valid", 1), f("key", c.W)} })
	valid := make([]*hdl.Signal, c.N)
	keys := make([]*hdl.Signal, c.N)
	for i, e := range entries.Elems() {
		valid[i], keys[i] = e.Valid, e.Key
		m.If(clear.And(clearIdx.EqConst(uint64(i))), func() { e.Valid.SetU(0) })
	}
	m.If(write, func() { entries.Write(writeIdx, entry{m.ConstU(1, 1), writeKey}) })

	match := Match(key, keys, Bus(valid))
	hit, idx, _ := Priority(match, false)
	m.Output("hit", 1).Drive(hit)
	m.Output("idx", iw).Drive(idx)
	m.Output("match", c.N).Drive(match)
	return m
}
