package dram

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/units"
	d "github.com/parmem/parmem/units/dram"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// TestCmdQ drives dram-cmdq with random reads and writes over few rows
// (hits, conflicts and closed banks all happen) for 100,000 cycles, steps
// CmdQ beside it and requires the same rdy, command and completion every
// cycle; every command goes through TimingChecker, which must see no
// violation of Table 5.1, and every accepted request completes exactly
// once, as the kind it was.
func TestCmdQ(t *testing.T) {
	t.Parallel()
	const cycles = 100_000
	for _, v := range []units.Values{
		{},
		{"bankbits": 2, "bgbits": 1, "depth": 2, "rowbits": 2, "tagbits": 5, "trcd": 3, "trp": 2, "tcl": 4, "tras": 6,
			"trc": 8, "tccdl": 3, "tccds": 2, "trrd": 2, "twl": 2, "tcdlr": 2, "twr": 3, "trtpl": 2, "tburst": 3},
		{"bankbits": 3, "bgbits": 0, "depth": 3, "tcl": 2, "twl": 7, "tburst": 1},
	} {
		c := units.Config{Unit: "dram-cmdq", Values: v}
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			b := newBench(t, c)
			cfg := d.CmdQConfig{BankBits: b.v["bankbits"], BGBits: b.v["bgbits"], Depth: b.v["depth"],
				T: d.Timing{RCD: b.v["trcd"], RP: b.v["trp"], CL: b.v["tcl"], RAS: b.v["tras"], RC: b.v["trc"],
					CCDL: b.v["tccdl"], CCDS: b.v["tccds"], RRD: b.v["trrd"], WL: b.v["twl"], CDLR: b.v["tcdlr"],
					WR: b.v["twr"], RTPL: b.v["trtpl"], Burst: b.v["tburst"]}}
			ref, check := d.NewCmdQ(cfg), d.NewTimingChecker(cfg)
			r := rand.New(rand.NewPCG(7, uint64(cfg.BankBits)))
			tags := uint64(1) << b.v["tagbits"]
			pending := map[uint64]bool{} // tag -> write, of accepted requests not yet done
			var nextTag uint64
			for cyc := range cycles {
				req := d.CmdReq{Valid: r.IntN(3) > 0, Write: r.IntN(3) == 0, Bank: r.IntN(cfg.Banks()), Row: r.IntN(3), Tag: nextTag}
				if _, busy := pending[req.Tag]; busy {
					req.Valid = false // every tag in flight is unique
				}
				b.set("req_valid", verify.Bit(req.Valid))
				b.set("req_write", verify.Bit(req.Write))
				b.set("req_bank", uint64(req.Bank))
				b.set("req_row", uint64(req.Row))
				b.set("req_tag", req.Tag)
				b.Step()
				for k := range cfg.Banks() {
					require.Equal(t, verify.Bit(ref.Ready(k)), b.geti("rdy", k), "cycle %d rdy_%d", cyc, k)
				}
				if req.Valid && ref.Ready(req.Bank) {
					pending[req.Tag] = req.Write
					nextTag = (nextTag + 1) % tags
				}
				cmd, done := ref.Step(req)
				got := d.Cmd{Valid: b.get("cmd_valid") == 1, Op: d.Op(b.get("cmd_op")), Bank: int(b.get("cmd_bank")), Row: int(b.get("cmd_row"))}
				require.Equal(t, cmd, got, "cycle %d command", cyc)
				require.Equal(t, done, d.Done{Valid: b.get("done_valid") == 1, Write: b.get("done_write") == 1, Tag: b.get("done_tag")},
					"cycle %d completion", cyc)
				require.Empty(t, check.Check(cyc, cmd))
				if done.Valid {
					write, ok := pending[done.Tag]
					require.True(t, ok, "cycle %d: tag %d done twice or never accepted", cyc, done.Tag)
					require.Equal(t, write, done.Write)
					delete(pending, done.Tag)
				}
			}
			t.Logf("%s: %v commands, %d in flight at the end", c, check.Commands, len(pending))
			for _, op := range []d.Op{d.ACT, d.PRE, d.RD, d.WR} {
				require.Positive(t, check.Commands[op], "no %v", op)
			}
			require.Less(t, len(pending), (cfg.Depth+1)*cfg.Banks()+4)
		})
	}
}
