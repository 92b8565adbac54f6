package elastic

import (
	"fmt"
	"math/bits"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// HistoryCacheBlock is the elastic-bchc unit: the bank conflict history
// cache of thesis 5.5.2 (Fig. 5.7, Table 5.3), Sets sets of Ways lines of
// (valid, tag, value), set = pc mod Sets, tag = pc / Sets (Pcw - log2 Sets
// bits), value = a warp's zero-aligned conflict degree (log2 Warp bits);
// HistoryCachePorts are its ports.
//
// Tags and values of way w live in the memory line_<w> (Sets words, the
// storage Table 5.3 counts); valid bits and the true-LRU order of each set
// are registers, cleared by clear (kernel launch) and rst.
type HistoryCacheBlock struct {
	Sets, Ways, Pcw, Warp int
}

// tagWidth is the bits of a tag: Pcw - log2 Sets (Table 5.3, with the
// journal's lost minus sign restored).
func (c HistoryCacheBlock) tagWidth() int { return c.Pcw - bits.Len(uint(c.Sets-1)) }

// valueWidth is VW = log2 Warp.
func (c HistoryCacheBlock) valueWidth() int { return bits.Len(uint(c.Warp - 1)) }

// HistoryCachePorts are elastic-bchc's ports, a record so that
// elastic-warpmask connects its instance in one call.
type HistoryCachePorts struct {
	Clear *hdl.Signal `doc:"invalidate every line (kernel launch, 5.5.2)"`
	// The read port looks a PC up at scheduling (Fig. 5.7).
	RdEn  *hdl.Signal `doc:"read port: look rd_pc up"`
	RdPC  *hdl.Signal `doc:"[pcw-1:0] read port: the PC"`
	RdHit *hdl.Signal `doc:"read port: rd_en and a valid line holds tag(rd_pc)"`
	RdVal *hdl.Signal `doc:"[VW-1:0] read port: the hit line's value, else 0"`
	// The write port records a warp's conflict degree at its last
	// subwarp.
	WrEn    *hdl.Signal `doc:"write port: record wr_value for wr_pc"`
	WrPC    *hdl.Signal `doc:"[pcw-1:0] write port: the PC"`
	WrValue *hdl.Signal `doc:"[VW-1:0] write port: a warp's conflict degree"`
}

func (c HistoryCacheBlock) ports(m *hdl.Module) HistoryCachePorts {
	in, out, vw := m.InputFields(""), m.OutputFields(""), c.valueWidth()
	return HistoryCachePorts{
		Clear: in("clear", 1),
		RdEn:  in("rd_en", 1), RdPC: in("rd_pc", c.Pcw),
		RdHit: out("rd_hit", 1), RdVal: out("rd_value", vw),
		WrEn: in("wr_en", 1), WrPC: in("wr_pc", c.Pcw), WrValue: in("wr_value", vw),
	}
}

// cacheLine is one way of a set as the memory holds it.
type cacheLine struct{ Tag, Value *hdl.Signal }

// Build makes the module called name.
func (c HistoryCacheBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (c HistoryCacheBlock) WithPorts(name string) (*hdl.Module, HistoryCachePorts) {
	m := hdl.NewModule(name)
	vw, tw := c.valueWidth(), c.tagWidth()
	p := c.ports(m)
	setBits := c.Pcw - tw
	split := func(pc *hdl.Signal) (set, tag *hdl.Signal) {
		set = m.ConstU(1, 0) // one set: every pc maps to it
		if setBits > 0 {
			set = pc.Slice(setBits-1, 0)
		}
		return set, pc.Slice(c.Pcw-1, setBits)
	}
	shape := cacheLine{Tag: m.ConstU(tw, 0), Value: m.ConstU(vw, 0)}
	lines := make([]*hdl.Mem, c.Ways)
	for w := range lines {
		lines[w] = m.MemDepth(lineName(w), c.Sets, tw+vw)
	}
	valid := hdl.RegArray(m, "valid", c.Sets, func(f hdl.Fields) *hdl.Signal { return f("", c.Ways) })
	lru := lib.NewAgeArray(m, "lru", c.Sets, c.Ways)

	// lookup reads set(pc)'s lines: the valid bits and one-hot ways
	// holding tag(pc).
	lookup := func(pc *hdl.Signal) (set, tag, valids, match *hdl.Signal, ways []cacheLine) {
		set, tag = split(pc)
		valids = valid.Read(set)
		var hits []*hdl.Signal
		for w, mem := range lines {
			line := hdl.Unpack(mem.Read(set), shape)
			ways = append(ways, line)
			hits = append(hits, valids.Bit(w).And(line.Tag.Eq(tag)))
		}
		return set, tag, valids, lib.Bus(hits), ways
	}

	// Read port (combinational, the state before the edge).
	rdSet, _, _, rdMatch, rdWays := lookup(p.RdPC)
	rdHits := rdMatch.And(p.RdEn.Repl(c.Ways))
	rdHit := rdHits.RedOr()
	values := make([]*hdl.Signal, c.Ways)
	for w, line := range rdWays {
		values[w] = line.Value
	}
	p.RdHit.Drive(rdHit)
	p.RdVal.Drive(hdl.OneHotSelect(rdHits, values...))

	// Write port: the matching line, else the lowest invalid way, else
	// the least recently used way once the read's hit is counted (a way
	// the read touches in wr_pc's set is the youngest, so it is not the
	// victim).
	wrSet, wrTag, wrValids, wrMatch, _ := lookup(p.WrPC)
	touchedHere := rdHits.And(rdHit.And(rdSet.Eq(wrSet)).Repl(c.Ways))
	_, lruWay, _ := lru.Oldest(wrSet, touchedHere.Not())
	_, freeWay, _ := lib.Priority(wrValids.Not(), false)
	way := hdl.Mux(wrMatch.RedOr(), lib.OneHotToBinary(wrMatch),
		hdl.Mux(wrValids.RedAnd(), lruWay, freeWay))

	live := p.Clear.Not()
	// (1) a read hit makes its line the most recently used of its set
	lru.Touch(rdSet, lib.OneHotToBinary(rdHits), rdHit.And(live))
	// (2) the write fills or updates its line, which becomes the most
	// recently used
	write := p.WrEn.And(live)
	line := hdl.Pack(cacheLine{Tag: wrTag, Value: p.WrValue})
	for w, mem := range lines {
		mem.Write(wrSet, line, write.And(way.EqConst(uint64(w))))
	}
	m.If(write, func() { valid.Write(wrSet, wrValids.Or(lib.BinaryToOneHot(way, c.Ways))) })
	lru.Touch(wrSet, way, write)
	// rst or clear (kernel launch): every line invalid, nothing else
	m.If(p.Clear, func() {
		for _, v := range valid.Elems() {
			v.SetU(0)
		}
	})
	c.properties(m, cacheState{clear: p.Clear, valid: valid.Elems(), lru: lru, setWidth: rdSet.Width(),
		rdHits: rdHits, write: write, wrMatch: wrMatch.RedOr(), wrFull: wrValids.RedAnd(), touched: touchedHere})
	return m, p
}

func lineName(way int) string { return fmt.Sprintf("line_%d", way) }
