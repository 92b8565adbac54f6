package vmshr

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// MatchBlock is the vmshr-match unit: the PMSHR tag search of thesis
// Fig. 6.5, with the dashed squares of Fig. 6.5(b) (Table 6.1) unless
// Base.
//
//	in blk[Aw-1:0]; for i < M: in v_<i>, y_<i>, tag_<i>[Aw-1:0], hbs_<i>[GW-1:0]
//	out hit_<i>, cov_<i> for i < M; out hit, hit_idx[EW-1:0], primary
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

// matchPorts are vmshr-match's ports, a record so that the MSHR file
// places its instance with one hdl.Use.
type matchPorts struct {
	Blk            *hdl.Signal
	V, Y, Tag, HBS []*hdl.Signal
	Hit, Cov       []*hdl.Signal
	Any, Idx       *hdl.Signal // hit, hit_idx
	Primary        *hdl.Signal
}

// hbsWidth is GW = max(1, ceil(log2(hmax+1))): an HBS from 0 to hmax.
func hbsWidth(hmax int) int { return lib.IndexWidth(hmax + 1) }

// Build makes the module called name.
func (c MatchBlock) Build(name string) *hdl.Module {
	m, _ := c.build(name)
	return m
}

func (c MatchBlock) build(name string) (*hdl.Module, matchPorts) {
	m := hdl.NewModule(name)
	gw := hbsWidth(c.Hmax)
	p := matchPorts{Blk: m.Input("blk", c.Aw)}
	for i := range c.M {
		p.V = append(p.V, m.Input(fmt.Sprintf("v_%d", i), 1))
		p.Y = append(p.Y, m.Input(fmt.Sprintf("y_%d", i), 1))
		p.Tag = append(p.Tag, m.Input(fmt.Sprintf("tag_%d", i), c.Aw))
		p.HBS = append(p.HBS, m.Input(fmt.Sprintf("hbs_%d", i), gw))
	}
	hits := make([]*hdl.Signal, c.M)
	either := make([]*hdl.Signal, c.M)
	for i := range c.M {
		hi, lo := splitCompare(p.Tag[i], p.Blk, c.Hmax)
		hits[i] = p.V[i].And(sameBlock(hi, lo))
		cov := m.ConstU(1, 0)
		either[i] = hits[i]
		if !c.Base {
			cov = p.V[i].And(p.Y[i].Not()).And(sameHyper(hi, lo, thermometer(p.HBS[i], c.Hmax)))
			either[i] = hits[i].Or(cov)
		}
		p.Hit = append(p.Hit, m.Output(fmt.Sprintf("hit_%d", i), 1))
		p.Hit[i].Drive(hits[i])
		p.Cov = append(p.Cov, m.Output(fmt.Sprintf("cov_%d", i), 1))
		p.Cov[i].Drive(cov)
	}
	any, idx, _ := lib.Priority(lib.Bus(hits), false)
	p.Any, p.Idx, p.Primary = m.Output("hit", 1), m.Output("hit_idx", lib.IndexWidth(c.M)), m.Output("primary", 1)
	p.Any.Drive(any)
	p.Idx.Drive(idx)
	p.Primary.Drive(lib.Bus(either).RedOr().Not())
	return m, p
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
