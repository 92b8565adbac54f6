// Package gddr is a cycle-level model of one GDDR3 DRAM channel behind an
// FR-FCFS memory controller, counted in bus-clock cycles.
//
// The defaults (GDDR3) are the DRAM of Gou's thesis, Table 6.2: 8 banks per
// channel, a 4 KB row per channel (two chips with a 2 KB page each), 8 bytes
// per transfer at double data rate (two transfers per bus cycle) on a
// 1066 MHz bus clock, an FR-FCFS controller with 32 request-buffer entries,
// and tCL = 12, tRP = 12, tRC = 41, tRAS = 29, tRCD = 14, tRRD = 10 bus
// cycles. Table 6.2 gives no write timings; WL, ReadToWrite and
// WriteToRead are this project's reading (see Timing).
//
// # Model
//
// The controller keeps an open-page policy: a row stays open in its bank
// until a request needs another row of that bank. At most one command
// (ACT, PRE, RD or WR) issues per bus cycle. Each bank is closed or open
// with one row and remembers the earliest cycle of its next ACT (tRC after
// its last ACT, tRP after its last PRE), of its next column command (tRCD
// after its ACT) and of its next PRE (tRAS after its ACT, and not before
// the last data beat of the bank's last read or write has left the bus;
// the model has no tRTP or tWR, so this is the project's reading of "PRE
// after the data"). ACTs to any banks of the channel are at least tRRD
// apart.
//
// A read column command at cycle t puts its data on the bus from t+CL, a
// write from t+WL, for ceil(Bytes/BusBytes/2) cycles. The data bus carries
// one burst at a time, in the order of the column commands: a column
// command issues only if its burst starts no earlier than the cycle after
// the previous burst, plus ReadToWrite or WriteToRead cycles when the
// direction changes.
//
// # Scheduling
//
// FR-FCFS (Rixner et al., "Memory Access Scheduling", ISCA 2000) over the
// waiting requests, oldest first; a request waits in the request buffer
// until its column command issues. Each cycle the controller issues:
//
//  1. the column command of the oldest waiting request whose row is open in
//     its bank and whose command is legal this cycle (row hits first);
//  2. otherwise the row command (PRE, or ACT when the bank is closed) of
//     the oldest waiting request whose next row command is legal this
//     cycle ("first ready"), where a bank's open row is precharged only
//     when no waiting request hits that row, so a row is never closed
//     under a pending hit that merely waits for the data bus;
//  3. otherwise nothing.
//
// Because the requests are taken in age order, a bank's row commands serve
// the oldest waiting request of that bank; younger requests to other banks
// may activate their banks while an older request waits for its tRCD, tRP
// or the bus, which is where the channel's bank-level parallelism comes
// from.
//
// # Efficiency
//
// Stats counts what section 6.5.3 of the thesis needs: bus transactions
// (Transfers, one 8-byte beat each, two per cycle at most) and the active
// cycles in which the channel holds a request, so that Efficiency is
// E = transfers / (2 × active cycles).
package gddr

import (
	"errors"
	"fmt"
	"math/bits"
)

// Timing holds the DRAM timing parameters in bus cycles.
type Timing struct {
	CL  int // read column command to first read data beat (tCL)
	RP  int // PRE to the next ACT of the bank (tRP)
	RC  int // ACT to the next ACT of the same bank (tRC)
	RAS int // ACT to PRE of the same bank (tRAS)
	RCD int // ACT to a column command of the same bank (tRCD)
	RRD int // ACT to ACT of any bank of the channel (tRRD)

	// WL is the write latency, write column command to first write data
	// beat. Table 6.2 lists none; 4 is the project's reading (GDDR3 write
	// latency is a small mode-register value).
	WL int
	// ReadToWrite and WriteToRead are the idle bus cycles between the end
	// of a burst and the start of a burst of the other direction. Table 6.2
	// lists none; 2 each is the project's reading.
	ReadToWrite, WriteToRead int
}

// Config describes one channel.
type Config struct {
	Banks    int // banks per channel, a power of two
	RowBytes int // row (page) size of the channel in bytes, a power of two
	BusBytes int // bytes per transfer (one data beat), a power of two
	Queue    int // request-buffer entries of the FR-FCFS controller
	Timing   Timing
}

// GDDR3 returns the channel of the thesis, Table 6.2: 8 banks, 4 KB rows
// (2 chips × 2 KB pages), 8 bytes per transfer, 32 request-buffer entries,
// tCL 12, tRP 12, tRC 41, tRAS 29, tRCD 14, tRRD 10, and the project's
// readings WL 4, ReadToWrite 2, WriteToRead 2. The bus clock is 1066 MHz
// with two transfers per cycle; the model counts bus cycles.
func GDDR3() Config {
	return Config{
		Banks:    8,
		RowBytes: 4096,
		BusBytes: 8,
		Queue:    32,
		Timing: Timing{
			CL: 12, RP: 12, RC: 41, RAS: 29, RCD: 14, RRD: 10,
			WL: 4, ReadToWrite: 2, WriteToRead: 2,
		},
	}
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// Validate reports whether the configuration can be modelled: sizes
// positive, Banks, RowBytes and BusBytes powers of two with a row holding
// at least one transfer, latencies at least one cycle and turnarounds not
// negative.
func (c Config) Validate() error {
	var errs []error
	for _, f := range []struct {
		name string
		v    int
	}{{"Banks", c.Banks}, {"RowBytes", c.RowBytes}, {"BusBytes", c.BusBytes}} {
		if !isPow2(f.v) {
			errs = append(errs, fmt.Errorf("gddr: %s = %d is not a positive power of two", f.name, f.v))
		}
	}
	if isPow2(c.RowBytes) && isPow2(c.BusBytes) && c.RowBytes < c.BusBytes {
		errs = append(errs, fmt.Errorf("gddr: RowBytes = %d is smaller than BusBytes = %d", c.RowBytes, c.BusBytes))
	}
	if c.Queue <= 0 {
		errs = append(errs, fmt.Errorf("gddr: Queue = %d is not positive", c.Queue))
	}
	t := c.Timing
	for _, f := range []struct {
		name string
		v    int
	}{{"CL", t.CL}, {"RP", t.RP}, {"RC", t.RC}, {"RAS", t.RAS}, {"RCD", t.RCD}, {"RRD", t.RRD}, {"WL", t.WL}} {
		if f.v < 1 {
			errs = append(errs, fmt.Errorf("gddr: t%s = %d is less than one cycle", f.name, f.v))
		}
	}
	if t.ReadToWrite < 0 || t.WriteToRead < 0 {
		errs = append(errs, fmt.Errorf("gddr: negative turnaround ReadToWrite = %d, WriteToRead = %d", t.ReadToWrite, t.WriteToRead))
	}
	return errors.Join(errs...)
}

// Request is one access to the channel. Addr is the channel-local byte
// address (the caller strips the channel interleaving), Bytes a positive
// multiple of BusBytes that does not cross a row, and ID is opaque to the
// channel.
type Request struct {
	ID    uint64
	Addr  uint64
	Bytes int
	Write bool
}

// The address mapping: the low log2(RowBytes) bits of a channel-local
// address are the column (byte within the row), the next log2(Banks) bits
// the bank, the remaining high bits the row. Consecutive rows' worth of
// addresses therefore go to consecutive banks.
func (c Config) colBits() uint  { return uint(bits.TrailingZeros(uint(c.RowBytes))) }
func (c Config) bankBits() uint { return uint(bits.TrailingZeros(uint(c.Banks))) }

// Bank returns the bank of a channel-local address: the log2(Banks) bits
// above the log2(RowBytes) column bits.
func (c Config) Bank(addr uint64) int {
	return int((addr >> c.colBits()) & uint64(c.Banks-1))
}

// Row returns the row of a channel-local address: the bits above the
// column and bank bits.
func (c Config) Row(addr uint64) uint64 {
	return addr >> (c.colBits() + c.bankBits())
}

// Stats are the channel's counters since NewChannel.
type Stats struct {
	// Transfers counts data beats on the bus (BusBytes each, at most two
	// per cycle): the bus transactions of thesis section 6.5.3.
	Transfers int64
	// ActiveCycles counts the cycles in which the channel is not
	// completely idle: a request waits in the buffer or an access is in
	// flight (column command issued, data not finished), section 6.5.3.
	ActiveCycles int64
	// BusyCycles counts the cycles in which the data bus carries data.
	BusyCycles int64
	// Reads and Writes count the column commands issued.
	Reads, Writes int64
	// Each column access is one of: a row hit (its row was open when the
	// controller first looked at it or was opened for another request), a
	// row miss (the controller activated a closed bank for it) or a row
	// conflict (the controller precharged another row for it first).
	RowHits, RowMisses, RowConflicts int64
	// Activates and Precharges count ACT and PRE commands.
	Activates, Precharges int64
	// Bytes counts the bytes moved on the data bus, Transfers × BusBytes.
	Bytes int64
}

// Efficiency is the bus efficiency of thesis section 6.5.3 for one channel,
// E = Transfers / (2 × ActiveCycles), or 0 when the channel was never
// active.
func (s Stats) Efficiency() float64 {
	if s.ActiveCycles == 0 {
		return 0
	}
	return float64(s.Transfers) / float64(2*s.ActiveCycles)
}

// Row-buffer outcome of a waiting request, raised by the row commands
// issued for it.
const (
	rowHit uint8 = iota
	rowMiss
	rowConflict
)

// cmdKind names the DRAM commands, for the test trace.
type cmdKind uint8

const (
	cmdACT cmdKind = iota
	cmdPRE
	cmdRD
	cmdWR
)

// command is one issued command, reported to Channel.trace.
type command struct {
	cycle int64
	kind  cmdKind
	bank  int
	row   uint64
	req   Request // the request the command was issued for
}

type bankState struct {
	open  bool
	row   uint64
	actAt int64 // earliest ACT: last ACT + tRC, last PRE + tRP
	colAt int64 // earliest column command: last ACT + tRCD
	preAt int64 // earliest PRE: last ACT + tRAS, end of the last burst
}

type waiting struct {
	req   Request
	bank  int
	row   uint64
	class uint8
}

type burst struct {
	req   Request
	start int64 // first data cycle
	beats int   // data beats in the burst
}

// Channel is one DRAM channel with its controller. It is not safe for
// concurrent use.
type Channel struct {
	cfg    Config
	banks  []bankState
	hasHit []bool // per bank, scratch of schedule
	queue  []waiting
	flight []burst // issued column accesses, in bus order

	now      int64 // the cycle the next Tick models
	nextAct  int64 // earliest ACT of the channel: last ACT + tRRD
	busFree  int64 // the cycle after the last scheduled burst
	busWrite bool  // direction of the last scheduled burst
	busUsed  bool  // whether any burst was scheduled

	done  []Request
	stats Stats
	trace func(command) // test hook, nil normally
}

// NewChannel returns an idle channel with all banks closed, at cycle 0. It
// panics if c does not Validate.
func NewChannel(c Config) *Channel {
	if err := c.Validate(); err != nil {
		panic(err)
	}
	return &Channel{
		cfg:    c,
		banks:  make([]bankState, c.Banks),
		hasHit: make([]bool, c.Banks),
		queue:  make([]waiting, 0, c.Queue),
	}
}

// Full reports whether Queue requests are waiting (enqueued and not yet
// issued their column command).
func (ch *Channel) Full() bool { return len(ch.queue) >= ch.cfg.Queue }

// Enqueue adds a request to the request buffer, to be considered from the
// next Tick on, and reports false (dropping nothing) when the buffer is
// Full. It panics if Bytes is not a positive multiple of BusBytes or the
// request crosses a row.
func (ch *Channel) Enqueue(r Request) bool {
	c := ch.cfg
	if r.Bytes <= 0 || r.Bytes%c.BusBytes != 0 {
		panic(fmt.Sprintf("gddr: request %d of %d bytes is not a positive multiple of %d", r.ID, r.Bytes, c.BusBytes))
	}
	if r.Addr%uint64(c.RowBytes)+uint64(r.Bytes) > uint64(c.RowBytes) {
		panic(fmt.Sprintf("gddr: request %d of %d bytes at %#x crosses a %d-byte row", r.ID, r.Bytes, r.Addr, c.RowBytes))
	}
	if ch.Full() {
		return false
	}
	ch.queue = append(ch.queue, waiting{req: r, bank: c.Bank(r.Addr), row: c.Row(r.Addr)})
	return true
}

// Idle reports whether no request is waiting and none is in flight.
func (ch *Channel) Idle() bool { return len(ch.queue) == 0 && len(ch.flight) == 0 }

// Stats returns the counters so far.
func (ch *Channel) Stats() Stats { return ch.stats }

// Tick models one bus cycle: it issues at most one command and moves the
// data of the burst on the bus. It returns the requests whose last data
// beat was on the bus in this cycle, in order of completion; the slice is
// reused by the next Tick.
func (ch *Channel) Tick() []Request {
	ch.done = ch.done[:0]
	if !ch.Idle() {
		ch.stats.ActiveCycles++
	}
	ch.schedule()
	if len(ch.flight) > 0 && ch.flight[0].start <= ch.now {
		f := ch.flight[0]
		k := int(ch.now - f.start)
		beats := min(2, f.beats-2*k)
		ch.stats.Transfers += int64(beats)
		ch.stats.Bytes += int64(beats * ch.cfg.BusBytes)
		ch.stats.BusyCycles++
		if f.beats-2*k <= 2 {
			ch.done = append(ch.done, f.req)
			n := copy(ch.flight, ch.flight[1:])
			ch.flight = ch.flight[:n]
		}
	}
	ch.now++
	return ch.done
}

// burstCycles is the number of bus cycles of a burst of beats transfers.
func burstCycles(beats int) int64 { return int64(beats+1) / 2 }

// latency is the column command to first data beat latency.
func (ch *Channel) latency(write bool) int64 {
	if write {
		return int64(ch.cfg.Timing.WL)
	}
	return int64(ch.cfg.Timing.CL)
}

// busReady reports whether a column command of the given direction issued
// now would find the data bus free, including the turnaround.
func (ch *Channel) busReady(write bool) bool {
	earliest := ch.busFree
	if ch.busUsed && ch.busWrite != write {
		if write {
			earliest += int64(ch.cfg.Timing.ReadToWrite)
		} else {
			earliest += int64(ch.cfg.Timing.WriteToRead)
		}
	}
	return ch.now+ch.latency(write) >= earliest
}

// schedule issues this cycle's command, if any (see the package comment).
func (ch *Channel) schedule() {
	if len(ch.queue) == 0 {
		return
	}
	clear(ch.hasHit)
	best := -1
	for i := range ch.queue {
		w := &ch.queue[i]
		b := &ch.banks[w.bank]
		if b.open && b.row == w.row {
			ch.hasHit[w.bank] = true
			if best < 0 && ch.now >= b.colAt && ch.busReady(w.req.Write) {
				best = i
			}
		}
	}
	if best >= 0 {
		ch.column(best)
		return
	}
	for i := range ch.queue {
		w := &ch.queue[i]
		b := &ch.banks[w.bank]
		switch {
		case !b.open:
			if ch.now >= b.actAt && ch.now >= ch.nextAct {
				ch.activate(w)
				return
			}
		case b.row != w.row:
			if !ch.hasHit[w.bank] && ch.now >= b.preAt {
				ch.precharge(w)
				return
			}
		}
	}
}

func (ch *Channel) activate(w *waiting) {
	t := ch.cfg.Timing
	b := &ch.banks[w.bank]
	b.open, b.row = true, w.row
	b.actAt = ch.now + int64(t.RC)
	b.colAt = ch.now + int64(t.RCD)
	b.preAt = max(b.preAt, ch.now+int64(t.RAS))
	ch.nextAct = ch.now + int64(t.RRD)
	w.class = max(w.class, rowMiss)
	ch.stats.Activates++
	ch.emit(cmdACT, w)
}

func (ch *Channel) precharge(w *waiting) {
	b := &ch.banks[w.bank]
	b.open = false
	b.actAt = max(b.actAt, ch.now+int64(ch.cfg.Timing.RP))
	w.class = rowConflict
	ch.stats.Precharges++
	ch.emit(cmdPRE, w)
}

// column issues the column command of queue[i] and removes it from the
// request buffer.
func (ch *Channel) column(i int) {
	w := ch.queue[i]
	r := w.req
	beats := r.Bytes / ch.cfg.BusBytes
	start := ch.now + ch.latency(r.Write)
	end := start + burstCycles(beats)
	ch.busFree, ch.busWrite, ch.busUsed = end, r.Write, true
	b := &ch.banks[w.bank]
	b.preAt = max(b.preAt, end)
	ch.flight = append(ch.flight, burst{req: r, start: start, beats: beats})
	switch w.class {
	case rowHit:
		ch.stats.RowHits++
	case rowMiss:
		ch.stats.RowMisses++
	default:
		ch.stats.RowConflicts++
	}
	kind := cmdRD
	if r.Write {
		kind = cmdWR
		ch.stats.Writes++
	} else {
		ch.stats.Reads++
	}
	ch.emit(kind, &w)
	ch.queue = append(ch.queue[:i], ch.queue[i+1:]...)
}

func (ch *Channel) emit(kind cmdKind, w *waiting) {
	if ch.trace != nil {
		ch.trace(command{cycle: ch.now, kind: kind, bank: w.bank, row: w.row, req: w.req})
	}
}
