package sim

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"
)

// operandsOf lists the slots an instruction of s's program reads; for a
// wide operation, every word of each operand: narrow instructions compute
// some of those words (OpCatWord), and the fusions and compiled Go keep
// out of the state a result that nothing else is listed as reading.
func (s *Sim) operandsOf(in *kernel.Instr) []int32 {
	argv := s.kn.Argv
	switch in.Op {
	case kernel.OpWide:
		_, args := s.wideSlots(int(in.A))
		var words []int32
		for j, x := range args {
			for k := range kernel.NWords(s.kn.Wide[in.A].AW[j]) {
				words = append(words, x+int32(k))
			}
		}
		return words
	case hdl.OpNot, hdl.OpRedAnd, hdl.OpRedOr, hdl.OpRedXor, hdl.OpShlK, hdl.OpShrK, hdl.OpSraK, hdl.OpSlice, hdl.OpRepl, hdl.OpZext, hdl.OpSext, hdl.OpMemRead:
		return []int32{in.A}
	case hdl.OpMux, kernel.OpAndEq, kernel.OpOrAnd, kernel.OpOr3:
		return []int32{in.A, in.B, in.C}
	case kernel.OpSlice2:
		return []int32{in.A, in.A + 1}
	case kernel.OpCatWord:
		var slots []int32
		for _, x := range s.kn.Pieces[in.A : in.A+in.B] {
			slots = append(slots, x.Slot)
		}
		return slots
	case hdl.OpSelect, hdl.OpOneHot:
		return append([]int32{in.A}, argv[in.B:in.B+int32(in.K)]...)
	case hdl.OpConcat:
		return argv[in.B : in.B+int32(in.K)]
	case kernel.OpCatAndNot, kernel.OpCatAndEq, kernel.OpCatEq:
		return argv[in.B : in.B+3*int32(in.K)]
	}
	return []int32{in.A, in.B}
}
