package verify

// The speed benchmark drives every simulator with the same self-generated
// stimulus, computed inside each one (no pipe): a xorshift64 generator
// fills the input words in port order each cycle (masked to the port
// width; rst is 1 in cycle 0 only), and an FNV-1a style checksum folds in
// every output word every cycle. The three implementations below (Go, C++
// for the Verilator harness, Verilog for the Icarus bench) must stay word
// for word the same; equal checksums across simulators prove it.

const (
	lfsrChecksumInit  = 0xcbf29ce484222325
	lfsrChecksumPrime = 0x100000001b3
	lfsrDefaultSeed   = 0x9e3779b97f4a7c15
)

func lfsrNext(s *uint64) uint64 {
	x := *s
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*s = x
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

// lfsrVector fills v with cycle's benchmark inputs.
func lfsrVector(s *uint64, cycle uint64, ports Ports, v Vector) {
	off := 0
	for i, p := range ports.In {
		if i == 0 && p.Name == "rst" {
			v[0] = 0
			if cycle == 0 {
				v[0] = 1
			}
		} else {
			for k := range p.Words() {
				v[off+k] = lfsrNext(s) & wordMask(p.Width, k)
			}
		}
		off += p.Words()
	}
}

const lfsrC = `static inline uint64_t lfsrNext(uint64_t* s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return x;
}
static const uint64_t lfsrChecksumInit = 0xcbf29ce484222325ULL;
static inline uint64_t lfsrChecksum(uint64_t c, uint64_t w) { return (c ^ w) * 0x100000001b3ULL; }

`
