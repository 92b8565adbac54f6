package smm2d_test

import (
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	. "github.com/parmem/parmem/units/smm2d"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// Proofs on the emitted Verilog by Yosys (verify.ProveProperties): the
// blocks' own properties (the ATU's injectivity, the memory's
// split-access pipeline) and appendix B's theorems at p = 1, q =
// 2, mb = nb = 6, each an assertion of a wrapper around the real AGU and
// ATU (every base, vs, hs and odd sigma at once). make test proves the
// pre-add form; make prove (-prove.all) both forms.

var proveAll = flag.Bool("prove.all", false, "prove both forms of m_v (make prove), not only pre-add")

var proveGeometry = Geometry{P: 1, Q: 2, MB: 6, NB: 6}

func proveForms() []bool {
	if *proveAll {
		return []bool{false, true}
	}
	return []bool{false}
}

// accessWrapper is the AGU and the ATU of one access of a fixed pattern
// with symbolic base, strides, vs and hs; it returns the module, its
// inputs and each lane's bank {m_v, m_h}.
type accessWrapper struct {
	m                        *hdl.Module
	bi, bj, vstride, hstride *hdl.Signal
	vs, hs                   *hdl.Signal
	banks                    []*hdl.Signal
}

func newAccessWrapper(name string, g Geometry, post bool, pattern Pattern) accessWrapper {
	m := hdl.NewModule(name)
	w := accessWrapper{m: m, bi: m.Input("base_i", g.MB), bj: m.Input("base_j", g.NB),
		vstride: m.Input("vstride", g.MB), hstride: m.Input("hstride", g.NB),
		vs: m.Input("vs", g.VW()), hs: m.Input("hs", g.HW())}
	aguMod, ap := AGU{Geometry: g}.WithPorts(name + "_agu")
	agu := m.Instance("agu", aguMod)
	hdl.ConnectRecord(agu, []*hdl.Signal{ap.BaseI, ap.BaseJ, ap.VStride, ap.HStride, ap.Pattern},
		[]*hdl.Signal{w.bi, w.bj, w.vstride, w.hstride, m.ConstU(3, uint64(pattern))})
	atu, tp := instanceATU(m, g, post, w.vs, w.hs)
	hdl.ConnectRecord(atu, tp.Addr, hdl.OutRecord(agu, ap.Addr))
	for _, place := range hdl.OutRecord(atu, tp.Place) {
		w.banks = append(w.banks, hdl.Concat(place.MV, place.MH))
	}
	return w
}

// instanceATU places an ATU called atu in m on the exponents vs, hs; its
// lanes' addresses are left to connect.
func instanceATU(m *hdl.Module, g Geometry, post bool, vs, hs *hdl.Signal) (*hdl.Instance, ATUPorts) {
	sub, ports := ATU{Geometry: g, Post: post}.WithPorts(m.Name() + "_atu")
	atu := m.Instance("atu", sub)
	hdl.ConnectRecord(atu, []*hdl.Signal{ports.VS, ports.HS}, []*hdl.Signal{vs, hs})
	return atu, ports
}

// distinct is 1 when the signals are pairwise different.
func distinct(xs []*hdl.Signal) *hdl.Signal {
	var ne []*hdl.Signal
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			ne = append(ne, xs[i].Ne(xs[j]))
		}
	}
	return hdl.Concat(ne...).RedAnd()
}

// oddMultiple is 1 when x = sigma*2^e with sigma odd: bit e of x is 1 and
// the bits below it are 0.
func oddMultiple(x, e *hdl.Signal) *hdl.Signal {
	w := x.Width()
	below := x.Module().ConstU(w, 1).ShlBy(e).Sub(x.Module().ConstU(w, 1))
	return x.ShrBy(e).Bit(0).And(x.And(below).EqConst(0))
}

// alignedTo is 1 when the low bits of x below min(cap, e) + add are 0.
func alignedTo(x, e *hdl.Signal, cap, add int) *hdl.Signal {
	m, w := x.Module(), x.Width()
	ew := e.Zext(max(e.Width(), 4))
	capped := hdl.Mux(ew.Lt(m.ConstU(ew.Width(), uint64(cap))), ew, m.ConstU(ew.Width(), uint64(cap)))
	low := m.ConstU(w, 1).ShlBy(capped.Add(m.ConstU(ew.Width(), uint64(add)))).Sub(m.ConstU(w, 1))
	return x.And(low).EqConst(0)
}

// premise is Scheme.Supported's condition for the pattern (spec.go, the
// issue's point 3): stride families, vs <= mb-p, hs within its bound,
// continuous bases aligned.
func (w accessWrapper) premise(g Geometry, pattern Pattern) *hdl.Signal {
	m := w.m
	le := func(x *hdl.Signal, most int) *hdl.Signal { return x.Le(m.ConstU(x.Width(), uint64(most))) }
	vFamily := oddMultiple(w.vstride, w.vs).And(le(w.vs, g.MB-g.P))
	switch pattern {
	case StridedBlock:
		return vFamily.And(oddMultiple(w.hstride, w.hs)).And(le(w.hs, g.NB-g.Q))
	case ForwardDiagonal, BackwardDiagonal:
		return vFamily.And(oddMultiple(w.hstride, w.hs)).And(le(w.hs, g.NB-g.P-g.Q))
	case ContinuousRow:
		return alignedTo(w.bj, w.hs, g.P, g.Q).And(le(w.hs, g.NB-g.Q))
	case ContinuousBlock:
		return alignedTo(w.bi, w.vs, g.P, 0).And(alignedTo(w.bj, w.hs, g.Q, 0)).And(le(w.hs, g.NB-g.Q))
	}
	return oddMultiple(w.hstride, w.hs).And(le(w.hs, g.NB-g.P-g.Q))
}

// proveModule proves the properties of m's design.
func proveModule(t *testing.T, m *hdl.Module) map[string]verify.PropertyResult {
	t.Helper()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	return verify.ProvedByName(t, d)
}

// requireSettled requires every assertion of results proven, but those
// in failing (which must fail), and every cover point reached.
func requireSettled(t *testing.T, what string, results map[string]verify.PropertyResult, failing ...string) {
	t.Helper()
	for name, r := range results {
		want := map[hdl.PropertyKind]verify.Verdict{hdl.Assertion: verify.Proven, hdl.Assumption: verify.Assumed, hdl.CoverPoint: verify.Reached}[r.Kind]
		if slices.Contains(failing, name) {
			want = verify.Failed
		}
		require.Equalf(t, want, r.Verdict, "%s: %s %s (%s): %s", what, r.Kind, name, r.Pos, r.Method())
	}
}

// TestProveBlockProperties proves the properties of the memory
// (units/smm2d, units/internal/splitmem) at the sizes the family lists to
// prove (units.Family.Prove; make test proves the ATU's in
// TestProveATUInjective).
func TestProveBlockProperties(t *testing.T) {
	f, err := units.LookupFamily("smm2d")
	require.NoError(t, err)
	for _, c := range f.Prove.All(*proveAll) {
		t.Run(c.String(), func(t *testing.T) { verify.RequireProperties(t, c, nil) })
	}
}

// Theorems 1-6 (appendix B) under the point 3: every access of
// each pattern that the scheme supports puts its L lanes in L different
// banks, for every base, vs, hs and odd sigma. Each is the assertion of a
// wrapper, proven with the ATU's own.
func TestProveTheorems1To6(t *testing.T) {
	g := proveGeometry
	for _, post := range proveForms() {
		for n, pattern := range theorems {
			w := newAccessWrapper(fmt.Sprintf("prove_pattern%d_post%v", pattern, post), g, post, pattern)
			w.m.Assert(w.premise(g, pattern).Not().Or(distinct(w.banks)), "conflict_free", fmt.Sprintf("a supported %v puts two lanes in one bank", pattern))
			requireSettled(t, fmt.Sprintf("Theorem %d (%v), post=%v", n+1, pattern, post), proveModule(t, w.m))
			t.Logf("Theorem %d proved: every supported %v is conflict-free (p=1 q=2 mb=nb=6, post=%v)", n+1, pattern, post)
		}
	}
}

// theorems are the patterns of appendix B's Theorems 1-6, in order.
var theorems = []Pattern{StridedRow, ContinuousRow, ForwardDiagonal, BackwardDiagonal, StridedBlock, ContinuousBlock}

// The ATU is injective: its own assertion "injective", that two different
// elements of its lanes never share a bank and row, for every vs <= mb-p
// and hs <= nb-q.
func TestProveATUInjective(t *testing.T) {
	for _, post := range proveForms() {
		m := ATU{Geometry: proveGeometry, Post: post}.Build(fmt.Sprintf("prove_injective_post%v", post))
		results := proveModule(t, m)
		requireSettled(t, fmt.Sprintf("injectivity, post=%v", post), results)
		require.Contains(t, results, "injective")
		t.Logf("(i,j) -> (m_v, m_h, row) proved injective (p=1 q=2 mb=nb=6, post=%v)", post)
	}
}

// The prover can fail: a strided row with HS = 2^(hs+1), one family above
// the configured hs, conflicts for some base, and Yosys must find it; the
// spec agrees that the access it finds conflicts.
func TestProveFindsCounterexampleForAnotherFamily(t *testing.T) {
	g := proveGeometry
	w := newAccessWrapper("prove_cex", g, false, StridedRow)
	m := w.m
	one := m.ConstU(g.NB, 1)
	exact := w.hstride.Eq(one.ShlBy(w.hs.Zext(4).Add(m.ConstU(4, 1))))
	premise := exact.And(w.hs.Zext(4).Add(m.ConstU(4, 1)).Le(m.ConstU(4, uint64(g.NB-g.Q))))
	m.Assert(premise.Not().Or(distinct(w.banks)), "another_family", "HS = 2^(hs+1) conflicts")
	results := proveModule(t, m)
	requireSettled(t, "HS = 2^(hs+1)", results, "another_family")
	cex := results["another_family"].Trace
	require.Len(t, cex, 1, "one evaluation of the combinational wrapper")
	v := map[string]uint64{}
	for name, x := range cex[0] {
		v[name] = x.Uint64()
	}
	for _, name := range []string{"base_i", "base_j", "hs", "hstride", "vs"} {
		require.Contains(t, v, name, "the counterexample gives %s: %v", name, cex[0])
	}
	s := Scheme{Geometry: g, VS: int(v["vs"]), HS: int(v["hs"])}
	a := Access{Pattern: StridedRow, BI: v["base_i"], BJ: v["base_j"], VStride: v["vstride"], HStride: v["hstride"]}
	is, js := g.Addresses(a)
	require.False(t, s.ConflictFree(is, js), "spec.go agrees the counterexample conflicts: %+v under %+v", a, s)
	t.Logf("counterexample: strided row from (%d,%d), hs=%d, HS=%d conflicts", a.BI, a.BJ, s.HS, a.HStride)
}
