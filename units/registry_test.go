package units

import (
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/stretchr/testify/require"
)

func testUnit() *Unit {
	return &Unit{
		Name: "test-unit",
		Params: []Param{
			{Name: "q", Default: Const(3), Range: Fixed(1, 6)},
			{Name: "n", Default: Const(16), Range: func(v Values) (int, int) { return v["q"] + 2, 20 }},
			{Name: "lanes", Default: func(v Values) int { return 1 << uint(v["q"]) }, Range: func(v Values) (int, int) { return 1, 2 << uint(v["q"]) }},
			{Name: "flag", Default: Const(0), Bool: true},
		},
		Build: func(Values, string) (*hdl.Module, error) { return nil, nil },
	}
}

func TestResolveDefaultsAndRanges(t *testing.T) {
	u := testUnit()
	v, err := u.Resolve(Values{})
	require.NoError(t, err)
	require.Equal(t, Values{"q": 3, "n": 16, "lanes": 8, "flag": 0}, v)
	v, err = u.Resolve(Values{"q": 5, "flag": 1})
	require.NoError(t, err)
	require.Equal(t, 32, v["lanes"], "defaults may depend on earlier parameters")

	for given, want := range map[*Values]string{
		{"q": 0}:         "-q=0 is out of range for unit test-unit: valid 1..6",
		{"q": 6, "n": 7}: "-n=7 is out of range for unit test-unit: valid 8..20",
		{"lanes": 17}:    "-lanes=17 is out of range for unit test-unit: valid 1..16",
		{"flag": 2}:      "-flag=2 is out of range for unit test-unit: valid true or false",
		{"width": 8}:     "unit test-unit has no parameter -width (it has -q, -n, -lanes, -flag)",
	} {
		_, err := u.Resolve(*given)
		require.EqualError(t, err, want)
	}
	require.Equal(t, "test_unit", u.ModuleName())
}

func TestLookup(t *testing.T) {
	Register(testUnit())
	t.Cleanup(func() { delete(registry, "test-unit") })
	u, err := Lookup("test-unit")
	require.NoError(t, err)
	require.Equal(t, "test-unit", u.Name)
	_, err = Lookup("nope")
	require.ErrorContains(t, err, `unknown unit "nope" (units: `)
	require.Panics(t, func() { Register(testUnit()) }, "a name registered twice is a programming error")
}
