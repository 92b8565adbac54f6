// Package scripts holds the Yosys flows that turn emitted Verilog into area
// and latency figures (ice40.ys, gates.ys, gates_fast.ys, gates_noabc.ys,
// ge.ys with its cell library ge.lib), nextpnr-ice40's place and route
// after ice40.ys (hx8k.pnr), embedded so that the report code runs them
// exactly as they are reviewed here, and deps.sh.
package scripts

import _ "embed"

// ICE40 maps to iCE40 LUT4s, carries and RAMs (synth_ice40).
//
//go:embed ice40.ys
var ICE40 string

// HX8K is nextpnr-ice40's arguments for place and route on the iCE40
// HX8K, after ICE40, one or more a line, '#' starting a comment.
//
//go:embed hx8k.pnr
var HX8K string

// Gates maps to a fixed set of 2-input gates (synth, abc -g).
//
//go:embed gates.ys
var Gates string

// GatesFast is Gates with ABC's fast script (abc -fast -g).
//
//go:embed gates_fast.ys
var GatesFast string

// GatesNoABC maps to simple gates with Yosys's techmap alone (synth
// -noabc), for designs ABC does not finish.
//
//go:embed gates_noabc.ys
var GatesNoABC string

// GE maps to scripts/ge.lib, whose cell areas are NAND2 equivalents
// (abc -liberty), for areas in gate equivalents.
//
//go:embed ge.ys
var GE string

// GELib is the gate-equivalent cell library GE maps to.
//
//go:embed ge.lib
var GELib string
