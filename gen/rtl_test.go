package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/parmem/parmem/internal/tools"
	"github.com/stretchr/testify/require"
)

// TestCanonicalRTLIsCurrent fails when a file in rtl/ differs from what
// gen makes today from the canonical configurations the families register
// (run make rtl), and lints every file there.
func TestCanonicalRTLIsCurrent(t *testing.T) {
	root := filepath.Join("..", "rtl")
	cs := canonicalFiles()
	require.NotEmpty(t, cs)
	for _, c := range cs {
		want, err := canonicalText(c)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.File)))
		require.NoErrorf(t, err, "rtl/%s is missing: run make rtl", c.File)
		require.Truef(t, bytes.Equal(want, got), "rtl/%s is stale: run make rtl", c.File)
		require.Containsf(t, string(got), "module "+c.Top+" (", "rtl/%s: its top module is %s", c.File, c.Top)
		dir, file := filepath.Split(filepath.Join(root, c.File))
		tools.LintClean(t, dir, file)
		tools.IverilogCompile(t, dir, "/dev/null", file)
	}
	files, err := filepath.Glob(filepath.Join(root, "*", "*.v"))
	require.NoError(t, err)
	require.Len(t, files, len(cs), "every file in rtl/ is canonical (no leftovers)")
}

// gen -canonical writes every registered file, byte for byte what the
// staleness test compares.
func TestCanonicalWritesEveryFile(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runGen("-canonical", dir)
	require.Equal(t, 0, code, errs)
	require.Empty(t, out)
	for _, c := range canonicalFiles() {
		want, err := canonicalText(c)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c.File)))
		require.NoError(t, err)
		require.Truef(t, bytes.Equal(want, got), "%s", c.File)
	}
}
