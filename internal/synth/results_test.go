package synth

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/parmem/parmem/internal/cache"
	"github.com/stretchr/testify/require"
)

// TestResultsFileCarriesResults: a run's results go to the file; on a
// machine whose tool cache lacks them, importing the file gives the same
// results with no Yosys run (a planted value shows where one comes from);
// a run of some reports keeps the file's other results, a whole run
// drops them; a missing file imports nothing, and a damaged one, or one
// whose key is not a cache key, is an error that names it.
func TestResultsFileCarriesResults(t *testing.T) {
	diskCache = true
	root, err := cache.Root()
	require.NoError(t, err)
	t.Cleanup(func() { // leave the cache as the other tests expect it
		diskCache = false
		entries, _ := filepath.Glob(filepath.Join(root, "synth-*"))
		for _, e := range entries {
			os.RemoveAll(e)
		}
	})
	forget()
	v := verilogOf(t, adder(7))
	measured, err := MapGates("adder", v)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "results.json")
	require.NoError(t, ExportResults(file, false))
	var results map[string]Gates
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &results))
	var key string
	for k, r := range results {
		if r.Gates == measured.Gates && r.Depth == measured.Depth {
			key = k
		}
	}
	require.NotEmpty(t, key, "the adder's result is in the file")

	// Another machine: the cache lacks the entry, the file has it.
	require.NoError(t, os.RemoveAll(filepath.Join(root, "synth-"+key)))
	planted := measured
	planted.Gates = 654321
	results[key] = planted
	data, err = json.Marshal(results)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, data, 0o644))
	forget()
	require.NoError(t, ImportResults(file))
	got, err := MapGates("adder", v)
	require.NoError(t, err)
	require.Equal(t, 654321, got.Gates, "read from the imported file, not measured")

	// A run of some reports keeps the file's other results; a whole run
	// (keep false) writes only what it used.
	other := filepath.Join(t.TempDir(), "other.json")
	require.NoError(t, os.WriteFile(other, []byte(`{"another-design": {"Gates": 5}}`), 0o644))
	require.NoError(t, ExportResults(other, true))
	kept := map[string]Gates{}
	data, err = os.ReadFile(other)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &kept))
	require.Equal(t, 5, kept["another-design"].Gates)
	require.Equal(t, 654321, kept[key].Gates)
	require.NoError(t, ExportResults(other, false))
	clear(kept)
	data, err = os.ReadFile(other)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &kept))
	require.NotContains(t, kept, "another-design")

	require.NoError(t, ImportResults(filepath.Join(t.TempDir(), "none.json")))
	require.NoError(t, os.WriteFile(file, []byte("{damaged"), 0o644))
	require.ErrorContains(t, ImportResults(file), file)
	require.NoError(t, os.WriteFile(file, []byte(`{"../outside": {"Gates": 1}}`), 0o644))
	require.ErrorContains(t, ImportResults(file), `"../outside" is not a tool cache key`)
	require.NoDirExists(t, filepath.Join(root, "outside"))
}
