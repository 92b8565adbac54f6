package dram

import (
	"fmt"
	"math/bits"
	"slices"
)

// The cycle-level GPU model of Table 5.1 on which chapter 6's experiments
// run: 15 cores of 48 warps under GTO warp scheduling, 12 L2
// sub-partitions with their MSHRs and L2 MIBs, and 6 GDDR5 channels, each
// one Sched (Figure 4.2's request scheduler with its DRAM-side MIB) in
// front of one CmdQ (the per-bank command queues of 2.3), running a
// benchmark skeleton of workload.go.
//
// One core cycle, in order:
//  1. Data due at the cores returns: every warp waiting on the line in the
//     core's L1 MSHR wakes.
//  2. The DRAM clock advances by 924/1400 of a cycle; on each whole DRAM
//     cycle every channel takes what has reached it from its two
//     sub-partitions, steps its Sched (rdy_b from the CmdQ) and its CmdQ
//     with the issued request; a finished read fills its L2 sub-partition.
//     With perfect DRAM (5.2) a read is complete the cycle it reaches the
//     controller, and a write vanishes there.
//  3. Each sub-partition serves the oldest request at its input, then
//     sends one request towards its channel: the L2 MIB's dummy if one is
//     pending (Figure 4.2's multiplexer; never under FR-FCFS), else the
//     head of its miss queue.
//  4. Each core issues one instruction (GTO, 5.1), then sends the head of
//     its miss queue into the interconnect.
//
// The model's readings:
//   - A warp's load reads one 128 B line (a fully coalesced access) and
//     the warp waits for it before its next instruction (a load-use
//     dependency); a store does not stall the warp. Loads of one core to a
//     line already outstanding from that core wait in its L1 MSHR (2.2),
//     so every merge in an L2 MSHR entry comes from another core. The L1
//     holds no data: the workloads reuse no line within a core.
//   - Stores are write-through, no-allocate: they pass the L2 (updating a
//     copy it may hold, which costs nothing) to the DRAM write queue.
//     Lines are never dirty, so evictions write nothing back.
//   - A load or store for the L2 waits in its core's miss queue
//     (CoreMissQueue entries; a memory instruction finding it full does
//     not issue) until its sub-partition's input has a credit
//     (InputCredits, requests in flight or waiting), then reaches the
//     sub-partition ICNTLatency cycles later. Data leaves the L2
//     ICNTLatency cycles before its warps wake. A load's latency runs from
//     its issue to its warp's wake-up.
//   - The L2 serves one request per cycle. A read that misses allocates an
//     MSHR entry (L2 MIB Alloc) and enters the miss queue; one to a line
//     already missing merges (L2 MIB Mrg with its Eq. 4.1 age). A read
//     finding every MSHR entry taken, or its entry at 16 merges (15 cores
//     merge at most 15), or the miss queue full, and a store finding the
//     miss queue full, fails its reservation (6.4): it stays at the head
//     of the input and retries the next cycle; each failed cycle counts.
//   - The L2-to-DRAM link carries one request per sub-partition per core
//     cycle and takes L2Latency core cycles; a request sent at cycle t can
//     enter the controller from cycle t+max(1, L2Latency). Reads and
//     writes reserve their queue slot when they leave the L2 (a read
//     leaves only while the reads in flight and queued are fewer than the
//     read queue's entries), so the link never backs up; dummies are
//     always taken (contract dram-sched); perfect DRAM, having no
//     scheduler, gets none. The channel's single read, dummy and write
//     inputs take one each per DRAM cycle, round robin between its two
//     sub-partitions. A dummy that finds its read not (yet, or any more)
//     in the read queue is dropped by the MIB (DummiesDropped).
//   - Ages (Eq. 4.1, 4.2) are counted in core cycles at the L2 and
//     converted to DRAM cycles (x 924/1400) on the link: the DRAM-side MIB
//     ages by the merge length every DRAM cycle (4.3, 4.5's memory
//     controller clock domain). A read's age on reaching the read queue is
//     its Eq. 4.1 age, saturated at 15 bits.
//   - Line interleaving: sub-partition = line mod 12 (its channel the
//     partition, sub-partition / 2); within a channel the two
//     sub-partitions' lines alternate, then 16 columns make a row (2 KB),
//     then 16 banks, then 4096 rows.
//   - A run measures Cycles core cycles, then issues nothing more and runs
//     until every load has returned and every store is written (the
//     drain): what happens to the loads and stores, their latencies
//     included, counts to the end; rates (instructions, stalls, merge
//     cycles, reservation fails, DRAM commands) count over the Cycles.

// Table 5.1's machine.
const (
	GPUCores        = 15                            // SIMT cores
	WarpsPerCore    = 1536 / 32                     // 48: max threads per core over the warp size
	SubPartitions   = 12                            // L2 sub-partitions, 2 per memory partition
	DRAMChannels    = 6                             // one per memory partition
	LineBytes       = 128                           // L2 line
	L2Ways          = 16                            // L2 associativity
	L2Sets          = 64 << 10 / L2Ways / LineBytes // 64 KB per sub-partition: 32 sets
	L2MSHRs         = 64                            // L2 MSHR entries per sub-partition
	L2Merges        = 16                            // requests per L2 MSHR entry
	AgeBits         = 15                            // age fields (4.5)
	CoreMHz         = 1400
	DRAMMHz         = 924
	DRAMBanks       = 16 // in 4 bank groups
	DRAMRows        = 4096
	L2ToDRAMLatency = 20 // core cycles
)

// The model's own sizes (not in Table 5.1).
const (
	RowLines      = 16  // 128 B columns per 2 KB DRAM row
	ICNTLatency   = 20  // core cycles between a core and an L2 sub-partition, each way
	MissQueue     = 8   // L2 miss queue entries per sub-partition
	InputCredits  = 64  // requests in flight to or waiting at a sub-partition's input
	CoreMissQueue = 8   // a core's requests waiting for the interconnect
	MaxDrain      = 1e6 // core cycles a run may take to drain; more is a model bug
	// DefaultCmdQDepth is the requests a bank's command queue holds: one,
	// as in GPGPU-Sim 3.2.2, the simulator the thesis modified (5.1),
	// which schedules a bank's next request when its last one's column
	// command has issued (section 2.3 gives no depth; the report's
	// choice table compares 1, 2 and 4).
	DefaultCmdQDepth = 1
)

// Config is one run's setup.
type Config struct {
	Workload  Workload
	Policy    Policy
	Perfect   bool // perfect DRAM (5.2): a read is complete when it reaches the controller
	Cycles    int  // core cycles measured
	L2Latency int  // L2-to-DRAM latency, core cycles (Table 5.1: 20; Fig. 6.10: 0..100)
	ReadQueue int  // DRAM read queue entries (Table 5.1: 64; Fig. 6.11: 16..128)
	CmdQDepth int  // requests per bank command queue (DefaultCmdQDepth)
	// Seed varies the warps' random choices (0: the report's runs), for
	// the run-to-run spread of a result.
	Seed uint64
	// SchedTrace, when set, is called after every Sched.Step of every
	// channel with the cycle's inputs (copies: the caller may keep them)
	// and the issued request.
	SchedTrace func(channel int, in SchedIn, out Issued)
}

// Table51Config is Table 5.1's setup for workload w under policy p.
func Table51Config(w Workload, p Policy, cycles int) Config {
	return Config{Workload: w, Policy: p, Cycles: cycles, L2Latency: L2ToDRAMLatency, ReadQueue: Table51Sched().Entries,
		CmdQDepth: DefaultCmdQDepth}
}

// Result is one run's counts: rates (the cycles, reservation fails,
// merge cycles and DRAM commands) over the Cycles measured, events (loads,
// stores and what became of them) over the whole run, drain included.
type Result struct {
	Config           Config
	Instructions     int64
	Loads, Stores    int64 // issued
	Returns          int64 // warps woken by their load's data
	LatencySum       int64 // core cycles from load issue to data return, over Returns
	MaxLatency       int64
	L1Merges         int64 // loads that found their line outstanding from their core
	L2Hits, L2Misses int64 // loads at the L2; a miss allocates an MSHR entry
	Merges           int64 // loads merged into an L2 MSHR entry
	SameCoreMerges   int64 // of them, from a core already in the entry
	ReservationFails int64 // L2 cycles a request failed its reservation (6.4)
	StallCycles      int64 // core cycles with every warp waiting on a load (Fig. 6.7)
	MergeCycles      int64 // sub-partition cycles with an MSHR merge length > 1 (Fig. 5.2)
	Dummies          int64 // dummy requests sent by the L2 MIBs
	DummiesDropped   int64 // of them, reaching the controller with their read not in the read queue
	DRAMReads        int64 // reads completed by the DRAM
	DRAMWrites       int64 // writes completed by the DRAM
	WarpsReleased    int64 // warps woken by DRAM reads
	ACTs, Columns    int64 // DRAM commands (Fig. 6.8)
	DRAMCycles       int64 // DRAM cycles (each channel's)
	QueuedReads      int64 // reads in the channels' read queues, summed over the DRAM cycles
	QueuedCmds       int64 // requests in the channels' command queues, summed over the DRAM cycles
	DrainCycles      int64 // core cycles after the Cycles measured until the last load and store completed
	ReadIssues       int64 // reads the schedulers issued
	ReadHits         int64 // of them, row hits
	ChoiceReads      int64 // eligible reads Rule 1 chose among, summed over ReadIssues
	ChoiceRows       int64 // their distinct rows, summed over ReadIssues
	SoleChoices      int64 // read issues with one eligible read
}

// AvgChoiceReads and AvgChoiceRows are the eligible reads and their rows
// Rule 1 chose among per read issued.
func (r *Result) AvgChoiceReads() float64 { return float64(r.ChoiceReads) / float64(r.ReadIssues) }

func (r *Result) AvgChoiceRows() float64 { return float64(r.ChoiceRows) / float64(r.ReadIssues) }

// SoleChoiceShare is the share of read issues with one eligible read.
func (r *Result) SoleChoiceShare() float64 { return float64(r.SoleChoices) / float64(r.ReadIssues) }

// ReadHitRate is the share of issued reads that hit their bank's open row.
func (r *Result) ReadHitRate() float64 { return float64(r.ReadHits) / float64(r.ReadIssues) }

// IPC is the instructions of all cores per core cycle.
func (r *Result) IPC() float64 { return float64(r.Instructions) / float64(r.Config.Cycles) }

// AvgLatency is the mean memory latency of a load in core cycles (Fig. 6.6).
func (r *Result) AvgLatency() float64 { return float64(r.LatencySum) / float64(r.Returns) }

// RowLocality is the column commands per ACT (Fig. 6.8: requests served
// per opened row).
func (r *Result) RowLocality() float64 { return float64(r.Columns) / float64(r.ACTs) }

// BandwidthUtil is the share of DRAM cycles with data on the bus (Fig.
// 6.9): column commands x tburst over the channels' DRAM cycles.
func (r *Result) BandwidthUtil() float64 {
	return float64(r.Columns*int64(Table51().Burst)) / float64(r.DRAMCycles*DRAMChannels)
}

// ReadQueueOccupancy and CmdQueueOccupancy are the requests a channel's
// read queue and command queues hold on average.
func (r *Result) ReadQueueOccupancy() float64 {
	return float64(r.QueuedReads) / float64(r.DRAMCycles*DRAMChannels)
}

func (r *Result) CmdQueueOccupancy() float64 {
	return float64(r.QueuedCmds) / float64(r.DRAMCycles*DRAMChannels)
}

// WarpsPerRead is the warps a DRAM read wakes on average.
func (r *Result) WarpsPerRead() float64 { return float64(r.WarpsReleased) / float64(r.DRAMReads) }

// MergeShare is the share of cycles an L2 MSHR holds an entry of merge
// length > 1, over the sub-partitions (Fig. 5.2's black bars).
func (r *Result) MergeShare() float64 {
	return float64(r.MergeCycles) / float64(int64(r.Config.Cycles)*SubPartitions)
}

// lineMap is a line's place (line interleaving, see the readings).
func lineMap(line uint64) (sp, bank, row int) {
	sp = int(line % SubPartitions)
	local := line/SubPartitions*2 + uint64(sp%2)
	return sp, int(local / RowLines % DRAMBanks), int(local / RowLines / DRAMBanks % DRAMRows)
}

// dramAge converts an age in core cycles to DRAM cycles, saturated at
// AgeBits.
func dramAge(coreCycles uint64) uint64 { return Sat(coreCycles*DRAMMHz/CoreMHz, AgeBits) }

// fifo is a queue.
type fifo[T any] struct {
	items []T
	head  int
}

func (q *fifo[T]) len() int { return len(q.items) - q.head }
func (q *fifo[T]) push(x T) { q.items = append(q.items, x) }
func (q *fifo[T]) peek() *T { return &q.items[q.head] }
func (q *fifo[T]) pop() T {
	x := q.items[q.head]
	q.head++
	if q.head >= 64 && 2*q.head >= len(q.items) {
		q.items = q.items[:copy(q.items, q.items[q.head:])]
		q.head = 0
	}
	return x
}

// memReq is a core's request on its way to the L2 and the DRAM.
type memReq struct {
	at      int // core cycle it reaches the next stage
	core    int
	line    uint64
	store   bool
	created int // core cycle the core issued it (Eq. 4.1)
}

// linkItem is a request on the L2-to-DRAM link: a read, a write or a
// dummy.
type linkItem struct {
	memReq
	dummy     bool
	mlen, age uint64 // a dummy's merge length and its ages, DRAM cycles
}

// returning is data leaving the L2 for a core.
type returning struct {
	at   int
	core int
	line uint64
	dram bool // a DRAM read's data, not an L2 hit's
}

// warpCtx is a warp's state.
type warpCtx struct {
	rng    uint64
	left   int   // compute instructions before the next memory instruction
	op     memOp // the next memory instruction, once drawn
	drawn  bool  // op is drawn
	issued int   // core cycle of the outstanding load
	// Its work item (workload.go): the item, the step and the instruction
	// within it of its next memory instruction.
	item    uint64
	step, k int
	working bool
}

// gpuCore is a core: its warps, GTO's greedy warp, its L1 MSHR (a line's
// waiting warps) and its L1 miss queue.
type gpuCore struct {
	warps []warpCtx
	ready uint64 // bit w: warp w waits on no load
	cur   int    // GTO's greedy warp
	l1    map[uint64][]int
	out   fifo[memReq] // requests waiting for the interconnect
}

// mshrEntry is an L2 MSHR entry: its line and the cores merged into it.
type mshrEntry struct {
	valid bool
	line  uint64
	cores []int
}

// subPartition is an L2 sub-partition: its input from the interconnect,
// its L2 bank (LRU), its MSHR and L2 MIB, its miss queue and its link to
// the DRAM controller.
type subPartition struct {
	id      int
	in      fifo[memReq]
	credits int                    // requests in flight to or waiting in in
	tags    [L2Sets][L2Ways]uint64 // line+1, 0 invalid
	lastUse [L2Sets][L2Ways]int    // LRU
	mshr    [L2MSHRs]mshrEntry
	index   map[uint64]int // line -> MSHR entry
	valid   int            // MSHR entries in use
	merged  int            // of them, of merge length > 1
	missQ   fifo[memReq]
	mib     *L2MIB
	link    fifo[linkItem]
}

// dramChannel is a DRAM channel: its controller's inputs from its two
// sub-partitions, its Sched and its CmdQ.
type dramChannel struct {
	id                 int
	sched              *Sched
	cmdq               *CmdQ
	reads, writes, dum [2]fifo[linkItem] // arrived, per sub-partition
	rr                 [3]int            // round robin: reads, dummies, writes
	inflight           [2]int            // reads, writes reserved and not yet in the Sched
	rdy                []bool
	queued             map[uint64]bool // blocks of the reads in the read queue
}

// gpuModel is the machine during a run.
type gpuModel struct {
	cfg   Config
	prog  program
	now   int
	phase int // DRAM clock phase, in MHz units
	cores []gpuCore
	sps   []subPartition
	chans []dramChannel
	ret   fifo[returning]
	loads int64 // loads not yet returned
	res   *Result
	meas  bool // within the Cycles measured
}

// Run runs the model.
func Run(cfg Config) (*Result, error) {
	if cfg.Cycles < 1 || cfg.L2Latency < 0 || cfg.ReadQueue < 2 || cfg.CmdQDepth < 1 || !slices.Contains(Policies, cfg.Policy) {
		return nil, fmt.Errorf("dram model: bad config: %d cycles, L2-to-DRAM latency %d, read queue %d, command queues %d deep, %s",
			cfg.Cycles, cfg.L2Latency, cfg.ReadQueue, cfg.CmdQDepth, cfg.Policy)
	}
	if err := cfg.Workload.check(); err != nil {
		return nil, err
	}
	m := newGPUModel(cfg)
	for m.now = 0; ; m.now++ {
		m.meas = m.now < cfg.Cycles
		if !m.meas {
			if m.loads == 0 && m.res.Stores == m.res.DRAMWrites {
				break
			}
			if m.res.DrainCycles++; m.res.DrainCycles > MaxDrain {
				return nil, fmt.Errorf("dram model: %s under %s did not drain in %d cycles", cfg.Workload.Name, cfg.Policy, int(MaxDrain))
			}
		}
		m.step()
	}
	return m.res, nil
}

func newGPUModel(cfg Config) *gpuModel {
	m := &gpuModel{cfg: cfg, prog: program{w: cfg.Workload}, res: &Result{Config: cfg}}
	for c := range GPUCores {
		k := gpuCore{warps: make([]warpCtx, WarpsPerCore), ready: 1<<WarpsPerCore - 1, l1: map[uint64][]int{}}
		for w := range k.warps {
			k.warps[w] = warpCtx{rng: cfg.Seed<<32 | uint64(c*WarpsPerCore+w), left: cfg.Workload.Compute}
		}
		m.cores = append(m.cores, k)
	}
	m.sps = make([]subPartition, SubPartitions)
	for i := range m.sps {
		m.sps[i] = subPartition{id: i, index: map[uint64]int{}, mib: NewL2MIB(L2MSHRs, L2Merges, AgeBits)}
	}
	sc := Table51Sched()
	sc.Entries = cfg.ReadQueue
	cc := CmdQConfig{BankBits: 4, BGBits: 2, Depth: cfg.CmdQDepth, T: Table51()}
	for i := range DRAMChannels {
		m.chans = append(m.chans, dramChannel{id: i, sched: NewSched(sc), cmdq: NewCmdQ(cc),
			rdy: make([]bool, cc.Banks()), queued: map[uint64]bool{}})
	}
	return m
}

func (m *gpuModel) step() {
	for m.ret.len() > 0 && m.ret.peek().at <= m.now {
		m.wake(m.ret.pop())
	}
	if m.cfg.Perfect {
		for i := range m.sps {
			m.perfectArrivals(&m.sps[i])
		}
	} else {
		for m.phase += DRAMMHz; m.phase >= CoreMHz; m.phase -= CoreMHz {
			m.count(&m.res.DRAMCycles)
			for i := range m.chans {
				m.dramCycle(&m.chans[i])
			}
		}
	}
	for i := range m.sps {
		m.l2Cycle(&m.sps[i])
	}
	for i := range m.cores {
		if m.meas {
			m.issue(i)
		}
		m.inject(&m.cores[i])
	}
}

// inject sends the head of a core's miss queue into the interconnect when
// its sub-partition has a credit.
func (m *gpuModel) inject(c *gpuCore) {
	if c.out.len() == 0 {
		return
	}
	sp := &m.sps[c.out.peek().line%SubPartitions]
	if sp.credits == InputCredits {
		return
	}
	sp.credits++
	r := c.out.pop()
	r.at = m.now + ICNTLatency
	sp.in.push(r)
}

// wake delivers a line to its core: every warp waiting on it in the L1
// MSHR wakes.
func (m *gpuModel) wake(r returning) {
	c := &m.cores[r.core]
	if r.dram {
		m.res.WarpsReleased += int64(len(c.l1[r.line]))
	}
	for _, w := range c.l1[r.line] {
		lat := int64(m.now - c.warps[w].issued)
		m.res.Returns++
		m.res.LatencySum += lat
		m.res.MaxLatency = max(m.res.MaxLatency, lat)
		c.ready |= 1 << w
		m.loads--
	}
	delete(c.l1, r.line)
}

// issue is GTO (5.1): the greedy warp issues while it can, else the
// oldest warp that can.
func (m *gpuModel) issue(ci int) {
	c := &m.cores[ci]
	if c.ready == 0 {
		m.res.StallCycles++
		return
	}
	if c.ready&(1<<c.cur) != 0 && m.try(ci, c.cur) {
		return
	}
	for r := c.ready &^ (1 << c.cur); r != 0; r &= r - 1 {
		if w := bits.TrailingZeros64(r); m.try(ci, w) {
			c.cur = w
			return
		}
	}
}

// try issues warp w's next instruction if it can go this cycle.
func (m *gpuModel) try(ci, w int) bool {
	c := &m.cores[ci]
	wp := &c.warps[w]
	if wp.left > 0 {
		wp.left--
		m.res.Instructions++
		return true
	}
	if !wp.drawn {
		wp.op, wp.drawn = m.prog.next(wp), true
	}
	op := wp.op
	waiting, merged := c.l1[op.line]
	if op.store || !merged {
		if c.out.len() == CoreMissQueue {
			return false
		}
		c.out.push(memReq{core: ci, line: op.line, store: op.store, created: m.now})
	}
	wp.drawn, wp.left = false, m.prog.w.Compute
	m.res.Instructions++
	if op.store {
		m.res.Stores++
		return true
	}
	m.res.Loads++
	if merged {
		m.res.L1Merges++
	}
	m.loads++
	wp.issued = m.now
	c.ready &^= 1 << w
	c.l1[op.line] = append(waiting, w)
	return true
}

// l2Cycle is a sub-partition's cycle: serve the input's head, then send
// one request towards the DRAM.
func (m *gpuModel) l2Cycle(p *subPartition) {
	if p.in.len() > 0 && p.in.peek().at <= m.now {
		if m.access(p, *p.in.peek()) {
			p.in.pop()
			p.credits--
		} else {
			m.count(&m.res.ReservationFails)
		}
	}
	if p.merged > 0 {
		m.count(&m.res.MergeCycles)
	}
	m.send(p)
}

// access serves request r at the L2; false is a reservation fail.
func (m *gpuModel) access(p *subPartition, r memReq) bool {
	if r.store {
		if p.missQ.len() == MissQueue {
			return false
		}
		p.missQ.push(r)
		return true
	}
	if p.lookup(r.line, m.now) {
		m.res.L2Hits++
		m.ret.push(returning{at: m.now + ICNTLatency, core: r.core, line: r.line})
		return true
	}
	if i, ok := p.index[r.line]; ok {
		e := &p.mshr[i]
		if len(e.cores) == L2Merges {
			return false
		}
		if slices.Contains(e.cores, r.core) {
			m.res.SameCoreMerges++
		}
		if e.cores = append(e.cores, r.core); len(e.cores) == 2 {
			p.merged++
		}
		p.mib.Step(L2MIBIn{Mrg: true, MrgIdx: i, MrgAge: Sat(AgeReq(m.now, r.created), AgeBits)})
		m.res.Merges++
		return true
	}
	if p.valid == L2MSHRs || p.missQ.len() == MissQueue {
		return false
	}
	i := slices.IndexFunc(p.mshr[:], func(e mshrEntry) bool { return !e.valid })
	p.mshr[i] = mshrEntry{valid: true, line: r.line, cores: append(p.mshr[i].cores[:0], r.core)}
	p.index[r.line] = i
	p.valid++
	p.mib.Step(L2MIBIn{Alloc: true, AllocIdx: i})
	p.missQ.push(r)
	m.res.L2Misses++
	return true
}

// count adds one to a counter of the measured cycles.
func (m *gpuModel) count(x *int64) {
	if m.meas {
		*x++
	}
}

// lookup reports whether line is in the L2, and makes it the most
// recently used.
func (p *subPartition) lookup(line uint64, now int) bool {
	set := line / SubPartitions % L2Sets
	for w, t := range p.tags[set] {
		if t == line+1 {
			p.lastUse[set][w] = now
			return true
		}
	}
	return false
}

// install puts line into the L2 in place of the least recently used line
// of its set.
func (p *subPartition) install(line uint64, now int) {
	set := line / SubPartitions % L2Sets
	w := 0
	for i, t := range p.tags[set] {
		if t == 0 {
			w = i
			break
		}
		if p.lastUse[set][i] < p.lastUse[set][w] {
			w = i
		}
	}
	p.tags[set][w], p.lastUse[set][w] = line+1, now
}

// send puts one request on the link: the L2 MIB's dummy first (Figure
// 4.2), else the miss queue's head once its DRAM queue slot is reserved.
func (m *gpuModel) send(p *subPartition) {
	at := m.now + max(1, m.cfg.L2Latency)
	if m.cfg.Policy != FRFCFS && !m.cfg.Perfect && p.merged > 0 { // a pending entry has merged
		if ok, i, mlen, age := p.mib.Dummy(); ok {
			p.link.push(linkItem{memReq: memReq{at: at, line: p.mshr[i].line}, dummy: true, mlen: mlen,
				age: dramAge(age)})
			p.mib.Step(L2MIBIn{DmyReady: true})
			m.res.Dummies++
			return
		}
	}
	if p.missQ.len() == 0 {
		return
	}
	r := p.missQ.peek()
	if !m.cfg.Perfect {
		ch := &m.chans[p.id/2]
		k, used, room := 0, ch.sched.Reads(), ch.sched.C.Entries
		if r.store {
			k, used, room = 1, ch.sched.Writes(), ch.sched.C.WEntries
		}
		if ch.inflight[k]+used == room {
			return
		}
		ch.inflight[k]++
	}
	r.at = at
	p.link.push(linkItem{memReq: p.missQ.pop()})
}

// perfectArrivals completes what reaches a perfect DRAM (5.2).
func (m *gpuModel) perfectArrivals(p *subPartition) {
	for p.link.len() > 0 && p.link.peek().at <= m.now {
		if it := p.link.pop(); it.store {
			m.res.DRAMWrites++
		} else {
			m.fill(it.line)
		}
	}
}

// dramCycle is a channel's DRAM cycle: arrivals, the Sched, the CmdQ.
func (m *gpuModel) dramCycle(ch *dramChannel) {
	for k := range 2 {
		p := &m.sps[2*ch.id+k]
		for p.link.len() > 0 && p.link.peek().at <= m.now {
			it := p.link.pop()
			switch {
			case it.dummy:
				ch.dum[k].push(it)
			case it.store:
				ch.writes[k].push(it)
			default:
				ch.reads[k].push(it)
			}
		}
	}
	for b := range ch.rdy {
		ch.rdy[b] = ch.cmdq.Ready(b)
	}
	in := SchedIn{Pol: m.cfg.Policy, Rdy: ch.rdy}
	rk := ch.next(&ch.reads, 0, ch.sched.ReadReady())
	if rk >= 0 {
		it := ch.reads[rk].peek()
		_, bank, row := lineMap(it.line)
		in.Read = &Request{Bank: bank, Row: row, Blk: it.line, Age: dramAge(AgeReq(m.now, it.created))}
	}
	dk := ch.next(&ch.dum, 1, true)
	if dk >= 0 {
		it := ch.dum[dk].peek()
		in.Dummy = &DummyReq{Blk: it.line, Mlen: it.mlen, Age: it.age}
	}
	wk := ch.next(&ch.writes, 2, ch.sched.WriteReady())
	if wk >= 0 {
		it := ch.writes[wk].peek()
		_, bank, row := lineMap(it.line)
		in.Write = &Request{Bank: bank, Row: row, Blk: it.line}
	}
	iss := ch.sched.Step(in)
	if iss.Valid && !iss.Write && m.meas {
		reads, rows := ch.sched.Choice()
		m.res.ReadIssues++
		m.res.ChoiceReads += int64(reads)
		m.res.ChoiceRows += int64(rows)
		if reads == 1 {
			m.res.SoleChoices++
		}
		if iss.Hit {
			m.res.ReadHits++
		}
	}
	if m.cfg.SchedTrace != nil { // the requests are the cycle's own; Rdy is reused
		traced := in
		traced.Rdy = slices.Clone(in.Rdy)
		m.cfg.SchedTrace(ch.id, traced, iss)
	}
	if dk >= 0 {
		ch.dum[dk].pop()
		if !ch.queued[in.Dummy.Blk] || iss.Valid && !iss.Write && iss.Blk == in.Dummy.Blk {
			m.res.DummiesDropped++
		}
	}
	if iss.Valid && !iss.Write {
		delete(ch.queued, iss.Blk)
	}
	if rk >= 0 {
		ch.reads[rk].pop()
		ch.inflight[0]--
		ch.queued[in.Read.Blk] = true
	}
	if wk >= 0 {
		ch.writes[wk].pop()
		ch.inflight[1]--
	}
	if m.meas {
		m.res.QueuedReads += int64(ch.sched.Reads())
		m.res.QueuedCmds += int64(ch.cmdq.Pending())
	}
	cmd, done := ch.cmdq.Step(CmdReq{Valid: iss.Valid, Write: iss.Write, Bank: iss.Bank, Row: iss.Row, Tag: iss.Blk})
	if cmd.Valid && m.meas {
		switch cmd.Op {
		case ACT:
			m.res.ACTs++
		case RD, WR:
			m.res.Columns++
		}
	}
	switch {
	case done.Valid && done.Write:
		m.res.DRAMWrites++
	case done.Valid:
		m.fill(done.Tag)
	}
}

// next is the sub-partition whose input q (0 reads, 1 dummies, 2 writes)
// goes to the Sched this cycle, round robin, or -1.
func (ch *dramChannel) next(qs *[2]fifo[linkItem], q int, ready bool) int {
	if !ready {
		return -1
	}
	for i := range 2 {
		if k := (ch.rr[q] + i) % 2; qs[k].len() > 0 {
			ch.rr[q] = 1 - k
			return k
		}
	}
	return -1
}

// fill is a read's data reaching its sub-partition: the line is
// installed, its MSHR entry and L2 MIB entry freed, and the data leaves
// for every core merged into it.
func (m *gpuModel) fill(line uint64) {
	p := &m.sps[line%SubPartitions]
	i := p.index[line]
	e := &p.mshr[i]
	p.install(line, m.now)
	for _, c := range e.cores {
		m.ret.push(returning{at: m.now + ICNTLatency, core: c, line: line, dram: true})
	}
	if len(e.cores) > 1 {
		p.merged--
	}
	e.valid = false
	delete(p.index, line)
	p.valid--
	p.mib.Step(L2MIBIn{Free: true, FreeIdx: i})
	m.res.DRAMReads++
}
