// Package hdl is parmem's embedded hardware description language: fixed-width
// bit values (Bits), signals and operations checked as they are built,
// modules with registers, memories and instances, elaboration that reports
// every problem at once with its Go source position, a cycle simulator that
// serves as the golden model, a Verilog-2005 emitter and a VCD writer.
//
// A design is built, elaborated once, then simulated or emitted:
//
//	m := hdl.NewModule("counter")
//	en := m.Input("en", 1)
//	count := m.Reg("count", 8)
//	count.Drive(count.Add(m.ConstU(8, 1)))
//	count.Enable(en)
//	m.Output("q", 8).Drive(count)
//
//	d, err := hdl.Elaborate(m) // every problem, each as file:line: message
//	sim := sim.New(d)       // flat state, one topological order
//	sim.Reset()
//	sim.SetU("en", 1)
//	sim.Step()                 // one rising edge of clk
//	q, _ := sim.Get("q")       // 8'h01
//	verilog := d.Verilog()     // lint-clean Verilog-2005, byte-identical run to run
//
// The same program also runs as straight-line Go (Sim.GoSource, which
// verify builds into the compiled simulator) and on many independent
// copies at once (Sim.GoStreamsSource: each operation one vector
// operation over the copies' values, for stimulus streams by the dozen).
//
// Widths never change silently: operands of Add, And, Mux and the like must
// have equal widths, and Zext, Sext, Trunc and Slice change widths
// explicitly. Signedness lives in operations (LtS, Sra, Sext), not in
// signals. Every module with registers or memories has the ports clk and
// rst (synchronous, active high).
//
// Mistakes never panic: a bad call records an error, positioned at the
// caller's line, in its module and returns a placeholder so the rest of the
// design can be checked; Elaborate reports them all.
package hdl
