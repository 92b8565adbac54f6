package hdl

import (
	"fmt"
	"math/bits"
)

// Module is a hardware module under construction: ports, signals, registers,
// memories and instances of other modules. Registers and memories use the
// implicit clock `clk` and synchronous active-high reset `rst`, which become
// ports of every module that holds state (directly or through instances).
type Module struct {
	name    string
	pos     Pos
	signals []*Signal // every signal, in declaration order
	inputs  []*Signal
	outputs []*Signal
	mems    []*Mem
	insts   []*Instance
	fsms    []*FSM
	props   []property
	errs    []error // problems recorded during construction
	condState
	decoded map[decodeKey]*Signal // idx == k comparators made by Array.Write
}

// NewModule starts an empty module. The name becomes the Verilog module name.
func NewModule(name string) *Module {
	return &Module{name: name, pos: callerPos()}
}

// Name returns the module's name.
func (m *Module) Name() string { return m.name }

// Inputs returns the input ports in declaration order (clk and rst excluded).
func (m *Module) Inputs() []*Signal { return append([]*Signal(nil), m.inputs...) }

// Outputs returns the output ports in declaration order.
func (m *Module) Outputs() []*Signal { return append([]*Signal(nil), m.outputs...) }

func (m *Module) errorf(pos Pos, format string, args ...any) {
	m.errs = append(m.errs, &Error{Pos: pos, Module: m.name, Msg: fmt.Sprintf(format, args...)})
}

// add appends a new signal to the module. A bad width is reported and
// replaced by 1 so construction can continue.
func (m *Module) add(pos Pos, k Op, width int, name string, args ...*Signal) *Signal {
	if err := checkWidth(width); err != nil {
		m.errorf(pos, "%s: %v", k, err)
		width = 1
	}
	s := &Signal{mod: m, id: len(m.signals), kind: k, width: width, args: args, name: name, pos: pos}
	m.signals = append(m.signals, s)
	return s
}

// Input declares an input port.
func (m *Module) Input(name string, width int) *Signal {
	s := m.add(callerPos(), OpInput, width, name)
	m.inputs = append(m.inputs, s)
	return s
}

// Output declares an output port; drive it with Drive.
func (m *Module) Output(name string, width int) *Signal {
	s := m.add(callerPos(), OpOutput, width, name, nil)
	m.outputs = append(m.outputs, s)
	return s
}

// Wire declares a combinational wire; drive it with Drive. Wires allow a
// signal to be used before the logic that drives it is built.
func (m *Module) Wire(name string, width int) *Signal {
	return m.add(callerPos(), OpWire, width, name, nil)
}

// Reg declares a register clocked by clk that becomes zero at a rising edge
// where rst is 1 (RegInit chooses another reset value). Give its next value
// with Drive and, optionally, a load enable with Enable.
func (m *Module) Reg(name string, width int) *Signal {
	s := m.add(callerPos(), OpReg, width, name, nil, nil)
	s.val = Zero(s.width)
	return s
}

// RegInit declares a register like Reg whose reset value is init.
func (m *Module) RegInit(name string, init Bits) *Signal { return m.regInit(callerPos(), name, init) }

func (m *Module) regInit(pos Pos, name string, init Bits) *Signal {
	if !init.IsValid() {
		m.errorf(pos, "RegInit %q: reset value is an invalid Bits; make it with hdl.U or hdl.Parse", name)
		init = Zero(1)
	}
	s := m.add(pos, OpReg, init.width, name, nil, nil)
	s.val = init
	return s
}

// Const returns a constant signal.
func (m *Module) Const(v Bits) *Signal {
	pos := callerPos()
	if !v.IsValid() {
		m.errorf(pos, "Const: invalid Bits; make values with hdl.U or hdl.Parse")
		v = Zero(1)
	}
	s := m.add(pos, OpConst, v.width, "")
	s.val = v
	return s
}

// ConstU returns a width-bit constant with value v.
func (m *Module) ConstU(width int, v uint64) *Signal {
	pos := callerPos()
	b, err := U(width, v)
	if err != nil {
		m.errorf(pos, "ConstU: %v", err)
		b = Zero(max(1, min(width, MaxWidth)))
	}
	s := m.add(pos, OpConst, b.width, "")
	s.val = b
	return s
}

// Mem is a RAM of depth words of width bits, addressed by
// max(1, ceil(log2 depth)) bits. Write ports are synchronous and may write
// only some lanes of a word (WriteMasked); read ports are asynchronous
// (Read) or synchronous (ReadSync).
//
// Timing rules, which the simulator and the emitted Verilog share:
//   - a write takes effect at the rising edge that samples its enable;
//   - an asynchronous read shows the contents as they are, so a word written
//     at an edge is visible right after it;
//   - a synchronous read returns, after the edge, the word as it was before
//     that edge (read-first): a read of a word written in the same cycle
//     returns the old value;
//   - when several write ports write one word in one cycle, the port declared
//     last wins;
//   - an address at or past the depth (possible when the depth is not a
//     power of two) reads as zero and writes nothing.
//
// Contents start at zero in the Go simulator and are unspecified in Verilog.
type Mem struct {
	mod      *Module
	name     string
	pos      Pos
	addrBits int
	depth    int
	width    int
	writes   []memWrite
	reads    []*Signal
}

type memWrite struct {
	addr, data, en *Signal
	mask           *Signal // one bit per lane of width/mask.width bits, or nil
	pos            Pos
}

// MaxMemAddrBits bounds memories so the Go simulator can hold them.
const MaxMemAddrBits = 24

// Mem declares a memory of 2^addrBits words of width bits.
func (m *Module) Mem(name string, addrBits, width int) *Mem {
	pos := callerPos()
	if addrBits < 1 || addrBits > MaxMemAddrBits {
		m.errorf(pos, "Mem %q: address bits %d out of range 1..%d", name, addrBits, MaxMemAddrBits)
		addrBits = 1
	}
	return m.mem(pos, name, 1<<uint(addrBits), width)
}

// MemDepth declares a memory of depth words of width bits; depth need not
// be a power of two (a five-entry queue, say).
func (m *Module) MemDepth(name string, depth, width int) *Mem {
	pos := callerPos()
	if depth < 1 || depth > 1<<MaxMemAddrBits {
		m.errorf(pos, "MemDepth %q: depth %d out of range 1..%d", name, depth, 1<<MaxMemAddrBits)
		depth = 1
	}
	return m.mem(pos, name, depth, width)
}

func (m *Module) mem(pos Pos, name string, depth, width int) *Mem {
	if err := checkWidth(width); err != nil {
		m.errorf(pos, "Mem %q: %v", name, err)
		width = 1
	}
	mem := &Mem{mod: m, name: name, pos: pos, addrBits: max(1, bits.Len(uint(depth-1))), depth: depth, width: width}
	m.mems = append(m.mems, mem)
	return mem
}

// Name returns the memory's name.
func (mem *Mem) Name() string { return mem.name }

// AddrBits returns the width of the memory's addresses.
func (mem *Mem) AddrBits() int { return mem.addrBits }

// Depth returns the number of words.
func (mem *Mem) Depth() int { return mem.depth }

// pow2 reports whether every address names a word.
func (mem *Mem) pow2() bool { return mem.depth == 1<<uint(mem.addrBits) }

// Width returns the width of the memory's words.
func (mem *Mem) Width() int { return mem.width }

// checkAddr reports whether addr is a usable address for the memory.
func (mem *Mem) checkAddr(pos Pos, op string, addr *Signal) bool {
	m := mem.mod
	switch {
	case addr == nil:
		m.errorf(pos, "%s %q: address is a nil signal", op, mem.name)
	case addr.mod != m:
		m.errorf(pos, "%s %q: address belongs to module %s", op, mem.name, addr.mod.name)
	case addr.width != mem.addrBits:
		m.errorf(pos, "%s %q: address is %d bits, the memory needs %d; %s", op, mem.name, addr.width, mem.addrBits, fixWidth(addr.width, mem.addrBits))
	default:
		return true
	}
	return false
}

// Write adds a synchronous write port: at a rising edge where en is 1,
// word addr becomes data.
func (mem *Mem) Write(addr, data, en *Signal) {
	if mem == nil {
		return
	}
	m, pos := mem.mod, callerPos()
	ok := mem.checkAddr(pos, "Write", addr)
	ok = m.checkWidthOf(pos, "Write data", data, mem.width) && ok
	ok = m.check1(pos, "Write enable", en) && ok
	if ok {
		mem.writes = append(mem.writes, memWrite{addr: addr, data: data, en: en, pos: pos})
	}
}

// WriteMasked adds a synchronous write port that writes only some lanes of
// a word: the word is mask.Width() lanes of Width()/mask.Width() bits, lane
// 0 the least significant, and at a rising edge where en is 1 each lane
// whose mask bit is 1 takes its bits of data (a cache line's sectors, a
// row's elements).
func (mem *Mem) WriteMasked(addr, data, mask, en *Signal) {
	if mem == nil {
		return
	}
	m, pos := mem.mod, callerPos()
	ok := mem.checkAddr(pos, "WriteMasked", addr)
	ok = m.checkWidthOf(pos, "WriteMasked data", data, mem.width) && ok
	ok = m.check1(pos, "WriteMasked enable", en) && ok
	switch {
	case mask == nil || mask.mod != m:
		m.errorf(pos, "WriteMasked %q: the mask is nil or belongs to another module", mem.name)
		ok = false
	case mem.width%mask.width != 0:
		m.errorf(pos, "WriteMasked %q: a %d-bit mask does not split %d-bit words into equal lanes; use a width that divides %d", mem.name, mask.width, mem.width, mem.width)
		ok = false
	}
	if ok {
		mem.writes = append(mem.writes, memWrite{addr: addr, data: data, en: en, mask: mask, pos: pos})
	}
}

// Read adds an asynchronous read port returning word addr.
func (mem *Mem) Read(addr *Signal) *Signal {
	if mem == nil {
		return nil
	}
	pos := callerPos()
	if !mem.checkAddr(pos, "Read", addr) {
		addr = nil
	}
	s := mem.mod.add(pos, OpMemRead, mem.width, "", addr)
	s.mem = mem
	mem.reads = append(mem.reads, s)
	return s
}

// ReadSync adds a synchronous read port: after a rising edge where en is 1
// (or every edge when en is nil) it holds word addr as it was before the
// edge. It is not reset.
func (mem *Mem) ReadSync(addr, en *Signal) *Signal {
	if mem == nil {
		return nil
	}
	pos := callerPos()
	if !mem.checkAddr(pos, "ReadSync", addr) {
		addr = nil
	}
	if en != nil && !mem.mod.check1(pos, "ReadSync enable", en) {
		en = nil
	}
	s := mem.mod.add(pos, OpMemSync, mem.width, "", addr, en)
	s.mem = mem
	mem.reads = append(mem.reads, s)
	return s
}

// check1 reports whether s is a usable one-bit signal of m.
func (m *Module) check1(pos Pos, what string, s *Signal) bool {
	return m.checkWidthOf(pos, what, s, 1)
}

func (m *Module) checkWidthOf(pos Pos, what string, s *Signal, width int) bool {
	switch {
	case s == nil:
		m.errorf(pos, "%s is a nil signal", what)
	case s.mod != m:
		m.errorf(pos, "%s belongs to module %s", what, s.mod.name)
	case s.width != width:
		m.errorf(pos, "%s is %d bits, want %d; %s", what, s.width, width, fixWidth(s.width, width))
	default:
		return true
	}
	return false
}

// Instance places a copy of module sub inside m. Connect every input of sub
// with Connect; read its outputs with Out. Build sub's ports before
// instancing it.
type Instance struct {
	parent *Module
	sub    *Module
	name   string
	pos    Pos
	conns  []conn
	outs   []*Signal
}

type conn struct {
	port string
	sig  *Signal
	pos  Pos
}

// Instance adds an instance of sub named name to m.
func (m *Module) Instance(name string, sub *Module) *Instance {
	return m.instance(callerPos(), name, sub)
}

func (m *Module) instance(pos Pos, name string, sub *Module) *Instance {
	if sub == nil {
		m.errorf(pos, "Instance %q: sub-module is nil", name)
		sub = NewModule("missing")
	}
	i := &Instance{parent: m, sub: sub, name: name, pos: pos}
	m.insts = append(m.insts, i)
	return i
}

// Name returns the instance name.
func (i *Instance) Name() string { return i.name }

// Connect drives input port `port` of the instance with s.
func (i *Instance) Connect(port string, s *Signal) {
	if i == nil {
		return
	}
	pos := callerPos()
	m := i.parent
	if s == nil {
		m.errorf(pos, "instance %s: input %q connected to a nil signal", i.name, port)
		return
	}
	if s.mod != m {
		m.errorf(pos, "instance %s: input %q connected to a signal of module %s", i.name, port, s.mod.name)
		return
	}
	i.conns = append(i.conns, conn{port: port, sig: s, pos: pos})
}

// Out returns the signal of output port `port` of the instance.
func (i *Instance) Out(port string) *Signal {
	if i == nil {
		return nil
	}
	return i.out(callerPos(), port)
}

func (i *Instance) out(pos Pos, port string) *Signal {
	width := 1
	if p := i.sub.findPort(i.sub.outputs, port); p != nil {
		width = p.width
	} else {
		i.parent.errorf(pos, "instance %s: module %s has no output %q%s", i.name, i.sub.name, port, portList(i.sub.outputs))
	}
	s := i.parent.add(pos, OpInstOut, width, "")
	s.inst, s.port = i, port
	i.outs = append(i.outs, s)
	return s
}

func (m *Module) findPort(ports []*Signal, name string) *Signal {
	for _, p := range ports {
		if p.name == name {
			return p
		}
	}
	return nil
}

// portList renders "; it has a, b" for error messages.
func portList(ports []*Signal) string {
	if len(ports) == 0 {
		return "; it has none"
	}
	s := "; it has "
	for i, p := range ports {
		if i > 0 {
			s += ", "
		}
		s += p.name
	}
	return s
}
