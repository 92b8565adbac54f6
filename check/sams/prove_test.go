package sams_test

import (
	"flag"
	"fmt"
	"testing"

	"github.com/parmem/parmem/hdl"
	. "github.com/parmem/parmem/units/sams"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// Proofs of the thesis's theorems on the emitted netlist, by Yosys's SAT
// solver. Each property is a 1-bit output "ok" of a small wrapper built
// with hdl around the real AGU and ATU modules; sat -prove shows it is 1
// for every input, or prints a counterexample. make test runs q = 2,
// n = 12; make prove (-prove.all) runs every listed configuration.

var proveAll = flag.Bool("prove.all", false, "prove every configuration (make prove), not only q=2 n=12")

// proveConfigs are the (q, n) pairs the proofs cover.
func proveConfigs() [][2]int {
	if *proveAll {
		return [][2]int{{2, 12}, {2, 16}, {3, 12}, {3, 16}}
	}
	return [][2]int{{2, 12}}
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

// Theorem 1: the ATU is injective. Two lanes of one ATU share the family
// input; for any legal family (or NaS) two different addresses never land
// in the same (bank, row, offset).
func TestProveTheorem1Injective(t *testing.T) {
	for _, c := range proveConfigs() {
		q, n := c[0], c[1]
		m := hdl.NewModule(fmt.Sprintf("prove_t1_q%d_n%d", q, n))
		fw := FamilyWidth(n, q)
		family, nas := m.Input("family", fw), m.Input("nas", 1)
		a, b := m.Input("a", n), m.Input("b", n)
		u := m.Instance("atu", ATU{Q: q, N: n, Lanes: 2}.Build(m.Name()+"_atu"))
		u.Connect("family", family)
		u.Connect("nas", nas)
		u.Connect("addr_0", a)
		u.Connect("addr_1", b)
		slot := func(i int) *hdl.Signal {
			return hdl.Concat(u.Out(fmt.Sprintf("bank_%d", i)), u.Out(fmt.Sprintf("row_%d", i)), u.Out(fmt.Sprintf("offset_%d", i)))
		}
		legal := family.Le(m.ConstU(fw, uint64(n-q))).Or(nas)
		m.Output("ok", 1).Drive(legal.Not().Or(a.Eq(b)).Or(slot(0).Ne(slot(1))))
		proved, cex := verify.Prove(t, m)
		require.Truef(t, proved, "Theorem 1, q=%d n=%d:\n%s", q, n, cex)
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
	agu := m.Instance("agu", AGU{Q: q, N: n}.Build(name+"_agu"))
	agu.Connect("base", base)
	agu.Connect("stride", stride)
	agu.Connect("mode", hdl.Concat(m.ConstU(1, 1), useStride)) // 10 or 11: strided layouts
	family := agu.Out("family")
	if matched {
		family = m.ConstU(family.Width(), uint64(q))
	}
	atu := m.Instance("atu", ATU{Q: q, N: n, Lanes: 1 << uint(q)}.Build(name+"_atu"))
	atu.Connect("family", family)
	atu.Connect("nas", agu.Out("nas"))
	for i := range 1 << uint(q) {
		atu.Connect(fmt.Sprintf("addr_%d", i), agu.Out(fmt.Sprintf("addr_%d", i)))
		banks = append(banks, atu.Out(fmt.Sprintf("bank_%d", i)))
		rows = append(rows, atu.Out(fmt.Sprintf("row_%d", i)))
	}
	return m, stride, banks, rows
}

// Theorem 2: in the layout of its own stride family, every strided access
// (mode 11) and every unit-stride access (mode 10) is conflict-free: any
// two lanes are in different banks or in the same row. Corollary 1: the
// Matched layout (family q) is conflict-free for strides 1, 2, ...,
// 2^(q-1) and the family sigma*2^q.
func TestProveTheorem2AndCorollary1(t *testing.T) {
	for _, c := range proveConfigs() {
		q, n := c[0], c[1]
		m, _, banks, rows := accessModule(fmt.Sprintf("prove_t2_q%d_n%d", q, n), q, n, false)
		m.Output("ok", 1).Drive(conflictFree(m, banks, rows))
		proved, cex := verify.Prove(t, m)
		require.Truef(t, proved, "Theorem 2, q=%d n=%d:\n%s", q, n, cex)

		m, stride, banks, rows := accessModule(fmt.Sprintf("prove_c1_q%d_n%d", q, n), q, n, true)
		supported := stride.Trunc(q + 1).EqConst(1 << uint(q)) // sigma*2^q
		for s := range q {
			supported = supported.Or(stride.EqConst(1 << uint(s)))
		}
		m.Output("ok", 1).Drive(supported.Not().Or(conflictFree(m, banks, rows)))
		proved, cex = verify.Prove(t, m)
		require.Truef(t, proved, "Corollary 1, q=%d n=%d:\n%s", q, n, cex)
		t.Logf("Theorem 2 and Corollary 1 proved for q=%d n=%d", q, n)
	}
}

// The prover can fail: in the Matched layout a stride outside its set
// (stride 3 = sigma*2^0) must conflict, and Yosys must find the base.
func TestProveFindsCounterexampleForUnsupportedStride(t *testing.T) {
	for _, c := range proveConfigs() {
		q, n := c[0], c[1]
		m, stride, banks, rows := accessModule(fmt.Sprintf("prove_cex_q%d_n%d", q, n), q, n, true)
		m.Output("ok", 1).Drive(stride.EqConst(3).Not().Or(conflictFree(m, banks, rows)))
		proved, cex := verify.Prove(t, m)
		require.False(t, proved, "stride 3 in the Matched layout conflicts for some base")
		t.Logf("counterexample for stride 3, Matched q=%d n=%d:\n%s", q, n, cex)
		// The counterexample is real: spec.go splits that access too.
		inputs := verify.CounterexampleValues(cex)
		require.Contains(t, inputs, "base", "the counterexample gives base:\n%s", cex)
		require.Contains(t, inputs, "use_stride", "the counterexample gives use_stride:\n%s", cex)
		base, addrStride := inputs["base"], uint64(1)
		if inputs["use_stride"] == 1 {
			addrStride = 3
		}
		l := Layout{Q: q, N: n, Family: q}
		require.Greater(t, l.SubAccesses(Addresses(base, addrStride, q, n), nil), 1, "base %d, stride %d conflicts in spec.go", base, addrStride)
	}
}
