// Command gen writes the Verilog of a parmem unit, lists the units, runs
// the design-review reports and draws pictures of units. Everything it
// knows of the hardware comes from the unit registry (package units): a
// unit's parameters are its flags, and a family's reports and pictures are
// its commands. Adding a family is one import in families.go.
//
//	go run ./gen -unit sams -q 3 > sams.v      the whole SAMS memory, q = 3
//	go run ./gen -unit sams-atu -q 3 -n 23 -o atu.v
//	go run ./gen -unit sams-atu -q 3 -n 23 -lanes 1 -o atu.v
//	go run ./gen -list                           units by family
//	go run ./gen -list -unit sams-atu            one unit's parameters and ranges
//	go run ./gen -unit sams-atu -q 3 -n 23 -portlist   its ports: name, direction, width
//	go run ./gen -report coverage                each unit's cover points in its last lockstep run
//	go run ./gen -layout -q 2 -family 2 -base 1 -stride 3 -mode 3
//	go run ./gen -layout -q 2 -family 2 -base 1 -stride 3 -mode 3 -format svg -o layout.svg
//
// Bad input gets one line on stderr naming the flag and its valid values,
// exit status 2, and nothing on stdout or on disk.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// reg is the registry gen serves; a test may swap in a clone with more
// families registered.
var reg = units.Registered()

// badf is bad input: exit status 2.
func badf(format string, args ...any) error { return units.Inputf(format, args...) }

// run runs gen with args and returns the exit status: 0, 1 for a failure
// (a tool, a bug), 2 for bad input.
func run(args []string, stdout, stderr io.Writer) int {
	err := generate(args, stdout, stderr)
	var ie *units.InputError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "gen: %s\n", firstLine(ie.Msg))
		return 2
	default:
		fmt.Fprintf(stderr, "gen: %v\n", err)
		return 1
	}
}

// The flags of gen itself, beside the picture kinds and the parameters.
const (
	flagUnit      = "unit"
	flagList      = "list"
	flagReport    = "report"
	flagCanonical = "canonical"
	flagTop       = "top"
	flagOut       = "o"
	flagFormat    = "format"
	flagShard     = "shard"
	flagMerge     = "merge"
	flagResults   = "results"
	flagPorts     = "portlist"
	flagProve     = "prove"
	flagBound     = "bound"
	flagVCD       = "vcd"
	flagMaxBits   = "maxbits"
)

// valueFlags are gen's own flags that take a value (the pre-scan skips it).
var valueFlags = []string{flagUnit, flagReport, flagCanonical, flagTop, flagOut, flagFormat, flagShard, flagMerge, flagResults, flagBound, flagVCD, flagMaxBits}

// scan is what a pre-scan of the arguments finds: the flags given, in
// order, and the last values of -unit and -report.
type scan struct {
	names  []string
	values map[string]string
}

func prescan(args []string) scan {
	s := scan{values: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue // a value, or an argument the flag parser rejects
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasValue && slices.Contains(valueFlags, name) && i+1 < len(args) {
			i++
			value, hasValue = args[i], true
		}
		s.names = append(s.names, name)
		if hasValue {
			s.values[name] = value
		}
	}
	return s
}

func (s scan) has(name string) bool { return slices.Contains(s.names, name) }

func generate(args []string, stdout, stderr io.Writer) error {
	s := prescan(args)
	if s.has("h") || s.has("help") {
		return help(s, stdout)
	}
	var cmds []string
	for _, name := range s.names {
		if (name == flagList || name == flagReport || name == flagCanonical || slices.Contains(reg.PictureKinds(), name)) && !slices.Contains(cmds, name) {
			cmds = append(cmds, name)
		}
	}
	switch {
	case len(cmds) > 1:
		return badf("-%s and -%s are separate commands; give one (gen -h lists them)", cmds[0], cmds[1])
	case len(cmds) == 0:
		return verilogCommand(s, args, stdout, stderr)
	case cmds[0] == flagList:
		return listCommand(s, args, stdout)
	case cmds[0] == flagReport:
		return reportCommand(s, args, stdout, stderr)
	case cmds[0] == flagCanonical:
		return canonicalCommand(s, args)
	}
	return pictureCommand(cmds[0], s, args, stdout)
}

// newFlags makes a command's flag set with gen's -o flag when it writes.
func newFlags(withOut bool) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := new(string)
	if withOut {
		fs.StringVar(out, flagOut, "", "write to this file instead of stdout")
	}
	return fs, out
}

// paramFlag is a parameter as a flag: it keeps the text given (Choices
// become values in units.Params.Parse, with the message naming the choices).
type paramFlag struct {
	p    *units.Param
	text string
}

func (f *paramFlag) String() string { return f.text }

func (f *paramFlag) Set(s string) error {
	if f.p.Kind != units.Choice {
		if _, err := f.p.Value(s); err != nil {
			return err
		}
	}
	f.text = s
	return nil
}

func (f *paramFlag) IsBoolFlag() bool { return f.p != nil && f.p.Kind == units.Bool }

// addParams defines a flag per parameter.
func addParams(fs *flag.FlagSet, ps units.Params) {
	for i := range ps {
		fs.Var(&paramFlag{p: &ps[i]}, ps[i].Name, ps[i].Doc)
	}
}

// parse parses args with fs for the command called cmd ("gen -list"),
// after refusing the flags gen knows that cmd does not use: a parameter
// the unit, report or picture (params, called owner) does not have, or a
// flag of another command. A flag gen does not know at all is left to the
// flag package ("flag provided but not defined"). It returns the texts of
// the parameters given.
func parse(fs *flag.FlagSet, s scan, args []string, cmd, owner string, params units.Params) (map[string]string, error) {
	for _, name := range s.names {
		switch {
		case fs.Lookup(name) != nil:
		case isParam(name) && !genFlag(name) && owner != "":
			if len(params) == 0 {
				return nil, badf("%s has no parameter -%s (it has none)", owner, name)
			}
			return nil, badf("%s has no parameter -%s (it has %s)", owner, name, params.Flags())
		case known(name):
			return nil, badf("-%s does not apply to %s", name, cmd)
		}
	}
	if err := fs.Parse(args); err != nil {
		return nil, badf("%s (gen -h lists the flags)", firstLine(err.Error()))
	}
	if fs.NArg() > 0 {
		return nil, badf("unexpected argument %q (gen -h lists the flags)", fs.Arg(0))
	}
	texts := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if pf, ok := f.Value.(*paramFlag); ok {
			texts[f.Name] = pf.text
		}
	})
	return texts, nil
}

// genFlag reports whether name is a flag of gen itself or a picture kind.
func genFlag(name string) bool {
	return slices.Contains(valueFlags, name) || slices.Contains([]string{flagList, flagPorts, flagProve, "h", "help"}, name) ||
		slices.Contains(reg.PictureKinds(), name)
}

// isParam reports whether name is a parameter of any unit, report or
// picture.
func isParam(name string) bool {
	for _, f := range reg.Families() {
		for _, u := range f.Units {
			if u.Params.Lookup(name) != nil {
				return true
			}
		}
		for _, r := range f.Reports {
			if r.Params.Lookup(name) != nil {
				return true
			}
		}
		for _, p := range f.Pictures {
			if p.Params.Lookup(name) != nil {
				return true
			}
		}
	}
	return false
}

// known reports whether some command of gen has a flag called name.
func known(name string) bool { return genFlag(name) || isParam(name) }

// resolve turns parameter texts into resolved values.
func resolve(params units.Params, owner string, texts map[string]string) (units.Values, error) {
	given, err := params.Parse(owner, texts)
	if err != nil {
		return nil, err
	}
	return params.Resolve(owner, given)
}

// lookupUnit finds the unit -unit names.
func lookupUnit(name string) (*units.Unit, error) {
	u, err := reg.Unit(name)
	if err != nil {
		return nil, badf("-unit: %v", err)
	}
	return u, nil
}

// verilogCommand: gen -unit NAME [params] [-top M] [-portlist | -prove]
// [-o F].
func verilogCommand(s scan, args []string, stdout, stderr io.Writer) error {
	const cmd = "gen -unit"
	fs, out := newFlags(true)
	unit := fs.String(flagUnit, "", "the unit")
	top := fs.String(flagTop, "", "the top module's name")
	ports := fs.Bool(flagPorts, false, "list the top module's ports instead of writing its Verilog")
	format := fs.String(flagFormat, "text", "with -portlist: text, markdown or csv")
	prove := fs.Bool(flagProve, false, "prove the unit's properties instead of writing its Verilog")
	bound := fs.Int(flagBound, 20, "with -prove: the most time steps a proof searches")
	vcd := fs.String(flagVCD, "", "with -prove: write each counterexample and cover trace as DIR/<property>.vcd")
	maxBits := fs.Int(flagMaxBits, verify.DefaultMaxStateBits, "with -prove: the most state bits a design may hold")
	if s.values[flagUnit] == "all" && s.has(flagProve) {
		if _, err := parse(fs, s, args, "gen -unit all -prove", "", nil); err != nil {
			return err
		}
		if *bound < 1 || *bound > 1000 {
			return badf("-bound=%d is out of range: 1 to 1000 time steps", *bound)
		}
		return proveAllCommand(*bound, *maxBits, *out, stdout, stderr)
	}
	var u *units.Unit
	owner := ""
	if name, ok := s.values[flagUnit]; ok {
		var err error
		if u, err = lookupUnit(name); err != nil {
			return err
		}
		addParams(fs, u.Params)
		owner = u.Owner()
	} else if !s.has(flagUnit) {
		for _, name := range s.names {
			if !known(name) {
				return badf("flag provided but not defined: -%s (gen -h lists the flags)", name)
			}
		}
		return badf("-unit is required (units: %s; gen -h for help)", strings.Join(reg.UnitNames(), ", "))
	}
	var params units.Params
	if u != nil {
		params = u.Params
	}
	texts, err := parse(fs, s, args, cmd, owner, params)
	if err != nil {
		return err
	}
	if u == nil || u.Name != *unit { // the pre-scan and the parser disagree
		return badf("-unit is required (units: %s; gen -h for help)", strings.Join(reg.UnitNames(), ", "))
	}
	v, err := resolve(u.Params, owner, texts)
	if err != nil {
		return err
	}
	if s.has(flagFormat) && !*ports {
		return badf("-format does not apply to gen -unit without -portlist")
	}
	if *ports && *prove {
		return badf("-portlist and -prove are separate commands; give one")
	}
	for _, f := range []string{flagBound, flagVCD, flagMaxBits} {
		if s.has(f) && !*prove {
			return badf("-%s does not apply to gen -unit without -prove", f)
		}
	}
	if *bound < 1 || *bound > 1000 {
		return badf("-bound=%d is out of range: 1 to 1000 time steps", *bound)
	}
	if !slices.Contains(table.Formats, *format) {
		return badf("-format=%q is not one of %s for gen -portlist", *format, strings.Join(table.Formats, ", "))
	}
	name := u.ModuleName()
	if s.has(flagTop) {
		if why := hdl.CheckName(*top); why != "" {
			return badf("-top: %s", why)
		}
		name = *top
	}
	d, err := elaborate(u, v, name)
	if err != nil {
		return err
	}
	if *ports {
		return emit(*out, stdout, func(w io.Writer) error { return portTable(d, *format).Write(w, *format) })
	}
	if *prove {
		return proveCommand(u, v, d, proveFlags{bound: *bound, maxBits: *maxBits, vcd: *vcd, out: *out}, stdout, stderr)
	}
	return emit(*out, stdout, func(w io.Writer) error { _, err := w.Write(d.Verilog()); return err })
}

// elaborate builds a unit from resolved values under the top module name.
func elaborate(u *units.Unit, v units.Values, top string) (*hdl.Design, error) {
	m, err := u.Build(v, top)
	if err != nil {
		return nil, err
	}
	d, err := hdl.Elaborate(m)
	if err != nil {
		return nil, fmt.Errorf("unit %s does not elaborate (a parmem bug; please report it):\n%v", u.Name, err)
	}
	return d, nil
}

// portTable lists the top module's ports as its Verilog declares them:
// clk and rst first where it holds state, then the inputs and the outputs
// in declaration order, with the docs of the unit's port record. The lanes
// of a vector port (name_0 .. name_<n-1>, one width and one doc) are one
// row, name_<i>, where the first of them is declared. In markdown the
// names are code, so that a renderer keeps <i>.
func portTable(d *hdl.Design, format string) *table.Table {
	code := func(name string) string { return name }
	if format == "markdown" {
		code = func(name string) string { return "`" + name + "`" }
	}
	t := &table.Table{Title: d.Top().Name() + "'s ports", Header: []string{"port", "direction", "width", "doc"}}
	if d.HasState() {
		t.Add(code(hdl.ClockName), "in", "1", "clock")
		t.Add(code(hdl.ResetName), "in", "1", "synchronous reset, active high")
	}
	type port struct {
		sig *hdl.Signal
		dir string
	}
	var ports []port
	for _, p := range d.Top().Inputs() {
		ports = append(ports, port{p, "in"})
	}
	for _, p := range d.Top().Outputs() {
		ports = append(ports, port{p, "out"})
	}
	lanes := map[string][]port{} // a vector port's lanes by its name_<i>
	for _, p := range ports {
		if base, i, ok := laneOf(p.sig.Name()); ok {
			key := base + "_<i>"
			if len(lanes[key]) == i {
				lanes[key] = append(lanes[key], p)
			} else {
				lanes[key] = append(lanes[key], port{}) // out of order: not a vector
			}
		}
	}
	vector := func(key string) bool {
		ls := lanes[key]
		for _, l := range ls {
			if l.sig == nil || l.sig.Width() != ls[0].sig.Width() || l.sig.Doc() != ls[0].sig.Doc() || l.dir != ls[0].dir {
				return false
			}
		}
		return len(ls) > 1
	}
	for _, p := range ports {
		name := code(p.sig.Name())
		if base, i, ok := laneOf(p.sig.Name()); ok && vector(base+"_<i>") {
			if i != 0 {
				continue
			}
			name = fmt.Sprintf("%s, i < %d", code(base+"_<i>"), len(lanes[base+"_<i>"]))
		}
		t.Add(name, p.dir, fmt.Sprint(p.sig.Width()), p.sig.Doc())
	}
	return t
}

// laneOf splits a port name base_<i> into base and i.
func laneOf(name string) (base string, i int, ok bool) {
	cut := strings.LastIndexByte(name, '_')
	if cut <= 0 {
		return "", 0, false
	}
	i, err := strconv.Atoi(name[cut+1:])
	if err != nil || i < 0 || strconv.Itoa(i) != name[cut+1:] {
		return "", 0, false
	}
	return name[:cut], i, true
}

// listCommand: gen -list [-unit NAME] [-o F].
func listCommand(s scan, args []string, stdout io.Writer) error {
	fs, out := newFlags(true)
	fs.Bool(flagList, false, "list the units")
	unit := fs.String(flagUnit, "", "the unit whose parameters to list")
	if _, err := parse(fs, s, args, "gen -list", "", nil); err != nil {
		return err
	}
	if *unit == "" {
		return emit(*out, stdout, listFamilies)
	}
	u, err := lookupUnit(*unit)
	if err != nil {
		return err
	}
	return emit(*out, stdout, func(w io.Writer) error { return listParams(w, u) })
}

// reportCommand: gen -report NAME|all [-format F[,F...]] [report params]
// [-shard i/N | -merge FILES] [-o FILE[,FILE...]]; gen -report coverage
// is coverageCommand.
func reportCommand(s scan, args []string, stdout, stderr io.Writer) error {
	if s.values[flagReport] == coverageReport {
		return coverageCommand(s, args, stdout)
	}
	fs, out := newFlags(true)
	name := fs.String(flagReport, "", "the report")
	format := fs.String(flagFormat, "text", "text, markdown, csv or html")
	shardText := fs.String(flagShard, "", "run only shard i of N and write its file")
	merge := fs.String(flagMerge, "", "the shards' files, comma-separated")
	results := fs.String(flagResults, "", "the Yosys results file to start from and to write")
	var r *units.Report
	cmd, owner := "gen -report", ""
	if n := s.values[flagReport]; n != "" && n != "all" {
		var err error
		if r, err = reg.Report(n); err != nil {
			return badf("-report=%q is not one of %s", n, reportNames())
		}
		addParams(fs, r.Params)
		owner = r.Owner()
	} else if n == "all" {
		cmd = "gen -report all (give one report to set its parameters)"
	}
	var params units.Params
	if r != nil {
		params = r.Params
	}
	texts, err := parse(fs, s, args, cmd, owner, params)
	if err != nil {
		return err
	}
	outs, err := reportOutputs(*format, *out)
	if err != nil {
		return err
	}
	if *name != "all" && (r == nil || r.Name != *name) {
		return badf("-report=%q is not one of %s", *name, reportNames())
	}
	var v units.Values
	if r != nil {
		if v, err = resolve(r.Params, owner, texts); err != nil {
			return err
		}
	}
	sw, sharded, err := reportSweep(s, *shardText, *merge, reportRun(r, v), stderr)
	if err != nil {
		return err
	}
	if *results != "" {
		if s.has(flagShard) || s.has(flagMerge) {
			return badf("-results belongs to a whole run: it writes the results the run used, which a shard or a merge does not have")
		}
		if err := synth.ImportResults(*results); err != nil {
			return badf("-results: %v", err)
		}
	}
	for _, o := range outs { // before minutes of measuring
		if err := writable(o.file); err != nil {
			return err
		}
	}
	rs := []*units.Report{r}
	if *name == "all" {
		rs = reg.Reports()
	}
	ran, err := runReports(sw, rs, v)
	if err != nil {
		return err
	}
	if sharded { // its tables are made of placeholders: a shard writes its file
		b, err := sw.File(reportRun(r, v)).Marshal()
		if err != nil {
			return err
		}
		return emit(*out, stdout, func(w io.Writer) error { _, err := w.Write(b); return err })
	}
	if err := sw.Done(); err != nil {
		return badf("-merge: %v", err)
	}
	info := pageInfo{command: "gen " + strings.Join(args, " "), when: time.Now()}
	for _, rr := range ran {
		info.yosys = info.yosys || rr.r.Yosys
	}
	for _, o := range outs {
		err := emit(o.file, stdout, func(w io.Writer) error {
			if o.format == "html" {
				_, err := writePage(w, ran, info, stderr)
				return err
			}
			return writeTables(w, ran, o.format, *name == "all")
		})
		if err != nil {
			return err
		}
	}
	if *results == "" {
		return nil
	}
	return synth.ExportResults(*results, *name != "all")
}

// reportFormats are the formats of gen -report: the tables' and html,
// a page of the tables with the reports' charts.
var reportFormats = append(slices.Clip(table.Formats), "html")

// output is one format of a report run and the file it goes to ("" for
// stdout).
type output struct{ format, file string }

// reportOutputs pairs the formats of -format (comma-separated) with the
// files of -o: one format goes to -o or stdout, several each to its own
// file, in order (make tables: -format markdown,html -o
// rtl/REPORT.md,rtl/REPORT.html), from one run.
func reportOutputs(formats, files string) ([]output, error) {
	fs := strings.Split(formats, ",")
	for _, f := range fs {
		if !slices.Contains(reportFormats, f) {
			return nil, badf("-format=%q is not one of %s for gen -report", f, strings.Join(reportFormats, ", "))
		}
	}
	if len(fs) == 1 {
		return []output{{fs[0], files}}, nil
	}
	names := strings.Split(files, ",")
	if files == "" || len(names) != len(fs) {
		return nil, badf("-format %s names %d formats: give -o as many files, comma-separated, one per format", formats, len(fs))
	}
	var out []output
	for i := range fs {
		if slices.ContainsFunc(out, func(o output) bool { return o.file == names[i] }) {
			return nil, badf("-o %s: a file given twice", names[i])
		}
		out = append(out, output{fs[i], names[i]})
	}
	return out, nil
}

// runReports runs the reports at once (sweep.Run.DoAll: the Yosys runs of
// all of them share the CPUs, largest first, internal/synth), each at v
// or, with v nil, at its defaults.
func runReports(sw *sweep.Run, rs []*units.Report, v units.Values) ([]ranReport, error) {
	labels := make([]string, len(rs))
	runs := make([]func(io.Writer) error, len(rs))
	ran := make([]ranReport, len(rs))
	for i, r := range rs {
		rv := v
		if rv == nil {
			rv = r.Params.Defaults()
		}
		labels[i] = r.Name
		ran[i] = ranReport{r: r, v: rv}
		runs[i] = func(progress io.Writer) error {
			var err error
			ran[i].tables, err = r.Run(rv, progress)
			return err
		}
	}
	err := sw.DoAll(labels, runs)
	if fe := (*sweep.FileError)(nil); errors.As(err, &fe) {
		return nil, badf("-merge: %v", fe)
	}
	return ran, err
}

// writeTables writes the reports' tables in a text format; the whole
// review in markdown (-report all) starts with its heading.
func writeTables(w io.Writer, ran []ranReport, format string, all bool) error {
	if all && format == "markdown" {
		fmt.Fprintf(w, "# parmem design review: area and latency\n\nGenerated by `make tables` (`go run ./gen -report all -format markdown`). Yosys flows: scripts/ice40.ys, gates.ys, gates_fast.ys, gates_noabc.ys and ge.ys (with its cell library ge.lib).\n\n")
	}
	for i, rr := range ran {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for j, t := range rr.tables {
			if j > 0 {
				fmt.Fprintln(w)
			}
			if err := t.Write(w, format); err != nil {
				return err
			}
		}
	}
	return nil
}

// reportNames lists what -report takes: the registered reports, coverage
// and all.
func reportNames() string {
	return strings.Join(append(reg.ReportNames(), coverageReport, "all"), ", ")
}

// reportSweep is the sweep a report command runs its jobs in: one shard
// of them (-shard; sharded), every job's result from the shards' files
// (-merge), or all of them. run names the report and its parameters in
// the shard files.
func reportSweep(s scan, shardText, merge, run string, stderr io.Writer) (sw *sweep.Run, sharded bool, err error) {
	switch {
	case s.has(flagShard) && s.has(flagMerge):
		return nil, false, badf("-shard and -merge are separate steps: run each shard with -shard i/N -o FILE, then merge the files with -merge")
	case s.has(flagShard) && s.has(flagFormat):
		return nil, false, badf("-format does not apply to -shard: a shard writes a file for -merge, which formats the tables")
	case s.has(flagShard):
		shard, err := sweep.ParseShard(shardText)
		if err != nil {
			return nil, false, badf("-shard=%v", err)
		}
		return sweep.New(stderr, shard, true), true, nil
	case s.has(flagMerge):
		sw, err := sweep.Merge(stderr, strings.Split(merge, ","), run)
		if err != nil {
			return nil, false, badf("-merge: %v", err)
		}
		return sw, false, nil
	}
	return sweep.New(stderr, sweep.Whole, false), false, nil
}

// reportRun names a report run in shard files: "gen -report NAME" with
// every parameter's value (defaults included), or "gen -report all" (r is
// nil).
func reportRun(r *units.Report, v units.Values) string {
	if r == nil {
		return "gen -report all"
	}
	run := "gen -report " + r.Name
	for _, k := range slices.Sorted(maps.Keys(v)) {
		run += fmt.Sprintf(" -%s %d", k, v[k])
	}
	return run
}

// pictureCommand: gen -KIND [-unit NAME] [picture params] [-format F] [-o F].
func pictureCommand(kind string, s scan, args []string, stdout io.Writer) error {
	fs, out := newFlags(true)
	fs.String(flagUnit, "", "the unit to draw")
	format := fs.String(flagFormat, "", "the picture's format")
	unit, ok := s.values[flagUnit]
	if ok {
		if _, err := lookupUnit(unit); err != nil {
			return err
		}
	}
	p, err := reg.Picture(kind, unit)
	if err != nil {
		return err
	}
	if p.KindParam() != nil {
		args = kindValue(kind, args) // the kind flag is the parameter's
	} else {
		fs.Bool(kind, false, "draw a picture")
	}
	addParams(fs, p.Params)
	texts, err := parse(fs, s, args, "gen -"+kind, p.Owner(), p.Params)
	if err != nil {
		return err
	}
	if *format == "" {
		*format = p.Formats[0]
	}
	if !slices.Contains(p.Formats, *format) {
		return badf("-format=%q is not one of %s for gen -%s", *format, strings.Join(p.Formats, ", "), kind)
	}
	v, err := resolve(p.Params, p.Owner(), texts)
	if err != nil {
		return err
	}
	pic, err := p.Draw(v, *format)
	if err != nil {
		return err
	}
	return emit(*out, stdout, func(w io.Writer) error { _, err := w.Write(pic); return err })
}

// kindValue rewrites the kind flag of a picture whose KindParam is the
// flag's value (gen -pipeline split): "-KIND CHOICE" becomes
// "-KIND=CHOICE", and a bare "-KIND" (the default choice) is dropped.
func kindValue(kind string, args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case a != "-"+kind && a != "--"+kind:
			out = append(out, a)
		case i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
			out = append(out, a+"="+args[i+1])
			i++
		}
	}
	return out
}

// canonicalCommand: gen -canonical DIR.
func canonicalCommand(s scan, args []string) error {
	fs, _ := newFlags(false)
	dir := fs.String(flagCanonical, "", "the directory")
	if _, err := parse(fs, s, args, "gen -canonical", "", nil); err != nil {
		return err
	}
	if *dir == "" {
		return badf("-canonical needs a directory (make rtl: -canonical rtl)")
	}
	return writeCanonical(*dir)
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

// writable checks, before a command does its work, that emit can write
// file: "" (stdout), or a regular file or none in a directory where a
// file can be made.
func writable(file string) error {
	if file == "" {
		return nil
	}
	if fi, err := os.Lstat(file); err == nil && !fi.Mode().IsRegular() {
		return badf("-o %s: not a regular file", file)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".gen-*")
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		return badf("-o %s: cannot write in %s: %v", file, filepath.Dir(file), pe.Err)
	}
	if err != nil {
		return badf("-o %s: %v", file, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
