package hdl

import (
	"fmt"
	"strings"
)

// kind is what a Signal computes.
type kind uint8

const (
	kInvalid kind = iota
	// Sources and named storage.
	kInput   // module input port
	kConst   // constant, val
	kWire    // combinational wire; args[0] is its driver
	kOutput  // module output port; args[0] is its driver
	kReg     // register; args[0] next value, args[1] enable or nil; val reset value
	kMemRead // asynchronous memory read; args[0] address; mem
	kMemSync // synchronous memory read; args[0] address, args[1] enable or nil; mem
	kInstOut // output port of an instance; inst, port

	// Operations. Operand widths are checked when the signal is made.
	kNot
	kAnd
	kOr
	kXor
	kRedAnd
	kRedOr
	kRedXor
	kAdd
	kSub
	kMul // full product: width = width(a) + width(b)
	kShlK
	kShrK
	kSraK
	kShl
	kShr
	kSra
	kEq
	kNe
	kLt
	kLe
	kGt
	kGe
	kLtS
	kLeS
	kGtS
	kGeS
	kMux    // args: sel, ifTrue, ifFalse
	kSelect // args: index, choices...; out of range gives 0
	kOneHot // args: sel, choices...; OR of the choices whose sel bit is set
	kConcat // args most significant first
	kSlice  // bits [k+width-1 : k] of args[0]
	kRepl   // k copies of args[0]
	kZext
	kSext
	numKinds
)

var kindNames = [numKinds]string{
	kInvalid: "invalid", kInput: "input", kConst: "const", kWire: "wire", kOutput: "output",
	kReg: "reg", kMemRead: "mem_read", kMemSync: "mem_read_sync", kInstOut: "inst_out",
	kNot: "not", kAnd: "and", kOr: "or", kXor: "xor",
	kRedAnd: "rand", kRedOr: "ror", kRedXor: "rxor",
	kAdd: "add", kSub: "sub", kMul: "mul",
	kShlK: "shl", kShrK: "shr", kSraK: "sra", kShl: "shl", kShr: "shr", kSra: "sra",
	kEq: "eq", kNe: "ne", kLt: "lt", kLe: "le", kGt: "gt", kGe: "ge",
	kLtS: "lts", kLeS: "les", kGtS: "gts", kGeS: "ges",
	kMux: "mux", kSelect: "sel", kOneHot: "onehot", kConcat: "cat", kSlice: "slice",
	kRepl: "repl", kZext: "zext", kSext: "sext",
}

func (k kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", int(k))
}

// isStorage reports whether the kind holds state across clock edges, so its
// value does not depend combinationally on its arguments.
func (k kind) isStorage() bool { return k == kReg || k == kMemSync }

// Signal is a wire of fixed width inside a Module: a port, a constant, a
// register, a memory read port, an instance output, or the result of an
// operation. Signals are made by Module methods and by the operations below;
// a mistake is recorded in the module (reported by Elaborate) and yields a
// placeholder signal so construction can go on.
type Signal struct {
	mod   *Module
	id    int // index in mod.signals: declaration order
	kind  kind
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
}

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
	if s.name == "" && s.kind != kConst {
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
	case kWire, kOutput, kReg:
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
	case s.kind != kReg:
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
func article(k kind) string {
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
