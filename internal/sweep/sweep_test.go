package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Every job of a run is in exactly one shard, for any N, and In counts a
// shard's jobs of a range as Owns does.
func TestShardsHaveNoOverlapAndNoGap(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for total := range 40 {
			seen := make([]int, total)
			for i := range n {
				s := Shard{i, n}
				for _, k := range s.Jobs(total) {
					require.True(t, s.Owns(k))
					seen[k]++
				}
				for first := range total {
					owned := 0
					for k := first; k < total; k++ {
						if s.Owns(k) {
							owned++
						}
					}
					require.Equal(t, owned, s.In(first, total-first), "shard %v, jobs %d..%d", s, first, total-1)
				}
			}
			for k, c := range seen {
				require.Equal(t, 1, c, "job %d of %d in %d shards of %d", k, total, c, n)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, ok := range []string{"0/1", "2/3", "99/100"} {
		s, err := ParseShard(ok)
		require.NoError(t, err)
		require.Equal(t, ok, s.String())
	}
	for _, bad := range []string{"3/3", "-1/3", "0/0", "x", "1", "1/", "/2", "1/2/3", " 1/2"} {
		_, err := ParseShard(bad)
		require.EqualError(t, err, fmt.Sprintf("%q is not %s", bad, ShardRange))
	}
}

// clock is a fake time.Now that a test moves on.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// Progress shows done/total, the rate and the time left: the first line at
// once, then at most one per ProgressEvery, and always the last.
func TestProgressLines(t *testing.T) {
	c := &clock{time.Unix(1e9, 0)}
	var b bytes.Buffer
	p := NewProgress(&b, "scaling", "jobs", 40, c.now)
	c.t = c.t.Add(time.Minute)
	p.Add(1) // 1/40 after a minute: shown, the last line was a minute ago
	c.t = c.t.Add(time.Second)
	p.Add(1) // a second later: not shown
	c.t = c.t.Add(14 * time.Minute)
	p.Add(10) // 12/40 after 15 min: 0.8 jobs/min, 28 jobs left = 35 min
	c.t = c.t.Add(time.Hour)
	p.Add(28)
	require.Equal(t, "scaling: 0/40 jobs\n"+
		"scaling: 1/40 jobs, 1.0 jobs/min, about 39 min left\n"+
		"scaling: 12/40 jobs, 0.8 jobs/min, about 35 min left\n"+
		"scaling: 40/40 jobs, 0.5 jobs/min, done in 1 h 15 min\n", b.String())

	b.Reset()
	p = NewProgress(&b, "soak", "netlists", 10000, c.now)
	c.t = c.t.Add(10 * time.Second)
	p.Add(200)
	c.t = c.t.Add(3 * time.Hour)
	p.Add(200)
	require.Equal(t, "soak: 0/10000 netlists\n"+
		"soak: 200/10000 netlists, 20.0 netlists/s, about 8 min left\n"+
		"soak: 400/10000 netlists, 2.2 netlists/min, about 72 h 04 min left\n", b.String())
}

// stage1 is a result with what gob must carry: a nil and a set pointer, a
// map, a NaN, and a hook that it leaves out.
type stage1 struct {
	N    int
	Half *int
	Tags map[string]int
	X    float64
	Hook func()
}

// a two-stage run, as a report's: its results as text.
func twoStages(w io.Writer) (string, error) {
	xs := []int{1, 2, 3, 4, 5, 6, 7}
	r1, err := Map(w, "one", xs, func(x int) (*stage1, error) {
		s := &stage1{N: x * x, Tags: map[string]int{fmt.Sprint(x): x}, X: math.NaN()}
		if x%2 == 0 {
			h := x / 2
			s.Half = &h
		}
		return s, nil
	})
	if err != nil {
		return "", err
	}
	r2, err := Map(w, "two", []string{"a", "bb", "ccc"}, func(s string) (float64, error) { return float64(len(s)) / 3, nil })
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, s := range r1 {
		half := "nil"
		if s.Half != nil {
			half = fmt.Sprint(*s.Half)
		}
		fmt.Fprintf(&b, "%d %s %v %v;", s.N, half, s.Tags, s.X)
	}
	fmt.Fprint(&b, r2)
	return b.String(), nil
}

// shardFiles runs fn in n shards and writes their files under dir.
func shardFiles(t *testing.T, dir, run string, n int, fn func(io.Writer) error) []string {
	var paths []string
	for i := range n {
		r := New(io.Discard, Shard{i, n}, true)
		require.NoError(t, r.Do("test", fn))
		paths = append(paths, writeShardFile(t, dir, i, r.File(run)))
	}
	return paths
}

// writeShardFile writes shard i's file under dir and returns its path.
func writeShardFile(t *testing.T, dir string, i int, f *File) string {
	b, err := f.Marshal()
	require.NoError(t, err)
	p := filepath.Join(dir, fmt.Sprintf("part_%d", i))
	require.NoError(t, os.WriteFile(p, b, 0o644))
	return p
}

// Three shards merged give what one run gives, stage by stage.
func TestShardsMergeToOneRun(t *testing.T) {
	var one string
	var progress bytes.Buffer
	require.NoError(t, New(&progress, Whole, false).Do("test", func(w io.Writer) (err error) { one, err = twoStages(w); return }))
	require.Contains(t, progress.String(), "test: 10/10 jobs, ")

	var calls int
	paths := shardFiles(t, t.TempDir(), "test run", 3, func(w io.Writer) error {
		calls++
		_, err := twoStages(w)
		return err
	})
	require.Equal(t, 6, calls, "listed, then run, in each shard")
	m, err := Merge(io.Discard, paths, "test run")
	require.NoError(t, err)
	var merged string
	require.NoError(t, m.Do("test", func(w io.Writer) (err error) { merged, err = twoStages(w); return }))
	require.NoError(t, m.Done())
	require.Equal(t, one, merged)
	require.Contains(t, one, "16 2 map[4:4] NaN;25 nil map[5:5] NaN;", "the pointers and the NaN came through")
}

// Merge refuses files that are not every shard of one run once, naming
// the shard or the file.
func TestMergeRefusesAnIncompleteRun(t *testing.T) {
	dir := t.TempDir()
	run := func(w io.Writer) error { _, err := twoStages(w); return err }
	paths := shardFiles(t, dir, "test run", 3, run)
	other := shardFiles(t, t.TempDir(), "test run", 2, run)
	load := func(ps ...string) error { _, err := Load(ps, "test run"); return err }

	require.EqualError(t, load(paths[0], paths[2]), "shard 1/3 is missing: 2 files given of 3")
	require.EqualError(t, load(paths[0], paths[1], paths[1]), fmt.Sprintf("shard 1/3 is given twice: %s and %s", paths[1], paths[1]))
	require.EqualError(t, load(paths[0], other[1]), fmt.Sprintf("%s is shard 1/2 of 10 jobs, but %s is shard 0/3 of 10 jobs: not one run", other[1], paths[0]))
	_, err := Load(paths, "another run")
	require.EqualError(t, err, fmt.Sprintf("%s is a shard of %q, not of %q", paths[0], "test run", "another run"))
	require.ErrorContains(t, load(filepath.Join(dir, "none")), "no such file")
	require.EqualError(t, load(), "no shard files")

	// A shard's file with a job missing (hand-edited, or a shard that
	// failed) is named.
	var f File
	b, err := os.ReadFile(paths[1])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &f))
	f.Results = f.Results[1:]
	b, err = f.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(paths[1], b, 0o644))
	require.EqualError(t, load(paths...), fmt.Sprintf("%s does not hold shard 1/3's 3 jobs of 10 but 2 jobs: is it from a shard that failed?", paths[1]))

	// Files of a run with other jobs: the replay names the job.
	paths = shardFiles(t, dir, "test run", 3, run)
	m, err := Merge(io.Discard, paths, "test run")
	require.NoError(t, err)
	err = m.Do("test", func(w io.Writer) error {
		_, err := Map(w, "other", []int{1}, func(int) (int, error) { return 0, nil })
		return err
	})
	require.EqualError(t, err, fmt.Sprintf(`%s: job 0 is "one: job 1 of 7", but this run's is "other: job 1 of 1": is it from another version of parmem?`, paths[0]))
	m, err = Merge(io.Discard, paths, "test run")
	require.NoError(t, err)
	require.NoError(t, m.Do("test", func(w io.Writer) error {
		_, err := Map(w, "one", []int{1, 2, 3, 4, 5, 6, 7}, func(int) (stage1, error) { return stage1{}, nil })
		return err
	}))
	require.EqualError(t, m.Done(), "the files hold 10 jobs but this run has 7: are they from another version of parmem or other parameters?")
}

// A result gob would not carry whole is refused before any job runs.
func TestMapRefusesAResultAShardFileWouldDrop(t *testing.T) {
	type hidden struct{ shown, gone int }
	_, err := Map(io.Discard, "test", []int{1}, func(int) (hidden, error) { t.Fatal("ran"); return hidden{}, nil })
	require.EqualError(t, err, "test: a job's result sweep.hidden: sweep.hidden's field shown is unexported")
	_, err = Map(io.Discard, "test", []int{1}, func(int) (io.Writer, error) { t.Fatal("ran"); return nil, nil })
	require.EqualError(t, err, "test: a job's result io.Writer: io.Writer is a interface")
}

// A report that picks its jobs from other jobs' results cannot be
// sharded: Do says so.
func TestDoRefusesJobsThatDependOnResults(t *testing.T) {
	err := New(io.Discard, Whole, false).Do("test", func(w io.Writer) error {
		r, err := Map(w, "first", []int{3}, func(x int) (int, error) { return x, nil })
		if err != nil {
			return err
		}
		_, err = Map(w, "then", make([]int, r[0]), func(x int) (int, error) { return x, nil })
		return err
	})
	require.EqualError(t, err, "test ran 4 jobs after listing 1: its jobs must not depend on other jobs' results, which a shard does not have")
}

// Reports run at once (DoAll) number their jobs as reports run in turn
// (Do) do: each shard's file is the same either way, and the merge of
// either gives every report's one-run result.
func TestReportsAtOnceShardAsInTurn(t *testing.T) {
	const reports = 3
	results := func(run func(r *Run, fns []func(io.Writer) error) error, shard Shard) ([]string, *Run) {
		out := make([]string, reports)
		fns := make([]func(io.Writer) error, reports)
		for i := range fns {
			fns[i] = func(w io.Writer) (err error) { out[i], err = twoStages(w); return }
		}
		r := New(io.Discard, shard, true)
		require.NoError(t, run(r, fns))
		return out, r
	}
	inTurn := func(r *Run, fns []func(io.Writer) error) error {
		for _, fn := range fns {
			if err := r.Do("test", fn); err != nil {
				return err
			}
		}
		return nil
	}
	atOnce := func(r *Run, fns []func(io.Writer) error) error {
		return r.DoAll([]string{"a", "b", "c"}, fns)
	}
	one, _ := results(inTurn, Whole)
	together, _ := results(atOnce, Whole)
	require.Equal(t, one, together)

	dir := t.TempDir()
	var paths []string
	for i := range 3 {
		_, a := results(inTurn, Shard{i, 3})
		_, b := results(atOnce, Shard{i, 3})
		fa, fb := a.File("run"), b.File("run")
		require.Equal(t, fa, fb, "shard %d", i)
		require.Len(t, fb.Results, 10, "shard %d holds a third of 3 x 10 jobs", i)
		paths = append(paths, writeShardFile(t, dir, i, fb))
	}
	m, err := Merge(io.Discard, paths, "run")
	require.NoError(t, err)
	merged := make([]string, reports)
	fns := make([]func(io.Writer) error, reports)
	for i := range fns {
		fns[i] = func(w io.Writer) (err error) { merged[i], err = twoStages(w); return }
	}
	require.NoError(t, m.DoAll([]string{"a", "b", "c"}, fns))
	require.NoError(t, m.Done())
	require.Equal(t, one, merged)
}

// A Memo runs a key's job once, however many ask, and keeps keys apart.
func TestMemoRunsAKeyOnce(t *testing.T) {
	var m Memo[int, int]
	runs := 0
	square := func(k int) func() (int, error) { return func() (int, error) { runs++; return k * k, nil } }
	for range 3 {
		v, err := m.Get(3, square(3))
		require.NoError(t, err)
		require.Equal(t, 9, v)
	}
	v, _ := m.Get(4, square(4))
	require.Equal(t, 16, v)
	require.Equal(t, 2, runs)
}
