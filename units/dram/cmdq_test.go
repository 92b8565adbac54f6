package dram

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTimingCheckerCatches feeds the checker traces that break one
// constraint each; it must name it.
func TestTimingCheckerCatches(t *testing.T) {
	c := CmdQConfig{BankBits: 4, BGBits: 2, Depth: 4, T: Table51()}
	for _, tc := range []struct {
		trace []Cmd // one per cycle from 0; Valid false skips a cycle
		want  string
	}{
		{[]Cmd{{true, ACT, 0, 1}, {true, RD, 0, 1}}, "tRCD"},
		{[]Cmd{{true, ACT, 0, 1}, {true, ACT, 1, 1}}, "tRRD"},
		{[]Cmd{{true, ACT, 0, 1}, {true, PRE, 0, 1}}, "tRAS"},
		{[]Cmd{{true, RD, 0, 1}}, "closed bank"},
		{[]Cmd{{true, PRE, 0, 1}}, "closed bank"},
	} {
		k := NewTimingChecker(c)
		var errs []error
		for cyc, cmd := range tc.trace {
			errs = append(errs, k.Check(cyc, cmd)...)
		}
		require.NotEmpty(t, errs)
		require.Contains(t, errs[len(errs)-1].Error(), tc.want)
	}
	// Column spacing within a bank group, write to read, read to write.
	k := NewTimingChecker(c)
	for b := range 3 {
		require.Empty(t, k.Check(b*6, Cmd{true, ACT, b * 4, 0}))
	}
	require.Empty(t, k.Check(40, Cmd{true, RD, 0, 0}))
	require.Contains(t, k.Check(41, Cmd{true, RD, 4, 0})[0].Error(), "tCCDS")
	require.Contains(t, k.Check(43, Cmd{true, WR, 8, 0})[0].Error(), "RD->WR")
	require.Empty(t, k.Check(60, Cmd{true, WR, 8, 0}))
	require.Contains(t, k.Check(65, Cmd{true, RD, 0, 0})[0].Error(), "tCDLR")
}

// TestCmdQKeepsTiming runs CmdQ on random traffic for 100,000 cycles at
// Table 5.1's timing: the checker sees no violation and every request
// completes, in order within its bank.
func TestCmdQKeepsTiming(t *testing.T) {
	c := CmdQConfig{BankBits: 4, BGBits: 2, Depth: 4, T: Table51()}
	q, k := NewCmdQ(c), NewTimingChecker(c)
	r := rand.New(rand.NewPCG(1, 1))
	var tag uint64
	perBank := make([][]uint64, c.Banks())
	bankOf := map[uint64]int{}
	done := 0
	for cyc := range 100_000 {
		req := CmdReq{Valid: r.IntN(2) == 0, Write: r.IntN(4) == 0, Bank: r.IntN(16), Row: r.IntN(4), Tag: tag}
		if req.Valid && q.Ready(req.Bank) {
			perBank[req.Bank] = append(perBank[req.Bank], tag)
			bankOf[tag] = req.Bank
			tag++
		}
		cmd, d := q.Step(req)
		require.Empty(t, k.Check(cyc, cmd))
		if d.Valid {
			b := bankOf[d.Tag]
			require.Equal(t, perBank[b][0], d.Tag, "in order within bank %d", b)
			perBank[b] = perBank[b][1:]
			done++
		}
	}
	require.Greater(t, done, 20_000)
	t.Logf("%d requests done, commands %v", done, k.Commands)
}
