package lib_test

import (
	"os"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// README: control block
// burst collects words in a queue and sends them in bursts: it fills until
// four words wait, then sends one per cycle until the queue runs dry or a
// word marked last leaves.
func burst() *hdl.Module {
	type word struct{ Data, Last *hdl.Signal }
	m := hdl.NewModule("burst")
	in := word{Data: m.Input("data", 8), Last: m.Input("last", 1)}
	st := m.FSM("st", "Fill", "Send")
	q := lib.NewQueue(m, "q", 5, m.Input("in_valid", 1), in, st.Is("Send"))
	st.When("Fill", func() { m.If(q.Count.EqConst(4), func() { st.Goto("Send") }) })
	st.When("Send", func() { m.If(q.Count.EqConst(1).Or(q.Out.Last), func() { st.Goto("Fill") }) })
	m.Output("in_ready", 1).Drive(q.InReady)
	m.Output("out_valid", 1).Drive(st.Is("Send"))
	m.Output("out", 8).Drive(q.Out.Data)
	return m
}

func TestBurstMatchesRTL(t *testing.T) {
	res := verify.Check(t, burst(), verify.CheckOptions{Cycles: 20_000})
	t.Logf("Go, Verilator, Icarus and compiled Go agree on %d cycles", res.Cycles)
}

// README: end

// TestBurstSends: four words pushed come out in order as one burst.
func TestBurstSends(t *testing.T) {
	d := newDUT(t, burst())
	d.set("in_valid", 1)
	for _, w := range []uint64{10, 11, 12, 13} {
		d.set("data", w)
		require.Zero(t, d.get("out_valid"), "no burst before four words wait")
		d.s.Step()
	}
	d.set("in_valid", 0)
	require.Zero(t, d.get("out_valid"), "the state machine sees the fourth word at the next edge")
	d.s.Step()
	var got []uint64
	for d.get("out_valid") == 1 {
		got = append(got, d.get("out"))
		d.s.Step()
	}
	require.Equal(t, []uint64{10, 11, 12, 13}, got)
}

// TestReadmeShowsTheExample: README.md's control-block example is this
// file's, line for line.
func TestReadmeShowsTheExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	body := strings.SplitN(string(src), "// README: control block\n", 2)[1]
	body = strings.SplitN(body, "\n// README: end\n", 2)[0]
	require.True(t, strings.Contains(string(readme), "```go\n"+body+"```\n"), "README.md must show hdl/lib/example_test.go's burst example as it is")
}

// TestQueuesShareOneModule: queues of one shape share a module; another
// depth is another module; records come out as they went in.
func TestQueuesShareOneModule(t *testing.T) {
	type pair struct{ A, B *hdl.Signal }
	m := hdl.NewModule("two")
	ready := m.Input("ready", 1)
	for _, q := range []struct {
		name  string
		depth int
	}{{"x", 5}, {"y", 5}, {"z", 3}} {
		in := pair{A: m.Input(q.name+"_a", 3), B: m.Input(q.name+"_b", 6)}
		out := lib.NewQueue(m, q.name, q.depth, m.Input(q.name+"_valid", 1), in, ready)
		m.Output(q.name+"_out", 9).Drive(hdl.Pack(out.Out))
	}
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	v := string(d.Verilog())
	require.Equal(t, 1, strings.Count(v, "module lib_fifo_d5_w9 ("))
	require.Equal(t, 1, strings.Count(v, "module lib_fifo_d3_w9 ("))

	s := newDUT(t, m)
	s.set("x_valid", 1)
	s.set("x_a", 5)
	s.set("x_b", 33)
	s.s.Step()
	require.Equal(t, uint64(5<<6|33), s.get("x_out"), "A is packed above B")
}
