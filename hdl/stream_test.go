package hdl_test

import (
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// byteWord is a stream payload of one 8-bit field.
type byteWord struct {
	Data *hdl.Signal `doc:"[7:0] the byte"`
}

func byteOf(f hdl.Fields) byteWord { return byteWord{Data: f("data", 8)} }

// bufferPorts are a one-entry stream buffer's ports.
type bufferPorts struct {
	In  hdl.Stream[byteWord] `doc:"bytes in"`
	Out hdl.Stream[byteWord] `doc:"bytes out, one cycle later at the earliest"`
}

// buffer holds one byte between two streams: it takes a byte when empty
// or when the one it holds leaves in the same cycle.
func buffer(name string) (*hdl.Module, bufferPorts) {
	m := hdl.NewModule(name)
	p := bufferPorts{In: hdl.InStream(m, "in", byteOf), Out: hdl.OutStream(m, "out", byteOf)}
	full, data := m.Reg("full", 1), m.Reg("held", 8)
	p.Out.Valid.Drive(full)
	p.Out.Payload.Data.Drive(data)
	p.In.Ready.Drive(full.Not().Or(p.Out.Ready))
	m.If(p.In.Transfer(), func() {
		full.Set(m.ConstU(1, 1))
		data.Set(p.In.Payload.Data)
	}).Elif(p.Out.Transfer(), func() { full.Set(m.ConstU(1, 0)) })
	hdl.DocPorts(m, p)
	return m, p
}

// Two buffers in a row pass every byte through, in order, two cycles
// after it is taken when nothing stalls; Connect drives the consumer's
// valid and payload and the producer's ready, as the type says.
func TestStreamConnect(t *testing.T) {
	sub, subPorts := buffer("buffer")
	top := hdl.NewModule("pair")
	p := bufferPorts{In: hdl.InStream(top, "in", byteOf), Out: hdl.OutStream(top, "out", byteOf)}
	first, second := hdl.Use(top, "first", sub, subPorts), hdl.Use(top, "second", sub, subPorts)
	hdl.Connect(p.In, first.In)
	hdl.Connect(first.Out, second.In)
	hdl.Connect(second.Out, p.Out)
	d, err := hdl.Elaborate(top)
	require.NoError(t, err)

	s := sim.New(d)
	s.Reset()
	var sent, got []uint64
	for cycle := range 40 {
		valid, ready := uint64(cycle%3/2^1), uint64(cycle%5/4^1) // stall both sides now and then
		require.NoError(t, s.SetU("in_valid", valid))
		require.NoError(t, s.SetU("in_data", uint64(cycle)))
		require.NoError(t, s.SetU("out_ready", ready))
		if r, _ := s.GetU("in_ready"); r == 1 && valid == 1 {
			sent = append(sent, uint64(cycle))
		}
		if v, _ := s.GetU("out_valid"); v == 1 && ready == 1 {
			b, _ := s.GetU("out_data")
			got = append(got, b)
		}
		s.Step()
	}
	require.NotEmpty(t, got)
	require.Equal(t, sent[:len(got)], got, "bytes leave in the order they came")
	require.LessOrEqual(t, len(sent)-len(got), 2, "the two buffers hold at most two bytes")

	require.Equal(t, "bytes in: valid: the payload is offered", subPorts.In.Valid.Doc())
	require.Equal(t, "bytes out, one cycle later at the earliest: ready: taken at an edge where valid", subPorts.Out.Ready.Doc())
	require.Equal(t, "bytes in: [7:0] the byte", subPorts.In.Payload.Data.Doc())
	require.Empty(t, p.In.Valid.Doc(), "the top's ports were given no docs")
}

// Connecting a stream backwards is an error at the call's line: the
// producer's side cannot be driven by the consumer's valid.
func TestStreamConnectBackwards(t *testing.T) {
	sub, subPorts := buffer("buffer")
	top := hdl.NewModule("top")
	in := hdl.InStream(top, "in", byteOf)
	u := hdl.Use(top, "u", sub, subPorts)
	hdl.Connect(u.In, in)
	hdl.Connect(u.Out, hdl.OutStream(top, "out", byteOf))
	_, err := hdl.Elaborate(top)
	require.ErrorContains(t, err, "stream_test.go:")
	require.ErrorContains(t, err, "Connect: input \"in_valid\" cannot be driven")
}
