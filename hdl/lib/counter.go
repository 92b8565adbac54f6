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
	s.properties(m, ports)
	return m, ports
}

// properties states what the counter promises (DESIGN.md, lib-satcnt),
// cycle by cycle against ghost copies of the last cycle's count and
// inputs: it moves by at most one and never wraps, up only on inc alone,
// down only on dec alone, and it does move on either alone unless at
// that end.
func (s SatCounterUnit) properties(m *hdl.Module, p SatCounterPorts) {
	w := s.W
	prev, inc, dec := m.Reg("ghost_prev", w), m.Reg("ghost_inc", 1), m.Reg("ghost_dec", 1)
	prev.Set(p.Count)
	inc.Set(p.Inc)
	dec.Set(p.Dec)
	step := p.Count.Zext(w + 1).Sub(prev.Zext(w + 1))
	m.Assert(step.EqConst(0).Or(step.EqConst(1)).Or(step.RedAnd()), "moves_by_one", "the count jumped by more than one (or wrapped)")
	up, down := inc.And(dec.Not()), dec.And(inc.Not())
	m.Assert(p.Count.Le(prev).Or(up), "up_only_on_inc", "the count rose without inc alone")
	m.Assert(p.Count.Ge(prev).Or(down), "down_only_on_dec", "the count fell without dec alone")
	top := m.ConstU(1, 1).Repl(w)
	m.Assert(up.And(prev.Ne(top)).Or(down.And(prev.RedOr())).Not().Or(p.Count.Ne(prev)), "moves_unless_at_an_end", "inc or dec alone left the count where it was away from that end")
	m.Cover(up.And(prev.Eq(top)), "held_at_top")
	m.Cover(down.And(prev.EqConst(0)), "held_at_zero")
	m.Cover(inc.And(dec), "inc_and_dec")
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
	d.properties(m, ports)
	return m, ports
}

// properties states what the counter promises (DESIGN.md, lib-downcnt),
// cycle by cycle against ghost copies of the last cycle's count and
// inputs: load sets it to the value, else en counts it down by one and it
// stops at 0, else it holds; zero says when it is 0.
func (d DownCounterUnit) properties(m *hdl.Module, p DownCounterPorts) {
	prev, load, value, en := m.Reg("ghost_prev", d.W), m.Reg("ghost_load", 1), m.Reg("ghost_value", d.W), m.Reg("ghost_en", 1)
	prev.Set(p.Count)
	load.Set(p.Load)
	value.Set(p.Value)
	en.Set(p.En)
	counting := load.Not().And(en).And(prev.RedOr())
	m.Assert(p.Zero.Eq(p.Count.EqConst(0)), "zero_iff_count_zero", "zero does not say whether the count is 0")
	m.Assert(load.Not().Or(p.Count.Eq(value)), "load_sets_value", "a load did not set the count to the value")
	m.Assert(counting.Not().Or(p.Count.Eq(prev.Sub(m.ConstU(d.W, 1)))), "counts_down_by_one", "en did not count down by one")
	m.Assert(load.Or(counting).Or(p.Count.Eq(prev)), "holds_otherwise", "the count moved without a load, or without en above 0")
	m.Cover(counting.And(p.Zero), "reaches_zero")
	m.Cover(load.Not().And(en).And(prev.EqConst(0)), "stops_at_zero")
	m.Cover(load.And(en).And(prev.RedOr()), "load_while_counting")
}
