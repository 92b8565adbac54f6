// Command gen writes the Verilog of a parmem unit, lists the units, and
// draws SAMS data layouts for design reviews.
//
//	go run ./gen -unit sams -q 3 > sams.v      the whole SAMS memory, q = 3
//	go run ./gen -unit sams-atu -q 3 -n 23 -o atu.v
//	go run ./gen -list                           units, parameters, ranges
//	go run ./gen -layout -q 2 -family 2 -base 1 -stride 3 -mode 3
//
// Bad input gets one line on stderr naming the flag and its valid range,
// exit status 2, and nothing on stdout or on disk.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/reports"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	_ "github.com/parmem/parmem/units/sams" // registers the SAMS units
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// usageError is bad input: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badf(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// unitParams are the flags that set unit parameters, in the order -list
// shows them.
var unitParams = []string{"q", "n", "w", "lanes", "matched"}

const usageText = `gen writes parmem hardware as Verilog-2005, lists the units, and draws
SAMS data layouts.

Verilog:
  gen -unit NAME [-q Q] [-n N] [-w W] [-lanes L] [-matched] [-top MODULE] [-o FILE]
      writes unit NAME's Verilog to FILE, or to stdout. Parameters a unit
      does not take are errors; see -list for each unit's parameters,
      defaults and ranges. -top renames the top module (sub-modules follow
      it: MODULE_atu, ...).
  gen -list
      lists the units with their parameters, defaults and ranges.
  gen -canonical DIR
      regenerates the reviewed RTL (rtl/ in the repository; make rtl).

Design-review reports (Yosys; make tables writes them all to rtl/REPORT.md):
  gen -report atu|sams|scaling|all [-format text|markdown|csv] [-o FILE]
      atu: sams-atu area and LUT levels on iCE40 beside thesis Table 3.1;
      sams: memory logic gates and inbound depth in 32-bit adders beside
      thesis Table 4.2, with read and write latency; scaling: area and
      depth as q and n grow, with the growth law. Progress goes to stderr.

Layout pictures (SAMS, thesis Figs. 3.3 and 3.4):
  gen -layout [-q Q] [-n N] [-family S | -nas | -matched]
      [-base B -stride S -mode M] [-format text|svg] [-o FILE]
      draws the banks as columns and rows with the linear address stored in
      each slot. With -base, -stride and -mode (0..3 as the AGU's
      {use_stride_family, use_stride}) it marks the elements of that vector
      access and the conflict-free sub-accesses it is split into. The
      layout is -family (default 0), NaS with -nas, family q with -matched.
      -n defaults to q+3 and may be at most 10 here.

Examples:
  go run ./gen -unit sams -q 3 > sams.v
  go run ./gen -unit sams-atu -q 3 -n 23 -lanes 1 -o atu.v
  go run ./gen -layout -q 2 -family 2 -base 1 -stride 3 -mode 3 -format svg -o layout.svg

Flags:
`

func run(args []string, stdout, stderr io.Writer) int {
	err := generate(args, stdout)
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "gen: %s\n", ue.msg)
		return 2
	default:
		fmt.Fprintf(stderr, "gen: %v\n", err)
		return 1
	}
}

func generate(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	unit := fs.String("unit", "", "unit to generate (see -list)")
	list := fs.Bool("list", false, "list the units, their parameters, defaults and ranges")
	top := fs.String("top", "", "name of the top Verilog module (default: the unit's name with - turned into _)")
	out := fs.String("o", "", "write to this file instead of stdout")
	layout := fs.Bool("layout", false, "draw a SAMS data layout instead of writing Verilog")
	nas := fs.Bool("nas", false, "with -layout: the NaS layout")
	format := fs.String("format", "text", "with -layout: text or svg; with -report: text, markdown or csv")
	ints := map[string]*int{}
	for _, name := range []string{"q", "n", "w", "lanes", "family"} {
		ints[name] = fs.Int(name, 0, paramDoc(name))
	}
	matched := fs.Bool("matched", false, paramDoc("matched"))
	base := fs.Uint64("base", 0, "with -layout: base address of the access to mark")
	stride := fs.Uint64("stride", 1, "with -layout: stride of the access to mark")
	mode := fs.Int("mode", -1, "with -layout: mode of the access to mark, 0..3 (default: no access)")
	canon := fs.String("canonical", "", "regenerate the reviewed RTL under this directory (make rtl: -canonical rtl)")
	report := fs.String("report", "", "run a design-review report: "+strings.Join(append(reports.Names, "all"), ", ")+" (needs yosys)")
	help := fs.Bool("h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeUsage(fs, stdout)
			return flag.ErrHelp
		}
		return badf("%s (gen -h lists the flags)", firstLine(err.Error()))
	}
	if fs.NArg() > 0 {
		return badf("unexpected argument %q (gen -h lists the flags)", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case *help:
		writeUsage(fs, stdout)
		return nil
	case *list:
		return emit(*out, stdout, listUnits)
	case *canon != "":
		return writeCanonical(*canon)
	case *report != "":
		return writeReport(*report, *format, given, *out, stdout)
	case *layout:
		spec := layoutSpec{q: 3, family: *ints["family"], nas: *nas, matched: *matched, base: *base, stride: *stride, mode: *mode, format: *format}
		if given["q"] {
			spec.q = *ints["q"]
		}
		spec.n = spec.q + 3
		if given["n"] {
			spec.n = *ints["n"]
		}
		for _, f := range []string{"unit", "w", "lanes", "top"} {
			if given[f] {
				return badf("-%s does not apply to -layout", f)
			}
		}
		pic, err := spec.draw(given)
		if err != nil {
			return err
		}
		return emit(*out, stdout, func(w io.Writer) error { _, err := w.Write(pic); return err })
	case *unit == "":
		return badf("-unit is required (units: %s; gen -h for help)", strings.Join(units.Names(), ", "))
	}
	for _, f := range []string{"family", "nas", "base", "stride", "mode", "format"} { // -layout's and -report's flags
		if given[f] {
			return badf("-%s applies only to -layout", f)
		}
	}
	u, err := units.Lookup(*unit)
	if err != nil {
		return badf("-unit: %v", err)
	}
	values := units.Values{}
	for _, name := range unitParams {
		if !given[name] {
			continue
		}
		if name == "matched" {
			values[name] = int(b2u(*matched))
		} else {
			values[name] = *ints[name]
		}
	}
	v, err := u.Resolve(values)
	if err != nil {
		return badf("%v", err)
	}
	name := u.ModuleName()
	if given["top"] {
		if why := hdl.CheckName(*top); why != "" {
			return badf("-top: %s", why)
		}
		name = *top
	}
	m, err := u.Build(v, name)
	if err != nil {
		return err
	}
	d, err := hdl.Elaborate(m)
	if err != nil {
		return fmt.Errorf("unit %s does not elaborate (a parmem bug; please report it):\n%v", u.Name, err)
	}
	return emit(*out, stdout, d.WriteVerilog)
}

// emit writes through write to file (atomically, so a failure leaves
// nothing behind) or to stdout (only once the whole text exists).
func emit(file string, stdout io.Writer, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	if file == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	// Only a regular file (or none) is replaced: renaming over a directory
	// fails, and over a device or link would destroy it.
	if fi, err := os.Lstat(file); err == nil && !fi.Mode().IsRegular() {
		return badf("-o %s: not a regular file", file)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".gen-*")
	if err != nil {
		return badf("-o %s: %v", file, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return badf("-o %s: %v", file, err)
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// paramDoc describes a unit parameter flag from the registry.
func paramDoc(name string) string {
	if name == "family" {
		return "with -layout: the stride family of the layout"
	}
	for _, un := range units.Names() {
		u, _ := units.Lookup(un)
		if p := u.Param(name); p != nil {
			return p.Doc + " (gen -list shows defaults and ranges per unit)"
		}
	}
	return ""
}

func writeUsage(fs *flag.FlagSet, w io.Writer) {
	io.WriteString(w, usageText)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// listUnits prints every unit with its parameters, defaults and ranges.
func listUnits(w io.Writer) error {
	t := &table.Table{Title: "parmem units (gen -unit NAME [-PARAM VALUE ...])", Header: []string{"unit", "parameter", "default", "range", "meaning"}}
	for _, name := range units.Names() {
		u, _ := units.Lookup(name)
		t.Add(u.Name, "", "", "", u.Doc)
		v := units.Values{}
		for _, p := range u.Params {
			def := p.Default(v)
			v[p.Name] = def
			shown := fmt.Sprint(def)
			if p.Bool {
				shown = fmt.Sprint(def == 1)
			}
			t.Add("", "-"+p.Name, shown, p.RangeText(v), p.Doc)
		}
	}
	t.Notes = []string{"Ranges that depend on another parameter are shown for the defaults (n's lower bound is q+2)."}
	return t.Write(w, "text")
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// writeReport runs one report, or all of them, in a format.
func writeReport(name, format string, given map[string]bool, out string, stdout io.Writer) error {
	for _, f := range []string{"unit", "q", "n", "w", "lanes", "matched", "top", "layout", "family", "nas", "base", "stride", "mode"} {
		if given[f] {
			return badf("-%s does not apply to -report", f)
		}
	}
	if !slices.Contains(table.Formats, format) {
		return badf("-format=%q is not one of %s for -report", format, strings.Join(table.Formats, ", "))
	}
	names := []string{name}
	if name == "all" {
		names = reports.Names
	} else if !slices.Contains(reports.Names, name) {
		return badf("-report=%q is not one of %s, all", name, strings.Join(reports.Names, ", "))
	}
	return emit(out, stdout, func(w io.Writer) error {
		if format == "markdown" && name == "all" {
			fmt.Fprintf(w, "# parmem design review: area and latency\n\nGenerated by `make tables` (`go run ./gen -report all -format markdown`). Yosys flows: scripts/ice40.ys, scripts/gates.ys.\n\n")
		}
		for i, n := range names {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := reports.Write(w, n, format, os.Stderr); err != nil {
				return err
			}
		}
		return nil
	})
}
