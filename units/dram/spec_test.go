package dram

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomQueue is a read queue of n slots over few banks and rows, so that
// hits, shared rows and equal scores are common.
func randomQueue(r *rand.Rand, n, banks, rows int) ([]Slot, []Bank) {
	slots := make([]Slot, n)
	for i := range slots {
		slots[i] = Slot{Valid: r.IntN(4) > 0, Bank: r.IntN(banks), Row: r.IntN(rows),
			Mlen: uint64(1 + r.IntN(4)), Age: uint64(r.IntN(40)), Ord: r.IntN(n)}
	}
	bs := make([]Bank, banks)
	for b := range bs {
		bs[b] = Bank{Ready: r.IntN(5) > 0, Open: r.IntN(2) == 0, Row: r.IntN(rows)}
	}
	return slots, bs
}

// TestPickRule1 checks Pick against Rule 1 written as a sort: the eligible
// slots ordered by (hit, row score unless hit, request score) descending,
// then Ord and index ascending; the first one wins.
func TestPickRule1(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		slots, banks := randomQueue(r, 1+r.IntN(12), 1+r.IntN(4), 1+r.IntN(3))
		pol := Policies[r.IntN(4)]
		var elig []int
		for i, s := range slots {
			if s.Valid && banks[s.Bank].Ready {
				elig = append(elig, i)
			}
		}
		hitOf := func(i int) bool {
			b := banks[slots[i].Bank]
			return b.Open && b.Row == slots[i].Row
		}
		key := func(i int) [3]uint64 {
			if hitOf(i) {
				return [3]uint64{1, 0, pol.RequestScore(slots[i])}
			}
			return [3]uint64{0, RowScore(pol, slots, banks, i), pol.RequestScore(slots[i])}
		}
		sort.SliceStable(elig, func(a, b int) bool {
			ka, kb := key(elig[a]), key(elig[b])
			if ka != kb {
				return ka[0] > kb[0] || ka[0] == kb[0] && (ka[1] > kb[1] || ka[1] == kb[1] && ka[2] > kb[2])
			}
			return slots[elig[a]].Ord < slots[elig[b]].Ord
		})
		ok, idx, hit := Pick(pol, slots, banks)
		if len(elig) == 0 {
			require.False(t, ok)
			continue
		}
		require.True(t, ok)
		require.Equal(t, elig[0], idx, "%v %+v %+v", pol, slots, banks)
		require.Equal(t, hitOf(idx), hit)
	}
}

// TestPickProperties checks the statements about the policies on
// random queues.
func TestPickProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		slots, banks := randomQueue(r, 2+r.IntN(16), 1+r.IntN(4), 1+r.IntN(4))
		anyHit := false
		for _, s := range slots {
			b := banks[s.Bank]
			anyHit = anyHit || s.Valid && b.Ready && b.Open && b.Row == s.Row
		}
		for _, pol := range Policies {
			ok, idx, hit := Pick(pol, slots, banks)
			require.Equal(t, anyHit, hit, "a hit is taken exactly when one exists")
			if !ok || anyHit {
				continue
			}
			s := slots[idx]
			for j, o := range slots {
				if !o.Valid || !banks[o.Bank].Ready {
					continue
				}
				switch pol {
				case FRFCFS: // the oldest
					require.True(t, s.Ord < o.Ord || s.Ord == o.Ord && idx <= j)
				case MSHRM: // the largest merge length
					require.GreaterOrEqual(t, s.Mlen, o.Mlen)
				case MSHRS: // the row with the largest sum
					require.GreaterOrEqual(t, RowScore(MSHRS, slots, banks, idx), RowScore(MSHRS, slots, banks, j))
				case MSHRSA:
					require.GreaterOrEqual(t, RowScore(MSHRSA, slots, banks, idx), RowScore(MSHRSA, slots, banks, j))
				}
			}
		}
	}
}

// TestMSHRSMostPending: with every merge length 1, MSHR-S opens the row
// with the most requests (section 6.2, Rixner's most pending).
func TestMSHRSMostPending(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		slots, banks := randomQueue(r, 2+r.IntN(20), 1+r.IntN(3), 1+r.IntN(5))
		count := map[[2]int]int{}
		for i := range slots {
			slots[i].Mlen = 1
			banks[slots[i].Bank].Open = false
			if slots[i].Valid && banks[slots[i].Bank].Ready {
				count[[2]int{slots[i].Bank, slots[i].Row}]++
			}
		}
		ok, idx, _ := Pick(MSHRS, slots, banks)
		if !ok {
			continue
		}
		most := 0
		for _, c := range count {
			most = max(most, c)
		}
		require.Equal(t, most, count[[2]int{slots[idx].Bank, slots[idx].Row}])
	}
}

// TestSection41Example is Figure 4.1: R0 (merge length 4) in row 0, R7 (2)
// and R4 (4) in row 1. Row 1 scores 6 (the text's 5 is reading 7) and is
// opened under MSHR-S; MSHR-M takes the oldest request of length 4.
func TestSection41Example(t *testing.T) {
	slots := []Slot{
		{Valid: true, Bank: 0, Row: 0, Mlen: 4, Ord: 0}, // R0
		{Valid: true, Bank: 0, Row: 1, Mlen: 2, Ord: 1}, // R7
		{Valid: true, Bank: 0, Row: 1, Mlen: 4, Ord: 2}, // R4
	}
	banks := []Bank{{Ready: true}}
	require.Equal(t, uint64(6), RowScore(MSHRS, slots, banks, 1))
	require.Equal(t, uint64(4), RowScore(MSHRS, slots, banks, 0))
	_, idx, _ := Pick(MSHRS, slots, banks)
	require.Equal(t, 2, idx, "row 1, its largest request R4")
	_, idx, _ = Pick(MSHRM, slots, banks)
	require.Equal(t, 0, idx, "R0: length 4 and older than R4")
	banks[0].Open, banks[0].Row = true, 1 // row 1 open: its largest hit
	_, idx, hit := Pick(MSHRM, slots, banks)
	require.True(t, hit)
	require.Equal(t, 2, idx)
}

// TestFigure31 serves Figure 3.1's requests one per cycle in the order
// Pick gives: R0 carries warps 0 and 2 (merge length 2), R1 and R3 one
// warp each, each in its own closed bank, arriving R1, R3, R0. FR-FCFS
// serves the oldest first (Eq. 3.1: 1.75), MSHR-M the merged one (Eq.
// 3.2: 2.25).
func TestFigure31(t *testing.T) {
	mlens := []int{2, 1, 1} // R0, R1, R3
	order := func(pol Policy) []int {
		slots := []Slot{
			{Valid: true, Bank: 0, Mlen: 2, Ord: 2},
			{Valid: true, Bank: 1, Mlen: 1, Ord: 0},
			{Valid: true, Bank: 2, Mlen: 1, Ord: 1},
		}
		banks := make([]Bank, 3)
		for b := range banks {
			banks[b].Ready = true
		}
		var out []int
		for {
			ok, idx, _ := Pick(pol, slots, banks)
			if !ok {
				return out
			}
			out = append(out, idx)
			slots[idx].Valid = false
			for j := range slots {
				if slots[j].Valid && slots[j].Ord > slots[idx].Ord {
					slots[j].Ord--
				}
			}
		}
	}
	require.Equal(t, []int{1, 2, 0}, order(FRFCFS))
	require.InDelta(t, 1.75, DeltaIPC(mlens, order(FRFCFS), 4), 1e-12)
	require.InDelta(t, 2.25, DeltaIPC(mlens, order(MSHRM), 4), 1e-12)
}

// TestCosts45 is section 4.5's arithmetic.
func TestCosts45(t *testing.T) {
	k := Costs4_5(Thesis45())
	require.Equal(t, 20, k.L2MIBEntryBits)
	require.Equal(t, 160, k.L2MIBBytes)
	require.Equal(t, 43, k.MIBEntryBits)
	require.Equal(t, 344, k.MIBBytes)
	require.Equal(t, 35, k.RowEntryBits)
	require.Equal(t, 280, k.RowScoreBytes)
	require.Equal(t, 128, k.Adders)
	require.Equal(t, 1360, k.AdderBytes)
	require.Equal(t, 1984, k.DRAMBytes)
	p := printed45
	require.Equal(t, [7]int{p.L2MIBEntryBits, p.L2MIBBytes, p.MIBBytes, p.RowEntryBits, p.RowScoreBytes, p.AdderBytes, p.DRAMBytes},
		[7]int{k.L2MIBEntryBits, k.L2MIBBytes, k.MIBBytes, k.RowEntryBits, k.RowScoreBytes, k.AdderBytes, k.DRAMBytes},
		"the report's thesis column against 4.5's arithmetic")
	c := Thesis45()
	c.BlkBits = 25 // 32-bit addresses, 128 B lines (reading 2)
	require.Equal(t, 352, Costs4_5(c).MIBBytes)
}

// ageRun follows one MSHR entry: its first miss, created at cycle 0,
// reaches the DRAM controller latency cycles later; requests of other
// cores merge into it at the given cycles, created the given number of
// cycles before. A merge's dummy leaves with it (the L2 MIB's update and
// Figure 4.2's multiplexer within the merge's cycle) and updates the DRAM
// MIB latency cycles later. ageRun returns the DRAM MIB's Age_MSHR and
// Eq. 4.2 after the edge of cycle end-1.
func ageRun(latency int, merges map[int]int, end int) (mib, eq42 uint64) {
	l2 := NewL2MIB(1, 16, 32)
	d := NewMIB(1, 16, 32)
	created := []int{0}
	inflight := map[int]DummyReq{} // by the edge it lands at
	for c := range end {
		if age, ok := merges[c]; ok {
			created = append(created, c-age)
			// Its age by Eq. 4.1 once this edge has passed.
			l2.Step(L2MIBIn{Mrg: true, MrgAge: AgeReq(c+1, c-age)})
			_, _, mlen, age := l2.Dummy()
			l2.Step(L2MIBIn{DmyReady: true})
			inflight[c+latency] = DummyReq{Blk: 7, Mlen: mlen, Age: age}
		}
		in := MIBIn{}
		if c == latency {
			in.Alloc, in.AllocBlk, in.AllocAge = true, 7, AgeReq(c+1, 0)
		}
		if dm, ok := inflight[c]; ok {
			in.Upd, in.UpdBlk, in.UpdMlen, in.UpdAge = true, dm.Blk, dm.Mlen, dm.Age
		}
		d.Step(in)
	}
	return d.Age[0], AgeMSHR(end, created)
}

// TestAgeMSHR: with no L2-to-DRAM latency the DRAM side's age is Eq. 4.2;
// with latency L it is short by L per merge (each merged request's aging
// is unseen while its dummy travels).
func TestAgeMSHR(t *testing.T) {
	merges := map[int]int{30: 5, 41: 0, 42: 17, 60: 3, 90: 200}
	for _, l := range []int{0, 1, 20, 50} {
		mib, eq := ageRun(l, merges, 200)
		require.LessOrEqual(t, mib, eq, "latency %d", l)
		require.LessOrEqual(t, eq-mib, uint64(l*len(merges)), "latency %d", l)
		if l == 0 {
			require.Equal(t, eq, mib)
		}
	}
}

// starvation runs Figure 6.5's situation on the scheduler: one read to row
// 5 of bank 0 with no merges waits while reads of merge length 3 to rows
// 1 and 2 of the same bank keep arriving, one every other cycle, and the
// bank takes one request every other cycle from cycle 10. It returns the
// cycle the row-5 read is issued, or -1 within limit.
func starvation(pol Policy, limit int) int {
	s := NewSched(SchedConfig{Entries: 8, WEntries: 2, HiWM: 2, LoWM: 1, Banks: 1, Merges: 16, AgeBits: 15})
	var pendingDummy *DummyReq
	for c := 1; c < limit; c++ {
		in := SchedIn{Pol: pol, Rdy: []bool{c >= 10 && c%2 == 0}, Dummy: pendingDummy}
		pendingDummy = nil
		if c == 4 {
			in.Read = &Request{Row: 5, Blk: 1000}
		}
		if c%2 == 1 {
			blk := uint64(c)
			in.Read = &Request{Row: 1 + c/2%2, Blk: blk}
			pendingDummy = &DummyReq{Blk: blk, Mlen: 3, Age: 2}
		}
		if iss := s.Step(in); iss.Valid && iss.Row == 5 {
			return c
		}
	}
	return -1
}

// TestFigure65Starvation: MSHR-S never opens the unmerged row while merged
// requests keep coming; MSHR-S+A's age sum serves it.
func TestFigure65Starvation(t *testing.T) {
	require.Equal(t, -1, starvation(MSHRS, 5000))
	require.Equal(t, -1, starvation(MSHRM, 5000))
	require.Positive(t, starvation(FRFCFS, 5000))
	c := starvation(MSHRSA, 5000)
	require.Positive(t, c)
	t.Logf("MSHR-S+A serves the starved row at cycle %d", c)
}
