// Package hdl is parmem's embedded hardware description language: fixed-width
// bit values (Bits), signals and operations checked as they are built,
// modules with registers, memories and instances, records and valid/ready
// streams as ports, elaboration that reports every problem at once with its
// Go source position, and a Verilog-2005 emitter.
//
// A design is built, elaborated once, then emitted or simulated:
//
//	m := hdl.NewModule("counter")
//	en := m.Input("en", 1)
//	count := m.Reg("count", 8)
//	count.Drive(count.Add(m.ConstU(8, 1)))
//	count.Enable(en)
//	m.Output("q", 8).Drive(count)
//
//	d, err := hdl.Elaborate(m) // every problem, each as file:line: message
//	verilog := d.Verilog()     // lint-clean Verilog-2005, byte-identical run to run
//	s := sim.New(d)            // package sim: the golden model
//	s.Reset()
//	s.SetU("en", 1)
//	s.Step()                   // one rising edge of clk
//	q, _ := s.Get("q")         // 8'h01
//
// Simulation lives in package sim, which reads the design only through
// Design.Netlist, the flattened program documented there; hdl imports no
// simulator.
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
