package kernel

import "fmt"

// Op is what a signal computes: a source, storage or an operation (hdl's
// signals and the nodes of its lowered program, Netlist, name theirs by
// it; hdl.Op is this type).
type Op uint8

const (
	OpInvalid Op = iota
	// Sources and named storage.
	OpInput   // module input port
	OpConst   // constant, val
	OpWire    // combinational wire; args[0] is its driver
	OpOutput  // module output port; args[0] is its driver
	OpReg     // register; args[0] next value, args[1] enable or nil; val reset value
	OpMemRead // asynchronous memory read; args[0] address; mem
	OpMemSync // synchronous memory read; args[0] address, args[1] enable or nil; mem
	OpInstOut // output port of an instance; inst, port

	// Operations. Operand widths are checked when the signal is made.
	OpNot
	OpAnd
	OpOr
	OpXor
	OpRedAnd
	OpRedOr
	OpRedXor
	OpAdd
	OpSub
	OpMul // full product: width = width(a) + width(b)
	OpShlK
	OpShrK
	OpSraK
	OpShl
	OpShr
	OpSra
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpLtS
	OpLeS
	OpGtS
	OpGeS
	OpMux    // args: sel, ifTrue, ifFalse
	OpSelect // args: index, choices...; out of range gives 0
	OpOneHot // args: sel, choices...; OR of the choices whose sel bit is set
	OpConcat // args most significant first
	OpSlice  // bits [k+width-1 : k] of args[0]
	OpRepl   // k copies of args[0]
	OpZext
	OpSext
	NumOps
)

var kindNames = [NumOps]string{
	OpInvalid: "invalid", OpInput: "input", OpConst: "const", OpWire: "wire", OpOutput: "output",
	OpReg: "reg", OpMemRead: "mem_read", OpMemSync: "mem_read_sync", OpInstOut: "inst_out",
	OpNot: "not", OpAnd: "and", OpOr: "or", OpXor: "xor",
	OpRedAnd: "rand", OpRedOr: "ror", OpRedXor: "rxor",
	OpAdd: "add", OpSub: "sub", OpMul: "mul",
	OpShlK: "shl", OpShrK: "shr", OpSraK: "sra", OpShl: "shl", OpShr: "shr", OpSra: "sra",
	OpEq: "eq", OpNe: "ne", OpLt: "lt", OpLe: "le", OpGt: "gt", OpGe: "ge",
	OpLtS: "lts", OpLeS: "les", OpGtS: "gts", OpGeS: "ges",
	OpMux: "mux", OpSelect: "sel", OpOneHot: "onehot", OpConcat: "cat", OpSlice: "slice",
	OpRepl: "repl", OpZext: "zext", OpSext: "sext",
}

func (k Op) String() string {
	if k < NumOps {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", int(k))
}

// IsStorage reports whether the operation holds state across clock edges, so its
// value does not depend combinationally on its arguments.
func (k Op) IsStorage() bool { return k == OpReg || k == OpMemSync }
