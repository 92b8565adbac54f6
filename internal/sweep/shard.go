// Package sweep runs the long job lists of parmem (a design-review
// report's measurements, make soak's random netlists) at scale: it shows
// their progress on stderr, splits one run into shards for N machines of a
// batch system with no overlap and no gap, and merges the shards' files
// back into the one-machine result (issue 14, item 7).
//
// A run's jobs are numbered 0, 1, ... in the order the run reaches them,
// and job k belongs to shard k mod N: interleaved, so that each shard gets
// a like share of the cheap and the costly jobs (a report lists its sizes
// in order).
package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is shard Index of Count (0 <= Index < Count). Index is 0-based,
// as Kubernetes's JOB_COMPLETION_INDEX and a Slurm array started at 0
// (sbatch --array=0-2, SLURM_ARRAY_TASK_ID) number their tasks.
type Shard struct{ Index, Count int }

// Whole is the unsharded run: one shard that owns every job.
var Whole = Shard{0, 1}

// ShardRange names the valid shards in messages.
const ShardRange = "i/N with N >= 1 and i in 0..N-1 (0-based, as Slurm's --array=0-(N-1) and Kubernetes's JOB_COMPLETION_INDEX)"

// ParseShard parses "i/N".
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("%q is not %s", s, ShardRange)
	}
	return Shard{i, n}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Owns reports whether job k belongs to the shard.
func (s Shard) Owns(k int) bool { return k%s.Count == s.Index }

// Jobs are the jobs of 0..total-1 the shard owns, in order.
func (s Shard) Jobs(total int) []int {
	var ks []int
	for k := s.Index; k < total; k += s.Count {
		ks = append(ks, k)
	}
	return ks
}

// In is how many of the jobs first..first+n-1 the shard owns.
func (s Shard) In(first, n int) int { return s.below(first+n) - s.below(first) }

// below is how many of the jobs 0..total-1 the shard owns.
func (s Shard) below(total int) int {
	if total <= s.Index {
		return 0
	}
	return (total - s.Index + s.Count - 1) / s.Count
}
