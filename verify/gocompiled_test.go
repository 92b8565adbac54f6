package verify

import (
	"bytes"
	"fmt"
	"go/format"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// TestCompiledMatchesInterpreter: compiled Go computes what the hdl
// interpreter computes on random logic at every width class its code
// generator treats apart (8, 16 and 32 bits are cut by conversions, 13
// and 64 otherwise, 65 and 130 by the wide kernel), output by output,
// cycle by cycle.
func TestCompiledMatchesInterpreter(t *testing.T) {
	for _, w := range []int{8, 13, 16, 32, 64, 65, 130} {
		t.Run(fmt.Sprint("w", w), func(t *testing.T) {
			d, err := hdl.Elaborate(designs.RandomComb(fmt.Sprintf("comb_w%d", w), 300, w, uint64(w)))
			require.NoError(t, err)
			res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Seed: 7, Cycles: 2000})
			require.NoError(t, err)
			require.Equal(t, uint64(2000), res.Cycles)
		})
	}
}

// TestCompiledShiftCounts: shifts by a signal agree with the interpreter
// when the count is narrower than the width (compiled Go masks it, one
// shift instruction) and when it may reach or pass the width (0, or the
// sign, from there on), for 32-bit values (compiled Go's uint32 path),
// 64-bit and 20-bit ones.
func TestCompiledShiftCounts(t *testing.T) {
	m := hdl.NewModule("shifts")
	for _, w := range []int{20, 32, 64} {
		x := m.Input(fmt.Sprintf("x%d", w), w)
		for _, cw := range []int{3, 5, 6, 8} {
			c := m.Input(fmt.Sprintf("c%d_%d", w, cw), cw)
			m.Output(fmt.Sprintf("shl%d_%d", w, cw), w).Drive(x.ShlBy(c))
			m.Output(fmt.Sprintf("shr%d_%d", w, cw), w).Drive(x.ShrBy(c))
			m.Output(fmt.Sprintf("sra%d_%d", w, cw), w).Drive(x.SraBy(c))
		}
	}
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Stimulus: func(seed uint64) Stimulus { return NewRandom(PortsOf(d), seed) }, Seed: 5, Cycles: 3000, NoReplay: true})
	require.NoError(t, err)
	require.Equal(t, uint64(3000), res.Cycles)
}

// TestCompiledOneHotSelects: a one-hot multiplexer whose select is a bus
// of single-bit conditions (compiled Go reads the bits directly) and one
// whose select is a plain word agree with the interpreter, with one, none
// and several select bits set, with choices of one bit and of eight,
// with constant select bits, and with a
// constant word (the edge shapes' constant one-hot selects in the random
// designs first made compiled Go that did not build); so do the AND and
// OR reductions of such a bus, also zero-extended (compiled Go ANDed the
// bits alone, without the zeros: the edge shapes, RandomNarrowNetlist seed
// 2000094).
func TestCompiledOneHotSelects(t *testing.T) {
	m := hdl.NewModule("onehots")
	x, word := m.Input("x", 16), m.Input("sel", 6)
	var conds, choices []*hdl.Signal
	for i := range 6 {
		conds = append(conds, x.Bit(i).And(x.Bit(i+6).Or(x.Bit(12+i%4))))
		choices = append(choices, m.Input(fmt.Sprintf("c%d", i), 8))
	}
	m.Output("bus", 8).Drive(hdl.OneHotSelect(lib.Bus(conds), choices...))
	for i, bus := range []*hdl.Signal{lib.Bus(conds), lib.Bus(conds[:2]).Zext(7)} {
		m.Output(fmt.Sprintf("all%d", i), 1).Drive(bus.RedAnd())
		m.Output(fmt.Sprintf("any%d", i), 1).Drive(bus.RedOr())
	}
	m.Output("word", 8).Drive(hdl.OneHotSelect(word, choices...))
	var bits []*hdl.Signal // choices of one bit, which compiled Go ANDs with the select bit alone
	for i := range 6 {
		bits = append(bits, x.Bit(15-i))
	}
	m.Output("bus_bit", 1).Drive(hdl.OneHotSelect(lib.Bus(conds), bits...))
	m.Output("word_bit", 1).Drive(hdl.OneHotSelect(word, bits...))
	// Conditions that are constants: a choice always or never taken.
	always := append(slices.Clone(conds[:4]), m.ConstU(1, 1), m.ConstU(1, 0))
	m.Output("consts", 8).Drive(hdl.OneHotSelect(lib.Bus(always), choices...))
	// A constant select of choices computed for it alone: those its
	// zero bits leave out are never read.
	var sums []*hdl.Signal
	for i, c := range choices {
		sums = append(sums, c.Add(m.ConstU(8, uint64(i+1))))
	}
	m.Output("const_word", 8).Drive(hdl.OneHotSelect(m.ConstU(6, 0b100101), sums...))
	// A constant select of none: 0, which a slice reads (a local defined
	// as an untyped 0 was an int, and the program did not build: the
	// fuzz's seed 1129).
	m.Output("const_none", 4).Drive(hdl.OneHotSelect(m.ConstU(6, 0), sums...).Slice(5, 2))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Seed: 5, Cycles: 3000})
	require.NoError(t, err)
	require.Equal(t, uint64(3000), res.Cycles)
}

// TestCompiledRandomNetlists: compiled Go agrees with the interpreter on
// the fuzz's random designs, which have every operation at widths 1 to
// 130, registers and memories of several words, masked writes and
// synchronous reads, and ports over 64 bits: 60 in make test, 1,200 in
// make long (60 more from another seed once found a program that did not
// build).
func TestCompiledRandomNetlists(t *testing.T) {
	packs := 1
	if *longFlag {
		packs = 20
	}
	for p := range packs {
		seeds := make([]uint64, 60)
		for i := range seeds {
			seeds[i] = netlistSeed(5, p*len(seeds)+i)
		}
		d, err := hdl.Elaborate(PackNetlists("cfuzz", seeds))
		require.NoError(t, err)
		for _, stim := range []func(uint64) Stimulus{nil, func(seed uint64) Stimulus { return NewRandom(PortsOf(d), seed) }} {
			res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Stimulus: stim, Seed: 3, Cycles: 500})
			require.NoError(t, err, "pack %d", p)
			require.Equal(t, uint64(500), res.Cycles)
		}
	}
}

// TestHarnessesAreGofmtClean: the compiled simulators' harnesses land in
// the tool cache under the module, where make lint's gofmt -l sees them.
func TestHarnessesAreGofmtClean(t *testing.T) {
	ports := Ports{In: []Port{{Name: "rst", Width: 1}, {Name: "a", Width: 70}}, Out: []Port{{Name: "y", Width: 8}}}
	slot := func(name string) int { return len(name) }
	d, err := hdl.Elaborate(counterDigit()) // with properties
	require.NoError(t, err)
	compiled := goHarness(ports, slot) + propertyCode(d.Netlist(), slot)
	for name, src := range map[string]string{"go-compiled": compiled, "go-compiled-streams": goStreamsHarness(ports, 64), "go-compiled-streams-32": goStreamsHarness(ports, 32)} {
		formatted, err := format.Source([]byte(src))
		require.NoError(t, err, name)
		require.Equal(t, string(formatted), src, "%s harness is not gofmt-clean", name)
	}
}

// TestCompiledRegisterOrder: the compiled clock edge stores a register
// straight into the state after every register that reads it, and keeps
// registers that read each other in a cycle in the shadow; each must see
// the values from before the edge (registerOrder's design).
func TestCompiledRegisterOrder(t *testing.T) {
	d, err := hdl.Elaborate(registerOrder())
	require.NoError(t, err)
	res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Seed: 9, Cycles: 3000})
	require.NoError(t, err)
	require.Equal(t, uint64(3000), res.Cycles)
}

// registerOrder has a shift chain (declared head first, so that its order
// is not the declaration order), two registers that swap under an enable,
// a three-register rotation through logic and a memory whose write port
// reads registers.
func registerOrder() *hdl.Module {
	m := hdl.NewModule("regorder")
	in, en := m.Input("in", 8), m.Input("en", 1)
	chain := []*hdl.Signal{m.Reg("c0", 8), m.Reg("c1", 8), m.Reg("c2", 8), m.Reg("c3", 8)}
	chain[0].Drive(in)
	for i := 1; i < len(chain); i++ {
		chain[i].Drive(chain[i-1])
	}
	a, b := m.RegInit("a", hdl.MustU(8, 1)), m.RegInit("b", hdl.MustU(8, 2))
	a.Drive(b)
	b.Drive(a)
	a.Enable(en)
	b.Enable(en)
	r := []*hdl.Signal{m.RegInit("r0", hdl.MustU(4, 1)), m.RegInit("r1", hdl.MustU(4, 2)), m.RegInit("r2", hdl.MustU(4, 3))}
	for i := range r {
		r[i].Drive(r[(i+1)%3].Xor(in.Slice(3, 0)))
	}
	mem := m.Mem("mem", 2, 8)
	mem.Write(chain[3].Slice(1, 0), chain[2], en)
	m.Output("chain", 8).Drive(chain[3])
	m.Output("ab", 16).Drive(hdl.Concat(a, b))
	m.Output("rot", 12).Drive(hdl.Concat(r[0], r[1], r[2]))
	m.Output("mread", 8).Drive(mem.Read(in.Slice(1, 0)))
	return m
}

// TestCompiledSelects: an indexed multiplexer compiles to a table load
// when its index is narrow (indices past the choices give 0) and to a
// switch when it is wide; both agree with the interpreter.
func TestCompiledSelects(t *testing.T) {
	m := hdl.NewModule("selects")
	var choices []*hdl.Signal
	for i := range 8 {
		choices = append(choices, m.Input(fmt.Sprintf("c%d", i), 12))
	}
	for _, c := range []struct{ index, n int }{{2, 3}, {3, 8}, {1, 2}, {8, 5}} {
		idx := m.Input(fmt.Sprintf("i%d_%d", c.index, c.n), c.index)
		m.Output(fmt.Sprintf("y%d_%d", c.index, c.n), 12).Drive(hdl.Select(idx, choices[:c.n]...))
	}
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	for _, stim := range []func(uint64) Stimulus{nil, func(seed uint64) Stimulus { return NewRandom(PortsOf(d), seed) }} {
		res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Stimulus: stim, Seed: 4, Cycles: 3000})
		require.NoError(t, err)
		require.Equal(t, uint64(3000), res.Cycles)
	}
}

// TestCompiledCrossbars: the one-hot multiplexers of a crossbar, which
// compiled Go computes as a scatter, agree with the interpreter, with
// sources addressing one bank together, constant conditions and data, and
// a routing too small to scatter beside it; and so do the compiled
// streams, whose reductions of the select buses read the bits.
func TestCompiledCrossbars(t *testing.T) {
	d, err := hdl.Elaborate(designs.Crossbar("xbar", 8, 3))
	require.NoError(t, err)
	for _, stim := range []func(uint64) Stimulus{nil, func(seed uint64) Stimulus { return NewRandom(PortsOf(d), seed) }} {
		res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Stimulus: stim, Seed: 6, Cycles: 3000})
		require.NoError(t, err)
		require.Equal(t, uint64(3000), res.Cycles)
	}
	require.NoError(t, CheckCompiledStreams(d, 20, 3000, 6))
}

// TestCompiledPriorityCrossbars: the one-hot multiplexers over fixed-
// priority arbiters' grants, which compiled Go computes as priority
// scatters (the lowest source winning in one group, the highest in two),
// agree with the interpreter under random stimulus, where several sources
// want one bank most cycles; and so do the compiled streams.
func TestCompiledPriorityCrossbars(t *testing.T) {
	d, err := hdl.Elaborate(designs.PriorityCrossbar("pxbar"))
	require.NoError(t, err)
	for _, stim := range []func(uint64) Stimulus{nil, func(seed uint64) Stimulus { return NewRandom(PortsOf(d), seed) }} {
		res, err := Lockstep(Config{Backends: []Backend{GoBackend(d), GoCompiledBackend(d)}, Stimulus: stim, Seed: 7, Cycles: 3000, NoReplay: true})
		require.NoError(t, err)
		require.Equal(t, uint64(3000), res.Cycles)
	}
	require.NoError(t, CheckCompiledStreams(d, 20, 3000, 7))
}

// Compiled Go stops at a property that fails, as the interpreter does,
// saying which, in lockstep's full and fast (digest) modes.
func TestCompiledGoChecksProperties(t *testing.T) {
	d, err := hdl.Elaborate(counterDigit())
	require.NoError(t, err)
	for _, batch := range []int{0, 16} {
		_, err = Lockstep(Config{Backends: []Backend{GoCompiledBackend(d)}, Seed: 3, Cycles: 5000, Batch: batch})
		require.ErrorContains(t, err, "assertion u.below_eight failed (formal_test.go:")
	}
}

// TestCompiledDecodedEnables: register files written one line a cycle,
// each line loading on clear | we & (idx == k) or we & (k == idx), agree
// with the interpreter when compiled Go tests their enables as bits of one
// decoded table (at 5-, 4- and 7-bit indices, the last over two words),
// and an age bit's, touched by a write to its way or by a read hit; and a
// file of 15 lines, or a line whose enable an output also reads, keeps
// its compares. So do the compiled streams, which compute a line's next
// values, its enable and its loads only where some lane loads it (clear,
// every line, is rare, so that many cycles load a few lines).
func TestCompiledDecodedEnables(t *testing.T) {
	m := hdl.NewModule("regfiles")
	clear, we, d := m.Input("clear0", 1), m.Input("we", 1), m.Input("d", 8)
	for i := 1; i < 5; i++ { // (an AND of five: in no lane of 16 in 40 % of cycles)
		clear = clear.And(m.Input(fmt.Sprintf("clear%d", i), 1))
	}
	file := func(name string, lines, idxWidth int, enable func(idx *hdl.Signal, k int) *hdl.Signal) {
		idx := m.Input(name+"_idx", idxWidth)
		for k := range lines {
			en := enable(idx, k)
			r := m.Reg(fmt.Sprintf("%s%d", name, k), 8)
			r.Drive(hdl.Mux(clear, m.ConstU(8, 0), d.Add(m.ConstU(8, uint64(k)))))
			r.Enable(en)
			m.Output(fmt.Sprintf("%s%d_q", name, k), 8).Drive(r)
			if name == "seen" && k == 3 {
				m.Output("seen3_en", 1).Drive(en)
			}
		}
	}
	cleared := func(idx *hdl.Signal, k int) *hdl.Signal { return clear.Or(we.And(idx.EqConst(uint64(k)))) }
	file("line", 32, 5, cleared)
	file("tag", 16, 4, func(idx *hdl.Signal, k int) *hdl.Signal {
		return we.And(m.ConstU(4, uint64(k)).Eq(idx))
	})
	file("wide", 100, 7, cleared) // keys 0..99 of 128: two words
	file("few", 15, 4, cleared)
	file("seen", 20, 5, cleared) // line 3's enable is an output too
	hit, way, rdIdx := m.Input("hit", 1), m.Input("way", 1), m.Input("rd_idx", 6)
	file("age", 40, 6, func(idx *hdl.Signal, k int) *hdl.Signal { // an age bit: touched by a write to way 1 or a read hit
		return we.And(idx.EqConst(uint64(k))).And(way.EqConst(1)).Or(hit.And(rdIdx.EqConst(uint64(k))))
	})
	e, err := hdl.Elaborate(m)
	require.NoError(t, err)

	src, err := sim.New(e).GoSource("main")
	require.NoError(t, err)
	require.Len(t, regexp.MustCompile(`var dec[0-4] \[1\]uint64`).FindAllString(string(src), -1), 4)
	require.Len(t, regexp.MustCompile(`var dec[0-4] \[2\]uint64`).FindAllString(string(src), -1), 1, "wide's")
	require.NotContains(t, string(src), "var dec5 ")
	require.Regexp(t, `dec\d\[1\]&0x800000000 != 0`, string(src), "wide line 99 (bit 35 of word 1)")
	compares := regexp.MustCompile(`== uint64\(0x[0-9a-f]+\)`).FindAllString(string(src), -1)
	require.Len(t, compares, 15+1, "the 15-line file's compares and seen line 3's")
	require.Regexp(t, `dec\d\[.*\] \|= \(FromBool\(st\[\d+\] == 0x1\) & st\[\d+\]\) <<`, string(src), "the age table's write term")

	res, err := Lockstep(Config{Backends: []Backend{GoBackend(e), GoCompiledBackend(e)}, Seed: 11, Cycles: 3000})
	require.NoError(t, err)
	require.Equal(t, uint64(3000), res.Cycles)

	streams, err := sim.New(e).GoStreamsSource("main", "parmemsim/vec16")
	require.NoError(t, err)
	require.Len(t, regexp.MustCompile(`\tlines[0-4] +\[`).FindAllString(string(streams), -1), 5, "a table of lines a decoder")
	require.NotContains(t, string(streams), "lines5")
	step := string(streams[bytes.Index(streams, []byte("func (d *Design) Step()")):])
	require.Equal(t, 32+16+100+20-1+40, strings.Count(step, "\tif d.lines"), "a branch on every decoded line")
	require.Regexp(t, `if d\.lines\d\[1\]&0x800000000 != 0 \{`, step, "wide line 99")
	require.NoError(t, CheckCompiledStreams(e, 20, 3000, 11))
}
