package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// zzFamily is a throwaway family with one unit that has every kind of
// parameter, a report and a picture of a kind gen has never heard of.
// Registering it must be enough to reach all of it through gen's command
// line: gen's source names none of it.
func zzFamily() *units.Family {
	return &units.Family{
		Name: "zz", Doc: "a test-only family",
		Units: []*units.Unit{{
			Name: "zz-test", Doc: "an adder of every kind of parameter",
			Params: units.Params{
				{Name: "q", Doc: "a plain int", Default: units.Const(2), Range: units.Fixed(1, 6)},
				{Name: "n", Doc: "an int whose range depends on q", Default: func(v units.Values) int { return v["q"] + 4 },
					Range: func(v units.Values) (int, int) { return v["q"] + 2, 20 }},
				{Name: "ways", Doc: "a power of two", Kind: units.Pow2, Default: units.Const(4), Range: units.Fixed(1, 64)},
				{Name: "fast", Doc: "a bool", Kind: units.Bool},
				{Name: "policy", Doc: "a choice", Kind: units.Choice, Choices: []string{"frfcfs", "mshr-m", "mshr-s", "mshr-sa"}},
				{Name: "mode", Doc: "an optional int", Optional: true, Range: units.Fixed(0, 3)},
			},
			Build: func(v units.Values, name string) (*hdl.Module, error) {
				m := hdl.NewModule(name)
				k := uint64(v["ways"]*100 + v["fast"]*10 + v["policy"])
				if mode, ok := v["mode"]; ok {
					k += uint64(1000 * (mode + 1))
				}
				m.Output("y", v["n"]).Drive(m.Input("a", v["n"]).Add(m.ConstU(v["n"], k%(1<<uint(v["n"])))))
				return m, nil
			},
		}},
		Reports: []*units.Report{{
			Name: "zz-count", Doc: "counts to -rows", Time: 3 * time.Second,
			Params: units.Params{{Name: "rows", Doc: "rows to count", Default: units.Const(2), Range: units.Fixed(1, 5)}},
			Run: func(v units.Values, progress io.Writer) ([]*table.Table, error) {
				t := &table.Table{Title: "counting", Header: []string{"i", "i*i"}}
				for i := range v["rows"] {
					fmt.Fprintf(progress, "zz-count: %d\n", i)
					t.Add(fmt.Sprint(i), fmt.Sprint(i*i))
				}
				return []*table.Table{t}, nil
			},
		}},
		Pictures: []*units.Picture{{
			Kind: "sketch", Unit: "zz-test", Doc: "a row of hashes", Default: true, Formats: []string{"text", "html"},
			Params: units.Params{
				{Name: "size", Doc: "hashes", Kind: units.Pow2, Default: units.Const(2), Range: units.Fixed(1, 8)},
				{Name: "label", Doc: "the label", Kind: units.Choice, Choices: []string{"a", "b"}},
			},
			Draw: func(v units.Values, format string) ([]byte, error) {
				if v["size"] == 8 && v["label"] == 1 {
					return nil, units.Inputf("-size 8 has no label b")
				}
				s := strings.Repeat("#", v["size"]) + " " + []string{"a", "b"}[v["label"]] + "\n"
				if format == "html" {
					s = "<p>" + s + "</p>\n"
				}
				return []byte(s), nil
			},
		}},
		Examples: []string{"-sketch -size 4"},
	}
}

// withZZ serves gen from a copy of the registry with the zz family.
func withZZ(t *testing.T) {
	r := units.Registered().Clone()
	require.NoError(t, r.Register(zzFamily()))
	saved := reg
	reg = r
	t.Cleanup(func() { reg = saved })
}

func TestRegistryFamilyDrivesGen(t *testing.T) {
	withZZ(t)

	// Verilog: defaults, and every kind of flag.
	code, out, errs := runGen("-unit", "zz-test")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "module zz_test (")
	require.Contains(t, out, "input wire [5:0] a", "n defaults to q+4")
	require.Contains(t, out, "6'h10", "ways 4: 400 mod 64")
	code, out, errs = runGen("-unit", "zz-test", "-q", "3", "-n", "12", "-ways", "8", "-fast", "-policy", "mshr-s", "-mode", "1", "-top", "t")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "module t (")
	require.Contains(t, out, "12'hafc", "2000 + 800 + 10 + 2 = 0xafc")

	// The other commands still serve sams beside it.
	code, _, errs = runGen("-layout", "-q", "2")
	require.Equal(t, 0, code, errs)

	// The report, with its parameter, in every format; the progress on stderr.
	code, out, errs = runGen("-report", "zz-count", "-rows", "3", "-format", "csv")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "i,i*i\n0,0\n1,1\n2,4\n", out)
	require.Equal(t, "zz-count: 0\nzz-count: 1\nzz-count: 2\n", errs)
	code, out, _ = runGen("-report", "zz-count", "-format", "markdown")
	require.Equal(t, 0, code)
	require.Contains(t, out, "### counting\n")
	require.Contains(t, out, "| 1 |   1 |", "the default of -rows is 2")
	require.NotContains(t, out, "| 2 |")

	// The picture: a new kind is a new gen flag, with or without -unit.
	code, out, errs = runGen("-sketch")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "## a\n", out)
	code, out, errs = runGen("-sketch", "-unit", "zz-test", "-size", "8", "-label", "a", "-format", "html")
	require.Equal(t, 0, code, errs)
	require.Equal(t, "<p>######## a\n</p>\n", out)
	dir := t.TempDir()
	file := filepath.Join(dir, "s.txt")
	code, out, errs = runGen("-sketch", "-size", "4", "-label", "b", "-o", file)
	require.Equal(t, 0, code, errs)
	require.Empty(t, out)
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, "#### b\n", string(got))

	// -list: the family with its unit; -list -unit: every kind of parameter.
	code, out, _ = runGen("-list")
	require.Equal(t, 0, code)
	require.Contains(t, out, "zz: a test-only family\n")
	require.Regexp(t, `│ +zz-test +│ +-q, -n, -ways, -fast, -policy, -mode +│ +an adder of every kind of parameter +│`, out)
	require.Less(t, strings.Index(out, "sams:"), strings.Index(out, "zz:"), "families in registration order")
	code, out, _ = runGen("-list", "-unit", "zz-test")
	require.Equal(t, 0, code)
	for _, row := range []string{
		`│ +-q +│ +int +│ +2 +│ +1..6 +│ +a plain int +│`,
		`│ +-n +│ +int +│ +6 +│ +4..20 \* +│ +an int whose range depends on q +│`,
		`│ +-ways +│ +pow2 +│ +4 +│ +1, 2, 4, ..., 64 +│ +a power of two +│`,
		`│ +-fast +│ +bool +│ +false +│ +true or false +│ +a bool +│`,
		`│ +-policy +│ +choice +│ +frfcfs +│ +frfcfs, mshr-m, mshr-s, mshr-sa +│ +a choice +│`,
		`│ +-mode +│ +int, optional +│ +none +│ +0..3 +│ +an optional int +│`,
	} {
		require.Regexp(t, row, out)
	}
	require.Contains(t, out, "* -n depends on -q: shown for the defaults (-q 2).")
	code, out, _ = runGen("-unit", "zz-test", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "-policy")
	code, out, _ = runGen("-sketch", "-h")
	require.Equal(t, 0, code)
	require.Regexp(t, `│ +-size +│ +pow2 +│ +2 +│ +1, 2, 4, 8 +│`, out)

	// -h: the report and the picture kind with its unit, and the example.
	code, out, _ = runGen("-h")
	require.Equal(t, 0, code)
	require.Regexp(t, `│ +zz-count -rows +│ +zz +│ +no +│ +3s +│ +counts to -rows +│`, out)
	require.Regexp(t, `│ +-sketch +│ +zz-test \* +│ +text, html +│ +-size, -label +│ +a row of hashes +│`, out)
	require.Contains(t, out, "  go run ./gen -sketch -size 4\n")
	require.Contains(t, out, "  -sketch\n    \tdraw a sketch picture (units: zz-test)\n")
	require.Regexp(t, `run the design-review report NAME: (\S+, )*atu, sams, scaling, (\S+, )*zz-count, coverage, all\n`, out, "the reports in family order, each family's in registration order")
}

// Ranges, choices and unused flags, each one exact line with status 2.
func TestRegistryFamilyBadInput(t *testing.T) {
	withZZ(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-unit", "zz-test", "-q", "7"}, "-q=7 is out of range for unit zz-test: valid 1..6"},
		{[]string{"-unit", "zz-test", "-q", "3", "-n", "4"}, "-n=4 is out of range for unit zz-test: valid 5..20 (with -q 3)"},
		{[]string{"-unit", "zz-test", "-ways", "3"}, "-ways=3 is not valid for unit zz-test: valid 1, 2, 4, ..., 64"},
		{[]string{"-unit", "zz-test", "-ways", "128"}, "-ways=128 is not valid for unit zz-test: valid 1, 2, 4, ..., 64"},
		{[]string{"-unit", "zz-test", "-policy", "fifo"}, "-policy=fifo is not valid for unit zz-test: valid frfcfs, mshr-m, mshr-s, mshr-sa"},
		{[]string{"-unit", "zz-test", "-mode", "4"}, "-mode=4 is out of range for unit zz-test: valid 0..3"},
		{[]string{"-unit", "zz-test", "-fast=maybe"}, `invalid boolean value "maybe" for -fast: valid true or false (gen -h lists the flags)`},
		{[]string{"-unit", "zz-test", "-ways", "four"}, `invalid value "four" for flag -ways: not an integer (gen -h lists the flags)`},
		{[]string{"-unit", "zz-test", "-size", "2"}, "unit zz-test has no parameter -size (it has -q, -n, -ways, -fast, -policy, -mode)"},
		{[]string{"-unit", "sams", "-policy", "frfcfs"}, "unit sams has no parameter -policy (it has -q, -n, -w, -matched)"},
		{[]string{"-unit", "zz-test", "-format", "text"}, "-format does not apply to gen -unit without -portlist"},
		{[]string{"-unit", "zz-test", "-rows", "2"}, "unit zz-test has no parameter -rows (it has -q, -n, -ways, -fast, -policy, -mode)"},
		{[]string{"-list", "-q", "99"}, "-q does not apply to gen -list"},
		{[]string{"-list", "-ways", "2"}, "-ways does not apply to gen -list"},
		{[]string{"-list", "-top", "y"}, "-top does not apply to gen -list"},
		{[]string{"-report", "zz-count", "-top", "y"}, "-top does not apply to gen -report"},
		{[]string{"-report", "zz-count", "-rows", "6"}, "-rows=6 is out of range for report zz-count: valid 1..5"},
		{[]string{"-report", "zz-count", "-q", "2"}, "report zz-count has no parameter -q (it has -rows)"},
		{[]string{"-report", "all", "-rows", "2"}, "-rows does not apply to gen -report all (give one report to set its parameters)"},
		{[]string{"-report", "zz-count", "-format", "svg"}, `-format="svg" is not one of text, markdown, csv, html for gen -report`},
		{[]string{"-sketch", "-top", "y"}, "-top does not apply to gen -sketch"},
		{[]string{"-layout", "-top", "y"}, "-top does not apply to gen -layout"},
		{[]string{"-sketch", "-size", "3"}, "-size=3 is not valid for the zz-test sketch: valid 1, 2, 4, 8"},
		{[]string{"-sketch", "-label", "c"}, "-label=c is not valid for the zz-test sketch: valid a, b"},
		{[]string{"-sketch", "-size", "8", "-label", "b"}, "-size 8 has no label b"},
		{[]string{"-sketch", "-format", "svg"}, `-format="svg" is not one of text, html for gen -sketch`},
		{[]string{"-sketch", "-q", "2"}, "the zz-test sketch has no parameter -q (it has -size, -label)"},
		{[]string{"-sketch", "-unit", "sams"}, "-unit sams has no sketch picture (units with one: zz-test)"},
		{[]string{"-layout", "-unit", "zz-test"}, "-unit zz-test has no layout picture (units with one: sams, smm2d)"},
		{[]string{"-sketch", "-layout"}, "-sketch and -layout are separate commands; give one (gen -h lists them)"},
		{[]string{"-canonical", "x", "-q", "2"}, "-q does not apply to gen -canonical"},
	} {
		dir := t.TempDir()
		file := filepath.Join(dir, "out")
		args := append(c.args, "-o", file)
		if c.args[0] == "-canonical" {
			args = c.args
		}
		code, out, errs := runGen(args...)
		require.Equalf(t, 2, code, "%v: %s", c.args, errs)
		require.Emptyf(t, out, "%v writes nothing to stdout", c.args)
		require.Equalf(t, "gen: "+c.want+"\n", errs, "%v", c.args)
		_, err := os.Stat(file)
		require.Truef(t, os.IsNotExist(err), "%v leaves no file", c.args)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Emptyf(t, entries, "%v writes nothing in -o's directory", c.args)
	}
}

// Without the zz family none of its flags exist: gen's flags come from the
// registry alone.
func TestRegistryFamilyCleanedUp(t *testing.T) {
	code, _, errs := runGen("-sketch")
	require.Equal(t, 2, code)
	require.Equal(t, "gen: flag provided but not defined: -sketch (gen -h lists the flags)\n", errs)
	code, _, errs = runGen("-unit", "zz-test")
	require.Equal(t, 2, code)
	require.Contains(t, errs, `unknown unit "zz-test"`)
}

// TestPictureKindTakesAValue: a picture whose Choice parameter is named
// like its kind takes the choice as the kind flag's value (gen -pipeline
// split), with or without "=", and bare for the default.
func TestPictureKindTakesAValue(t *testing.T) {
	r := units.Registered().Clone()
	f := zzFamily()
	f.Name, f.Doc, f.Reports, f.Examples = "yy", "a test-only family with a valued picture kind", nil, nil
	f.Units[0].Name = "yy-test"
	f.Pictures = []*units.Picture{{
		Kind: "mood", Unit: "yy-test", Doc: "a mood", Default: true, Formats: []string{"text"},
		Params: units.Params{
			{Name: "mood", Doc: "the mood", Kind: units.Choice, Choices: []string{"calm", "busy"}},
			{Name: "size", Doc: "repeats", Default: units.Const(1), Range: units.Fixed(1, 3)},
		},
		Draw: func(v units.Values, _ string) ([]byte, error) {
			return []byte(strings.Repeat([]string{"calm", "busy"}[v["mood"]], v["size"]) + "\n"), nil
		},
	}}
	require.NoError(t, r.Register(f))
	saved := reg
	reg = r
	t.Cleanup(func() { reg = saved })

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-mood"}, "calm\n"},
		{[]string{"-mood", "busy"}, "busy\n"},
		{[]string{"-mood=busy", "-size", "2"}, "busybusy\n"},
		{[]string{"-size", "3", "-mood", "busy"}, "busybusybusy\n"},
		{[]string{"-mood", "-size", "2"}, "calmcalm\n"},
		{[]string{"-mood", "busy", "-unit", "yy-test"}, "busy\n"},
	} {
		code, out, errs := runGen(c.args...)
		require.Equal(t, 0, code, "%v: %s", c.args, errs)
		require.Equal(t, c.want, out, "%v", c.args)
	}
	code, out, errs := runGen("-mood", "sad")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Equal(t, "gen: -mood=sad is not valid for the yy-test mood: valid calm, busy\n", errs)
	code, out, _ = runGen("-mood", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "gen -mood [calm|busy] -unit yy-test")
	code, out, _ = runGen("-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "  -mood MOOD\n    \tdraw a mood picture (units: yy-test); the default one's MOOD: calm, busy (bare -mood: calm)\n")
}
