package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"

	"github.com/stretchr/testify/require"
)

// TestSuperinstructions: a NOT or an equality that only an AND reads is
// fused into it in the interpreter's program; one the user named, one
// read twice (the same equality made twice is one operation) or one a
// register loads stays; every output and name keeps its value.
func TestSuperinstructions(t *testing.T) {
	m := hdl.NewModule("fuse")
	x, y := m.Input("x", 3), m.Input("y", 3)
	c, d := m.Input("c", 1), m.Input("d", 1)
	m.Output("and_not", 1).Drive(c.And(d.Not()))              // fused
	m.Output("and_eq", 1).Drive(c.And(x.Eq(m.ConstU(3, 5))))  // fused
	m.Output("and_named", 1).Drive(d.And(x.Eq(y).Named("e"))) // stays: named
	twice := x.Eq(y.Not())
	m.Output("twice_a", 1).Drive(c.And(twice)) // stays: read twice
	m.Output("twice_b", 1).Drive(d.And(twice))
	loaded := x.Eq(m.ConstU(3, 6))
	m.Output("and_loaded", 1).Drive(c.And(loaded)) // stays: a register loads it
	r := m.Reg("r", 1)
	r.Drive(loaded)
	m.Output("r_out", 1).Drive(r)
	// A chain of ANDs, fused and not, that each read the one before: one
	// stretch that must keep its order.
	first := c.And(y.Eq(m.ConstU(3, 2)))
	m.Output("chain", 1).Drive(first.And(x.Bit(0).Not()).And(d))
	s, count := simWithCounts(t, m)
	require.Equal(t, 2, count(kernel.OpAndNot))
	require.Equal(t, 2, count(kernel.OpAndEq))
	require.Equal(t, len(s.prog)-4, len(s.code), "the fused NOTs and equalities cost no instruction of their own")
	for v := range uint64(1 << 8) {
		in := map[string]uint64{"x": v & 7, "y": v >> 3 & 7, "c": v >> 6 & 1, "d": v >> 7}
		for name, val := range in {
			require.NoError(t, s.SetU(name, val))
		}
		eq := map[bool]uint64{true: 1}[in["x"] == in["y"]]
		eqNot := map[bool]uint64{true: 1}[in["x"] == ^in["y"]&7]
		is := func(b bool) uint64 { return map[bool]uint64{true: 1}[b] }
		want := map[string]uint64{"and_not": in["c"] &^ in["d"], "and_eq": in["c"] & is(in["x"] == 5), "and_named": in["d"] & eq, "e": eq,
			"twice_a": in["c"] & eqNot, "twice_b": in["d"] & eqNot, "and_loaded": in["c"] & is(in["x"] == 6),
			"chain": in["c"] & is(in["y"] == 2) &^ (in["x"] & 1) & in["d"]}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s at %#x", name, v)
		}
		s.Step()
		got, err := s.GetU("r_out")
		require.NoError(t, err)
		require.Equalf(t, is(in["x"] == 6), got, "r_out at %#x", v)
	}
}

// TestOrSuperinstructions: an AND or an OR that only an OR reads is fused
// into it (a sum of products, an OR of three); one the user named or one
// read twice stays, and in a chain of ORs every other OR fuses (a fused OR
// is no longer an OR another can take in); every output and name keeps
// its value.
func TestOrSuperinstructions(t *testing.T) {
	m := hdl.NewModule("orfuse")
	a, b, c, d, e := m.Input("a", 4), m.Input("b", 4), m.Input("c", 4), m.Input("d", 4), m.Input("e", 4)
	m.Output("or_and", 4).Drive(a.And(b).Or(c))               // fused
	m.Output("and_or", 4).Drive(d.Or(b.And(e)))               // fused
	m.Output("or3", 4).Drive(a.Or(c).Or(e))                   // fused
	m.Output("or_named", 4).Drive(a.And(d).Named("ad").Or(b)) // stays: named
	twice := b.Or(d)
	m.Output("twice_c", 4).Drive(twice.Or(c)) // stays: read twice
	m.Output("twice_e", 4).Drive(twice.Or(e))
	m.Output("chain", 4).Drive(a.Or(b.Not()).Or(c.Xor(d)).Or(d.Add(e)).Or(e.Sub(a))) // the 2nd and 4th OR fuse
	s, count := simWithCounts(t, m)
	require.Equal(t, 2, count(kernel.OpOrAnd))
	require.Equal(t, 3, count(kernel.OpOr3))
	require.Equal(t, len(s.prog)-5, len(s.code), "the fused ANDs and ORs cost no instruction of their own")
	r := rand.New(rand.NewPCG(3, 4))
	for range 4000 {
		in := map[string]uint64{}
		for _, name := range []string{"a", "b", "c", "d", "e"} {
			in[name] = r.Uint64() & 15
			require.NoError(t, s.SetU(name, in[name]))
		}
		a, b, c, d, e := in["a"], in["b"], in["c"], in["d"], in["e"]
		want := map[string]uint64{"or_and": a&b | c, "and_or": d | b&e, "or3": a | c | e, "or_named": a&d | b, "ad": a & d,
			"twice_c": b | d | c, "twice_e": b | d | e, "chain": a | ^b&15 | (c ^ d) | (d+e)&15 | (e-a)&15}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s at a=%d b=%d c=%d d=%d e=%d", name, a, b, c, d, e)
		}
	}
}

// simWithCounts elaborates m and returns its simulator and how many of the
// interpreter's instructions do each operation.
func simWithCounts(t *testing.T, m *hdl.Module) (*Sim, func(op hdl.Op) int) {
	dsn, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := New(dsn)
	return s, func(op hdl.Op) (n int) {
		for _, r := range s.runs {
			if r.Op == op {
				n += int(r.Hi - r.Lo)
			}
		}
		return n
	}
}

// TestConcatSuperinstructions: a Concat of ANDs of NOTs, of ANDs of
// equalities or of equalities (one lane's condition each) computes them
// itself when they are at least half its operands, with the others
// passed in; a Concat with fewer, or of equalities beside another
// operand, stays plain; every output keeps its value.
func TestConcatSuperinstructions(t *testing.T) {
	m := hdl.NewModule("catfuse")
	v, k, busy := m.Input("v", 4), m.Input("k", 3), m.Input("busy", 4)
	keys := []*hdl.Signal{m.Input("k0", 3), m.Input("k1", 3), m.Input("k2", 3), m.Input("k3", 3)}
	// Lane i's condition of each kind, read by one Concat only.
	free := func(i int) *hdl.Signal { return v.Bit(i).And(busy.Bit(i).Not()) }
	hit := func(i int) *hdl.Signal { return v.Bit(i).And(keys[i].Eq(k)) }
	match := func(i int) *hdl.Signal { return keys[i].Eq(k.Xor(m.ConstU(3, 7))) }
	shared := busy.Bit(0).And(v.Bit(1).Not()) // read twice: passed in
	m.Output("zero", 1).Drive(m.ConstU(1, 0)) // the constant zero free_mixed's passed operands AND-NOT with
	m.Output("free", 4).Drive(hdl.Concat(free(0), free(1), free(2), free(3)))
	m.Output("free_mixed", 5).Drive(hdl.Concat(busy.Bit(3).And(v.Bit(2).Not()), busy.Slice(2, 1), busy.Bit(2).And(v.Bit(3).Not()), shared))
	m.Output("hit", 4).Drive(hdl.Concat(hit(0), hit(1), busy.Bit(3), hit(3)))
	m.Output("match", 4).Drive(hdl.Concat(match(0), match(1), match(2), match(3)))
	m.Output("match_mixed", 2).Drive(hdl.Concat(keys[0].Eq(v.Slice(2, 0)), v.Bit(3)))
	m.Output("few", 3).Drive(hdl.Concat(busy.Bit(1).And(v.Bit(0).Not()), busy.Slice(3, 2)))
	m.Output("shared_out", 1).Drive(shared.And(busy.Bit(2)))
	s, count := simWithCounts(t, m)
	require.Equal(t, 2, count(kernel.OpCatAndNot), "free, free_mixed")
	require.Equal(t, 1, count(kernel.OpCatAndEq), "hit")
	require.Equal(t, 1, count(kernel.OpCatEq), "match")
	require.Equal(t, 2, count(hdl.OpConcat), "match_mixed, few")
	rng := rand.New(rand.NewPCG(3, 4))
	bit := func(x uint64, i int) uint64 { return x >> i & 1 }
	for range 4000 {
		in := map[string]uint64{"v": rng.Uint64N(16), "k": rng.Uint64N(8), "busy": rng.Uint64N(16)}
		for i := range 4 {
			in[fmt.Sprint("k", i)] = rng.Uint64N(8)
			if rng.IntN(2) == 0 {
				in[fmt.Sprint("k", i)] = in["k"] ^ uint64(7*rng.IntN(2))
			}
		}
		for name, val := range in {
			require.NoError(t, s.SetU(name, val))
		}
		vb, bb := in["v"], in["busy"]
		msbFirst := func(f func(i int) uint64) (r uint64) { // Concat lists the MSB first
			for i := range 4 {
				r |= f(i) << (3 - i)
			}
			return r
		}
		shared := bit(bb, 0) &^ bit(vb, 1)
		want := map[string]uint64{
			"zero":        0,
			"free":        msbFirst(func(i int) uint64 { return bit(vb, i) &^ bit(bb, i) }),
			"free_mixed":  (bit(bb, 3)&^bit(vb, 2))<<4 | (bb>>1&3)<<2 | (bit(bb, 2)&^bit(vb, 3))<<1 | shared,
			"hit":         msbFirst(func(i int) uint64 { return bit(vb, i) & kernel.FromBool(in[fmt.Sprint("k", i)] == in["k"]) })&^2 | bit(bb, 3)<<1,
			"match":       msbFirst(func(i int) uint64 { return kernel.FromBool(in[fmt.Sprint("k", i)] == in["k"]^7) }),
			"match_mixed": kernel.FromBool(in["k0"] == vb&7)<<1 | bit(vb, 3),
			"few":         (bit(bb, 1)&^bit(vb, 0))<<2 | bb>>2&3,
			"shared_out":  shared & bit(bb, 2),
		}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s at %v", name, in)
		}
	}
}

// TestDecodeSuperinstructions: the enables of an Array written under a
// condition, the condition ANDed with the index compared to each element's
// number, are one decoder in the interpreter's program; three such ANDs
// (fewer than minDecode) stay; the elements hold what a plain model of the
// array holds, also for an index past the end and a cleared condition.
func TestDecodeSuperinstructions(t *testing.T) {
	m := hdl.NewModule("decode")
	en, idx, val := m.Input("en", 1), m.Input("idx", 3), m.Input("val", 4)
	few := m.Input("few", 2)
	arr := hdl.RegArray(m, "a", 6, func(f hdl.Fields) *hdl.Signal { return f("", 4) })
	m.If(en, func() { arr.Write(idx, val) })
	for i := range 6 {
		m.Output(fmt.Sprintf("a%d", i), 4).Drive(arr.At(i))
	}
	for k := range 3 {
		m.Output(fmt.Sprintf("few%d", k), 1).Drive(en.And(few.EqConst(uint64(k))))
	}
	s, count := simWithCounts(t, m)
	require.Equal(t, 1, count(kernel.OpDecode))
	require.Equal(t, 3, count(kernel.OpAndEq), "the three ANDs of few stay")
	var model [6]uint64
	r := rand.New(rand.NewPCG(1, 2))
	for c := range 2000 {
		in := map[string]uint64{"en": r.Uint64N(2), "idx": r.Uint64N(8), "val": r.Uint64N(16), "few": r.Uint64N(4)}
		for name, v := range in {
			require.NoError(t, s.SetU(name, v))
		}
		for k := range 3 {
			got, err := s.GetU(fmt.Sprintf("few%d", k))
			require.NoError(t, err)
			require.Equal(t, in["en"]&map[bool]uint64{true: 1}[in["few"] == uint64(k)], got, "few%d in cycle %d", k, c)
		}
		s.Step()
		if in["en"] == 1 && in["idx"] < 6 {
			model[in["idx"]] = in["val"]
		}
		for i, want := range model {
			got, err := s.GetU(fmt.Sprintf("a%d", i))
			require.NoError(t, err)
			require.Equal(t, want, got, "a%d after cycle %d", i, c)
		}
	}
}

// TestNarrowSlicesOfWideValues: a slice of at most 64 bits out of a wide
// value is a narrow instruction in the interpreter's program, of one word
// (OpSlice) or across two (OpSlice2); each output holds the bits the slice
// names, in every word of a 200-bit value and at its top.
func TestNarrowSlicesOfWideValues(t *testing.T) {
	m := hdl.NewModule("slices")
	x := m.Input("x", 200)
	type cut struct{ lo, width int }
	cuts := []cut{{0, 64}, {5, 32}, {37, 32}, {64, 1}, {100, 64}, {127, 2}, {150, 50}, {190, 10}, {136, 64}}
	for i, c := range cuts {
		m.Output(fmt.Sprintf("s%d", i), c.width).Drive(x.Slice(c.lo+c.width-1, c.lo))
	}
	m.Output("wide", 100).Drive(x.Slice(149, 50)) // stays wide
	s, count := simWithCounts(t, m)
	require.Equal(t, 3, count(hdl.OpSlice), "the cuts within one word")
	require.Equal(t, 6, count(kernel.OpSlice2), "the cuts across two words")
	require.Equal(t, 1, count(kernel.OpWide))
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		words := []uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64() & (1<<8 - 1)}
		v, err := hdl.FromWords(200, words)
		require.NoError(t, err)
		require.NoError(t, s.Set("x", v))
		bit := func(i int) uint64 { return words[i/64] >> (i % 64) & 1 }
		for i, c := range cuts {
			var want uint64
			for b := range c.width {
				want |= bit(c.lo+b) << b
			}
			got, err := s.GetU(fmt.Sprintf("s%d", i))
			require.NoError(t, err)
			require.Equal(t, want, got, "x[%d +: %d] of %#x", c.lo, c.width, words)
		}
	}
}

// TestConcatWordsOfNarrowOperands: a wide Concat of narrow operands is an
// OR of operand pieces for each of its words in the interpreter's
// program, operands straddling a word boundary split across two; one
// with a wide operand stays wide; every word holds the operands' bits.
func TestConcatWordsOfNarrowOperands(t *testing.T) {
	m := hdl.NewModule("catwords")
	widths := []int{7, 64, 1, 50, 33, 45} // 200 bits, the first operand the highest
	var parts []*hdl.Signal
	for i, w := range widths {
		parts = append(parts, m.Input(fmt.Sprintf("p%d", i), w))
	}
	m.Output("y", 200).Drive(hdl.Concat(parts...))
	m.Output("z", 201).Drive(hdl.Concat(m.Input("b", 1), hdl.Concat(parts...).Not())) // of a wide operand: stays wide
	s, count := simWithCounts(t, m)
	require.Equal(t, 8, count(kernel.OpCatWord), "y's words, and those of the Concat z negates")
	require.Equal(t, 2, count(kernel.OpWide), "z's NOT and Concat")
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		var want [4]uint64
		lo := 200
		for i, w := range widths {
			v := r.Uint64() & (^uint64(0) >> (64 - w))
			require.NoError(t, s.SetU(fmt.Sprintf("p%d", i), v))
			lo -= w
			for b := range w {
				want[(lo+b)/64] |= (v >> b & 1) << ((lo + b) % 64)
			}
		}
		y, err := s.Get("y")
		require.NoError(t, err)
		require.Equal(t, want[:], y.Words())
		z, err := s.Get("z")
		require.NoError(t, err)
		require.Equal(t, []uint64{^want[0], ^want[1], ^want[2], ^want[3] & (1<<8 - 1)}, z.Words(), "b = 0")
	}
}

// TestSuperinstructionsOfZeroExtendedOperands: a NOT, an equality, an AND
// or an OR narrower than the AND or OR that alone reads it, widened by a
// Zext (which shares its operand's slot), gives the extended value: the
// bits of ~b above b's width are zero (soak shard 1/20 of seed 20261127: a
// one-bit NOT widened to 31 and to 24 bits into an AND). A NOT as wide as
// its AND is still fused.
func TestSuperinstructionsOfZeroExtendedOperands(t *testing.T) {
	m := hdl.NewModule("zextfuse")
	a, e := m.Input("a", 31), m.Input("e", 31)
	b, c, d := m.Input("b", 1), m.Input("c", 5), m.Input("d", 5)
	m.Output("and_not1", 31).Drive(a.And(b.Not().Zext(31)))
	m.Output("and_not5", 31).Drive(c.Not().Zext(31).And(a))
	m.Output("and_eq", 31).Drive(a.And(c.Eq(d).Zext(31)))
	m.Output("or_and", 31).Drive(c.And(d).Zext(31).Or(a))
	m.Output("or_or", 31).Drive(a.Or(c.Or(d).Zext(31)))
	m.Output("and_not", 31).Drive(a.And(e.Not())) // fused
	s, count := simWithCounts(t, m)
	require.Equal(t, 1, count(kernel.OpAndNot), "and_not")
	r := rand.New(rand.NewPCG(7, 8))
	for range 4000 {
		in := map[string]uint64{"a": r.Uint64N(1 << 31), "e": r.Uint64N(1 << 31), "b": r.Uint64N(2), "c": r.Uint64N(32), "d": r.Uint64N(32)}
		for name, v := range in {
			require.NoError(t, s.SetU(name, v))
		}
		a, e, b, c, d := in["a"], in["e"], in["b"], in["c"], in["d"]
		want := map[string]uint64{"and_not1": a & (b ^ 1), "and_not5": a & (c ^ 31), "and_eq": a & kernel.FromBool(c == d),
			"or_and": c&d | a, "or_or": a | c | d, "and_not": a &^ e}
		for name, w := range want {
			got, err := s.GetU(name)
			require.NoError(t, err)
			require.Equalf(t, w, got, "%s at %v", name, in)
		}
	}
}
