package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/tools"
)

// Prove asks Yosys's SAT solver whether the 1-bit output ok of m is 1 for
// every input (sat -prove ok 1 on the flattened netlist of m's Verilog).
// A property is a small wrapper module built with hdl around the real
// blocks. It returns false and the model Yosys prints when ok can be 0;
// the test fails when Yosys gives no verdict.
func Prove(t testing.TB, m *hdl.Module) (proved bool, counterexample string) {
	t.Helper()
	d, err := hdl.Elaborate(m)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prove.v"), d.Verilog(), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("read_verilog prove.v; hierarchy -top %s; proc; flatten; opt; sat -prove ok 1 -show-inputs -show-outputs %s", m.Name(), m.Name())
	text := tools.Run(t, dir, "yosys", "-p", script)
	switch {
	case strings.Contains(text, "SAT proof finished - no model found: SUCCESS!"):
		return true, ""
	case strings.Contains(text, "SAT proof finished - model found: FAIL!"):
		i := strings.Index(text, "model found: FAIL!")
		end := strings.Index(text[i:], "End of script")
		if end < 0 {
			end = len(text) - i
		}
		return false, strings.TrimSpace(text[i : i+end])
	}
	t.Fatalf("yosys gave no verdict:\n%s", text)
	return false, ""
}

// CounterexampleValues reads the signal values of a counterexample Prove
// returned: the decimal column of Yosys's table, by signal name without
// its leading backslash.
func CounterexampleValues(counterexample string) map[string]uint64 {
	values := map[string]uint64{}
	for _, line := range strings.Split(counterexample, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], "\\") {
			continue
		}
		if v, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			values[f[0][1:]] = v
		}
	}
	return values
}
