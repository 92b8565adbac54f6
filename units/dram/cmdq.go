package dram

import "fmt"

// Timing is the GDDR5 timing of Table 5.1 in DRAM cycles, plus the burst
// length on the data bus.
type Timing struct {
	RCD, RP, CL, RAS, RC, CCDL, CCDS, RRD, WL, CDLR, WR, RTPL, Burst int
}

// Table51 is Table 5.1's Hynix H5GQ1H24AFR timing: tRCD 12, tRP 12, tCL
// 12, tRAS 28, tRC 40, tCCDL 3, tCCDS 2, tRRD 6, tWL 4, tCDLR 5, tWR 12,
// tRTPL 2; the data of a request takes the contract's tburst default of 2
// cycles (tCCDS: back-to-back column commands keep the data bus busy).
func Table51() Timing {
	return Timing{RCD: 12, RP: 12, CL: 12, RAS: 28, RC: 40, CCDL: 3, CCDS: 2, RRD: 6, WL: 4, CDLR: 5, WR: 12, RTPL: 2, Burst: 2}
}

// writeToPre, writeToRead and readToWrite are the contract's spacings
// that combine several parameters.
func (t Timing) writeToPre() int  { return t.WL + t.Burst + t.WR }
func (t Timing) writeToRead() int { return t.WL + t.Burst + t.CDLR }
func (t Timing) readToWrite() int { return max(1, t.CL+t.Burst+1-t.WL) }

// ReadDone and WriteDone are the cycles from a column command to its
// request's completion: the last data beat.
func (t Timing) ReadDone() int  { return t.CL + t.Burst }
func (t Timing) WriteDone() int { return t.WL + t.Burst }

// Op is a DRAM command (cmd_op of the contract).
type Op int

const (
	ACT Op = iota
	PRE
	RD
	WR
)

func (o Op) String() string { return [...]string{"ACT", "PRE", "RD", "WR"}[o] }

// CmdQConfig sizes the per-bank command queues (contract dram-cmdq).
type CmdQConfig struct {
	BankBits, BGBits, Depth int
	T                       Timing
}

// Banks is 2^BankBits.
func (c CmdQConfig) Banks() int { return 1 << c.BankBits }

// Group is the bank group of bank b: its top BGBits bits.
func (c CmdQConfig) Group(b int) int { return b >> (c.BankBits - c.BGBits) }

// CmdReq is a request entering a bank's command queue.
type CmdReq struct {
	Valid, Write bool
	Bank, Row    int
	Tag          uint64
}

// Cmd is a command on the DRAM command bus.
type Cmd struct {
	Valid     bool
	Op        Op
	Bank, Row int
}

// Done is a request's completion.
type Done struct {
	Valid, Write bool
	Tag          uint64
}

// CmdQ is the per-bank command queues of section 2.3 in plain Go, cycle
// for cycle as the dram-cmdq block: a request becomes PRE, ACT and its
// column command as its bank's state requires when it reaches the head
// (open page, in order per bank); banks are served round robin, one
// command per cycle, starting after the bank that issued last. Each
// constraint of Table 5.1 is a down-counter: a command may issue when its
// counters are 0, and issuing loads the counters it constrains with the
// gap less one.
type CmdQ struct {
	C       CmdQConfig
	queue   [][]CmdReq
	open    []bool
	row     []int
	actWait []int // per bank: tRC after ACT, tRP after PRE
	colWait []int // per bank: tRCD after ACT
	preWait []int // per bank: tRAS after ACT, tRTPL after RD, tWL+tburst+tWR after WR
	ccdl    []int // per bank group: tCCDL after a column command
	ccds    int   // tCCDS after any column command
	rrd     int   // tRRD after any ACT
	rdWait  int   // tWL+tburst+tCDLR after a WR
	wrWait  int   // tCL+tburst+1-tWL after a RD
	done    []Done
	next    int // round-robin pointer: the first bank to look at
}

// NewCmdQ returns empty queues with every bank closed, as after reset.
func NewCmdQ(c CmdQConfig) *CmdQ {
	n := c.Banks()
	return &CmdQ{C: c, queue: make([][]CmdReq, n), open: make([]bool, n), row: make([]int, n),
		actWait: make([]int, n), colWait: make([]int, n), preWait: make([]int, n),
		ccdl: make([]int, 1<<c.BGBits), done: make([]Done, max(c.T.ReadDone(), c.T.WriteDone()))}
}

// Ready reports whether bank b's queue takes a request.
func (q *CmdQ) Ready(b int) bool { return len(q.queue[b]) < q.C.Depth }

// Pending is the number of requests queued in all banks.
func (q *CmdQ) Pending() int {
	n := 0
	for _, b := range q.queue {
		n += len(b)
	}
	return n
}

// headCmd is the next command of bank b's head request and whether it
// may issue this cycle.
func (q *CmdQ) headCmd(b int) (Cmd, bool) {
	if len(q.queue[b]) == 0 {
		return Cmd{}, false
	}
	r := q.queue[b][0]
	c := Cmd{Valid: true, Bank: b, Row: r.Row}
	switch {
	case !q.open[b]:
		c.Op = ACT
		return c, q.actWait[b] == 0 && q.rrd == 0
	case q.row[b] != r.Row:
		c.Op = PRE
		return c, q.preWait[b] == 0
	}
	c.Op = RD
	lat, wait := q.C.T.ReadDone(), q.rdWait
	if r.Write {
		c.Op, lat, wait = WR, q.C.T.WriteDone(), q.wrWait
	}
	slotFree := lat >= len(q.done) || !q.done[lat].Valid
	return c, q.colWait[b] == 0 && q.ccdl[q.C.Group(b)] == 0 && q.ccds == 0 && wait == 0 && slotFree
}

// Step runs one DRAM cycle: it returns the cycle's command and completion
// and applies the edge (the request entering its bank's queue when
// Ready).
func (q *CmdQ) Step(req CmdReq) (Cmd, Done) {
	n := q.C.Banks()
	push := req.Valid && q.Ready(req.Bank) // as the queue stood before the edge
	var cmd Cmd
	for k := range n {
		b := (q.next + k) % n
		if c, ok := q.headCmd(b); ok {
			cmd = c
			break
		}
	}
	done := q.done[0]
	copy(q.done, q.done[1:])
	q.done[len(q.done)-1] = Done{}
	for _, w := range [][]int{q.actWait, q.colWait, q.preWait, q.ccdl} {
		for i := range w {
			w[i] = dec(w[i])
		}
	}
	q.ccds, q.rrd, q.rdWait, q.wrWait = dec(q.ccds), dec(q.rrd), dec(q.rdWait), dec(q.wrWait)
	if cmd.Valid {
		q.apply(cmd)
		q.next = (cmd.Bank + 1) % n
	}
	if push {
		q.queue[req.Bank] = append(q.queue[req.Bank], req)
	}
	return cmd, done
}

func dec(x int) int { return max(0, x-1) }

// load makes a counter wait gap cycles from the command just issued.
func load(w *int, gap int) { *w = max(*w, gap-1) }

func (q *CmdQ) apply(c Cmd) {
	t, b := q.C.T, c.Bank
	switch c.Op {
	case ACT:
		q.open[b], q.row[b] = true, c.Row
		load(&q.actWait[b], t.RC)
		load(&q.colWait[b], t.RCD)
		load(&q.preWait[b], t.RAS)
		load(&q.rrd, t.RRD)
	case PRE:
		q.open[b] = false
		load(&q.actWait[b], t.RP)
	case RD, WR:
		r := q.queue[b][0]
		q.queue[b] = q.queue[b][1:]
		load(&q.ccdl[q.C.Group(b)], t.CCDL)
		load(&q.ccds, t.CCDS)
		lat := t.ReadDone()
		if c.Op == RD {
			load(&q.preWait[b], t.RTPL)
			load(&q.wrWait, t.readToWrite())
		} else {
			lat = t.WriteDone()
			load(&q.preWait[b], t.writeToPre())
			load(&q.rdWait, t.writeToRead())
		}
		q.done[lat-1] = Done{Valid: true, Write: c.Op == WR, Tag: r.Tag}
	}
}

// TimingChecker checks a command trace against every constraint of
// Table 5.1 with absolute cycle numbers, independently of CmdQ's
// counters, and that each command suits its bank's state (ACT to a
// closed bank, PRE, RD and WR to an open one).
type TimingChecker struct {
	C                                CmdQConfig
	open                             []bool
	lastACT, lastPRE, lastRD, lastWR []int // per bank
	lastColGroup                     []int // per bank group
	lastCol, lastAnyACT              int
	lastAnyRD, lastAnyWR             int
	Commands                         map[Op]int
}

const never = -1 << 30

// NewTimingChecker returns a checker for queues of configuration c.
func NewTimingChecker(c CmdQConfig) *TimingChecker {
	n := c.Banks()
	fill := func(k int) []int {
		s := make([]int, k)
		for i := range s {
			s[i] = never
		}
		return s
	}
	return &TimingChecker{C: c, open: make([]bool, n), lastACT: fill(n), lastPRE: fill(n), lastRD: fill(n), lastWR: fill(n),
		lastColGroup: fill(1 << c.BGBits), lastCol: never, lastAnyACT: never, lastAnyRD: never, lastAnyWR: never,
		Commands: map[Op]int{}}
}

// Check takes the command issued at cycle t and returns the violations it
// makes.
func (k *TimingChecker) Check(t int, c Cmd) []error {
	if !c.Valid {
		return nil
	}
	k.Commands[c.Op]++
	tm, b := k.C.T, c.Bank
	var errs []error
	need := func(what string, since, gap int) {
		if t-since < gap {
			errs = append(errs, fmt.Errorf("cycle %d: %s bank %d: %s is %d cycles, needs %d", t, c.Op, b, what, t-since, gap))
		}
	}
	switch c.Op {
	case ACT:
		if k.open[b] {
			errs = append(errs, fmt.Errorf("cycle %d: ACT to open bank %d", t, b))
		}
		need("PRE->ACT (tRP)", k.lastPRE[b], tm.RP)
		need("ACT->ACT same bank (tRC)", k.lastACT[b], tm.RC)
		need("ACT->ACT any bank (tRRD)", k.lastAnyACT, tm.RRD)
		k.open[b], k.lastACT[b], k.lastAnyACT = true, t, t
	case PRE:
		if !k.open[b] {
			errs = append(errs, fmt.Errorf("cycle %d: PRE to closed bank %d", t, b))
		}
		need("ACT->PRE (tRAS)", k.lastACT[b], tm.RAS)
		need("RD->PRE (tRTPL)", k.lastRD[b], tm.RTPL)
		need("WR->PRE (tWL+tburst+tWR)", k.lastWR[b], tm.WL+tm.Burst+tm.WR)
		k.open[b], k.lastPRE[b] = false, t
	case RD, WR:
		if !k.open[b] {
			errs = append(errs, fmt.Errorf("cycle %d: %s to closed bank %d", t, c.Op, b))
		}
		need("ACT->column (tRCD)", k.lastACT[b], tm.RCD)
		need("column->column same group (tCCDL)", k.lastColGroup[k.C.Group(b)], tm.CCDL)
		need("column->column (tCCDS)", k.lastCol, tm.CCDS)
		if c.Op == RD {
			need("WR->RD (tWL+tburst+tCDLR)", k.lastAnyWR, tm.WL+tm.Burst+tm.CDLR)
			k.lastRD[b], k.lastAnyRD = t, t
		} else {
			need("RD->WR (tCL+tburst+1-tWL)", k.lastAnyRD, max(1, tm.CL+tm.Burst+1-tm.WL))
			k.lastWR[b], k.lastAnyWR = t, t
		}
		k.lastColGroup[k.C.Group(b)], k.lastCol = t, t
	}
	return errs
}
