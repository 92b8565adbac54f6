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

// PopCountUnit is the lib-popcount unit; PopCountPorts are its ports.
type PopCountUnit struct{ N int }

// ModuleName is the module's name with its parameters: lib_popcount_n8.
func (p PopCountUnit) ModuleName() string { return fmt.Sprintf("lib_popcount_n%d", p.N) }

// PopCountPorts are lib-popcount's ports (DESIGN.md, lib-popcount); count
// is C = CountWidth(N) bits wide.
type PopCountPorts struct {
	Bits  *hdl.Signal `doc:"[n-1:0] the bits counted"`
	Count *hdl.Signal `doc:"[C-1:0] the number of set bits"`
}

// Build makes the module called name.
func (p PopCountUnit) Build(name string) *hdl.Module { return hdl.ModuleOf(p.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (p PopCountUnit) WithPorts(name string) (*hdl.Module, PopCountPorts) {
	m := hdl.NewModule(name)
	count := m.Output("count", CountWidth(p.N))
	ports := PopCountPorts{Bits: m.Input("bits", p.N), Count: count}
	count.Drive(PopCount(ports.Bits))
	p.properties(m, ports)
	return m, ports
}

// properties states what the count promises (DESIGN.md, lib-popcount):
// it equals the bits added one at a time, a ripple of increments that
// shares nothing with the adder tree.
func (p PopCountUnit) properties(m *hdl.Module, ports PopCountPorts) {
	cw := ports.Count.Width()
	sum := m.ConstU(cw, 0)
	for _, b := range Split(ports.Bits) {
		sum = sum.Add(b.Zext(cw))
	}
	m.Assert(ports.Count.Eq(sum), "count_is_ripple_sum", "the count is not the bits added one at a time")
	m.Cover(ports.Bits.RedAnd(), "all_set")
	m.Cover(ports.Bits.RedOr().Not(), "none_set")
}
