package elastic

import "strconv"

// Plain-Go cycle models of the back ends of a GPU core pipeline from EXE
// to writeback (thesis section 5.3.2 and 5.4): the elastic back end of
// Fig. 5.6 (contract elastic-pipe), the baseline with unified memory
// stages of Fig. 5.4(a) (contract elastic-basepipe) and the baseline with
// split memory stages of Fig. 5.4(b) (no contract; for the model and the
// pictures). They are an independent reading of the contracts, stepped in
// lockstep with the hardware of pipe.go.
//
// Timing: Step is one clock cycle. EXE presents ex during the cycle; when
// Step reports it ready, ex is taken at the edge ending the cycle. An
// instruction taken into S_0 at the edge ending cycle t sits in S_0 from
// cycle t+1; the writeback Step reports is the instruction leaving the
// last stage (or a queue, EXE or the interconnect) at that edge, so a
// memory instruction alone is written back in cycle t + mstages, a
// non-memory one bypassing to writeback in cycle t itself. The figures'
// WB column is the cycle after: the figures' writeback bubble of cycle
// i+5 and conflict of cycle i+6 (Fig. 5.4) are the cycles i+4 and i+5
// here.
//
// Tags are non-negative (a tw-bit ex_tag or ic_tag); -1 marks an empty
// place.

// Instr is the instruction EXE presents to the back end.
type Instr struct {
	Mem  bool // takes the MEM path (ex_mem)
	Hold int  // extra cycles in S_0 (ex_hold: elastic-bkconf's extra; 0 without a bank conflict)
	Tag  int  // ex_tag
}

// Writeback is the instruction written back in one cycle: wb_valid,
// wb_src (SrcIC, SrcMem, SrcNonmem or SrcExe) and wb_tag.
type Writeback struct {
	Valid bool
	Src   int
	Tag   int
}

// from says whether the writeback is valid and comes from src.
func (w Writeback) from(src int) bool { return w.Valid && w.Src == src }

// Occupant is one place of a back end for a stage-by-cycle picture
// (Figs. 5.4, 5.5): its name and the tag it holds, -1 when empty.
type Occupant struct {
	Place string
	Tag   int
}

// Backend is one back end stepped one clock cycle at a time.
type Backend interface {
	// Step is one cycle: ex is EXE's instruction (nil when ex_valid =
	// 0), ic the tag returning from the interconnect (nil when none).
	// It returns ex_ready as the hardware computes it this cycle
	// (whether ex is taken at the coming edge; false when ex is nil),
	// the cycle's writeback, and then applies the edge.
	Step(ex *Instr, ic *int) (ready bool, wb Writeback)
	// BlockedByIC and BlockedByConflict say why the last Step refused
	// ex (both false when it took ex). BlockedByIC: the only reason was
	// the interconnect taking the writeback slot (without its return the
	// back end would have taken ex). BlockedByConflict: otherwise, while
	// S_0 held an instruction still serving a bank conflict. A refusal
	// that is neither is a writeback conflict among the back end's own
	// instructions.
	BlockedByIC() bool
	BlockedByConflict() bool
	// Counts is the entries held: elastic-pipe's premem_count and
	// nonmem_count; 0, 0 for the baselines.
	Counts() (premem, nonmem int)
	// Stages is the tag (or -1) in each place, in the order each back
	// end documents.
	Stages() []Occupant
}

// chain is a run of pipeline stages S_0..S_{n-1}: S_{n-1} leaves iff it
// is written back, S_k passes to S_{k+1} iff S_{k+1} is empty or leaves,
// and an instruction entering S_0 with hold h stays there h+1 cycles
// (bank-conflict serialization, Eq. 5.3). It is the MEM stages of all
// three back ends (Figs. 5.4, 5.6) and the split baseline's NONMEM stages
// (Fig. 5.4(b), entered with hold 0).
type chain struct {
	tag  []int  // S_k's tag, -1 when empty
	hold int    // cycles S_0's instruction stays beyond the current one
	mv   []bool // scratch for moves
}

func newChain(n int) chain {
	c := chain{tag: make([]int, n), mv: make([]bool, n)}
	for k := range c.tag {
		c.tag[k] = -1
	}
	return c
}

// conflicting says whether S_0 holds an instruction still serving a bank
// conflict: it stays beyond this cycle.
func (c *chain) conflicting() bool { return c.tag[0] >= 0 && c.hold > 0 }

// tail is the tag in S_{n-1}.
func (c *chain) tail() int { return c.tag[len(c.tag)-1] }

// ready says whether S_{n-1} holds an instruction that may be written back
// this cycle (with one stage, S_0's hold must be over).
func (c *chain) ready() bool {
	n := len(c.tag)
	return c.tag[n-1] >= 0 && (n > 1 || c.hold == 0)
}

// candidate is the writeback the tail offers from source src.
func (c *chain) candidate(src int) Writeback {
	return Writeback{Valid: c.ready(), Src: src, Tag: c.tail()}
}

// moves says, per stage, whether its instruction moves on at the coming
// edge when the tail is written back iff out.
func (c *chain) moves(out bool) []bool {
	n := len(c.tag)
	c.mv[n-1] = out
	for k := n - 2; k >= 0; k-- {
		c.mv[k] = c.tag[k] >= 0 && (c.tag[k+1] < 0 || c.mv[k+1])
	}
	c.mv[0] = c.mv[0] && c.hold == 0
	return c.mv
}

// free says whether S_0 can take an instruction at the coming edge: it is
// empty or its instruction moves on.
func (c *chain) free(out bool) bool { return c.tag[0] < 0 || c.moves(out)[0] }

// advance applies the edge: instructions move on as moves(out) says, in
// (when not nil; the caller checked free) enters S_0, and an instruction
// staying in S_0 counts its hold down.
func (c *chain) advance(out bool, in *Instr) {
	mv := c.moves(out)
	for k := len(c.tag) - 1; k > 0; k-- {
		switch {
		case mv[k-1]:
			c.tag[k] = c.tag[k-1]
		case mv[k]:
			c.tag[k] = -1
		}
	}
	switch {
	case in != nil:
		c.tag[0], c.hold = in.Tag, in.Hold
	case mv[0]:
		c.tag[0] = -1
	case c.hold > 0:
		c.hold--
	}
}

// occupants names the stages prefix0..prefix{n-1}.
func (c *chain) occupants(prefix string) []Occupant {
	return places(prefix, c.tag, len(c.tag))
}

// places names depth places prefix0.. holding tags in order, -1 beyond.
func places(prefix string, tags []int, depth int) []Occupant {
	o := make([]Occupant, depth)
	for i := range o {
		o[i] = Occupant{Place: prefix + strconv.Itoa(i), Tag: -1}
		if i < len(tags) {
			o[i].Tag = tags[i]
		}
	}
	return o
}

// pick is the writeback multiplexer (Fig. 5.6's numbered inputs): the
// first valid candidate, in priority order.
func pick(candidates ...Writeback) Writeback {
	for _, c := range candidates {
		if c.Valid {
			return c
		}
	}
	return Writeback{}
}

// icReturn is the interconnect's candidate, first in every back end.
func icReturn(ic *int) Writeback {
	if ic == nil {
		return Writeback{}
	}
	return Writeback{Valid: true, Src: SrcIC, Tag: *ic}
}

// cycler is one back end's logic for one cycle: ex_ready and the
// writeback for ex and ic, applying the edge only when commit; and the
// memory stages it holds them in.
type cycler interface {
	cycle(ex *Instr, ic *int, commit bool) (ready bool, wb Writeback)
	memStages() *chain
}

// refusal implements Step, BlockedByIC and BlockedByConflict over a
// cycler: a refusal is the interconnect's alone when the same cycle
// without the interconnect return would have taken ex.
type refusal struct{ byIC, byConflict bool }

func (r *refusal) step(c cycler, ex *Instr, ic *int) (bool, Writeback) {
	without := false
	if ex != nil && ic != nil {
		without, _ = c.cycle(ex, nil, false)
	}
	conflict := c.memStages().conflicting()
	ready, wb := c.cycle(ex, ic, true)
	r.byIC = ex != nil && !ready && without
	r.byConflict = ex != nil && !ready && !without && conflict
	return ready, wb
}

// BlockedByIC implements Backend.
func (r *refusal) BlockedByIC() bool { return r.byIC }

// BlockedByConflict implements Backend.
func (r *refusal) BlockedByConflict() bool { return r.byConflict }

// ElasticPipe is the elastic back end of Fig. 5.6 (contract elastic-pipe):
// MEM stages S_0..S_{M-1}, the PREMEM queue before S_0 (Eq. 5.5: N = K-1
// entries) and the NONMEM queue beside the MEM stages (Eq. 5.4; the
// project's default is DefaultNonmem). Writeback priority: the
// interconnect, S_{M-1}, the oldest NONMEM entry, EXE's non-memory
// instruction. S_0 takes the PREMEM head, or when PREMEM is empty EXE's
// memory instruction directly; a memory instruction not taken into S_0
// enters PREMEM when it has a free entry or its head leaves; a non-memory
// instruction not written back directly enters NONMEM when it has a free
// entry or its head is written back; ex_ready is EXE's instruction being
// taken one of these ways.
//
// Stages: PREMEM0..PREMEM{N-1} (oldest first; PREMEM0 is the head next
// into MEM0), MEM0..MEM{M-1}, NONMEM0..NONMEM{nonmem-1} (oldest first).
type ElasticPipe struct {
	refusal
	mem                      chain
	premem                   []Instr // oldest first
	nonmem                   []int   // oldest first
	prememDepth, nonmemDepth int
}

// NewElasticPipe is the back end of Fig. 5.6 with mstages MEM stages and
// PREMEM and NONMEM queues of premem and nonmem entries.
func NewElasticPipe(mstages, premem, nonmem int) *ElasticPipe {
	return &ElasticPipe{mem: newChain(mstages), prememDepth: premem, nonmemDepth: nonmem}
}

// Step implements Backend.
func (p *ElasticPipe) Step(ex *Instr, ic *int) (bool, Writeback) { return p.step(p, ex, ic) }

func (p *ElasticPipe) cycle(ex *Instr, ic *int, commit bool) (bool, Writeback) {
	oldest := Writeback{Valid: len(p.nonmem) > 0, Src: SrcNonmem, Tag: -1}
	if oldest.Valid {
		oldest.Tag = p.nonmem[0]
	}
	bypass := Writeback{Valid: ex != nil && !ex.Mem, Src: SrcExe, Tag: -1}
	if bypass.Valid {
		bypass.Tag = ex.Tag
	}
	wb := pick(icReturn(ic), p.mem.candidate(SrcMem), oldest, bypass)
	out := wb.from(SrcMem)
	free := p.mem.free(out)
	popPremem := free && len(p.premem) > 0
	popNonmem := wb.from(SrcNonmem)
	direct := ex != nil && ex.Mem && free && len(p.premem) == 0
	ready := false
	switch {
	case ex == nil:
	case ex.Mem:
		ready = direct || len(p.premem) < p.prememDepth || popPremem
	default:
		ready = wb.from(SrcExe) || len(p.nonmem) < p.nonmemDepth || popNonmem
	}
	if !commit {
		return ready, wb
	}

	var enter *Instr
	if popPremem {
		head := p.premem[0]
		p.premem, enter = p.premem[1:], &head
	} else if direct {
		enter = ex
	}
	p.mem.advance(out, enter)
	if popNonmem {
		p.nonmem = p.nonmem[1:]
	}
	switch {
	case !ready || direct || wb.from(SrcExe):
	case ex.Mem:
		p.premem = append(p.premem, *ex)
	default:
		p.nonmem = append(p.nonmem, ex.Tag)
	}
	return ready, wb
}

func (p *ElasticPipe) memStages() *chain { return &p.mem }

// Counts implements Backend: premem_count and nonmem_count.
func (p *ElasticPipe) Counts() (premem, nonmem int) { return len(p.premem), len(p.nonmem) }

// Stages implements Backend: PREMEM0.., MEM0.., NONMEM0.. (see
// ElasticPipe).
func (p *ElasticPipe) Stages() []Occupant {
	pre := make([]int, len(p.premem))
	for i, in := range p.premem {
		pre[i] = in.Tag
	}
	o := places("PREMEM", pre, p.prememDepth)
	o = append(o, p.mem.occupants("MEM")...)
	return append(o, places("NONMEM", p.nonmem, p.nonmemDepth)...)
}

// BasePipe is the baseline with unified memory stages of Fig. 5.4(a)
// (contract elastic-basepipe): every instruction, memory or not, goes
// through S_0..S_{M-1} (its hold applies in S_0 whatever ex_mem says);
// writeback priority: the interconnect, then S_{M-1}; ex_ready = S_0 is
// empty or leaves this cycle.
//
// Stages: MEM0..MEM{M-1}.
type BasePipe struct {
	refusal
	mem chain
}

// NewBasePipe is the baseline of Fig. 5.4(a) with mstages MEM stages.
func NewBasePipe(mstages int) *BasePipe { return &BasePipe{mem: newChain(mstages)} }

// Step implements Backend.
func (p *BasePipe) Step(ex *Instr, ic *int) (bool, Writeback) { return p.step(p, ex, ic) }

func (p *BasePipe) cycle(ex *Instr, ic *int, commit bool) (bool, Writeback) {
	wb := pick(icReturn(ic), p.mem.candidate(SrcMem))
	out := wb.from(SrcMem)
	ready := ex != nil && p.mem.free(out)
	if commit {
		p.mem.advance(out, takenIf(ready, ex))
	}
	return ready, wb
}

func (p *BasePipe) memStages() *chain { return &p.mem }

// Counts implements Backend: the baseline has no queues.
func (p *BasePipe) Counts() (premem, nonmem int) { return 0, 0 }

// Stages implements Backend: MEM0..MEM{M-1}.
func (p *BasePipe) Stages() []Occupant { return p.mem.occupants("MEM") }

// SplitPipe is the baseline with split memory stages of Fig. 5.4(b): a
// memory instruction goes through S_0..S_{M-1} as in BasePipe, a
// non-memory one through a fixed NONMEM pipeline of M stages (no bypass,
// no hold; a stage passes iff the next is empty or leaves). Writeback
// priority: the interconnect, the MEM tail, the NONMEM tail; EXE is
// refused when the first stage of its path cannot take it. A bank
// conflict followed by non-memory instructions gives the figure's
// writeback bubble, then a writeback conflict whose loser blocks its
// pipeline back to EXE.
//
// Stages: MEM0..MEM{M-1}, NONMEM0..NONMEM{M-1} (stage order).
type SplitPipe struct {
	refusal
	mem, nonmem chain
}

// NewSplitPipe is the baseline of Fig. 5.4(b) with mstages MEM and mstages
// NONMEM stages.
func NewSplitPipe(mstages int) *SplitPipe {
	return &SplitPipe{mem: newChain(mstages), nonmem: newChain(mstages)}
}

// Step implements Backend.
func (p *SplitPipe) Step(ex *Instr, ic *int) (bool, Writeback) { return p.step(p, ex, ic) }

func (p *SplitPipe) cycle(ex *Instr, ic *int, commit bool) (bool, Writeback) {
	wb := pick(icReturn(ic), p.mem.candidate(SrcMem), p.nonmem.candidate(SrcNonmem))
	memOut, nonmemOut := wb.from(SrcMem), wb.from(SrcNonmem)
	memReady := ex != nil && ex.Mem && p.mem.free(memOut)
	nonmemReady := ex != nil && !ex.Mem && p.nonmem.free(nonmemOut)
	if commit {
		p.mem.advance(memOut, takenIf(memReady, ex))
		var in *Instr
		if nonmemReady {
			in = &Instr{Tag: ex.Tag}
		}
		p.nonmem.advance(nonmemOut, in)
	}
	return memReady || nonmemReady, wb
}

func (p *SplitPipe) memStages() *chain { return &p.mem }

// Counts implements Backend: the baseline has no queues.
func (p *SplitPipe) Counts() (premem, nonmem int) { return 0, 0 }

// Stages implements Backend: MEM0..MEM{M-1}, NONMEM0..NONMEM{M-1}.
func (p *SplitPipe) Stages() []Occupant {
	return append(p.mem.occupants("MEM"), p.nonmem.occupants("NONMEM")...)
}

// takenIf is ex when taken, else nil.
func takenIf(taken bool, ex *Instr) *Instr {
	if taken {
		return ex
	}
	return nil
}

var (
	_ Backend = (*ElasticPipe)(nil)
	_ Backend = (*BasePipe)(nil)
	_ Backend = (*SplitPipe)(nil)
)
