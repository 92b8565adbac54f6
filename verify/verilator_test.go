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

// The runtime objects' cache key is the same for two designs built in two
// directories, also under make (make test), whose directory messages and
// jobserver a nested make would otherwise take up: then every build
// compiled verilated.cpp again.
func TestRuntimeKeyIsSharedUnderMake(t *testing.T) {
	tools.Need(t, "verilator")
	t.Setenv("MAKELEVEL", "1")
	t.Setenv("MAKEFLAGS", "w")
	var dry []string
	for _, top := range []string{"first", "second"} {
		dir := t.TempDir()
		src := "module " + top + " (input wire a, output wire y);\n  assign y = ~a;\nendmodule\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, top+".v"), []byte(src), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "main.cpp"), []byte("int main() { return 0; }\n"), 0o644))
		cmd := exec.Command("verilator", append(verilatorArgs(top, VerilatorOptions{}), top+".v", "main.cpp")...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		globals, commands, err := runtimeCommands(filepath.Join(dir, "obj_dir"), top, VerilatorOptions{})
		require.NoError(t, err)
		require.Contains(t, globals, "verilated.o")
		dry = append(dry, commands)
	}
	require.Contains(t, dry[0], "verilated.cpp")
	require.Equal(t, dry[0], dry[1])
}

// A build tuned to the machine (-march=native) is keyed by the machine's
// CPU, so that a cache shared between machines never hands one another's
// program; other builds are keyed without it.
func TestNativeBuildsAreKeyedByTheCPU(t *testing.T) {
	require.Empty(t, machineOf(VerilatorOptions{}))
	require.Empty(t, machineOf(VerilatorOptions{Optimize: true}))
	require.Empty(t, machineOf(VerilatorOptions{OptFast: BestFlags}), "OptFast counts only with Optimize")
	cpu := machineOf(VerilatorOptions{Optimize: true, OptFast: BestFlags})
	require.NotEmpty(t, cpu)
	if _, err := os.Stat("/proc/cpuinfo"); err == nil {
		require.NotEqual(t, "cpu unknown", cpu)
		require.Contains(t, cpu, "\n", "the model and the feature flags")
	}
}
