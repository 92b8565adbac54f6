package sweep

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/parmem/parmem/internal/parallel"
)

// Run is a run's jobs as Map sees them. gen hands one to a report as its
// progress writer (units.Report.Run), so the report's Map calls run only
// the jobs of its shard, record their results for the shard's file, or
// take every result from the shards' files to merge them; writes go
// through to stderr.
type Run struct {
	w      io.Writer
	shard  Shard
	mode   mode
	record bool // keep the results for File
	now    func() time.Time

	next     int       // the next job's number
	progress *Progress // of the current Do, or nil

	mu      sync.Mutex
	results []Result       // recorded
	replay  map[int]Result // merging: every job's result, from the files
	total   int            // merging: the files' jobs
	files   map[int]string // merging: the file of each job, for messages
}

type mode int

const (
	execute  mode = iota // run the shard's jobs
	planning             // count the jobs, run none
	merging              // take every job's result from the files
)

// New is a run of shard s's jobs with progress on w (stderr); with record,
// it keeps their results for File.
func New(w io.Writer, s Shard, record bool) *Run {
	return &Run{w: w, shard: s, record: record, now: time.Now}
}

// Write writes a report's own lines to the run's writer.
func (r *Run) Write(p []byte) (int, error) { return r.w.Write(p) }

// Do runs fn, a report's run (label its name) whose Map calls take w,
// with progress over the jobs of the shard, which Plan counts first. A
// merging run only replays fn.
func (r *Run) Do(label string, fn func(w io.Writer) error) error {
	if r.mode == merging {
		return fn(r)
	}
	n, err := Plan(fn)
	if err != nil {
		return fmt.Errorf("%s: listing its jobs: %w", label, err)
	}
	return r.doPlanned(label, fn, n)
}

// doPlanned is Do of fn, whose n jobs Plan has counted.
func (r *Run) doPlanned(label string, fn func(w io.Writer) error, n int) error {
	if r.mode == merging {
		return fn(r)
	}
	base := r.next
	if r.shard.Count > 1 {
		label += " shard " + r.shard.String()
	}
	if owned := r.shard.In(base, n); owned > 0 {
		r.progress = NewProgress(r.w, label, "jobs", owned, r.now)
	}
	defer func() { r.progress = nil }()
	if err := fn(r); err != nil {
		return err
	}
	if r.next != base+n {
		return fmt.Errorf("%s ran %d jobs after listing %d: its jobs must not depend on other jobs' results, which a shard does not have", label, r.next-base, n)
	}
	return nil
}

// DoAll runs several reports (labels their names, fns their runs as in
// Do) at once rather than in turn: their jobs are numbered as Do in turn
// numbers them, so a shard holds the same jobs and a merge replays the
// same files either way, and meanwhile one report's long job (a Yosys run
// of minutes) no longer leaves the other CPUs idle. It returns the first
// error in the reports' order.
func (r *Run) DoAll(labels []string, fns []func(w io.Writer) error) error {
	w := &lockedWriter{w: r.w}
	runs := make([]*Run, len(fns))
	jobs := make([]int, len(fns))
	for i, fn := range fns {
		n, err := Plan(fn)
		if err != nil {
			return fmt.Errorf("%s: listing its jobs: %w", labels[i], err)
		}
		runs[i] = &Run{w: w, shard: r.shard, mode: r.mode, record: r.record, now: r.now,
			next: r.next, replay: r.replay, total: r.total, files: r.files}
		jobs[i] = n
		r.next += n
	}
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Go(func() { errs[i] = runs[i].doPlanned(labels[i], fn, jobs[i]) })
	}
	wg.Wait()
	for _, c := range runs {
		r.results = append(r.results, c.results...)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// lockedWriter writes the reports' lines one at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Plan counts fn's jobs by running it with no job run: each Map's results
// are placeholders (zero values, pointers to them), as a shard's are for the jobs
// of other shards. So fn must not choose its jobs from other jobs'
// results, nor fail on the zero values.
func Plan(fn func(w io.Writer) error) (int, error) {
	plan := &Run{w: io.Discard, mode: planning}
	err := fn(plan)
	return plan.next, err
}

// Map is parallel.Map for the jobs of a run: it applies f to the items
// (a stage of jobs, label naming it in messages and shard files) and
// returns the results in the items' order. When w is a *Run, only the
// jobs of its shard run (the rest are placeholders, as in Plan),
// or, merging, every result comes from the files; any other w runs every
// job with progress on w. A result must survive a shard file (gob): no
// unexported fields, interfaces or functions.
func Map[T, R any](w io.Writer, label string, items []T, f func(T) (R, error)) ([]R, error) {
	r, ok := w.(*Run)
	if !ok {
		r = New(w, Whole, false)
	}
	if err := storable(reflect.TypeFor[R](), map[reflect.Type]bool{}); err != nil {
		return nil, fmt.Errorf("%s: a job's result %v: %v", label, reflect.TypeFor[R](), err)
	}
	base := r.next
	r.next += len(items)
	results := make([]R, len(items))
	if r.mode == merging {
		for i, item := range items {
			v, err := r.replayed(base+i, key(label, i, len(items), item))
			if err != nil {
				return nil, err
			}
			// Into a zero value, not a placeholder: a nil pointer, which gob
			// leaves out, stays nil.
			if err := gob.NewDecoder(bytes.NewReader(v)).Decode(&results[i]); err != nil {
				return nil, &FileError{fmt.Sprintf("%s: job %d: %v", r.files[base+i], base+i, err)}
			}
		}
		return results, nil
	}
	var owned []int
	for i := range items {
		if r.mode == execute && r.shard.Owns(base+i) {
			owned = append(owned, i)
		} else {
			results[i] = placeholder[R]()
		}
	}
	if r.mode == planning {
		return results, nil
	}
	p := r.progress
	if p == nil {
		p = NewProgress(r.w, label, "jobs", len(owned), r.now)
	}
	_, err := parallel.Map(owned, func(i int) (struct{}, error) {
		v, err := f(items[i])
		if err != nil {
			return struct{}{}, err
		}
		results[i] = v
		if r.record {
			var b bytes.Buffer
			if err := gob.NewEncoder(&b).Encode(v); err != nil {
				return struct{}{}, fmt.Errorf("%s: job %d's result: %v", label, base+i, err)
			}
			r.mu.Lock()
			r.results = append(r.results, Result{Job: base + i, Key: key(label, i, len(items), items[i]), Value: b.Bytes()})
			r.mu.Unlock()
		}
		p.Add(1)
		return struct{}{}, nil
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}

// key names job i of a stage of n in shard files: the item's String
// (a units.Config's command line) or its place in the stage. Not %v: an
// item may hold pointers, which differ from run to run.
func key(label string, i, n int, item any) string {
	if s, ok := item.(fmt.Stringer); ok {
		return label + ": " + s.String()
	}
	return fmt.Sprintf("%s: job %d of %d", label, i+1, n)
}

// placeholder is a job's result where the run has none: the zero value
// with its pointers, and its struct fields' pointers, to zero values, so
// that a report's tables can be made from it (rsdmm-cost reads a
// measurement's gates through a pointer).
func placeholder[R any]() R {
	var v R
	fill(reflect.ValueOf(&v).Elem(), map[reflect.Type]bool{})
	return v
}

// fill points v's nil pointers, and its struct fields', to zero values;
// onPath stops a recursive type.
func fill(v reflect.Value, onPath map[reflect.Type]bool) {
	t := v.Type()
	if onPath[t] {
		return
	}
	onPath[t] = true
	defer delete(onPath, t)
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		fill(v.Elem(), onPath)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				fill(v.Field(i), onPath)
			}
		}
	}
}

// storable reports why gob would not carry a value of type t whole: gob
// drops unexported fields without a word, and needs interfaces registered.
// A field of a func or chan type, which gob skips too, is a hook (a trace
// callback in a result's config), not a measurement: it may stay.
func storable(t reflect.Type, seen map[reflect.Type]bool) error {
	if seen[t] {
		return nil
	}
	seen[t] = true
	if t.Implements(reflect.TypeFor[gob.GobEncoder]()) || t.Implements(reflect.TypeFor[encoding.BinaryMarshaler]()) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return fmt.Errorf("%v's field %s is unexported", t, f.Name)
			}
			if k := f.Type.Kind(); k == reflect.Func || k == reflect.Chan {
				continue
			}
			if err := storable(f.Type, seen); err != nil {
				return err
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return storable(t.Elem(), seen)
	case reflect.Map:
		if err := storable(t.Key(), seen); err != nil {
			return err
		}
		return storable(t.Elem(), seen)
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return fmt.Errorf("%v is a %v", t, t.Kind())
	}
	return nil
}

// File is what a shard writes (gen -report NAME -shard i/N -o FILE):
// the jobs it ran and their results.
type File struct {
	// Run names what ran, the same for every shard of one run: the
	// command and its parameters ("gen -report rsdmm-patterns -rounds
	// 1000").
	Run   string
	Shard string // "1/3"
	Jobs  int    // the run's jobs, over all its shards
	// Results are the shard's jobs in order, each with its result in gob
	// (none for make soak's netlists, which pass or fail).
	Results []Result
	Path    string `json:"-"` // where Load read it
}

// Result is one job's.
type Result struct {
	Job   int
	Key   string // "scaling: sams-atu -n 23 -q 3": the stage and the item
	Value []byte `json:",omitempty"`
}

// File is the run's shard file for a run named run (File.Run); the run
// must have been made with record.
func (r *Run) File(run string) *File {
	rs := slices.Clone(r.results)
	slices.SortFunc(rs, func(a, b Result) int { return a.Job - b.Job })
	return &File{Run: run, Shard: r.shard.String(), Jobs: r.next, Results: rs}
}

// replayed is job k's result from the files, checked against the key the
// run gives it.
func (r *Run) replayed(k int, key string) ([]byte, error) {
	res, ok := r.replay[k]
	switch {
	case !ok:
		return nil, &FileError{fmt.Sprintf("the files hold %d jobs, but this run has more (%s): are they from another version of parmem?", r.total, key)}
	case res.Key != key:
		return nil, &FileError{fmt.Sprintf("%s: job %d is %q, but this run's is %q: is it from another version of parmem?", r.files[k], k, res.Key, key)}
	}
	return res.Value, nil
}
