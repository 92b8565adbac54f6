//go:build linux && amd64

package hdl

import (
	le "encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"syscall"
	"unsafe"
)

// callNative calls the machine code at fn with the state at st and aux
// (the clock edge's scratch) in SI (native_amd64.s).
//
//go:noescape
func callNative(fn uintptr, st, aux unsafe.Pointer)

// The registers the machine code uses: DI holds the state's address
// throughout, AX, CX and DX hold values, R11 a mask too wide for an
// immediate. (The Go ABI lets an assembly function's callee use them
// freely; BP, SP, R14 and R15 are left alone.)
const (
	rAX  = 0
	rCX  = 1
	rDX  = 2
	rSI  = 6
	rDI  = 7
	rR11 = 11
)

// The condition codes of SETcc and CMOVcc.
const (
	ccB  = 0x2 // below (unsigned <)
	ccAE = 0x3 // above or equal (unsigned >=)
	ccE  = 0x4
	ccNE = 0x5
	ccBE = 0x6 // below or equal (unsigned <=)
	ccA  = 0x7 // above (unsigned >)
	ccNP = 0xb // parity odd
	ccL  = 0xc // less (signed <)
	ccGE = 0xd
	ccLE = 0xe
	ccG  = 0xf
)

// The /digit opcode extensions of the shift group (C1, D3) and of F7.
const (
	extNot = 2
	extNeg = 3
	extShl = 4
	extShr = 5
	extSar = 7
)

// tableFrom is the fewest choices a select or one-hot select looks up in a
// table: fewer take a compare or bit test each (smm2d's selects of 2 and 4
// and one-hot selects of 2 to 4 choices ran slower from a table, SAMS's
// one-hot selects of up to 16 faster).
const tableFrom = 5

// The "op r64, r/m64" opcodes of the ALU operations.
const (
	opcAdd = 0x03
	opcOr  = 0x0b
	opcAnd = 0x23
	opcSub = 0x2b
	opcXor = 0x33
	opcCmp = 0x3b
	opcMov = 0x8b
)

// fixup is a lookup's displacement at b[at:], to point at table.
type fixup struct{ at, table int }

// x86 assembles machine code. held and heldAt forward a value: the
// state word held was stored from register heldReg by the instruction
// ending at heldAt (or is only there: elide), so a load of it right after
// reads the register. elide is a result to keep out of the state, elided
// one kept out and not yet loaded.
type x86 struct {
	b             []byte
	held          int32
	heldReg       int
	heldAt        int
	elide, elided int32
	tables        [][]int32 // the segment's lookup tables (tablesOut)
	fixups        []fixup
}

func (a *x86) bytes(bs ...byte) { a.b = append(a.b, bs...) }

// rex writes a REX prefix for a 64-bit (w) operation with reg in ModRM.reg
// and rm in ModRM.rm, when one is needed.
func (a *x86) rex(w bool, reg, rm int) {
	p := byte(0x40)
	if w {
		p |= 8
	}
	p |= byte(reg>>3&1)<<2 | byte(rm>>3&1)
	if p != 0x40 {
		a.bytes(p)
	}
}

// mem writes op with ModRM.reg = reg (a register or an opcode extension)
// and the state word slot, [DI + 8 slot], as its memory operand.
func (a *x86) mem(op []byte, reg int, slot int32) {
	a.rex(true, reg, rDI)
	a.bytes(op...)
	a.bytes(0x80 | byte(reg&7)<<3 | rDI) // mod 10: [DI + disp32]
	a.b = le.LittleEndian.AppendUint32(a.b, uint32(slot)*8)
}

// reg writes the 64-bit (w) register form of op: ModRM.reg = reg, rm = rm.
func (a *x86) reg(w bool, op []byte, reg, rm int) {
	a.rex(w, reg, rm)
	a.bytes(op...)
	a.bytes(0xc0 | byte(reg&7)<<3 | byte(rm&7))
}

// load loads state word slot into r, or moves it from the register that
// has just stored it.
func (a *x86) load(r int, slot int32) {
	switch {
	case len(a.b) != a.heldAt || slot != a.held:
		a.mem([]byte{opcMov}, r, slot)
	case r != a.heldReg:
		a.alu(opcMov, r, a.heldReg)
	}
	if slot == a.elided {
		a.elided = -1
	}
}

// store stores r into state word slot, unless it is to be elided.
func (a *x86) store(slot int32, r int) {
	if a.elided >= 0 { // the previous result, kept in a register, was never read
		panic(fmt.Sprintf("hdl: machine code does not load state word %d first", a.elided))
	}
	if slot == a.elide {
		a.elided = slot
	} else {
		a.mem([]byte{0x89}, r, slot)
	}
	a.held, a.heldReg, a.heldAt = slot, r, len(a.b)
}

func (a *x86) aluMem(opc byte, r int, slot int32) { a.mem([]byte{opc}, r, slot) }
func (a *x86) alu(opc byte, dst, src int)         { a.reg(true, []byte{opc}, dst, src) }
func (a *x86) unary(ext, r int)                   { a.reg(true, []byte{0xf7}, ext, r) }
func (a *x86) shiftCL(ext, r int)                 { a.reg(true, []byte{0xd3}, ext, r) }
func (a *x86) cmov(cc byte, dst, src int)         { a.reg(true, []byte{0x0f, 0x40 | cc}, dst, src) }
func (a *x86) cmovMem(cc byte, r int, slot int32) {
	a.mem([]byte{0x0f, 0x40 | cc}, r, slot)
}

// shift shifts r by the constant k (0 < k < 64).
func (a *x86) shift(ext, r int, k int) {
	if k == 0 {
		return
	}
	a.reg(true, []byte{0xc1}, ext, r)
	a.bytes(byte(k))
}

// cmpZero compares state word slot with 0.
func (a *x86) cmpZero(slot int32) {
	a.mem([]byte{0x83}, 7, slot)
	a.bytes(0)
}

// storeZero clears state word slot.
func (a *x86) storeZero(slot int32) {
	a.mem([]byte{0xc7}, 0, slot)
	a.bytes(0, 0, 0, 0)
}

// jump writes a jump opcode and room for its 32-bit displacement, whose
// place it returns for land.
func (a *x86) jump(op ...byte) int {
	a.bytes(op...)
	a.bytes(0, 0, 0, 0)
	return len(a.b) - 4
}

// land points the jump whose displacement is at at the next instruction.
func (a *x86) land(at int) {
	le.LittleEndian.PutUint32(a.b[at:], uint32(len(a.b)-(at+4)))
}

// zero clears r (and the flags' meaning: write it before a compare).
func (a *x86) zero(r int) { a.reg(false, []byte{0x31}, r, r) }

// setcc sets the low byte of r (AX, CX or DX) to condition cc.
func (a *x86) setcc(cc byte, r int) { a.bytes(0x0f, 0x90|cc, 0xc0|byte(r)) }

// cmpImm compares r with the constant v (0 <= v < 2^31).
func (a *x86) cmpImm(r int, v uint64) {
	if v < 128 {
		a.reg(true, []byte{0x83}, 7, r)
		a.bytes(byte(v))
		return
	}
	a.reg(true, []byte{0x81}, 7, r)
	a.b = le.LittleEndian.AppendUint32(a.b, uint32(v))
}

// movImm sets r to the constant v without touching the flags.
func (a *x86) movImm(r int, v uint64) {
	a.rex(true, 0, r)
	a.bytes(0xb8 | byte(r&7))
	a.b = le.LittleEndian.AppendUint64(a.b, v)
}

// mask ANDs r with m: nothing for all ones, an immediate when it fits,
// a shift pair for other low masks, else through R11.
func (a *x86) mask(r int, m uint64) {
	switch w := bits.Len64(m); {
	case m == ^uint64(0):
	case m < 1<<31:
		a.reg(true, []byte{0x81}, 4, r)
		a.b = le.LittleEndian.AppendUint32(a.b, uint32(m))
	case m == 1<<32-1:
		a.reg(false, []byte{opcMov}, r, r) // a 32-bit move clears the high half
	case m == 1<<w-1:
		a.shift(extShl, r, 64-w)
		a.shift(extShr, r, 64-w)
	default:
		a.movImm(rR11, m)
		a.alu(opcAnd, r, rR11)
	}
}

// signExtend sign-extends the w-bit value in r to 64 bits.
func (a *x86) signExtend(r, w int) {
	a.shift(extShl, r, 64-w)
	a.shift(extSar, r, 64-w)
}

// aluOpcodes maps the operations one ALU instruction computes to its opcode.
var aluOpcodes = map[kind]byte{kAnd: opcAnd, kOr: opcOr, kXor: opcXor, kAdd: opcAdd, kSub: opcSub}

// compares maps a comparison to its condition code; signed ones compare
// their operands shifted to the top of the word, which keeps their order.
var compares = map[kind]byte{
	kEq: ccE, kNe: ccNE, kLt: ccB, kLe: ccBE, kGt: ccA, kGe: ccAE,
	kLtS: ccL, kLeS: ccLE, kGtS: ccG, kGeS: ccGE,
}

// instr writes the machine code of one narrow instruction, the
// counterpart of its case in kernel.exec, or reports that it has none.
func (a *x86) instr(kn *kernel, in *instr) bool {
	switch in.op {
	case kNot:
		a.load(rAX, in.a)
		a.unary(extNot, rAX)
		a.mask(rAX, in.mask)
	case kAnd, kOr, kXor, kAdd, kSub:
		a.load(rAX, in.a)
		a.aluMem(aluOpcodes[in.op], rAX, in.b)
		if in.op == kAdd || in.op == kSub {
			a.mask(rAX, in.mask)
		}
	case kMul:
		a.load(rAX, in.a)
		a.mem([]byte{0x0f, 0xaf}, rAX, in.b)
		a.mask(rAX, in.mask)
	case opAndNot:
		a.load(rAX, in.b)
		a.unary(extNot, rAX)
		a.aluMem(opcAnd, rAX, in.a)
	case opOrAnd:
		a.load(rAX, in.a)
		a.aluMem(opcAnd, rAX, in.b)
		a.aluMem(opcOr, rAX, in.c)
	case opOr3:
		a.load(rAX, in.a)
		a.aluMem(opcOr, rAX, in.b)
		a.aluMem(opcOr, rAX, in.c)
	case kRedAnd: // in.mask is the operand's
		a.load(rAX, in.a)
		a.zero(rCX)
		a.movImm(rDX, in.mask)
		a.alu(opcCmp, rAX, rDX)
		a.setcc(ccE, rCX)
		a.store(in.dst, rCX)
		return true
	case kRedXor: // fold to 16 bits; XOR AL, AH sets the parity flag
		a.load(rAX, in.a)
		a.zero(rCX)
		for _, k := range []int{32, 16} {
			a.alu(opcMov, rDX, rAX)
			a.shift(extShr, rDX, k)
			a.alu(opcXor, rAX, rDX)
		}
		a.bytes(0x30, 0xe0)
		a.setcc(ccNP, rCX)
		a.store(in.dst, rCX)
		return true
	case kRedOr:
		a.load(rAX, in.a)
		a.zero(rCX)
		a.cmpImm(rAX, 0)
		a.setcc(ccNE, rCX)
		a.store(in.dst, rCX)
		return true
	case kShlK, kShrK:
		if in.k >= 64 {
			a.zero(rAX)
			break
		}
		a.load(rAX, in.a)
		if in.op == kShlK {
			a.shift(extShl, rAX, int(in.k))
			a.mask(rAX, in.mask)
		} else {
			a.shift(extShr, rAX, int(in.k))
		}
	case kSraK:
		a.load(rAX, in.a)
		up := 64 - int(in.aw)
		a.shift(extShl, rAX, up)
		a.shift(extSar, rAX, min(63, up+int(in.k)))
		a.mask(rAX, in.mask)
	case kShl, kShr: // shl64, shr64: a count of at least the width gives 0
		a.load(rAX, in.a)
		a.load(rCX, in.b)
		if in.op == kShl {
			a.shiftCL(extShl, rAX)
			a.mask(rAX, maskOf(int(in.aw)))
		} else {
			a.shiftCL(extShr, rAX)
		}
		a.zero(rDX)
		a.cmpImm(rCX, uint64(in.aw))
		a.cmov(ccAE, rAX, rDX)
	case kSra: // sra64: a count of at least the width shifts by width - 1
		a.load(rAX, in.a)
		a.signExtend(rAX, int(in.aw))
		a.load(rCX, in.b)
		a.movImm(rDX, uint64(in.aw)-1)
		a.cmpImm(rCX, uint64(in.aw))
		a.cmov(ccAE, rCX, rDX)
		a.shiftCL(extSar, rAX)
		a.mask(rAX, maskOf(int(in.aw)))
	case kEq, kNe, kLt, kLe, kGt, kGe:
		a.load(rAX, in.a)
		a.zero(rCX)
		a.aluMem(opcCmp, rAX, in.b)
		a.setcc(compares[in.op], rCX)
		a.store(in.dst, rCX)
		return true
	case kLtS, kLeS, kGtS, kGeS:
		a.load(rAX, in.a)
		a.load(rDX, in.b)
		a.zero(rCX)
		a.shift(extShl, rAX, 64-int(in.aw))
		a.shift(extShl, rDX, 64-int(in.aw))
		a.alu(opcCmp, rAX, rDX)
		a.setcc(compares[in.op], rCX)
		a.store(in.dst, rCX)
		return true
	case kMux: // a != 0 ? b : c
		a.load(rAX, in.b)
		a.load(rDX, in.c)
		a.cmpZero(in.a)
		a.cmov(ccE, rAX, rDX)
	case opAndEq:
		a.load(rAX, in.b)
		a.zero(rCX)
		a.aluMem(opcCmp, rAX, in.c)
		a.setcc(ccE, rCX)
		a.aluMem(opcAnd, rCX, in.a)
		a.store(in.dst, rCX)
		return true
	case kSelect:
		choices := kn.argv[in.b : in.b+int32(in.k)]
		if len(choices) < tableFrom { // a compare and conditional move a choice
			a.load(rAX, in.a)
			a.zero(rDX)
			for i, slot := range choices {
				a.cmpImm(rAX, uint64(i))
				a.cmovMem(ccE, rDX, slot)
			}
			a.store(in.dst, rDX)
			return true
		}
		// branch-free: the index clamped to k, the choice ANDed with idx < k
		table := a.table(append(slices.Clone(choices), choices[0]))
		a.load(rAX, in.a)
		a.zero(rCX)
		a.movImm(rDX, uint64(in.k))
		a.alu(opcCmp, rAX, rDX)
		a.setcc(ccB, rCX)
		a.cmov(ccAE, rAX, rDX)
		a.lookup(table)
		a.bytes(0x48, 0x8b, 0x04, 0x17) // mov rax, [rdi + rdx]
		a.unary(extNeg, rCX)
		a.alu(opcAnd, rAX, rCX)
	case kOneHot: // from tableFrom choices, with one bit set or none (as a
		// decoded index gives): the choice the bit indexes, from a table,
		// ANDed with sel != 0; else the OR of the choices, bit by bit
		choices := kn.argv[in.b : in.b+int32(in.k)]
		a.load(rAX, in.a)
		done := -1
		if len(choices) >= tableFrom {
			done = a.oneHotLookup(a.table(append(slices.Clone(choices), choices[0])), len(choices))
		}
		a.zero(rDX)
		for i, slot := range choices {
			a.reg(true, []byte{0x0f, 0xba}, 4, rAX) // bt rax, i
			a.bytes(byte(i))
			a.reg(true, []byte{0x1b}, rCX, rCX) // sbb rcx, rcx: -(bit i)
			a.aluMem(opcAnd, rCX, slot)
			a.alu(opcOr, rDX, rCX)
		}
		if done >= 0 {
			a.land(done)
		}
		a.store(in.dst, rDX)
		return true
	case kConcat: // the last operand is the lowest, and goes first
		lo := 0
		for j := in.b + int32(in.k) - 1; j >= in.b; j-- {
			a.orInto(lo == 0, func(r int) {
				a.load(r, kn.argv[j])
				a.shift(extShl, r, lo)
			})
			lo += int(kn.argw[j])
		}
	case opCatWord:
		if in.b == 0 {
			a.zero(rAX)
		}
		for i, x := range kn.pieces[in.a : in.a+in.b] {
			a.orInto(i == 0, func(r int) {
				a.load(r, x.slot)
				a.shift(extShl, r, int(x.shl&63))
				a.shift(extShr, r, int(x.shr&63))
			})
		}
	case opCatAndNot, opCatAndEq, opCatEq:
		a.zero(rAX)
		lo := 0
		for j := in.b + 3*int32(in.k) - 3; j >= in.b; j -= 3 {
			x, y, z := kn.argv[j], kn.argv[j+1], kn.argv[j+2]
			switch in.op {
			case opCatAndNot: // x &^ y
				a.load(rCX, y)
				a.unary(extNot, rCX)
				a.aluMem(opcAnd, rCX, x)
			case opCatAndEq: // x & (y == z)
				a.zero(rCX)
				a.load(rDX, y)
				a.aluMem(opcCmp, rDX, z)
				a.setcc(ccE, rCX)
				a.aluMem(opcAnd, rCX, x)
			case opCatEq: // x == y
				a.zero(rCX)
				a.load(rDX, x)
				a.aluMem(opcCmp, rDX, y)
				a.setcc(ccE, rCX)
			}
			a.shift(extShl, rCX, lo)
			a.alu(opcOr, rAX, rCX)
			lo += int(kn.argw[j])
		}
	case kSlice:
		a.load(rAX, in.a)
		a.shift(extShr, rAX, int(in.k&63))
		a.mask(rAX, in.mask)
	case opSlice2: // 0 < k < 64
		a.load(rAX, in.a)
		a.load(rDX, in.a+1)
		a.reg(true, []byte{0x0f, 0xac}, rDX, rAX) // shrd rax, rdx, k
		a.bytes(byte(in.k))
		a.mask(rAX, in.mask)
	case kRepl:
		if in.aw != 1 {
			return false
		}
		a.load(rAX, in.a)
		a.unary(extNeg, rAX)
		a.mask(rAX, in.mask)
	case kZext:
		a.load(rAX, in.a)
	case kSext:
		a.load(rAX, in.a)
		a.signExtend(rAX, int(in.aw))
		a.mask(rAX, in.mask)
	case kMemRead: // the memory holds every address of the address's width
		mem := kn.mems[in.b]
		if in.aw >= 32 || uint64(len(mem)) < 1<<in.aw {
			return false
		}
		a.load(rAX, in.a)
		a.movImm(rDX, uint64(uintptr(unsafe.Pointer(unsafe.SliceData(mem)))))
		a.bytes(0x48, 0x8b, 0x04, 0xc2) // mov rax, [rdx + 8 rax]
	case opDecode:
		a.decode(&kn.decodes[in.k], in.a, in.b)
		return true
	default: // wide operations
		return false
	}
	a.store(in.dst, rAX)
	return true
}

// table queues a table of the byte offsets of state words (-1 for a
// negative slot) for the end of the segment (tables) and returns its
// number for lookup.
func (a *x86) table(slots []int32) int {
	a.tables = append(a.tables, slots)
	return len(a.tables) - 1
}

// lookup sets RDX to entry RAX of table t (sign-extended).
func (a *x86) lookup(t int) {
	a.bytes(0x48, 0x8d, 0x15) // lea rdx, [rip + table]
	a.fixups = append(a.fixups, fixup{at: len(a.b), table: t})
	a.bytes(0, 0, 0, 0)
	a.bytes(0x48, 0x63, 0x14, 0x82) // movsxd rdx, dword [rdx + 4 rax]
}

// tablesOut writes the queued tables after the code, out of the path of
// execution, and points the lookups at them.
func (a *x86) tablesOut() {
	for len(a.b)%4 != 0 {
		a.bytes(0xcc) // int3
	}
	at := make([]int, len(a.tables))
	for t, slots := range a.tables {
		at[t] = len(a.b)
		for _, slot := range slots {
			off := int32(-1)
			if slot >= 0 {
				off = slot * 8
			}
			a.b = le.LittleEndian.AppendUint32(a.b, uint32(off))
		}
	}
	for _, f := range a.fixups {
		le.LittleEndian.PutUint32(a.b[f.at:], uint32(at[f.table]-(f.at+4)))
	}
	a.tables, a.fixups = nil, nil
}

// oneHotLookup writes the table path of a one-hot select over n choices
// whose select is in RAX: when it has at most one bit set, RDX gets the
// choice table holds at the bit's index (n when none) ANDed with sel != 0,
// and a jump, whose place it returns for land, goes past the bit-by-bit
// path that follows; with several bits set the code goes on to that path.
func (a *x86) oneHotLookup(table, n int) (done int) {
	a.bytes(0x48, 0x8d, 0x50, 0xff) // lea rdx, [rax - 1]
	a.reg(true, []byte{0x85}, rAX, rDX)
	several := a.jump(0x0f, 0x85) // jnz: sel & (sel - 1) != 0
	a.alu(opcMov, rCX, rAX)
	a.reg(true, []byte{0x0f, 0xbc}, rDX, rAX) // bsf rdx, rax (ZF: sel is 0)
	a.movImm(rR11, uint64(n))
	a.cmov(ccE, rDX, rR11)
	a.unary(extNeg, rCX)
	a.reg(true, []byte{0x1b}, rCX, rCX) // sbb rcx, rcx: -(sel != 0)
	a.alu(opcMov, rAX, rDX)
	a.lookup(table)
	a.bytes(0x48, 0x8b, 0x14, 0x17) // mov rdx, [rdi + rdx]
	a.alu(opcAnd, rDX, rCX)
	done = a.jump(0xe9)
	a.land(several)
	return done
}

// decode writes an opDecode: it clears the outputs, then looks the index
// up in a table of the outputs' offsets (-1 for none) and stores the
// enable at the one it finds.
func (a *x86) decode(t *decoder, en, idx int32) {
	for _, d := range t.dsts {
		a.storeZero(d)
	}
	table := a.table(t.at)
	a.load(rAX, idx)
	a.movImm(rDX, t.base)
	a.alu(opcSub, rAX, rDX)
	a.movImm(rDX, uint64(len(t.at)))
	a.alu(opcCmp, rAX, rDX)
	outside := a.jump(0x0f, 0x83) // jae
	a.lookup(table)
	a.bytes(0x48, 0x85, 0xd2)  // test rdx, rdx
	none := a.jump(0x0f, 0x88) // js
	a.load(rAX, en)
	a.bytes(0x48, 0x89, 0x04, 0x17) // mov [rdi + rdx], rax
	a.land(outside)
	a.land(none)
}

// orInto writes a part of a Concat: computed by part into RAX when it is
// the first, else into RDX and ORed into RAX.
func (a *x86) orInto(first bool, part func(r int)) {
	if first {
		part(rAX)
		return
	}
	part(rDX)
	a.alu(opcOr, rAX, rDX)
}

// first is the operand an instruction's code loads into RAX before
// anything else (so that a value stored just before comes from its
// register), or -1.
func first(kn *kernel, in *instr) int32 {
	switch in.op {
	case kMux, opAndNot, opAndEq:
		return in.b
	case kShlK, kShrK:
		if in.k < 64 { // (else the result is 0, and nothing is loaded)
			return in.a
		}
	case kConcat:
		return kn.argv[in.b+int32(in.k)-1]
	case opCatWord:
		if in.b > 0 {
			return kn.pieces[in.a].slot
		}
	case opCatAndNot, opCatAndEq, opCatEq, opDecode:
	default:
		return in.a
	}
	return -1
}

// segment writes the code of the instructions of runs, ended by a
// return and followed by its tables. It orders them so that a value with
// one reader is computed just before that reader, last if its reader
// loads it first (first), where the register forwards it; a private
// result (one reader, nothing observes it) is not stored at all. (The run
// order keeps the operations of one kind together for the interpreter's
// dispatch, which machine code does not need.)
func (a *x86) segment(kn *kernel, prog []instr, runs []run, reads func(*instr) []int32, private func(int32) bool) {
	producer := map[int32]int32{} // a result's instruction
	readers := map[int32]int{}    // a state word's readers in the segment
	for _, r := range runs {
		for j := r.lo; j < r.hi; j++ {
			if prog[j].op != opDecode { // (it has many results)
				producer[prog[j].dst] = j
			}
			for _, x := range reads(&prog[j]) {
				readers[x]++
			}
		}
	}
	pulled := func(x int32) (int32, bool) { // the producer its one reader emits
		j, ok := producer[x]
		return j, ok && readers[x] == 1
	}
	var emit func(j int32, keep bool)
	emit = func(j int32, keep bool) { // keep: leave the result in its register alone
		in := &prog[j]
		f := first(kn, in)
		for _, x := range reads(in) {
			if p, ok := pulled(x); ok && x != f {
				emit(p, false)
			}
		}
		if p, ok := pulled(f); ok {
			emit(p, private(f)) // its reader loads it first
		}
		if keep {
			a.elide = in.dst
		}
		a.instr(kn, in)
		a.elide = -1
		if a.elided >= 0 && !keep {
			panic(fmt.Sprintf("hdl: the machine code of %v does not load state word %d first", in.op, a.elided))
		}
	}
	for _, r := range runs {
		for j := r.lo; j < r.hi; j++ {
			if _, ok := pulled(prog[j].dst); !ok || prog[j].op == opDecode {
				emit(j, false)
			}
		}
	}
	a.bytes(0xc3) // ret
	a.tablesOut()
}

// scratch writes op with ModRM.reg = reg and word k of the clock edge's
// scratch, [SI + 8 k], as its memory operand.
func (a *x86) scratch(op []byte, reg int, k int) {
	a.rex(true, reg, rSI)
	a.bytes(op...)
	a.bytes(0x80 | byte(reg&7)<<3 | rSI)
	a.b = le.LittleEndian.AppendUint32(a.b, uint32(k)*8)
}

// edge writes the one-word registers' part of the clock edge (without
// reset) and returns the offsets of its two functions. next puts each
// register's next value in the scratch (SI): d, or for one with an
// enable of its own d when the enable is set and else its value (a
// conditional move), and for a group sharing an enable the enable and,
// when it is set, the group's d values. commit loads them: every register
// but those of a group whose enable was clear.
func (a *x86) edge(regs edgeRegs) (next, commit int) {
	n := len(regs.load)
	flag := n + len(regs.en) // a group's enable in the scratch
	copyIn := func(k int, r wordReg) {
		a.mem([]byte{opcMov}, rAX, r.d)
		a.scratch([]byte{0x89}, rAX, k)
	}
	copyOut := func(k int, r wordReg) {
		a.scratch([]byte{opcMov}, rAX, k)
		a.mem([]byte{0x89}, rAX, r.slot)
	}
	next = len(a.b)
	for i, r := range regs.load {
		copyIn(i, r)
	}
	for j, r := range regs.en[:regs.alone] {
		a.mem([]byte{opcMov}, rAX, r.slot)
		a.cmpZero(r.en)
		a.cmovMem(ccNE, rAX, r.d)
		a.scratch([]byte{0x89}, rAX, n+j)
	}
	for g, grp := range regs.groups {
		a.mem([]byte{opcMov}, rAX, grp.en)
		a.scratch([]byte{0x89}, rAX, flag+g)
		a.reg(true, []byte{0x85}, rAX, rAX) // test rax, rax
		clear := a.jump(0x0f, 0x84)         // jz
		for j := grp.lo; j < grp.hi; j++ {
			copyIn(n+int(j), regs.en[j])
		}
		a.land(clear)
	}
	a.bytes(0xc3)
	commit = len(a.b)
	for i, r := range regs.load {
		copyOut(i, r)
	}
	for j, r := range regs.en[:regs.alone] {
		copyOut(n+j, r)
	}
	for g, grp := range regs.groups {
		a.scratch([]byte{0x83}, 7, flag+g) // cmp qword [scratch], 0
		a.bytes(0)
		clear := a.jump(0x0f, 0x84) // je
		for j := grp.lo; j < grp.hi; j++ {
			copyOut(n+int(j), regs.en[j])
		}
		a.land(clear)
	}
	a.bytes(0xc3)
	return next, commit
}

// translate turns the runs it can into machine code, consecutive ones
// into one segment, and maps the code executable; nil when no run
// translates or the mapping fails (the interpreter then runs everything).
// reads lists the state words an instruction reads; a private result
// (segment) may stay out of the state.
func translate(kn *kernel, prog []instr, runs []run, reads func(*instr) []int32, private func(int32) bool, regs edgeRegs) *nativeCode {
	if len(kn.st) >= 1<<28 { // a state word's offset must fit a 32-bit displacement
		return nil
	}
	native := make([]bool, len(runs)) // whether each run translates: a dry run
	probe := x86{heldAt: -1, elide: -1, elided: -1}
	for i, r := range runs {
		native[i] = true
		for j := r.lo; j < r.hi && native[i]; j++ {
			probe.b, probe.tables, probe.heldAt = probe.b[:0], probe.tables[:0], -1
			native[i] = probe.instr(kn, &prog[j])
		}
	}
	a := x86{heldAt: -1, elide: -1, elided: -1}
	var segs []segment
	var offsets []int // each native segment's code, -1 for the interpreter's
	for lo := 0; lo < len(runs); {
		hi := lo + 1
		for hi < len(runs) && native[hi] == native[lo] {
			hi++
		}
		segs, offsets = append(segs, segment{lo: int32(lo), hi: int32(hi)}), append(offsets, -1)
		if native[lo] {
			offsets[len(offsets)-1] = len(a.b)
			a.segment(kn, prog, runs[lo:hi], reads, private)
		}
		lo = hi
	}
	if len(a.b) == 0 {
		return nil
	}
	next, commit := a.edge(regs)
	mem, err := syscall.Mmap(-1, 0, len(a.b), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	copy(mem, a.b)
	if err := syscall.Mprotect(mem, syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
		syscall.Munmap(mem)
		return nil
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	for k, off := range offsets {
		if off >= 0 {
			segs[k].entry = base + uintptr(off)
		}
	}
	nc := &nativeCode{mem: mem, segs: segs, next: base + uintptr(next), commit: base + uintptr(commit),
		scratch: make([]uint64, len(regs.load)+len(regs.en)+len(regs.groups))}
	runtime.AddCleanup(nc, func(mem []byte) { syscall.Munmap(mem) }, mem)
	return nc
}
