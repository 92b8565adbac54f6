package hdl

import (
	"fmt"
	"strings"

	"github.com/parmem/parmem/internal/kernel"
)

// Op is what a Signal computes: a source, storage or an operation. The
// lowered program (Netlist) names its nodes' operations by it.
type Op = kernel.Op

// The operations, as package kernel defines them (see there for each).
const (
	OpInvalid = kernel.OpInvalid
	OpInput   = kernel.OpInput
	OpConst   = kernel.OpConst
	OpWire    = kernel.OpWire
	OpOutput  = kernel.OpOutput
	OpReg     = kernel.OpReg
	OpMemRead = kernel.OpMemRead
	OpMemSync = kernel.OpMemSync
	OpInstOut = kernel.OpInstOut
	OpNot     = kernel.OpNot
	OpAnd     = kernel.OpAnd
	OpOr      = kernel.OpOr
	OpXor     = kernel.OpXor
	OpRedAnd  = kernel.OpRedAnd
	OpRedOr   = kernel.OpRedOr
	OpRedXor  = kernel.OpRedXor
	OpAdd     = kernel.OpAdd
	OpSub     = kernel.OpSub
	OpMul     = kernel.OpMul
	OpShlK    = kernel.OpShlK
	OpShrK    = kernel.OpShrK
	OpSraK    = kernel.OpSraK
	OpShl     = kernel.OpShl
	OpShr     = kernel.OpShr
	OpSra     = kernel.OpSra
	OpEq      = kernel.OpEq
	OpNe      = kernel.OpNe
	OpLt      = kernel.OpLt
	OpLe      = kernel.OpLe
	OpGt      = kernel.OpGt
	OpGe      = kernel.OpGe
	OpLtS     = kernel.OpLtS
	OpLeS     = kernel.OpLeS
	OpGtS     = kernel.OpGtS
	OpGeS     = kernel.OpGeS
	OpMux     = kernel.OpMux
	OpSelect  = kernel.OpSelect
	OpOneHot  = kernel.OpOneHot
	OpConcat  = kernel.OpConcat
	OpSlice   = kernel.OpSlice
	OpRepl    = kernel.OpRepl
	OpZext    = kernel.OpZext
	OpSext    = kernel.OpSext
	NumOps    = kernel.NumOps
)

// Signal is a wire of fixed width inside a Module: a port, a constant, a
// register, a memory read port, an instance output, or the result of an
// operation. Signals are made by Module methods and by the operations below;
// a mistake is recorded in the module (reported by Elaborate) and yields a
// placeholder signal so construction can go on.
type Signal struct {
	mod   *Module
	id    int // index in mod.signals: declaration order
	kind  Op
	width int
	args  []*Signal
	k     int    // shift amount, slice low bit, replication count
	val   Bits   // constant value or register reset value
	sym   string // a constant's Verilog localparam (a state of an FSM), or ""
	name  string
	pos   Pos // where the signal was made
	dpos  Pos // where it was driven (wires, outputs, registers)
	mem   *Mem
	inst  *Instance
	port  string
	doc   string // a port's documentation (DocPorts)
}

// Doc is a port's documentation, from its port record's `doc` tags (see
// DocPorts); "" when it has none.
func (s *Signal) Doc() string { return s.doc }

// Width returns the signal's width in bits (0 for a nil signal).
func (s *Signal) Width() int {
	if s == nil {
		return 0
	}
	return s.width
}

// Name returns the name the user gave the signal, or "".
func (s *Signal) Name() string {
	if s == nil {
		return ""
	}
	return s.name
}

// Module returns the module the signal belongs to.
func (s *Signal) Module() *Module {
	if s == nil {
		return nil
	}
	return s.mod
}

// Pos returns the position of the Go call that made the signal.
func (s *Signal) Pos() Pos {
	if s == nil {
		return Pos{}
	}
	return s.pos
}

// Named gives the signal a name that survives into Verilog, waveforms and
// Sim.Peek, and returns it. A signal that already has a name (a port, say)
// is copied into a new wire with the new name.
func (s *Signal) Named(name string) *Signal {
	if s == nil {
		return nil
	}
	if s.name == "" && s.kind != OpConst {
		s.name = name
		return s
	}
	w := s.mod.Wire(name, s.width)
	w.pos = callerPos()
	w.Drive(s)
	return w
}

// Drive connects src as the driver of a wire, an output port, or the next
// value of a register. Each of them must be driven exactly once.
func (s *Signal) Drive(src *Signal) {
	if s == nil {
		return
	}
	s.drive(callerPos(), src)
}

func (s *Signal) drive(pos Pos, src *Signal) {
	m := s.mod
	switch s.kind {
	case OpWire, OpOutput, OpReg:
	default:
		m.errorf(pos, "Drive: %s is %s, not a wire, output or register", s.describe(), article(s.kind))
		return
	}
	if src == nil {
		m.errorf(pos, "Drive: %s is driven by a nil signal", s.describe())
		return
	}
	if src.mod != m {
		m.errorf(pos, "Drive: %s is driven by a signal of module %s; connect across modules with an Instance", s.describe(), src.mod.name)
		return
	}
	if src.width != s.width {
		m.errorf(pos, "Drive: %s is %d bits but its driver is %d bits; %s", s.describe(), s.width, src.width, fixWidth(src.width, s.width))
		return
	}
	if s.args[0] != nil {
		m.errorf(pos, "Drive: %s has two drivers (the first at %s)", s.describe(), s.dpos)
		return
	}
	if first, ok := m.setPos[s]; ok {
		m.errorf(pos, "Drive: %s is assigned with Set (first at %s); use Drive or Set, not both", s.describe(), first)
		return
	}
	s.args[0] = src
	s.dpos = pos
}

// Enable makes a register load its next value only in cycles where en is 1
// (reset still wins). Without Enable a register loads every cycle.
func (s *Signal) Enable(en *Signal) {
	if s == nil {
		return
	}
	pos := callerPos()
	switch {
	case s.kind != OpReg:
		s.mod.errorf(pos, "Enable: %s is %s, not a register", s.describe(), article(s.kind))
	case s.args[1] != nil:
		s.mod.errorf(pos, "Enable: register %s already has an enable", s.describe())
	case s.mod.isSetTarget(s):
		s.mod.errorf(pos, "Enable: %s is assigned with Set, which decides when it loads; assign it under an If instead", s.describe())
	case s.mod.check1(pos, "Enable", en):
		s.args[1] = en
	}
}

// describe names a signal in an error message.
func (s *Signal) describe() string {
	if s.name != "" {
		return fmt.Sprintf("%s %q", s.kind, s.name)
	}
	return fmt.Sprintf("%s made at %s", s.kind, s.pos)
}

// article is "a <kind>" or "an <kind>".
func article(k Op) string {
	name := k.String()
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// fixWidth suggests how to make a from-bit signal from-bits wide to-bits wide.
func fixWidth(from, to int) string {
	if from < to {
		return fmt.Sprintf("widen the narrower one with Zext(%d) or Sext(%d)", to, to)
	}
	return fmt.Sprintf("narrow the wider one with Trunc(%d) or Slice", to)
}
