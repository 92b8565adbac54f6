package main

import (
	"errors"
	"fmt"
	"maps"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

// outOfRange are values of p that its declaration rules out given the
// earlier values v: one past each end of an Int's or Pow2's range, a
// value inside a Pow2's range that is no power of two, 2 for a Bool,
// the first index past a Choice's names.
func outOfRange(p *units.Param, v units.Values) []int {
	switch p.Kind {
	case units.Bool:
		return []int{2}
	case units.Choice:
		return []int{len(p.Choices)}
	}
	lo, hi := p.Range(v)
	xs := []int{lo - 1, hi + 1}
	if p.Kind == units.Pow2 {
		for x := max(lo, 3); x < hi; x++ {
			if x&(x-1) != 0 {
				xs = append(xs, x)
				break
			}
		}
	}
	return xs
}

// Every parameter of every registered unit, at the others' defaults,
// refuses each value its declaration rules out with an input error (gen:
// one line, status 2) that names the flag, the value, the unit and the
// declared range (with the parameters it depends on), and a parameter the
// unit lacks names the unit's flags: the range tests are made from the
// declarations, one test for every family.
func TestEveryUnitRefusesValuesOutOfItsRanges(t *testing.T) {
	checked := 0
	for _, name := range reg.UnitNames() {
		u, err := reg.Unit(name)
		require.NoError(t, err)
		defaults, err := u.Resolve(units.Values{})
		require.NoError(t, err, name)
		for i := range u.Params {
			p := &u.Params[i]
			for _, x := range outOfRange(p, defaults) {
				_, err := u.Resolve(units.Values{p.Name: x})
				var in *units.InputError
				require.True(t, errors.As(err, &in), "%s -%s=%d: %v", name, p.Name, x, err)
				verb := "is out of range for" // a value past a range; one a set lacks "is not valid for"
				if p.Kind == units.Pow2 || p.Kind == units.Choice {
					verb = "is not valid for"
				}
				require.Contains(t, err.Error(), fmt.Sprintf("-%s=%d %s unit %s: valid %s", p.Name, x, verb, name, p.RangeText(defaults)))
				if deps := u.Params.DependsOn(p.Name); len(deps) > 0 {
					require.Regexp(t, `\(with (no )?-`+deps[0]+`\b`, err.Error(), "%s -%s names the parameters its range depends on", name, p.Name)
				}
				checked++
			}
		}
		_, err = u.Resolve(units.Values{"nope": 1})
		require.ErrorContains(t, err, "unit "+name+" has no parameter -nope")
	}
	t.Logf("%d units, %d values out of range refused", len(reg.UnitNames()), checked)
	require.Greater(t, checked, 100)
}

// Every unit builds from its parameter struct, which the registry fills
// from the resolved values by the names the struct declares (units.Fill):
// a declared value its Build is not given panics, where a lookup by name
// would read 0, so no unit reads a value by a name it does not declare.
func TestEveryUnitBuildsFromItsDeclaredParameters(t *testing.T) {
	checked := 0
	for _, name := range reg.UnitNames() {
		u, err := reg.Unit(name)
		require.NoError(t, err)
		defaults, err := u.Resolve(units.Values{})
		require.NoError(t, err, name)
		for _, p := range u.Params {
			v := maps.Clone(defaults)
			delete(v, p.Name)
			require.PanicsWithValue(t, fmt.Sprintf("units: Fill: no value for -%s (values %v)", p.Name, v),
				func() { _, _ = u.Build(v, "top") }, "%s without -%s", name, p.Name)
			checked++
		}
	}
	t.Logf("%d units, %d parameters filled by name", len(reg.UnitNames()), checked)
}
