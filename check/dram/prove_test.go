package dram

import (
	"flag"
	"testing"

	"github.com/parmem/parmem/units"
	d "github.com/parmem/parmem/units/dram"
	"github.com/parmem/parmem/verify"
)

// The blocks' properties (issue 46) proved by Yosys on their Verilog:
// every assertion by k-induction, every cover point reached by a trace.
// make test proves the small configurations of dram-cmdq (every rule of
// Table 5.1 binding), dram-mib, dram-l2mib and dram-rowtab; -prove.all
// adds dram-sched with summed and table row scores and a dram-cmdq of
// four banks in two groups.

var proveAll = flag.Bool("prove.all", false, "prove every configuration (make prove), not only the small ones")

// smallTiming is a timing under which every constraint of Table 5.1
// binds (gaps of 2 or more) while the counters stay 2 bits.
var smallTiming = units.Values{"trcd": 2, "trp": 2, "tcl": 2, "tras": 3, "trc": 4, "tccdl": 2, "tccds": 1, "trrd": 2,
	"twl": 1, "tcdlr": 1, "twr": 1, "trtpl": 1, "tburst": 1}

// proveCase is a configuration to prove and the cover points it may
// leave open, each with the reason.
type proveCase struct {
	config units.Config
	open   map[string]string
}

func proveCases() []proveCase {
	with := func(a, b units.Values) units.Values {
		out := units.Values{}
		for _, v := range []units.Values{a, b} {
			for k, x := range v {
				out[k] = x
			}
		}
		return out
	}
	cases := []proveCase{
		{config: units.Config{Unit: "dram-cmdq", Values: with(smallTiming, units.Values{"bankbits": 1, "bgbits": 1, "depth": 2, "rowbits": 1, "tagbits": 1})}},
		{config: units.Config{Unit: "dram-mib", Values: units.Values{"entries": 2, "blkbits": 1, "merges": 3, "agebits": 3}}},
		{config: units.Config{Unit: "dram-l2mib", Values: units.Values{"entries": 2, "merges": 3, "agebits": 3}}},
		{config: units.Config{Unit: "dram-rowtab", Values: units.Values{"entries": 2, "bankbits": 1, "rowbits": 1, "mlbits": 2, "agebits": 2}}},
	}
	if !*proveAll {
		return cases
	}
	sched := units.Values{"entries": 2, "wentries": 4, "bankbits": 1, "rowbits": 1, "blkbits": 1, "merges": 2, "agebits": 2}
	return append(cases,
		proveCase{config: units.Config{Unit: "dram-sched", Values: sched}},
		proveCase{config: units.Config{Unit: "dram-sched", Values: with(sched, units.Values{"rowscore": int(d.TableScores)})}},
		proveCase{config: units.Config{Unit: "dram-cmdq", Values: units.Values{"bankbits": 2, "bgbits": 1, "depth": 2, "rowbits": 1,
			"tagbits": 1, "trcd": 3, "trp": 2, "tcl": 4, "tras": 6, "trc": 8, "tccdl": 3, "tccds": 2, "trrd": 2, "twl": 2, "tcdlr": 2,
			"twr": 3, "trtpl": 2, "tburst": 2}}},
	)
}

// TestProveProperties requires every assertion proven and every cover
// point reached (none unreachable: that would be a wrong cover point or
// dead logic), but those a case lists as open.
func TestProveProperties(t *testing.T) {
	for _, c := range proveCases() {
		t.Run(c.config.String(), func(t *testing.T) { verify.RequireProperties(t, c.config, c.open) })
	}
}
