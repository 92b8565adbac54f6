package vmshr

import (
	"fmt"

	"github.com/parmem/parmem/internal/gddr"
)

// The cycle-level model of Table 6.2's GPU: 16 cores at 1296 MHz, each an
// 8-wide SIMD pipeline running 32 warps of 32 threads by strict barrel
// round-robin issue, a core's loads split per normal block (footnote 7)
// into its MSHR file (File: vmshr-elastic's rules, vmshr-base's when every
// granularity is 32 B); an interconnect at 602 MHz with 16 B flits and
// 8 B headers (Config.Icnt: Table 6.2's 2-ary 5-fly butterfly,
// butterfly.go, or one crossbar stage, icnt.go); 4 GDDR3 channels at
// 1066 MHz with FR-FCFS controllers (internal/gddr), interleaved every
// 256 B.
//
// Readings taken:
//   - A warp issues one instruction per turn; the pipeline issues one
//     subwarp per cycle: an ALU instruction takes 4 cycles, a load or store
//     one cycle per normal block of each subwarp. A refused MSHR request
//     (mshr_alloc_fail) or a store without an interconnect buffer blocks
//     the pipeline until it is taken (6.4.1). A warp waits for all its
//     load's data before its next instruction.
//   - A read request is a header-only packet (1 flit), a reply or a store
//     carries its data behind the header (footnote 12). A core's MSHR
//     takes one returned packet per cycle (fill_valid), which refuses that
//     cycle's request; writeback is always ready.
//   - CTAs are dealt to cores round robin and run when they fit (8 CTAs,
//     1024 threads per core); a kernel ends when every warp has finished
//     and the interconnect and DRAM are idle.

// Config is one run's setup.
type Config struct {
	Adaptive bool // Alg. 6.1's granularities, else 32 B for every load (the baseline)
	VCs      int  // interconnect virtual channels (Table 6.2: 2; 6.5.6: 1)
	Icnt     Icnt // the interconnect's topology (Table 6.2: the butterfly)
	Record   bool // keep core 0's MSHR port trace
}

// Icnt is the interconnect's topology: Table 6.2's "crossbar (2-ary 5-fly
// butterfly [37])" as a butterfly of 2x2 routers (butterfly.go, the zero
// value) or as one crossbar stage (icnt.go).
type Icnt int

const (
	Butterfly Icnt = iota
	Crossbar
)

// IcntNames are the topologies' names, in value order (the vmshr
// report's -icnt).
var IcntNames = []string{Butterfly: "butterfly", Crossbar: "crossbar"}

func (i Icnt) String() string { return IcntNames[i] }

// network is one direction of the interconnect: sources queue packets
// (room, push), tick moves a cycle, delivering the packets whose tails
// arrived at destinations that accept them.
type network interface {
	room(src, dst, flits int) bool
	push(p packet)
	idle() bool
	tick(accept func(dst int) bool, deliver func(packet))
	moved() int64 // flits delivered
}

// newNetworks makes the request (cores to channels) and reply (channels
// to cores) networks of a run: the cores' queues hold VCBuffers flits a
// virtual channel, the channels' are unbounded.
func newNetworks(cfg Config) (req, rep network) {
	if cfg.Icnt == Crossbar {
		return newCrossbar(Cores, Channels, cfg.VCs, VCBuffers), newCrossbar(Channels, Cores, cfg.VCs, 0)
	}
	cores, chans := coreTerminals(), channelTerminals()
	return newButterfly(cores, chans, cfg.VCs, VCBuffers, VCBuffers), newButterfly(chans, cores, cfg.VCs, 0, VCBuffers)
}

// Table 6.2's sizes the model uses beyond spec.go's.
const (
	VCBuffers   = 8   // flit buffers per virtual channel
	CTAsPerCore = 8   // resident CTAs per core
	MaxCycles   = 5e6 // a run longer than this is a model bug
)

// PortCycle is one core cycle at core 0's MSHR: the inputs it was given
// and the outputs it produced (the trace the check replays on
// vmshr-elastic).
type PortCycle struct {
	Req     Request
	Fill    Fill[uint64]
	WBReady bool
	Out     Outputs[uint64]
}

// Result is one run's counts.
type Result struct {
	Kernel   string
	Config   Config
	Cycles   int64 // core cycles
	Reads    int64 // DRAM read requests (packets fired)
	Writes   int64
	ReadB    int64 // bytes read from DRAM
	WriteB   int64
	UsedB    int64 // bytes of loaded data the pipeline used (Fig. 6.9)
	Dropped  int64 // normal blocks of returned packets nobody waited for
	Flits    int64 // both directions
	Kinds    [4]int64
	Channels []gddr.Stats
	Trace    []PortCycle
}

// ETot is the run's DRAM efficiency (6.5.3).
func (r *Result) ETot() float64 {
	tr, act := make([][]int64, 1), make([][]int64, 1)
	for _, s := range r.Channels {
		tr[0] = append(tr[0], s.Transfers)
		act[0] = append(act[0], s.ActiveCycles)
	}
	return ETot(tr, act)
}

// Utilization is Fig. 6.9's memory access utilization: the loaded bytes
// the pipeline used over the bytes read from DRAM.
func (r *Result) Utilization() float64 { return float64(r.UsedB) / float64(r.ReadB) }

// Transactions is the DRAM requests of the run.
func (r *Result) Transactions() int64 { return r.Reads + r.Writes }

// memPacket is a fired read (the aligned hyper block of 2^hbs normal
// blocks from blk) or a store of one normal block.
type memPacket struct {
	core  int
	blk   uint64
	hbs   int
	write bool
}

func (p memPacket) bytes() int { return NormalBlock << p.hbs }

// gpu is the whole machine during a run.
type gpu struct {
	k        *Kernel
	cfg      Config
	gran     []int // per body instruction: the hardware granularity's HBS
	cores    []*core
	req, rep network
	dram     []*gddr.Channel
	packets  []memPacket // a DRAM request's ID is its index
	res      *Result
}

// channelOf is the channel and channel-local byte address of a byte
// address (256 B interleaving).
func channelOf(addr uint64) (int, uint64) {
	chunk := addr / Interleave
	return int(chunk % Channels), chunk/Channels*Interleave + addr%Interleave
}

// Run runs kernel k on the model.
func Run(k *Kernel, cfg Config) (*Result, error) {
	if cfg.VCs < 1 {
		return nil, fmt.Errorf("vmshr model: %d virtual channels", cfg.VCs)
	}
	if cfg.Icnt < 0 || int(cfg.Icnt) >= len(IcntNames) {
		return nil, fmt.Errorf("vmshr model: interconnect %d", int(cfg.Icnt))
	}
	g := &gpu{k: k, cfg: cfg, res: &Result{Kernel: k.Name, Config: cfg}}
	g.req, g.rep = newNetworks(cfg)
	for _, in := range k.Body {
		h := 0
		if in.Op == Load && cfg.Adaptive {
			gran, _ := in.Pat.Gran(k)
			h = HBS(gran)
		}
		g.gran = append(g.gran, h)
	}
	dc := gddr.GDDR3()
	for range Channels {
		g.dram = append(g.dram, gddr.NewChannel(dc))
	}
	for c := range Cores {
		g.cores = append(g.cores, newCore(g, c))
	}
	var icntPhase, dramPhase int
	for t := int64(0); ; t++ {
		if t > MaxCycles {
			return nil, fmt.Errorf("vmshr model: kernel %s did not finish in %d cycles", k.Name, int64(MaxCycles))
		}
		for dramPhase += DRAMMHz; dramPhase >= CoreMHz; dramPhase -= CoreMHz {
			g.dramTick()
		}
		for icntPhase += ICNTMHz; icntPhase >= CoreMHz; icntPhase -= CoreMHz {
			g.icntTick()
		}
		done := true
		for _, c := range g.cores {
			c.step()
			done = done && c.finished()
		}
		if done && g.req.idle() && g.rep.idle() && g.dramIdle() {
			g.res.Cycles = t + 1
			break
		}
	}
	for _, ch := range g.dram {
		g.res.Channels = append(g.res.Channels, ch.Stats())
	}
	g.res.Flits = g.req.moved() + g.rep.moved()
	return g.res, nil
}

func (g *gpu) dramIdle() bool {
	for _, ch := range g.dram {
		if !ch.Idle() {
			return false
		}
	}
	return true
}

// send queues a memory packet from core c on the request network (the
// caller checked room): a read request is its header, a store carries its
// block.
func (g *gpu) send(c int, p memPacket) {
	ch, _ := channelOf(p.blk * NormalBlock)
	flits := Flits(0)
	if p.write {
		flits = Flits(p.bytes())
		g.res.Writes++
		g.res.WriteB += int64(p.bytes())
	} else {
		g.res.Reads++
		g.res.ReadB += int64(p.bytes())
	}
	g.packets = append(g.packets, p)
	g.req.push(packet{src: c, dst: ch, flits: flits, id: len(g.packets) - 1})
}

// dramTick runs every channel one bus cycle; finished reads go back as
// reply packets to their cores.
func (g *gpu) dramTick() {
	for c, ch := range g.dram {
		for _, r := range ch.Tick() {
			if !r.Write {
				g.rep.push(packet{src: c, dst: g.packets[r.ID].core, flits: Flits(r.Bytes), id: int(r.ID)})
			}
		}
	}
}

// icntTick moves both networks one cycle: requests into the DRAM
// controllers' queues (a transfer starts only when the queue has room for
// it, and only one transfer at a time goes to a channel), replies into
// the cores' fill queues.
func (g *gpu) icntTick() {
	g.req.tick(func(d int) bool { return !g.dram[d].Full() }, func(x packet) {
		p := g.packets[x.id]
		_, local := channelOf(p.blk * NormalBlock)
		if !g.dram[x.dst].Enqueue(gddr.Request{ID: uint64(x.id), Addr: local, Bytes: p.bytes(), Write: p.write}) {
			panic("vmshr model: a DRAM queue refused a request it had room for")
		}
	})
	g.rep.tick(func(int) bool { return true }, func(x packet) {
		c := g.cores[x.dst]
		c.fills = append(c.fills, g.packets[x.id])
	})
}
