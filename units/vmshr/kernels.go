package vmshr

// The model's kernels: memory access skeletons of section 6.3.2 standing
// for the benchmarks of Table 6.3, each a loop body of ALU blocks, loads
// and stores run by every warp of every CTA.

// Pattern is a memory instruction's per-thread address, one of 6.3.2's two
// skeletons or an access the analyzer fails on.
type Pattern struct {
	// Skeleton 1: η = a·tid.z + b·ctaid.y + c·tid.y + d·ctaid.x + e·tid.x
	// + f, plus Step per loop iteration (6.5.2: patterns in loops with a
	// constant step are one valid pattern); the kernels are 2D (tid.z = 0,
	// so a plays no part).
	B, C, D, E, F, Step int64
	DataSize            int
	// Skeleton 2 (Skewed): (η[H1:L1] << S1 | η[H0:0]) + F2, the sections
	// normalised so l0 = s0 = 0, α = 1.
	Skewed         bool
	H1, L1, S1, H0 int
	F2             int64
	// Gather: each thread reads a pseudo-random element of Span bytes
	// from F: the analysis fails (Table 6.4's AF).
	Gather bool
	Span   int64
	// Every > 1: only the warps with hash(cta, warp, iteration) % Every ==
	// 0 execute the instruction (inter-warp control flow divergence, which
	// the launch-time analysis cannot see).
	Every int
}

// Op is an instruction class.
type Op int

const (
	ALU Op = iota
	Load
	Store
)

// Instr is one instruction of a kernel's loop body: N ALU instructions, or
// a load or store with its pattern.
type Instr struct {
	Op  Op
	N   int
	Pat Pattern
}

// Kernel is a CUDA-like kernel: a grid of CTAs of BlockX x BlockY threads
// running Iters times a loop Body.
type Kernel struct {
	Name  string // the model's name
	Paper string // the Table 6.3 benchmarks it stands for
	Doc   string
	// Regular, Gather, Divergent: the classes the acceptance compares.
	Class          Class
	BlockX, BlockY int
	GridX, GridY   int
	Iters          int
	Body           []Instr
}

// Class is a kernel's kind of horizontal locality.
type Class int

const (
	Regular   Class = iota // contiguous among neighbour warps: larger granularity helps
	Gathered               // the analysis fails: 32 B, the baseline's behaviour
	Divergent              // contiguous, but neighbour warps do not all load
)

var classNames = [...]string{"regular", "gather", "divergent"}

func (c Class) String() string { return classNames[c] }

// Threads is the CTA size.
func (k *Kernel) Threads() int { return k.BlockX * k.BlockY }

// CTAs is the grid size.
func (k *Kernel) CTAs() int { return k.GridX * k.GridY }

// Access is the pattern as Alg. 6.1 reads it for kernel k.
func (p Pattern) Access(k *Kernel) Access {
	return Access{DataSize: p.DataSize, BlockDimX: k.BlockX, D: int(p.D), E: int(p.E),
		Skewed: p.Skewed, L1: p.L1, S1: p.S1, H0: p.H0}
}

// Gran is the granularity the launch-time scheduler gives a memory
// instruction (Alg. 6.1 with Table 6.2's 32 B minimum and 256 B
// interleaving; 32 B when the analysis fails), and the deciding line (0
// for an analysis fail).
func (p Pattern) Gran(k *Kernel) (gran, line int) {
	if p.Gather {
		return NormalBlock, 0
	}
	return Granularity(p.Access(k), NormalBlock, Interleave)
}

// thread is one thread's coordinates.
type thread struct{ tidX, tidY, ctaX, ctaY int }

// mix is a 64-bit hash step (splitmix64's finalizer).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Addr is thread th's byte address in iteration it.
func (p Pattern) Addr(th thread, it int) uint64 {
	if p.Gather {
		h := mix(uint64(th.ctaY)<<48 ^ uint64(th.ctaX)<<32 ^ uint64(th.tidY)<<16 ^ uint64(th.tidX) ^ uint64(it)<<56)
		return uint64(p.F) + h%uint64(p.Span/int64(p.DataSize))*uint64(p.DataSize)
	}
	y := p.B*int64(th.ctaY) + p.C*int64(th.tidY) + p.D*int64(th.ctaX) + p.E*int64(th.tidX) + p.F + p.Step*int64(it)
	if !p.Skewed {
		return uint64(y)
	}
	u := uint64(y)
	hi := u >> p.L1 & (1<<(p.H1-p.L1+1) - 1)
	lo := u & (1<<(p.H0+1) - 1)
	return hi<<p.S1 | lo + uint64(p.F2)
}

// Executes reports whether warp w of CTA cta runs the instruction in
// iteration it.
func (p Pattern) Executes(cta, w, it int) bool {
	return p.Every <= 1 || mix(uint64(cta)<<32^uint64(w)<<16^uint64(it))%uint64(p.Every) == 0
}

// Arrays live 16 MB plus 16 KB apart: 4 MB plus 4 KB apart in each
// channel, so arrays read side by side start in different banks (a
// channel's bank is bits 12-14 of its local address) and never share a
// row.
const arrayGap = 16<<20 + 16<<10

func array(i int) int64 { return int64(i) * arrayGap }

// Kernels are the model's workloads. Sizes keep each run to a few tens of
// thousands of core cycles: every core gets a few CTAs of 8 or more warps.
func Kernels() []*Kernel {
	const f4 = 4 // float
	return []*Kernel{
		{
			Name: "stream", Paper: "SP, RD", Class: Regular,
			Doc:    "a grid-stride loop over two float arrays (scalar product): 1 KB per CTA, 256 B hyper blocks (Alg. 6.1 line 9); 8 CTAs per core, 4 at a time",
			BlockX: 256, BlockY: 1, GridX: 128, GridY: 1, Iters: 3,
			Body: []Instr{
				{Op: Load, Pat: Pattern{D: 256 * f4, E: f4, F: array(0), Step: 128 * 256 * f4, DataSize: f4}},
				{Op: Load, Pat: Pattern{D: 256 * f4, E: f4, F: array(1), Step: 128 * 256 * f4, DataSize: f4}},
				{Op: ALU, N: 3},
			},
		},
		{
			Name: "tile", Paper: "MM, COV", Class: Regular,
			Doc:    "16x16 tiles of a 1024-float-wide matrix, two tiles per step along k: 64 B per tile row, 64 B hyper blocks (line 13)",
			BlockX: 16, BlockY: 16, GridX: 8, GridY: 8, Iters: 8,
			Body: []Instr{
				{Op: Load, Pat: Pattern{B: 16 * 1024 * f4, C: 1024 * f4, D: 16 * f4, E: f4, F: array(2), Step: 16 * 1024 * f4 * 8, DataSize: f4}},
				{Op: Load, Pat: Pattern{B: 16 * 1024 * f4, C: 1024 * f4, D: 16 * f4, E: f4, F: array(3), Step: 16 * f4 * 8, DataSize: f4}},
				{Op: ALU, N: 8},
			},
		},
		{
			Name: "row", Paper: "FWT", Class: Regular,
			Doc:    "32-thread rows of 128 B, one row per warp, rows 8 KB apart: 128 B hyper blocks (line 13)",
			BlockX: 32, BlockY: 8, GridX: 64, GridY: 1, Iters: 6,
			Body: []Instr{
				{Op: Load, Pat: Pattern{C: 8192, D: 32 * f4, E: f4, F: array(4), Step: 8 * 8192, DataSize: f4}},
				{Op: ALU, N: 2},
				{Op: Store, Pat: Pattern{C: 8192, D: 32 * f4, E: f4, F: array(5), Step: 8 * 8192, DataSize: f4}},
			},
		},
		{
			Name: "transpose", Paper: "TRA", Class: Regular,
			Doc:    "16x16 tiles of a 128x128 matrix read along rows (64 B hyper blocks) and written along columns (32 B stores)",
			BlockX: 16, BlockY: 16, GridX: 8, GridY: 8, Iters: 1,
			Body: []Instr{
				{Op: Load, Pat: Pattern{B: 16 * 128 * f4, C: 128 * f4, D: 16 * f4, E: f4, F: array(6), DataSize: f4}},
				{Op: ALU, N: 2},
				{Op: Store, Pat: Pattern{B: 16 * f4, C: f4, D: 16 * 128 * f4, E: 128 * f4, F: array(7), DataSize: f4}},
			},
		},
		{
			Name: "skewed", Paper: "CFD, LIB", Class: Regular,
			Doc:    "skeleton 2: 1 KB sections (h0 = 9) of a contiguous index scattered 64 KB apart (l1 = 10, s1 = 16): 256 B hyper blocks",
			BlockX: 256, BlockY: 1, GridX: 64, GridY: 1, Iters: 6,
			Body: []Instr{
				{Op: Load, Pat: Pattern{D: 256 * f4, E: f4, Step: 64 * 256 * f4, DataSize: f4, Skewed: true, H1: 20, L1: 10, S1: 16, H0: 9, F2: array(8)}},
				{Op: ALU, N: 4},
			},
		},
		{
			Name: "gather", Paper: "WP, NN, SC", Class: Gathered,
			Doc:    "each thread reads a pseudo-random float of a 4 MB table: the analysis fails, 32 B",
			BlockX: 256, BlockY: 1, GridX: 64, GridY: 1, Iters: 2,
			Body: []Instr{
				{Op: Load, Pat: Pattern{F: array(9), Span: 4 << 20, DataSize: f4, Gather: true}},
				{Op: ALU, N: 4},
			},
		},
		{
			Name: "divergent", Paper: "BFS, LPS", Class: Divergent,
			Doc:    "stream's contiguous loads (256 B hyper blocks), but a warp takes the loading path with probability 1/4 (a hash of CTA, warp and iteration)",
			BlockX: 256, BlockY: 1, GridX: 64, GridY: 1, Iters: 12,
			Body: []Instr{
				{Op: Load, Pat: Pattern{D: 256 * f4, E: f4, F: array(10), Step: 64 * 256 * f4, DataSize: f4, Every: 4}},
				{Op: ALU, N: 3},
			},
		},
	}
}
