package elastic

import (
	"fmt"

	"github.com/parmem/parmem/internal/gddr"
)

// The shared-DRAM option of the cycle model (issue 44, item 5): instead
// of each global load taking a fixed latency drawn from Latency to
// Latency + Spread, the global loads and stores of several cores, each
// running the kernel as the one-core model does, cross a fixed-latency
// interconnect to GDDR3 channels (internal/gddr: open rows, FR-FCFS, a
// 32-entry request buffer) and the loads' data comes back the same way.
// The work does not change, only its timing.
//
// Every knob is Table 5.4's or, where Table 5.4 is silent, the same
// thesis's Table 6.2 (the same simulator, GPGPU-Sim, on a GTX 280-like
// GPU); none was set by looking at Figs. 5.8-5.9:
//   - 16 cores share 4 GDDR3 channels (Table 5.4).
//   - A channel: 2 chips of 2 KB pages, 4 KB rows, 8 banks, 8 bytes a
//     transfer, 32 request-buffer entries, FR-FCFS (Table 5.4;
//     gddr.GDDR3's are the same), on an 800 MHz bus (Table 5.4: 4 × 8 B ×
//     2 × 800 MHz is its 51.2 GB/s).
//   - DRAM timing tCL 12, tRP 12, tRC 41, tRAS 29, tRCD 14, tRRD 10 bus
//     cycles: Table 5.4 gives none; Table 6.2's (gddr.GDDR3's), kept in
//     bus cycles.
//   - The core clock, 1296 MHz, and the channel interleaving, 256 B:
//     Table 5.4 gives neither; Table 6.2's.
//   - A request is one subwarp's: 8 lanes × 4-byte words = 32 B, Table
//     5.4's flit size, one request per subwarp as the one-core model
//     sends (a load's data returns per subwarp).
//   - The interconnect (Table 5.4: a crossbar, no latency given) is a
//     fixed round trip, half each way, set so that a load to an idle
//     channel's closed bank (tRCD + tCL + the burst) takes the one-core
//     model's shortest round trip, DefaultLatency (section 5.4.2's
//     "hundreds of cycles"): what the fixed model spreads over 800 cycles
//     by a hash is, here, row misses, conflicts and queueing at shared
//     channels. The crossbar's own contention is not modelled.
//   - Addresses: each CTA's threads access consecutive words (coalesced),
//     the n-th global load (store) of a thread reading (writing) the n-th
//     array of the loads (stores); core c runs its CTA i as the grid's CTA
//     i × Cores + c (CTAs dealt round robin), so the cores' CTAs of a wave
//     lie side by side. The kernels' global addresses are not in the
//     thesis; this is the SDK kernels' layout to first order.
//   - Stores go to DRAM as writes; the warp does not wait for them (as in
//     the one-core model), and the kernel ends when every core's last
//     warp is done, stores still draining.

// Memory is where a core's global loads go.
type Memory int

const (
	// FixedLatency is the one-core model: a load's data returns Latency to
	// Latency + Spread cycles after it leaves.
	FixedLatency Memory = iota
	// SharedDRAM runs DRAM.Cores cores whose loads share DRAM.Channels
	// GDDR3 channels behind a fixed-latency interconnect.
	SharedDRAM
)

// MemoryNames are the memories' names, in Memory order (gen -report
// elastic -memory's choices).
var MemoryNames = []string{"fixed", "gddr"}

func (m Memory) String() string { return MemoryNames[m] }

// DRAM is the shared memory system of the SharedDRAM option.
type DRAM struct {
	Cores, Channels int         // cores running the kernel, GDDR3 channels they share
	Interleave      int         // bytes of consecutive addresses on one channel
	CoreMHz, BusMHz int         // core clock and DRAM bus clock
	Interconnect    int         // the interconnect's round trip in core cycles, half each way
	Channel         gddr.Config // one channel
}

// Table 5.4's machine (see the option's doc for each value's source).
const (
	Table54Cores      = 16   // Table 5.4
	Table54Channels   = 4    // Table 5.4
	Table54BusMHz     = 800  // Table 5.4
	Table62CoreMHz    = 1296 // Table 6.2: Table 5.4 gives no core clock
	Table62Interleave = 256  // Table 6.2: Table 5.4 gives no interleaving
	WordBytes         = 4    // a thread's global word
)

// Table54DRAM is the shared memory system of Table 5.4 (see the option's
// doc): 16 cores, 4 GDDR3 channels at 800 MHz, and the interconnect that
// makes an idle row miss DefaultLatency cycles.
func Table54DRAM() DRAM {
	d := DRAM{Cores: Table54Cores, Channels: Table54Channels, Interleave: Table62Interleave,
		CoreMHz: Table62CoreMHz, BusMHz: Table54BusMHz, Channel: gddr.GDDR3()}
	d.Interconnect = DefaultLatency - d.IdleMiss(Lanes*WordBytes)
	return d
}

// burst is the bus cycles of a request of n bytes (two transfers a cycle).
func (d DRAM) burst(n int) int { return (n/d.Channel.BusBytes + 1) / 2 }

// coreCycles is n bus cycles in core cycles, rounded up.
func (d DRAM) coreCycles(n int) int { return (n*d.CoreMHz + d.BusMHz - 1) / d.BusMHz }

// IdleMiss is the core cycles an n-byte read takes at an idle channel
// whose bank is closed, from the bus cycle that takes the request (ACT)
// to the one of its last data beat: tRCD + tCL + the burst - 1.
func (d DRAM) IdleMiss(n int) int {
	t := d.Channel.Timing
	return d.coreCycles(t.RCD + t.CL + d.burst(n) - 1)
}

// MinLoad is the shortest round trip an n-byte load can take: the
// interconnect and a row hit's tCL + the burst - 1 bus cycles, in whole
// core cycles rounded down (the request may arrive late in a core cycle).
func (d DRAM) MinLoad(n int) int {
	return d.Interconnect + (d.Channel.Timing.CL+d.burst(n)-1)*d.CoreMHz/d.BusMHz
}

// check reports a memory system the model cannot run for a core of lanes
// SIMD lanes.
func (d DRAM) check(lanes int) error {
	req := lanes * WordBytes
	switch {
	case d.Cores < 1 || d.Channels < 1:
		return fmt.Errorf("dram: %d cores on %d channels", d.Cores, d.Channels)
	case d.CoreMHz < 1 || d.BusMHz < 1:
		return fmt.Errorf("dram: clocks %d and %d MHz", d.CoreMHz, d.BusMHz)
	case d.Interconnect < 0:
		return fmt.Errorf("dram: interconnect latency %d", d.Interconnect)
	case d.Interleave < req || d.Interleave%req != 0 || d.Channel.RowBytes%d.Interleave != 0:
		return fmt.Errorf("dram: %d-byte interleaving for %d-byte requests and %d-byte rows", d.Interleave, req, d.Channel.RowBytes)
	case req%d.Channel.BusBytes != 0:
		return fmt.Errorf("dram: %d-byte requests on an %d-byte bus", req, d.Channel.BusBytes)
	}
	return d.Channel.Validate()
}

// memRequest is a request on its way to a channel's controller.
type memRequest struct {
	arrive int // core cycle it reaches the controller
	req    gddr.Request
}

// memSystem is the interconnect and the channels the cores share.
type memSystem struct {
	DRAM
	runs    []*kernelRun
	chans   []*gddr.Channel
	pending [][]memRequest // per channel, by arrival
	phase   int            // bus clock against the core clock
	now     int            // the core cycle
	// loadBase and storeBase are where the loads' and stores' arrays start;
	// array is one array's bytes.
	loadBase, storeBase, array uint64
}

// A request's ID: its send cycle, the core, the warp context and whether
// it is a store.
const (
	idTagBits  = 16
	idCoreBits = 16
)

func requestID(sent, core, tag int, write bool) uint64 {
	id := uint64(sent)<<(idTagBits+idCoreBits+1) | uint64(core)<<(idTagBits+1) | uint64(tag)<<1
	if write {
		id |= 1
	}
	return id
}

func newMemSystem(d DRAM, k Kernel) *memSystem {
	m := &memSystem{DRAM: d, pending: make([][]memRequest, d.Channels)}
	for range d.Channels {
		m.chans = append(m.chans, gddr.NewChannel(d.Channel))
	}
	threads := uint64(k.CTAs() * d.Cores * k.Threads)
	m.array = (threads*WordBytes + uint64(d.Channel.RowBytes) - 1) / uint64(d.Channel.RowBytes) * uint64(d.Channel.RowBytes)
	m.storeBase = 1 << 40
	return m
}

// send puts subwarp sub's request of warp context tag's n-th global
// access (its CTA cta, its index id in the CTA) from core c on the
// interconnect at core cycle sent.
func (m *memSystem) send(c, sent, tag, cta, id, sub, n, lanes, warp, threads int, write bool) {
	thread := uint64((cta*m.Cores+c)*threads + id*warp + sub*lanes)
	base := m.loadBase
	if write {
		base = m.storeBase
	}
	addr := base + uint64(n)*m.array + thread*WordBytes
	chunk := addr / uint64(m.Interleave)
	ch := int(chunk % uint64(m.Channels))
	local := chunk/uint64(m.Channels)*uint64(m.Interleave) + addr%uint64(m.Interleave)
	m.pending[ch] = append(m.pending[ch], memRequest{arrive: sent + m.Interconnect/2,
		req: gddr.Request{ID: requestID(sent, c, tag, write), Addr: local, Bytes: lanes * WordBytes, Write: write}})
}

// tick runs the channels for core cycle now: each bus cycle falling in it
// first hands the controllers the requests that have arrived (while their
// buffers have room), then ticks them; a read's data goes back to its
// core, due the interconnect's other half later. It reports whether a
// channel finished a request.
func (m *memSystem) tick() bool {
	done := false
	for m.phase += m.BusMHz; m.phase >= m.CoreMHz; m.phase -= m.CoreMHz {
		for c, ch := range m.chans {
			q := m.pending[c]
			n := 0
			for n < len(q) && q[n].arrive <= m.now && ch.Enqueue(q[n].req) {
				n++
			}
			m.pending[c] = q[n:]
			for _, r := range ch.Tick() {
				done = true
				if r.ID&1 == 1 {
					continue
				}
				core := int(r.ID >> (idTagBits + 1) & (1<<idCoreBits - 1))
				tag := int(r.ID >> 1 & (1<<idTagBits - 1))
				sent := int(r.ID >> (idTagBits + idCoreBits + 1))
				due := m.now + m.Interconnect - m.Interconnect/2
				m.runs[core].loadReturns(tag, sent, due)
			}
		}
	}
	m.now++
	return done
}

// sharedKernel runs kernel k on DRAM.Cores cores sharing the DRAM: the
// counts are summed over the cores (each issues what the one-core model
// does), Cycles is when the last core finished.
func (r Run) sharedKernel(k Kernel) (Result, error) {
	m := newMemSystem(r.DRAM, k)
	for c := range r.DRAM.Cores {
		kr, err := r.newKernelRun(k)
		if err != nil {
			return Result{}, err
		}
		kr.core, kr.mem = c, m
		m.runs = append(m.runs, kr)
	}
	// Nothing written back and no DRAM request finished in this long: a
	// deadlock (the one-core bound, plus a row conflict's worth of DRAM).
	t := r.DRAM.Channel.Timing
	patience := r.DRAM.Interconnect + r.Stages + r.Warps*r.K()*r.Lanes + r.DRAM.coreCycles(t.RAS+t.RP+t.RC+t.RCD+t.CL)
	left := len(m.runs)
	for idle := 0; left > 0; idle++ {
		if idle > patience {
			return Result{}, fmt.Errorf("kernel %s on %s/%s, %d cores: nothing written back in %d cycles (cycle %d)",
				k.Name, r.BackEnd, r.Scheduling, r.DRAM.Cores, patience, m.now)
		}
		for _, kr := range m.runs {
			if kr.over {
				continue
			}
			if kr.cycle() {
				idle = 0
			}
			if kr.finished() {
				kr.over = true
				kr.res.Cycles = kr.pipe.cycle
				left--
			}
		}
		if m.tick() {
			idle = 0
		}
	}
	res := Result{Kernel: k.Name, Cycles: m.now, Cores: r.DRAM.Cores, LoadMin: -1}
	for _, kr := range m.runs {
		res.add(kr.res)
	}
	return res, nil
}

// add sums o's counts into r; the load latencies' extremes.
func (r *Result) add(o Result) {
	r.Issued += o.Issued
	r.SharedAccesses += o.SharedAccesses
	r.SharedCycles += o.SharedCycles
	for c := range r.Stalls {
		r.Stalls[c] += o.Stalls[c]
	}
	r.Reads += o.Reads
	r.Hits += o.Hits
	r.Exact += o.Exact
	r.Under += o.Under
	r.Over += o.Over
	r.UnderInPremem += o.UnderInPremem
	r.Loads += o.Loads
	r.LoadCycles += o.LoadCycles
	if o.Loads > 0 && (r.LoadMin < 0 || o.LoadMin < r.LoadMin) {
		r.LoadMin = o.LoadMin
	}
	r.LoadMax = max(r.LoadMax, o.LoadMax)
}
