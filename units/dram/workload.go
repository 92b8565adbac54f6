package dram

import "fmt"

// The workloads the model runs in place of Table 5.2's benchmarks: one
// skeleton per benchmark, built from what the benchmark's kernel does to
// memory. A skeleton's warps take work items (a warp's share of the
// kernel's loop: 32 elements, a tile, a frontier chunk) from one counter,
// in order, as the warps of a grid-strided loop do, so that neighbouring
// items run at about the same time on different cores. An item is a fixed
// list of memory instructions (Steps), each reading or writing one 128 B
// line (a coalesced access), with Compute compute instructions before
// each. Where the lines of an item come from is the skeleton:
//   - Seq: the item's own lines of an array, Count consecutive lines per
//     item (streams: no reuse, full rows).
//   - Shared: a line that Times consecutive items read (TRANS's tiles each
//     read half of a line).
//   - Window: a line drawn at random from a window of Lines lines of an
//     array that moves one line on every Advance items (the neighbours of
//     a BFS frontier, the search paths of a merge pass: the lines many
//     cores gather at about the same time).
//   - Near: a line drawn at random within Spread lines of the item's own
//     (an unstructured mesh's or a stencil's neighbours).
//   - Hot: a line drawn at random from a fixed set of Lines lines (cluster
//     centres).
//   - Random: any line of the array (pointer chasing).
//   - Transposed: the item's line of a matrix of Width-line rows walked by
//     columns (TRANS's writes).
// Compute is the benchmark's instructions per memory instruction; the
// class of 5.2 follows from the model's perfect-DRAM speedup and merge
// share (the report's first table), by the thesis's thresholds.

// Workload is a benchmark skeleton.
type Workload struct {
	Name, Bench string // Table 5.2's abbreviation, in lower case, and its name
	Class       Class  // Table 5.2's class
	Compute     int    // compute instructions per memory instruction
	Steps       []Step // one work item's memory instructions
	How         string // how the knobs were set
}

// StepKind is where a step's lines come from.
type StepKind int

const (
	Seq StepKind = iota
	Shared
	Window
	Near
	Hot
	Random
	Transposed
)

// Step is Count memory instructions of one kind on one array.
type Step struct {
	Kind    StepKind
	Array   int  // 0..3
	Store   bool // a store, else a load
	Count   int
	Times   int // Shared: items reading each line
	Lines   int // Window, Hot: the set's lines
	Advance int // Window: items per line the window moves
	Spread  int // Near: lines either side
	Width   int // Transposed: a row's lines
}

// Class is a benchmark class of section 5.2 (Table 5.2).
type Class int

const (
	HIL         Class = iota // memory sensitive, high inter-core locality
	LIL                      // memory sensitive, low inter-core locality
	Insensitive              // memory insensitive
)

// Classes are the classes in Table 5.2's order of chapter 6.
var Classes = []Class{HIL, LIL, Insensitive}

func (c Class) String() string { return [...]string{"HIL", "LIL", "insensitive"}[c] }

// Section 5.2's thresholds.
const (
	SensitiveSpeedup = 0.20 // memory sensitive: perfect DRAM speeds up by more (Fig. 5.1)
	HILMergeShare    = 0.10 // high inter-core locality: a merge length > 1 in more of the cycles (Fig. 5.2)
)

// Classify is section 5.2's classification from the perfect-DRAM speedup
// (perfect over real IPC, less one) and the share of cycles with an MSHR
// merge length > 1.
func Classify(speedup, mergeShare float64) Class {
	switch {
	case speedup < SensitiveSpeedup:
		return Insensitive
	case mergeShare > HILMergeShare:
		return HIL
	}
	return LIL
}

// arrayLines is each array's size: four arrays of 512 MB fill 2 GB, so
// that a line number fits the 24-bit block address of section 4.5 (the
// canonical dram-sched's blkbits). An array's index wraps within it.
const arrayLines = 1 << 22

// Presets are Table 5.2's benchmarks the model has a skeleton of: every
// memory sensitive one and three insensitive ones.
var Presets = []Workload{
	{Name: "bfs", Bench: "Breadth-First Search", Class: HIL, Compute: 2,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 2}, {Kind: Seq, Array: 1, Count: 2},
			{Kind: Window, Array: 2, Count: 4, Lines: 64, Advance: 8}, {Kind: Seq, Array: 3, Store: true, Count: 1}},
		How: "a frontier chunk: 2 lines of node records, 2 of its edge list, 4 gathers of the neighbours' levels from the window the next frontier lies in (64 lines, moving a line per 8 chunks), the new levels stored; 2 instructions per access (a compare and an add)"},
	{Name: "sssp", Bench: "Single Source Shortest Path", Class: HIL, Compute: 3,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 2}, {Kind: Seq, Array: 1, Count: 3},
			{Kind: Window, Array: 2, Count: 4, Lines: 64, Advance: 8}, {Kind: Seq, Array: 3, Store: true, Count: 1}},
		How: "BFS's frontier with edge weights: 3 lines of edges and weights, 4 gathers of the neighbours' distances; 3 instructions per access (the relaxation's add, compare, select)"},
	{Name: "sp", Bench: "Survey Propagation", Class: HIL, Compute: 1,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 2}, {Kind: Window, Array: 2, Count: 6, Lines: 1024, Advance: 2},
			{Kind: Seq, Array: 3, Store: true, Count: 1}},
		How: "a chunk of clauses: 2 lines of clause records, 6 gathers of their literals' surveys from the window the clauses of a chunk range share (1,024 lines, moving a line per 2 chunks), the surveys stored; 1 instruction per access. Set so that the model measures its Table 5.2 class: with a 128-line window and 4 instructions per access every gather hit the L2 and the model measured it insensitive"},
	{Name: "trans", Bench: "Matrix Transpose", Class: HIL, Compute: 1,
		Steps: []Step{{Kind: Shared, Array: 0, Count: 1, Times: 2}, {Kind: Transposed, Array: 1, Store: true, Count: 1, Width: 64}},
		How:   "16x16 tiles of floats: a tile row is half a 128 B line, so the two tiles beside each other read each input line; the tile is written transposed, a line of each of 64-line rows; 1 instruction per access"},
	{Name: "mgst", Bench: "Merge Sort", Class: HIL, Compute: 2,
		Steps: []Step{{Kind: Window, Array: 0, Count: 2, Lines: 32, Advance: 32}, {Kind: Seq, Array: 1, Count: 2},
			{Kind: Seq, Array: 2, Store: true, Count: 2}},
		How: "a merge pass: 2 probes of the binary search for the chunk's start in the runs' boundaries (the same 32 lines for the chunks of a run pair), 2 lines of the two runs, 2 lines of output; 2 instructions per access"},
	{Name: "bs", Bench: "BlackScholes", Class: LIL, Compute: 6,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 1}, {Kind: Seq, Array: 1, Count: 1}, {Kind: Seq, Array: 2, Count: 1},
			{Kind: Seq, Array: 3, Store: true, Count: 2}},
		How: "options streamed: price, strike and time read, call and put written; 6 instructions per access (the option formula's ~30 over 5 accesses)"},
	{Name: "cfd", Bench: "CFD Solver", Class: LIL, Compute: 2,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 2}, {Kind: Near, Array: 0, Count: 2, Spread: 1 << 18},
			{Kind: Seq, Array: 3, Store: true, Count: 1}},
		How: "an unstructured mesh: 2 lines of the cells' variables, 2 gathers of neighbours' variables within 2^18 lines, the fluxes written; 2 instructions per access. Set so that the model measures its Table 5.2 class: within 1,024 lines the cells in flight gathered the same lines (92% of the cycles with merges: HIL) and at 4 instructions per access it measured insensitive"},
	{Name: "ndl", Bench: "Needleman-Wunsch", Class: LIL, Compute: 3,
		Steps: []Step{{Kind: Transposed, Array: 0, Count: 1, Width: 32}, {Kind: Transposed, Array: 1, Count: 1, Width: 32},
			{Kind: Transposed, Array: 2, Store: true, Count: 1, Width: 32}},
		How: "a wavefront of 16x16 blocks along the diagonals: each block's rows of the reference and score matrices read a line per 32-line row, its scores written; 3 instructions per access (max of three)"},
	{Name: "stmcl", Bench: "Streamcluster", Class: LIL, Compute: 3,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 2}, {Kind: Hot, Array: 1, Count: 2, Lines: 16}, {Kind: Seq, Array: 3, Store: true, Count: 1}},
		How:   "points streamed against the centres: 2 lines of coordinates, 2 of the 16 lines of centres (the L2 keeps them), the assignment written; 3 instructions per access (the distance)"},
	{Name: "pta", Bench: "Points-to Analysis", Class: LIL, Compute: 2,
		Steps: []Step{{Kind: Random, Array: 0, Count: 3}, {Kind: Random, Array: 1, Store: true, Count: 1}},
		How:   "pointer chasing: 3 loads of random nodes of the constraint graph, a points-to set updated at random; 2 instructions per access"},
	{Name: "vadd", Bench: "VectorAdd", Class: LIL, Compute: 1,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 1}, {Kind: Seq, Array: 1, Count: 1}, {Kind: Seq, Array: 2, Store: true, Count: 1}},
		How:   "c = a + b streamed: 2 lines read, 1 written; 1 instruction per access"},
	{Name: "hotsp", Bench: "HotSpot", Class: Insensitive, Compute: 16,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 1}, {Kind: Seq, Array: 1, Count: 1}, {Kind: Near, Array: 0, Count: 1, Spread: 8},
			{Kind: Seq, Array: 2, Store: true, Count: 1}},
		How: "a stencil: temperature and power lines, a neighbour row's line, the new temperature written; 16 instructions per access (the stencil's iterations in shared memory)"},
	{Name: "kmn", Bench: "Kmeans", Class: Insensitive, Compute: 20,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 1}, {Kind: Hot, Array: 1, Count: 2, Lines: 16}, {Kind: Seq, Array: 3, Store: true, Count: 1}},
		How:   "points against the centres as Streamcluster, with the distances to every centre computed per point: 20 instructions per access"},
	{Name: "srad", Bench: "Speckle Reducing Anisotropic Diffusion", Class: Insensitive, Compute: 12,
		Steps: []Step{{Kind: Seq, Array: 0, Count: 2}, {Kind: Near, Array: 0, Count: 2, Spread: 8}, {Kind: Seq, Array: 1, Store: true, Count: 2}},
		How:   "an image stencil: 2 lines of the image, 2 of the rows beside, the coefficients and the new image written; 12 instructions per access (the diffusion's divisions)"},
}

// Workloads are the presets' names.
var Workloads = func() []string {
	var names []string
	for _, w := range Presets {
		names = append(names, w.Name)
	}
	return names
}()

// Preset is the preset workload of that name.
func Preset(name string) (Workload, error) {
	for _, w := range Presets {
		if w.Name == name {
			return w, nil
		}
	}
	return Workload{}, fmt.Errorf("dram model: no workload %q", name)
}

func (w Workload) check() error {
	bad := len(w.Steps) == 0 || w.Compute < 0
	for _, s := range w.Steps {
		bad = bad || s.Count < 1 || s.Array < 0 || s.Array > 3 ||
			s.Kind == Shared && s.Times < 1 || (s.Kind == Window || s.Kind == Hot) && s.Lines < 1 ||
			s.Kind == Window && s.Advance < 1 || s.Kind == Near && s.Spread < 0 || s.Kind == Transposed && s.Width < 1
	}
	if bad {
		return fmt.Errorf("dram model: workload %q: compute %d, steps %+v", w.Name, w.Compute, w.Steps)
	}
	return nil
}

// memOp is a memory instruction: the line it loads or stores.
type memOp struct {
	line  uint64
	store bool
}

// program hands out the work items.
type program struct {
	w     Workload
	items uint64 // items taken
}

// next is warp wp's next memory instruction: the next of its item's,
// taking a new item after the last.
func (p *program) next(wp *warpCtx) memOp {
	if wp.step == len(p.w.Steps) || !wp.working {
		wp.item, wp.step, wp.k, wp.working = p.items, 0, 0, true
		p.items++
	}
	s := p.w.Steps[wp.step]
	op := memOp{line: uint64(s.Array)*arrayLines + s.line(wp.item, wp.k, wp)%arrayLines, store: s.Store}
	if wp.k++; wp.k == s.Count {
		wp.step, wp.k = wp.step+1, 0
	}
	return op
}

// line is the line within its array of instruction k of item i.
func (s Step) line(i uint64, k int, wp *warpCtx) uint64 {
	n := uint64(s.Count)
	switch s.Kind {
	case Shared:
		return i/uint64(s.Times)*n + uint64(k)
	case Window:
		return i/uint64(s.Advance) + wp.rand()%uint64(s.Lines)
	case Near:
		return i*n + arrayLines + wp.rand()%uint64(2*s.Spread+1) - uint64(s.Spread) // past 0: wraps
	case Hot:
		return wp.rand() % uint64(s.Lines)
	case Random:
		return wp.rand() % arrayLines
	case Transposed: // within each Width x Width tile of lines, by columns
		w, j := uint64(s.Width), i*n+uint64(k)
		t, r := j/(w*w), j%(w*w)
		return t*w*w + r%w*w + r/w
	}
	return i*n + uint64(k)
}

// rand is the warp's next pseudo-random number (splitmix64).
func (wp *warpCtx) rand() uint64 {
	wp.rng += 0x9e3779b97f4a7c15
	z := wp.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
