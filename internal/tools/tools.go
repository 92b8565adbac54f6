// Package tools runs the external EDA tools parmem's tests rely on:
// Verilator, Icarus Verilog and Yosys. They are installed by scripts/deps.sh
// (make deps); a test that needs a missing tool fails and says so, because a
// skipped co-simulation must never count as a pass.
package tools

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// Need fails the test unless every named executable is on PATH.
func Need(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			t.Fatalf("%s is not installed; run `make deps` (scripts/deps.sh installs iverilog, verilator and yosys)", n)
		}
	}
}

// Run runs a command in dir and returns its combined output; a failure
// fails the test with that output.
func Run(t testing.TB, dir, name string, args ...string) string {
	t.Helper()
	Need(t, name)
	out, err := Output(dir, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// Output runs a command in dir and returns its combined output and error.
func Output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

// LintClean fails the test unless `verilator --lint-only -Wall` accepts the
// files without a single warning.
func LintClean(t testing.TB, dir string, files ...string) {
	t.Helper()
	Need(t, "verilator")
	out, err := Output(dir, "verilator", append([]string{"--lint-only", "-Wall"}, files...)...)
	if err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("verilator --lint-only -Wall %s: %v\n%s", strings.Join(files, " "), err, out)
	}
}

// IverilogCompile fails the test unless `iverilog -g2005` compiles the files
// without a message; it writes the compiled program to out.
func IverilogCompile(t testing.TB, dir, out string, files ...string) {
	t.Helper()
	Need(t, "iverilog")
	res, err := Output(dir, "iverilog", append([]string{"-g2005", "-o", out}, files...)...)
	if err != nil || strings.TrimSpace(res) != "" {
		t.Fatalf("iverilog -g2005 %s: %v\n%s", strings.Join(files, " "), err, res)
	}
}

// YosysStat runs Yosys's generic front half (proc, opt, memory inference
// without mapping) on files and returns the `stat` report.
func YosysStat(t testing.TB, dir, top string, files ...string) string {
	t.Helper()
	script := fmt.Sprintf("read_verilog %s; hierarchy -top %s; proc; opt; memory -nomap; stat", strings.Join(files, " "), top)
	return Run(t, dir, "yosys", "-p", script)
}
