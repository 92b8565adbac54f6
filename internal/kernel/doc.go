// Package kernel is the one implementation of every hdl operation on
// values: package hdl's Bits operations call it (Eval, WideOp) and the
// simulators in package sim run programs of it (Instr, Kernel.Exec), so
// a behavioural model written with Bits and the hardware built with
// Signals cannot disagree about what an operation means.
//
// Values of at most 64 bits take the narrow path, a switch over flat
// instructions on a []uint64 state with one word per value (exec.go);
// anything wider goes through WideOp on word slices (wide.go, words.go).
package kernel

import "embed"

// Sources holds the files that sim's compiled Go copies into a design's
// program (the operations, the wide path and the word routines), so that
// the interpreter and the compiled program run the same code. Keep them
// free of anything but the standard library's math/bits.
//
//go:embed op.go wide.go words.go
var Sources embed.FS
