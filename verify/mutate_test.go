package verify

import (
	"errors"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/stretchr/testify/require"
)

// mutationTarget uses every construct the mutation rules touch, at widths
// that keep Yosys's equivalence proofs quick.
func mutationTarget() *hdl.Module {
	m := hdl.NewModule("mut_target")
	a, b := m.Input("a", 8), m.Input("b", 8)
	sel, en := m.Input("sel", 2), m.Input("en", 1)
	sum, diff := a.Add(b), a.Sub(b)
	acc := m.RegInit("acc", hdl.MustU(8, 0x5a))
	acc.Drive(hdl.Mux(a.LtS(b), acc.Xor(sum), acc.Add(diff)))
	acc.Enable(en)
	shl, sra := a.ShlBy(b.Trunc(3)), a.SraBy(b.Trunc(3))
	pick := hdl.Select(sel, sum, diff, shl, sra)
	flags := hdl.Concat(a.Eq(b), a.Ne(b), a.Gt(b), a.GeS(b), a.RedXor(), b.RedAnd(), a.Le(b), b.LeS(a))
	mem := m.Mem("store", 3, 8)
	mem.Write(a.Trunc(3), b, en)
	rd, rs := mem.Read(b.Trunc(3)), mem.ReadSync(a.Trunc(3), en)
	m.Output("y0", 8).Drive(pick.Xor(acc))
	m.Output("y1", 8).Drive(flags)
	m.Output("y2", 8).Drive(rd.And(rs.Not()))
	m.Output("y3", 8).Drive(a.Shr(2).Or(b.Shl(3)).Xor(b.Slice(6, 3).Sext(8)))
	m.Output("y4", 8).Drive(a.Trunc(4).Mul(b.Trunc(4)))
	return m
}

// TestMutantsAreCaught changes the emitted Verilog one operator or constant
// at a time and runs each mutant in Icarus against the unchanged Go model.
// Every mutant the comparator does not catch must be one that Yosys proves
// equivalent to the original for the first cycles; otherwise the checker
// has failed.
func TestMutantsAreCaught(t *testing.T) {
	seed := TestSeed(t, 3)
	generated, caught, equivalent := 0, 0, 0
	kinds := map[string]int{}
	targets := []*hdl.Module{mutationTarget(), designs.CounterRAM(), designs.RandomComb("mut_comb", 150, 8, 5)}
	for _, m := range targets {
		d, err := hdl.Elaborate(m)
		require.NoError(t, err)
		verilog := d.Verilog()
		ports := PortsOf(d)
		for _, mu := range Mutants(verilog, 4, seed) {
			generated++
			kinds[mu.Kind]++
			_, err := Lockstep(Config{
				Backends: []Backend{GoBackend(d), func(bool) (Simulator, error) { return NewIcarusVerilog(d, mu.Verilog) }},
				Stimulus: func(seed uint64) Stimulus { return NewRandom(ports, seed) },
				Seed:     seed,
				Cycles:   2000,
				NoReplay: true,
			})
			var me *MismatchError
			switch {
			case errors.As(err, &me):
				caught++
			case err != nil:
				t.Errorf("%s: mutant %s does not run: %v", m.Name(), mu, err)
			default:
				same, cex, err := Equivalent(m.Name(), verilog, mu.Verilog, d.HasState(), 20)
				require.NoError(t, err)
				if !same {
					t.Errorf("%s: mutant %s changes behaviour but the comparator missed it:\n%s", m.Name(), mu, cex)
					continue
				}
				equivalent++
				t.Logf("%s: mutant %s is equivalent (Yosys proof)", m.Name(), mu)
			}
		}
	}
	t.Logf("%d mutants of %d kinds %v: %d caught, %d proven equivalent", generated, len(kinds), kinds, caught, equivalent)
	require.GreaterOrEqual(t, generated, 50)
	require.GreaterOrEqual(t, len(kinds), 5)
	require.Equal(t, generated, caught+equivalent)
}

// TestEquivalenceCheckCanFail makes sure Yosys's verdict is not vacuous.
func TestEquivalenceCheckCanFail(t *testing.T) {
	d, err := hdl.Elaborate(mutationTarget())
	require.NoError(t, err)
	v := d.Verilog()
	same, _, err := Equivalent("mut_target", v, v, true, 10)
	require.NoError(t, err)
	require.True(t, same, "a design equals itself")
	mutants := Mutants(v, 1, 1)
	require.NotEmpty(t, mutants)
	differs := 0
	for _, mu := range mutants {
		same, _, err := Equivalent("mut_target", v, mu.Verilog, true, 10)
		require.NoError(t, err)
		if !same {
			differs++
		}
	}
	require.Positive(t, differs, "some mutant differs")
}
