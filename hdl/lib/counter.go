package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// SatCounter is a saturating up/down counter, a register of m called name
// of width bits (reset to 0): at an edge it counts up with inc and down
// with dec, holds with both or neither, and stays at its ends (0 and
// 2^width-1) rather than wrapping: the confidence counter of a branch or
// conflict predictor.
func SatCounter(m *hdl.Module, name string, width int, inc, dec *hdl.Signal) *hdl.Signal {
	c := m.Reg(name, width)
	m.If(inc.And(dec.Not()).And(c.RedAnd().Not()), func() { c.Set(c.Add(m.ConstU(width, 1))) }).
		Elif(dec.And(inc.Not()).And(c.RedOr()), func() { c.Set(c.Sub(m.ConstU(width, 1))) })
	return c
}

// DownCounter is a loadable down counter, a register of m called name of
// width bits (reset to 0): at an edge, load sets it to value; otherwise en
// counts it down, stopping at 0. zero is 1 when it is 0. For the elastic
// pipeline's safe-distance counter (thesis 5.4.1) and DRAM timing
// counters.
func DownCounter(m *hdl.Module, name string, value, load, en *hdl.Signal) (count, zero *hdl.Signal) {
	w := value.Width()
	count = m.Reg(name, w)
	zero = count.RedOr().Not()
	m.If(load, func() { count.Set(value) }).
		Elif(en.And(zero.Not()), func() { count.Set(count.Sub(m.ConstU(w, 1))) })
	return count, zero
}

// SatCounterUnit is the lib-satcnt unit; SatCounterPorts are its ports.
type SatCounterUnit struct{ W int }

// ModuleName is the module's name with its parameters: lib_satcnt_w2.
func (s SatCounterUnit) ModuleName() string { return fmt.Sprintf("lib_satcnt_w%d", s.W) }

// SatCounterPorts are lib-satcnt's ports (DESIGN.md, lib-satcnt): inc
// and dec move count by one, held at 0 and 2^W-1 and when both or
// neither.
type SatCounterPorts struct {
	Inc   *hdl.Signal `doc:"count up by one"`
	Dec   *hdl.Signal `doc:"count down by one"`
	Count *hdl.Signal `doc:"[w-1:0] the count, held at 0 and 2^w-1"`
}

// Build makes the module called name.
func (s SatCounterUnit) Build(name string) *hdl.Module { return hdl.ModuleOf(s.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (s SatCounterUnit) WithPorts(name string) (*hdl.Module, SatCounterPorts) {
	m := hdl.NewModule(name)
	count := m.Output("count", s.W)
	ports := SatCounterPorts{Inc: m.Input("inc", 1), Dec: m.Input("dec", 1), Count: count}
	count.Drive(SatCounter(m, "value", s.W, ports.Inc, ports.Dec))
	return m, ports
}

// DownCounterUnit is the lib-downcnt unit; DownCounterPorts are its
// ports.
type DownCounterUnit struct{ W int }

// ModuleName is the module's name with its parameters: lib_downcnt_w4.
func (d DownCounterUnit) ModuleName() string { return fmt.Sprintf("lib_downcnt_w%d", d.W) }

// DownCounterPorts are lib-downcnt's ports (DESIGN.md, lib-downcnt):
// load sets count to value, else en counts it down to 0 (zero) and it
// stops.
type DownCounterPorts struct {
	Load  *hdl.Signal `doc:"set count to value (wins over en)"`
	Value *hdl.Signal `doc:"[w-1:0] the value loaded"`
	En    *hdl.Signal `doc:"count down by one, stopping at 0"`
	Count *hdl.Signal `doc:"[w-1:0] the count"`
	Zero  *hdl.Signal `doc:"count is 0"`
}

// Build makes the module called name.
func (d DownCounterUnit) Build(name string) *hdl.Module { return hdl.ModuleOf(d.WithPorts(name)) }

// WithPorts makes the module called name and returns it with its ports.
func (d DownCounterUnit) WithPorts(name string) (*hdl.Module, DownCounterPorts) {
	m := hdl.NewModule(name)
	ports := DownCounterPorts{Load: m.Input("load", 1), Value: m.Input("value", d.W), En: m.Input("en", 1)}
	count, zero := DownCounter(m, "left", ports.Value, ports.Load, ports.En)
	ports.Count = drivenBy(m.Output("count", d.W), count)
	ports.Zero = drivenBy(m.Output("zero", 1), zero)
	return m, ports
}
