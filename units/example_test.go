package units_test

import (
	"os"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// DESIGN.md: newcomer
// Gather holds requests in a queue and lets them go as a burst once Burst
// of them wait: a unit with parameters, ports as a record, a state machine
// and a queue.
type Gather struct{ Depth, Burst, Width int }

// Params declares Gather's parameters: flag, doc, default and range (a
// range may use an earlier field).
func (g *Gather) Params(d *units.Decl) {
	d.Int(&g.Depth, "depth", "queue entries", 8, 2, 64)
	d.Int(&g.Burst, "burst", "requests a burst waits for", 4, 1, g.Depth)
	d.Int(&g.Width, "width", "request bits", 16, 1, 64)
}

// Request is what a channel carries.
type Request struct {
	Data *hdl.Signal `doc:"[width-1:0] the request"`
}

// GatherPorts are Gather's ports: requests in, the bursts out. A doc tag
// is what gen -portlist (and DESIGN.md's generated port list) says.
type GatherPorts struct {
	In  hdl.Stream[Request] `doc:"requests"`
	Out hdl.Stream[Request] `doc:"bursts, oldest first"`
}

// WithPorts builds Gather through its port record.
func (g Gather) WithPorts(name string) (*hdl.Module, GatherPorts) {
	m := hdl.NewModule(name)
	request := func(f hdl.Fields) Request { return Request{Data: f("data", g.Width)} }
	p := GatherPorts{In: hdl.InStream(m, "in", request), Out: hdl.OutStream(m, "out", request)}
	st := m.FSM("st", "Fill", "Send")
	q := lib.NewQueue(m, "q", g.Depth, p.In.Valid, p.In.Payload, st.Is("Send").And(p.Out.Ready))
	st.When("Fill", func() { m.If(q.Count.EqConst(uint64(g.Burst)), func() { st.Goto("Send") }) })
	st.When("Send", func() { m.If(q.Count.EqConst(1).And(p.Out.Ready), func() { st.Goto("Fill") }) })
	p.In.Ready.Drive(q.InReady)
	p.Out.Valid.Drive(st.Is("Send"))
	p.Out.Payload.Data.Drive(q.Out.Data)
	return m, p
}

// Build is the registry's view of Gather: its module.
func (g Gather) Build(name string) *hdl.Module { return hdl.ModuleOf(g.WithPorts(name)) }

// gather is Gather as a unit: its flags come from Params.
var gather = units.NewUnit("example-gather", "requests released in bursts", (*Gather).Params, Gather.Build)

func TestGatherMatchesRTL(t *testing.T) {
	v, err := gather.Resolve(units.Values{"burst": 3})
	require.NoError(t, err)
	m, err := gather.Build(v, "gather")
	require.NoError(t, err)
	verify.Check(t, m, verify.CheckOptions{Cycles: 20_000})
}

// DESIGN.md: end

// TestGatherSendsABurst drives Gather through its record: three requests
// fill it, then they leave in order, one a cycle.
func TestGatherSendsABurst(t *testing.T) {
	m, p := Gather{Depth: 4, Burst: 3, Width: 8}.WithPorts("gather")
	b := verify.NewBench(t, m)
	inValid, inData, outReady := b.In(p.In.Valid.Name()), b.In(p.In.Payload.Data.Name()), b.In(p.Out.Ready.Name())
	outValid, outData := b.Out(p.Out.Valid.Name()), b.Out(p.Out.Payload.Data.Name())
	b.Set(inValid, 1)
	for _, x := range []uint64{7, 8, 9} {
		b.Set(inData, x)
		require.Zero(t, b.Get(outValid), "no burst before three requests wait")
		b.Step()
	}
	b.Set(inValid, 0)
	b.Set(outReady, 1)
	var got []uint64
	for range 6 { // Get: the outputs before the edge of the last Step
		b.Step()
		if b.Get(outValid) == 1 {
			got = append(got, b.Get(outData))
		}
	}
	require.Equal(t, []uint64{7, 8, 9}, got)
}

// TestDesignShowsTheNewcomersUnit: DESIGN.md's worked example is this
// file's, line for line.
func TestDesignShowsTheNewcomersUnit(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	_, body, _ := strings.Cut(string(src), "// DESIGN.md: newcomer\n")
	body, _, _ = strings.Cut(body, "// DESIGN.md: end\n")
	design, err := os.ReadFile("../DESIGN.md")
	require.NoError(t, err)
	require.True(t, strings.Contains(string(design), "```go\n"+body+"```\n"), "DESIGN.md must show units/example_test.go's Gather as it is")
}
