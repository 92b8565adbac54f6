package sams_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	_ "github.com/parmem/parmem/units/sams"
	"github.com/parmem/parmem/verify"
	"github.com/stretchr/testify/require"
)

// unitConfigs is every SAMS block at q = 2, 3, 4 (n = 16, w = 32), the
// Table 4.2 measurement units (sams-inbound, sams-logic) at q = 2, 3 with
// w = 8, the Matched memory, and the AGU and ATU also at q = 5 and at
// n = 23, 32, 64.
func unitConfigs() []struct {
	unit   string
	values units.Values
} {
	var cs []struct {
		unit   string
		values units.Values
	}
	add := func(unit string, v units.Values) {
		cs = append(cs, struct {
			unit   string
			values units.Values
		}{unit, v})
	}
	for q := 2; q <= 4; q++ {
		for _, u := range []string{"sams-agu", "sams-atu", "sams-inswitch", "sams-outswitch", "sams-prs", "sams-pws", "sams"} {
			add(u, units.Values{"q": q})
		}
	}
	for q := 2; q <= 3; q++ { // the Table 4.2 measurement units, narrow to keep the builds short
		add("sams-inbound", units.Values{"q": q, "w": 8})
		add("sams-logic", units.Values{"q": q, "w": 8})
	}
	add("sams", units.Values{"q": 3, "matched": 1})
	add("sams-atu", units.Values{"q": 3, "n": 23, "lanes": 1}) // thesis Table 3.1's single translator
	for _, u := range []string{"sams-agu", "sams-atu"} {
		add(u, units.Values{"q": 5})
		for _, n := range []int{23, 32, 64} {
			add(u, units.Values{"q": 3, "n": n})
		}
	}
	return cs
}

// buildConfig builds a unit under a module name unique to its values.
func buildConfig(t *testing.T, unit string, given units.Values) *hdl.Module {
	u, err := units.Lookup(unit)
	require.NoError(t, err)
	v, err := u.Resolve(given)
	require.NoError(t, err)
	name := u.ModuleName()
	for _, p := range u.Params {
		name += fmt.Sprintf("_%s%d", p.Name, v[p.Name])
	}
	m, err := u.Build(v, name)
	require.NoError(t, err)
	return m
}

// TestUnitsInLockstep runs every configuration in lockstep on the Go
// simulator, Verilator and Icarus, packed under one top module so that one
// build of each simulator covers them all.
func TestUnitsInLockstep(t *testing.T) {
	var modules []*hdl.Module
	var names []string
	for _, c := range unitConfigs() {
		m := buildConfig(t, c.unit, c.values)
		modules = append(modules, m)
		names = append(names, m.Name())
	}
	t.Logf("%d configurations: %s", len(names), strings.Join(names, ", "))
	d, err := hdl.Elaborate(verify.Pack("sams_units", "c", modules))
	require.NoError(t, err)
	res, err := verify.Lockstep(verify.Config{
		Backends: []verify.Backend{verify.GoBackend(d), verify.VerilatorBackend(d, verify.VerilatorOptions{Quick: true}), verify.IcarusBackend(d)},
		Seed:     verify.TestSeed(t, 3),
		Cycles:   3000,
	})
	require.NoError(t, err)
	t.Logf("%d cycles, %d output values compared", res.Cycles, res.Compared)
}
