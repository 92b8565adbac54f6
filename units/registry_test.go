package units

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/table"
	"github.com/stretchr/testify/require"
)

func testUnit() *Unit {
	return &Unit{
		Name: "test-unit",
		Doc:  "a unit of every kind of parameter",
		Params: Params{
			{Name: "q", Doc: "q", Default: Const(3), Range: Fixed(1, 6)},
			{Name: "n", Doc: "n", Default: Const(16), Range: func(v Values) (int, int) { return v["q"] + 2, 20 }},
			{Name: "lanes", Doc: "lanes", Default: func(v Values) int { return 1 << uint(v["q"]) }, Range: func(v Values) (int, int) { return 1, 2 << uint(v["q"]) }},
			{Name: "flag", Doc: "flag", Kind: Bool},
			{Name: "ways", Doc: "ways", Kind: Pow2, Default: Const(4), Range: Fixed(1, 64)},
			{Name: "policy", Doc: "policy", Kind: Choice, Choices: []string{"frfcfs", "mshr-m", "mshr-s", "mshr-sa"}, Default: Const(1)},
			{Name: "mode", Doc: "mode", Optional: true, Range: Fixed(0, 3)},
		},
		Build: func(Values, string) (*hdl.Module, error) { return nil, nil },
	}
}

func TestRegistryResolveDefaultsAndRanges(t *testing.T) {
	u := testUnit()
	v, err := u.Resolve(Values{})
	require.NoError(t, err)
	require.Equal(t, Values{"q": 3, "n": 16, "lanes": 8, "flag": 0, "ways": 4, "policy": 1}, v, "an Optional parameter stays absent")
	v, err = u.Resolve(Values{"q": 5, "flag": 1, "mode": 2})
	require.NoError(t, err)
	require.Equal(t, 32, v["lanes"], "defaults may depend on earlier parameters")
	require.Equal(t, 2, v["mode"])

	for given, want := range map[*Values]string{
		{"q": 0}:         "-q=0 is out of range for unit test-unit: valid 1..6",
		{"q": 6, "n": 7}: "-n=7 is out of range for unit test-unit: valid 8..20 (with -q 6)",
		{"lanes": 17}:    "-lanes=17 is out of range for unit test-unit: valid 1..16 (with -q 3)",
		{"flag": 2}:      "-flag=2 is out of range for unit test-unit: valid true or false",
		{"ways": 3}:      "-ways=3 is not valid for unit test-unit: valid 1, 2, 4, ..., 64",
		{"ways": 128}:    "-ways=128 is not valid for unit test-unit: valid 1, 2, 4, ..., 64",
		{"ways": 0}:      "-ways=0 is not valid for unit test-unit: valid 1, 2, 4, ..., 64",
		{"policy": 4}:    "-policy=4 is not valid for unit test-unit: valid frfcfs, mshr-m, mshr-s, mshr-sa",
		{"mode": 4}:      "-mode=4 is out of range for unit test-unit: valid 0..3",
		{"width": 8}:     "unit test-unit has no parameter -width (it has -q, -n, -lanes, -flag, -ways, -policy, -mode)",
	} {
		_, err := u.Resolve(*given)
		require.EqualError(t, err, want)
		var ie *InputError
		require.ErrorAs(t, err, &ie, "bad input is an *InputError")
	}
	require.Equal(t, "test_unit", u.ModuleName())
}

func TestRegistryParseKinds(t *testing.T) {
	u := testUnit()
	v, err := u.Params.Parse(u.Owner(), map[string]string{"q": "4", "flag": "true", "ways": "16", "policy": "mshr-sa", "mode": "0"})
	require.NoError(t, err)
	require.Equal(t, Values{"q": 4, "flag": 1, "ways": 16, "policy": 3, "mode": 0}, v)
	v, err = u.Params.Parse(u.Owner(), map[string]string{"flag": "false"})
	require.NoError(t, err)
	require.Equal(t, Values{"flag": 0}, v)

	for texts, want := range map[*map[string]string]string{
		{"policy": "fifo"}: "-policy=fifo is not valid for unit test-unit: valid frfcfs, mshr-m, mshr-s, mshr-sa",
		{"q": "three"}:     "-q=three is not valid for unit test-unit: not an integer",
		{"flag": "maybe"}:  "-flag=maybe is not valid for unit test-unit: valid true or false",
		{"nope": "1"}:      "unit test-unit has no parameter -nope (it has -q, -n, -lanes, -flag, -ways, -policy, -mode)",
	} {
		_, err := u.Params.Parse(u.Owner(), *texts)
		require.EqualError(t, err, want)
		var ie *InputError
		require.ErrorAs(t, err, &ie)
	}
}

func TestRegistryRangeTextAndFormat(t *testing.T) {
	ps := testUnit().Params
	v := ps.Defaults()
	for name, want := range map[string]string{
		"q": "1..6", "n": "5..20", "lanes": "1..16", "flag": "true or false",
		"ways": "1, 2, 4, ..., 64", "policy": "frfcfs, mshr-m, mshr-s, mshr-sa", "mode": "0..3",
	} {
		require.Equal(t, want, ps.Lookup(name).RangeText(v), name)
	}
	pow := func(lo, hi int) string {
		p := Param{Kind: Pow2, Range: Fixed(lo, hi)}
		return p.RangeText(nil)
	}
	require.Equal(t, "1, 2, 4, 8", pow(1, 8), "up to four powers: all of them")
	require.Equal(t, "1, 2, 4, ..., 16", pow(1, 16))
	require.Equal(t, "4, 8, 16, ..., 256", pow(3, 300), "the powers within the bounds")
	require.Equal(t, "2", pow(2, 3))

	require.Equal(t, "mshr-s", ps.Lookup("policy").Format(2))
	require.Equal(t, "true", ps.Lookup("flag").Format(1))
	require.Equal(t, "16", ps.Lookup("ways").Format(16))
	require.Equal(t, "pow2", Pow2.String())
	require.Equal(t, "choice", Choice.String())
}

func TestRegistryDependsOn(t *testing.T) {
	ps := testUnit().Params
	require.Empty(t, ps.DependsOn("q"))
	require.Equal(t, []string{"q"}, ps.DependsOn("n"))
	require.Equal(t, []string{"q"}, ps.DependsOn("lanes"), "a default and a range on q")
	require.Empty(t, ps.DependsOn("ways"))
	dep := append(Params{}, ps...)
	dep = append(dep, Param{Name: "base", Doc: "base", Optional: true, Range: func(v Values) (int, int) {
		if _, ok := v["mode"]; ok {
			return 0, 7
		}
		return 0, 0
	}})
	require.Equal(t, []string{"mode"}, dep.DependsOn("base"), "an Optional parameter moves by being absent")
}

func testFamily(name string) *Family {
	u := testUnit()
	u.Name = name
	return &Family{
		Name:  name,
		Doc:   "a test family",
		Units: []*Unit{u},
		Reports: []*Report{{Name: name + "-report", Doc: "a report", Time: time.Second,
			Run: func(Values, io.Writer) ([]*table.Table, error) { return nil, nil }}},
		Pictures: []*Picture{{Kind: "drawing", Unit: name, Doc: "a picture", Formats: []string{"text"}, Default: true,
			Draw: func(Values, string) ([]byte, error) { return nil, nil }}},
		Canonical: []Canonical{{File: name + "/a.v", Unit: name, Values: Values{"q": 2}, Top: "a"}},
		Lockstep:  Lockstep{Configs: []Config{{name, Values{"q": 2}}}, Cycles: 10},
	}
}

func TestRegistryRegisterAndLookup(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.Register(testFamily("fam")))
	u, err := r.Unit("fam")
	require.NoError(t, err)
	require.Equal(t, "fam", u.Name)
	require.Equal(t, "fam", r.FamilyOf("fam").Name)
	_, err = r.Unit("nope")
	require.EqualError(t, err, `unknown unit "nope" (units: fam)`)
	rep, err := r.Report("fam-report")
	require.NoError(t, err)
	require.Equal(t, "fam-report", rep.Name)
	_, err = r.Report("nope")
	require.EqualError(t, err, `unknown report "nope" (reports: fam-report)`)
	p, err := r.Picture("drawing", "")
	require.NoError(t, err, "the default picture")
	require.Equal(t, "fam", p.Unit)
	require.Equal(t, []string{"drawing"}, r.PictureKinds())

	// A second family: reports in family order, a second drawing (not the default).
	g := testFamily("gam")
	g.Pictures[0].Default = false
	c := r.Clone()
	require.NoError(t, c.Register(g))
	require.Equal(t, []string{"fam-report", "gam-report"}, c.ReportNames())
	require.Len(t, r.Families(), 1, "the clone is a copy")
	p, err = c.Picture("drawing", "gam")
	require.NoError(t, err)
	require.Equal(t, "gam", p.Unit)
	_, err = c.Picture("drawing", "fam-x")
	require.EqualError(t, err, "-unit fam-x has no drawing picture (units with one: fam, gam)")
	_, err = c.Picture("nope", "")
	require.EqualError(t, err, `no picture is called "nope" (pictures: drawing)`)
	f, err := c.Family("gam")
	require.NoError(t, err)
	require.Equal(t, g, f)
}

// Bad declarations are refused with a reason; RegisterFamily panics.
func TestRegistryBadDeclarations(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.Register(testFamily("fam")))
	x := func(change func(f *Family)) func() *Family {
		return func() *Family { f := testFamily("x"); change(f); return f }
	}
	for want, family := range map[string]func() *Family{
		"family fam registered twice":                                            func() *Family { return testFamily("fam") },
		"report fam-report registered twice":                                     x(func(f *Family) { f.Reports[0].Name = "fam-report" }),
		"the fam drawing and the x drawing are both the default drawing picture": x(func(f *Family) {}),
		"canonical file fam/a.v registered twice":                                x(func(f *Family) { f.Pictures = nil; f.Canonical[0].File = "fam/a.v" }),
		`unit "y": a unit is called x or x-<part>`:                               x(func(f *Family) { f.Units[0].Name = "y" }),
		"the name is one of gen's own flags": x(func(f *Family) {
			f.Units[0].Params = append(f.Units[0].Params, Param{Name: "top", Doc: "d", Default: Const(0), Range: Fixed(0, 1)})
		}),
		"a default is not valid: -q=9 is out of range": x(func(f *Family) { f.Units[0].Params[0].Default = Const(9) }),
		"parameter -q declared twice": x(func(f *Family) {
			f.Units[0].Params = append(f.Units[0].Params, f.Units[0].Params[0])
		}),
		"int needs a Range":                    x(func(f *Family) { f.Units[0].Params[0].Range = nil }),
		"report x-report: chart 1 is nil":      x(func(f *Family) { f.Pictures = nil; f.Reports[0].Charts = []Chart{nil} }),
		"choice needs Choices":                 x(func(f *Family) { f.Units[0].Params[5].Choices = nil }),
		`choice "mshr-m" listed twice`:         x(func(f *Family) { f.Units[0].Params[5].Choices[0] = "mshr-m" }),
		"an Optional parameter has no Default": x(func(f *Family) { f.Units[0].Params[6].Default = Const(0) }),
		"bool takes no Range or Choices":       x(func(f *Family) { f.Units[0].Params[3].Range = Fixed(0, 1) }),
		"unit fam has a parameter -mode, the flag of the mode pictures": x(func(f *Family) {
			f.Pictures[0].Kind = "mode"
		}),
		"drawing picture: \"nope\" is not a unit of the family":    x(func(f *Family) { f.Pictures[0].Unit = "nope" }),
		"lockstep nope -q 2: \"nope\" is not a unit of the family": x(func(f *Family) { f.Lockstep.Configs[0].Unit = "nope" }),
		"lockstep x -q 9: -q=9 is out of range":                    x(func(f *Family) { f.Lockstep.Configs[0] = Config{"x", Values{"q": 9}} }),
		"Cycles must be positive":                                  x(func(f *Family) { f.Lockstep.Cycles = 0 }),
		"a clean relative path":                                    x(func(f *Family) { f.Canonical[0].File = "../a.v" }),
		`top: name "module" is a Verilog`:                          x(func(f *Family) { f.Canonical[0].Top = "module" }),
		"report \"all\": the name must match":                      x(func(f *Family) { f.Reports[0].Name = "all" }),
		"report x-report: no Time":                                 x(func(f *Family) { f.Reports[0].Time = 0 }),
		"the x drawing: no Formats":                                x(func(f *Family) { f.Pictures[0].Formats = nil }),
	} {
		err := r.Register(family())
		require.ErrorContains(t, err, want)
		require.Len(t, r.Families(), 1, "%s: nothing added", want)
	}

	// A unit name two families could both take.
	r2 := NewRegistry()
	f := testFamily("fam")
	f.Units = append(f.Units, &Unit{Name: "fam-b", Doc: "d", Build: f.Units[0].Build})
	require.NoError(t, r2.Register(f))
	require.EqualError(t, r2.Register(testFamily("fam-b")), "unit fam-b registered twice (families fam and fam-b)")

	before := registered
	t.Cleanup(func() { registered = before })
	registered = NewRegistry()
	RegisterFamily(testFamily("fam"))
	require.PanicsWithValue(t, "units: family fam registered twice", func() { RegisterFamily(testFamily("fam")) })
	u, err := Lookup("fam")
	require.NoError(t, err)
	require.Equal(t, "fam", u.Name)
	require.Equal(t, []string{"fam"}, Names())
	_, err = LookupFamily("nope")
	require.EqualError(t, err, `unknown family "nope" (families: fam)`)
}

func TestRegistryConfigString(t *testing.T) {
	c := Config{"sams-atu", Values{"q": 3, "n": 23, "lanes": 1}}
	require.Equal(t, "sams-atu -lanes 1 -n 23 -q 3", c.String())
	require.True(t, strings.HasPrefix(Config{Unit: "u"}.String(), "u"))
}
