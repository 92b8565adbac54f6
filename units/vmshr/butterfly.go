package vmshr

// The interconnect Table 6.2 names: "crossbar (2-ary 5-fly butterfly
// [37]) @602.0 Mhz, 16-Byte flit size, 2 Virtual Channels, 8 buffers per
// Virtual Channel", one network per direction. Every knob is Table 6.2's
// or the text's, none was tuned on the speedups:
//   - 2-ary 5-fly (Table 6.2): 2^5 = 32 terminals a side, 5 stages of 16
//     routers of 2 inputs and 2 outputs, wired as Dally and Towles' k-ary
//     n-fly ([37]): router a of stage s sends its output p to the router
//     of stage s+1 whose address is a with bit 3-s replaced by p, on the
//     input numbered by a's old bit 3-s; terminal t enters (and leaves)
//     router t/2 on port t%2.
//   - Placement (Table 6.2 gives none): the cores on the even terminals
//     (core c on 2c) and the 4 channels spread one per quarter (channel j
//     on 8j+1), so no two cores share a first-stage router of the request
//     network and no two channels one of the reply network: each endpoint
//     keeps its own 16 B link into the network, as on the crossbar.
//   - Destination-tag routing ([37]): stage s takes the output given by
//     bit 4-s of the destination terminal; every source-destination pair
//     has one path.
//   - 16 B flits (Table 6.2; footnote 12's 8 B header), one flit per link
//     per cycle at the crossbar's 602 MHz (Table 6.2).
//   - Wormhole switching with Table 6.2's virtual channels (2; 1 in
//     6.5.6) and 8 flit buffers per virtual channel at every router
//     input; a packet keeps the virtual channel its destination gives
//     (destination mod VCs, as on the crossbar) on every hop, and a
//     router's output virtual channel carries one packet at a time, from
//     its head to its tail.
//   - Credit flow control: an output virtual channel holds a credit per
//     free flit buffer downstream; a flit leaving a buffer returns its
//     credit at the end of the cycle (usable the next).
//   - Round-robin switch allocation: each output grants one flit a cycle
//     among the (input, virtual channel) heads that want it, round robin,
//     an input sending at most one flit a cycle; the two outputs take turns
//     to choose first. A head flit takes its output virtual channel and
//     crosses the switch in the same cycle: a hop costs one cycle.
//   - The endpoints are the crossbar's: a source's queues (buffers flits
//     per virtual channel, 0 = unbounded) feed its injection link one flit a
//     cycle, virtual channels round robin; a terminal's ejection link takes
//     one packet at a time, a head only when the destination accepts.

const (
	flyK      = 2                   // Table 6.2: 2-ary
	flyN      = 5                   // Table 6.2: 5-fly (stages)
	flyTerms  = 1 << flyN           // terminals a side (flyK^flyN)
	flyPerStg = flyTerms / flyK     // routers per stage
	flyRouter = flyN * flyPerStg    // routers
	flyInputs = flyRouter * flyK    // router inputs (and outputs)
	coreTerm  = flyTerms / Cores    // core c's terminal is coreTerm*c (2c)
	chanTerm  = flyTerms / Channels // channel j's terminal is chanTerm*j + 1 (8j + 1)
)

// coreTerminals and channelTerminals place the endpoints (the placement
// above).
func coreTerminals() []int {
	ts := make([]int, Cores)
	for c := range ts {
		ts[c] = coreTerm * c
	}
	return ts
}

func channelTerminals() []int {
	ts := make([]int, Channels)
	for j := range ts {
		ts[j] = chanTerm*j + 1
	}
	return ts
}

// flit is one 16 B flit of a packet.
type flit struct {
	p           packet
	first, last bool
}

// butterfly is one direction of the 2-ary 5-fly.
type butterfly struct {
	depth            int // router flit buffers per virtual channel
	srcTerm, dstTerm []int

	// Router input virtual channels, index (input*vcs + vc), input =
	// (stage*flyPerStg + router)*flyK + port: ring buffers of depth flits.
	buf        []flit
	start, cnt []int
	// Router output virtual channels, the same index: the input port + 1
	// whose packet holds it (0: free) and the credits (free buffers
	// downstream). Last-stage outputs are ejection links: eject holds the
	// (port*vcs + vc) + 1 of the packet leaving by the terminal.
	owner, credit []int
	eject         []int
	rr            []int // round-robin pointer per router output
	first         []int // the output that chooses first, per router
	occ           []int // flits in each router
	inFlight      int

	// Sources (sources: queues by source and virtual channel): the flits
	// of each head packet already injected, the credits of the stage-0
	// buffers (by terminal and virtual channel), the flits queued.
	sources
	sent, srcCr [][]int
	srcRR       []int
	queued      int
	returns     []int // credits returned this cycle (output VC index, -1-term*vcs-vc for a source)
	flits       int64
}

// newButterfly makes a butterfly whose sources sit on terminals srcTerm
// and destinations on dstTerm, with vcs virtual channels, buffers flits a
// source queues per virtual channel (0: unbounded) and depth flit buffers
// per router input virtual channel.
func newButterfly(srcTerm, dstTerm []int, vcs, buffers, depth int) *butterfly {
	n := flyInputs * vcs
	b := &butterfly{depth: depth, srcTerm: srcTerm, dstTerm: dstTerm,
		buf: make([]flit, n*depth), start: make([]int, n), cnt: make([]int, n),
		owner: make([]int, n), credit: make([]int, n), eject: make([]int, flyTerms),
		rr: make([]int, flyInputs), first: make([]int, flyRouter), occ: make([]int, flyRouter),
		sources: newSources(len(srcTerm), vcs, buffers), sent: make([][]int, len(srcTerm)),
		srcCr: make([][]int, flyTerms), srcRR: make([]int, len(srcTerm))}
	for i := range b.credit {
		b.credit[i] = depth
	}
	for t := range flyTerms {
		b.srcCr[t] = make([]int, vcs)
		for v := range vcs {
			b.srcCr[t][v] = depth
		}
	}
	for s := range srcTerm {
		b.sent[s] = make([]int, vcs)
	}
	return b
}

// push queues a packet at its source (room must hold).
func (b *butterfly) push(p packet) {
	b.sources.push(p)
	b.queued += p.flits
}

func (b *butterfly) idle() bool { return b.inFlight == 0 && b.queued == 0 }

func (b *butterfly) moved() int64 { return b.flits }

// route is the output a flit for destination terminal t takes at stage s
// (destination-tag routing: bit 4-s of t).
func route(s, t int) int { return t >> (flyN - 1 - s) & 1 }

// next is where output p of router r at stage s < 4 leads: the router of
// stage s+1 and its input port.
func next(s, r, p int) (int, int) {
	bit := flyN - 2 - s
	return r&^(1<<bit) | p<<bit, r >> bit & 1
}

// upstream is the output virtual channel that feeds input port p of
// router r at stage s > 0 (next's inverse), as an index into owner and
// credit.
func (b *butterfly) upstream(s, r, p, v int) int {
	bit := flyN - 1 - s
	a := r&^(1<<bit) | p<<bit
	return (((s-1)*flyPerStg+a)*flyK+(r>>bit&1))*b.vcs + v
}

// pushFlit puts a flit into router input virtual channel i.
func (b *butterfly) pushFlit(i int, f flit) {
	b.buf[i*b.depth+(b.start[i]+b.cnt[i])%b.depth] = f
	b.cnt[i]++
	if b.cnt[i] > b.depth {
		panic("vmshr butterfly: a buffer overflowed its credits")
	}
	b.occ[i/b.vcs/flyK]++
	b.inFlight++
}

// popFlit takes the front flit of router input virtual channel i.
func (b *butterfly) popFlit(i int) flit {
	f := b.buf[i*b.depth+b.start[i]]
	b.start[i] = (b.start[i] + 1) % b.depth
	b.cnt[i]--
	b.occ[i/b.vcs/flyK]--
	b.inFlight--
	return f
}

// tick moves one interconnect cycle. The stages go last to first, so a
// flit crosses at most one hop a cycle; credits freed this cycle count
// from the next.
func (b *butterfly) tick(accept func(dst int) bool, deliver func(packet)) {
	b.returns = b.returns[:0]
	nin := flyK * b.vcs // (input port, virtual channel) pairs of a router
	for s := flyN - 1; s >= 0; s-- {
		for r := range flyPerStg {
			router := s*flyPerStg + r
			if b.occ[router] == 0 {
				continue
			}
			var sent [flyK]bool
			b.first[router] = (b.first[router] + 1) % flyK
			for k := range flyK {
				o := (b.first[router] + k) % flyK
				out := router*flyK + o
				for j := range nin {
					c := (b.rr[out] + j) % nin
					port, v := c/b.vcs, c%b.vcs
					in := (router*flyK+port)*b.vcs + v
					if sent[port] || b.cnt[in] == 0 {
						continue
					}
					f := b.buf[in*b.depth+b.start[in]]
					t := b.dstTerm[f.p.dst]
					if route(s, t) != o {
						continue
					}
					ovc := out*b.vcs + v
					if s < flyN-1 {
						if f.first && b.owner[ovc] != 0 || !f.first && b.owner[ovc] != port+1 || b.credit[ovc] == 0 {
							continue
						}
						b.popFlit(in)
						b.credit[ovc]--
						b.owner[ovc] = port + 1
						if f.last {
							b.owner[ovc] = 0
						}
						nr, np := next(s, r, o)
						b.pushFlit(((s+1)*flyPerStg+nr)*flyK*b.vcs+np*b.vcs+v, f)
					} else {
						term := r*flyK + o
						if f.first && (b.eject[term] != 0 || !accept(f.p.dst)) || !f.first && b.eject[term] != c+1 {
							continue
						}
						b.popFlit(in)
						b.eject[term] = c + 1
						b.flits++
						if f.last {
							b.eject[term] = 0
							deliver(f.p)
						}
					}
					if s == 0 {
						b.returns = append(b.returns, -1-(r*flyK+port)*b.vcs-v)
					} else {
						b.returns = append(b.returns, b.upstream(s, r, port, v))
					}
					sent[port] = true
					b.rr[out] = (c + 1) % nin
					break
				}
			}
		}
	}
	b.inject()
	for _, i := range b.returns {
		if i < 0 {
			i = -1 - i
			b.srcCr[i/b.vcs][i%b.vcs]++
		} else {
			b.credit[i]++
		}
	}
}

// inject moves a flit from each source with one queued and a credit into
// its stage-0 buffer, virtual channels round robin.
func (b *butterfly) inject() {
	if b.queued == 0 {
		return
	}
	for src, t := range b.srcTerm {
		for j := range b.vcs {
			v := (b.srcRR[src] + j) % b.vcs
			q := b.queues[src][v]
			if len(q) == 0 || b.srcCr[t][v] == 0 {
				continue
			}
			p := q[0]
			n := b.sent[src][v]
			b.srcCr[t][v]--
			b.pushFlit(t*b.vcs+v, flit{p: p, first: n == 0, last: n == p.flits-1}) // stage-0 input t is terminal t
			b.used[src][v]--
			b.queued--
			if n == p.flits-1 {
				b.queues[src][v], b.sent[src][v] = q[1:], 0
			} else {
				b.sent[src][v]++
			}
			b.srcRR[src] = (v + 1) % b.vcs
			break
		}
	}
}
