package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// PopCount counts the set bits of s in CountWidth(s.Width()) bits, with a
// balanced tree of adders each as wide as its count needs.
func PopCount(s *hdl.Signal) *hdl.Signal { return popCount(Split(s)) }

func popCount(bits []*hdl.Signal) *hdl.Signal {
	if len(bits) == 1 {
		return bits[0]
	}
	half := len(bits) / 2
	w := CountWidth(len(bits))
	return popCount(bits[:half]).Zext(w).Add(popCount(bits[half:]).Zext(w))
}

// PopCountUnit is the lib-popcount unit.
//
//	in bits[N-1:0]; out count[CW-1:0] (CW = CountWidth(N))
type PopCountUnit struct{ N int }

// ModuleName is the module's name with its parameters: lib_popcount_n8.
func (p PopCountUnit) ModuleName() string { return fmt.Sprintf("lib_popcount_n%d", p.N) }

// PopCountPorts are lib-popcount's ports (DESIGN.md, lib-popcount): Bits
// in, the number set, Count, out.
type PopCountPorts struct {
	Bits, Count *hdl.Signal
}

// Build makes the module called name.
func (p PopCountUnit) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (p PopCountUnit) WithPorts(name string) (*hdl.Module, PopCountPorts) {
	m := hdl.NewModule(name)
	count := m.Output("count", CountWidth(p.N))
	ports := PopCountPorts{Bits: m.Input("bits", p.N), Count: count}
	count.Drive(PopCount(ports.Bits))
	return m, ports
}
