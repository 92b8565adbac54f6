package smm2d

import (
	"fmt"
	"io"

	"github.com/parmem/parmem/internal/sweep"
)

// Appendix B's theorems on the spec model, checked exhaustively over small
// geometries (the fidelity claims and the spec tests): every geometry
// 1 <= p <= q, p+q <= 5 with mb = p+3 and nb = p+q+2, both forms of m_v,
// every vs in 0..mb-p and hs in 0..nb-q, every base, and strides
// sigma*2^e (mod M or N) for sigma in {1, 3, -1}. Each access Supported
// accepts must lie in 2^(p+q) different banks (Theorems 1-6) and group as
// Theorem 7 says, and (i, j) -> (bank, r(i, j)) must be one to one (the
// row function Theorem 6 justifies). check/smm2d proves Theorems 1-6 on
// the AGU and ATU netlists with Yosys's SAT solver (make prove).

// checkGeometries are the geometries the check covers: 1 <= p <= q,
// p+q <= 5, mb = p+3, nb = p+q+2.
func checkGeometries() []Geometry {
	var gs []Geometry
	for p := 1; 2*p <= 5; p++ {
		for q := p; p+q <= 5; q++ {
			gs = append(gs, Geometry{P: p, Q: q, MB: p + 3, NB: p + q + 2})
		}
	}
	return gs
}

// formSchemes are g's schemes of one form: every vs in 0..mb-p, hs in
// 0..nb-q.
func formSchemes(g Geometry, post bool) []Scheme {
	var ss []Scheme
	for vs := 0; vs <= g.MB-g.P; vs++ {
		for hs := 0; hs <= g.NB-g.Q; hs++ {
			ss = append(ss, Scheme{Geometry: g, VS: vs, HS: hs, Post: post})
		}
	}
	return ss
}

// checkSigmas are the odd multipliers of the strides; -1 is taken mod 2^w.
var checkSigmas = []int64{1, 3, -1}

// oddStride is sigma*2^e mod 2^w.
func oddStride(sigma int64, e, w int) uint64 { return uint64(sigma<<uint(e)) & mask(w) }

// bankTable is a Scheme's m_v, m_h and bank of every element of the
// M x N array, indexed i<<NB | j: the check's hot loops read it instead
// of computing Mv and Mh per lane.
type bankTable struct {
	Scheme
	mv, mh, bank []uint8
}

func newBankTable(s Scheme) *bankTable {
	n := 1 << uint(s.MB+s.NB)
	tb := &bankTable{Scheme: s, mv: make([]uint8, n), mh: make([]uint8, n), bank: make([]uint8, n)}
	for i := range uint64(1) << uint(s.MB) {
		for j := range uint64(1) << uint(s.NB) {
			x := i<<uint(s.NB) | j
			tb.mv[x] = uint8(s.Mv(i, j))
			tb.mh[x] = uint8(s.Mh(j))
			tb.bank[x] = uint8(s.Bank(i, j))
		}
	}
	return tb
}

// at is the table index of (i, j) taken mod M and N.
func (tb *bankTable) at(i, j uint64) uint64 {
	return (i&mask(tb.MB))<<uint(tb.NB) | j&mask(tb.NB)
}

// place is the access of lane offsets (di, dj) (the access from base
// (0, 0)) moved to base (bi, bj), mod M and N: it fills mv and mh lane by
// lane and says whether the lanes' banks are pairwise different.
func (tb *bankTable) place(bi, bj uint64, di, dj []uint64, mv, mh []uint64) bool {
	mM, mN, nb := mask(tb.MB), mask(tb.NB), uint(tb.NB)
	var used uint64
	free := true
	for k := range di {
		x := ((bi+di[k])&mM)<<nb | (bj+dj[k])&mN
		b := tb.bank[x]
		if used>>b&1 != 0 {
			free = false
		}
		used |= 1 << b
		mv[k], mh[k] = uint64(tb.mv[x]), uint64(tb.mh[x])
	}
	return free
}

// injective says whether (i, j) -> (bank, r(i, j)) is one to one on the
// table's M x N array.
func (tb *bankTable) injective() bool {
	seen := make([]uint64, len(tb.bank)/64+1)
	rw := uint(tb.RW())
	for i := range uint64(1) << uint(tb.MB) {
		for j := range uint64(1) << uint(tb.NB) {
			key := uint64(tb.bank[tb.at(i, j)])<<rw | tb.Row(i, j)
			if seen[key/64]>>(key%64)&1 != 0 {
				return false
			}
			seen[key/64] |= 1 << (key % 64)
		}
	}
	return true
}

// accessStrides are the (VS, HS) the check gives a pattern: sigma*2^vs
// and sigma*2^hs with sigma in checkSigmas for the strides the pattern
// reads (the strided row reads HS only, the continuous patterns neither:
// Figure 3.10), 2^vs and 2^hs for the others.
func accessStrides(s Scheme, pat Pattern) [][2]uint64 {
	vs := []uint64{oddStride(1, s.VS, s.MB)}
	hs := []uint64{oddStride(1, s.HS, s.NB)}
	if pat == StridedBlock || pat == ForwardDiagonal || pat == BackwardDiagonal {
		vs = nil
		for _, sigma := range checkSigmas {
			vs = append(vs, oddStride(sigma, s.VS, s.MB))
		}
	}
	if pat != ContinuousRow && pat != ContinuousBlock {
		hs = nil
		for _, sigma := range checkSigmas {
			hs = append(hs, oddStride(sigma, s.HS, s.NB))
		}
	}
	var out [][2]uint64
	for _, v := range vs {
		for _, h := range hs {
			out = append(out, [2]uint64{v, h})
		}
	}
	return out
}

// TheoremCheck is what the check found on some of its schemes.
type TheoremCheck struct {
	// Accepted counts by pattern the accesses Supported accepts;
	// Conflicting those of them whose lanes share a bank (Theorems 1-6),
	// Unroutable those the router's grouping rejects (Theorem 7).
	Accepted, Conflicting, Unroutable [6]int
	// Empty counts by pattern the schemes within the theorems' bounds on
	// which Supported accepts no access (a theorem would hold on nothing);
	// Beyond the strided rows accepted beyond Theorem 1's hs <= nb-p-q,
	// where lanes repeat elements.
	Empty  [6]int
	Beyond int
	// Schemes counts the schemes checked, Collisions those on which two
	// elements share a bank and a row.
	Schemes, Collisions int
	// Failures describe the first few failures of any kind.
	Failures []string
}

// maxFailures bounds TheoremCheck.Failures.
const maxFailures = 5

func (c *TheoremCheck) fail(format string, args ...any) {
	if len(c.Failures) < maxFailures {
		c.Failures = append(c.Failures, fmt.Sprintf(format, args...))
	}
}

// add sums o into c.
func (c *TheoremCheck) add(o TheoremCheck) {
	for pat := range c.Accepted {
		c.Accepted[pat] += o.Accepted[pat]
		c.Conflicting[pat] += o.Conflicting[pat]
		c.Unroutable[pat] += o.Unroutable[pat]
		c.Empty[pat] += o.Empty[pat]
	}
	c.Beyond += o.Beyond
	c.Schemes += o.Schemes
	c.Collisions += o.Collisions
	for _, f := range o.Failures {
		c.fail("%s", f)
	}
}

// Holds says whether a pattern's theorem held on every access the check
// made of it, and on some.
func (c TheoremCheck) Holds(pat Pattern) bool {
	return c.Accepted[pat] > 0 && c.Conflicting[pat] == 0 && c.Empty[pat] == 0 && (pat != StridedRow || c.Beyond == 0)
}

// checkTheorems checks every access of g's schemes of one form and one vs
// that Supported accepts, and the row function on each scheme.
func checkTheorems(g Geometry, post bool, vs int) TheoremCheck {
	var c TheoremCheck
	lanes := g.Lanes()
	mv, mh := make([]uint64, lanes), make([]uint64, lanes)
	for _, s := range formSchemes(g, post) {
		if s.VS != vs {
			continue
		}
		c.Schemes++
		tb := newBankTable(s)
		if !tb.injective() {
			c.Collisions++
			c.fail("%+v: two elements share a bank and a row", s)
		}
		for _, pat := range Patterns {
			accepted := 0
			for _, st := range accessStrides(s, pat) {
				a := Access{Pattern: pat, VStride: st[0], HStride: st[1]}
				di, dj := g.Addresses(a) // base (0, 0): the lanes' offsets
				for bi := range uint64(1) << uint(g.MB) {
					for bj := range uint64(1) << uint(g.NB) {
						a.BI, a.BJ = bi, bj
						if ok, _ := s.Supported(a); !ok {
							continue
						}
						accepted++
						free := tb.place(bi, bj, di, dj, mv, mh)
						routable := g.Routable(mv, mh, pat.Crow())
						if !free {
							c.Conflicting[pat]++
						}
						if !routable {
							c.Unroutable[pat]++
						}
						if !free || !routable {
							c.fail("%+v %v from (%d, %d), VS %d, HS %d: conflict-free %v, routable %v", s, pat, bi, bj, a.VStride, a.HStride, free, routable)
						}
					}
				}
			}
			c.Accepted[pat] += accepted
			// Within the theorems' bounds each pattern has accesses; a
			// strided row beyond hs <= nb-p-q repeats elements, so none
			// may be accepted.
			switch {
			case pat == StridedRow && s.HS > g.NB-g.P-g.Q:
				if accepted != 0 {
					c.Beyond += accepted
					c.fail("%+v: %d strided rows accepted with hs > nb-p-q", s, accepted)
				}
			case (pat == ForwardDiagonal || pat == BackwardDiagonal) && s.HS > g.NB-g.P-g.Q:
			case accepted == 0:
				c.Empty[pat]++
				c.fail("%+v: Supported accepts no %v", s, pat)
			}
		}
	}
	return c
}

// theoremJob is the check of one geometry and form of m_v, every vs.
type theoremJob struct {
	G    Geometry
	Post bool
}

func (j theoremJob) String() string {
	return fmt.Sprintf("appendix B p=%d q=%d mb=%d nb=%d %s", j.G.P, j.G.Q, j.G.MB, j.G.NB, formName(j.Post))
}

// formName names a form of m_v.
func formName(post bool) string {
	if post {
		return "post-add"
	}
	return "pre-add"
}

// checkAllTheorems runs the check on every geometry and form, a job each
// (progress is the run's writer), and sums what it found.
func checkAllTheorems(progress io.Writer) (TheoremCheck, error) {
	var jobs []theoremJob
	for _, g := range checkGeometries() {
		for _, post := range []bool{false, true} {
			jobs = append(jobs, theoremJob{g, post})
		}
	}
	found, err := sweep.Map(progress, "smm2d appendix B", jobs, func(j theoremJob) (TheoremCheck, error) {
		var c TheoremCheck
		for vs := 0; vs <= j.G.MB-j.G.P; vs++ {
			c.add(checkTheorems(j.G, j.Post, vs))
		}
		return c, nil
	})
	var all TheoremCheck
	for _, c := range found {
		all.add(c)
	}
	return all, err
}
