package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// OneHotToBinary encodes a one-hot signal as the index of its set bit
// (IndexWidth of its width): bit j of the index ORs the inputs whose index
// has bit j. Zero maps to 0; more than one set bit gives their indexes
// ORed.
func OneHotToBinary(onehot *hdl.Signal) *hdl.Signal {
	n := onehot.Width()
	m := onehot.Module()
	out := make([]*hdl.Signal, IndexWidth(n))
	for j := range out {
		var terms []*hdl.Signal
		for i := range n {
			if i>>uint(j)&1 == 1 {
				terms = append(terms, onehot.Bit(i))
			}
		}
		switch len(terms) {
		case 0:
			out[j] = m.ConstU(1, 0)
		case 1:
			out[j] = terms[0]
		default:
			out[j] = hdl.Concat(terms...).RedOr()
		}
	}
	return Bus(out)
}

// BinaryToOneHot decodes idx into n bits with bit idx set, or none when
// idx >= n.
func BinaryToOneHot(idx *hdl.Signal, n int) *hdl.Signal {
	out := make([]*hdl.Signal, n)
	for i := range out {
		out[i] = idx.EqConst(uint64(i))
	}
	return Bus(out)
}

// Encode is the lib-encode unit: one-hot to binary; EncodePorts are its
// ports.
type Encode struct{ N int }

// ModuleName is the module's name with its parameters: lib_encode_n8.
func (e Encode) ModuleName() string { return fmt.Sprintf("lib_encode_n%d", e.N) }

// EncodePorts are lib-encode's ports (DESIGN.md, lib-encode).
type EncodePorts struct {
	Onehot *hdl.Signal `doc:"[n-1:0] the one-hot input"`
	Idx    *hdl.Signal `doc:"[IW-1:0] the index of its set bit"`
}

// Build makes the module called name.
func (e Encode) Build(name string) *hdl.Module { return hdl.ModuleOf(e.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (e Encode) WithPorts(name string) (*hdl.Module, EncodePorts) {
	m := hdl.NewModule(name)
	idx := m.Output("idx", IndexWidth(e.N))
	ports := EncodePorts{Onehot: m.Input("onehot", e.N), Idx: idx}
	idx.Drive(OneHotToBinary(ports.Onehot))
	e.properties(m, ports)
	return m, ports
}

// properties states what the encoder promises (DESIGN.md, lib-encode):
// a one-hot input is 1 shifted left by idx (a shifter, not a decoder),
// and zero gives 0.
func (e Encode) properties(m *hdl.Module, ports EncodePorts) {
	in := ports.Onehot
	oneHot := exactlyOne(in)
	m.Assert(oneHot.Not().Or(m.ConstU(e.N, 1).ShlBy(ports.Idx).Eq(in)), "idx_of_the_set_bit", "idx is not the index of the one-hot input's set bit")
	m.Assert(in.RedOr().Or(ports.Idx.EqConst(0)), "zero_to_zero", "no set bit gives an idx other than 0")
	m.Cover(oneHot.And(in.Bit(e.N-1)), "top_bit")
}

// Decode is the lib-decode unit: binary to one-hot; DecodePorts are its
// ports.
type Decode struct{ N int }

// ModuleName is the module's name with its parameters: lib_decode_n8.
func (d Decode) ModuleName() string { return fmt.Sprintf("lib_decode_n%d", d.N) }

// DecodePorts are lib-decode's ports (DESIGN.md, lib-decode).
type DecodePorts struct {
	Idx    *hdl.Signal `doc:"[IW-1:0] the index"`
	Onehot *hdl.Signal `doc:"[n-1:0] bit idx set, 0 when idx >= n"`
}

// Build makes the module called name.
func (d Decode) Build(name string) *hdl.Module { return hdl.ModuleOf(d.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (d Decode) WithPorts(name string) (*hdl.Module, DecodePorts) {
	m := hdl.NewModule(name)
	onehot := m.Output("onehot", d.N)
	ports := DecodePorts{Idx: m.Input("idx", IndexWidth(d.N)), Onehot: onehot}
	onehot.Drive(BinaryToOneHot(ports.Idx, d.N))
	d.properties(m, ports)
	return m, ports
}

// properties states what the decoder promises (DESIGN.md, lib-decode):
// an index below n sets exactly its bit (1 shifted left by idx, a
// shifter, not a comparator per bit), any other sets none.
func (d Decode) properties(m *hdl.Module, ports DecodePorts) {
	inRange := below(ports.Idx, d.N)
	m.Assert(hdl.Mux(inRange, m.ConstU(d.N, 1).ShlBy(ports.Idx), m.ConstU(d.N, 0)).Eq(ports.Onehot), "bit_idx_set", "onehot is not bit idx alone (or not 0 with idx out of range)")
	m.Cover(ports.Onehot.Bit(d.N-1), "top_bit")
	if d.N < 1<<uint(ports.Idx.Width()) {
		m.Cover(inRange.Not(), "out_of_range")
	}
}
