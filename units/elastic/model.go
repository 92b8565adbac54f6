package elastic

import (
	"fmt"
	"slices"
	"strings"
)

// The cycle model of one GPU core (thesis section 5.6, Table 5.4): a
// strict-barrel, single-issue, in-order pipeline whose front stages
// (IF .. EXE) stall as a whole, in front of one of the back ends of
// backend.go, with a warp scheduler that may consult the warp mask of
// histcache.go. It runs the synthetic kernels of kernels.go and counts
// what Figs. 5.8-5.11 plot: cycles, and the cycles the issue stage issues
// nothing, by cause.
//
// One cycle t, in order:
//  1. EXE offers its subwarp to the back end, and the interconnect the
//     oldest global load whose data is due; the back end answers ex_ready
//     and the cycle's writeback (Backend.Step).
//  2. The front stages move on when EXE is empty or taken; the scheduling
//     stage then picks the subwarp that enters IF (the next subwarp of the
//     warp being issued, or a new warp). When EXE is refused nothing
//     moves and nothing is issued: a bank-conflict stall when, the
//     interconnect's return aside, MEM0 was still serving a conflict
//     (Backend.BlockedByConflict), else an "other" stall (a writeback
//     conflict: the interconnect's return, or the MEM tail's output
//     filling NONMEM). When the stages move but no warp can be picked,
//     it is a scheduling fail.
//  3. The warp mask sees the scheduled warp and the shared-memory subwarp
//     EXE handed over (whose extra elastic-bkconf resolved), and steps.
//  4. The writeback completes subwarps: a warp's instruction is done when
//     its K subwarps are written back (a global load's when its K data
//     returns are), and only then may the warp issue again (strict
//     barrel, section 5.4: one instruction in flight per warp).
//
// The model's readings:
//   - A global load's subwarp leaves the MEM tail through the writeback
//     multiplexer like any memory instruction (the back ends are the
//     blocks, which have one output) and its data returns through the
//     interconnect input Latency to Latency + Spread cycles later: DRAM
//     row hits, misses and queueing to first order (section 5.6.4's
//     effects are otherwise outside the model). Each load's delay is a
//     hash of its CTA, warp, instruction and subwarp, so it is the same in
//     every setup. Returns due in one cycle queue, one a cycle. With
//     Memory SharedDRAM the loads of Table 5.4's 16 cores go to shared
//     GDDR3 channels instead (dram.go).
//   - The mask's resolution inputs (res_*) are driven when EXE hands a
//     shared-memory subwarp over, with elastic-bkconf's extra: a warp's
//     subwarps reach MEM0 in that order.
//   - A warp at a barrier waits until every unfinished warp of its CTA has
//     completed the barrier instruction.

// BackEndKind is the back end a core runs.
type BackEndKind int

const (
	Unified BackEndKind = iota // baseline, unified memory stages (Fig. 5.4(a), elastic-basepipe)
	Split                      // baseline, split memory stages (Fig. 5.4(b))
	Elastic                    // the elastic pipeline (Fig. 5.6, elastic-pipe)
)

// BackEndNames are the back ends' names, in BackEndKind order (gen
// -pipeline's choices).
var BackEndNames = []string{"unified", "split", "elastic"}

func (b BackEndKind) String() string { return BackEndNames[b] }

// Scheduling is the warp scheduler's policy.
type Scheduling int

const (
	// RoundRobin picks the next ready warp after the last one picked.
	RoundRobin Scheduling = iota
	// Aware is round-robin over elastic-warpmask's sched_ready: memory
	// warps wait while the last shared-memory warp's predicted safe
	// distance runs (section 5.5.3).
	Aware
	// Variant is Aware, but when the mask leaves no warp it picks a
	// masked memory warp rather than fail (footnote 11).
	Variant
)

// SchedulingNames are the policies' names, in Scheduling order.
var SchedulingNames = []string{"rr", "aware", "variant"}

func (s Scheduling) String() string { return SchedulingNames[s] }

// StallCause is why the issue stage issued nothing in a cycle (Fig. 5.8's
// three categories, bottom to top).
type StallCause int

const (
	SchedFail  StallCause = iota // the (masked) ready pool was empty
	BankStall                    // EXE refused while MEM0 serves a bank conflict (Backend.BlockedByConflict)
	OtherStall                   // EXE refused by a writeback conflict (the interconnect's return, a full NONMEM)
	stallCauses
)

// StallCauseNames name the causes in StallCause order.
var StallCauseNames = []string{"sched fail", "bank conflict", "other"}

// DefaultLatency and DefaultSpread are the model's global-load round
// trip, from the request leaving the MEM tail to its data at the
// writeback multiplexer: 400 to 1200 cycles ("hundreds of cycles",
// section 5.4.2). With no spread every CTA of a wave runs in lockstep
// and no scheduler can overlap one CTA's bank conflicts with another's
// arithmetic (gen -report elastic shows the spread's effect).
const (
	DefaultLatency = 400
	DefaultSpread  = 800
)

// Core is the GPU core the model runs.
type Core struct {
	Warps, Warp, Lanes int // warp contexts, threads per warp, SIMD lanes
	Banks, Ports       int // shared-memory banks and ports per bank
	Stages, MStages    int // pipeline stages IF..WB (without the scheduling stage) and memory stages
	Latency, Spread    int // global load round trip: Latency to Latency+Spread cycles
	Sets, Ways, PCW    int // the history cache (section 5.5.4)
	// Memory is where the global loads go: FixedLatency (Latency, Spread)
	// or SharedDRAM, DRAM's cores sharing its GDDR3 channels (dram.go).
	Memory Memory
	DRAM   DRAM
}

// Table54 is the core of Table 5.4 with the history cache of 5.5.4 and
// the default load latency.
func Table54() Core {
	return Core{Warps: Warps, Warp: Warp, Lanes: Lanes, Banks: Banks, Ports: 1,
		Stages: Stages, MStages: MemStages, Latency: DefaultLatency, Spread: DefaultSpread,
		Sets: HistorySets, Ways: HistoryWays, PCW: PCBits, DRAM: Table54DRAM()}
}

// K is the subwarps per warp.
func (c Core) K() int { return Subwarps(c.Warp, c.Lanes) }

// frontStages is the stages IF..EXE: all but the memory stages and WB.
func (c Core) frontStages() int { return c.Stages - c.MStages - 1 }

// newBackEnd makes the core's back end of kind b; the elastic one has
// Eq. 5.5's PREMEM (K - 1) and the project's NONMEM depth.
func (c Core) newBackEnd(b BackEndKind) Backend {
	switch b {
	case Unified:
		return NewBasePipe(c.MStages)
	case Split:
		return NewSplitPipe(c.MStages)
	}
	n := PrememDepth(c.Warp, c.Lanes)
	return NewElasticPipe(c.MStages, n, DefaultNonmem(c.MStages, n))
}

// check reports a core the model cannot run.
func (c Core) check() error {
	switch {
	case c.Lanes < 1 || c.Warp%c.Lanes != 0:
		return fmt.Errorf("core: %d lanes do not divide a warp of %d", c.Lanes, c.Warp)
	case c.MStages < 1 || c.frontStages() < 1:
		return fmt.Errorf("core: %d stages leave no room for IF..EXE beside %d memory stages", c.Stages, c.MStages)
	case c.Latency < 1 || c.Spread < 0:
		return fmt.Errorf("core: latency %d..%d is not positive", c.Latency, c.Latency+c.Spread)
	case c.Memory == SharedDRAM:
		return c.DRAM.check(c.Lanes)
	}
	return nil
}

// subwarp is one SIMD instruction in the front stages.
type subwarp struct {
	in   Instr // what EXE hands the back end; Tag is the warp context
	kind Kind
	pc   int
	last bool // the warp's last subwarp
}

// TraceCycle is one cycle at the back end's ports: what EXE and the
// interconnect offered and what the back end answered. A trace replays
// on elastic-pipe or elastic-basepipe cycle by cycle.
type TraceCycle struct {
	ExValid bool
	Ex      Instr
	IC      int // the returning tag, -1 when none
	Ready   bool
	WB      Writeback
}

// pipeline is the front stages IF..EXE (stages[0] is IF, the last EXE),
// the back end and the interconnect's returns.
type pipeline struct {
	stages  []*subwarp
	be      Backend
	returns []loadReturn // by due cycle
	cycle   int
	trace   []TraceCycle
	tracing bool
}

// loadReturn is a global load's data on its way back.
type loadReturn struct{ due, tag int }

// cycleOut is what one cycle of the pipeline did.
type cycleOut struct {
	wb      Writeback
	taken   *subwarp   // EXE's subwarp the back end took, nil when none
	stalled bool       // EXE was refused: nothing moves or issues
	cause   StallCause // ... why
}

// offer runs phase 1 of a cycle (see the model's doc).
func (p *pipeline) offer() cycleOut {
	ex := p.stages[len(p.stages)-1]
	var exIn *Instr
	if ex != nil {
		exIn = &ex.in
	}
	icTag, ic := -1, (*int)(nil)
	if len(p.returns) > 0 && p.returns[0].due <= p.cycle {
		icTag, p.returns = p.returns[0].tag, p.returns[1:]
		ic = &icTag
	}
	ready, wb := p.be.Step(exIn, ic)
	if p.tracing {
		tc := TraceCycle{ExValid: ex != nil, IC: icTag, Ready: ready, WB: wb}
		if ex != nil {
			tc.Ex = ex.in
		}
		p.trace = append(p.trace, tc)
	}
	out := cycleOut{wb: wb, stalled: ex != nil && !ready}
	switch {
	case p.be.BlockedByConflict():
		out.cause = BankStall
	case out.stalled:
		out.cause = OtherStall
	}
	if ex != nil && ready {
		out.taken = ex
	}
	return out
}

// returnAt queues a global load's data, due at the interconnect input
// in cycle due.
func (p *pipeline) returnAt(tag, due int) {
	i := len(p.returns)
	for i > 0 && p.returns[i-1].due > due {
		i--
	}
	p.returns = slices.Insert(p.returns, i, loadReturn{due: due, tag: tag})
}

// advance ends the cycle: unless stalled the stages move on and next
// enters IF.
func (p *pipeline) advance(stalled bool, next *subwarp) {
	if !stalled {
		copy(p.stages[1:], p.stages)
		p.stages[0] = next
	}
	p.cycle++
}

// Run is one experiment: a core, its back end and its scheduler.
type Run struct {
	Core
	BackEnd    BackEndKind
	Scheduling Scheduling
	Trace      bool // keep the back end's TraceCycles
}

// Result is what a run measured.
type Result struct {
	Kernel string
	Cycles int
	Issued int // subwarps issued
	// SharedAccesses is the shared-memory subwarps with an enabled lane;
	// SharedCycles the MEM0 cycles they take (Eq. 5.3).
	SharedAccesses, SharedCycles int
	Stalls                       [stallCauses]int
	// History cache: shared-memory warps scheduled (reads), read hits,
	// and predictions of the warp's summed extras that were exact, under
	// or over (misses predict 0).
	Reads, Hits, Exact, Under, Over int
	// UnderInPremem is the under-predictions by at most K - 1 cycles:
	// a memory warp let in that early waits in PREMEM's K - 1 entries
	// (Eq. 5.5), empty while the safe distance is kept, rather than
	// stalling EXE.
	UnderInPremem int
	// Loads is the global load requests (subwarps), LoadCycles their round
	// trips summed, LoadMin and LoadMax the shortest and longest (-1 and 0
	// without loads).
	Loads, LoadCycles, LoadMin, LoadMax int
	// Cores is the cores a SharedDRAM run sums its counts over (0 for one
	// core).
	Cores int
	Trace []TraceCycle
}

// R is the shared-memory intensity (Table 5.5): shared-memory accesses
// over issued subwarps.
func (r Result) R() float64 { return float64(r.SharedAccesses) / float64(r.Issued) }

// Degree is the average conflict degree (Table 5.5): MEM0 cycles per
// shared-memory access.
func (r Result) Degree() float64 { return float64(r.SharedCycles) / float64(r.SharedAccesses) }

// IPC is the subwarps issued per cycle.
func (r Result) IPC() float64 { return float64(r.Issued) / float64(r.Cycles) }

// TotalStalls is the stall cycles of every cause.
func (r Result) TotalStalls() int {
	n := 0
	for _, s := range r.Stalls {
		n += s
	}
	return n
}

// warpCtx is one warp context.
type warpCtx struct {
	prog    []Inst
	next    int  // the instruction to issue next
	pending int  // subwarp completions the issued instruction awaits
	waiting bool // at a barrier
	done    bool
	slot    int // its CTA slot
	cta, id int // its CTA's number in the run and its index in the CTA
	sent    int // requests of its global load sent so far
	global  int // global loads and stores issued, the current one's included
	pred    int // the history cache's prediction for its shared-memory instruction
	extras  int // the summed extras of its shared-memory subwarps so far
}

func (w *warpCtx) ready() bool {
	return !w.done && !w.waiting && w.pending == 0 && w.next < len(w.prog)
}

// ctaSlot is a place for one CTA on the core.
type ctaSlot struct {
	warps         []int // its warp contexts
	live, arrived int   // unfinished warps, and those waiting at the barrier
}

// kernelRun is the state of one run of a kernel.
type kernelRun struct {
	Run
	kernel  Kernel
	k       int
	pipe    *pipeline
	mask    *WarpMask
	warps   []warpCtx
	slots   []ctaSlot
	nextCTA int
	// the warp being issued and its next subwarp; cur < 0 between warps
	cur, sub int
	last     int // the warp picked last (round-robin)
	res      Result
	maskIn   MaskIn
	// SharedDRAM: the core's index, the memory system, and whether the
	// kernel is over on this core.
	core int
	mem  *memSystem
	over bool
}

// Kernel runs kernel k to completion.
func (r Run) Kernel(k Kernel) (Result, error) {
	if err := r.check(); err != nil {
		return Result{}, err
	}
	if r.Memory == SharedDRAM {
		return r.sharedKernel(k)
	}
	m, err := r.newKernelRun(k)
	if err != nil {
		return Result{}, err
	}
	// Without a writeback for a load's round trip plus every warp's
	// subwarps held at the worst degree, nothing will ever move again.
	patience := r.Latency + r.Spread + r.Stages + r.Warps*m.k*r.Lanes
	for idle := 0; !m.finished(); idle++ {
		if idle > patience {
			return Result{}, fmt.Errorf("kernel %s on %s/%s: nothing written back in %d cycles (cycle %d)",
				k.Name, r.BackEnd, r.Scheduling, patience, m.pipe.cycle)
		}
		if m.cycle() {
			idle = 0
		}
	}
	m.res.Cycles = m.pipe.cycle
	m.res.Trace = m.pipe.trace
	return m.res, nil
}

// newKernelRun is one core ready to run kernel k, its CTA slots filled.
func (r Run) newKernelRun(k Kernel) (*kernelRun, error) {
	wpc := k.Warps(r.Warp)
	if k.Slots*wpc > r.Warps {
		return nil, fmt.Errorf("kernel %s: %d CTAs of %d warps exceed %d warp contexts", k.Name, k.Slots, wpc, r.Warps)
	}
	m := &kernelRun{Run: r, kernel: k, k: r.K(), cur: -1, last: -1,
		pipe: &pipeline{stages: make([]*subwarp, r.frontStages()), be: r.newBackEnd(r.BackEnd),
			tracing: r.Trace},
		mask:  NewWarpMask(r.Warps, r.Warp, r.Lanes, r.Sets, r.Ways, r.PCW),
		warps: make([]warpCtx, r.Warps),
		slots: make([]ctaSlot, k.Slots),
	}
	m.res.Kernel, m.res.LoadMin = k.Name, -1
	m.maskIn = MaskIn{Ready: make([]bool, r.Warps), IsMem: make([]bool, r.Warps)}
	for j := range m.warps {
		m.warps[j].done = true
	}
	for s := range m.slots {
		for j := range wpc {
			m.slots[s].warps = append(m.slots[s].warps, s*wpc+j)
		}
		m.launch(s)
	}
	return m, nil
}

// launch starts the next CTA in slot s, if any is left.
func (m *kernelRun) launch(s int) {
	if m.nextCTA == m.kernel.CTAs() {
		return
	}
	slot := &m.slots[s]
	for i, j := range slot.warps {
		m.warps[j] = warpCtx{prog: m.kernel.Program(m.nextCTA, i, m.Warp), slot: s, cta: m.nextCTA, id: i}
		if len(m.warps[j].prog) == 0 {
			m.warps[j].done = true
			continue
		}
		slot.live++
	}
	m.nextCTA++
	if slot.live == 0 {
		m.launch(s)
	}
}

// finished says every CTA has run and every warp is done.
func (m *kernelRun) finished() bool {
	if m.nextCTA < m.kernel.CTAs() {
		return false
	}
	for _, s := range m.slots {
		if s.live > 0 {
			return false
		}
	}
	return true
}

// cycle runs one cycle (see the model's doc) and reports whether
// anything was written back.
func (m *kernelRun) cycle() bool {
	out := m.pipe.offer()
	var next *subwarp
	in := &m.maskIn
	in.SchedValid, in.ResValid = false, false
	switch {
	case out.stalled:
		m.res.Stalls[out.cause]++
	default:
		next = m.issue()
		if next == nil {
			m.res.Stalls[SchedFail]++
		}
	}
	if t := out.taken; t != nil && t.kind == Shared {
		in.ResValid, in.ResPC, in.ResExtra, in.ResLast = true, t.pc, t.in.Hold, t.last
		w := &m.warps[t.in.Tag]
		w.extras += t.in.Hold
		if t.last {
			m.predicted(w)
		}
	}
	m.mask.Step(*in)
	m.writeback(out.wb)
	m.pipe.advance(out.stalled, next)
	return out.wb.Valid
}

// predicted scores the history cache's prediction for w's shared-memory
// instruction once its last subwarp has resolved.
func (m *kernelRun) predicted(w *warpCtx) {
	actual := Sat(w.extras, m.Warp)
	switch {
	case w.pred == actual:
		m.res.Exact++
	case w.pred < actual:
		m.res.Under++
		if actual-w.pred <= m.k-1 {
			m.res.UnderInPremem++
		}
	default:
		m.res.Over++
	}
}

// issue is the scheduling stage: the next subwarp of the warp being
// issued, else a warp the policy picks, or nil.
func (m *kernelRun) issue() *subwarp {
	if m.cur < 0 {
		m.cur = m.pick()
		if m.cur < 0 {
			return nil
		}
		w := &m.warps[m.cur]
		w.next++
		w.pending, w.extras, w.sent = m.k, 0, 0
		in := w.prog[w.next-1]
		if in.Kind == Load || in.Kind == Store {
			w.global++
		}
		m.maskIn.SchedValid, m.maskIn.SchedShmem, m.maskIn.SchedPC = true, in.Kind == Shared, in.PC
		if in.Kind == Shared {
			o := m.mask.Eval(m.maskIn)
			m.res.Reads++
			if o.PredHit {
				m.res.Hits++
			}
			w.pred = o.Pred
		}
	}
	w := &m.warps[m.cur]
	in := w.prog[w.next-1]
	s := &subwarp{in: Instr{Mem: in.Kind.Mem(), Tag: m.cur}, kind: in.Kind, pc: in.PC, last: m.sub == m.k-1}
	if in.Kind == Shared {
		if degree := subwarpDegree(in.Addr[m.sub*m.Lanes:(m.sub+1)*m.Lanes], m.Banks); degree > 0 {
			s.in.Hold = Extra(degree, m.Ports)
			m.res.SharedAccesses++
			m.res.SharedCycles += Cycles(degree, m.Ports)
		}
	}
	m.res.Issued++
	m.sub++
	if m.sub == m.k {
		m.cur, m.sub = -1, 0
	}
	return s
}

// subwarpDegree is ConflictDegree without broadcast of a subwarp whose
// inactive lanes' addresses are negative: the most active lanes in one
// bank, counted in an array rather than the spec's map (the model's
// hottest path).
func subwarpDegree(addrs []int, banks int) int {
	if banks > maxFastBanks {
		en := make([]bool, len(addrs))
		for i, a := range addrs {
			en[i] = a >= 0
		}
		return ConflictDegree(addrs, en, banks, false)
	}
	var per [maxFastBanks]int
	degree := 0
	for _, a := range addrs {
		if a >= 0 {
			b := a & (banks - 1)
			per[b]++
			degree = max(degree, per[b])
		}
	}
	return degree
}

// maxFastBanks is the most banks subwarpDegree counts in an array.
const maxFastBanks = 64

// pick chooses a ready warp by the run's policy, round-robin after the
// last one picked, or returns -1.
func (m *kernelRun) pick() int {
	in := &m.maskIn
	any := false
	for j := range m.warps {
		w := &m.warps[j]
		in.Ready[j] = w.ready()
		in.IsMem[j] = in.Ready[j] && w.prog[w.next].Kind.Mem()
		any = any || in.Ready[j]
	}
	if !any {
		return -1
	}
	pool := in.Ready
	if m.Scheduling != RoundRobin {
		masked := m.mask.Eval(*in).SchedReady
		if m.Scheduling == Aware || slices.Contains(masked, true) {
			pool = masked
		}
	}
	n := len(m.warps)
	for i := 1; i <= n; i++ {
		j := (m.last + i + n) % n
		if pool[j] {
			m.last = j
			return j
		}
	}
	return -1
}

// loadDelay is the round trip of w's next load request: Latency plus a
// hash of the load's identity modulo Spread + 1 (splitmix64's finalizer).
func (m *kernelRun) loadDelay(w *warpCtx) int {
	x := uint64(w.cta)<<40 ^ uint64(w.id)<<28 ^ uint64(w.next)<<8 ^ uint64(w.sent)
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return m.Latency + int(x%uint64(m.Spread+1))
}

// send puts the request of w's subwarp w.sent (warp context tag) on the
// interconnect as it leaves the MEM tail: a load's data comes back
// later, a store's request is all (it goes to DRAM only when shared).
func (m *kernelRun) send(w *warpCtx, tag int, write bool) {
	switch {
	case m.mem != nil:
		m.mem.send(m.core, m.pipe.cycle, tag, w.cta, w.id, w.sent, w.global-1, m.Lanes, m.Warp, m.kernel.Threads, write)
	case !write:
		d := m.loadDelay(w)
		m.pipe.returnAt(tag, m.pipe.cycle+d)
		m.loadTook(d)
	}
	w.sent++
}

// loadReturns queues a load's data, sent in cycle sent, due in cycle due
// (SharedDRAM).
func (m *kernelRun) loadReturns(tag, sent, due int) {
	m.pipe.returnAt(tag, due)
	m.loadTook(due - sent)
}

// loadTook counts a load request's round trip of d cycles.
func (m *kernelRun) loadTook(d int) {
	r := &m.res
	if r.Loads == 0 || d < r.LoadMin {
		r.LoadMin = d
	}
	r.LoadMax = max(r.LoadMax, d)
	r.Loads++
	r.LoadCycles += d
}

// writeback applies the cycle's writeback to its warp.
func (m *kernelRun) writeback(wb Writeback) {
	if !wb.Valid {
		return
	}
	w := &m.warps[wb.Tag]
	if wb.Src != SrcIC {
		switch w.prog[w.next-1].Kind {
		case Load:
			m.send(w, wb.Tag, false) // the request leaves; the data comes back later
			return
		case Store:
			m.send(w, wb.Tag, true)
		}
	}
	w.pending--
	if w.pending > 0 {
		return
	}
	slot := &m.slots[w.slot]
	switch {
	case w.next == len(w.prog):
		w.done = true
		slot.live--
	case w.prog[w.next-1].Kind == Barrier:
		w.waiting = true
		slot.arrived++
	}
	if slot.live > 0 && slot.arrived == slot.live {
		for _, j := range slot.warps {
			m.warps[j].waiting = false
		}
		slot.arrived = 0
	}
	if slot.live == 0 {
		m.launch(w.slot)
	}
}

// Picture is a stage-by-cycle diagram of a back end (Figs. 5.4 and 5.5):
// Cols names the places (IF ID EXE, the back end's, WB) and Rows[c][p] is
// the instruction index in place p in cycle c (-1 empty; WB shows the
// instruction written back in the previous cycle). Stalled[c] marks the
// cycles the front end issued nothing, its IF holding on, because EXE was
// refused in the cycle before: where the figures mark a stall (the kernel
// model counts the refusal's cycle; one stall either way).
type Picture struct {
	Cols    []string
	Rows    [][]int
	Stalled []bool
}

// DrawPipeline runs the figures' instruction stream on back end b with
// mstages memory stages: warps of one subwarp (warp_size = simd_width),
// W_{i-1}, W_i, W_{i+1}, ... fetched one a cycle when the front end
// allows, W_i a shared-memory access of the given conflict degree and the
// rest non-memory; cycles rows from t_{i-1}. Instruction W_{i+j} is index
// j+1 (W_{i-1} is 0).
func DrawPipeline(b BackEndKind, mstages, degree, cycles int) Picture {
	const front = 3 // IF ID EXE
	c := Core{Warps: 1, Warp: 1, Lanes: 1, Banks: 1, Ports: 1, Stages: front + mstages + 1, MStages: mstages}
	p := &pipeline{stages: make([]*subwarp, front), be: c.newBackEnd(b)}
	pic := Picture{Cols: []string{"IF", "ID", "EXE"}}
	for _, o := range p.be.Stages() {
		if !strings.HasPrefix(o.Place, "PREMEM") {
			pic.Cols = append(pic.Cols, o.Place)
		}
	}
	pic.Cols = append(pic.Cols, "WB")
	fetched := 0
	fetch := func() *subwarp {
		s := &subwarp{in: Instr{Tag: fetched}}
		if fetched == 1 {
			s.in.Mem, s.in.Hold = true, Extra(degree, 1)
		}
		fetched++
		return s
	}
	p.stages[0] = fetch()
	wbTag, stalled := -1, false
	for range cycles {
		row := make([]int, 0, len(pic.Cols))
		for _, s := range p.stages {
			row = append(row, tagOf(s))
		}
		for _, o := range p.be.Stages() {
			if !strings.HasPrefix(o.Place, "PREMEM") {
				row = append(row, o.Tag)
			}
		}
		pic.Rows = append(pic.Rows, append(row, wbTag))
		pic.Stalled = append(pic.Stalled, stalled)
		out := p.offer()
		wbTag = -1
		if out.wb.Valid {
			wbTag = out.wb.Tag
		}
		stalled = out.stalled
		var next *subwarp
		if !stalled {
			next = fetch()
		}
		p.advance(stalled, next)
	}
	return pic
}

func tagOf(s *subwarp) int {
	if s == nil {
		return -1
	}
	return s.in.Tag
}
