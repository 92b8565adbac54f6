package verify

// lfsrPlan is lfsrFill for one set of input ports with each port's place
// and cases worked out once, and a one-word port's case picked without a
// branch, as the C++ and compiled Go harnesses pick it: the case by x >> 61
// is random, so lfsrPort's switch mispredicts about every other input. The
// hdl simulator's benchmark and fast lockstep use it; lfsrFill stays the
// reference (a test holds them equal).
type lfsrPlan []lfsrPortPlan

type lfsrPortPlan struct {
	port   Port
	off, n int // the port's first word in the vector, and its words
	rst    bool
	// cases is a one-word port's value by x >> 61 before the AND with
	// all ones (lfsrConstant), x or the next draw: 0, top, sign, 3, then
	// top for the uniform cases.
	cases [8]uint64
}

// lfsrConstant marks the cases whose value takes no bits of a draw.
var lfsrConstant = [8]uint64{1: ^uint64(0), 2: ^uint64(0)}

func newLFSRPlan(ports Ports) lfsrPlan {
	var pl lfsrPlan
	off := 0
	for i, p := range ports.In {
		top := wordMask(p.Width, 0)
		sign := uint64(1) << uint((p.Width-1)%64)
		pl = append(pl, lfsrPortPlan{port: p, off: off, n: p.Words(), rst: isReset(i, p),
			cases: [8]uint64{0, top, sign, 3 & top, top, top, top, top}})
		off += p.Words()
	}
	return pl
}

// fill writes the next cycle's inputs into v, as lfsrFill.
func (pl lfsrPlan) fill(s *uint64, v Vector) {
	r := *s // in a register: stores into v could alias *s
	for i := range pl {
		p := &pl[i]
		w := v[p.off : p.off+p.n]
		if p.n > 1 { // several words, rare: the reference's code
			*s = r
			lfsrPort(s, i, p.port, w)
			r = *s
			continue
		}
		r = lfsrStep(r)
		if p.rst {
			w[0] = 0
			if r&63 == 0 {
				w[0] = 1
			}
			continue
		}
		sel := r >> 61
		u := r ^ r<<13 // a uniform case draws again (lfsrStep's last step in the mask, as the compiled harness)
		u ^= u >> 7
		r ^= (r ^ u ^ u<<17) & -(sel >> 2)
		w[0] = p.cases[sel] & (r | lfsrConstant[sel])
	}
	*s = r
}
