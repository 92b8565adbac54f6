package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/parmem/parmem/internal/cache"
)

// A results file carries Yosys's results from one machine to another: the
// tool cache's entries (key -> result), one per line, sorted by key. make
// tables writes rtl/synth-results.json with every result its reports used,
// beside the rtl/REPORT.md they make, and reads it back first: a fresh
// clone then synthesizes only the designs, flows or Yosys versions that
// changed (the key covers all of them), and reproduces every other number
// of REPORT.md from the synthesis that made it.

var (
	usedMu sync.Mutex
	used   = map[string]json.RawMessage{} // results this process measured or read, by tool cache key
)

// use records that this process's reports used result data under key.
func use(key string, data []byte) {
	usedMu.Lock()
	used[key] = slices.Clone(data)
	usedMu.Unlock()
}

// ImportResults adds the results of a results file to the tool cache,
// each one the cache lacks. A missing file is no error: the run then
// synthesizes everything.
func ImportResults(path string) error {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var results map[string]json.RawMessage
	if err := json.Unmarshal(data, &results); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	for key, r := range results {
		if !isKey(key) { // (a key names a directory of the cache)
			return fmt.Errorf("%s: %q is not a tool cache key", path, key)
		}
		if _, _, err := cache.Build("synth", key, func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "result.json"), r, 0o644)
		}); err != nil {
			return err
		}
	}
	return nil
}

// isKey reports whether s has the form of cache.Key's keys.
func isKey(s string) bool {
	if len(s) != 24 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ExportResults writes the results this process used to path, and with
// keep the file's other results too (a run of some reports adds to what
// make tables wrote; make tables, which runs them all, drops the results
// of designs no report has any more). It writes through a temporary file,
// so that a failed write leaves the old file whole.
func ExportResults(path string, keep bool) error {
	results := map[string]json.RawMessage{}
	if keep {
		if data, err := os.ReadFile(path); err == nil {
			if err := json.Unmarshal(data, &results); err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
		}
	}
	usedMu.Lock()
	maps.Copy(results, used)
	usedMu.Unlock()
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, key := range slices.Sorted(maps.Keys(results)) {
		var r bytes.Buffer
		if err := json.Compact(&r, results[key]); err != nil {
			return err
		}
		sep := ","
		if i == len(results)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  %q: %s%s\n", key, r.Bytes(), sep)
	}
	b.WriteString("}\n")
	tmp, err := os.CreateTemp(filepath.Dir(path), ".results-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil { // (CreateTemp's file is private)
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
