package dram

import "fmt"

// The synthetic workloads the model runs in place of Table 5.2's
// benchmarks: one for each class of section 5.2. Every warp repeats
// Compute compute instructions and one memory instruction, forever. Three
// knobs set a workload apart:
//   - Shared, the share of loads that go to a small sharing set of lines
//     many cores load at about the same time, as BFS's cores load a common
//     node (1.1). The set is a window of SetLines consecutive lines of a
//     shared array; a shared load takes a line of the window at random,
//     and the window moves on by a line every SharedLoadsPerLine shared
//     loads, so that a line draws about one load per core while it is in
//     the window. Loads of a line from several cores while its miss is
//     outstanding merge in its L2 MSHR entry: the inter-core locality of
//     Fig. 5.2.
//   - SetLines, the sharing set's size: the smaller, the more cores load a
//     line within its miss latency.
//   - Compute, the compute instructions per memory instruction: the fewer,
//     the more the workload waits on memory (Fig. 5.1).
//
// The rest is private traffic, the same in every workload: StoreShare of
// the memory instructions are stores, streaming through an output array;
// of the other loads RandomShare go to random lines of a large array (no
// reuse, no row locality) and the rest stream through an input array. A
// streaming access takes its array's next line, whichever warp makes it,
// as the warps of a grid-strided loop do: neighbouring lines, and a DRAM
// row's lines, are accessed at about the same time.

// Workload is a synthetic kernel.
type Workload struct {
	Name, Doc string
	Class     Class   // the class of 5.2 it stands for
	Shared    float64 // share of loads to the sharing set
	SetLines  int     // the sharing set's size, in lines
	Compute   int     // compute instructions per memory instruction
}

// Class is a benchmark class of section 5.2 (Table 5.2).
type Class int

const (
	HIL         Class = iota // memory sensitive, high inter-core locality
	LIL                      // memory sensitive, low inter-core locality
	Insensitive              // memory insensitive
)

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

// The traits all workloads share.
const (
	StoreShare         = 0.1      // memory instructions that are stores
	RandomShare        = 0.5      // private loads to random lines; the rest stream
	SharedLoadsPerLine = GPUCores // shared loads per line of the shared array, on average
	arrayLines         = 1 << 22  // each array: 512 MB
)

// The arrays' first lines: four arrays of arrayLines lines fill 2 GB, so
// that a line number fits the 24-bit block address of section 4.5 (the
// canonical dram-sched's blkbits). An array's index wraps within it.
const (
	sharedBase uint64 = iota * arrayLines
	streamBase
	storeBase
	randomBase
)

// Presets are the workloads of the report, one per class of section 5.2,
// their knobs tuned until the model classifies them so (the report's
// first table).
var Presets = []Workload{
	{Name: "hil", Class: HIL, Shared: 0.7, SetLines: 64, Compute: 2,
		Doc: "70% of the loads to a 64-line sharing set, 2 compute instructions per memory instruction (Table 5.2's BFS, SSSP, TRANS, MGST, SP)"},
	{Name: "lil", Class: LIL, Shared: 0.02, SetLines: 64, Compute: 1,
		Doc: "2% of the loads to a 64-line sharing set, 1 compute instruction per memory instruction (Table 5.2's BS, CFD, NDL, STMCL, PTA, VADD)"},
	{Name: "ins", Class: Insensitive, Shared: 0.3, SetLines: 64, Compute: 8,
		Doc: "30% of the loads to a 64-line sharing set, 8 compute instructions per memory instruction (Table 5.2's BACKP, HOTSP, KMN, ...)"},
}

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
	if w.Shared < 0 || w.Shared > 1 || w.SetLines < 1 || w.Compute < 0 {
		return fmt.Errorf("dram model: workload %q: shared %g, set %d lines, compute %d", w.Name, w.Shared, w.SetLines, w.Compute)
	}
	return nil
}

// memOp is a memory instruction: the line it loads or stores.
type memOp struct {
	line  uint64
	store bool
}

// program draws the warps' memory instructions: the sharing set's window
// and the streams are the run's, the random choices each warp's own.
type program struct {
	w       Workload
	window  uint64    // the sharing set's first line
	shared  uint64    // shared loads drawn
	streams [2]uint64 // the input and output streams' next lines
}

// next is warp wp's next memory instruction.
func (p *program) next(wp *warpCtx) memOp {
	stream := func(k int, base uint64) uint64 {
		p.streams[k]++
		return base + (p.streams[k]-1)%arrayLines
	}
	switch {
	case wp.chance(StoreShare):
		return memOp{line: stream(1, storeBase), store: true}
	case wp.chance(p.w.Shared):
		line := sharedBase + (p.window+wp.rand()%uint64(p.w.SetLines))%arrayLines
		if p.shared++; p.shared%SharedLoadsPerLine == 0 {
			p.window++
		}
		return memOp{line: line}
	case wp.chance(RandomShare):
		return memOp{line: randomBase + wp.rand()%arrayLines}
	}
	return memOp{line: stream(0, streamBase)}
}

// rand is the warp's next pseudo-random number (splitmix64).
func (wp *warpCtx) rand() uint64 {
	wp.rng += 0x9e3779b97f4a7c15
	z := wp.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// chance is true with probability q.
func (wp *warpCtx) chance(q float64) bool { return float64(wp.rand()>>11) < q*(1<<53) }
