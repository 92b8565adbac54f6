package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/verify"
)

// gen -report coverage: the cover points of each unit in the last run of
// the lockstep packs, from the records the packs leave in the tool cache
// (verify.CoverageRecord). It is not a registered report: those belong to
// a family, measure from their parameters alone (so that gen shards them)
// and go into rtl/REPORT.md with -report all; this one reads what this
// machine's last test runs recorded, across the families.

const coverageReport = "coverage"

// coverageDir is where the records are: verify.CoverageDir, or a test's
// directory.
var coverageDir = verify.CoverageDir

// coverageCommand: gen -report coverage [-format F] [-o F].
func coverageCommand(s scan, args []string, stdout io.Writer) error {
	fs, out := newFlags(true)
	fs.String(flagReport, "", "the report")
	format := fs.String(flagFormat, "text", "text, markdown or csv")
	if _, err := parse(fs, s, args, "gen -report coverage", "", nil); err != nil {
		return err
	}
	if !slices.Contains(table.Formats, *format) {
		return badf("-format=%q is not one of %s for gen -report", *format, strings.Join(table.Formats, ", "))
	}
	dir, err := coverageDir()
	if err != nil {
		return err
	}
	recs, err := verify.ReadCoverage(dir)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return badf("no lockstep pack has recorded its coverage in %s: run make test, or a family's pack (go test ./check/lib)", dir)
	}
	return emit(*out, stdout, func(w io.Writer) error { return coverageTable(recs).Write(w, *format) })
}

// unitCoverage is a unit's row: its cover points in one pack's run.
type unitCoverage struct {
	unit, pack                         string
	date                               time.Time
	configs                            int // the unit's configurations in the pack
	points, reached, unreachable, gaps int
	fewest                             uint64 // hits of the least-hit reached point
	gapNotes                           []string
}

// coverOf counts the cover points of unit's configurations in rec.
func coverOf(rec verify.CoverageRecord, unit string) unitCoverage {
	u := unitCoverage{unit: unit, pack: rec.Pack, date: rec.Date}
	for _, c := range rec.Configs {
		if c.Unit == unit {
			u.configs++
		}
	}
	for _, p := range rec.Points {
		if !slices.ContainsFunc(p.Configs, func(k int) bool { return rec.Configs[k].Unit == unit }) {
			continue
		}
		u.points++
		switch {
		case p.Hits > 0:
			if u.reached == 0 || p.Hits < u.fewest {
				u.fewest = p.Hits
			}
			u.reached++
		case p.Verdict == verify.CoverUnreachable:
			u.unreachable++
		default:
			u.gaps++
			u.gapNotes = append(u.gapNotes, fmt.Sprintf("gap: %s: %s.%s in %s: %s", unit, p.Module, p.Name, rec.Configs[p.Configs[0]], p.Why))
		}
	}
	return u
}

// coverageTable is one row per unit, from the latest run of a pack that
// has it (by pack name among runs of one time), in the registry's order
// of families and units (a unit no longer registered last), then the
// total; under it, each gap and why.
func coverageTable(recs []verify.CoverageRecord) *table.Table {
	latest := map[string]unitCoverage{}
	for _, rec := range recs {
		for _, c := range rec.Configs {
			if u, ok := latest[c.Unit]; !ok || rec.Date.After(u.date) {
				latest[c.Unit] = coverOf(rec, c.Unit)
			}
		}
	}
	var order []string
	for _, f := range reg.Families() {
		for _, u := range f.Units {
			if _, ok := latest[u.Name]; ok {
				order = append(order, u.Name)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(latest)) {
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	t := &table.Table{
		Title: "Cover points per unit, in the last run of its lockstep pack (make test; gen -report coverage)",
		Header: []string{"unit", "family", "configurations", "cover points", "reached", "proven unreachable", "gaps",
			"fewest hits", "pack", "run (UTC)"},
	}
	var total unitCoverage
	packs := map[string]bool{}
	var gaps []string
	for _, name := range order {
		u := latest[name]
		family := ""
		if f := reg.FamilyOf(name); f != nil {
			family = f.Name
		}
		t.Add(name, family, fmt.Sprint(u.configs), fmt.Sprint(u.points), fmt.Sprint(u.reached), fmt.Sprint(u.unreachable),
			fmt.Sprint(u.gaps), fewest(u), u.pack, u.date.UTC().Format("2006-01-02 15:04"))
		if u.reached > 0 && (total.reached == 0 || u.fewest < total.fewest) {
			total.fewest = u.fewest
		}
		total.configs += u.configs
		total.points += u.points
		total.reached += u.reached
		total.unreachable += u.unreachable
		total.gaps += u.gaps
		packs[u.pack] = true
		gaps = append(gaps, u.gapNotes...)
	}
	t.Add("total", "", fmt.Sprint(total.configs), fmt.Sprint(total.points), fmt.Sprint(total.reached), fmt.Sprint(total.unreachable),
		fmt.Sprint(total.gaps), fewest(total), fmt.Sprintf("%d packs", len(packs)), "")
	recorded := map[string]bool{}
	for _, rec := range recs {
		recorded[rec.Pack] = true
	}
	var missing []string
	for _, f := range reg.Families() {
		if len(f.Lockstep.Configs) > 0 && !recorded[verify.PackName(f.Name)] {
			missing = append(missing, f.Name)
		}
	}
	if len(missing) > 0 {
		gaps = append(gaps, fmt.Sprintf("No run recorded of the packs of %s (make test runs every pack).", strings.Join(missing, ", ")))
	}
	t.Notes = append([]string{
		"A module's cover point counts its hits in all its instances in the pack, as the pack's check does, in the row of each unit that holds it.",
		"A point never hit is proven unreachable by Yosys, or a gap: new stimulus should reach it, or Yosys prove it unreachable.",
	}, gaps...)
	return t
}

// fewest is the fewest-hits cell: empty where no point was reached.
func fewest(u unitCoverage) string {
	if u.reached == 0 {
		return ""
	}
	return fmt.Sprint(u.fewest)
}
