package dram

import (
	"io"
	"time"

	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
)

// dramClaims are Li's results beside ours (gen -report fidelity): section
// 4.5's bytes under -rowscore table, elaborated, and chapter 6's findings
// on the cycle model (the dram report's runs but the choice table's
// deeper command queues).
var dramClaims = &units.Claims{
	Time: 4 * time.Minute,
	Run: func(progress io.Writer) ([]verdict.Claim, error) {
		l2, err := measure(units.Config{Unit: "dram-l2mib", Values: units.Values{}}, nil, nil)
		if err != nil {
			return nil, err
		}
		mib, err := measure(units.Config{Unit: "dram-mib", Values: units.Values{}}, nil, nil)
		if err != nil {
			return nil, err
		}
		scheds, err := schedsElaborated()
		if err != nil {
			return nil, err
		}
		e, err := evaluate(Workloads, DefaultCycles, findingRuns, progress)
		if err != nil {
			return nil, err
		}
		return append(claims45(l2, mib, scheds), e.findings()...), nil
	},
}
