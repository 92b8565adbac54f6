// Package tools runs the external EDA tools parmem's tests rely on:
// Verilator, Icarus Verilog and Yosys. They are installed by scripts/deps.sh
// (make deps); a test that needs a missing tool fails and says so, because a
// skipped co-simulation must never count as a pass.
package tools

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/cache"
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
	args := append([]string{"--lint-only", "-Wall"}, files...)
	if err := silentOnce(dir, "lint", "verilator", "--version", args, files); err != nil {
		t.Fatalf("verilator %s: %v", strings.Join(args, " "), err)
	}
	if hasFormal(t, dir, files) { // and the form with the properties (hdl's verilog_formal.go)
		args = append([]string{"-DFORMAL"}, args...)
		if err := silentOnce(dir, "lint", "verilator", "--version", args, files); err != nil {
			t.Fatalf("verilator %s: %v", strings.Join(args, " "), err)
		}
	}
}

// hasFormal reports whether one of the files has a properties' section.
func hasFormal(t testing.TB, dir string, files []string) bool {
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(text, []byte("`ifdef FORMAL")) {
			return true
		}
	}
	return false
}

// IverilogCompile fails the test unless `iverilog -g2005` compiles the files
// without a message; it writes the compiled program to out.
func IverilogCompile(t testing.TB, dir, out string, files ...string) {
	t.Helper()
	Need(t, "iverilog")
	args := append([]string{"-g2005", "-o", out}, files...)
	run := func() error { return silent(dir, "iverilog", args) }
	if out == os.DevNull { // a check only: nothing to keep but the verdict
		run = func() error { return silentOnce(dir, "iverilog-check", "iverilog", "-V", args, files) }
	}
	if err := run(); err != nil {
		t.Fatalf("iverilog %s: %v", strings.Join(args, " "), err)
	}
}

// silent runs tool with args in dir, and fails unless it succeeds without
// printing anything.
func silent(dir, tool string, args []string) error {
	out, err := Output(dir, tool, args...)
	if err != nil || strings.TrimSpace(out) != "" {
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}

// silentOnce is silent, remembered in the cache (internal/cache) under
// kind by the tool's version, the arguments and the files' names and
// contents: a file checked clean once is not checked again (rtl/, the
// README's commands and gen's examples write the same Verilog).
func silentOnce(dir, kind, tool, versionFlag string, args, files []string) error {
	parts := []string{cache.ToolVersion(tool, versionFlag), strings.Join(args, "\x00")}
	for _, f := range files {
		text, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		parts = append(parts, f, string(text))
	}
	_, _, err := cache.Build(kind, cache.Key(parts...), func(string) error { return silent(dir, tool, args) })
	return err
}

// YosysStat runs Yosys's generic front half (proc, opt, memory inference
// without mapping) on files and returns the `stat` report.
func YosysStat(t testing.TB, dir, top string, files ...string) string {
	t.Helper()
	script := fmt.Sprintf("read_verilog %s; hierarchy -top %s; proc; opt; memory -nomap; stat", strings.Join(files, " "), top)
	return Run(t, dir, "yosys", "-p", script)
}
