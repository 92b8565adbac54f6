package verify

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/parmem/parmem/internal/cache"
	"github.com/parmem/parmem/units"
)

// CoverageRecord is what a lockstep pack's stimulus covered in its last
// run (checkCoverage records it, gen -report coverage sums the records up
// per unit): the pack's configurations and each cover point with its hits
// and, for one never hit, Yosys's verdict.
type CoverageRecord struct {
	Pack    string         `json:"pack"`   // the pack's top module: "lib_units"
	Date    time.Time      `json:"date"`   // when the run ended
	Cycles  int            `json:"cycles"` // of stimulus
	Configs []units.Config `json:"configs"`
	Points  []CoverPoint   `json:"points"`
}

// CoverPoint is a module's cover point in a pack, counted in all its
// instances in all the pack's configurations, as the pack's check judges
// it.
type CoverPoint struct {
	Module string `json:"module"`
	Name   string `json:"name"` // in the module: "full"
	// Configs are the configurations that hold it, as indices into the
	// record's Configs, ascending; Yosys judges a point never hit in the
	// first of them.
	Configs []int  `json:"configs"`
	Hits    uint64 `json:"hits"`
	// Verdict and Why are a never-hit point's: proven unreachable, or a
	// gap and why it is one.
	Verdict CoverVerdict `json:"verdict,omitempty"`
	Why     string       `json:"why,omitempty"`
}

// CoverVerdict is what became of a cover point the stimulus never hit.
type CoverVerdict string

const (
	// CoverUnreachable: Yosys proves no input sequence reaches it.
	CoverUnreachable CoverVerdict = "unreachable"
	// CoverGap: not proven unreachable, so a gap in the stimulus; the pack
	// fails where Yosys reaches it.
	CoverGap CoverVerdict = "gap"
)

// CoverageDir is where the packs' records are: coverage/ in the tool
// cache, one file per pack, <pack>.json, that the pack's next run
// replaces.
func CoverageDir() (string, error) { return cache.Dir("coverage") }

// coverageDir is where checkCoverage writes: CoverageDir, or a test's
// directory.
var coverageDir = CoverageDir

// WriteCoverage writes rec as dir/<pack>.json, atomically (a temporary
// file renamed over it), so that a reader finds the pack's previous record
// or this one whole, never part of one.
func WriteCoverage(dir string, rec CoverageRecord) error {
	b, err := json.MarshalIndent(rec, "", "\t")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+rec.Pack+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // once renamed, there is nothing to remove
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, rec.Pack+".json"))
}

// ReadCoverage reads every pack's record in dir, in the order of the packs'
// names; none when the directory does not exist.
func ReadCoverage(dir string) ([]CoverageRecord, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var recs []CoverageRecord
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var rec CoverageRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if rec.Pack+".json" != filepath.Base(f) {
			return nil, fmt.Errorf("%s: the record of pack %q", f, rec.Pack)
		}
		for _, p := range rec.Points {
			if len(p.Configs) == 0 || slices.ContainsFunc(p.Configs, func(k int) bool { return k < 0 || k >= len(rec.Configs) }) {
				return nil, fmt.Errorf("%s: cover point %s.%s: configurations %v of %d", f, p.Module, p.Name, p.Configs, len(rec.Configs))
			}
		}
		recs = append(recs, rec)
	}
	return recs, nil
}
