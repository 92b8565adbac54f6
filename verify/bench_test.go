package verify

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/stretchr/testify/require"
)

// item is the payload record of the test designs' channels.
type item struct{ Data, Tag *hdl.Signal }

func itemOf(f hdl.Fields) item { return item{Data: f("data", 8), Tag: f("tag", 4)} }

// fifo2 is a two-entry register FIFO: in_valid/in_ready/in_data/in_tag to
// out_valid/out_ready/out_data/out_tag. An item written into the empty
// FIFO comes out in the next cycle; it takes one item per cycle while the
// consumer keeps up. It returns the module and its payload port records.
func fifo2() (*hdl.Module, item, item) {
	m := hdl.NewModule("fifo2")
	inValid := m.Input("in_valid", 1)
	in := itemOf(m.InputFields("in"))
	outReady := m.Input("out_ready", 1)
	v0, v1 := m.Reg("v0", 1), m.Reg("v1", 1) // slot 0 is the head
	d0, d1 := itemOf(m.RegFields("d0")), itemOf(m.RegFields("d1"))
	inReady := v1.Not()
	enq, deq := inValid.And(inReady), v0.And(outReady)
	v0.Drive(hdl.Mux(deq, v1.Or(enq), v0.Or(enq)))
	v1.Drive(hdl.Mux(deq, v1.And(enq), v1.Or(v0.And(enq))))
	hdl.DriveRecord(d0, hdl.MuxRecord(deq, hdl.MuxRecord(v1, d1, in), hdl.MuxRecord(v0, d0, in)))
	hdl.DriveRecord(d1, hdl.MuxRecord(v1.And(deq.Not()), d1, in))
	m.Output("in_ready", 1).Drive(inReady)
	m.Output("out_valid", 1).Drive(v0)
	out := itemOf(m.OutputFields("out"))
	hdl.DriveRecord(out, d0)
	return m, in, out
}

// fifoTx is a transaction of fifo2's channels.
type fifoTx struct{ data, tag uint64 }

// fifoBench drives fifo2 from a source and checks it with an in-order
// scoreboard whose model is model.
type fifoBench struct {
	b   *Bench
	in  *Source[fifoTx]
	out *Sink
	sb  *Scoreboard
}

func newFIFOBench(tb testing.TB, model func(fifoTx) fifoTx) *fifoBench {
	m, inRec, outRec := fifo2()
	b := NewBench(tb, m)
	in := b.Ins(inRec)
	src := NewSource(b, "in", func(tx fifoTx) {
		b.Set(in[0], tx.data)
		b.Set(in[1], tx.tag)
	})
	out := NewSink(b, "out", b.Outs(outRec)...)
	sb := NewScoreboard(b)
	sb.InOrder(out)
	Predict(src, sb, func(a Accepted[fifoTx]) []Expect {
		want := model(a.Tx)
		return []Expect{{Sink: out, Values: []uint64{want.data, want.tag}}}
	})
	return &fifoBench{b, src, out, sb}
}

func fifoTxs(r *rand.Rand, n int) []fifoTx {
	txs := make([]fifoTx, n)
	for i := range txs {
		txs[i] = fifoTx{data: uint64(r.IntN(256)), tag: uint64(i % 16)}
	}
	return txs
}

func sameTx(tx fifoTx) fifoTx { return tx }

var bigOne = big.NewInt(1)

// TestBenchFIFOWithBackPressure: random valid stalls and random ready on a
// FIFO, checked against the FIFO model (out in the order in), then the
// recording replayed on Verilator and Icarus.
func TestBenchFIFOWithBackPressure(t *testing.T) {
	r := rand.New(rand.NewPCG(TestSeed(t, 5), 1))
	f := newFIFOBench(t, sameTx)
	f.in.ValidWhen(Randomly(r, 0.7))
	f.out.ReadyWhen(Randomly(r, 0.6))
	const n = 3000
	f.in.Push(fifoTxs(r, n)...)
	f.b.RunUntil(20*n, "every item accepted", f.in.Idle)
	f.b.RunUntil(100, "every item out", func() bool { return f.sb.Pending() == 0 })
	f.b.Run(4)
	f.sb.Finish()
	require.Equal(t, n, f.in.NumAccepted())
	require.Equal(t, n, f.sb.Matched())
	require.Equal(t, 2*n, f.sb.Compared())
	require.Equal(t, n, f.out.Count())
	lat := f.sb.Latency()
	require.Equal(t, n, lat.N)
	require.Equal(t, uint64(1), lat.Min, "an item into the empty FIFO comes out the next cycle")
	require.Greater(t, lat.Max, uint64(2), "back-pressure makes items wait")
	thr := f.in.Throughput(0, f.b.Cycle())
	require.Greater(t, thr, 0.3)
	require.Less(t, thr, 0.7, "the consumer is ready 60%% of cycles")
	t.Logf("%d items in %d cycles (%.2f per cycle); latency %s", n, f.b.Cycle(), thr, lat)
	require.Len(t, f.b.Recorded(), int(f.b.Cycle()))
	res := f.b.Replay(ReplayOptions{Icarus: true})
	require.Equal(t, f.b.Cycle(), res.Cycles)
}

// TestBenchFIFOKnownTiming checks the counts against timing worked out by
// hand: back to back, one item per cycle with latency 1; with the consumer
// stalled for five cycles, two items fill the FIFO and the third waits.
func TestBenchFIFOKnownTiming(t *testing.T) {
	f := newFIFOBench(t, sameTx)
	f.in.Push(fifoTxs(rand.New(rand.NewPCG(1, 1)), 10)...)
	f.b.RunUntil(10, "every item accepted", f.in.Idle)
	f.b.Run(1)
	f.sb.Finish()
	require.Equal(t, []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, f.in.AcceptCycles())
	require.Equal(t, 1.0, f.in.Throughput(0, 10))
	require.Equal(t, 0.5, f.in.Throughput(5, 15))
	require.Equal(t, Latency{N: 10, Min: 1, Max: 1, Sum: 10}, f.sb.Latency())
	require.Equal(t, f.sb.Latency(), f.out.Latency())
	got := f.out.Received()
	require.Len(t, got, 10)
	require.Equal(t, uint64(1), got[0].Cycle)
	require.Equal(t, uint64(10), got[9].Cycle)
	require.Equal(t, uint64(3), f.out.Value(got[3], 1), "out_tag of the fourth item")

	f = newFIFOBench(t, sameTx)
	f.out.ReadyWhen(func(c uint64) bool { return c >= 5 })
	f.in.Push(fifoTxs(rand.New(rand.NewPCG(1, 1)), 4)...)
	f.b.Run(12)
	f.sb.Finish()
	require.Equal(t, []uint64{0, 1, 6, 7}, f.in.AcceptCycles(), "full after two; room again after the first leaves in cycle 5")
	require.Equal(t, Latency{N: 4, Min: 1, Max: 5, Sum: 5 + 5 + 1 + 1}, f.sb.Latency())
	require.Equal(t, 3.0, f.sb.Latency().Mean())
}

// pipe2 is a two-stage pipeline without back-pressure: out_data is in_data
// plus one, two cycles later, at width bits.
func pipe2(width int) *hdl.Module {
	m := hdl.NewModule("pipe2")
	inValid, inData := m.Input("in_valid", 1), m.Input("in_data", width)
	v1, d1, v2, d2 := m.Reg("v1", 1), m.Reg("d1", width), m.Reg("v2", 1), m.Reg("d2", width)
	v1.Drive(inValid)
	d1.Drive(inData.Add(m.ConstU(width, 1)))
	v2.Drive(v1)
	d2.Drive(d1)
	m.Output("out_valid", 1).Drive(v2)
	m.Output("out_data", width).Drive(d2)
	return m
}

// TestBenchChannelsWithoutReady: a 72-bit pipeline with no ready on either
// side; the values span two words.
func TestBenchChannelsWithoutReady(t *testing.T) {
	b := NewBench(t, pipe2(72))
	data := b.In("in_data")
	src := NewSource(b, "in", func(v hdl.Bits) { b.SetBits(data, v) }).Gap(1)
	out := NewSink(b, "out", b.Out("out_data"))
	sb := NewScoreboard(b)
	sb.InOrder(out)
	Predict(src, sb, func(a Accepted[hdl.Bits]) []Expect {
		sum := a.Tx.Big()
		sum.Add(sum, bigOne)
		sum.SetBit(sum, 72, 0)
		want, err := hdl.FromBig(72, sum)
		require.NoError(t, err)
		return []Expect{{Sink: out, Values: want.Words()}}
	})
	r := rand.New(rand.NewPCG(2, 2))
	for range 200 {
		src.Push(hdl.MustParse(fmt.Sprintf("72'h%02x%016x", r.IntN(256), r.Uint64())))
	}
	src.Push(hdl.MustParse("72'hffffffffffffffffff"), hdl.MustParse("72'h00ffffffffffffffff"))
	b.RunUntil(1000, "every value accepted", src.Idle)
	b.Run(3)
	sb.Finish()
	require.Equal(t, 202, sb.Matched())
	require.Equal(t, Latency{N: 202, Min: 2, Max: 2, Sum: 404}, sb.Latency())
	require.Equal(t, 0.5, src.Throughput(0, 404), "Gap(1): every other cycle")
	last := out.Received()[201]
	require.Equal(t, []uint64{0, 1}, last.Values, "72'h00ffffffffffffffff + 1 carries into the second word")
	require.Equal(t, "72'h010000000000000000", b.GetBits(b.Out("out_data")).String())
	b.Replay(ReplayOptions{})
}

// TestBenchPerCycleModel: a model that reads each cycle's inputs (no
// source), and a waveform of the run.
func TestBenchPerCycleModel(t *testing.T) {
	b := NewBench(t, pipe2(8))
	vcd := filepath.Join(t.TempDir(), "pipe2.vcd")
	t.Cleanup(func() { // runs after the bench's cleanup has finished the waveform
		text, err := os.ReadFile(vcd)
		require.NoError(t, err)
		require.Contains(t, string(text), "out_data")
		require.Contains(t, string(text), "#3000") // cycle 300 (10 time units a cycle)
	})
	b.Trace(vcd)
	valid, data := b.In("in_valid"), b.In("in_data")
	out := NewSink(b, "out", b.Out("out_data"))
	sb := NewScoreboard(b)
	sb.InOrder(out)
	b.Before(func(c uint64) {
		b.Set(valid, c%3&1)
		b.Set(data, c*7%256)
	})
	b.After(func(c uint64) {
		if b.Driven(valid) == 1 {
			sb.Expect(Expect{Sink: out, Values: []uint64{(b.Driven(data) + 1) % 256}, From: Origin{Chan: "in", Cycle: c}})
		}
	})
	b.Run(301)
	sb.Finish()
	require.Equal(t, 100, sb.Matched())
	require.Equal(t, Latency{N: 100, Min: 2, Max: 2, Sum: 200}, out.Latency())
}

// tagged is the payload of the out-of-order design.
type tagged struct{ ID, Data *hdl.Signal }

func taggedOf(f hdl.Fields) tagged { return tagged{ID: f("id", 4), Data: f("data", 8)} }

// outOfOrder answers a request with an even id after three cycles and one
// with an odd id after one, so responses overtake each other, as an MSHR's
// do; a fast request is held back (in_ready low) when it would meet a slow
// one at the output. The answer is the data XOR 0xa5, with the id.
func outOfOrder() *hdl.Module {
	m := hdl.NewModule("ooo")
	inValid := m.Input("in_valid", 1)
	in := taggedOf(m.InputFields("in"))
	odd := in.ID.Bit(0)
	v := []*hdl.Signal{m.Reg("s1_valid", 1), m.Reg("s2_valid", 1), m.Reg("s3_valid", 1), m.Reg("f1_valid", 1)}
	s := []tagged{taggedOf(m.RegFields("s1")), taggedOf(m.RegFields("s2")), taggedOf(m.RegFields("s3")), taggedOf(m.RegFields("f1"))}
	inReady := odd.And(v[1]).Not()
	take := inValid.And(inReady)
	answer := tagged{ID: in.ID, Data: in.Data.Xor(m.ConstU(8, 0xa5))}
	v[0].Drive(take.And(odd.Not()))
	hdl.DriveRecord(s[0], answer)
	v[1].Drive(v[0])
	hdl.DriveRecord(s[1], s[0])
	v[2].Drive(v[1])
	hdl.DriveRecord(s[2], s[1])
	v[3].Drive(take.And(odd))
	hdl.DriveRecord(s[3], answer)
	m.Output("in_ready", 1).Drive(inReady)
	m.Output("out_valid", 1).Drive(v[2].Or(v[3]))
	hdl.DriveRecord(taggedOf(m.OutputFields("out")), hdl.MuxRecord(v[2], s[2], s[3]))
	return m
}

// oooBench drives outOfOrder with requests whose ids count modulo 16.
func oooBench(tb testing.TB, byTag bool) (*Bench, *Source[uint64], *Sink, *Scoreboard) {
	b := NewBench(tb, outOfOrder())
	id, data := b.In("in_id"), b.In("in_data")
	src := NewSource(b, "in", func(x uint64) {
		b.Set(id, x%16)
		b.Set(data, x>>4)
	})
	out := NewSink(b, "out", b.Out("out_id"), b.Out("out_data"))
	sb := NewScoreboard(b)
	if byTag {
		sb.ByTag(out, b.Out("out_id"))
	} else {
		sb.InOrder(out)
	}
	Predict(src, sb, func(a Accepted[uint64]) []Expect {
		return []Expect{{Sink: out, Values: []uint64{a.Tx % 16, a.Tx>>4 ^ 0xa5}}}
	})
	return b, src, out, sb
}

// TestBenchMatchesByTag: responses that overtake each other match by id.
func TestBenchMatchesByTag(t *testing.T) {
	b, src, out, sb := oooBench(t, true)
	r := rand.New(rand.NewPCG(3, 3))
	for i := range 500 {
		src.Push(uint64(r.IntN(256))<<4 | uint64(i%16))
	}
	b.RunUntil(2000, "every request accepted", src.Idle)
	b.Run(4)
	sb.Finish()
	require.Equal(t, 500, sb.Matched())
	require.Equal(t, uint64(1), sb.Latency().Min)
	require.Equal(t, uint64(3), sb.Latency().Max)
	overtaken := 0
	got := out.Received()
	for i := 1; i < len(got); i++ {
		if (out.Value(got[i-1], 0)+1)%16 != out.Value(got[i], 0) {
			overtaken++
		}
	}
	require.Greater(t, overtaken, 100, "responses come out of request order")
	b.Replay(ReplayOptions{})
}

// failure runs body with a testing.TB whose Fatal stops body's goroutine
// and returns the message ("" if body did not fail).
func failure(t *testing.T, body func(tb testing.TB)) string {
	f := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(f)
	}()
	<-done
	return f.msg
}

type fakeTB struct {
	testing.TB
	msg string
}

func (f *fakeTB) Helper()             {}
func (f *fakeTB) Logf(string, ...any) {}
func (f *fakeTB) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	runtime.Goexit()
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestBenchScoreboardFails: wrong models, surplus and missing responses
// and misuse all fail with the cycle, the channel and the port.
func TestBenchScoreboardFails(t *testing.T) {
	var b *Bench
	msg := failure(t, func(tb testing.TB) {
		f := newFIFOBench(tb, func(tx fifoTx) fifoTx { return fifoTx{tx.data ^ 4, tx.tag} }) // a wrong model
		b = f.b
		f.in.Push(fifoTx{1, 2}, fifoTx{3, 4})
		f.b.Run(10)
	})
	var ce *CheckError
	require.ErrorAs(t, b.Err(), &ce)
	require.Equal(t, CheckError{Cycle: 1, Sink: "out", Port: "out_data", Got: "8'h01", Want: "8'h05",
		From: Origin{Chan: "in", Index: 0, Cycle: 0}, Response: "out_data=8'h01 out_tag=4'h2"}, *ce)
	require.Equal(t, "cycle 1: out: out_data = 8'h01, want 8'h05, in the response to in#0 (accepted in cycle 0)\n  response: out_data=8'h01 out_tag=4'h2", msg)

	msg = failure(t, func(tb testing.TB) {
		f := newFIFOBench(tb, sameTx)
		f.b.Before(func(c uint64) { // an item the model never sees
			if c == 3 {
				f.b.Set(f.b.In("in_valid"), 1)
			}
		})
		f.b.Run(10)
	})
	require.Equal(t, "cycle 4: out: a response nothing is expected for\n  response: out_data=8'h00 out_tag=4'h0", msg)

	msg = failure(t, func(tb testing.TB) {
		f := newFIFOBench(tb, sameTx)
		f.out.ReadyWhen(func(uint64) bool { return false })
		f.in.Push(fifoTx{7, 7})
		f.b.Run(10)
		f.sb.Finish()
	})
	require.Equal(t, "cycle 10: out: 1 expected response(s) never came; the oldest answers in#0 (accepted in cycle 0)", msg)

	msg = failure(t, func(tb testing.TB) { // responses overtake: in order is wrong
		b, src, _, _ := oooBench(tb, false)
		src.Push(0x10, 0x21) // id 0 (slow), then id 1 (fast)
		b.Run(10)
	})
	require.Contains(t, msg, "cycle 2: out: out_id = 4'h1, want 4'h0, in the response to in#0 (accepted in cycle 0)")

	msg = failure(t, func(tb testing.TB) {
		b, src, _, _ := oooBench(tb, true)
		b.Before(func(c uint64) {
			if c == 0 {
				src.Push(0x15) // expected, but the bench then sends another id 5 behind the model's back
			}
			if c == 5 {
				b.Set(b.In("in_valid"), 1)
			}
		})
		b.Run(10)
	})
	require.Equal(t, "cycle 6: out: a response with a tag nothing is expected for (out_id = 4'h5)\n  response: out_id=4'h5 out_data=8'ha4", msg)

	msg = failure(t, func(tb testing.TB) { NewBench(tb, pipe2(8)).In("in_dat") })
	require.Equal(t, `bench pipe2: no input "in_dat" (inputs: rst, in_valid, in_data; outputs: out_valid, out_data)`, msg)

	msg = failure(t, func(tb testing.TB) {
		b := NewBench(tb, pipe2(8))
		b.Run(3)
		b.Set(b.In("in_data"), 256)
	})
	require.Equal(t, "cycle 3: input in_data: 0x100 does not fit 8 bits", msg)

	msg = failure(t, func(tb testing.TB) {
		f := newFIFOBench(tb, sameTx)
		f.out.ReadyWhen(func(uint64) bool { return false })
		f.in.Push(fifoTxs(rand.New(rand.NewPCG(1, 1)), 5)...)
		f.b.RunUntil(20, "every item accepted", f.in.Idle)
	})
	require.Equal(t, "cycle 20: every item accepted: still waiting after 20 cycles", msg)

	msg = failure(t, func(tb testing.TB) {
		m, in, _ := fifo2()
		NewBench(tb, m).Outs(in)
	})
	require.True(t, strings.HasPrefix(msg, `bench fifo2: no output "in_data"`), msg)

	require.Equal(t, "", failure(t, func(tb testing.TB) { newFIFOBench(tb, sameTx).b.Run(5) }), "a bench that does nothing wrong passes")
}

// TestBenchDontRecord: a bench that does not record runs as before and
// refuses to hand out or replay a recording.
func TestBenchDontRecord(t *testing.T) {
	f := newFIFOBench(t, sameTx)
	f.b.DontRecord()
	f.in.Push(fifoTx{1, 2})
	f.b.Run(5)
	require.Equal(t, uint64(5), f.b.Cycle())
	require.Empty(t, f.b.rec)
	msg := failure(t, func(tb testing.TB) {
		g := newFIFOBench(tb, sameTx)
		g.b.DontRecord()
		g.b.Run(2)
		g.b.Replay(ReplayOptions{NoVerilator: true})
	})
	require.Contains(t, msg, "Recorded after DontRecord")
}
