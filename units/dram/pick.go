package dram

import (
	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
)

// PickBlock is the dram-pick unit: Rule 1 of section 4.1 over a read
// queue, combinational (contract dram-pick); PickPorts are its ports.
//
// FRFCFSOnly builds the baseline without the score logic: FR-FCFS
// whatever pol says (pol, mlen_<i> and age_<i> stay, unused), the
// comparison point of the cost report.
type PickBlock struct {
	Entries, BankBits, RowBits, MlBits, AgeBits int
	FRFCFSOnly                                  bool
}

// PickSlot is a read-queue slot as Rule 1 reads it (4.1-4.3): valid,
// its bank and row, its merge length and age (the MIB's, 4.4) and its
// arrival order ord (a smaller ord is older; ords may repeat).
type PickSlot struct {
	V    *hdl.Signal `doc:"slot i holds a read"`
	Bank *hdl.Signal `doc:"[bankbits-1:0] bank of slot i"`
	Row  *hdl.Signal `doc:"[rowbits-1:0] row of slot i"`
	Mlen *hdl.Signal `doc:"[mlbits-1:0] L2 MSHR merge length of slot i"`
	Age  *hdl.Signal `doc:"[agebits-1:0] Age_MSHR of slot i (Eq. 4.2)"`
	Ord  *hdl.Signal `doc:"[IW-1:0] arrival rank of slot i: smaller is older"`
}

// PickBanks are the banks' state, lane b for bank b: ready for a
// command, a row open, the open row.
type PickBanks struct {
	Rdy     []*hdl.Signal `doc:"bank i can take a request"`
	OpenV   []*hdl.Signal `doc:"bank i has a row open"`
	OpenRow []*hdl.Signal `doc:"[rowbits-1:0] the open row of bank i"`
}

// PickPorts are dram-pick's ports: the policy, the read queue's slots,
// the banks and the slot picked.
type PickPorts struct {
	Pol   *hdl.Signal `doc:"policy: 0 FR-FCFS, 1 MSHR-M, 2 MSHR-S, 3 MSHR-S+A"`
	Slots []PickSlot
	Banks PickBanks
	Gnt   *hdl.Signal `doc:"some slot is eligible"`
	Idx   *hdl.Signal `doc:"[IW-1:0] the slot picked"`
	Hit   *hdl.Signal `doc:"the slot picked hits its bank's open row"`
}

// Build makes the module called name.
func (c PickBlock) Build(name string) *hdl.Module { return hdl.ModuleOf(c.WithPorts(name)) }

// WithPorts makes the module called name and returns its ports.
func (c PickBlock) WithPorts(name string) (*hdl.Module, PickPorts) {
	m := hdl.NewModule(name)
	iw := lib.CountWidth(c.Entries - 1)
	p := PickPorts{Pol: m.Input("pol", 2), Slots: make([]PickSlot, c.Entries)}
	for i := range p.Slots {
		f := m.InputFields("", i)
		p.Slots[i] = PickSlot{V: f("v", 1), Bank: f("bank", c.BankBits), Row: f("row", c.RowBits),
			Mlen: f("mlen", c.MlBits), Age: f("age", c.AgeBits), Ord: f("ord", iw)}
	}
	for b := range 1 << c.BankBits {
		f := m.InputFields("", b)
		p.Banks.Rdy = append(p.Banks.Rdy, f("rdy", 1))
		p.Banks.OpenV = append(p.Banks.OpenV, f("open_v", 1))
		p.Banks.OpenRow = append(p.Banks.OpenRow, f("open_row", c.RowBits))
	}
	pol := p.Pol
	if c.FRFCFSOnly {
		pol = nil
	}
	gnt, idx, hit := pickLogic(pol, p.Slots, p.Banks)
	p.Gnt, p.Idx, p.Hit = m.Output("gnt", 1), m.Output("idx", iw), m.Output("hit", 1)
	p.Gnt.Drive(gnt)
	p.Idx.Drive(idx)
	p.Hit.Drive(hit)
	return m, p
}

// pickLogic is Rule 1 in the module of its inputs. Each eligible slot
// (valid, its bank ready) gets the key {hit, R, s, ~ord} and the largest
// key wins, ties to the lower slot (lib.Argmax): a hit beats every miss
// and among hits R is 0, so hits compare by request score s, then age.
// pol nil is FR-FCFS without the score logic (the write queue).
//
// The row score R_i is the sum of s_j over the eligible slots j of the
// same bank and row under MSHR-S and MSHR-S+A (s is mlen, age), 0
// otherwise. MSHR-M's row score, the largest s of the row, needs no
// logic: the slots with the largest (R, s) are exactly those whose s is
// the largest of the queue (their rows then score it too), so its winner
// is the one with the largest s, which is what R = 0 picks.
func pickLogic(pol *hdl.Signal, slots []PickSlot, banks PickBanks) (gnt, idx, hit *hdl.Signal) {
	n := len(slots)
	elig, hits := banks.eligible(slots)
	keys := make([]*hdl.Signal, n)
	if pol == nil {
		for i, s := range slots {
			keys[i] = hdl.Concat(hits[i], s.Ord.Not()) // smaller ord wins
		}
	} else {
		sw := max(slots[0].Mlen.Width(), slots[0].Age.Width())
		rw := sw + lib.CountWidth(n)
		score := make([]*hdl.Signal, n) // s_j under MSHR-S and MSHR-S+A
		for j, o := range slots {
			score[j] = hdl.Mux(pol.EqConst(uint64(MSHRSA)), o.Age.Zext(sw), o.Mlen.Zext(sw))
		}
		sameRow := make([][]*hdl.Signal, n) // symmetric: built once per pair
		for i, s := range slots {
			sameRow[i] = make([]*hdl.Signal, n)
			for j, o := range slots[:i] {
				sameRow[i][j] = o.Bank.Eq(s.Bank).And(o.Row.Eq(s.Row))
				sameRow[j][i] = sameRow[i][j]
			}
		}
		for i, s := range slots {
			terms := make([]*hdl.Signal, n)
			for j := range slots {
				same := elig[j]
				if j != i {
					same = same.And(sameRow[i][j])
				}
				terms[j] = score[j].And(same.Repl(sw)).Zext(rw)
			}
			rowScored := pol.Bit(1).And(hits[i].Not()) // MSHR-S or MSHR-S+A, and a miss
			r := sumTree(terms).And(rowScored.Repl(rw))
			keys[i] = hdl.Concat(hits[i], r, requestScore(pol, s), s.Ord.Not())
		}
	}
	found, win, best := lib.Argmax(keys, lib.Bus(elig))
	return found, win, best.Bit(best.Width() - 1)
}

// eligible are the slots that may issue (valid, their bank ready) and
// those of them that hit their bank's open row.
func (banks PickBanks) eligible(slots []PickSlot) (elig, hits []*hdl.Signal) {
	bankRdy, bankOpen := lib.Bus(banks.Rdy), lib.Bus(banks.OpenV)
	for _, s := range slots {
		e := s.V.And(bankRdy.ShrBy(s.Bank).Bit(0))
		open := bankOpen.ShrBy(s.Bank).Bit(0).And(hdl.Select(s.Bank, banks.OpenRow...).Eq(s.Row))
		elig, hits = append(elig, e), append(hits, e.And(open))
	}
	return elig, hits
}

// requestScore is s of a slot (4.1-4.3): 0 under FR-FCFS, the merge
// length under MSHR-M and MSHR-S, the age under MSHR-S+A, in the wider
// of their widths.
func requestScore(pol *hdl.Signal, s PickSlot) *hdl.Signal {
	sw := max(s.Mlen.Width(), s.Age.Width())
	mlen, age := s.Mlen.Zext(sw), s.Age.Zext(sw)
	return hdl.Select(pol, s.V.Module().ConstU(sw, 0), mlen, mlen, age)
}

// pickByRows is pickLogic under a policy with the row scores read from a
// row-score table (4.5), not summed over the queue: slot i's row is
// entry ptrs[i] of rows. Rule 1 first finds the largest score among the
// table's rows that have eligible reads and no hit (MSHR-S: the merge
// length sum, MSHR-S+A: the age sum; 0 under FR-FCFS and MSHR-M, whose
// rows all tie), then takes the largest {hit, in a top row, s, ~ord}
// over the slots: among misses those of the top rows win, and among them
// s and age decide, as pickLogic's key {hit, R, s, ~ord} does. The logic
// grows with entries, but for the one-bit lookup of each slot's row.
func pickByRows(pol *hdl.Signal, slots []PickSlot, ptrs []*hdl.Signal, banks PickBanks, rows []RowTabEntry) (gnt, idx, hit *hdl.Signal) {
	m := pol.Module()
	bankRdy, bankOpen := lib.Bus(banks.Rdy), lib.Bus(banks.OpenV)
	rw := max(rows[0].Mlen.Width(), rows[0].Age.Width())
	zero := m.ConstU(rw, 0)
	scores := make([]*hdl.Signal, len(rows))
	missRows := make([]*hdl.Signal, len(rows))
	for r, e := range rows {
		open := bankOpen.ShrBy(e.Bank).Bit(0).And(hdl.Select(e.Bank, banks.OpenRow...).Eq(e.Row))
		missRows[r] = e.V.And(bankRdy.ShrBy(e.Bank).Bit(0)).And(open.Not())
		scores[r] = hdl.Select(pol, zero, zero, e.Mlen.Zext(rw), e.Age.Zext(rw))
	}
	_, _, top := lib.Argmax(scores, lib.Bus(missRows))
	topRows := make([]*hdl.Signal, len(rows))
	for r := range topRows {
		topRows[r] = missRows[r].And(scores[r].Eq(top))
	}
	elig, hits := banks.eligible(slots)
	keys := make([]*hdl.Signal, len(slots))
	for i, s := range slots {
		inTop := hits[i].Not().And(hdl.Select(ptrs[i], topRows...))
		keys[i] = hdl.Concat(hits[i], inTop, requestScore(pol, s), s.Ord.Not())
	}
	found, win, best := lib.Argmax(keys, lib.Bus(elig))
	return found, win, best.Bit(best.Width() - 1)
}

// sumTree adds equally wide terms in a balanced tree (the sum must fit
// their width).
func sumTree(terms []*hdl.Signal) *hdl.Signal {
	if len(terms) == 1 {
		return terms[0]
	}
	h := len(terms) / 2
	return sumTree(terms[:h]).Add(sumTree(terms[h:]))
}
