package lib_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// dut runs a unit on the Go simulator, reset, ports by name.
type dut struct {
	t *testing.T
	s *sim.Sim
}

func newDUT(t *testing.T, m *hdl.Module) *dut {
	t.Helper()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	s.Reset()
	return &dut{t, s}
}

func (d *dut) set(name string, v uint64) { require.NoError(d.t, d.s.SetU(name, v)) }

func (d *dut) get(name string) uint64 {
	v, err := d.s.GetU(name)
	require.NoError(d.t, err)
	return v
}

func (d *dut) setBool(name string, b bool) { d.set(name, b2u(b)) }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func mask(n int) uint64 { return ^uint64(0) >> uint(64-n) }

// patterns is every n-bit value when n is small, else count random ones
// with the edge cases first.
func patterns(r *rand.Rand, n, count int) []uint64 {
	if n <= 10 {
		out := make([]uint64, 1<<uint(n))
		for i := range out {
			out[i] = uint64(i)
		}
		return out
	}
	out := []uint64{0, mask(n), 1, 1 << uint(n-1)}
	for range count {
		out = append(out, r.Uint64()&r.Uint64()&mask(n)) // sparse: priorities matter
	}
	return out
}

func TestPriority(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 5, 8, 10, 33, 64} {
		for _, msb := range []bool{false, true} {
			u := lib.Prio{N: n, MSB: msb}
			d := newDUT(t, u.Build(u.ModuleName()))
			for _, req := range patterns(r, n, 500) {
				d.set("req", req)
				valid, idx := lib.FirstSet(req, n, msb)
				var onehot uint64
				if valid {
					onehot = 1 << uint(idx)
				}
				require.Equal(t, b2u(valid), d.get("valid"), "n %d msb %v req %#x", n, msb, req)
				require.Equal(t, uint64(idx), d.get("idx"), "n %d msb %v req %#x", n, msb, req)
				require.Equal(t, onehot, d.get("onehot"), "n %d msb %v req %#x", n, msb, req)
			}
		}
	}
}

// TestPriorityByHand pins the models with hand-worked cases.
func TestPriorityByHand(t *testing.T) {
	valid, idx := lib.FirstSet(0b0110_1000, 8, false)
	require.True(t, valid)
	require.Equal(t, 3, idx)
	_, idx = lib.FirstSet(0b0110_1000, 8, true)
	require.Equal(t, 6, idx)
	valid, _ = lib.FirstSet(0, 8, true)
	require.False(t, valid)
}

func TestOneHotBinary(t *testing.T) {
	for n := 1; n <= 9; n++ {
		enc := newDUT(t, lib.Encode{N: n}.Build("enc"))
		for i := range n {
			enc.set("onehot", 1<<uint(i))
			require.Equal(t, uint64(i), enc.get("idx"), "encode n %d bit %d", n, i)
		}
		enc.set("onehot", 0)
		require.Zero(t, enc.get("idx"))
		dec := newDUT(t, lib.Decode{N: n}.Build("dec"))
		for i := range 1 << uint(lib.IndexWidth(n)) {
			dec.set("idx", uint64(i))
			want := uint64(0)
			if i < n {
				want = 1 << uint(i)
			}
			require.Equal(t, want, dec.get("onehot"), "decode n %d idx %d", n, i)
		}
	}
}

func TestPopCount(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 7, 8, 10, 37, 64} {
		u := lib.PopCountUnit{N: n}
		d := newDUT(t, u.Build(u.ModuleName()))
		for _, x := range patterns(r, n, 500) {
			d.set("bits", x)
			require.Equal(t, uint64(bits.OnesCount64(x)), d.get("count"), "n %d bits %#x", n, x)
		}
	}
}

func TestArgmax(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, w int }{{1, 3}, {3, 2}, {5, 1}, {8, 2}, {8, 12}, {13, 3}} {
		u := lib.ArgmaxUnit{N: c.n, W: c.w}
		m, ports := u.WithPorts(u.ModuleName())
		d := newDUT(t, m)
		for range 2000 {
			valid := r.Uint64() & mask(c.n)
			scores := make([]uint64, c.n)
			for i := range scores {
				scores[i] = r.Uint64() & mask(c.w) // narrow scores: many ties
				d.set(ports.Score[i].Name(), scores[i])
			}
			d.set("valid", valid)
			found, idx, best := lib.ArgmaxOf(scores, valid)
			what := fmt.Sprintf("n %d valid %#x scores %v", c.n, valid, scores)
			require.Equal(t, b2u(found), d.get("found"), what)
			require.Equal(t, uint64(idx), d.get("idx"), what)
			require.Equal(t, best, d.get("best"), what)
		}
	}
	found, idx, best := lib.ArgmaxOf([]uint64{3, 7, 7, 9}, 0b0111)
	require.Equal(t, []any{true, 1, uint64(7)}, []any{found, idx, best}, "a tie goes to the lower index; entry 3 is not valid")
}

func TestRoundRobin(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{2, 3, 4, 5, 8, 64} {
		u := lib.RRArb{N: n}
		d := newDUT(t, u.Build(u.ModuleName()))
		model := &lib.RoundRobinModel{N: n}
		for cycle := range 3000 {
			req, ack := r.Uint64()&r.Uint64()&mask(n), r.IntN(4) != 0
			d.set("req", req)
			d.setBool("ack", ack)
			valid, idx := model.Grant(req)
			grant := uint64(0)
			if valid {
				grant = 1 << uint(idx)
			}
			what := fmt.Sprintf("n %d cycle %d pointer %d req %#x", n, cycle, model.P, req)
			require.Equal(t, b2u(valid), d.get("valid"), what)
			require.Equal(t, uint64(idx), d.get("idx"), what)
			require.Equal(t, grant, d.get("grant"), what)
			d.s.Step()
			model.Step(req, ack)
		}
	}
}

// TestRoundRobinByHand: requesters 0 and 2 of four, always acked, take
// turns; the pointer wraps past the last requester.
func TestRoundRobinByHand(t *testing.T) {
	d := newDUT(t, lib.RRArb{N: 4}.Build("rr"))
	d.set("req", 0b0101)
	d.set("ack", 1)
	var got []uint64
	for range 4 {
		got = append(got, d.get("idx"))
		d.s.Step()
	}
	require.Equal(t, []uint64{0, 2, 0, 2}, got)
}

func TestAgeMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 5, 8} {
		u := lib.AgeUnit{N: n}
		d := newDUT(t, u.Build(u.ModuleName()))
		model := lib.NewAgeOrder(n)
		for cycle := range 3000 {
			valid, touch, idx := r.Uint64()&mask(n), r.IntN(2) == 0, r.IntN(1<<uint(lib.IndexWidth(n)))
			d.set("valid", valid)
			d.setBool("touch", touch)
			d.set("touch_idx", uint64(idx))
			found, oldest := model.Oldest(valid)
			what := fmt.Sprintf("n %d cycle %d valid %#x", n, cycle, valid)
			require.Equal(t, b2u(found), d.get("found"), what)
			require.Equal(t, uint64(oldest), d.get("idx"), what)
			d.s.Step()
			if touch {
				model.Touch(idx)
			}
		}
	}
}

// TestAgeArray touches two sets per cycle (in order, possibly the same set)
// and asks for the oldest valid entry of a third, against one AgeOrder per
// set.
func TestAgeArray(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ sets, n int }{{3, 3}, {4, 2}, {2, 1}, {1, 4}} {
		m := hdl.NewModule("ages")
		sw, iw := lib.IndexWidth(c.sets), lib.IndexWidth(c.n)
		ages := lib.NewAgeArray(m, "older", c.sets, c.n)
		ages.Touch(m.Input("a_set", sw), m.Input("a_idx", iw), m.Input("a", 1))
		ages.Touch(m.Input("b_set", sw), m.Input("b_idx", iw), m.Input("b", 1))
		found, idx, _ := ages.Oldest(m.Input("q_set", sw), m.Input("valid", c.n))
		m.Output("found", 1).Drive(found)
		m.Output("idx", iw).Drive(idx)
		d := newDUT(t, m)
		models := make([]*lib.AgeOrder, c.sets)
		for s := range models {
			models[s] = lib.NewAgeOrder(c.n)
		}
		for cycle := range 3000 {
			in := map[string]int{"a_set": r.IntN(c.sets), "a_idx": r.IntN(c.n), "a": r.IntN(2),
				"b_set": r.IntN(c.sets), "b_idx": r.IntN(c.n), "b": r.IntN(2), "q_set": r.IntN(c.sets)}
			for k, v := range in {
				d.set(k, uint64(v))
			}
			valid := r.Uint64() & mask(c.n)
			d.set("valid", valid)
			wantFound, want := models[in["q_set"]].Oldest(valid)
			what := fmt.Sprintf("sets %d n %d cycle %d", c.sets, c.n, cycle)
			require.Equal(t, b2u(wantFound), d.get("found"), what)
			require.Equal(t, uint64(want), d.get("idx"), what)
			d.s.Step()
			for _, p := range []string{"a", "b"} {
				if in[p] == 1 {
					models[in[p+"_set"]].Touch(in[p+"_idx"])
				}
			}
		}
	}
}

// replacement is the model of a set's replacement state.
type replacement interface {
	Victim() int
	Touch(way int)
}

// checkReplacement compares a lib-lru-shaped module's victim with the
// model's under random touches.
func checkReplacement(t *testing.T, seed uint64, m *hdl.Module, ways int, model replacement) {
	r := rand.New(rand.NewPCG(seed, 12))
	d := newDUT(t, m)
	for cycle := range 2000 {
		touch, way := r.IntN(3) != 0, r.IntN(ways)
		require.Equal(t, uint64(model.Victim()), d.get("victim"), "%s ways %d cycle %d", m.Name(), ways, cycle)
		d.setBool("touch", touch)
		d.set("touch_way", uint64(way))
		d.s.Step()
		if touch {
			model.Touch(way)
		}
	}
}

func TestLRU(t *testing.T) {
	for ways := 2; ways <= 8; ways++ {
		checkReplacement(t, uint64(ways), lib.LRU{Ways: ways}.Build("lru"), ways, lib.NewAgeOrder(ways))
	}
}

// TestLRUByHand: the order after reset is 0..ways-1; touching the victim
// moves the victim on; touching 1, 0, 3, 2 of four leaves 1 the least
// recently used.
func TestLRUByHand(t *testing.T) {
	d := newDUT(t, lib.LRU{Ways: 4}.Build("lru"))
	require.Zero(t, d.get("victim"))
	d.set("touch", 1)
	for _, w := range []uint64{0, 1, 0, 3, 2} {
		d.set("touch_way", w)
		d.s.Step()
	}
	require.Equal(t, uint64(1), d.get("victim"))
}

func TestPLRU(t *testing.T) {
	for _, ways := range []int{2, 4, 8} {
		checkReplacement(t, uint64(ways), lib.PLRU{Ways: ways}.Build("plru"), ways, lib.NewPLRUModel(ways))
	}
}

// TestPLRUByHand: of four ways, touching 0 sends the victim to the other
// half (2); touching 2 then leaves way 1, the unvisited side of the left.
func TestPLRUByHand(t *testing.T) {
	d := newDUT(t, lib.PLRU{Ways: 4}.Build("plru"))
	d.set("touch", 1)
	d.set("touch_way", 0)
	d.s.Step()
	require.Equal(t, uint64(2), d.get("victim"))
	d.set("touch_way", 2)
	d.s.Step()
	require.Equal(t, uint64(1), d.get("victim"))
}

func TestCounters(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, w := range []int{1, 2, 3} {
		sat := newDUT(t, lib.SatCounterUnit{W: w}.Build("sat"))
		down := newDUT(t, lib.DownCounterUnit{W: w}.Build("down"))
		var satV, downV uint64
		for cycle := range 2000 {
			require.Equal(t, satV, sat.get("count"), "sat w %d cycle %d", w, cycle)
			require.Equal(t, downV, down.get("count"), "down w %d cycle %d", w, cycle)
			require.Equal(t, b2u(downV == 0), down.get("zero"))
			inc, dec := r.IntN(2) == 0, r.IntN(3) == 0
			sat.setBool("inc", inc)
			sat.setBool("dec", dec)
			switch {
			case inc && !dec && satV < mask(w):
				satV++
			case dec && !inc && satV > 0:
				satV--
			}
			load, en, value := r.IntN(8) == 0, r.IntN(2) == 0, r.Uint64()&mask(w)
			down.setBool("load", load)
			down.setBool("en", en)
			down.set("value", value)
			switch {
			case load:
				downV = value
			case en && downV > 0:
				downV--
			}
			sat.s.Step()
			down.s.Step()
		}
	}
}

func TestCAM(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, c := range []struct{ n, w int }{{1, 2}, {4, 2}, {8, 3}, {16, 20}} {
		u := lib.CAM{N: c.n, W: c.w}
		d := newDUT(t, u.Build(u.ModuleName()))
		model := lib.NewCAMModel(c.n)
		keys := min(c.w, 3) // few distinct keys: hits and duplicates
		for cycle := range 3000 {
			key := r.Uint64() & mask(keys)
			d.set("key", key)
			match := model.Lookup(key)
			hit, idx := lib.FirstSet(match, c.n, false)
			what := fmt.Sprintf("n %d cycle %d key %d", c.n, cycle, key)
			require.Equal(t, match, d.get("match"), what)
			require.Equal(t, b2u(hit), d.get("hit"), what)
			require.Equal(t, uint64(idx), d.get("idx"), what)
			write, clear := r.IntN(3) == 0, r.IntN(5) == 0
			wi, ci := r.IntN(1<<uint(lib.IndexWidth(c.n))), r.IntN(1<<uint(lib.IndexWidth(c.n)))
			wk := r.Uint64() & mask(keys)
			d.setBool("write", write)
			d.set("write_idx", uint64(wi))
			d.set("write_key", wk)
			d.setBool("clear", clear)
			d.set("clear_idx", uint64(ci))
			d.s.Step()
			model.Step(write, wi, wk, clear, ci)
		}
	}
}

// TestFIFO drives each FIFO with random valid and ready, phases that fill
// and drain it, and compares every output with the model; a 100-bit word
// checks data wider than 64 bits.
func TestFIFO(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, f := range []lib.FIFO{
		{Depth: 1, Width: 8}, {Depth: 2, Width: 8}, {Depth: 5, Width: 8}, {Depth: 4, Width: 3},
		{Depth: 3, Width: 100}, {Depth: 5, Width: 8, Standard: true}, {Depth: 1, Width: 8, Standard: true},
		{Depth: 1, Width: 8, Pipe: true}, {Depth: 3, Width: 8, Pipe: true}, {Depth: 2, Width: 8, Standard: true, Pipe: true},
	} {
		d := newDUT(t, f.Build(f.ModuleName()))
		model := &lib.FIFOModel[hdl.Bits]{Depth: f.Depth, Standard: f.Standard, Pipe: f.Pipe}
		var pushes, pops, full int
		for cycle := range 4000 {
			fillBias := cycle / 250 % 2 // alternate filling and draining phases
			inValid := r.IntN(4) < 1+2*fillBias
			outReady := r.IntN(4) < 3-2*fillBias
			in := randomBits(r, f.Width)
			what := fmt.Sprintf("%s cycle %d", f.ModuleName(), cycle)
			d.setBool("out_ready", outReady) // a pipe queue's in_ready follows it
			require.Equal(t, b2u(model.InReady(outReady)), d.get("in_ready"), what)
			require.Equal(t, b2u(model.OutValid()), d.get("out_valid"), what)
			require.Equal(t, uint64(model.Count()), d.get("count"), what)
			if f.Standard && pops > 0 || !f.Standard && model.OutValid() {
				out, err := d.s.Get("out_data")
				require.NoError(t, err)
				require.True(t, model.Out().Equal(out), "%s: out_data %v, want %v", what, out, model.Out())
			}
			d.setBool("in_valid", inValid)
			require.NoError(t, d.s.Set("in_data", in))
			if model.Count() == f.Depth {
				full++
			}
			d.s.Step()
			pushed, popped := model.Step(inValid, in, outReady)
			pushes += int(b2u(pushed))
			pops += int(b2u(popped))
		}
		require.Greater(t, full, 100, "%s is rarely full", f.ModuleName())
		require.Greater(t, pops, 500, "%s pops too little", f.ModuleName())
		t.Logf("%s: %d pushes, %d pops, full in %d cycles", f.ModuleName(), pushes, pops, full)
	}
}

// TestFIFOByHand: a pushed word falls through at once; a full queue
// refuses; a push and a pop in one cycle keep the count.
func TestFIFOByHand(t *testing.T) {
	d := newDUT(t, lib.FIFO{Depth: 2, Width: 8}.Build("q"))
	require.Equal(t, []uint64{1, 0, 0}, []uint64{d.get("in_ready"), d.get("out_valid"), d.get("count")})
	d.set("in_valid", 1)
	d.set("in_data", 0xa1)
	d.s.Step()
	require.Equal(t, []uint64{1, 0xa1, 1}, []uint64{d.get("out_valid"), d.get("out_data"), d.get("count")})
	d.set("in_data", 0xb2)
	d.s.Step()
	require.Equal(t, []uint64{0, 0xa1, 2}, []uint64{d.get("in_ready"), d.get("out_data"), d.get("count")})
	d.set("in_data", 0xc3) // refused: full
	d.set("out_ready", 1)
	d.s.Step()
	require.Equal(t, []uint64{0xb2, 1}, []uint64{d.get("out_data"), d.get("count")})
	d.s.Step() // pushes c3, pops b2
	require.Equal(t, []uint64{0xc3, 1}, []uint64{d.get("out_data"), d.get("count")})
}

func randomBits(r *rand.Rand, width int) hdl.Bits {
	words := make([]uint64, (width+63)/64)
	for i := range words {
		words[i] = r.Uint64()
	}
	if width%64 != 0 {
		words[len(words)-1] &= mask(width % 64)
	}
	b, err := hdl.FromWords(width, words)
	if err != nil {
		panic(err)
	}
	return b
}
