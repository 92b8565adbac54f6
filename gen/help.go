package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/verify"
)

// gen -h and gen -list, made from the registry.

const helpCommands = `gen writes parmem hardware as Verilog-2005, lists the units, runs the
design-review reports and draws pictures of units. The units, their
parameters, the reports and the pictures all come from the unit registry.

Commands:
  gen -unit NAME [-PARAM VALUE ...] [-top MODULE] [-o FILE]
      writes unit NAME's Verilog to FILE, or to stdout. The parameters are
      the unit's own (gen -list -unit NAME shows them with their defaults
      and valid values); -top renames the top module (sub-modules follow
      it: MODULE_atu, ...).
  gen -unit NAME [-PARAM VALUE ...] -portlist [-format F] [-o FILE]
      lists the top module's ports at those parameters (name, direction,
      width, doc; a vector port's lanes as one row name_<i>) instead of
      writing its Verilog; -format text (default), markdown or csv.
  gen -unit NAME|all [-PARAM VALUE ...] -prove [-bound N] [-maxbits N] [-vcd DIR] [-o FILE]
      proves the unit's properties (hdl's Assert, Assume, Cover) on its
      Verilog with Yosys, within N time steps (default 20): a table of
      verdicts (proven, failed, open; reached, unreachable) and times, then
      each counterexample or cover trace, replayed in the Go simulator and,
      with -vcd, written as DIR/<property>.vcd; a failed assertion exits 1.
      -unit all proves every unit at its smallest configuration among
      those its family runs in lockstep or lists to prove.
      A design of more than -maxbits state bits (1024) is refused.
  gen -list [-unit NAME] [-o FILE]
      lists the units by family; with -unit, NAME's parameters.
  gen -report NAME|all [-format text|markdown|csv|html] [-PARAM VALUE ...] [-o FILE]
      runs a design-review report (below), or all of them at once (their
      Yosys runs share the CPUs, the largest first) with their tables in
      order; a report's parameters are flags of gen -report NAME. Progress
      (jobs done/total, rate, time left) goes to stderr.
      -format html writes one self-contained page (inline SVG and CSS, no
      script, nothing fetched): a table of contents, the parameters, tool
      versions and date, and each report's tables with its charts, each
      drawn from the report's own tables after the one it reads (bars of
      ours beside the paper's, growth curves with the fitted law, heat
      maps, the layouts, the fidelity verdicts); a report without charts
      still writes its tables. Several formats, comma-separated, write one
      run to as many files: -format markdown,html -o REPORT.md,REPORT.html
      (make tables). An -o that cannot be written is refused before the
      run. make review renders the page in headless Chromium (it installs
      chromium) and checks its charts and screenshot.
  gen -report coverage [-format text|markdown|csv] [-o FILE]
      sums up what the stimulus of each unit's last lockstep pack run
      covered (make test, or a family's go test ./check/FAMILY, records
      each pack's run in the tool cache): per unit, its cover points, how
      many were reached, proven unreachable by Yosys or gaps (neither), the
      fewest hits of a reached point, and the pack and date of the run;
      then the total, and each gap with why. It runs nothing, and
      -report all leaves it out.
  gen -report NAME|all [-PARAM VALUE ...] -shard i/N -o FILE
  gen -report NAME|all [-PARAM VALUE ...] -merge FILE,FILE,... [-format F] [-o FILE]
      split a report over N machines (a Slurm array, a Kubernetes indexed
      Job, a CI matrix): shard i (0-based: 0..N-1) runs the report's jobs
      k with k mod N = i and writes their results to FILE; -merge, given
      every shard's file, writes the tables of one run, running nothing.
      Give the shards and the merge the same report and parameters.
  gen -KIND [-unit NAME] [-PARAM VALUE ...] [-format FORMAT] [-o FILE]
      draws a picture of a unit (below); without -unit, the default one of
      its kind. gen -KIND -unit NAME -h lists the picture's parameters.
  gen -canonical DIR
      regenerates the reviewed RTL (rtl/ in the repository; make rtl).
  gen -h, gen -unit NAME -h
      this help; NAME's parameters.

Bad input gets one line on stderr naming the flag and its valid values,
and exit status 2.
`

// help writes gen -h: the commands, reports and pictures from the
// registry, examples, and gen's own flags; with -unit, that unit's
// parameters (and with a picture kind too, the picture's).
func help(s scan, w io.Writer) error {
	var kind string
	for _, name := range s.names {
		for _, k := range reg.PictureKinds() {
			if name == k {
				kind = k
			}
		}
	}
	if unit, ok := s.values[flagUnit]; ok || kind != "" {
		var text strings.Builder
		if kind != "" {
			p, err := reg.Picture(kind, unit)
			if err != nil {
				return err
			}
			writePictureParams(&text, p)
		} else {
			u, err := lookupUnit(unit)
			if err != nil {
				return err
			}
			fmt.Fprintf(&text, "gen -unit %s [-PARAM VALUE ...] [-top MODULE] [-o FILE]\n\n", u.Name)
			if err := listParams(&text, u); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, text.String())
		if err != nil {
			return err
		}
		return flag.ErrHelp
	}
	var b strings.Builder
	b.WriteString(helpCommands)

	b.WriteString("\n")
	reports := &table.Table{Title: "Reports (gen -report NAME; make tables writes all of them to rtl/REPORT.md):",
		Header: []string{"report", "family", "Yosys", "time on 2 cores", "what"}}
	for _, f := range reg.Families() {
		for _, r := range f.Reports {
			name := r.Name
			if len(r.Params) > 0 {
				name += " " + r.Params.Flags()
			}
			reports.Add(name, f.Name, yesNo(r.Yosys), roughly(r.Time), r.Doc)
		}
	}
	reports.Notes = []string{"gen -report coverage: what each unit's last lockstep pack run covered (see above)."}
	if err := reports.Write(&b, "text"); err != nil {
		return err
	}

	b.WriteString("\n")
	pictures := &table.Table{Title: "Pictures (gen -KIND [-unit NAME]; * the default of its kind):",
		Header: []string{"flag", "unit", "formats", "parameters", "what"}}
	for _, k := range reg.PictureKinds() {
		for _, p := range reg.Pictures(k) {
			unit := p.Unit
			if p.Default {
				unit += " *"
			}
			pictures.Add("-"+k, unit, strings.Join(p.Formats, ", "), p.Params.Flags(), p.Doc)
		}
	}
	if err := pictures.Write(&b, "text"); err != nil {
		return err
	}

	b.WriteString("\nExamples:\n")
	for _, f := range reg.Families() {
		for _, ex := range f.Examples {
			fmt.Fprintf(&b, "  go run ./gen %s\n", ex)
		}
	}
	if fs := reg.Families(); len(fs) > 0 {
		fmt.Fprintf(&b, "  go run ./gen -list -unit %s\n", fs[0].Units[0].Name)
	}
	b.WriteString("  go run ./gen -report all -format markdown -o rtl/REPORT.md\n")
	b.WriteString("  go run ./gen -report atu -format html -o atu.html\n")
	b.WriteString("  go run ./gen -report coverage\n")

	b.WriteString("\nFlags of gen itself (a unit's, a report's or a picture's parameters are flags too):\n")
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.String(flagUnit, "", "the unit `NAME` (gen -list lists them)")
	fs.Bool(flagList, false, "list the units by family, or with -unit the unit's parameters")
	fs.String(flagReport, "", "run the design-review report `NAME`: "+reportNames())
	for _, k := range reg.PictureKinds() {
		var us []string
		for _, p := range reg.Pictures(k) {
			us = append(us, p.Unit)
		}
		usage := "draw a " + k + " picture (units: " + strings.Join(us, ", ") + ")"
		if p, err := reg.Picture(k, ""); err == nil && p.KindParam() != nil {
			q := p.KindParam()
			fs.String(k, "", fmt.Sprintf("%s; the default one's `%s`: %s (bare -%s: %s)", usage, strings.ToUpper(k),
				strings.Join(q.Choices, ", "), k, q.Format(p.Params.Defaults()[k])))
		} else {
			fs.Bool(k, false, usage)
		}
	}
	fs.String(flagCanonical, "", "regenerate the reviewed RTL under the directory `DIR` (make rtl: -canonical rtl)")
	fs.String(flagTop, "", "with -unit: the top Verilog module's name `MODULE` (default: the unit's name with - turned into _)")
	fs.Bool(flagPorts, false, "with -unit: list the top module's ports (name, direction, width, doc) instead of its Verilog")
	fs.Bool(flagProve, false, "with -unit: prove the unit's properties with Yosys instead of writing its Verilog")
	fs.Int(flagBound, 20, "with -prove: the most time steps a proof searches")
	fs.Int(flagMaxBits, verify.DefaultMaxStateBits, "with -prove: refuse a design of more state bits")
	fs.String(flagVCD, "", "with -prove: write each counterexample and cover trace as `DIR`/<property>.vcd")
	fs.String(flagFormat, "", "the output `FORMAT`: with -report text (default), markdown, csv or html, or several comma-separated with as many -o files; with a picture one of its formats")
	fs.String(flagOut, "", "write to the file `FILE` instead of stdout (with -report -format F1,F2: FILE1,FILE2)")
	fs.String(flagShard, "", "with -report: run only the jobs of shard `i/N` (0-based) and write their file")
	fs.String(flagMerge, "", "with -report: the shards' `FILES` (comma-separated) to merge into the tables of one run")
	fs.String(flagResults, "", "with -report: seed the tool cache with the Yosys results in `FILE`, then write there the results the run used (with -report all only those: make tables keeps rtl/synth-results.json so)")
	fs.Bool("h", false, "show this help")
	fs.SetOutput(&b)
	fs.PrintDefaults()
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return err
	}
	return flag.ErrHelp
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// roughly shows a run time estimate: "10s", "about 2 min".
func roughly(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
	}
	return fmt.Sprintf("%d min", int(d.Round(time.Minute)/time.Minute))
}

// listFamilies writes gen -list: the units of each family, one line each.
func listFamilies(w io.Writer) error {
	fmt.Fprintf(w, "parmem units by family (gen -unit NAME [-PARAM VALUE ...]; gen -list -unit NAME shows a unit's parameters)\n")
	for _, f := range reg.Families() {
		fmt.Fprintln(w)
		t := &table.Table{Title: fmt.Sprintf("%s: %s", f.Name, f.Doc), Header: []string{"unit", "parameters", "what"}}
		for _, u := range f.Units {
			t.Add(u.Name, u.Params.Flags(), u.Doc)
		}
		if err := t.Write(w, "text"); err != nil {
			return err
		}
	}
	return nil
}

// listParams writes gen -list -unit NAME: the unit's parameters.
func listParams(w io.Writer, u *units.Unit) error {
	title := fmt.Sprintf("%s: %s", u.Name, u.Doc)
	if f := reg.FamilyOf(u.Name); f != nil {
		title += fmt.Sprintf(" (family %s)", f.Name)
	}
	return paramTable(title, u.Params).Write(w, "text")
}

// writePictureParams writes gen -KIND -unit NAME -h.
func writePictureParams(w io.Writer, p *units.Picture) error {
	kind := "-" + p.Kind
	if k := p.KindParam(); k != nil {
		kind += " [" + strings.Join(k.Choices, "|") + "]"
	}
	fmt.Fprintf(w, "gen %s -unit %s [-PARAM VALUE ...] [-format %s] [-o FILE]\n\n", kind, p.Unit, strings.Join(p.Formats, "|"))
	return paramTable(fmt.Sprintf("%s: %s", p.Owner(), p.Doc), p.Params).Write(w, "text")
}

// paramTable shows parameters: flag, kind, default, valid values, meaning;
// values that depend on earlier parameters are shown for the defaults,
// and a note says so.
func paramTable(title string, ps units.Params) *table.Table {
	t := &table.Table{Title: title, Header: []string{"flag", "kind", "default", "valid", "meaning"}}
	v := ps.Defaults()
	var notes []string
	for i := range ps {
		p := &ps[i]
		def := "none"
		if x, ok := v[p.Name]; ok {
			def = p.Format(x)
		}
		valid := p.RangeText(v)
		if deps := ps.DependsOn(p.Name); len(deps) > 0 {
			valid += " *"
			var on, at []string
			for _, d := range deps {
				on = append(on, "-"+d)
				if x, ok := v[d]; ok {
					at = append(at, fmt.Sprintf("-%s %s", d, ps.Lookup(d).Format(x)))
				} else {
					at = append(at, fmt.Sprintf("no -%s", d))
				}
			}
			notes = append(notes, fmt.Sprintf("* -%s depends on %s: shown for the defaults (%s).", p.Name, strings.Join(on, ", "), strings.Join(at, ", ")))
		}
		kind := p.Kind.String()
		if p.Optional {
			kind += ", optional"
		}
		t.Add("-"+p.Name, kind, def, valid, p.Doc)
	}
	t.Notes = notes
	return t
}
