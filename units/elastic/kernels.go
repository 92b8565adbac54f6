package elastic

import "math/rand/v2"

// The synthetic kernels of the cycle model (model.go): the eight
// bank-conflicting benchmarks of thesis Table 5.5 and the five
// conflict-free originals of Fig. 5.11. Each kernel is a program written
// per warp from the CUDA code it is named after, so that its
// shared-memory addresses are the real ones (a 16×16 transpose tile read
// by column, the SDK's reduce1 tree, 8×8 DCT blocks read along rows, AES
// T-box gathers at random bytes) and its bank conflict degrees come out of
// ConflictDegree rather than being set. Only the instruction mix, the
// number of non-memory instructions between the accesses, is fitted, so
// that the intensity r measured on the baseline is Table 5.5's within 5%;
// the average degree then falls out of the addresses (see each kernel's
// comment for how the layout gives it).
//
// Counting, as the model does (Result.R, Result.Degree): a warp
// instruction issues as its K subwarps (SIMD instructions); r is the
// shared-memory subwarps over all issued subwarps, and the average degree
// is the cycles a shared-memory subwarp holds MEM0 averaged over the
// subwarps with at least one enabled lane (a subwarp whose lanes are all
// disabled issues but touches no bank). The paper counts r over thread
// instructions (Table 5.5's "executed by all 128 scalar pipelines"); the
// two agree whenever a warp's lanes are all active, and differ only for
// Reduction (partial warps in its tree) and the half-warp copy loops of
// DCT_short, whose mix is fitted to the SIMD count. Table 5.5's
// Reduction degree, 3.07, is exactly the reduce1 tree's 414 cycles over
// 135 non-empty subwarps, which is how we know the paper counts degree
// this way.

// Waves is how many times over each kernel fills its CTA slots in a
// run. After a barrier every warp of a CTA reaches the next shared-memory
// instruction together, so the first wave meets each PC with an empty
// history cache (compulsory misses, predicting no conflict) and stalls as
// the baseline does; sixteen waves make that the small part the paper
// reports (section 5.6.1: "negligible"). The paper's grids give 2 to 1024
// CTAs a core (Table 5.5's grid over 16 cores).
const Waves = 16

// Kind is what a warp instruction does.
type Kind uint8

const (
	// ALU is a non-memory instruction (a non-memory warp, 5.4.1).
	ALU Kind = iota
	// Shared is a shared-memory access: Addr holds each thread's word
	// address, and its subwarps' degrees (ConflictDegree) hold MEM0.
	Shared
	// Load is a global load: its subwarps pass the MEM stages (the
	// request leaving at the MEM tail) and their data returns through
	// the interconnect after the model's latency.
	Load
	// Store is a global store: the request leaves at the MEM tail and
	// nothing returns.
	Store
	// Cached is a texture or constant fetch that hits its on-core cache
	// (AES's key schedule): it passes the MEM stages without conflict.
	Cached
	// Barrier is __syncthreads: a non-memory instruction after which
	// the warp waits until every warp of its CTA has passed it.
	Barrier
)

// Mem reports whether a warp whose next instruction is of kind k is a
// memory warp (section 5.4.1): it takes the MEM path, and bank-conflict
// aware scheduling masks it.
func (k Kind) Mem() bool { return k == Shared || k == Load || k == Store || k == Cached }

// Inst is one warp instruction.
type Inst struct {
	Kind Kind
	// PC is the instruction's position in the kernel's code, counting
	// every instruction from 0 (section 5.5.4's 14-bit PC counts
	// instructions: "kernels with up to 16K instructions"): an unrolled
	// loop's copies have their own, a loop's instructions keep theirs in
	// every iteration (warpGen.loop). A Shared instruction's PC is the
	// history cache's key (5.5.2).
	PC int
	// Addr is, for Shared, thread i's word address at Addr[i], or -1
	// when thread i is inactive (branched off, or past the CTA's end).
	Addr []int
}

// Kernel is one benchmark: a CTA of Threads threads runs Program for each
// of its warps; Slots CTAs run on the core at a time (Table 5.5's
// CTAs/core) and CTAs() run in all, a new one starting in a slot when
// the previous one there has finished.
type Kernel struct {
	Name      string
	Threads   int  // threads per CTA (Table 5.5's CTA Dim)
	Slots     int  // CTAs on the core at a time (Table 5.5's CTAs/core)
	Irregular bool // Table 5.5's irregular shared-memory pattern
	Seed      uint64
	body      func(w *warpGen)
}

// CTAs is how many CTAs one run executes: Waves waves of Slots.
func (k Kernel) CTAs() int { return Waves * k.Slots }

// Warps is the number of warps of warp threads a CTA has.
func (k Kernel) Warps(warp int) int { return (k.Threads + warp - 1) / warp }

// Program is the instructions warp w of CTA cta executes, for warps of
// warp threads. It is deterministic: the random bytes AES gathers at come
// from a generator seeded by the kernel's Seed, cta and w.
func (k Kernel) Program(cta, w, warp int) []Inst {
	g := &warpGen{rng: rand.New(rand.NewPCG(k.Seed, uint64(cta)<<32|uint64(w)))}
	for i := range warp {
		t := w*warp + i
		if t >= k.Threads {
			t = -1
		}
		g.tids = append(g.tids, t)
	}
	k.body(g)
	return g.insts
}

// warpGen builds one warp's program; tids[i] is thread i's index in its
// CTA, -1 past the CTA's end. pc is the code position of the next
// instruction; while skipping, the warp passes over code it does not
// execute.
type warpGen struct {
	tids     []int
	rng      *rand.Rand
	insts    []Inst
	pc       int
	skipping bool
}

// emit appends in at the next code position, unless the warp skips it.
func (g *warpGen) emit(in Inst) {
	in.PC = g.pc
	g.pc++
	if !g.skipping {
		g.insts = append(g.insts, in)
	}
}

// alu appends n non-memory instructions.
func (g *warpGen) alu(n int) {
	for range n {
		g.emit(Inst{Kind: ALU})
	}
}

// op appends one instruction of kind k that has no address (Load, Store,
// Cached, Barrier).
func (g *warpGen) op(k Kind) { g.emit(Inst{Kind: k}) }

// loop runs body for i = 0..n-1 over the same code: every iteration's
// instructions take the first iteration's code positions (a loop the
// compiler does not unroll).
func (g *warpGen) loop(n int, body func(i int)) {
	start, end := g.pc, g.pc
	for i := range n {
		g.pc = start
		body(i)
		end = g.pc
	}
	g.pc = end
}

// branch runs body's code only when some thread of the warp satisfies p
// (a uniform branch): a warp none of whose threads takes it passes over
// the code.
func (g *warpGen) branch(p func(t int) bool, body func()) {
	skipping := g.skipping
	g.skipping = skipping || !g.some(p)
	body()
	g.skipping = skipping
}

// some reports whether a thread of the warp satisfies p: a warp none of
// whose threads takes a branch skips it (uniform branch).
func (g *warpGen) some(p func(t int) bool) bool {
	for _, t := range g.tids {
		if t >= 0 && p(t) {
			return true
		}
	}
	return false
}

// shared appends the shared-memory access in which thread t reads or
// writes word addr(t) when it is active (ok); a warp without an active
// thread skips it.
func (g *warpGen) shared(addr func(t int) (a int, ok bool)) {
	as := make([]int, len(g.tids))
	active := false
	for i, t := range g.tids {
		as[i] = -1
		if t < 0 {
			continue
		}
		if a, ok := addr(t); ok {
			as[i], active = a, true
		}
	}
	skipping := g.skipping
	g.skipping = skipping || !active
	g.emit(Inst{Kind: Shared, Addr: as})
	g.skipping = skipping
}

// all is addr for an access every thread makes.
func all(f func(t int) int) func(t int) (int, bool) {
	return func(t int) (int, bool) { return f(t), true }
}

// Kernels is the eight bank-conflicting kernels of Table 5.5, in its
// order, as the evaluation of 5.6.1-5.6.2 runs them (the SDK's padding
// undone).
func Kernels() []Kernel {
	return []Kernel{
		aes("AES_encypt", 281, 1),
		aes("AES_decypt", 284, 2),
		reduction(),
		transpose("Transpose", 0),
		dct("DCT", 0, 64),
		dct("IDCT", 0, 66),
		dctShort("DCT_short", 0, 100),
		dctShort("IDCT_short", 0, 99),
	}
}

// ConflictFreeKernels is the five kernels marked * in Table 5.5 as the
// CUDA SDK ships them, hand-padded against bank conflicts (Fig. 5.11),
// named with the *.
func ConflictFreeKernels() []Kernel {
	return []Kernel{
		transpose("Transpose*", 1),
		dct("DCT*", 1, 64),
		dct("IDCT*", 1, 66),
		dctShort("DCT_short*", 1, 100),
		dctShort("IDCT_short*", 1, 99),
	}
}

// transpose is the SDK's transpose: a 16×16 CTA copies a tile of the
// matrix into shared memory by rows (thread (tx, ty) writes word
// ty·S + tx), waits at the barrier, and writes the transposed tile out
// reading it by columns (word tx·S + ty). A subwarp is 8 consecutive tx of
// one ty, so the row write takes 8 banks (degree 1) and, without the
// padding column (S = 16), the column read puts all 8 lanes in bank ty mod
// 8 (degree 8): the average 4.5 of Table 5.5. The SDK's tile has S = 17
// (pad = 1), where the column read takes 8 banks too. 54 instructions a
// thread, 2 of them shared (Table 5.5: 3538944 / 65536 threads, r =
// 3.7%).
func transpose(name string, pad int) Kernel {
	s := 16 + pad
	return Kernel{Name: name, Threads: 256, Slots: 4, body: func(g *warpGen) {
		g.alu(24) // tile indexes, bounds check
		g.op(Load)
		g.shared(all(func(t int) int { return t/16*s + t%16 }))
		g.op(Barrier)
		g.alu(22) // transposed indexes, bounds check
		g.shared(all(func(t int) int { return t%16*s + t/16 }))
		g.op(Store)
		g.alu(3)
	}}
}

// reduction is the SDK's reduce1 (interleaved addressing, the version
// with bank conflicts) on 256-thread CTAs: each thread stores its element
// to sdata[tid]; then for s = 1, 2, ..., 128 the threads with index =
// 2·s·tid < 256 add sdata[index + s] into sdata[index], a barrier after
// each level; thread 0 writes sdata[0] out. Its 5 shared-memory
// instructions (Table 5.5) are one store, the loop's two loads and store
// (one PC each, whatever the level: irregular) and the final load. A
// subwarp's 8 lanes read at stride 2s words: degree 2 at s = 1, 4 at
// s = 2, 8 from s = 4 while 8 lanes are active, then 4, 2, 1 as the tree
// thins, and warps without an active thread skip the body: 414 cycles over
// 135 non-empty subwarps, 3.07 (Table 5.5). The loop's 7 overhead
// instructions and the 12 of the prologue fit r = 4.0%.
func reduction() Kernel {
	const n = 256
	return Kernel{Name: "Reduction", Threads: n, Slots: 4, Irregular: true, body: func(g *warpGen) {
		g.alu(12) // tid, i, the bounds test
		g.op(Load)
		g.shared(all(func(t int) int { return t }))
		g.op(Barrier)
		g.loop(8, func(level int) { // s = 1, 2, 4, ..., 128
			s := 1 << level
			g.alu(7) // index = 2·s·tid, the test, the branch
			active := func(t int) bool { return 2*s*t < n }
			g.branch(active, func() {
				at := func(off int) func(t int) (int, bool) {
					return func(t int) (int, bool) { return 2*s*t + off, active(t) }
				}
				g.alu(2)
				g.shared(at(s))
				g.shared(at(0))
				g.alu(1)
				g.shared(at(0))
			})
			g.op(Barrier)
			g.alu(2) // s *= 2, the loop test
		})
		first := func(t int) bool { return t == 0 }
		g.branch(first, func() {
			g.shared(func(t int) (int, bool) { return 0, first(t) })
			g.alu(2)
			g.op(Store)
		})
		g.alu(1)
	}}
}

// dct is the SDK's CUDAkernel2DCT (and its inverse, which differs in the
// arithmetic only): an (8, 4, 2) CTA holds a 16×32 block of 8×8 blocks in
// shared memory at row stride S words. Thread (x, y, z) copies column
// y·8 + x of rows z·8..z·8+7 in and out (consecutive words: degree 1),
// transforms the column (words a row apart: x varies along the row,
// degree 1) and, first, the row z·8 + x of its 8×8 block (8 consecutive
// words; the 8 lanes of a subwarp are 8 rows apart, so S = 32 puts them
// all in one bank, degree 8). 48 shared accesses a thread, the 16 of the
// row pass at degree 8: (16·8 + 32)/48 = 3.33 (Table 5.5). The SDK's S
// is 33 (pad = 1): every access takes 8 banks. math is the arithmetic of
// each pass (64 for DCT, 66 for IDCT), which with the copy loops' address
// updates makes Table 5.5's 222 and 226 instructions a thread.
func dct(name string, pad, math int) Kernel {
	s := 32 + pad
	xyz := func(t int) (x, y, z int) { return t % 8, t / 8 % 4, t / 32 }
	col := func(i int) func(t int) (int, bool) { // row z·8+i, column y·8+x
		return all(func(t int) int { x, y, z := xyz(t); return (z*8+i)*s + y*8 + x })
	}
	row := func(j int) func(t int) (int, bool) { // row z·8+x, column y·8+j
		return all(func(t int) int { x, y, z := xyz(t); return (z*8+x)*s + y*8 + j })
	}
	return Kernel{Name: name, Threads: 64, Slots: 7, body: func(g *warpGen) {
		g.alu(11) // offsets
		copyIn(g, col)
		g.op(Barrier)
		pass(g, row, math)
		g.op(Barrier)
		pass(g, col, math)
		g.op(Barrier)
		copyOut(g, col)
	}}
}

// copyIn copies 8 words a thread from global into shared memory at at(i),
// an address update before each load (unrolled, as the loops below).
func copyIn(g *warpGen, at func(i int) func(t int) (int, bool)) {
	for i := range 8 {
		g.alu(1)
		g.op(Load)
		g.shared(at(i))
	}
}

// copyOut copies 8 words a thread from shared memory at at(i) out to
// global memory, an address update before each.
func copyOut(g *warpGen, at func(i int) func(t int) (int, bool)) {
	for i := range 8 {
		g.alu(1)
		g.shared(at(i))
		g.op(Store)
	}
}

// pass is one in-place 8-point transform of a vector in shared memory:
// 8 loads, math arithmetic instructions, 8 stores; at(j) gives element
// j's addresses.
func pass(g *warpGen, at func(j int) func(t int) (int, bool), math int) {
	for j := range 8 {
		g.shared(at(j))
	}
	g.alu(math)
	for j := range 8 {
		g.shared(at(j))
	}
}

// dctShort is the SDK's CUDAkernelShortDCT and its inverse in words: an
// (8, 4, 4) CTA holds a 32×32 block of shorts, 16 words a row, at row
// stride S words. The threads of the row's first half (y < 2) copy a word
// each of 8 rows in and out (consecutive words, degree 1, half the
// subwarps of a warp without an active lane). The first pass reads and
// writes 8 words a thread along a row (degree 1 in either layout, the
// SDK's permuted thread order); the second reads and writes 4 words of
// the thread's own row z·8 + x, so the 8 lanes of a subwarp are 8 rows
// apart: one bank at S = 16 (degree 8), 8 banks at the SDK's S = 17
// (pad = 1). Per warp 128 non-empty shared subwarps, 32 at degree 8:
// 2.75 (Table 5.5); 40 shared instructions (Table 5.5's static count) and
// 311 in all for r = 10.3%. math is the first pass's arithmetic: 100 for
// the DCT, 99 for the inverse (Table 5.5: 337 and 336 instructions).
func dctShort(name string, pad, math int) Kernel {
	s := 16 + pad
	xyz := func(t int) (x, y, z int) { return t % 8, t / 8 % 4, t / 32 }
	copyWord := func(i int) func(t int) (int, bool) { // first half of the row
		return func(t int) (int, bool) { x, y, z := xyz(t); return (z*8+i)*s + y*8 + x, y < 2 }
	}
	along := func(j int) func(t int) (int, bool) { // row z·8+j, word (y·8+x) mod 16
		return all(func(t int) int { x, y, z := xyz(t); return (z*8+j)*s + (y*8+x)%16 })
	}
	own := func(j int) func(t int) (int, bool) { // row z·8+x, word y·4+j
		return all(func(t int) int { x, y, z := xyz(t); return (z*8+x)*s + y*4 + j })
	}
	return Kernel{Name: name, Threads: 128, Slots: 7, body: func(g *warpGen) {
		g.alu(20) // offsets, the permuted thread index
		copyIn(g, copyWord)
		g.op(Barrier)
		pass(g, along, math)
		g.op(Barrier)
		for j := range 4 {
			g.shared(own(j))
		}
		g.alu(116)
		for j := range 4 {
			g.shared(own(j))
		}
		g.op(Barrier)
		copyOut(g, copyWord)
	}}
}

// aes is the AES-256 kernel of [98] (Manavski; thesis Fig. 5.2), one
// 256-thread CTA per 64 blocks, four threads a 16-byte block: the
// prologue copies the input word and the four T-boxes and the S-box (256
// words each) into shared memory by thread index (degree 1); each of the
// 13 full rounds loads the four state bytes it needs (phase I: each group
// of four threads permutes its own four words, degree 1), gathers four
// T-box words at those bytes (phase II: eight random bytes into 8 banks,
// the irregular accesses, 2.6 cycles on average), fetches its round key
// word from the texture cache (Cached), XORs (phase III) and stores the
// new state byte by byte (phase IV, four stores); the last round gathers
// from the S-box; the result is read and written out. 177 shared accesses
// a thread, 56 of them gathers. The listing we found
// (aesDecrypt128) writes whole words in the full rounds and bytes only in
// the last: with word stores the gathers are 56 of 138 accesses and the
// average 1.65, 7% over Table 5.5's 1.54; byte stores give 1.51. Our
// reading, not checked against the paper's code. alu, the XOR and address
// arithmetic, fits r (281 instructions for encryption's 36.1%, 284 for
// decryption's 35.9%), spread as the code spreads it: an index
// extraction after each phase I load, address arithmetic before each
// gather and each store, the rest after the key fetch.
func aes(name string, alu int, seed uint64) Kernel {
	const (
		n      = 256
		rounds = 14
		state1 = 0 // stageBlock1; stageBlock2 is state1 + n
		tbox   = 2 * n
		sbox   = 6 * n
	)
	return Kernel{Name: name, Threads: n, Slots: 2, Irregular: true, Seed: seed, body: func(g *warpGen) {
		word := func(base int) func(t int) (int, bool) { return all(func(t int) int { return base + t }) }
		per := alu / (rounds + 1) // a round's share of the arithmetic
		g.alu(alu - per*rounds)
		g.op(Load)
		g.shared(word(state1))
		for b := range 4 {
			g.shared(word(tbox + b*n))
		}
		g.shared(word(sbox))
		g.op(Barrier)
		g.shared(word(state1))
		g.op(Cached)
		g.shared(word(state1 + n))
		g.op(Barrier)
		for r := 2; r <= rounds+1; r++ {
			src, dst := state1+n*(r%2), state1+n*((r+1)%2)
			for b := range 4 { // phase I: the state bytes, ShiftRows
				g.shared(all(func(t int) int { return src + t/4*4 + (t%4+b)%4 }))
				g.alu(1) // the byte, an index
			}
			for b := range 4 { // phase II: the gathers
				table := tbox + b*n
				if r == rounds+1 {
					table = sbox
				}
				g.alu(2) // the table address
				g.shared(all(func(int) int { return table + g.rng.IntN(256) }))
			}
			g.op(Cached)
			g.alu(per - 16) // phase III
			for range 4 {   // phase IV, byte by byte
				g.alu(1) // the byte's address
				g.shared(word(dst))
			}
			g.op(Barrier)
		}
		g.shared(word(state1 + n*((rounds+2)%2)))
		g.op(Store)
	}}
}
