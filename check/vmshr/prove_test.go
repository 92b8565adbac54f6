package vmshr

import (
	"flag"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

var proveAll = flag.Bool("prove.all", false, "prove the bigger configurations too (make prove), not only the smallest")

// narrow are one-bit request and data fields: the target and the data
// travel untouched, so their width changes no property.
func narrow(v units.Values) units.Values {
	for k, x := range map[string]int{"dw": 1, "tw": 1, "rw": 1, "ow": 1, "fw": 1} {
		v[k] = x
	}
	return v
}

// proveConfigs are the configurations whose properties the proofs cover:
// each unit at its smallest interesting size (two PMSHRs of two SMSHRs,
// hyper blocks of two normal blocks), and with -prove.all three PMSHRs
// and hyper blocks of four.
func proveConfigs() []units.Config {
	cs := []units.Config{
		{Unit: "vmshr-match", Values: units.Values{"m": 3, "hmax": 2, "aw": 4}},
		{Unit: "vmshr-match", Values: units.Values{"m": 3, "hmax": 0, "aw": 3, "base": 1}},
		{Unit: "vmshr-elastic", Values: narrow(units.Values{"m": 2, "s": 2, "hmax": 1, "aw": 3})},
		{Unit: "vmshr-base", Values: narrow(units.Values{"m": 2, "s": 2, "aw": 2})},
	}
	if *proveAll {
		cs = append(cs,
			units.Config{Unit: "vmshr-elastic", Values: narrow(units.Values{"m": 3, "s": 2, "hmax": 2, "aw": 4})},
			units.Config{Unit: "vmshr-base", Values: narrow(units.Values{"m": 3, "s": 3, "aw": 3})})
	}
	return cs
}

// TestProveProperties proves the blocks' properties (units/vmshr's
// properties methods: one PMSHR per block, a valid PMSHR exactly while it
// holds an SMSHR, fills inside their hyper block, ...) on the emitted
// Verilog with Yosys: every assertion proven by k-induction, every cover
// point reached (the three kinds of load, each refusal, a fill, a
// writeback, a full and an empty file).
func TestProveProperties(t *testing.T) {
	for _, c := range proveConfigs() {
		t.Run(c.String(), func(t *testing.T) { verify.RequireProperties(t, c, nil) })
	}
}
