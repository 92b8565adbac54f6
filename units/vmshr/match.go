package vmshr

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// MatchBlock is the vmshr-match unit: the PMSHR tag search of thesis
// Fig. 6.5, with the dashed squares of Fig. 6.5(b) (Table 6.1) unless
// Base; MatchPorts are its ports.
//
// hit_i = v_i & tag_i == blk; cov_i = !Base & v_i & !y_i & tag_i >>
// g(hbs_i) == blk >> g(hbs_i); hit_idx is the lowest hit (0 when none);
// primary is the M-input NOR of hit_i | cov_i. With Base, y_<i> and
// hbs_<i> are there (the same ports, so the costs compare) and unused.
//
// Fig. 6.5(b) splits each entry's comparator in two: the bits above Hmax
// compare as one equality, the Hmax low bits one XNOR each; hit ANDs all
// of them, cov ORs each low bit k with "k < g(hbs_i)" (a thermometer
// decode of hbs_i, which we read as Table 6.1's per-entry comparator on
// HBS, and ANDs) before the AND, so a block inside the pending hyper
// block compares equal there. Both share the XNORs and the high compare.
// Base builds the same hit compare without the cover terms, so the two
// differ by the cover logic Table 6.1 counts (vmshr-cost measures it).
type MatchBlock struct {
	M, Hmax, Aw int
	Base        bool
}

// MatchPorts are vmshr-match's ports (Fig. 6.5's tag search), in the
// order of the module's ports, so that the MSHR file places its instance
// with one hdl.Use.
type MatchPorts struct {
	In  MatchIn
	Out MatchOut
}

// MatchIn is what the search reads: the request's block and the PMSHRs'
// fields of Fig. 6.5, lane i for PMSHR i < M.
type MatchIn struct {
	Blk *hdl.Signal `doc:"[aw-1:0] the request's normal-block address"`
	// PMSHR i's valid and ready bits, its block tag and its hyper block
	// size (6.3.1); Base reads neither Y nor HBS.
	V   []*hdl.Signal `doc:"V of PMSHR i"`
	Y   []*hdl.Signal `doc:"Y (data ready) of PMSHR i"`
	Tag []*hdl.Signal `doc:"[aw-1:0] tag of PMSHR i"`
	HBS []*hdl.Signal `doc:"[GW-1:0] HBS of PMSHR i"`
}

// MatchOut is the search's result.
type MatchOut struct {
	Hit []*hdl.Signal `doc:"PMSHR i holds blk"`
	// Cov is Table 6.1's cover logic, 0 with Base.
	Cov []*hdl.Signal `doc:"PMSHR i's pending hyper block covers blk"`
	Any *hdl.Signal   `doc:"some hit_i"`
	Idx *hdl.Signal   `doc:"[EW-1:0] the lowest i with hit_i, 0 when none"`
	// Primary is Fig. 6.5's M-input NOR.
	Primary *hdl.Signal `doc:"no hit_i and no cov_i (Table 6.1's NOR)"`
}

// hbsWidth is GW = max(1, ceil(log2(hmax+1))): an HBS from 0 to hmax.
func hbsWidth(hmax int) int { return lib.IndexWidth(hmax + 1) }

// Build makes the module called name.
func (c MatchBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (c MatchBlock) WithPorts(name string) (*hdl.Module, MatchPorts) {
	m := hdl.NewModule(name)
	gw := hbsWidth(c.Hmax)
	in := MatchIn{Blk: m.Input("blk", c.Aw), V: make([]*hdl.Signal, c.M), Y: make([]*hdl.Signal, c.M),
		Tag: make([]*hdl.Signal, c.M), HBS: make([]*hdl.Signal, c.M)}
	for i := range c.M {
		f := m.InputFields("", i)
		in.V[i], in.Y[i], in.Tag[i], in.HBS[i] = f("v", 1), f("y", 1), f("tag", c.Aw), f("hbs", gw)
	}
	out := MatchOut{Hit: make([]*hdl.Signal, c.M), Cov: make([]*hdl.Signal, c.M)}
	hits := make([]*hdl.Signal, c.M)
	either := make([]*hdl.Signal, c.M)
	for i := range c.M {
		hi, lo := splitCompare(in.Tag[i], in.Blk, c.Hmax)
		hits[i] = in.V[i].And(sameBlock(hi, lo))
		cov := m.ConstU(1, 0)
		either[i] = hits[i]
		if !c.Base {
			cov = in.V[i].And(in.Y[i].Not()).And(sameHyper(hi, lo, thermometer(in.HBS[i], c.Hmax)))
			either[i] = hits[i].Or(cov)
		}
		f := m.OutputFields("", i)
		out.Hit[i], out.Cov[i] = f("hit", 1), f("cov", 1)
		out.Hit[i].Drive(hits[i])
		out.Cov[i].Drive(cov)
	}
	any, idx, _ := lib.Priority(lib.Bus(hits), false)
	out.Any, out.Idx, out.Primary = m.Output("hit", 1), m.Output("hit_idx", lib.IndexWidth(c.M)), m.Output("primary", 1)
	out.Any.Drive(any)
	out.Idx.Drive(idx)
	out.Primary.Drive(lib.Bus(either).RedOr().Not())
	c.properties(m, in, out)
	return m, MatchPorts{in, out}
}

// properties states the search's contract (DESIGN.md, vmshr-match; Fig.
// 6.5, Table 6.1): hit_idx names the lowest hit, a hit is never primary,
// a pending block covers itself (cov_i wherever hit_i and not y_i), and
// Base covers nothing. The cover points are Fig. 6.5's three answers
// (secondary: a hit; deferred: a cover without a hit; primary). Two hits
// at once, which the inputs may carry, is no cover point: inside the MSHR
// file, which never makes them, it would be dead.
func (c MatchBlock) properties(m *hdl.Module, in MatchIn, out MatchOut) {
	hits := lib.Bus(out.Hit)
	var lowest []*hdl.Signal
	for i := range c.M {
		below := m.ConstU(1, 0)
		if i > 0 {
			below = hits.Slice(i-1, 0).RedOr()
		}
		lowest = append(lowest, out.Idx.EqConst(uint64(i)).Not().Or(out.Hit[i].And(below.Not())))
	}
	m.If(out.Any, func() {
		m.Assert(lib.Bus(lowest).RedAnd(), "hit_idx_lowest_hit", "hit_idx does not name the lowest hit")
	})
	lib.NeverBoth(m, out.Any, out.Primary, "hit_not_primary", "a hit PMSHR's block is a primary load")
	covs := lib.Bus(out.Cov)
	if c.Base {
		m.Assert(covs.RedOr().Not(), "base_covers_nothing", "the baseline's search reports a cover")
	} else {
		self := hits.And(lib.Bus(in.Y).Not()).And(covs.Not())
		m.Assert(self.RedOr().Not(), "pending_block_covers_itself", "a pending PMSHR holding blk does not cover it")
		if c.Hmax > 0 { // at hmax 0 a cover is a hit
			m.Cover(covs.RedOr().And(out.Any.Not()), "deferred")
		}
	}
	m.Cover(out.Any, "secondary")
	m.Cover(out.Primary, "primary")
}

// splitCompare is Fig. 6.5(b)'s comparator split in two: hi is 1 when the
// bits of tag above hmax equal blk's, lo has bit k (k < hmax) 1 when tag
// and blk agree in bit k (nil when hmax is 0).
func splitCompare(tag, blk *hdl.Signal, hmax int) (hi, lo *hdl.Signal) {
	aw := tag.Width()
	hi = tag.Slice(aw-1, hmax).Eq(blk.Slice(aw-1, hmax))
	if hmax > 0 {
		lo = tag.Slice(hmax-1, 0).Xor(blk.Slice(hmax-1, 0)).Not()
	}
	return hi, lo
}

// sameBlock is tag == blk from the split compare.
func sameBlock(hi, lo *hdl.Signal) *hdl.Signal {
	if lo == nil {
		return hi
	}
	return hi.And(lo.RedAnd())
}

// sameHyper is tag >> h == blk >> h from the split compare and the
// thermometer code of h: a low bit counts only at or above h.
func sameHyper(hi, lo, therm *hdl.Signal) *hdl.Signal {
	if lo == nil {
		return hi
	}
	return hi.And(lo.Or(therm).RedAnd())
}

// thermometer decodes an HBS into hmax bits, bit k = (k < g(hbs)) =
// (hbs > k): the low bits of a block address that lie inside the hyper
// block of 2^g(hbs) normal blocks. It is nil when hmax is 0.
func thermometer(hbs *hdl.Signal, hmax int) *hdl.Signal {
	if hmax == 0 {
		return nil
	}
	m := hbs.Module()
	bits := make([]*hdl.Signal, hmax)
	for k := range hmax {
		bits[k] = hbs.Gt(m.ConstU(hbs.Width(), uint64(k)))
	}
	return lib.Bus(bits)
}
