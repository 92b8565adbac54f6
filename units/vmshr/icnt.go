package vmshr

// The interconnect of Table 6.2 as one crossbar stage (Config.Icnt
// Crossbar; the default is the 2-ary 5-fly of butterfly.go) of 16 B flits: every source
// has VCs virtual-channel queues of buffers flits each, a packet takes
// its virtual channel by destination (dest mod VCs), and every
// destination port takes one packet at a time, a flit per interconnect
// cycle, granting sources round robin (the fairness-oriented flow control
// 6.5.6 blames for interleaving the cores' streams); destinations take
// turns to arbitrate first. A source sends one flit per cycle. With one
// virtual channel a source's head packet blocks
// everything behind it while its destination serves another source.

// packet is a request (core to channel) or a reply (channel to core).
type packet struct {
	src, dst int
	flits    int
	id       int // the model's packet record
}

// sources are the packets a network's sources queue (both networks):
// per source and virtual channel, a queue of at most buffers flits (0 =
// unbounded); a packet takes its virtual channel by destination.
type sources struct {
	vcs, buffers int
	queues       [][][]packet
	used         [][]int // flits queued per source and virtual channel
}

func newSources(srcs, vcs, buffers int) sources {
	q := sources{vcs: vcs, buffers: buffers, queues: make([][][]packet, srcs), used: make([][]int, srcs)}
	for s := range srcs {
		q.queues[s] = make([][]packet, vcs)
		q.used[s] = make([]int, vcs)
	}
	return q
}

func (q *sources) vc(dst int) int { return dst % q.vcs }

// room reports whether source src can queue a packet of flits for dst.
func (q *sources) room(src, dst, flits int) bool {
	return q.buffers == 0 || q.used[src][q.vc(dst)]+flits <= q.buffers
}

// push queues a packet (room must hold).
func (q *sources) push(p packet) {
	v := q.vc(p.dst)
	q.queues[p.src][v] = append(q.queues[p.src][v], p)
	q.used[p.src][v] += p.flits
}

// crossbar is one direction of the interconnect.
type crossbar struct {
	sources
	// a transfer in progress per destination: its source, virtual channel
	// and flits left (0 when idle)
	from, fromVC, left []int
	sending            []bool // a source's flit this cycle is spoken for
	rr                 []int  // round-robin pointer per destination
	first              int    // the destination that arbitrates first this cycle
	flits              int64
}

func newCrossbar(srcs, dsts, vcs, buffers int) *crossbar {
	return &crossbar{sources: newSources(srcs, vcs, buffers),
		from: make([]int, dsts), fromVC: make([]int, dsts), left: make([]int, dsts), sending: make([]bool, srcs), rr: make([]int, dsts)}
}

func (x *crossbar) moved() int64 { return x.flits }

// idle reports whether nothing is queued or moving.
func (x *crossbar) idle() bool {
	for _, l := range x.left {
		if l > 0 {
			return false
		}
	}
	for _, u := range x.used {
		for _, n := range u {
			if n > 0 {
				return false
			}
		}
	}
	return true
}

// tick moves one interconnect cycle: transfers in progress move a flit,
// idle destinations that accept (accept(dst)) grant a source whose head
// packet on some virtual channel is for them. deliver gets every packet
// whose tail arrived.
func (x *crossbar) tick(accept func(dst int) bool, deliver func(packet)) {
	clear(x.sending)
	for d, l := range x.left {
		if l > 0 {
			x.sending[x.from[d]] = true
		}
	}
	n := len(x.queues)
	// Destinations take turns to choose first, so no port wins every
	// contested source.
	x.first = (x.first + 1) % len(x.left)
	for i := range x.left {
		d := (x.first + i) % len(x.left)
		if x.left[d] > 0 || !accept(d) {
			continue
		}
		for i := range n {
			s := (x.rr[d] + i) % n
			if x.sending[s] {
				continue
			}
			v := x.vc(d)
			if q := x.queues[s][v]; len(q) > 0 && q[0].dst == d {
				x.from[d], x.fromVC[d], x.left[d] = s, v, q[0].flits
				x.sending[s] = true
				x.rr[d] = (s + 1) % n
				break
			}
		}
	}
	for d, l := range x.left {
		if l == 0 {
			continue
		}
		s, v := x.from[d], x.fromVC[d]
		x.left[d]--
		x.used[s][v]--
		x.flits++
		if x.left[d] == 0 {
			p := x.queues[s][v][0]
			x.queues[s][v] = x.queues[s][v][1:]
			deliver(p)
		}
	}
}
