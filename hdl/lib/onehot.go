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
	return m, ports
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
	return m, ports
}
