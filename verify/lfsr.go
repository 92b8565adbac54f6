package verify

import "github.com/parmem/parmem/hdl"

// The in-simulator stimulus. Every simulator can generate the same seeded
// random inputs itself (no pipe), hash its outputs each cycle, and answer
// with a digest of a batch's hashes alone: Lockstep's fast mode compares
// those, and the speed benchmark times it. A xorshift64 generator drives it; each cycle, for
// each input in port order:
//
//	rst:            x = next(); rst = (x & 63) == 0        (one cycle in 64)
//	other inputs:   x = next(); by x >> 61:
//	                0 zero, 1 all ones, 2 the sign bit alone, 3 x & 3,
//	                4..7 uniform: one next() per 64-bit word, masked
//
// and the cycle's hash folds every output word, in port order, into
// h = (h ^ word) * 0x100000001b3 from h = 0xcbf29ce484222325 (FNV-1a
// style). The implementations in Go (here), C++ (Verilator harness), Go
// source (compiled Go harness) and Verilog (Icarus bench) must stay word
// for word the same; the lockstep tests prove they do.

const (
	lfsrChecksumInit  = 0xcbf29ce484222325
	lfsrChecksumPrime = 0x100000001b3
	lfsrDefaultSeed   = 0x9e3779b97f4a7c15
)

func lfsrNext(s *uint64) uint64 {
	*s = lfsrStep(*s)
	return *s
}

func lfsrStep(x uint64) uint64 {
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	return x
}

func lfsrChecksum(c, w uint64) uint64 { return (c ^ w) * lfsrChecksumPrime }

// lfsrSeed maps 0, which would stick the generator at zero, to a default.
func lfsrSeed(seed uint64) uint64 {
	if seed == 0 {
		return lfsrDefaultSeed
	}
	return seed
}

// lfsrFill writes the next cycle's inputs into v.
func lfsrFill(s *uint64, ports Ports, v Vector) {
	off := 0
	for i, p := range ports.In {
		lfsrPort(s, i, p, v[off:off+p.Words()])
		off += p.Words()
	}
}

// isReset reports whether input i, port p, is the reset, which the
// stimuli draw apart from the data inputs (PortsOf puts it first).
func isReset(i int, p Port) bool { return i == 0 && p.Name == hdl.ResetName }

// lfsrPort writes the next value of input i, port p, into w.
func lfsrPort(s *uint64, i int, p Port, w []uint64) {
	x := lfsrNext(s)
	for k := range w {
		w[k] = 0
	}
	if isReset(i, p) {
		if x&63 == 0 {
			w[0] = 1
		}
		return
	}
	switch x >> 61 {
	case 0:
	case 1:
		for k := range w {
			w[k] = wordMask(p.Width, k)
		}
	case 2:
		w[(p.Width-1)/64] = 1 << uint((p.Width-1)%64)
	case 3:
		w[0] = x & 3 & wordMask(p.Width, 0)
	default:
		for k := range w {
			w[k] = lfsrNext(s) & wordMask(p.Width, k)
		}
	}
}

// outputHash is one cycle's hash of an output vector.
func outputHash(out []uint64) uint64 {
	h := uint64(lfsrChecksumInit)
	for _, w := range out {
		h = lfsrChecksum(h, w)
	}
	return h
}

// LFSR is the in-simulator stimulus as a Stimulus, for simulators that
// cannot make it themselves and for replaying a fast-mode failure.
type LFSR struct {
	ports Ports
	s     uint64
}

// NewLFSR returns the in-simulator stimulus for ports from seed.
func NewLFSR(ports Ports, seed uint64) *LFSR { return &LFSR{ports: ports, s: lfsrSeed(seed)} }

// Fill implements Stimulus; cycles must be asked for in order.
func (l *LFSR) Fill(_ uint64, v Vector) { lfsrFill(&l.s, l.ports, v) }

// lfsrC is the generator in C++. A one-word input's case is picked without
// a branch (the case by x >> 61 is random, so a branch on it mispredicts
// about every other input): its value is the port's entry of a table of
// cases (0, all ones, the sign bit, 3, then all ones for the uniform
// cases) ANDed with all ones (lfsrConstant), with x, or with the next
// draw, which the generator then keeps (lfsrStep, through a mask).
const lfsrC = `static inline uint64_t lfsrStep(uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}
static inline uint64_t lfsrNext(uint64_t* s) { return *s = lfsrStep(*s); }
static const uint64_t lfsrConstant[8] = {0, ~0ULL, ~0ULL, 0, 0, 0, 0, 0};
static const uint64_t lfsrChecksumInit = 0xcbf29ce484222325ULL;
static inline uint64_t lfsrChecksum(uint64_t c, uint64_t w) { return (c ^ w) * 0x100000001b3ULL; }

`
