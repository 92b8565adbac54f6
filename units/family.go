package units

import (
	"fmt"
	"io"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
)

// Family is one package of units (units/sams, ...) and everything it
// brings to the gen command and the checks: its units, design-review
// reports, pictures, canonical RTL and lockstep configurations. A family
// registers itself from its init function with RegisterFamily; gen and
// verify find it only through the registry.
type Family struct {
	Name string // "sams"; every unit is called Name or Name-<part>
	Doc  string // one line, the heading of its units in gen -list

	Units   []*Unit
	Reports []*Report
	// Claims sets the family's results beside its papers' (gen -report
	// fidelity); nil when it reproduces none.
	Claims   *Claims
	Pictures []*Picture
	// Canonical is the reviewed RTL under rtl/ (gen -canonical rtl).
	Canonical []Canonical
	// Lockstep is what verify.LockstepFamily runs on the Go simulator,
	// Verilator and Icarus.
	Lockstep Lockstep
	// Prove is what the family's proofs take to Yosys beside its
	// lockstep configurations: sizes small enough to prove.
	Prove Prove
	// Speed is the configurations make bench times on every simulator
	// (verify.SpeedFamily): the family's largest designs.
	Speed []Config
	// Examples are gen command lines, without "gen", that gen -h shows:
	// "-unit sams -q 3 > sams.v".
	Examples []string
}

// Unit is one buildable block.
type Unit struct {
	Name   string
	Doc    string // one line
	Params Params
	// Build makes the hardware from resolved values, with the top
	// module called name (sub-modules are called name_<part>).
	Build func(v Values, name string) (*hdl.Module, error)
}

// ModuleName is the unit's default Verilog module name: its name with '-'
// turned into '_'.
func (u *Unit) ModuleName() string { return strings.ReplaceAll(u.Name, "-", "_") }

// Param returns the unit's parameter called name, or nil.
func (u *Unit) Param(name string) *Param { return u.Params.Lookup(name) }

// Resolve fills in defaults for the parameters not given and checks every
// value against its range, in declaration order. An error (an
// *InputError) names the first bad parameter and its valid range; a value
// for a parameter the unit does not have is an error too.
func (u *Unit) Resolve(given Values) (Values, error) { return u.Params.Resolve(u.Owner(), given) }

// Owner names the unit in messages: "unit sams".
func (u *Unit) Owner() string { return "unit " + u.Name }

// Report is a design-review report: tables of measurements, usually beside
// a paper's figures. gen -report NAME runs it; gen -report all runs every
// report in family order, then registration order.
type Report struct {
	Name  string // unique over all families; not "all"
	Doc   string // one line
	Yosys bool   // it runs Yosys
	// Time is roughly how long it runs alone on two cores with nothing in
	// the tool cache (gen -h shows it).
	Time time.Duration
	// Params become flags of gen -report NAME.
	Params Params
	// Configs, when set, lists the unit configurations the report builds,
	// so a test can check they still build without running the report.
	Configs func(v Values) []Config
	// Run measures and returns the tables. Its independent measurements
	// are jobs: it runs them with sweep.Map (or reports.MeasureAll) on
	// progress, which gen makes a *sweep.Run that shows their progress
	// and shards them (gen -report NAME -shard i/N) or takes their results
	// from the shards' files (-merge). So the jobs must follow from v
	// alone, and the tables must be made, without failing, from the zero
	// results a shard has for other shards' jobs (gen's
	// TestEveryReportListsItsJobs runs each report so).
	Run func(v Values, progress io.Writer) ([]*table.Table, error)
	// Charts draw the report's figures (gen -report NAME -format html),
	// in order, each from the tables Run returned alone: a chart reads
	// its numbers from those tables and measures nothing itself. A family
	// declares them in its charts.go (AttachCharts).
	Charts []Chart
}

// Chart draws one figure of a report from the report's tables.
type Chart func(tables []*table.Table) (chart.Chart, error)

// AttachCharts appends charts to the report called name among reports
// (a family's list). A name that is not there is a programming error and
// panics at init time.
func AttachCharts(reports []*Report, name string, charts ...Chart) {
	for _, r := range reports {
		if r.Name == name {
			r.Charts = append(r.Charts, charts...)
			return
		}
	}
	panic(fmt.Sprintf("units: AttachCharts: no report %q", name))
}

// PictureChart is a chart of a report that shows one of its family's
// pictures at the values given (the others at their defaults), as gen
// -KIND -format svg draws it.
func PictureChart(p *Picture, given Values, title, note string) Chart {
	return func([]*table.Table) (chart.Chart, error) {
		return &chart.Picture{
			Caption: chart.Caption{Title: title, Note: note},
			Draw: func() ([]byte, error) {
				v, err := p.Params.Resolve(p.Owner(), given)
				if err != nil {
					return nil, err
				}
				return p.Draw(v, "svg")
			},
		}, nil
	}
}

// Owner names the report in messages: "report atu".
func (r *Report) Owner() string { return "report " + r.Name }

// Picture draws a unit for design reviews: gen -<Kind> [-unit Unit].
type Picture struct {
	// Kind is the gen flag that asks for it ("layout": gen -layout).
	Kind string
	Unit string // the unit of the family it draws
	Doc  string // one line
	// Params become flags of gen -<Kind> -unit Unit. A Choice parameter
	// named Kind (KindParam) is the kind flag's own value: gen -<Kind>
	// CHOICE.
	Params Params
	// Formats it draws in ("text", "svg"); the first is the default.
	Formats []string
	// Default makes it the picture gen -<Kind> draws without -unit (at
	// most one per kind).
	Default bool
	// Draw makes the picture from resolved values in one of Formats.
	// Input it rejects (a combination of values) is an *InputError.
	Draw func(v Values, format string) ([]byte, error)
}

// KindParam returns the picture's Choice parameter named like its Kind,
// which the kind flag itself takes (gen -pipeline split), or nil.
func (p *Picture) KindParam() *Param {
	if q := p.Params.Lookup(p.Kind); q != nil && q.Kind == Choice {
		return q
	}
	return nil
}

// Owner names the picture in messages: "the sams layout".
func (p *Picture) Owner() string { return fmt.Sprintf("the %s %s", p.Unit, p.Kind) }

// Canonical is one reviewed RTL file: a unit configuration with its top
// module name, kept under rtl/.
type Canonical struct {
	File   string // under rtl/, slash-separated: "sams/sams_q2.v"
	Unit   string
	Values Values
	Top    string // the top module's name
}

// AtDefaults is the canonical RTL of every unit at its defaults, one file
// per unit under rtl/<dir>/, named after its module.
func AtDefaults(dir string, us []*Unit) []Canonical {
	var cs []Canonical
	for _, u := range us {
		top := u.ModuleName()
		cs = append(cs, Canonical{File: dir + "/" + top + ".v", Unit: u.Name, Values: Values{}, Top: top})
	}
	return cs
}

// Lockstep is the unit configurations run in lockstep on the Go simulator,
// Verilator and Icarus (verify.LockstepFamily), for Cycles cycles (Icarus
// for the first quarter of them, except in make long). Long
// configurations take minutes to build (their Verilog is hundreds of
// thousands of lines): they run, packed apart, for LongCycles cycles only
// in make long (verify's -verify.long).
//
// Shapes, by unit name, shape the stimulus of the configurations of
// those units in a run of its own, ShapedCycles long, after the random
// one, on the Go simulator and Verilator (Icarus too in make long); a
// family with none runs the random in-simulator stimulus alone.
type Lockstep struct {
	Configs      []Config
	Cycles       int
	Long         []Config
	LongCycles   int
	Shapes       map[string]Shape
	ShapedCycles int
}

// Phase is what a block of shaped cycles does to one configuration.
// Random inputs reach every case a block meets in a few cycles, but
// seldom the ones that take a run of cycles alike: a full queue, a
// saturated count, a queue drained from full. The phases are those runs.
type Phase int

const (
	// PhaseRandom leaves every input random, as unshaped.
	PhaseRandom Phase = iota
	// PhaseFill lets work in and none out: the valids that bring work
	// 1, the readies and pops that take it 0.
	PhaseFill
	// PhaseDrain lets work out and none in.
	PhaseDrain
)

// Shape sets, for a configuration whose resolved values are v, the inputs
// its phase constrains at step (the cycle within the phase's block) with
// set (an input's name in the unit and its value, which must fit its
// width); r draws what the shape leaves to chance. The inputs it does not
// set stay random.
type Shape func(v Values, ph Phase, step int, r *rand.Rand, set func(input string, x uint64))

// Prove is the configurations whose properties the family's proof tests
// (check/<family>) require settled: Configs in make test, More too in make
// prove. gen -unit all -prove proves each unit at the one of Configs and
// the lockstep configurations that holds the fewest state bits, so a unit
// whose lockstep sizes are too large for Yosys (a memory of thousands of
// words) lists a smaller one here.
type Prove struct {
	Configs []Config
	More    []Config
}

// All is Configs, and More too when more is set (make prove).
func (p Prove) All(more bool) []Config {
	if !more {
		return p.Configs
	}
	return append(slices.Clip(p.Configs), p.More...)
}

// Config is one configuration of a unit: its name and the parameters
// given (the rest take their defaults).
type Config struct {
	Unit   string
	Values Values
}

// String names the configuration as a gen command line would: the unit and
// its parameters in name order.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(c.Unit)
	keys := make([]string, 0, len(c.Values))
	for k := range c.Values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " -%s %d", k, c.Values[k])
	}
	return b.String()
}

// Build elaborates the configuration of a registered unit with its top
// module called top.
func (c Config) Build(top string) (*hdl.Design, error) { return registered.Build(c, top) }

// check reports a bad declaration of the family itself (what the rest of
// the registry does not matter to).
func (f *Family) check() error {
	switch {
	case !nameRE.MatchString(f.Name):
		return fmt.Errorf("family %q: the name must match %s", f.Name, nameRE)
	case f.Doc == "":
		return fmt.Errorf("family %s: no Doc", f.Name)
	case len(f.Units) == 0:
		return fmt.Errorf("family %s: no units", f.Name)
	}
	units := map[string]*Unit{}
	for _, u := range f.Units {
		switch {
		case u == nil:
			return fmt.Errorf("family %s: a nil unit", f.Name)
		case u.Name != f.Name && !strings.HasPrefix(u.Name, f.Name+"-"):
			return fmt.Errorf("family %s: unit %q: a unit is called %s or %s-<part>", f.Name, u.Name, f.Name, f.Name)
		case !nameRE.MatchString(u.Name):
			return fmt.Errorf("family %s: unit %q: the name must match %s", f.Name, u.Name, nameRE)
		case u.Doc == "":
			return fmt.Errorf("unit %s: no Doc", u.Name)
		case u.Build == nil:
			return fmt.Errorf("unit %s: no Build", u.Name)
		case units[u.Name] != nil:
			return fmt.Errorf("unit %s registered twice", u.Name)
		}
		if err := u.Params.check(u.Owner()); err != nil {
			return err
		}
		units[u.Name] = u
	}
	configOK := func(what string, c Config) error {
		u := units[c.Unit]
		if u == nil {
			return fmt.Errorf("family %s: %s: %q is not a unit of the family", f.Name, what, c.Unit)
		}
		if _, err := u.Resolve(c.Values); err != nil {
			return fmt.Errorf("family %s: %s: %v", f.Name, what, err)
		}
		return nil
	}
	reports := map[string]bool{}
	for _, r := range f.Reports {
		switch {
		case r == nil:
			return fmt.Errorf("family %s: a nil report", f.Name)
		case !nameRE.MatchString(r.Name) || r.Name == "all" || r.Name == FidelityName:
			return fmt.Errorf("family %s: report %q: the name must match %s and not be all or %s", f.Name, r.Name, nameRE, FidelityName)
		case r.Doc == "":
			return fmt.Errorf("report %s: no Doc", r.Name)
		case r.Run == nil:
			return fmt.Errorf("report %s: no Run", r.Name)
		case r.Time <= 0:
			return fmt.Errorf("report %s: no Time", r.Name)
		case reports[r.Name]:
			return fmt.Errorf("report %s registered twice", r.Name)
		}
		reports[r.Name] = true
		if err := r.Params.check(r.Owner()); err != nil {
			return err
		}
		for i, c := range r.Charts {
			if c == nil {
				return fmt.Errorf("report %s: chart %d is nil", r.Name, i+1)
			}
		}
	}
	if c := f.Claims; c != nil && (c.Run == nil || c.Time <= 0) {
		return fmt.Errorf("family %s: claims without Run or Time", f.Name)
	}
	pictures := map[string]bool{}
	for _, p := range f.Pictures {
		switch {
		case p == nil:
			return fmt.Errorf("family %s: a nil picture", f.Name)
		case !nameRE.MatchString(p.Kind) || slices.Contains(Reserved, p.Kind):
			return fmt.Errorf("family %s: picture kind %q must match %s and not be one of %s", f.Name, p.Kind, nameRE, strings.Join(Reserved, ", "))
		case units[p.Unit] == nil:
			return fmt.Errorf("family %s: %s picture: %q is not a unit of the family", f.Name, p.Kind, p.Unit)
		case p.Doc == "":
			return fmt.Errorf("%s: no Doc", p.Owner())
		case p.Draw == nil:
			return fmt.Errorf("%s: no Draw", p.Owner())
		case len(p.Formats) == 0:
			return fmt.Errorf("%s: no Formats", p.Owner())
		case pictures[p.Kind+" "+p.Unit]:
			return fmt.Errorf("%s registered twice", p.Owner())
		}
		pictures[p.Kind+" "+p.Unit] = true
		if err := p.Params.check(p.Owner()); err != nil {
			return err
		}
	}
	files := map[string]bool{}
	for _, c := range f.Canonical {
		what := "canonical " + c.File
		switch {
		case c.File == "" || path.IsAbs(c.File) || path.Clean(c.File) != c.File || strings.HasPrefix(c.File, "../") || path.Ext(c.File) != ".v":
			return fmt.Errorf("family %s: %s: a clean relative path of a .v file", f.Name, what)
		case files[c.File]:
			return fmt.Errorf("family %s: %s listed twice", f.Name, what)
		case hdl.CheckName(c.Top) != "":
			return fmt.Errorf("family %s: %s: top: %s", f.Name, what, hdl.CheckName(c.Top))
		}
		files[c.File] = true
		if err := configOK(what, Config{c.Unit, c.Values}); err != nil {
			return err
		}
	}
	for _, c := range f.Lockstep.Configs {
		if err := configOK("lockstep "+c.String(), c); err != nil {
			return err
		}
	}
	if len(f.Lockstep.Configs) > 0 && f.Lockstep.Cycles <= 0 {
		return fmt.Errorf("family %s: lockstep: Cycles must be positive", f.Name)
	}
	if len(f.Lockstep.Shapes) > 0 && f.Lockstep.ShapedCycles <= 0 {
		return fmt.Errorf("family %s: lockstep: Shapes need ShapedCycles", f.Name)
	}
	for name := range f.Lockstep.Shapes {
		if !slices.ContainsFunc(f.Units, func(u *Unit) bool { return u.Name == name }) {
			return fmt.Errorf("family %s: lockstep: shape of %q, not a unit of the family", f.Name, name)
		}
	}
	return nil
}
