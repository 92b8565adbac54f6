package dram

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRowTableConditions runs Sched with and without RowTable on the same
// random traffic under MSHR-S and MSHR-S+A and finds the first cycle they
// issue differently: never while every block has at most one read queued
// and no age saturates (the table's conditions, DESIGN.md dram-rowtab);
// soon when a block is queued twice or ages saturate, which is why
// -rowscore table is not dram-sched's default.
func TestRowTableConditions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		agebits  int
		twice    bool   // blocks may be queued twice
		arrival  uint64 // largest arrival age
		diverges bool
	}{
		{"one read per block, ages far from saturating", 15, false, 200, false},
		{"blocks queued twice", 15, true, 200, true},
		{"ages saturating", 8, false, 255, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := SchedConfig{Entries: 16, WEntries: 16, HiWM: 12, LoWM: 10, Banks: 4, Merges: 16, AgeBits: tc.agebits}
			withTable := c
			withTable.RowTable = true
			sum, table := NewSched(c), NewSched(withTable)
			r := rand.New(rand.NewPCG(3, 4))
			queued := map[uint64]int{}
			rdy := make([]bool, c.Banks)
			first := -1
			for cyc := 0; cyc < 200_000 && first < 0; cyc++ {
				for k := range rdy {
					rdy[k] = r.IntN(3) == 0
				}
				in := SchedIn{Pol: Policies[2+cyc/500%2], Rdy: rdy}
				if r.IntN(8) > 0 && sum.ReadReady() {
					blk := r.Uint64N(64)
					if tc.twice || queued[blk] == 0 {
						queued[blk]++
						in.Read = &Request{Bank: r.IntN(c.Banks), Row: r.IntN(3), Blk: blk, Age: r.Uint64N(tc.arrival + 1)}
					}
				}
				if r.IntN(2) == 0 {
					in.Dummy = &DummyReq{Blk: r.Uint64N(64), Mlen: 1 + r.Uint64N(16), Age: r.Uint64N(30)}
				}
				a, b := sum.Step(in), table.Step(in)
				if a != b {
					first = cyc
				}
				if a.Valid && !a.Write {
					queued[a.Blk]--
				}
			}
			t.Logf("%s: first differing cycle %d", tc.name, first)
			require.Equal(t, tc.diverges, first >= 0)
		})
	}
}
