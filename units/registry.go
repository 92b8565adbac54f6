// Package units is the registry of parmem's hardware units: each unit
// family (units/sams, ...) registers its blocks here with their parameters,
// and the gen command and the verify tests find them only through it.
package units

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/parmem/parmem/hdl"
)

// Param describes one parameter of a unit: its flag name, meaning, default
// and valid range. Ranges may depend on other parameters (n's lower bound
// on q, say), so they are functions of the values chosen so far; Units list
// their parameters in dependency order.
type Param struct {
	Name    string
	Doc     string
	Default func(v Values) int            // may depend on earlier parameters
	Bool    bool                          // a flag without a value; 0 or 1
	Range   func(v Values) (min, max int) // nil for Bool
}

// Values maps parameter names to values.
type Values map[string]int

// Unit is one buildable block.
type Unit struct {
	Name   string
	Doc    string
	Params []Param
	// Build makes the hardware from validated values, with the top
	// module called name (sub-modules are called name_<part>).
	Build func(v Values, name string) (*hdl.Module, error)
}

// ModuleName is the unit's default Verilog module name: its name with '-'
// turned into '_'.
func (u *Unit) ModuleName() string { return strings.ReplaceAll(u.Name, "-", "_") }

var registry = map[string]*Unit{}

// Register adds a unit; a second unit with the same name is a programming
// error and panics at init time.
func Register(u *Unit) {
	if _, dup := registry[u.Name]; dup {
		panic(fmt.Sprintf("units: %s registered twice", u.Name))
	}
	registry[u.Name] = u
}

// Lookup returns the unit called name.
func Lookup(name string) (*Unit, error) {
	if u, ok := registry[name]; ok {
		return u, nil
	}
	return nil, fmt.Errorf("unknown unit %q (units: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the registered units, sorted.
func Names() []string {
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Param returns the unit's parameter called name, or nil.
func (u *Unit) Param(name string) *Param {
	for i := range u.Params {
		if u.Params[i].Name == name {
			return &u.Params[i]
		}
	}
	return nil
}

// Resolve fills in defaults for the parameters not given and checks every
// value against its range, in declaration order. An error names the first
// bad parameter and its valid range; a value for a parameter the unit does
// not have is an error too.
func (u *Unit) Resolve(given Values) (Values, error) {
	for _, name := range slices.Sorted(maps.Keys(given)) { // the same error every run
		if u.Param(name) == nil {
			return nil, fmt.Errorf("unit %s has no parameter -%s (it has %s)", u.Name, name, u.paramNames())
		}
	}
	v := Values{}
	for _, p := range u.Params {
		x, ok := given[p.Name]
		if !ok {
			x = p.Default(v)
		}
		lo, hi := 0, 1
		if !p.Bool {
			lo, hi = p.Range(v)
		}
		if x < lo || x > hi {
			return nil, fmt.Errorf("-%s=%d is out of range for unit %s: valid %s", p.Name, x, u.Name, p.RangeText(v))
		}
		v[p.Name] = x
	}
	return v, nil
}

// RangeText describes the valid values of p given the earlier values v.
func (p Param) RangeText(v Values) string {
	if p.Bool {
		return "true or false"
	}
	lo, hi := p.Range(v)
	return fmt.Sprintf("%d..%d", lo, hi)
}

func (u *Unit) paramNames() string {
	var names []string
	for _, p := range u.Params {
		names = append(names, "-"+p.Name)
	}
	return strings.Join(names, ", ")
}

// Fixed returns a constant range.
func Fixed(min, max int) func(Values) (int, int) {
	return func(Values) (int, int) { return min, max }
}

// Const returns a constant default.
func Const(x int) func(Values) int { return func(Values) int { return x } }
