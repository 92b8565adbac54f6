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
		atu, ports := ATU{Q: q, N: n, Lanes: 2}.WithPorts(m.Name() + "_atu")
		u := m.Instance("atu", atu)
		hdl.ConnectRecord(u, []*hdl.Signal{ports.Family, ports.NaS}, []*hdl.Signal{family, nas})
		hdl.ConnectRecord(u, ports.Addr, []*hdl.Signal{a, b})
		slot := func(i int) *hdl.Signal { return hdl.Pack(hdl.OutRecord(u, ports.Lanes[i])) } // {bank, row, offset}
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
