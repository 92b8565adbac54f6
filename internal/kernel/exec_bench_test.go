package kernel

import "testing"

// BenchmarkKernel measures the interpreter's floor: ns per instruction of
// a run of 2,000 ANDs over a small state that fits L1, each reading
// sources only (independent) or the result of the one dist before it.
func BenchmarkKernel(b *testing.B) {
	const n = 2000
	for _, dist := range []int{0, 1, 8} {
		name := "independent"
		if dist > 0 {
			name = "chain" + string(rune('0'+dist))
		}
		b.Run(name, func(b *testing.B) {
			kn := Kernel{St: make([]uint64, 64+n)}
			for i := range kn.St {
				kn.St[i] = uint64(i)*0x9e3779b97f4a7c15 | 1
			}
			prog := make([]Instr, n)
			for i := range prog {
				a := int32(i % 64)
				if dist > 0 && i >= dist {
					a = int32(64 + i - dist)
				}
				prog[i] = Instr{Op: OpAnd, Dst: int32(64 + i), A: a, B: int32(i * 7 % 64)}
			}
			runs, code := kn.Encode(prog)
			for b.Loop() {
				kn.Exec(runs, code)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/instr")
		})
	}
}
