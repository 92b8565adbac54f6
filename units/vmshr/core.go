package vmshr

import "math/bits"

// One GPU core of the model: warp contexts, CTA slots, the barrel issue
// of one subwarp per cycle, and its MSHR file (see model.go's readings).

// warp is a warp context.
type warp struct {
	live    bool
	cta     int // global CTA index
	slot    int // CTA slot on the core
	w       int // warp index in its CTA
	pc      int // body instruction
	rep     int // ALU instructions of the current block issued so far
	iter    int // loop iteration
	waiting int // load sub-vectors not yet written back
}

// ended reports whether the warp has issued its last instruction.
func (w *warp) ended(k *Kernel) bool { return w.iter == k.Iters }

// subReq is one normal-block sub-vector of a load or store (footnote 7).
type subReq struct {
	blk   uint64
	used  int // bytes the lanes use
	off   int // the first lane's byte offset in the block
	store bool
}

type core struct {
	g     *gpu
	id    int
	file  *File[uint64]
	warps []warp
	ctas  []int // the CTAs dealt to this core, in launch order
	next  int   // ctas[next] launches when a slot frees
	live  []int // unfinished warps per CTA slot
	rr    int   // the barrel's next warp

	// the instruction being issued: its warp, remaining ALU cycles and
	// sub-vectors
	issuing bool
	cur     int
	alu     int
	reqs    []subReq
	loadReg int

	fills []memPacket // returned packets waiting for the MSHR
	data  []uint64    // a fill's blocks (reused)
}

func newCore(g *gpu, id int) *core {
	k := g.k
	hmax := 0 // the baseline's MSHR file is vmshr-base's
	if g.cfg.Adaptive {
		hmax = HyperMax
	}
	c := &core{g: g, id: id, file: NewFile[uint64](MSHRs, SMSHRs, hmax), warps: make([]warp, Warps)}
	for cta := id; cta < k.CTAs(); cta += Cores {
		c.ctas = append(c.ctas, cta)
	}
	wpc := c.warpsPerCTA()
	c.live = make([]int, min(CTAsPerCore, Warps/wpc))
	for s := range c.live {
		c.launch(s)
	}
	return c
}

func (c *core) warpsPerCTA() int { return (c.g.k.Threads() + WarpSize - 1) / WarpSize }

// launch starts the next CTA, if any, in slot s.
func (c *core) launch(s int) {
	if c.next == len(c.ctas) {
		return
	}
	wpc := c.warpsPerCTA()
	for w := range wpc {
		c.warps[s*wpc+w] = warp{live: true, cta: c.ctas[c.next], slot: s, w: w}
	}
	c.live[s] = wpc
	c.next++
}

// finished reports whether every CTA has run and every load returned.
func (c *core) finished() bool {
	if c.next < len(c.ctas) || c.issuing || len(c.fills) > 0 || c.file.Busy() > 0 {
		return false
	}
	for _, n := range c.live {
		if n > 0 {
			return false
		}
	}
	return true
}

// pick starts the next ready warp's instruction (barrel round robin).
func (c *core) pick() {
	k := c.g.k
	for i := range Warps {
		n := (c.rr + i) % Warps
		w := &c.warps[n]
		if !w.live || w.waiting > 0 || w.ended(k) {
			continue
		}
		c.rr = (n + 1) % Warps
		c.issuing, c.cur = true, n
		c.decode(w)
		return
	}
}

// decode turns warp w's current instruction into ALU cycles or
// sub-vectors.
func (c *core) decode(w *warp) {
	k := c.g.k
	in := k.Body[w.pc]
	c.alu, c.reqs, c.loadReg = 0, c.reqs[:0], w.pc
	if in.Op == ALU || !in.Pat.Executes(w.cta, w.w, w.iter) {
		c.alu = WarpSize / SIMD // one subwarp per cycle (a skipped memory instruction is predicated off)
		return
	}
	ctaX, ctaY := w.cta%k.GridX, w.cta/k.GridX
	for s := range WarpSize / SIMD {
		first := len(c.reqs)
		for lane := range SIMD {
			t := w.w*WarpSize + s*SIMD + lane
			if t >= k.Threads() {
				break
			}
			addr := in.Pat.Addr(thread{tidX: t % k.BlockX, tidY: t / k.BlockX, ctaX: ctaX, ctaY: ctaY}, w.iter)
			blk := addr / NormalBlock
			i := first
			for i < len(c.reqs) && c.reqs[i].blk != blk {
				i++
			}
			if i == len(c.reqs) {
				c.reqs = append(c.reqs, subReq{blk: blk, off: int(addr % NormalBlock), store: in.Op == Store})
			}
			c.reqs[i].used += in.Pat.DataSize
		}
	}
}

// advance moves warp w past the instruction it issued.
func (c *core) advance(w *warp) {
	k := c.g.k
	if in := k.Body[w.pc]; in.Op == ALU {
		if w.rep++; w.rep < in.N {
			return
		}
	}
	w.rep = 0
	if w.pc++; w.pc == len(k.Body) {
		w.pc, w.iter = 0, w.iter+1
	}
}

// retire ends warp w once it has issued everything and its data is back.
func (c *core) retire(n int) {
	w := &c.warps[n]
	if !w.live || !w.ended(c.g.k) || w.waiting > 0 || (c.issuing && c.cur == n) {
		return
	}
	w.live = false
	if c.live[w.slot]--; c.live[w.slot] == 0 {
		c.launch(w.slot)
	}
}

// step is one core cycle.
func (c *core) step() {
	g := c.g
	if !c.issuing {
		c.pick()
	}
	var req Request
	var fill Fill[uint64]
	if len(c.fills) > 0 {
		p := c.fills[0]
		c.data = c.data[:0]
		for i := range 1 << p.hbs {
			c.data = append(c.data, p.blk+uint64(i))
		}
		fill = Fill[uint64]{Valid: true, Blk: p.blk, HBS: p.hbs, Data: c.data}
	}
	w := &c.warps[c.cur]
	if c.issuing && c.alu > 0 {
		c.alu--
	} else if c.issuing && len(c.reqs) > 0 {
		r := c.reqs[0]
		ch, _ := channelOf(r.blk * NormalBlock)
		if r.store {
			if g.req.room(c.id, ch, Flits(NormalBlock)) {
				g.send(c.id, memPacket{core: c.id, blk: r.blk, write: true})
				c.reqs = c.reqs[1:]
			}
		} else {
			req = Request{Valid: true, Blk: r.blk, HBS: g.gran[w.pc],
				Target:    Target{Tid: uint64(c.cur), Reg: uint64(c.loadReg), Off: uint64(r.off), Fmt: uint64(bits.Len(uint(g.k.Body[w.pc].Pat.DataSize)) - 1)},
				ICNTReady: g.req.room(c.id, ch, Flits(0))}
		}
	}
	o := c.file.Step(req, fill, true)
	if g.cfg.Record && c.id == 0 {
		if fill.Valid {
			fill.Data = append([]uint64(nil), fill.Data...)
		}
		g.res.Trace = append(g.res.Trace, PortCycle{Req: req, Fill: fill, WBReady: true, Out: o})
	}
	if fill.Valid {
		c.fills = c.fills[1:]
		g.res.Dropped += int64(o.FillDrop)
	}
	if req.Valid && !o.Fail { // a refused request is presented again
		g.res.Kinds[o.Kind]++
		g.res.UsedB += int64(c.reqs[0].used)
		w.waiting++
		c.reqs = c.reqs[1:]
		if o.Fire {
			g.send(c.id, memPacket{core: c.id, blk: o.FireBlk, hbs: o.FireHBS})
		}
	}
	if c.issuing && c.alu == 0 && len(c.reqs) == 0 {
		c.issuing = false
		c.advance(w)
		c.retire(c.cur)
	}
	if o.WB.Valid {
		n := int(o.WB.Target.Tid)
		c.warps[n].waiting--
		c.retire(n)
	}
}
