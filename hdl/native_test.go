package hdl_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/parmem/parmem/hdl"
)

// everyOperation drives one output per operation and operand width,
// at the widths where masks, sign bits and shift counts change meaning,
// plus the patterns the interpreter fuses (AND of NOT or of an equality,
// ORs of ANDs, Concats of equalities, decoders), results read once that
// machine code keeps in a register, slices and Concats of values over 64
// bits (one word of which a wide operation reads beside one narrow
// reader), a memory read, and registers with and without enables.
func everyOperation() *hdl.Module {
	m := hdl.NewModule("every_op")
	amt := m.Input("amt", 7)
	sel := m.Input("sel", 1)
	idx := m.Input("idx", 3)
	hot := m.Input("hot", 3)
	hot6 := m.Input("hot6", 6) // table paths: select and one-hot select of 6
	n := 0
	out := func(s *hdl.Signal) {
		m.Output(fmt.Sprintf("o%d", n), s.Width()).Drive(s)
		n++
	}
	// registers: loaded every edge (one reading another), with an enable
	// of their own, and two sharing one
	r0, r1 := m.Reg("r0", 7), m.Reg("r1", 7)
	r0.Drive(amt)
	r1.Drive(r0.Xor(amt))
	alone := m.RegInit("alone", hdl.MustU(5, 3))
	alone.Drive(amt.Slice(4, 0))
	alone.Enable(sel)
	g0, g1 := m.Reg("g0", 3), m.Reg("g1", 3)
	g0.Drive(idx)
	g1.Drive(hot)
	g0.Enable(hot.Bit(1))
	g1.Enable(hot.Bit(1))
	for _, r := range []*hdl.Signal{r0, r1, alone, g0, g1} {
		out(r)
	}
	mem := m.Mem("mem", 3, 64) // written at idx with amt, read at hot
	mem.Write(idx, amt.Zext(64), sel)
	out(mem.Read(hot))
	for k := range 6 { // a decoder (opDecode): one enable, one index, many constants
		out(sel.And(idx.EqConst(uint64(k))))
	}
	for _, w := range []int{1, 5, 31, 32, 33, 63, 64} {
		a, b := m.Input(fmt.Sprintf("a%d", w), w), m.Input(fmt.Sprintf("b%d", w), w)
		for _, s := range []*hdl.Signal{
			a.Not(), a.And(b), a.Or(b), a.Xor(b), a.RedAnd(), a.RedOr(), a.RedXor(),
			a.Add(b), a.Sub(b), a.Shl(0), a.Shl(1), a.Shl(w - 1), a.Shr(1), a.Shr(w - 1), a.Sra(1), a.Sra(w - 1),
			a.ShlBy(amt), a.ShrBy(amt), a.SraBy(amt),
			a.Eq(b), a.Ne(b), a.Lt(b), a.Le(b), a.Gt(b), a.Ge(b), a.LtS(b), a.LeS(b), a.GtS(b), a.GeS(b),
			hdl.Mux(sel, a, b), hdl.Select(idx, a, b, a.Xor(b), b.Not()), hdl.OneHotSelect(hot, a, b, a.Not()),
			hdl.Select(idx, a, b, a.Xor(b), b.Not(), a.Or(b), a.And(b)),
			hdl.OneHotSelect(hot6, a, b, a.Not(), a.Xor(b), a.Or(b), b.Not()),
			a.Slice(w-1, w/2), a.Bit(0).Repl(w), a.Zext(64), a.Sext(64),
			a.And(b.Not()), a.And(b.Eq(a.Not()).Repl(w)), a.And(b).Or(a.Xor(b)), a.Or(b).Or(a.Not()),
			hdl.Concat(a.Eq(b), a.Ne(b), a.Bit(0).And(b.Bit(0).Not()), sel.And(a.EqConst(uint64(w%2)))),
			a.Lt(b).Xor(sel), a.RedXor().Add(sel), a.Add(b).Sub(a.Xor(b)).Shl(1), // results that live in a register only
		} {
			out(s)
		}
		if w <= 32 {
			out(a.Mul(b))
			out(a.Repl(2))
		}
		wide := hdl.Concat(a, b, a.Not()) // up to 192 bits: slices across words, Concat words
		out(wide)
		out(wide.Slice(wide.Width()-1, wide.Width()/3))
		out(wide.Slice(min(wide.Width()-1, 70), min(wide.Width()-1, 70)-w+1))
		if w > 32 { // a Concat's words that one narrow slice reads and a wide operation too
			unseen := hdl.Concat(a, b)
			out(unseen.Bit(unseen.Width() - 2))
			out(unseen.Sra(4))
		}
	}
	return m
}

// TestNativeCodeMatchesTheInterpreter runs every operation as machine
// code and on the interpreter from the same inputs (zero, all ones, the
// sign bit alone and random values) and compares every output each cycle.
// On linux/amd64 it checks that the machine code runs at all (unless the
// environment turns it off).
func TestNativeCodeMatchesTheInterpreter(t *testing.T) {
	d, err := hdl.Elaborate(everyOperation())
	if err != nil {
		t.Fatal(err)
	}
	native, interp := hdl.NewSim(d), hdl.NewSim(d)
	interp.UseInterpreter()
	want := runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && os.Getenv(hdl.NativeEnv) != "off"
	if native.Native() != want {
		t.Fatalf("Native() = %v on %s/%s with %s=%q, want %v", native.Native(), runtime.GOOS, runtime.GOARCH, hdl.NativeEnv, os.Getenv(hdl.NativeEnv), want)
	}
	if interp.Native() {
		t.Fatal("Native() after UseInterpreter")
	}
	r := rand.New(rand.NewPCG(1, 2))
	inputs := d.Top().Inputs()
	for cycle := range 2000 {
		for _, in := range inputs {
			w := in.Width()
			var v uint64
			switch r.IntN(4) {
			case 1:
				v = ^uint64(0)
			case 2:
				v = 1 << (w - 1)
			case 3:
				v = r.Uint64()
			}
			v &= ^uint64(0) >> (64 - w)
			for _, s := range []*hdl.Sim{native, interp} {
				if err := s.SetU(in.Name(), v); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, o := range d.Top().Outputs() {
			got, err := native.Get(o.Name())
			if err != nil {
				t.Fatal(err)
			}
			want, err := interp.Get(o.Name())
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Fatalf("cycle %d: %s = %s as machine code, %s interpreted", cycle, o.Name(), got, want)
			}
		}
		native.Step()
		interp.Step()
	}
}

// TestNativeCodeKeepsWideValuesInTheState: a word of a wide Concat that
// one narrow slice reads is stored for whatever else reads the Concat's
// words: a wide operation, a wide output, a wide register's next value, a
// wide memory's write data. Machine code kept such a word in a register
// only, as a result with one reader (soak SEED=20261127 shard 1/20,
// RandomNetlist seed 20261187837902: a wide Mul read it). The slices,
// taken before the rest, put the Concat's words and the slices in one
// stretch of machine code.
func TestNativeCodeKeepsWideValuesInTheState(t *testing.T) {
	m := hdl.NewModule("wide_values")
	a, b, addr := m.Input("a", 49), m.Input("b", 49), m.Input("addr", 2)
	cats := make([]*hdl.Signal, 4)
	for i := range cats {
		cats[i] = hdl.Concat(a.Xor(m.ConstU(49, uint64(i))), b)
		m.Output(fmt.Sprintf("high%d", i), 1).Drive(cats[i].Bit(83))
		m.Output(fmt.Sprintf("low%d", i), 1).Drive(cats[i].Bit(3))
	}
	m.Output("sra", 98).Drive(cats[0].Sra(4))
	m.Output("out", 98).Drive(cats[1])
	r := m.Reg("r", 98)
	r.Drive(cats[2])
	m.Output("r_out", 98).Drive(r)
	mem := m.Mem("mem", 2, 98)
	mem.Write(addr, cats[3], m.ConstU(1, 1))
	m.Output("mem_out", 98).Drive(mem.Read(addr))
	d, err := hdl.Elaborate(m)
	if err != nil {
		t.Fatal(err)
	}
	native, interp := hdl.NewSim(d), hdl.NewSim(d)
	interp.UseInterpreter()
	rng := rand.New(rand.NewPCG(3, 4))
	for cycle := range 100 {
		in := map[string]uint64{"a": rng.Uint64() >> 15, "b": rng.Uint64() >> 15, "addr": rng.Uint64N(4)}
		for _, s := range []*hdl.Sim{native, interp} {
			for name, v := range in {
				if err := s.SetU(name, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, o := range []string{"sra", "out", "r_out", "mem_out"} {
			got, _ := native.Get(o)
			want, _ := interp.Get(o)
			if got.String() != want.String() {
				t.Fatalf("cycle %d, %v: %s = %s as machine code, %s interpreted", cycle, in, o, got, want)
			}
		}
		native.Step()
		interp.Step()
	}
}

// TestNativeCodeCanBeTurnedOff checks the environment switch.
func TestNativeCodeCanBeTurnedOff(t *testing.T) {
	t.Setenv(hdl.NativeEnv, "off")
	d, err := hdl.Elaborate(everyOperation())
	if err != nil {
		t.Fatal(err)
	}
	if hdl.NewSim(d).Native() {
		t.Fatalf("Native() with %s=off", hdl.NativeEnv)
	}
}
