package sweep

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// FileError is a set of shard files that is not one run's shards: a
// missing, repeated or foreign shard, or a file another version wrote.
type FileError struct{ Msg string }

func (e *FileError) Error() string { return e.Msg }

func fileErrorf(format string, args ...any) error {
	return &FileError{fmt.Sprintf(format, args...)}
}

// Marshal is the file's text (JSON: the keys are readable, the results'
// gob is not).
func (f *File) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", " ")
	return append(b, '\n'), err
}

// Load reads the shard files at paths and checks that they are a run's
// (named run, as File.Run) shards 0..N-1, each once and each holding
// exactly its jobs: together every job of the run once. It returns them
// in shard order.
func Load(paths []string, run string) ([]*File, error) {
	if len(paths) == 0 {
		return nil, fileErrorf("no shard files")
	}
	byIndex := map[int]*File{}
	var first Shard
	var jobs int
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, &FileError{err.Error()}
		}
		f := &File{Path: p}
		if err := json.Unmarshal(b, f); err != nil {
			return nil, fileErrorf("%s is not a shard file: %v", p, err)
		}
		if f.Run != run {
			return nil, fileErrorf("%s is a shard of %q, not of %q", p, f.Run, run)
		}
		s, err := ParseShard(f.Shard)
		if err != nil {
			return nil, fileErrorf("%s: shard %v", p, err)
		}
		if i == 0 {
			first, jobs = s, f.Jobs
		} else if s.Count != first.Count || f.Jobs != jobs {
			return nil, fileErrorf("%s is shard %s of %d jobs, but %s is shard %s of %d jobs: not one run", p, s, f.Jobs, paths[0], first, jobs)
		}
		if g := byIndex[s.Index]; g != nil {
			return nil, fileErrorf("shard %s is given twice: %s and %s", s, g.Path, p)
		}
		byIndex[s.Index] = f
		want, got := s.Jobs(jobs), make([]int, len(f.Results))
		for i, r := range f.Results {
			got[i] = r.Job
		}
		if !slices.Equal(got, want) {
			return nil, fileErrorf("%s does not hold shard %s's %d jobs of %d but %d jobs: is it from a shard that failed?", p, s, len(want), jobs, len(got))
		}
	}
	files := make([]*File, first.Count)
	var missing []string
	for i := range files {
		if files[i] = byIndex[i]; files[i] == nil {
			missing = append(missing, Shard{i, first.Count}.String())
		}
	}
	if len(missing) > 0 {
		return nil, fileErrorf("shard %s is missing: %d files given of %d", strings.Join(missing, ", "), len(paths), first.Count)
	}
	return files, nil
}

// Merge is a run that takes every job's result from the shard files at
// paths (checked by Load) instead of running it; w is its writer.
func Merge(w io.Writer, paths []string, run string) (*Run, error) {
	files, err := Load(paths, run)
	if err != nil {
		return nil, err
	}
	r := &Run{w: w, shard: Whole, mode: merging, now: time.Now, total: files[0].Jobs,
		replay: map[int]Result{}, files: map[int]string{}}
	for _, f := range files {
		for _, res := range f.Results {
			r.replay[res.Job], r.files[res.Job] = res, f.Path
		}
	}
	return r, nil
}

// Done reports a merge whose files hold jobs the run did not reach.
func (r *Run) Done() error {
	if r.mode == merging && r.next != r.total {
		return fileErrorf("the files hold %d jobs but this run has %d: are they from another version of parmem or other parameters?", r.total, r.next)
	}
	return nil
}
