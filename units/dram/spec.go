package dram

import (
	"fmt"
	"slices"

	"github.com/parmem/parmem/hdl/lib"
)

// The paper's math of Li's thesis (li-inter-core-locality-scheduling.txt):
// Rule 1 with its request and row scores (4.1-4.3), the ages of Eq.
// 4.1-4.2, both Merge Information Buffers (4.4), the write drain (2.3),
// Figure 3.1's example and the hardware cost arithmetic of 4.5, in plain
// Go. The blocks are checked against these; the cycle model runs on them.
//
// Readings taken for the project (issue 12, ../contracts/dram.md):
//  1. A 4-bit merge length cannot hold 16: the L2 MIB stores length-1
//     (20-bit entries, 160 B hold); ports carry the true length in
//     bits(merges) bits. Ages saturate at 2^agebits-1.
//  2. 32-bit addresses over 128 B lines give 25-bit block addresses; the
//     blkbits default 24 reproduces 4.5's 344 B, and the cost report shows
//     both.
//  3. Row scores are exact sums, not 19 bits.
//  4. The L2 MIB's dummy carries the ages merged since its last dummy; the
//     DRAM side overwrites the merge length and adds the age.
//  5. MSHR-S+A scores a request by Age_MSHR and a row by their sum.
//  6. Rule 1 over 16 banks: hits in every ready bank count; rows are
//     scored per (bank, row); ties go to the older request, then the lower
//     slot.
//  7. Section 4.1's row 1 scores 2+4 = 6, not 5.
//  8. Reaching the high watermark starts a drain that lasts to the low
//     watermark; a cycle with no eligible read may issue a write.
//  9. Table 5.1 has no tWTR; tCDLR stands for it.

// Policy is a read scheduling policy (the pol[1:0] code of the contract).
type Policy int

const (
	FRFCFS Policy = iota // first ready, first come first served (2.3)
	MSHRM                // row score: the largest merge length in the row (4.2)
	MSHRS                // row score: the sum of merge lengths in the row (4.2)
	MSHRSA               // request score Age_MSHR, row score its sum (4.3)
)

// Policies lists the policies in code order.
var Policies = []Policy{FRFCFS, MSHRM, MSHRS, MSHRSA}

var policyNames = [...]string{"FR-FCFS", "MSHR-M", "MSHR-S", "MSHR-S+A"}

func (p Policy) String() string {
	if p >= 0 && int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// Sat is sat(x) = min(x, 2^agebits-1), the saturating age of 4.5.
func Sat(x uint64, agebits int) uint64 { return min(x, ageMax(agebits)) }

func ageMax(agebits int) uint64 { return 1<<uint(agebits) - 1 }

// Slot is one read queue entry as the scheduler sees it: the request's
// bank and row, its L2 MSHR merge length and Age_MSHR (from the MIB), and
// its arrival rank Ord (smaller is older).
type Slot struct {
	Valid     bool
	Bank, Row int
	Mlen, Age uint64
	Ord       int
}

// Bank is one DRAM bank as the scheduler sees it: whether its command
// queue takes a request and the row it will have open.
type Bank struct {
	Ready, Open bool
	Row         int
}

// Pick is Rule 1 (section 4.1) under a policy: the eligible slot (valid,
// its bank ready) to issue. Among row hits (the bank's open row) the one
// with the largest request score wins; without hits the slot of the row
// with the largest row score, then the largest request score. Ties go to
// the smallest Ord, then the smallest index. ok is false with nothing
// eligible.
func Pick(pol Policy, slots []Slot, banks []Bank) (ok bool, idx int, hit bool) {
	return pick(pol, slots, banks, nil)
}

// pick is Pick, with the row score of slot i rowScore(i) when rowScore is
// not nil.
func pick(pol Policy, slots []Slot, banks []Bank, rowScore func(i int) uint64) (ok bool, idx int, hit bool) {
	type row struct {
		bank, row int
		score     uint64
	}
	var buf [128]row
	rows := buf[:0] // one per eligible (bank, row), few in practice
	rowOf := func(s Slot) int {
		return slices.IndexFunc(rows, func(r row) bool { return r.bank == s.Bank && r.row == s.Row })
	}
	for _, s := range slots {
		if !s.Valid || !banks[s.Bank].Ready {
			continue
		}
		r := rowOf(s)
		if r < 0 {
			rows = append(rows, row{bank: s.Bank, row: s.Row})
			r = len(rows) - 1
		}
		rows[r].score = pol.addToRow(rows[r].score, s)
	}
	idx = -1
	var best [2]uint64 // (row score, request score) of idx, or (0, s) among hits
	for i, s := range slots {
		if !s.Valid || !banks[s.Bank].Ready {
			continue
		}
		b := banks[s.Bank]
		h := b.Open && b.Row == s.Row
		key := [2]uint64{rows[rowOf(s)].score, pol.RequestScore(s)}
		if rowScore != nil {
			key[0] = rowScore(i)
		}
		if h {
			key[0] = 0
		}
		better := idx < 0 || h && !hit ||
			h == hit && (key[0] > best[0] || key[0] == best[0] && (key[1] > best[1] || key[1] == best[1] && s.Ord < slots[idx].Ord))
		if better {
			idx, hit, best = i, h, key
		}
	}
	if idx < 0 {
		return false, 0, false
	}
	return true, idx, hit
}

// RequestScore is a request's score (4.1-4.3): 0 under FR-FCFS, the merge
// length under MSHR-M and MSHR-S, Age_MSHR under MSHR-S+A.
func (p Policy) RequestScore(s Slot) uint64 {
	switch p {
	case MSHRM, MSHRS:
		return s.Mlen
	case MSHRSA:
		return s.Age
	}
	return 0
}

// addToRow folds a request into its row's score (4.2): the largest
// request score under MSHR-M, the sum under MSHR-S and MSHR-S+A, exact.
func (p Policy) addToRow(score uint64, s Slot) uint64 {
	switch p {
	case MSHRM:
		return max(score, s.Mlen)
	case MSHRS:
		return score + s.Mlen
	case MSHRSA:
		return score + s.Age
	}
	return 0
}

// RowScore is the score of the row of slot i: its policy's fold over the
// eligible slots of the same bank and row.
func RowScore(pol Policy, slots []Slot, banks []Bank, i int) uint64 {
	var score uint64
	for _, s := range slots {
		if s.Valid && banks[s.Bank].Ready && s.Bank == slots[i].Bank && s.Row == slots[i].Row {
			score = pol.addToRow(score, s)
		}
	}
	return score
}

// AgeReq is Eq. 4.1: a request's age is the time since its creation.
func AgeReq(now, created int) uint64 { return uint64(now - created) }

// AgeMSHR is Eq. 4.2: an MSHR entry's age is the sum of its requests'
// ages.
func AgeMSHR(now int, created []int) uint64 {
	var a uint64
	for _, c := range created {
		a += AgeReq(now, c)
	}
	return a
}

// MIB is the DRAM controller's Merge Information Buffer (4.4,
// contract dram-mib): per read queue slot the block address, the L2 MSHR
// merge length and Age_MSHR, which grows by the merge length every cycle
// (4.3) and takes a dummy's merge length and adds its age.
type MIB struct {
	Merges, AgeBits int
	// FirstOnly updates only the lowest valid slot of a dummy's block
	// that is not freed at the edge (dram-sched -rowscore table, whose
	// row-score table follows one read per dummy).
	FirstOnly bool
	V         []bool
	Blk       []uint64
	Mlen, Age []uint64
}

// NewMIB returns an empty MIB of entries slots.
func NewMIB(entries, merges, agebits int) *MIB {
	return &MIB{Merges: merges, AgeBits: agebits, V: make([]bool, entries), Blk: make([]uint64, entries),
		Mlen: make([]uint64, entries), Age: make([]uint64, entries)}
}

// MIBIn is one edge's inputs of the MIB: a read entering a slot, a dummy
// request, a slot freed by its read's issue. Indexes out of range match
// nothing.
type MIBIn struct {
	Alloc              bool
	AllocIdx           int
	AllocBlk, AllocAge uint64
	Upd                bool
	UpdBlk             uint64
	UpdMlen, UpdAge    uint64
	Free               bool
	FreeIdx            int
}

// Step applies one rising edge: per slot, the first of free, alloc, and
// the aging with a matching dummy.
func (m *MIB) Step(in MIBIn) {
	first := -1
	if m.FirstOnly {
		first = m.firstUpdated(in)
	}
	for i := range m.V {
		switch {
		case in.Free && in.FreeIdx == i:
			m.V[i], m.Blk[i], m.Mlen[i], m.Age[i] = false, 0, 0, 0
		case in.Alloc && in.AllocIdx == i:
			m.V[i], m.Blk[i], m.Mlen[i], m.Age[i] = true, in.AllocBlk, 1, in.AllocAge
		case m.V[i]:
			a1 := Sat(m.Age[i]+m.Mlen[i], m.AgeBits) // each merged request ages a cycle (4.3)
			m.Age[i] = a1
			if in.Upd && m.Blk[i] == in.UpdBlk && (!m.FirstOnly || i == first) {
				m.Mlen[i], m.Age[i] = in.UpdMlen, Sat(a1+in.UpdAge, m.AgeBits)
			}
		}
	}
}

// firstUpdated is the slot a FirstOnly MIB's dummy updates at this edge:
// the lowest valid slot of its block not freed, or -1.
func (m *MIB) firstUpdated(in MIBIn) int {
	for i := range m.V {
		if in.Upd && m.V[i] && m.Blk[i] == in.UpdBlk && !(in.Free && in.FreeIdx == i) {
			return i
		}
	}
	return -1
}

// L2MIB is the L2 side's Merge Information Buffer (4.4, contract
// dram-l2mib): per MSHR entry the merge length less one, the ages merged
// since its last dummy, and whether a dummy is pending.
type L2MIB struct {
	Merges, AgeBits int
	Cnt, Age        []uint64
	Pend            []bool
}

// NewL2MIB returns an L2 MIB of entries MSHR entries.
func NewL2MIB(entries, merges, agebits int) *L2MIB {
	return &L2MIB{Merges: merges, AgeBits: agebits, Cnt: make([]uint64, entries), Age: make([]uint64, entries),
		Pend: make([]bool, entries)}
}

// L2MIBIn is one edge's inputs of the L2 MIB.
type L2MIBIn struct {
	Alloc    bool // an MSHR entry allocated by a first miss
	AllocIdx int
	Mrg      bool // a request merged into an entry, its age (Eq. 4.1)
	MrgIdx   int
	MrgAge   uint64
	Free     bool // the entry's fill returned
	FreeIdx  int
	DmyReady bool // the dummy offered this cycle is sent
}

// Dummy is the dummy request the L2 MIB offers this cycle: the pending
// entry with the largest merge length, then the smallest index (the
// "maximum request score" of 4.4), its merge length and the ages merged
// since its last dummy.
func (l *L2MIB) Dummy() (ok bool, idx int, mlen, age uint64) {
	for i, p := range l.Pend {
		if p && (!ok || l.Cnt[i] > l.Cnt[idx]) {
			ok, idx = true, i
		}
	}
	if !ok {
		return false, 0, 0, 0
	}
	return true, idx, l.Cnt[idx] + 1, l.Age[idx]
}

// Step applies one rising edge: per entry, free, else alloc, else the
// sent dummy clearing and a merge adding.
func (l *L2MIB) Step(in L2MIBIn) {
	sent, sentIdx, _, _ := l.Dummy()
	sent = sent && in.DmyReady
	for i := range l.Cnt {
		switch {
		case in.Free && in.FreeIdx == i, in.Alloc && in.AllocIdx == i:
			l.Cnt[i], l.Age[i], l.Pend[i] = 0, 0, false
		default:
			if sent && sentIdx == i {
				l.Age[i], l.Pend[i] = 0, false
			}
			if in.Mrg && in.MrgIdx == i {
				l.Cnt[i] = min(l.Cnt[i]+1, uint64(l.Merges-1))
				l.Age[i] = Sat(l.Age[i]+in.MrgAge, l.AgeBits)
				l.Pend[i] = true
			}
		}
	}
}

// NextDrain is the write drain of 2.3 (reading 8): a drain starts when the
// write queue holds hiwm writes and lasts until it holds lowm.
func NextDrain(drain bool, writes, hiwm, lowm int) bool {
	return writes >= hiwm || drain && writes > lowm
}

// DeltaIPC is Figure 3.1's measure: the DRAM serves one request per cycle
// in order; a request with merge length m releases m warps, each of which
// executes one instruction per cycle from the next cycle on; the result
// is the instructions executed in the first cycles cycles, per cycle.
func DeltaIPC(mlens []int, order []int, cycles int) float64 {
	n := 0
	for k, r := range order {
		n += mlens[r] * max(0, cycles-1-k)
	}
	return float64(n) / float64(cycles)
}

// Costs is the storage and adder arithmetic of section 4.5 for a
// configuration.
type Costs struct {
	L2MIBEntryBits int // merge length - 1, age, valid (20)
	L2MIBBytes     int // per L2 MSHR (160)
	MIBEntryBits   int // block address, merge length, age (43)
	MIBBytes       int // per DRAM read queue (344)
	RowEntryBits   int // bank, row, merge length and age (35)
	RowScoreBytes  int // one row score per read queue entry (280)
	Adders         int // age adders: MIB and row scores (128)
	AdderBytes     int // adders as SRAM bits at 34 transistors per full adder bit, 6 per SRAM bit (1360)
	DRAMBytes      int // MIB + row scores + adders (1984)
}

// CostConfig are the sizes 4.5 counts with.
type CostConfig struct {
	MSHRs, Merges, AgeBits, BlkBits, ReadQueue, BankBits, RowBits int
}

// Thesis45 is section 4.5's configuration: 64 MSHR entries of 16 merges,
// 15-bit ages, 24-bit block addresses, a 64-entry read queue, 16 banks of
// 4096 rows.
func Thesis45() CostConfig {
	return CostConfig{MSHRs: 64, Merges: 16, AgeBits: 15, BlkBits: 24, ReadQueue: 64, BankBits: 4, RowBits: 12}
}

// Costs4_5 is section 4.5's arithmetic. The thesis's merge length field
// is bits(merges-1) (4 bits at 16 merges, reading 1).
func Costs4_5(c CostConfig) Costs {
	lw := lib.CountWidth(c.Merges - 1)
	k := Costs{L2MIBEntryBits: lw + c.AgeBits + 1}
	k.L2MIBBytes = c.MSHRs * k.L2MIBEntryBits / 8
	k.MIBEntryBits = c.BlkBits + lw + c.AgeBits
	k.MIBBytes = c.ReadQueue * k.MIBEntryBits / 8
	k.RowEntryBits = c.BankBits + c.RowBits + lw + c.AgeBits
	k.RowScoreBytes = c.ReadQueue * k.RowEntryBits / 8
	k.Adders = 2 * c.ReadQueue
	const adderTransistors, sramTransistors = 34, 6
	k.AdderBytes = k.Adders * c.AgeBits * adderTransistors / sramTransistors / 8
	k.DRAMBytes = k.MIBBytes + k.RowScoreBytes + k.AdderBytes
	return k
}
