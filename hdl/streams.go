package hdl

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// Streams simulates K independent copies of a design, the lanes, in one
// pass over its netlist: each operation is applied to the K lanes' values
// in a tight loop, so the cost of fetching and decoding an operation is
// shared by K cycles of simulation instead of paid for each. Every lane
// has its own inputs, registers and memories and behaves exactly as a Sim
// fed the same inputs would (verify's multi-stream checksum test holds it
// to that).
//
// The state is the Sim's flat state with every word widened to K lanes:
// word w of lane l sits at st[w*K+l], so an operation reads and writes K
// consecutive words. Operations on values wider than 64 bits (rare: wide
// data buses) run lane by lane through the Sim's word-slice kernel.
//
// Streams is single-threaded; verify runs one per core for more lanes.
type Streams struct {
	sim    *Sim // the compiled program, slots and sequential operations
	k      int  // lanes
	st     []uint64
	shadow []uint64
	mems   [][]uint64 // memory m of lane l: mems[m][l*size : (l+1)*size]
	size   []int      // words of each memory in one lane
	wide   []laneWide
	one    []uint64 // one lane's state, for the wide operations
	data   []uint64 // one lane's write data and lane mask, for write
	mask   []uint64
	dirty  bool
}

// laneWide is a wide operation run lane by lane: its operands are gathered
// from a lane into Streams.one, where op's views point, and its result is
// scattered back.
type laneWide struct {
	op   wideOp
	dst  int32   // slot of the result
	args []int32 // slots of the operands
	mem  int     // memory read (kMemRead), else -1
}

// NewStreams builds a simulator of lanes independent copies of d. All
// state starts at zero; call Reset to apply register reset values.
func NewStreams(d *Design, lanes int) (*Streams, error) {
	if lanes < 1 {
		return nil, fmt.Errorf("streams: %d lanes; want at least 1", lanes)
	}
	s := NewSim(d)
	m := &Streams{sim: s, k: lanes, dirty: true}
	m.st = make([]uint64, len(s.kn.st)*lanes)
	for w, v := range s.kn.st { // constants
		if v != 0 {
			fill(m.lane(int32(w)), v)
		}
	}
	m.shadow = make([]uint64, len(s.shadow)*lanes)
	for _, mem := range s.kn.mems {
		m.mems = append(m.mems, make([]uint64, len(mem)*lanes))
		m.size = append(m.size, len(mem))
	}
	m.one = make([]uint64, len(s.kn.st))
	for _, w := range s.writes {
		m.data = make([]uint64, max(len(m.data), int(w.words)))
		m.mask = make([]uint64, max(len(m.mask), nwords(len(w.lanes))))
	}
	for j, op := range s.kn.wide {
		dst, args := s.wideSlots(j)
		lw := laneWide{dst: dst, args: args, mem: -1}
		op.dst = m.one[dst : dst+int32(len(op.dst))]
		op.args = make([][]uint64, len(args))
		for k, a := range args {
			op.args[k] = m.one[a : a+int32(nwords(op.aw[k]))]
		}
		if op.k == kMemRead {
			lw.mem = s.memIndex(&d.nodes[s.wideAt[j]])
		}
		lw.op = op
		m.wide = append(m.wide, lw)
	}
	return m, nil
}

// lane is state word w of every lane. Slots are checked when the program
// is built, so the hot loop skips bounds checks (as kernel.exec's ld).
func (m *Streams) lane(w int32) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(m.st)), uintptr(uint32(w))*uintptr(m.k)*8)), m.k)
}

func fill(d []uint64, v uint64) {
	for l := range d {
		d[l] = v
	}
}

// Input returns a handle to top-level input port name (or "rst").
func (m *Streams) Input(name string) (InputRef, error) { return m.sim.Input(name) }

// Signal returns a handle to a named signal, as Sim.Signal.
func (m *Streams) Signal(name string) (SignalRef, error) { return m.sim.Signal(name) }

// InputLanes is word w of input r in every lane, to write lane l's value
// at index l; bits above the input's width must stay zero.
func (m *Streams) InputLanes(r InputRef, w int) []uint64 {
	m.dirty = true
	return m.lane(r.slot + int32(w))
}

// SignalLanes is word w of signal r in every lane, settled; it is valid
// until the next change and must not be modified.
func (m *Streams) SignalLanes(r SignalRef, w int) []uint64 {
	m.settle()
	return m.lane(r.slot + int32(w))
}

// settle evaluates the combinational logic of every lane if inputs or
// state changed.
func (m *Streams) settle() {
	if m.dirty {
		m.exec()
		m.dirty = false
	}
}

// The lane loops: d[l] = f(a[l], ...) for every lane. They and the function
// literals passed to them are inlined, leaving one loop per operation.
func lanes1(d, a []uint64, f func(x uint64) uint64) {
	a = a[:len(d)]
	for l := range d {
		d[l] = f(a[l])
	}
}

func lanes2(d, a, b []uint64, f func(x, y uint64) uint64) {
	a, b = a[:len(d)], b[:len(d)]
	for l := range d {
		d[l] = f(a[l], b[l])
	}
}

// exec runs the program once over every lane; each case is the lane-wise
// form of the same case in kernel.exec.
func (m *Streams) exec() {
	s := m.sim
	argv, argw := s.kn.argv, s.kn.argw
	for i := range s.prog {
		in := &s.prog[i]
		if in.op == opWide {
			m.execWide(&m.wide[in.a])
			continue
		}
		d, a := m.lane(in.dst), m.lane(in.a)
		if m.simdLanes(in, d, a) {
			continue
		}
		mask, k, aw := in.mask, in.k, int(in.aw)
		switch in.op {
		case kNot:
			lanes1(d, a, func(x uint64) uint64 { return ^x & mask })
		case kAnd:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return x & y })
		case kOr:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return x | y })
		case kXor:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return x ^ y })
		case kRedAnd:
			lanes1(d, a, func(x uint64) uint64 { return b2u(x == mask) })
		case kRedOr:
			lanes1(d, a, func(x uint64) uint64 { return b2u(x != 0) })
		case kRedXor:
			lanes1(d, a, func(x uint64) uint64 { return uint64(bits.OnesCount64(x) & 1) })
		case kAdd:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return (x + y) & mask })
		case kSub:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return (x - y) & mask })
		case kMul:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return x * y & mask })
		case kShlK:
			lanes1(d, a, func(x uint64) uint64 { return x << k & mask })
		case kShrK:
			lanes1(d, a, func(x uint64) uint64 { return x >> k })
		case kSraK:
			lanes1(d, a, func(x uint64) uint64 { return uint64(sext64(x, aw)>>k) & mask })
		case kShl:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return shl64(x, y, aw) })
		case kShr:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return shr64(x, y, aw) })
		case kSra:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return sra64(x, y, aw) })
		case kEq:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(x == y) })
		case kNe:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(x != y) })
		case kLt:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(x < y) })
		case kLe:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(x <= y) })
		case kGt:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(x > y) })
		case kGe:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(x >= y) })
		case kLtS:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(sext64(x, aw) < sext64(y, aw)) })
		case kLeS:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(sext64(x, aw) <= sext64(y, aw)) })
		case kGtS:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(sext64(x, aw) > sext64(y, aw)) })
		case kGeS:
			lanes2(d, a, m.lane(in.b), func(x, y uint64) uint64 { return b2u(sext64(x, aw) >= sext64(y, aw)) })
		case kMux:
			t, f := m.lane(in.b)[:len(d)], m.lane(in.c)[:len(d)]
			for l := range d {
				d[l] = f[l] ^ (t[l]^f[l])&-b2u(a[l] != 0)
			}
		case kSelect:
			for l := range d {
				d[l] = 0
				if idx := a[l]; idx < uint64(k) {
					d[l] = m.st[int(argv[in.b+int32(idx)])*m.k+l]
				}
			}
		case kOneHot:
			clear(d)
			for j := range int32(k) {
				c, sel := m.lane(argv[in.b+j])[:len(d)], a[:len(d)]
				for l := range d {
					d[l] |= c[l] & -(sel[l] >> uint(j) & 1)
				}
			}
		case kConcat:
			clear(d)
			for j := in.b; j < in.b+int32(k); j++ {
				w := uint(argw[j])
				lanes2(d, d, m.lane(argv[j]), func(x, y uint64) uint64 { return x<<w | y })
			}
		case kSlice:
			lanes1(d, a, func(x uint64) uint64 { return x >> k & mask })
		case kRepl:
			lanes1(d, a, func(x uint64) uint64 { return replicate(x, uint(aw), mask) })
		case kZext:
			copy(d, a)
		case kSext:
			lanes1(d, a, func(x uint64) uint64 { return uint64(sext64(x, aw)) & mask })
		case kMemRead:
			mem, size := m.mems[in.b], m.size[in.b]
			for l := range d {
				d[l] = mem[l*size+int(a[l])]
			}
		}
	}
}

// execWide runs a wide operation lane by lane through Streams.one.
func (m *Streams) execWide(w *laneWide) {
	op := w.op
	for l := range m.k {
		for j, a := range w.args {
			m.gather(op.args[j], a, l)
		}
		if w.mem >= 0 {
			op.mem = m.mems[w.mem][l*m.size[w.mem]:][:m.size[w.mem]]
		}
		op.eval()
		m.scatter(w.dst, op.dst, l)
	}
}

// gather copies lane l's words of the value at slot into buf.
func (m *Streams) gather(buf []uint64, slot int32, l int) {
	for j := range buf {
		buf[j] = m.st[(int(slot)+j)*m.k+l]
	}
}

// scatter copies buf into lane l's words of the value at slot.
func (m *Streams) scatter(slot int32, buf []uint64, l int) {
	for j, v := range buf {
		m.st[(int(slot)+j)*m.k+l] = v
	}
}

// Step applies one rising clock edge to every lane, in Sim.Step's two
// phases: next values of registers and synchronous reads from the settled
// state, then memory writes, then the registers take their next values.
func (m *Streams) Step() {
	m.settle()
	s, K := m.sim, m.k
	var rst []uint64
	if s.rst >= 0 {
		rst = m.lane(s.rst)
	}
	for i := range s.regs {
		r := &s.regs[i]
		var en []uint64
		if r.en >= 0 {
			en = m.lane(r.en)
		}
		for j := range r.words {
			next, q, d := m.shadow[int(r.shadow+j)*K:][:K], m.lane(r.slot+j), m.lane(r.d+j)
			init := r.reset[j]
			for l := range next {
				v := d[l]
				if en != nil && en[l] == 0 {
					v = q[l]
				}
				if rst != nil && rst[l] != 0 {
					v = init
				}
				next[l] = v
			}
		}
	}
	for i := range s.syncs {
		r := &s.syncs[i]
		n := int(r.words)
		addr := m.lane(r.d)
		for l := range K {
			next := m.shadow[int(r.shadow)*K+l:]
			if r.en >= 0 && m.st[int(r.en)*K+l] == 0 { // hold
				for j := range n {
					next[j*K] = m.st[(int(r.slot)+j)*K+l]
				}
				continue
			}
			mem := m.mems[r.memi][l*m.size[r.memi]:]
			for j := range n { // read-first: before any write
				next[j*K] = mem[int(addr[l])*n+j]
			}
		}
	}
	m.write()
	for i := range s.regs {
		r := &s.regs[i]
		copy(m.st[int(r.slot)*K:][:int(r.words)*K], m.shadow[int(r.shadow)*K:])
	}
	for i := range s.syncs {
		r := &s.syncs[i]
		copy(m.st[int(r.slot)*K:][:int(r.words)*K], m.shadow[int(r.shadow)*K:])
	}
	m.dirty = true
}

// write applies every lane's memory writes, in port order as Sim.Step.
func (m *Streams) write() {
	s, K := m.sim, m.k
	for i := range s.writes {
		w := &s.writes[i]
		n := int(w.words)
		en, addr := m.lane(w.en), m.lane(w.addr)
		data := m.data[:n]
		var mask []uint64
		if w.mask >= 0 {
			mask = m.mask[:nwords(len(w.lanes))]
		}
		for l := range K {
			if en[l] == 0 || addr[l] >= w.depth {
				continue
			}
			word := m.mems[w.memi][l*m.size[w.memi]+int(addr[l])*n:][:n]
			m.gather(data, w.data, l)
			if mask == nil {
				copy(word, data)
				continue
			}
			m.gather(mask, w.mask, l)
			writeLanes(word, data, mask, w.lanes)
		}
	}
}

// Reset holds rst at 1 in every lane for one clock edge, then releases it.
func (m *Streams) Reset() {
	if m.sim.rst < 0 {
		return
	}
	fill(m.lane(m.sim.rst), 1)
	m.dirty = true
	m.Step()
	fill(m.lane(m.sim.rst), 0)
	m.dirty = true
}
