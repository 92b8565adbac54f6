package hdl

import (
	"os"
	"runtime"
	"unsafe"
)

// Native code: on linux/amd64 NewSim translates the interpreter's program
// into x86-64 machine code (native_amd64.go), so that in-process
// simulation needs no Go toolchain and no dispatch: each instruction
// becomes the few machine instructions that load its operands from the
// state, compute and store its result, and a stretch of runs becomes one
// call; the one-word registers' part of the clock edge is machine code
// too. Runs of operations the translator leaves out (wide operations,
// replications of more than one bit) stay with the interpreter, between
// the calls. Everywhere else, with PARMEM_NATIVE=off in the environment,
// or after UseInterpreter, the interpreter runs the whole program. Both
// keep every observable state word, so a Sim can change to the
// interpreter at any time.

// NativeEnv names the environment variable that turns native code off
// when set to "off".
const NativeEnv = "PARMEM_NATIVE"

// nativeCode is a program as machine code: its segments in program order,
// and the one-word registers' part of the clock edge (Sim.Step): next
// computes their next values into scratch, commit loads them, with the
// memory ports' work between the two.
type nativeCode struct {
	mem          []byte // the executable mapping (released by a cleanup)
	segs         []segment
	next, commit uintptr
	scratch      []uint64
}

// edgeRegs is what the clock edge's machine code needs of a Sim's
// one-word registers: those that load every edge, and those with an
// enable, the first alone of them with one of their own, the rest in
// groups (Sim.groupEnRegs).
type edgeRegs struct {
	load, en []wordReg
	alone    int
	groups   []enGroup
}

// segment is runs[lo:hi] of the program: machine code at entry, or (entry
// 0) runs the interpreter executes.
type segment struct {
	entry  uintptr
	lo, hi int32
}

// exec runs the program over kn's state.
func (nc *nativeCode) exec(kn *kernel, runs []run, cs []code) {
	p := unsafe.Pointer(unsafe.SliceData(kn.st))
	for _, sg := range nc.segs {
		if sg.entry != 0 {
			callNative(sg.entry, p, nil)
		} else {
			kn.exec(runs[sg.lo:sg.hi], cs)
		}
	}
	runtime.KeepAlive(nc) // the mapping outlives the calls
}

// edge runs the clock edge's next or commit code over st.
func (nc *nativeCode) edge(fn uintptr, st []uint64) {
	callNative(fn, unsafe.Pointer(unsafe.SliceData(st)), unsafe.Pointer(unsafe.SliceData(nc.scratch)))
	runtime.KeepAlive(nc)
}

// compileNative translates the program (prog, as s.runs groups it) unless
// the environment turns native code off; nil when it is off or the
// platform has none. A result that one instruction reads and nothing
// observes (observableSlots: a name, a register's or memory port's input)
// may live in a register only.
func (s *Sim) compileNative(prog []instr) *nativeCode {
	if os.Getenv(NativeEnv) == "off" {
		return nil
	}
	readers := map[int32]int{}
	for i := range prog {
		for _, x := range s.operandsOf(&prog[i]) {
			readers[x]++
		}
	}
	observable := s.observableSlots()
	private := func(x int32) bool { return readers[x] == 1 && !observable[x] }
	regs := edgeRegs{load: s.loadRegs, en: s.enRegs, alone: s.enAlone, groups: s.enGroups}
	return translate(&s.kn, prog, s.runs, s.operandsOf, private, regs)
}

// UseInterpreter makes s run its program on the interpreter from now on,
// rather than as machine code (for comparing the two, and for debugging).
func (s *Sim) UseInterpreter() { s.native = nil }

// Native reports whether s runs (part of) its program as machine code.
func (s *Sim) Native() bool { return s.native != nil }
