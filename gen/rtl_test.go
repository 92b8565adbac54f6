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
// gen makes today (run make rtl), and lints every file there.
func TestCanonicalRTLIsCurrent(t *testing.T) {
	root := filepath.Join("..", "rtl")
	for _, c := range canonical {
		want, err := canonicalText(c.args)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(root, c.file))
		require.NoErrorf(t, err, "rtl/%s is missing: run make rtl", c.file)
		require.Truef(t, bytes.Equal(want, got), "rtl/%s is stale: run make rtl", c.file)
		tools.LintClean(t, filepath.Dir(filepath.Join(root, c.file)), filepath.Base(c.file))
		tools.IverilogCompile(t, root, "/dev/null", c.file)
	}
	files, err := filepath.Glob(filepath.Join(root, "*", "*.v"))
	require.NoError(t, err)
	require.Len(t, files, len(canonical), "every file in rtl/ is canonical (no leftovers)")
}
