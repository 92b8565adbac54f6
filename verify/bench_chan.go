package verify

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Origin names an accepted transaction: the channel that took it, its
// index among that channel's transactions (from 0), and the cycle whose
// edge took it (valid and ready both 1 in that cycle). The zero Origin is
// no transaction.
type Origin struct {
	Chan  string
	Index int
	Cycle uint64
}

// String renders an origin as "req#12 (accepted in cycle 40)".
func (o Origin) String() string {
	if o.Chan == "" {
		return "no transaction"
	}
	return fmt.Sprintf("%s#%d (accepted in cycle %d)", o.Chan, o.Index, o.Cycle)
}

// Accepted is a transaction a Source has delivered, with its origin.
type Accepted[T any] struct {
	Origin
	Tx T
}

// Source drives a valid/ready channel of the design from a queue of
// transactions of type T. It presents the queue's first transaction (its
// load function sets the payload inputs, and the source sets valid), holds
// it until the design's ready output is 1 in a cycle (the transaction is
// accepted at that cycle's edge), and presents the next one in the cycle
// after, back to back. Valid never drops while a transaction waits; Gap
// and ValidWhen only delay presenting the next one. A channel without a
// ready output accepts in every cycle that valid is 1.
//
// The payload inputs keep their last values while valid is 0.
type Source[T any] struct {
	b        *Bench
	name     string
	valid    In
	ready    Out
	load     func(T)
	queue    []T
	head     int
	busy     bool // a transaction is presented
	cur      T
	gap      int
	wait     int // idle cycles left before the next transaction
	when     func(cycle uint64) bool
	cycles   []uint64 // acceptance cycle of each transaction
	onAccept []func(Accepted[T])
	helped   bool // handshake has marked itself a test helper
}

// NewSource returns a source for channel ch of the bench's design: it
// drives the input <ch>_valid and watches the output <ch>_ready (DESIGN.md
// names handshakes so); when the design has no <ch>_ready the channel has
// no back-pressure. load puts a transaction on the payload inputs (with
// Bench.Set through handles taken beforehand).
func NewSource[T any](b *Bench, ch string, load func(tx T)) *Source[T] {
	b.tb.Helper()
	return NewSourceOn(b, ch, b.In(ch+"_valid"), b.hasOut(ch+"_ready"), load)
}

// NewSourceOn is NewSource with explicit handshake ports: valid and ready
// (the zero Out for none); name labels the channel in messages.
func NewSourceOn[T any](b *Bench, name string, valid In, ready Out, load func(tx T)) *Source[T] {
	b.tb.Helper()
	if w := b.InPort(valid).Width; w != 1 {
		b.failf("source %s: valid %s is %d bits, not 1", name, b.InPort(valid).Name, w)
	}
	if !ready.IsZero() && b.OutPort(ready).Width != 1 {
		b.failf("source %s: ready %s is %d bits, not 1", name, b.OutPort(ready).Name, b.OutPort(ready).Width)
	}
	s := &Source[T]{b: b, name: name, valid: valid, ready: ready, load: load}
	b.drive = append(b.drive, s.driveValid)
	b.accept = append(b.accept, s.handshake)
	return s
}

// Name returns the channel's label.
func (s *Source[T]) Name() string { return s.name }

// Push appends transactions to the queue.
func (s *Source[T]) Push(txs ...T) {
	if s.head == len(s.queue) || s.head > 1024 && 2*s.head > len(s.queue) {
		s.queue, s.head = append(s.queue[:0], s.queue[s.head:]...), 0
	}
	s.queue = append(s.queue, txs...)
}

// OnAccept registers f to see every accepted transaction, in order, in the
// cycle that accepts it (after the outputs are sampled).
func (s *Source[T]) OnAccept(f func(Accepted[T])) { s.onAccept = append(s.onAccept, f) }

// Gap makes the source idle for n cycles after each acceptance.
func (s *Source[T]) Gap(n int) *Source[T] {
	s.gap = n
	return s
}

// ValidWhen makes the source present a new transaction only in cycles for
// which ok returns true (Randomly gives random stalls). A transaction
// already presented stays valid until accepted.
func (s *Source[T]) ValidWhen(ok func(cycle uint64) bool) *Source[T] {
	s.when = ok
	return s
}

// Idle reports whether every pushed transaction has been accepted.
func (s *Source[T]) Idle() bool { return !s.busy && s.head == len(s.queue) }

// Pending returns the number of transactions pushed and not yet accepted.
func (s *Source[T]) Pending() int {
	n := len(s.queue) - s.head
	if s.busy {
		n++
	}
	return n
}

// NumAccepted returns the number of transactions accepted so far.
func (s *Source[T]) NumAccepted() int { return len(s.cycles) }

// AcceptCycles returns the acceptance cycle of every accepted transaction,
// in order (a view; do not modify).
func (s *Source[T]) AcceptCycles() []uint64 { return s.cycles }

// Throughput returns the transactions accepted in cycles [from, to) per
// cycle.
func (s *Source[T]) Throughput(from, to uint64) float64 {
	if to <= from {
		return 0
	}
	lo := sort.Search(len(s.cycles), func(i int) bool { return s.cycles[i] >= from })
	hi := sort.Search(len(s.cycles), func(i int) bool { return s.cycles[i] >= to })
	return float64(hi-lo) / float64(to-from)
}

func (s *Source[T]) driveValid() {
	if !s.busy {
		switch {
		case s.wait > 0:
			s.wait--
		case s.head < len(s.queue) && (s.when == nil || s.when(s.b.cycle)):
			s.cur = s.queue[s.head]
			var zero T
			s.queue[s.head] = zero
			s.head++
			s.busy = true
			s.load(s.cur)
		}
	}
	v := uint64(0)
	if s.busy {
		v = 1
	}
	s.b.vec[s.b.inOff[s.valid.n-1]] = v
}

func (s *Source[T]) handshake() {
	if !s.busy || !s.ready.IsZero() && s.b.out[s.b.outOf[s.ready.n-1]] == 0 {
		return
	}
	if !s.helped { // so a model's failure points at the test's line
		s.b.tb.Helper()
		s.helped = true
	}
	a := Accepted[T]{Origin: Origin{Chan: s.name, Index: len(s.cycles), Cycle: s.b.cycle}, Tx: s.cur}
	s.cycles = append(s.cycles, s.b.cycle)
	s.busy, s.wait = false, s.gap
	var zero T
	s.cur = zero
	for _, f := range s.onAccept {
		f(a)
	}
}

// Response is one transfer a Sink collected: the cycle it was sampled in
// and its payload, each payload port's words in payload order (one word
// for a port of up to 64 bits).
type Response struct {
	Cycle  uint64
	Values []uint64
}

// Sink collects the responses of a channel of the design: in every cycle
// where the design's valid output is 1 (and the sink's ready input, if the
// channel has one, is 1) it samples the payload outputs. A Scoreboard
// checks what it collects; Received keeps it for the test.
type Sink struct {
	b         *Bench
	name      string
	valid     Out
	ready     In
	payload   []Out
	offs      []int // word offset of each payload port in a Response
	words     int
	when      func(cycle uint64) bool
	readyNow  bool
	keep      bool
	received  []Response
	count     int
	onReceive []func(Response)
	sb        *Scoreboard // the scoreboard that watches the sink, if any
	watch     *watch
	latency   Latency
	helped    bool // sample has marked itself a test helper
}

// NewSink returns a sink for channel ch: it watches the output <ch>_valid
// and drives the input <ch>_ready when the design has one (always 1 unless
// ReadyWhen says otherwise); payload lists the ports a response carries.
func NewSink(b *Bench, ch string, payload ...Out) *Sink {
	b.tb.Helper()
	return NewSinkOn(b, ch, b.Out(ch+"_valid"), b.hasIn(ch+"_ready"), payload...)
}

// NewSinkOn is NewSink with explicit handshake ports: valid and ready (the
// zero In for none); name labels the channel in messages.
func NewSinkOn(b *Bench, name string, valid Out, ready In, payload ...Out) *Sink {
	b.tb.Helper()
	if w := b.OutPort(valid).Width; w != 1 {
		b.failf("sink %s: valid %s is %d bits, not 1", name, b.OutPort(valid).Name, w)
	}
	if !ready.IsZero() && b.InPort(ready).Width != 1 {
		b.failf("sink %s: ready %s is %d bits, not 1", name, b.InPort(ready).Name, b.InPort(ready).Width)
	}
	k := &Sink{b: b, name: name, valid: valid, ready: ready, payload: payload, keep: true, readyNow: true}
	for _, h := range payload {
		k.offs = append(k.offs, k.words)
		k.words += b.OutPort(h).Words()
	}
	k.offs = append(k.offs, k.words)
	if !ready.IsZero() {
		b.drive = append(b.drive, k.driveReady)
	}
	b.collect = append(b.collect, k.sample)
	return k
}

// Name returns the channel's label.
func (k *Sink) Name() string { return k.name }

// Payload returns the payload ports' handles, in response order.
func (k *Sink) Payload() []Out { return k.payload }

// ReadyWhen makes the sink drive ready with ok(cycle) in every cycle
// (Randomly gives random back-pressure). It fails on a channel without a
// ready input.
func (k *Sink) ReadyWhen(ok func(cycle uint64) bool) *Sink {
	if k.ready.IsZero() {
		k.b.tb.Helper()
		k.b.failf("sink %s: the channel has no ready input to hold back", k.name)
	}
	k.when = ok
	return k
}

// Forget stops the sink keeping responses (Received stays empty), for
// long runs that a scoreboard checks as they go.
func (k *Sink) Forget() *Sink {
	k.keep = false
	return k
}

// OnReceive registers f to see every response as it is collected.
func (k *Sink) OnReceive(f func(Response)) { k.onReceive = append(k.onReceive, f) }

// Received returns the responses collected so far (unless Forget).
func (k *Sink) Received() []Response { return k.received }

// Count returns the number of responses collected.
func (k *Sink) Count() int { return k.count }

// Latency summarizes, over the responses a Scoreboard matched, the cycles
// from the acceptance of the transaction each answers to its arrival.
func (k *Sink) Latency() Latency { return k.latency }

// Value returns the low 64 bits of payload port i of a response.
func (k *Sink) Value(r Response, i int) uint64 { return r.Values[k.offs[i]] }

// Format renders a response as name=value for each payload port.
func (k *Sink) Format(r Response) string {
	parts := make([]string, len(k.payload))
	for i, h := range k.payload {
		p := k.b.OutPort(h)
		parts[i] = p.Name + "=" + formatField(p, r.Values[k.offs[i]:k.offs[i+1]], false)
	}
	return strings.Join(parts, " ")
}

func (k *Sink) driveReady() {
	k.readyNow = k.when == nil || k.when(k.b.cycle)
	v := uint64(0)
	if k.readyNow {
		v = 1
	}
	k.b.vec[k.b.inOff[k.ready.n-1]] = v
}

func (k *Sink) sample() {
	if k.b.out[k.b.outOf[k.valid.n-1]] == 0 || !k.readyNow {
		return
	}
	if !k.helped { // so a scoreboard's failure points at the test's line
		k.b.tb.Helper()
		k.helped = true
	}
	r := Response{Cycle: k.b.cycle, Values: make([]uint64, k.words)}
	for i, h := range k.payload {
		o := k.b.outOf[h.n-1]
		copy(r.Values[k.offs[i]:k.offs[i+1]], k.b.out[o:o+k.offs[i+1]-k.offs[i]])
	}
	k.count++
	if k.keep {
		k.received = append(k.received, r)
	}
	for _, f := range k.onReceive {
		f(r)
	}
	if k.sb != nil {
		k.sb.receive(k, k.watch, r)
	}
}

// Randomly returns a condition for ValidWhen or ReadyWhen that holds in a
// cycle with probability p, drawn from r (seed it for a run that repeats).
func Randomly(r *rand.Rand, p float64) func(cycle uint64) bool {
	return func(uint64) bool { return r.Float64() < p }
}
