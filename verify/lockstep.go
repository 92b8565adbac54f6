package verify

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/parmem/parmem/sim"
)

// Backend makes a fresh simulator of the design under test; with trace it
// must return a Tracer (Lockstep asks for one only to replay a failure).
type Backend func(trace bool) (Simulator, error)

// Config describes a lockstep run.
type Config struct {
	// Backends make the simulators to compare; the first is the reference
	// that reports list first (normally the Go golden model).
	Backends []Backend
	// Stimulus makes the stimulus from a seed, the same every time. Nil
	// means the in-simulator stimulus (lfsr.go): when every simulator can
	// generate it itself, only a hash of each cycle's outputs crosses the
	// pipes (the fast mode), and a difference is then run again with the
	// same stimulus fed in, to name the port.
	Stimulus func(seed uint64) Stimulus
	Seed     uint64
	// Cycles to run after the initial reset.
	Cycles uint64
	// Batch is the number of cycles per Run call (default 4096; in the
	// fast mode, where a batch crosses the pipes as one digest, 8192: a
	// difference is then run again with the stimulus fed in up to the end
	// of its batch, at most 8191 cycles more than needed).
	Batch int
	// ReportDir receives report.txt and the waveforms of a failing run
	// (default: a new temporary directory).
	ReportDir string
	// TraceWindow bounds the waveforms to the last cycles before a failure
	// (default 2000).
	TraceWindow uint64
	// NoReplay skips the replay that writes the report and waveforms (for
	// mutation runs, which expect mismatches by the dozen).
	NoReplay bool
}

// Mismatch describes the first difference Lockstep found: outputs that
// differ, or a property of the design that failed in a simulator.
type Mismatch struct {
	Cycle uint64
	Port  string
	// Property is the first failed property's description (an
	// assertion, or an assumption the stimulus broke), when a simulator
	// stopped at one: then Values say what each made of the cycle.
	Property   string
	Values     []SimValue // each simulator's value, the reference first
	Seed       uint64
	LastInputs []string // the last up to 16 cycles of inputs, formatted
	Report     string   // path of report.txt
	Waveforms  []string // paths of the VCD files
}

// SimValue is one simulator's value of the mismatching port.
type SimValue struct {
	Sim   string
	Value string
}

// MismatchError is the error Lockstep returns when simulators disagree.
type MismatchError struct{ M *Mismatch }

func (e *MismatchError) Error() string { return e.M.Text() }

// Text renders the mismatch as the report says it.
func (m *Mismatch) Text() string {
	var b strings.Builder
	if m.Property != "" {
		fmt.Fprintf(&b, "lockstep: property failed at cycle %d (counted after the initial reset):\n", m.Cycle)
	} else {
		fmt.Fprintf(&b, "lockstep mismatch at cycle %d (counted after the initial reset), output %s:\n", m.Cycle, m.Port)
	}
	for _, v := range m.Values {
		fmt.Fprintf(&b, "  %-10s %s\n", v.Sim, v.Value)
	}
	fmt.Fprintf(&b, "seed: %d (replay with -verify.seed=%d)\n", m.Seed, m.Seed)
	fmt.Fprintf(&b, "inputs of the last %d cycles:\n", len(m.LastInputs)-1)
	for _, l := range m.LastInputs {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	if len(m.Waveforms) > 0 {
		fmt.Fprintf(&b, "waveforms: %s\n", strings.Join(m.Waveforms, " "))
	}
	if m.Report != "" {
		fmt.Fprintf(&b, "report: %s\n", m.Report)
	}
	return b.String()
}

// Result summarizes a lockstep run that found no difference.
type Result struct {
	Cycles   uint64 // cycles compared, after the reset
	Compared uint64 // output values compared
	// Covers are the design's cover points and the cycles of the run that
	// reached each, as the Go simulator counted them.
	Covers []sim.Cover
}

// Lockstep drives every backend with the same stimulus, compares every
// output of every cycle, and stops at the first difference. It then runs
// the failure again with waveforms on and returns a *MismatchError whose
// report names the cycle, the port, each simulator's value, the seed and
// the last 16 cycles of inputs, next to the Go and RTL waveforms.
func Lockstep(cfg Config) (*Result, error) {
	if len(cfg.Backends) < 1 {
		return nil, errors.New("lockstep: no backends")
	}
	hashedBatch := cmp.Or(max(cfg.Batch, 0), 8192)
	if cfg.Batch <= 0 {
		cfg.Batch = 4096
	}
	sims, err := startAll(cfg.Backends, false)
	if err != nil {
		return nil, err
	}
	var m *Mismatch
	var res *Result
	if cfg.Stimulus == nil {
		ports := sims[0].Ports()
		cfg.Stimulus = func(seed uint64) Stimulus { return NewLFSR(ports, seed) }
		if hashers, ok := allHashers(sims); ok {
			fast := cfg
			fast.Batch = hashedBatch
			at, hres, err := compareHashed(fast, sims, hashers)
			closeAll(sims)
			if failed := asPropertyError(err); failed != nil {
				// Find its cycle and inputs: the same stimulus, fed in.
				if sims, err = startAll(cfg.Backends, false); err != nil {
					return hres, err
				}
				m, _, err = compare(cfg, sims)
				closeAll(sims)
				if err == nil && m == nil {
					err = fmt.Errorf("lockstep: %v in the fast mode, but not with the same stimulus fed in", failed)
				}
				if err != nil {
					return hres, err
				}
				return hres, finishMismatch(cfg, m)
			}
			if err != nil || at < 0 {
				return hres, err
			}
			// Find the port: the same stimulus, fed in, up to the difference.
			if sims, err = startAll(cfg.Backends, false); err != nil {
				return hres, err
			}
			full := cfg
			full.Cycles = uint64(at) + 1
			if m, _, err = compare(full, sims); err == nil && m == nil {
				err = fmt.Errorf("lockstep: output digests differ in the batch ending at cycle %d, but the outputs fed the same stimulus agree there", at)
			}
			res = hres
			closeAll(sims)
			if err != nil {
				return res, err
			}
			return res, finishMismatch(cfg, m)
		}
	}
	m, res, err = compare(cfg, sims)
	closeAll(sims)
	if err != nil || m == nil {
		return res, err
	}
	return res, finishMismatch(cfg, m)
}

// finishMismatch writes the report and waveforms of a mismatch (unless
// the run asks not to) and wraps it as the error Lockstep returns.
func finishMismatch(cfg Config, m *Mismatch) error {
	m.Seed = cfg.Seed
	if cfg.NoReplay {
		return &MismatchError{M: m}
	}
	if err := replay(cfg, m); err != nil {
		return fmt.Errorf("%s\n(replaying with waveforms failed: %v)", m.Text(), err)
	}
	return &MismatchError{M: m}
}

// hasher is a simulator that generates the in-simulator stimulus itself and
// answers a batch of cycles with one digest of its outputs (batchDigest).
// requestDigest asks for the next n cycles and readDigest returns the
// answer to the oldest request not yet read, so that a simulator in
// another process works on the next request while the Go side reads the
// one before.
type hasher interface {
	seedStimulus(seed uint64) error
	requestDigest(n int) error
	readDigest() (uint64, error)
}

// batchDigest folds a cycle's output hash (outputHash) into the digest of
// its batch, which starts at lfsrChecksumInit: every simulator folds the
// same way, the compiled ones in their harnesses.
func batchDigest(digest, cycleHash uint64) uint64 { return lfsrChecksum(digest, cycleHash) }

// batchQueue is the sizes of the batches a hasher was asked for and has
// not answered yet, oldest first.
type batchQueue []int

func (q *batchQueue) push(n int) { *q = append(*q, n) }

func (q *batchQueue) pop() int {
	n := (*q)[0]
	*q = (*q)[1:]
	return n
}

func allHashers(sims []Simulator) ([]hasher, bool) {
	hs := make([]hasher, len(sims))
	for i, s := range sims {
		h, ok := s.(hasher)
		if !ok {
			return nil, false
		}
		hs[i] = h
	}
	return hs, true
}

// compareHashed is the fast mode: every simulator runs the in-simulator
// stimulus on its own, batch after batch, and only a digest of each
// batch's outputs crosses the pipes: no buffer of per-cycle values
// crowds the model out of the core's cache. It returns the last cycle of
// the first batch whose digests differ, or -1.
func compareHashed(cfg Config, sims []Simulator, hs []hasher) (int64, *Result, error) {
	ports := sims[0].Ports()
	for i, s := range sims {
		if err := Reset(s); err != nil {
			return -1, nil, err
		}
		if err := hs[i].seedStimulus(cfg.Seed); err != nil {
			return -1, nil, err
		}
	}
	type digest struct {
		value uint64
		err   error
	}
	size := func(start uint64) int { return int(min(uint64(cfg.Batch), cfg.Cycles-start)) }
	done := make(chan struct{})
	var workers sync.WaitGroup
	defer func() {
		close(done)
		workers.Wait()
	}()
	results := make([]chan digest, len(sims))
	for i := range sims {
		results[i] = make(chan digest, 2)
		workers.Go(func() {
			requested := uint64(0) // cycles asked for: one batch ahead of those read
			for start := uint64(0); start < cfg.Cycles; start += uint64(cfg.Batch) {
				var d digest
				for requested < min(start+2*uint64(cfg.Batch), cfg.Cycles) && d.err == nil {
					n := size(requested)
					d.err = hs[i].requestDigest(n)
					requested += uint64(n)
				}
				if d.err == nil {
					d.value, d.err = hs[i].readDigest()
				}
				select {
				case results[i] <- d:
				case <-done:
					return
				}
				if d.err != nil {
					return
				}
			}
		})
	}
	res := &Result{}
	for start := uint64(0); start < cfg.Cycles; start += uint64(cfg.Batch) {
		n := uint64(size(start))
		ds := make([]digest, len(sims))
		for i := range sims {
			if ds[i] = <-results[i]; ds[i].err != nil {
				return -1, res, fmt.Errorf("lockstep: %s: %w", sims[i].Name(), ds[i].err)
			}
		}
		for _, d := range ds[1:] {
			if d.value != ds[0].value {
				return int64(start + n - 1), res, nil
			}
		}
		res.Cycles += n
		res.Compared += n * uint64(len(ports.Out))
	}
	var err error
	res.Covers, err = coversOf(sims)
	return -1, res, err
}

// startAll starts a simulator of every backend, all at once (each takes
// milliseconds, a lockstep run of a few million cycles a second).
func startAll(backends []Backend, trace bool) ([]Simulator, error) {
	sims := make([]Simulator, len(backends))
	errs := make([]error, len(backends))
	var wg sync.WaitGroup
	for i, b := range backends {
		wg.Go(func() { sims[i], errs[i] = b(trace) })
	}
	wg.Wait()
	if err := cmp.Or(errs...); err != nil {
		for i, s := range sims {
			if errs[i] == nil {
				s.Close()
			}
		}
		return nil, err
	}
	ref := sims[0].Ports()
	for _, s := range sims[1:] {
		if got := s.Ports(); portNames(got.In) != portNames(ref.In) || portNames(got.Out) != portNames(ref.Out) {
			closeAll(sims)
			return nil, fmt.Errorf("lockstep: %s has ports (%s | %s), %s has (%s | %s)", sims[0].Name(), portNames(ref.In), portNames(ref.Out), s.Name(), portNames(got.In), portNames(got.Out))
		}
	}
	return sims, nil
}

func closeAll(sims []Simulator) {
	for _, s := range sims {
		s.Close()
	}
}

// runAll runs one batch on every simulator at once (the RTL simulators are
// separate processes) and returns each one's outputs.
func runAll(sims []Simulator, in []Vector) ([][]Vector, []error) {
	outs := make([][]Vector, len(sims))
	errs := make([]error, len(sims))
	var wg sync.WaitGroup
	for i, s := range sims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = s.Run(in)
		}()
	}
	wg.Wait()
	return outs, errs
}

// batch is one stretch of cycles on its way through the pipeline.
type batch struct {
	start uint64
	in    []Vector
	outs  [][]Vector
	errs  []error
}

// compare runs the cycles as a pipeline: one goroutine makes the stimulus,
// one per simulator runs batches (the RTL simulators and compiled Go are
// separate processes, so they all work at once), and this goroutine
// compares, one batch behind.
func compare(cfg Config, sims []Simulator) (*Mismatch, *Result, error) {
	ports := sims[0].Ports()
	for _, s := range sims {
		if err := Reset(s); err != nil {
			return nil, nil, err
		}
	}
	done := make(chan struct{})
	var workers sync.WaitGroup
	defer func() { // stop the pipeline; no simulator may be mid-batch when it is closed
		close(done)
		workers.Wait()
	}()
	stim := cfg.Stimulus(cfg.Seed)
	expect, _ := stim.(Expecter)
	generated := make(chan *batch, 2)
	go func() {
		defer close(generated)
		for start := uint64(0); start < cfg.Cycles; start += uint64(cfg.Batch) {
			n := min(uint64(cfg.Batch), cfg.Cycles-start)
			b := &batch{start: start, in: make([]Vector, n), outs: make([][]Vector, len(sims)), errs: make([]error, len(sims))}
			flat := make(Vector, int(n)*ports.InWords())
			for c := range b.in {
				b.in[c] = flat[c*ports.InWords() : (c+1)*ports.InWords()]
				stim.Fill(start+uint64(c), b.in[c])
			}
			select {
			case generated <- b:
			case <-done:
				return
			}
		}
	}()
	// Each simulator gets every batch in order and marks it done on ran.
	feeds := make([]chan *batch, len(sims))
	ran := make([]chan *batch, len(sims))
	for i, s := range sims {
		feeds[i], ran[i] = make(chan *batch, 2), make(chan *batch, 2)
		workers.Add(1)
		if st, ok := s.(streamer); ok {
			go streamBatches(st, i, feeds[i], ran[i], done, &workers)
			continue
		}
		go func() {
			defer workers.Done()
			for b := range feeds[i] {
				b.outs[i], b.errs[i] = s.Run(b.in)
				select {
				case ran[i] <- b:
				case <-done:
					return
				}
			}
		}()
	}
	order := make(chan *batch, 2)
	go func() {
		defer close(order)
		defer func() {
			for _, f := range feeds {
				close(f)
			}
		}()
		for b := range generated {
			for _, f := range feeds {
				select {
				case f <- b:
				case <-done:
					return
				}
			}
			select {
			case order <- b:
			case <-done:
				return
			}
		}
	}()

	res := &Result{}
	history := newInputHistory(ports, 16)
	for b := range order {
		for i := range sims {
			<-ran[i]
		}
		unknown := make([]*UnknownError, len(sims))
		for i, err := range b.errs {
			if err != nil && asPropertyError(err) == nil && !errors.As(err, &unknown[i]) {
				return nil, res, fmt.Errorf("lockstep: %s: %w", sims[i].Name(), err)
			}
		}
		if m := propertyFailure(sims, b); m != nil {
			m.LastInputs = history.lines(b.start, b.in[:m.Cycle-b.start+1])
			return m, res, nil
		}
		for c := range b.in {
			cycle := b.start + uint64(c)
			if expect != nil || !allSame(b.outs, unknown, c) {
				if m := diffCycle(ports, sims, b.outs, unknown, c, cycle, expect); m != nil {
					m.LastInputs = history.lines(b.start, b.in[:c+1])
					return m, res, nil
				}
			}
			res.Cycles++
			res.Compared += uint64(len(ports.Out))
		}
		history.keep(b.start, b.in)
	}
	var err error
	res.Covers, err = coversOf(sims)
	return nil, res, err
}

// propertyFailure describes the first cycle of the batch in which a
// simulator stopped at a failing property, with what each simulator made
// of that cycle, or returns nil.
func propertyFailure(sims []Simulator, b *batch) *Mismatch {
	first := -1
	for _, err := range b.errs {
		if pe := asPropertyError(err); pe != nil && (first < 0 || pe.Cycle < first) {
			first = pe.Cycle
		}
	}
	if first < 0 {
		return nil
	}
	m := &Mismatch{Cycle: b.start + uint64(first)}
	for i, s := range sims {
		v := SimValue{Sim: s.Name(), Value: "(no property fails)"}
		if pe := asPropertyError(b.errs[i]); pe != nil && pe.Cycle == first {
			v.Value = pe.What
			m.Property = cmp.Or(m.Property, pe.What)
		}
		m.Values = append(m.Values, v)
	}
	return m
}

// streamer is a simulator process that takes the next batch before the
// outputs of the last one are read (pipeSim).
type streamer interface {
	send(in []Vector) error
	receive(n int) ([]Vector, error)
}

// streamBatches keeps simulator i's pipe full: one goroutine sends batches
// as they come, another reads their outputs in order. When done closes,
// the sender stops before its next batch and the reader still reads the
// outputs of every batch already sent, so the simulator never blocks on a
// full pipe; the reader returns (and marks the worker done) only after the
// sender has, so no send overlaps the simulator's Close.
func streamBatches(st streamer, i int, feed <-chan *batch, ran chan<- *batch, done <-chan struct{}, workers *sync.WaitGroup) {
	defer workers.Done()
	sent := make(chan *batch, 2)
	go func() {
		defer close(sent)
		for b := range feed {
			select {
			case <-done:
				return
			default:
			}
			b.errs[i] = st.send(b.in)
			sent <- b // the reader drains sent until it is closed
		}
	}()
	stopped := false
	for b := range sent {
		if b.errs[i] == nil {
			b.outs[i], b.errs[i] = st.receive(len(b.in))
		}
		if stopped {
			continue
		}
		select {
		case ran <- b:
		case <-done:
			stopped = true
		}
	}
}

// allSame is the fast path: every simulator's whole output vector of cycle
// c equals the reference's, and none has unknown bits there.
func allSame(outs [][]Vector, unknown []*UnknownError, c int) bool {
	ref := outs[0][c]
	for s := range outs {
		if unknown[s] != nil && unknown[s].Cycle == c || !sameWords(ref, outs[s][c]) {
			return false
		}
	}
	return true
}

// diffCycle compares cycle c of a batch across simulators (and against
// expectations) and describes the first differing port. Unknown bits
// always count as a difference.
func diffCycle(ports Ports, sims []Simulator, outs [][]Vector, unknown []*UnknownError, c int, cycle uint64, expect Expecter) *Mismatch {
	unknownAt := func(s int, port string) bool {
		return unknown[s] != nil && unknown[s].Cycle == c && unknown[s].Port == port
	}
	for i, p := range ports.Out {
		ref := outs[0][c].Field(ports.Out, i)
		differs := false
		for s := range sims {
			differs = differs || !sameWords(ref, outs[s][c].Field(ports.Out, i)) || unknownAt(s, p.Name)
		}
		var want []uint64
		known := false
		if expect != nil {
			want, known = expect.Expect(cycle, i)
			differs = differs || known && !sameWords(ref, want)
		}
		if !differs {
			continue
		}
		m := &Mismatch{Cycle: cycle, Port: p.Name}
		for s, sim := range sims {
			m.Values = append(m.Values, SimValue{sim.Name(), formatField(p, outs[s][c].Field(ports.Out, i), unknownAt(s, p.Name))})
		}
		if known {
			m.Values = append(m.Values, SimValue{"expected", formatField(p, want, false)})
		}
		return m
	}
	return nil
}

// inputHistory keeps the tail of the previous batch's inputs, so a report
// can show the last cycles before a mismatch without copying every cycle.
type inputHistory struct {
	ports     Ports
	keepN     int
	tailStart uint64
	tail      []Vector
}

func newInputHistory(ports Ports, keep int) *inputHistory {
	return &inputHistory{ports: ports, keepN: keep}
}

// keep remembers the last cycles of a finished batch that started at start.
func (h *inputHistory) keep(start uint64, in []Vector) {
	from := max(0, len(in)-h.keepN)
	h.tail = make([]Vector, 0, len(in)-from)
	for _, v := range in[from:] {
		h.tail = append(h.tail, append(Vector(nil), v...))
	}
	h.tailStart = start + uint64(from)
}

// lines renders a header and one line for each of the last cycles up to
// the end of in (the current batch, which started at start).
func (h *inputHistory) lines(start uint64, in []Vector) []string {
	type row struct {
		cycle uint64
		v     Vector
	}
	var all []row
	for k, v := range h.tail {
		all = append(all, row{h.tailStart + uint64(k), v})
	}
	for k, v := range in {
		all = append(all, row{start + uint64(k), v})
	}
	all = all[max(0, len(all)-h.keepN):]
	rows := [][]string{append([]string{"cycle"}, strings.Split(portNames(h.ports.In), ", ")...)}
	for _, r := range all {
		cells := []string{fmt.Sprint(r.cycle)}
		for i, p := range h.ports.In {
			cells = append(cells, formatField(p, r.v.Field(h.ports.In, i), false))
		}
		rows = append(rows, cells)
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	out := make([]string, len(rows))
	for k, r := range rows {
		for i, c := range r {
			r[i] = fmt.Sprintf("%-*s", width[i], c)
		}
		out[k] = strings.TrimRight(strings.Join(r, "  "), " ")
	}
	return out
}

// replay runs the failing run again with waveforms over the last cycles
// before the failure, and writes the report.
func replay(cfg Config, m *Mismatch) error {
	dir := cfg.ReportDir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "parmem-mismatch-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	window := cfg.TraceWindow
	if window == 0 {
		window = 2000
	}
	sims, err := startAll(cfg.Backends, true)
	if err != nil {
		return err
	}
	defer func() { closeAll(sims) }()
	ports := sims[0].Ports()
	for _, s := range sims {
		if err := Reset(s); err != nil {
			return err
		}
	}
	stim := cfg.Stimulus(cfg.Seed)
	from := uint64(0)
	if m.Cycle+1 > window {
		from = m.Cycle + 1 - window
	}
	in := make([]Vector, 0, m.Cycle+1)
	for c := uint64(0); c <= m.Cycle; c++ {
		v := make(Vector, ports.InWords())
		stim.Fill(c, v)
		in = append(in, v)
	}
	runTo := func(vs []Vector) error {
		for k := 0; k < len(vs); k += cfg.Batch {
			_, errs := runAll(sims, vs[k:min(len(vs), k+cfg.Batch)])
			for i, err := range errs {
				var ue *UnknownError
				if err != nil && !errors.As(err, &ue) && asPropertyError(err) == nil {
					return fmt.Errorf("%s: %w", sims[i].Name(), err)
				}
			}
		}
		return nil
	}
	if err := runTo(in[:from]); err != nil {
		return err
	}
	for _, s := range sims {
		t, ok := s.(Tracer)
		if !ok {
			continue
		}
		path := filepath.Join(dir, s.Name()+".vcd")
		if err := t.Trace(path); err != nil {
			return err
		}
		m.Waveforms = append(m.Waveforms, path)
	}
	if err := runTo(in[from:]); err != nil {
		return err
	}
	closeAll(sims) // flushes the waveforms
	sims = nil
	m.Report = filepath.Join(dir, "report.txt")
	return os.WriteFile(m.Report, []byte(m.Text()), 0o644)
}
