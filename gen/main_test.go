package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

func runGen(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestFirstCommand is the README's first command: gen -unit sams -q 3 >
// sams.v, then Verilator's -Wall lint and Icarus accept the file.
func TestFirstCommand(t *testing.T) {
	code, out, errs := runGen("-unit", "sams", "-q", "3")
	require.Equal(t, 0, code, errs)
	require.Empty(t, errs)
	require.Contains(t, out, "module sams (")
	for _, sub := range []string{"module sams_agu (", "module sams_atu (", "module sams_inswitch (", "module sams_outswitch ("} {
		require.Contains(t, out, sub, "hierarchy is kept")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sams.v"), []byte(out), 0o644))
	tools.LintClean(t, dir, "sams.v")
	tools.IverilogCompile(t, dir, "/dev/null", "sams.v")
}

func TestTopAndOutputFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "atu.v")
	code, out, errs := runGen("-unit", "sams-atu", "-q", "3", "-n", "23", "-lanes", "1", "-top", "my_atu", "-o", file)
	require.Equal(t, 0, code, errs)
	require.Empty(t, out, "-o writes the file, not stdout")
	text, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Contains(t, string(text), "module my_atu (")
	require.Contains(t, string(text), "input wire [22:0] addr_0")
	require.NotContains(t, string(text), "addr_1", "one lane")
}

func TestListAndHelp(t *testing.T) {
	code, out, errs := runGen("-list")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "sams: SAMS multi-layout parallel memory")
	for _, want := range []string{"sams-agu", "sams-atu", "sams-inswitch", "sams-outswitch", "sams-prs", "sams-pws", "sams-inbound", "sams-logic", "│ sams  ", "-q, -n, -lanes", "-q, -n, -w, -matched"} {
		require.Contains(t, out, want)
	}
	code, out, _ = runGen("-list", "-unit", "sams")
	require.Equal(t, 0, code)
	for _, want := range []string{"-matched", "1..6", "5..20 *", "1..64", "true or false", "* -n depends on -q: shown for the defaults (-q 3)."} {
		require.Contains(t, out, want)
	}
	code, out, _ = runGen("-list", "-unit", "sams-atu")
	require.Equal(t, 0, code)
	require.Regexp(t, `│ +-lanes +│ +int +│ +8 +│ +1..16 \* +│`, out)
	require.Contains(t, out, "5..64 *")

	code, out, errs = runGen("-h")
	require.Equal(t, 0, code)
	require.Empty(t, errs)
	require.Contains(t, out, "go run ./gen -unit sams -q 3 > sams.v")
	require.Regexp(t, `│ +atu +│ +sams +│ +yes +│`, out)
	require.Regexp(t, `│ +scaling +│ +sams +│ +yes +│ +\d+ min +│`, out)
	require.Regexp(t, `│ +-layout +│ +sams \* +│ +text, svg +│`, out)
	code, out, _ = runGen("-help")
	require.Equal(t, 0, code)
	require.Contains(t, out, "Flags of gen itself")
	code, out, _ = runGen("-unit", "sams-atu", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "gen -unit sams-atu [-PARAM VALUE ...]")
	require.Contains(t, out, "-lanes")
	code, out, _ = runGen("-layout", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "gen -layout -unit sams")
	require.Contains(t, out, "-stride")
}

func TestLayoutPictures(t *testing.T) {
	code, out, errs := runGen("-layout", "-q", "2", "-family", "2", "-base", "1", "-stride", "3", "-mode", "3")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "family 2")
	require.Contains(t, out, "1*1", "address 1 is served in the first sub-access")
	require.Contains(t, out, "10*2", "address 10 conflicts with 1 in bank 1 and waits for the second")
	require.Contains(t, out, "split into 2 conflict-free sub-accesses")

	code, out, errs = runGen("-layout", "-q", "2", "-matched", "-base", "1", "-stride", "2", "-mode", "3", "-format", "svg")
	require.Equal(t, 0, code, errs)
	dec := xml.NewDecoder(strings.NewReader(out))
	elements := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG is well-formed XML")
		if _, ok := tok.(xml.StartElement); ok {
			elements++
		}
	}
	require.Greater(t, elements, 64, "a rect and a text per slot")
	require.Contains(t, out, "sub-access 1")

	code, out, _ = runGen("-layout", "-q", "3", "-nas")
	require.Equal(t, 0, code)
	require.Contains(t, out, "NaS")
	require.Equal(t, 1+1+4, strings.Count(out, "\n"), "a title, a header and 2^(n-q-1) rows (n = q+3)")

	code, out2, errs := runGen("-layout", "-unit", "sams", "-q", "3", "-nas")
	require.Equal(t, 0, code, errs)
	require.Equal(t, out, out2, "the default layout picture is the sams one")
}

// Bad input: one line naming the flag (and the valid range), status 2,
// nothing on stdout and no file.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "out.v")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-unit", "sams", "-q", "7"}, "-q=7 is out of range for unit sams: valid 1..6"},
		{[]string{"-unit", "sams", "-q", "3", "-n", "21"}, "-n=21 is out of range for unit sams: valid 5..20"},
		{[]string{"-unit", "sams-atu", "-q", "4", "-n", "5"}, "-n=5 is out of range for unit sams-atu: valid 6..64"},
		{[]string{"-unit", "sams", "-w", "0"}, "-w=0 is out of range for unit sams: valid 1..64"},
		{[]string{"-unit", "sams-atu", "-q", "2", "-lanes", "9"}, "-lanes=9 is out of range for unit sams-atu: valid 1..8"},
		{[]string{"-unit", "sams-outswitch", "-n", "16"}, "unit sams-outswitch has no parameter -n"},
		{[]string{"-unit", "sams-agu", "-matched"}, "unit sams-agu has no parameter -matched"},
		{[]string{"-unit", "nope"}, `-unit: unknown unit "nope"`},
		{[]string{"-unit", "sams", "-frobnicate"}, "flag provided but not defined: -frobnicate"},
		{[]string{"-unit", "sams", "-q", "three"}, `invalid value "three" for flag -q`},
		{[]string{"-unit", "sams", "-top", "module"}, "-top: name \"module\" is a Verilog or SystemVerilog keyword"},
		{[]string{"-unit", "sams", "-family", "2"}, "unit sams has no parameter -family (it has -q, -n, -w, -matched)"},
		{[]string{"-unit", "sams", "-format", "svg"}, "-format does not apply to gen -unit without -portlist"},
		{[]string{}, "-unit is required"},
		{[]string{"-q", "3"}, "-unit is required"},
		{[]string{"-frobnicate"}, "flag provided but not defined: -frobnicate"},
		{[]string{"-unit", "sams", "extra"}, `unexpected argument "extra"`},
		{[]string{"-layout", "-q", "2", "-n", "11"}, "-n=11 is out of range for the sams layout: valid 4..10 (with -q 2)"},
		{[]string{"-layout", "-q", "2", "-family", "4"}, "-family=4 is out of range for the sams layout: valid 0..3 (with -q 2, -n 5)"},
		{[]string{"-layout", "-mode", "4"}, "-mode=4 is out of range for the sams layout: valid 0..3"},
		{[]string{"-layout", "-base", "-1", "-mode", "0"}, "-base=-1 is out of range for the sams layout: valid 0..63 (with -n 6)"},
		{[]string{"-layout", "-format", "png"}, `-format="png" is not one of text, svg for gen -layout`},
		{[]string{"-layout", "-nas", "-family", "1"}, "give one"},
		{[]string{"-layout", "-unit", "sams-atu"}, "-unit sams-atu has no layout picture (units with one: sams, smm2d)"},
		{[]string{"-layout", "-unit", "nope"}, `-unit: unknown unit "nope"`},
		{[]string{"-layout", "-base", "3"}, "only with -mode"},
		{[]string{"-layout", "-top", "x"}, "-top does not apply to gen -layout"},
		{[]string{"-layout", "-w", "8"}, "the sams layout has no parameter -w (it has -q, -n, -family, -nas, -matched, -base, -stride, -mode)"},
		{[]string{"-list", "-q", "99"}, "-q does not apply to gen -list"},
		{[]string{"-list", "-unit", "nope"}, `-unit: unknown unit "nope"`},
		{[]string{"-list", "-layout"}, "-list and -layout are separate commands; give one"},
		{[]string{"-report", "nope"}, `-report="nope" is not one of `}, // the registered reports, then all (TestUnknownReportListsAll)
		{[]string{"-report", "atu", "-top", "x"}, "-top does not apply to gen -report"},
		{[]string{"-report", "atu", "-q", "3"}, "report atu has no parameter -q (it has none)"},
		{[]string{"-report", "atu", "-format", "svg"}, `-format="svg" is not one of text, markdown, csv, html for gen -report`},
		{[]string{"-report", "all", "-unit", "sams"}, "-unit does not apply to gen -report all"},
	} {
		args := append(c.args, "-o", file)
		code, out, errs := runGen(args...)
		require.Equalf(t, 2, code, "%v: %s", c.args, errs)
		require.Emptyf(t, out, "%v writes nothing to stdout", c.args)
		require.Containsf(t, errs, c.want, "%v", c.args)
		require.Equalf(t, 1, strings.Count(errs, "\n"), "%v: one line: %q", c.args, errs)
		_, err := os.Stat(file)
		require.Truef(t, os.IsNotExist(err), "%v leaves no file", c.args)
	}
}

// -o and -canonical refuse targets that are not files or directories they
// can write, with status 2 and nothing replaced.
func TestBadOutputTargets(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runGen("-unit", "sams-agu", "-o", dir)
	require.Equal(t, 2, code, errs)
	require.Empty(t, out)
	require.Contains(t, errs, "not a regular file")
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	require.True(t, fi.IsDir(), "the directory is still there")

	file := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(file, []byte("keep"), 0o644))
	code, _, errs = runGen("-canonical", file)
	require.Equal(t, 2, code, errs)
	require.Contains(t, errs, "-canonical "+file)
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, "keep", string(got))
}

// TestUnknownReportListsAll: an unknown report's error lists every
// registered report, in registry order, then coverage and all.
func TestUnknownReportListsAll(t *testing.T) {
	code, _, errs := runGen("-report", "nope")
	require.Equal(t, 2, code)
	names := append(units.Registered().ReportNames(), "coverage", "all")
	require.GreaterOrEqual(t, len(names), 4, "sams registers three reports")
	require.Contains(t, errs, `-report="nope" is not one of `+strings.Join(names, ", ")+"\n")
}

// -portlist lists the ports the Verilog declares, in its order, with their
// widths at the parameters given and their docs; a design without state
// has no clk, and a vector port's lanes are one row.
func TestPortList(t *testing.T) {
	code, out, errs := runGen("-unit", "lib-fifo", "-depth", "5", "-width", "8", "-portlist", "-format", "csv")
	require.Equal(t, 0, code, errs)
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Split(line, ",")
		rows = append(rows, strings.Join(f[:3], " "))
		require.NotEmpty(t, f[3], "port %s has a doc", f[0])
	}
	require.Equal(t, []string{"clk in 1", "rst in 1", "in_valid in 1", "in_data in 8", "out_ready in 1",
		"in_ready out 1", "out_valid out 1", "out_data out 8", "count out 3"}, rows)
	code, out, _ = runGen("-unit", "vmshr-match", "-m", "2", "-portlist")
	require.Equal(t, 0, code)
	require.NotContains(t, out, "clk", "a combinational unit has no clock")
	require.Contains(t, out, "hit_<i>, i < 2")
	require.NotContains(t, out, "hit_1")

	code, out, errs = runGen("-unit", "lib-fifo", "-format", "markdown")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Equal(t, "gen: -format does not apply to gen -unit without -portlist\n", errs)
}

// Every unit runs through gen's command line at its defaults, as Verilog
// and as its port list: no flag of gen's own is also a unit's parameter
// (elastic-bkconf's -ports once met gen's port list flag).
func TestEveryUnitRunsAtItsDefaults(t *testing.T) {
	for _, name := range reg.UnitNames() {
		code, out, errs := runGen("-unit", name)
		require.Equal(t, 0, code, "gen -unit %s: %s", name, errs)
		require.True(t, strings.HasPrefix(out, "// Generated by parmem"), "gen -unit %s writes Verilog", name)
		code, out, errs = runGen("-unit", name, "-portlist")
		require.Equal(t, 0, code, "gen -unit %s -portlist: %s", name, errs)
		require.Contains(t, out, "direction", name)
	}
}
