package sim_test

import (
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/designs"
	"github.com/parmem/parmem/sim"
)

// BenchmarkEval measures the Go simulator's cost per node evaluation on
// random 32-bit combinational designs (the target: at most 5 ns per
// node for widths up to 64). It reports ns/node per evaluated node and the
// number of live nodes evaluated (logic that reaches no output is
// skipped); ns/op is one full evaluation of the design.
func BenchmarkEval(b *testing.B) {
	for _, size := range []struct {
		name  string
		nodes int
	}{{"nodes=1000", 1000}, {"nodes=10000", 10000}} {
		b.Run(size.name, func(b *testing.B) {
			d, err := hdl.Elaborate(designs.RandomComb("comb", size.nodes, 32, 1))
			if err != nil {
				b.Fatal(err)
			}
			s := sim.New(d)
			in, err := s.Input("in0")
			if err != nil {
				b.Fatal(err)
			}
			out, err := s.Signal("out0")
			if err != nil {
				b.Fatal(err)
			}
			var sink uint64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				s.Put(in, uint64(i))
				s.Eval()
				sink += s.Val(out)
			}
			// Per evaluated node: logic that reaches no output is not evaluated.
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.Ops()), "ns/node")
			b.ReportMetric(float64(s.Ops()), "live_nodes")
			_ = sink
		})
	}
}
