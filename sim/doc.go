// Package sim runs designs of package hdl, cycle by cycle: the golden model
// that every Verilog simulator is held to.
//
// It reads an elaborated design only through hdl.Design.Netlist, the
// flattened program (every signal as one node, in one evaluation order,
// with the memories and the instance tree), and runs it three ways:
//
//   - New: the interpreter, the portable reference, ready in milliseconds
//     (Sim; TraceVCD writes its waveforms with the Verilog's names);
//   - Sim.GoSource: the same program as straight-line Go, which verify
//     builds into a stand-alone simulator, for long single-stream runs;
//   - Sim.GoStreamsSource: the same program over package vec, each
//     operation one vector operation over many independent copies of the
//     design, for stimulus streams by the dozen.
//
// Operations on values run through internal/kernel, as hdl's Bits do, so a
// model written with Bits and the design's simulation agree on what every
// operation means.
package sim
