package verify

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/parmem/parmem/internal/tools"
)

// A Lint build is the design's lint: Verilator refuses to write the C++ of
// a module with an unused input, which only -Wall warns about (UNUSED).
func TestLintBuildFailsOnAStyleWarning(t *testing.T) {
	tools.Need(t, "verilator")
	dir := t.TempDir()
	probe := "module probe (input wire a, input wire b, output wire y);\n  assign y = a;\nendmodule\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "probe.v"), []byte(probe), 0o644))
	cmd := exec.Command("verilator", append(verilatorArgs("probe", VerilatorOptions{Lint: true}), "probe.v")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "%s", out)
	require.Contains(t, string(out), "%Warning-UNUSED")
}
