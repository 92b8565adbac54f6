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
			blk, err := units.FillConfig(c, (*d.CmdQBlock).Params)
			require.NoError(t, err)
			cfg := d.CmdQConfig{BankBits: blk.BankBits, BGBits: blk.BGBits, Depth: blk.Depth, T: blk.T}
			m, p := blk.WithPorts("dut")
			b := newBench(t, m)
			reqIn, rdy, cmdOut, doneOut := b.Ins(p.Req), b.Outs(p.Rdy), b.Outs(p.Cmd), b.Outs(p.Done)
			ref, check := d.NewCmdQ(cfg), d.NewTimingChecker(cfg)
			r := rand.New(rand.NewPCG(7, uint64(cfg.BankBits)))
			tags := uint64(1) << blk.TagBits
			pending := map[uint64]bool{} // tag -> write, of accepted requests not yet done
			var nextTag uint64
			for cyc := range cycles {
				req := d.CmdReq{Valid: r.IntN(3) > 0, Write: r.IntN(3) == 0, Bank: r.IntN(cfg.Banks()), Row: r.IntN(3), Tag: nextTag}
				if _, busy := pending[req.Tag]; busy {
					req.Valid = false // every tag in flight is unique
				}
				setAll(b, reqIn, verify.Bit(req.Valid), verify.Bit(req.Write), uint64(req.Bank), uint64(req.Row), req.Tag)
				b.Step()
				for k := range cfg.Banks() {
					require.Equal(t, verify.Bit(ref.Ready(k)), b.Get(rdy[k]), "cycle %d rdy_%d", cyc, k)
				}
				if req.Valid && ref.Ready(req.Bank) {
					pending[req.Tag] = req.Write
					nextTag = (nextTag + 1) % tags
				}
				cmd, done := ref.Step(req)
				got := getAll(b, cmdOut)
				require.Equal(t, cmd, d.Cmd{Valid: got[0] == 1, Op: d.Op(got[1]), Bank: int(got[2]), Row: int(got[3])}, "cycle %d command", cyc)
				got = getAll(b, doneOut)
				require.Equal(t, done, d.Done{Valid: got[0] == 1, Write: got[1] == 1, Tag: got[2]}, "cycle %d completion", cyc)
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
