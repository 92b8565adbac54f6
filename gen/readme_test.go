package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/tools"
	"github.com/stretchr/testify/require"
)

// documentedCommand is one `go run ./gen ...` command from the docs.
type documentedCommand struct {
	source string // where it is written: "README.md:42"
	args   []string
}

// golden names the command's golden file in testdata/readme: its
// arguments without their leading dashes, joined by '_'.
func (c documentedCommand) golden() string {
	var parts []string
	for _, a := range c.args {
		parts = append(parts, strings.TrimLeft(a, "-"))
	}
	return strings.Join(parts, "_") + ".golden"
}

// commandLine turns the text after "go run ./gen" into arguments: a
// trailing "> FILE" is stdout, and a comment after two spaces (as in
// main.go's doc) is dropped.
func commandLine(t *testing.T, source, text string) documentedCommand {
	text, _, _ = strings.Cut(text, "  ")
	require.NotContainsf(t, text, `"`, "%s: quoted arguments are not supported here", source)
	require.NotContainsf(t, text, `'`, "%s: quoted arguments are not supported here", source)
	args := strings.Fields(text)
	if i := slices.Index(args, ">"); i >= 0 {
		require.Equalf(t, len(args)-2, i, "%s: > FILE ends the command", source)
		args = args[:i]
	}
	return documentedCommand{source, args}
}

var genCommand = regexp.MustCompile(`^go run \./gen( .*)?$`)

// readmeCommands extracts every gen command in README.md's code blocks
// (fenced, or indented by four spaces or a tab).
func readmeCommands(t *testing.T) []documentedCommand {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	var cs []documentedCommand
	fenced := false
	for i, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
			continue
		}
		if !fenced && !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "\t") {
			continue
		}
		if m := genCommand.FindStringSubmatch(trimmed); m != nil {
			cs = append(cs, commandLine(t, "README.md:"+strconv.Itoa(i+1), m[1]))
		}
	}
	return cs
}

// docCommands extracts the gen commands of main.go's package comment.
func docCommands(t *testing.T) []documentedCommand {
	b, err := os.ReadFile("main.go")
	require.NoError(t, err)
	var cs []documentedCommand
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if m := genCommand.FindStringSubmatch(strings.TrimSpace(strings.TrimPrefix(line, "//"))); m != nil {
			cs = append(cs, commandLine(t, "main.go:"+strconv.Itoa(i+1), m[1]))
		}
	}
	return cs
}

// TestREADMECommands runs every gen command that README.md's code blocks
// and main.go's package comment show, and requires the output (stdout, or
// the file -o names) to be byte for byte the golden in testdata/readme,
// made by the gen of commit 016e5b2 before gen was rebuilt on the
// registry (see testdata/readme/README.md). A command documented since
// then has no golden: it must run cleanly, and Verilog it writes must pass
// Verilator's lint and Icarus. Skipped here: -report, which needs minutes
// of Yosys (make tables checks it), -prove, which prints the times its
// proofs took (TestProve checks it), and -list and -h, whose format
// changed by design (TestListAndHelp checks them).
func TestREADMECommands(t *testing.T) {
	readme, doc := readmeCommands(t), docCommands(t)
	require.GreaterOrEqual(t, len(readme), 3, "README.md shows gen -unit and two -layout commands")
	require.GreaterOrEqual(t, len(doc), 5, "main.go's comment shows its examples")
	goldens, err := filepath.Glob(filepath.Join("testdata", "readme", "*.golden"))
	require.NoError(t, err)
	used := map[string]bool{}
	ran := 0
	for _, c := range append(readme, doc...) {
		if len(c.args) == 0 || slices.ContainsFunc(c.args, func(a string) bool {
			return a == "-report" || a == "-prove" || a == "-list" || a == "-h" || a == "-help"
		}) {
			continue
		}
		golden := filepath.Join("testdata", "readme", c.golden())
		want, err := os.ReadFile(golden)
		isNew := os.IsNotExist(err)
		if !isNew {
			require.NoError(t, err)
			used[golden] = true
		}

		args := slices.Clone(c.args)
		var file string
		if i := slices.Index(args, "-o"); i >= 0 {
			require.Lessf(t, i+1, len(args), "%s: -o FILE", c.source)
			file = filepath.Join(t.TempDir(), filepath.Base(args[i+1]))
			args[i+1] = file
		}
		code, out, errs := runGen(args...)
		require.Equalf(t, 0, code, "%s: %s", c.source, errs)
		require.Emptyf(t, errs, "%s", c.source)
		got := []byte(out)
		if file != "" {
			require.Emptyf(t, out, "%s: -o writes the file, not stdout", c.source)
			got, err = os.ReadFile(file)
			require.NoError(t, err)
		}
		if isNew {
			require.NotEmptyf(t, got, "%s: go run ./gen %s writes nothing", c.source, strings.Join(c.args, " "))
			if top, ok := generatedTop(got); ok {
				// (named as rtl/ names its files, so that a module rtl/
				// holds too is checked once: the checks are cached by
				// the files' names and contents)
				dir, file := t.TempDir(), top+".v"
				require.NoError(t, os.WriteFile(filepath.Join(dir, file), got, 0o644))
				tools.LintClean(t, dir, file)
				tools.IverilogCompile(t, dir, "/dev/null", file)
			}
			t.Logf("%s: go run ./gen %s (new since 016e5b2) runs and lints", c.source, strings.Join(c.args, " "))
		} else {
			require.Truef(t, bytes.Equal(want, got), "%s: go run ./gen %s differs from %s", c.source, strings.Join(c.args, " "), golden)
		}
		ran++
	}
	require.GreaterOrEqual(t, ran, 6)
	for _, g := range goldens {
		require.Truef(t, used[g], "%s: no documented command makes it (delete it, or document the command)", g)
	}
}

// generatedTop is the top module of Verilog gen wrote, from its first
// line ("// Generated by parmem from Go module NAME. Do not edit.").
func generatedTop(verilog []byte) (string, bool) {
	first, _, _ := bytes.Cut(verilog, []byte("\n"))
	rest, ok := bytes.CutPrefix(first, []byte("// Generated by parmem from Go module "))
	if !ok {
		return "", false
	}
	top, _, ok := bytes.Cut(rest, []byte("."))
	return string(top), ok && len(top) > 0
}

// Every example gen -h shows (the families register them) runs.
func TestHelpExamplesRun(t *testing.T) {
	for _, f := range reg.Families() {
		for _, ex := range f.Examples {
			c := commandLine(t, "family "+f.Name, ex)
			args := slices.Clone(c.args)
			if i := slices.Index(args, "-o"); i >= 0 {
				args[i+1] = filepath.Join(t.TempDir(), filepath.Base(args[i+1]))
			}
			code, _, errs := runGen(args...)
			require.Equalf(t, 0, code, "gen %s: %s", ex, errs)
		}
	}
}
