package sams_test

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	. "github.com/parmem/parmem/units/sams"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// Proofs on the emitted Verilog by Yosys (verify.ProveProperties): the
// blocks' own properties (the AGU's family and mode decode, the ATU's
// Theorem 1 for its lanes, the memory's split-access pipeline), and the
// thesis's theorems that join blocks, each an assertion of a small
// wrapper built with hdl around the real AGU and ATU. make test runs q =
// 2, n = 12 and the small memories; make prove (-prove.all) runs every
// listed configuration.

var proveAll = flag.Bool("prove.all", false, "prove every configuration (make prove), not only q=2 n=12")

// proveConfigs are the (q, n) pairs the proofs cover.
func proveConfigs() [][2]int {
	if *proveAll {
		return [][2]int{{2, 12}, {2, 16}, {3, 12}, {3, 16}}
	}
	return [][2]int{{2, 12}}
}

// prove proves the properties of m's design and returns them by name.
func prove(t *testing.T, m *hdl.Module) map[string]verify.PropertyResult {
	t.Helper()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	return verify.ProvedByName(t, d)
}

// requireSettled requires every assertion of results proven, but those
// in failing (which must fail), and every cover point of the top module
// reached. A sub-module's cover points are what its parent feeds it (the
// Matched memory's ATU never sees family 0): they are settled on the
// block alone.
func requireSettled(t *testing.T, what string, results map[string]verify.PropertyResult, failing ...string) {
	t.Helper()
	for name, r := range results {
		want := verify.Proven
		switch {
		case slices.Contains(failing, name):
			want = verify.Failed
		case r.Kind == hdl.Assumption:
			want = verify.Assumed
		case r.Kind == hdl.CoverPoint && strings.Contains(name, "."):
			continue
		case r.Kind == hdl.CoverPoint:
			want = verify.Reached
		}
		require.Equalf(t, want, r.Verdict, "%s: %s %s (%s): %s", what, r.Kind, name, r.Pos, r.Method())
	}
}

// TestProveBlockProperties proves the properties of the AGU, the ATU and
// the memory (units/sams, units/internal/splitmem) at the sizes the family
// lists to prove (units.Family.Prove).
func TestProveBlockProperties(t *testing.T) {
	f, err := units.LookupFamily("sams")
	require.NoError(t, err)
	configs := f.Prove.All(*proveAll)
	for _, c := range configs {
		d, err := c.Build(strings.ReplaceAll(c.Unit, "-", "_"))
		require.NoError(t, err)
		results := verify.ProvedByName(t, d)
		requireSettled(t, c.String(), results)
		t.Logf("%s: %d properties settled", c, len(results))
	}
}

// conflictFree is 1 when no two lanes share a bank with different rows.
func conflictFree(m *hdl.Module, banks, rows []*hdl.Signal) *hdl.Signal {
	var oks []*hdl.Signal
	for i := range banks {
		for j := i + 1; j < len(banks); j++ {
			oks = append(oks, banks[i].Ne(banks[j]).Or(rows[i].Eq(rows[j])))
		}
	}
	return hdl.Concat(oks...).RedAnd()
}

// Theorem 1: the ATU is injective, its own assertion "injective" for two
// lanes that share the family input: for any legal family (or NaS) two
// different addresses never land in the same (bank, row, offset).
func TestProveTheorem1Injective(t *testing.T) {
	for _, c := range proveConfigs() {
		q, n := c[0], c[1]
		m := ATU{Q: q, N: n, Lanes: 2}.Build(fmt.Sprintf("prove_t1_q%d_n%d", q, n))
		results := prove(t, m)
		requireSettled(t, fmt.Sprintf("Theorem 1, q=%d n=%d", q, n), results)
		require.Contains(t, results, "injective")
		t.Logf("Theorem 1 proved for q=%d n=%d, families 0..%d and NaS", q, n, n-q)
	}
}

// accessModule wraps the AGU and ATU in mode {1, use_stride} (the stride's
// family picks the layout, or family q when matched) and exposes stride and
// the ATU's banks and rows.
func accessModule(name string, q, n int, matched bool) (m *hdl.Module, stride *hdl.Signal, banks, rows []*hdl.Signal) {
	m = hdl.NewModule(name)
	base, useStride := m.Input("base", n), m.Input("use_stride", 1)
	stride = m.Input("stride", n)
	aguMod, ag := AGU{Q: q, N: n}.WithPorts(name + "_agu")
	agu := m.Instance("agu", aguMod)
	mode := hdl.Concat(m.ConstU(1, 1), useStride) // 10 or 11: strided layouts
	hdl.ConnectRecord(agu, []*hdl.Signal{ag.Base, ag.Stride, ag.Mode}, []*hdl.Signal{base, stride, mode})
	family := hdl.OutRecord(agu, ag.Family)
	if matched {
		family = m.ConstU(family.Width(), uint64(q))
	}
	atuMod, at := ATU{Q: q, N: n, Lanes: 1 << uint(q)}.WithPorts(name + "_atu")
	atu := m.Instance("atu", atuMod)
	hdl.ConnectRecord(atu, []*hdl.Signal{at.Family, at.NaS}, []*hdl.Signal{family, hdl.OutRecord(agu, ag.NaS)})
	hdl.ConnectRecord(atu, at.Addr, hdl.OutRecord(agu, ag.Addr))
	for _, place := range at.Lanes {
		banks, rows = append(banks, hdl.OutRecord(atu, place.Bank)), append(rows, hdl.OutRecord(atu, place.Row))
	}
	return m, stride, banks, rows
}

// Theorem 2: in the layout of its own stride family, every strided access
// (mode 11) and every unit-stride access (mode 10) is conflict-free: any
// two lanes are in different banks or in the same row. Corollary 1: the
// Matched layout (family q) is conflict-free for strides 1, 2, ...,
// 2^(q-1) and the family sigma*2^q. Each is the wrapper's assertion; the
// AGU's and the ATU's own are proven with it.
func TestProveTheorem2AndCorollary1(t *testing.T) {
	for _, c := range proveConfigs() {
		q, n := c[0], c[1]
		m, _, banks, rows := accessModule(fmt.Sprintf("prove_t2_q%d_n%d", q, n), q, n, false)
		m.Assert(conflictFree(m, banks, rows), "theorem2", "a strided or unit-stride access conflicts in its family's layout")
		requireSettled(t, fmt.Sprintf("Theorem 2, q=%d n=%d", q, n), prove(t, m))

		m, stride, banks, rows := accessModule(fmt.Sprintf("prove_c1_q%d_n%d", q, n), q, n, true)
		supported := stride.Trunc(q + 1).EqConst(1 << uint(q)) // sigma*2^q
		for s := range q {
			supported = supported.Or(stride.EqConst(1 << uint(s)))
		}
		m.Assert(supported.Not().Or(conflictFree(m, banks, rows)), "corollary1", "a stride of Corollary 1's set conflicts in the Matched layout")
		requireSettled(t, fmt.Sprintf("Corollary 1, q=%d n=%d", q, n), prove(t, m))
		t.Logf("Theorem 2 and Corollary 1 proved for q=%d n=%d", q, n)
	}
}

// The prover can fail: in the Matched layout a stride outside its set
// (stride 3 = sigma*2^0) must conflict, and Yosys must find the base.
func TestProveFindsCounterexampleForUnsupportedStride(t *testing.T) {
	for _, c := range proveConfigs() {
		q, n := c[0], c[1]
		m, stride, banks, rows := accessModule(fmt.Sprintf("prove_cex_q%d_n%d", q, n), q, n, true)
		m.Assert(stride.EqConst(3).Not().Or(conflictFree(m, banks, rows)), "stride3", "stride 3 conflicts in the Matched layout")
		results := prove(t, m)
		requireSettled(t, fmt.Sprintf("stride 3, Matched q=%d n=%d", q, n), results, "stride3")
		// The counterexample is real: spec.go splits that access too.
		cex := results["stride3"].Trace
		require.Len(t, cex, 1, "one evaluation of the combinational wrapper")
		inputs := cex[0]
		base, addrStride := inputs["base"].Uint64(), uint64(1)
		if inputs["use_stride"].Uint64() == 1 {
			addrStride = 3
		}
		t.Logf("counterexample for stride 3, Matched q=%d n=%d: base %d, stride %d", q, n, base, addrStride)
		l := Layout{Q: q, N: n, Family: q}
		require.Greater(t, l.SubAccesses(Addresses(base, addrStride, q, n), nil), 1, "base %d, stride %d conflicts in spec.go", base, addrStride)
	}
}
