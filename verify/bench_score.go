package verify

import (
	"fmt"
	"strings"
)

// Expect is a response a reference model predicts.
type Expect struct {
	// Sink is the channel the response comes on.
	Sink *Sink
	// Values holds each payload port's words in the sink's payload order
	// (one word for a port of up to 64 bits). Nil: the response's arrival
	// is checked, not its values.
	Values []uint64
	// Care says per payload port whether its value is checked; nil checks
	// every port. A sink matched by tag always checks the tag.
	Care []bool
	// From is the transaction the response answers: messages name it and
	// latency counts from its acceptance. Predict fills it in.
	From Origin
}

// Scoreboard matches the responses sinks collect with the responses a
// reference model expects, and fails the test at the first difference with
// the cycle, the channel, the port and both values. Each sink it watches
// is matched either in order (InOrder: the responses come in the order
// they were expected; several sinks can share one order) or by tag (ByTag:
// a response matches the oldest expectation with the same tag, as an MSHR
// or an out-of-order memory answers).
//
// The reference model is plain Go that sees accepted transactions (Predict
// or Source.OnAccept) or per-cycle inputs (Bench.After) and calls Expect.
type Scoreboard struct {
	b        *Bench
	pending  int
	matched  int
	compared int
	latency  Latency
	queues   []*expectQueue // every queue, oldest expectation first, for Finish
}

// expectQueue is a FIFO of expectations.
type expectQueue struct {
	items []Expect
	head  int
}

func (q *expectQueue) empty() bool { return q.head == len(q.items) }

func (q *expectQueue) push(e Expect) {
	if q.head > 1024 && q.head*2 > len(q.items) { // a queue that never empties stays small
		q.items, q.head = append(q.items[:0], q.items[q.head:]...), 0
	}
	q.items = append(q.items, e)
}

func (q *expectQueue) pop() Expect {
	e := q.items[q.head]
	q.items[q.head] = Expect{}
	q.head++
	return e
}

// watch is how a scoreboard matches one sink.
type watch struct {
	queue  *expectQueue            // in order
	tagged map[uint64]*expectQueue // by tag
	tag    int                     // payload index of the tag port
}

// NewScoreboard returns a scoreboard for the bench's sinks; tell it which
// sinks to watch with InOrder and ByTag.
func NewScoreboard(b *Bench) *Scoreboard { return &Scoreboard{b: b} }

// InOrder watches sinks whose responses come in the order they are
// expected; listing several sinks puts them in one order (a response on
// one while the oldest expectation is for another fails).
func (sb *Scoreboard) InOrder(sinks ...*Sink) {
	q := &expectQueue{}
	sb.queues = append(sb.queues, q)
	for _, k := range sinks {
		sb.attach(k, &watch{queue: q})
	}
}

// ByTag watches a sink whose responses carry a tag (the payload port tag)
// and may come in any order across tags, in order within one tag.
func (sb *Scoreboard) ByTag(k *Sink, tag Out) {
	idx := -1
	for i, h := range k.payload {
		if h == tag {
			idx = i
		}
	}
	if idx < 0 {
		sb.b.tb.Helper()
		sb.b.failf("scoreboard: %s is not in the payload of sink %s", sb.b.OutPort(tag).Name, k.name)
	}
	sb.attach(k, &watch{tagged: map[uint64]*expectQueue{}, tag: idx})
}

func (sb *Scoreboard) attach(k *Sink, w *watch) {
	if k.sb != nil {
		sb.b.tb.Helper()
		sb.b.failf("scoreboard: sink %s is already watched", k.name)
	}
	k.sb, k.watch = sb, w
}

// Expect adds a response the model predicts.
func (sb *Scoreboard) Expect(e Expect) {
	k := e.Sink
	if k == nil || k.sb != sb {
		sb.b.tb.Helper()
		name := "<nil>"
		if k != nil {
			name = k.name
		}
		sb.b.failf("cycle %d: scoreboard: an expectation for sink %s, which this scoreboard does not watch (InOrder, ByTag)", sb.b.cycle, name)
	}
	if e.Values != nil && len(e.Values) != k.words || e.Care != nil && len(e.Care) != len(k.payload) {
		sb.b.tb.Helper()
		sb.b.failf("cycle %d: scoreboard: an expectation for sink %s has %d values and %d care flags; the payload is %d words in %d ports", sb.b.cycle, k.name, len(e.Values), len(e.Care), k.words, len(k.payload))
	}
	w := k.watch
	q := w.queue
	if w.tagged != nil {
		if e.Values == nil {
			sb.b.tb.Helper()
			sb.b.failf("cycle %d: scoreboard: an expectation for sink %s, matched by tag, has no values (no tag)", sb.b.cycle, k.name)
		}
		tag := e.Values[k.offs[w.tag]]
		if q = w.tagged[tag]; q == nil {
			q = &expectQueue{}
			w.tagged[tag] = q
			sb.queues = append(sb.queues, q)
		}
	}
	q.push(e)
	sb.pending++
}

// Pending returns the number of expected responses not yet seen.
func (sb *Scoreboard) Pending() int { return sb.pending }

// Matched returns the number of responses matched.
func (sb *Scoreboard) Matched() int { return sb.matched }

// Compared returns the number of payload port values compared.
func (sb *Scoreboard) Compared() int { return sb.compared }

// Latency summarizes, over every matched response whose expectation names
// its transaction, the cycles from acceptance to response.
func (sb *Scoreboard) Latency() Latency { return sb.latency }

// Finish fails the test if an expected response has not come.
func (sb *Scoreboard) Finish() {
	if sb.pending == 0 {
		return
	}
	var oldest *Expect
	for _, q := range sb.queues {
		if !q.empty() && (oldest == nil || q.items[q.head].From.Cycle < oldest.From.Cycle) {
			oldest = &q.items[q.head]
		}
	}
	sb.b.tb.Helper()
	sb.b.fail(&CheckError{Cycle: sb.b.cycle, Sink: oldest.Sink.name, From: oldest.From,
		Reason: fmt.Sprintf("%d expected response(s) never came; the oldest answers", sb.pending)})
}

// receive matches one response of sink k.
func (sb *Scoreboard) receive(k *Sink, w *watch, r Response) {
	q := w.queue
	if w.tagged != nil {
		tag := r.Values[k.offs[w.tag]]
		if q = w.tagged[tag]; q == nil || q.empty() {
			sb.b.tb.Helper()
			p := sb.b.OutPort(k.payload[w.tag])
			sb.b.fail(&CheckError{Cycle: r.Cycle, Sink: k.name, Port: p.Name, Got: formatField(p, r.Values[k.offs[w.tag]:k.offs[w.tag+1]], false),
				Response: k.Format(r), Reason: "a response with a tag nothing is expected for"})
		}
	}
	if q.empty() {
		sb.b.tb.Helper()
		sb.b.fail(&CheckError{Cycle: r.Cycle, Sink: k.name, Response: k.Format(r), Reason: "a response nothing is expected for"})
	}
	e := q.items[q.head]
	if e.Sink != k {
		sb.b.tb.Helper()
		sb.b.fail(&CheckError{Cycle: r.Cycle, Sink: k.name, From: e.From, Response: k.Format(r),
			Reason: fmt.Sprintf("out of order: the next response expected is on %s, for", e.Sink.name)})
	}
	if e.Values != nil {
		for i, h := range k.payload {
			if e.Care != nil && !e.Care[i] && !(w.tagged != nil && i == w.tag) {
				continue
			}
			got, want := r.Values[k.offs[i]:k.offs[i+1]], e.Values[k.offs[i]:k.offs[i+1]]
			if !sameWords(got, want) {
				sb.b.tb.Helper()
				p := sb.b.OutPort(h)
				sb.b.fail(&CheckError{Cycle: r.Cycle, Sink: k.name, Port: p.Name, Got: formatField(p, got, false),
					Want: formatField(p, want, false), From: e.From, Response: k.Format(r)})
			}
			sb.compared++
		}
	}
	q.pop()
	sb.pending--
	sb.matched++
	if e.From.Chan != "" {
		l := r.Cycle - e.From.Cycle
		sb.latency.add(l)
		k.latency.add(l)
	}
}

// Predict connects a reference model to a source: every transaction the
// source accepts goes to model, in order, and the responses model returns
// are expected on sb (with From set to the transaction when left zero).
func Predict[T any](src *Source[T], sb *Scoreboard, model func(a Accepted[T]) []Expect) {
	helped := false
	src.OnAccept(func(a Accepted[T]) {
		if !helped {
			sb.b.tb.Helper()
			helped = true
		}
		for _, e := range model(a) {
			if e.From.Chan == "" {
				e.From = a.Origin
			}
			sb.Expect(e)
		}
	})
}

// CheckError is a scoreboard failure: a response that differs from the
// model's, comes out of order, or never comes.
type CheckError struct {
	Cycle     uint64 // the cycle the response was sampled in (or the bench's cycle for Finish)
	Sink      string // the channel
	Port      string // the payload port that differs, if one does
	Got, Want string // its values, as Verilog literals
	From      Origin // the transaction the expected response answers
	Response  string // every payload port of the response, name=value
	Reason    string // what went wrong when it is not a value
}

func (e *CheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cycle %d: %s: ", e.Cycle, e.Sink)
	switch {
	case e.Reason != "" && e.From.Chan != "":
		fmt.Fprintf(&b, "%s %s", e.Reason, e.From)
	case e.Reason != "" && e.Port != "":
		fmt.Fprintf(&b, "%s (%s = %s)", e.Reason, e.Port, e.Got)
	case e.Reason != "":
		b.WriteString(e.Reason)
	default:
		fmt.Fprintf(&b, "%s = %s, want %s, in the response to %s", e.Port, e.Got, e.Want, e.From)
	}
	if e.Response != "" {
		fmt.Fprintf(&b, "\n  response: %s", e.Response)
	}
	return b.String()
}

// Latency summarizes latencies in cycles.
type Latency struct {
	N             int
	Min, Max, Sum uint64
}

func (l *Latency) add(c uint64) {
	if l.N == 0 || c < l.Min {
		l.Min = c
	}
	l.Max = max(l.Max, c)
	l.Sum += c
	l.N++
}

// Mean returns the mean latency (0 over no responses).
func (l Latency) Mean() float64 {
	if l.N == 0 {
		return 0
	}
	return float64(l.Sum) / float64(l.N)
}

// String renders "min 3, max 3, mean 3.00 cycles over 120 responses".
func (l Latency) String() string {
	return fmt.Sprintf("min %d, max %d, mean %.2f cycles over %d responses", l.Min, l.Max, l.Mean(), l.N)
}
