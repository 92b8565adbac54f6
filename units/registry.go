// Package units is the registry of parmem's hardware: each unit family
// (units/sams, ...) registers its blocks with their parameters, its
// design-review reports, pictures, canonical RTL and lockstep
// configurations here (RegisterFamily, from its init function), and the
// gen command and verify find them only through it. Adding a family is
// one blank import in gen/families.go.
package units

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
)

// Registry holds the registered families. The program has one,
// Registered(); a test may Clone it and register more in the copy.
type Registry struct {
	families []*Family
	units    map[string]*Unit
	familyOf map[string]*Family // by unit name
	reports  map[string]*Report
	pictures map[string][]*Picture // by kind, in registration order
	files    map[string]bool       // canonical files
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{
		units:    map[string]*Unit{},
		familyOf: map[string]*Family{},
		reports:  map[string]*Report{},
		pictures: map[string][]*Picture{},
		files:    map[string]bool{},
	}
}

var registered = NewRegistry()

// Registered is the registry the families' init functions fill.
func Registered() *Registry { return registered }

// RegisterFamily adds a family to the registry. A bad declaration (a name
// used twice, a second default picture of a kind, a parameter whose
// default is out of its range ...) is a programming error and panics at
// init time.
func RegisterFamily(f *Family) {
	if err := registered.Register(f); err != nil {
		panic("units: " + err.Error())
	}
}

// Register adds a family, or returns why it cannot (and adds nothing).
func (r *Registry) Register(f *Family) error {
	if f == nil {
		return fmt.Errorf("a nil family")
	}
	if err := f.check(); err != nil {
		return err
	}
	for _, g := range r.families {
		if g.Name == f.Name {
			return fmt.Errorf("family %s registered twice", f.Name)
		}
	}
	for _, u := range f.Units {
		if r.units[u.Name] != nil {
			return fmt.Errorf("unit %s registered twice (families %s and %s)", u.Name, r.familyOf[u.Name].Name, f.Name)
		}
	}
	for _, rep := range f.Reports {
		if r.reports[rep.Name] != nil {
			return fmt.Errorf("report %s registered twice", rep.Name)
		}
	}
	for _, c := range f.Canonical {
		if r.files[c.File] {
			return fmt.Errorf("canonical file %s registered twice", c.File)
		}
	}
	defaults := map[string]*Picture{}
	for kind, ps := range r.pictures {
		for _, p := range ps {
			if p.Default {
				defaults[kind] = p
			}
		}
	}
	for _, p := range f.Pictures {
		if q := defaults[p.Kind]; p.Default && q != nil {
			return fmt.Errorf("%s and %s are both the default %s picture", q.Owner(), p.Owner(), p.Kind)
		}
		if p.Default {
			defaults[p.Kind] = p
		}
	}
	// Picture kinds are gen flags beside every parameter: no parameter
	// anywhere may be called like a kind (but a picture's KindParam).
	kinds := slices.Collect(maps.Keys(r.pictures))
	for _, p := range f.Pictures {
		kinds = append(kinds, p.Kind)
	}
	params := r.paramOwners()
	for _, owner := range f.paramLists() {
		for _, p := range owner.params {
			params[p.Name] = append(params[p.Name], owner.name)
		}
	}
	for _, k := range kinds {
		if owners := params[k]; len(owners) > 0 {
			return fmt.Errorf("%s has a parameter -%s, the flag of the %s pictures", owners[0], k, k)
		}
	}

	r.families = append(r.families, f)
	for _, u := range f.Units {
		r.units[u.Name] = u
		r.familyOf[u.Name] = f
	}
	for _, rep := range f.Reports {
		r.reports[rep.Name] = rep
	}
	for _, p := range f.Pictures {
		r.pictures[p.Kind] = append(r.pictures[p.Kind], p)
	}
	for _, c := range f.Canonical {
		r.files[c.File] = true
	}
	return nil
}

type paramList struct {
	name   string
	params Params
}

// paramLists are the family's parameter lists with their owners.
func (f *Family) paramLists() []paramList {
	var ls []paramList
	for _, u := range f.Units {
		ls = append(ls, paramList{u.Owner(), u.Params})
	}
	for _, rep := range f.Reports {
		ls = append(ls, paramList{rep.Owner(), rep.Params})
	}
	for _, p := range f.Pictures {
		// A picture's KindParam is its kind flag's value, not a flag of
		// its own: it does not collide with the kind.
		ps := p.Params
		if k := p.KindParam(); k != nil {
			ps = slices.DeleteFunc(slices.Clone(ps), func(q Param) bool { return q.Name == k.Name })
		}
		ls = append(ls, paramList{p.Owner(), ps})
	}
	return ls
}

// paramOwners maps every registered parameter name to its owners.
func (r *Registry) paramOwners() map[string][]string {
	owners := map[string][]string{}
	for _, f := range r.families {
		for _, l := range f.paramLists() {
			for _, p := range l.params {
				owners[p.Name] = append(owners[p.Name], l.name)
			}
		}
	}
	return owners
}

// Clone returns a copy of the registry to register more families in (the
// families themselves are shared).
func (r *Registry) Clone() *Registry {
	c := NewRegistry()
	for _, f := range r.families {
		if err := c.Register(f); err != nil {
			panic(err) // it was registered in r
		}
	}
	return c
}

// Families lists the families in registration order (Go initializes
// packages in import-path order, a package after the ones it imports).
func (r *Registry) Families() []*Family { return slices.Clone(r.families) }

// Family returns the family called name.
func (r *Registry) Family(name string) (*Family, error) {
	for _, f := range r.families {
		if f.Name == name {
			return f, nil
		}
	}
	var names []string
	for _, f := range r.families {
		names = append(names, f.Name)
	}
	return nil, &InputError{fmt.Sprintf("unknown family %q (families: %s)", name, strings.Join(names, ", "))}
}

// Unit returns the unit called name; an unknown name is an *InputError
// listing the units.
func (r *Registry) Unit(name string) (*Unit, error) {
	if u, ok := r.units[name]; ok {
		return u, nil
	}
	return nil, &InputError{fmt.Sprintf("unknown unit %q (units: %s)", name, strings.Join(r.UnitNames(), ", "))}
}

// UnitNames lists the registered units, sorted.
func (r *Registry) UnitNames() []string { return slices.Sorted(maps.Keys(r.units)) }

// FamilyOf returns the family of a registered unit, or nil.
func (r *Registry) FamilyOf(unit string) *Family { return r.familyOf[unit] }

// Reports lists the reports: fidelity first when a family declares
// claims, then the families' in family order, then registration order.
func (r *Registry) Reports() []*Report {
	var rs []*Report
	if r.hasClaims() {
		rs = append(rs, r.fidelityReport())
	}
	for _, f := range r.families {
		rs = append(rs, f.Reports...)
	}
	return rs
}

// ReportNames lists the reports in the order of Reports.
func (r *Registry) ReportNames() []string {
	var names []string
	for _, rep := range r.Reports() {
		names = append(names, rep.Name)
	}
	return names
}

// Report returns the report called name; an unknown name is an
// *InputError listing the reports.
func (r *Registry) Report(name string) (*Report, error) {
	if name == FidelityName && r.hasClaims() {
		return r.fidelityReport(), nil
	}
	if rep, ok := r.reports[name]; ok {
		return rep, nil
	}
	return nil, &InputError{fmt.Sprintf("unknown report %q (reports: %s)", name, strings.Join(r.ReportNames(), ", "))}
}

// PictureKinds lists the kinds of picture, sorted.
func (r *Registry) PictureKinds() []string { return slices.Sorted(maps.Keys(r.pictures)) }

// Pictures lists the pictures of a kind in registration order.
func (r *Registry) Pictures(kind string) []*Picture { return slices.Clone(r.pictures[kind]) }

// Picture returns the kind's picture of unit, or its default picture when
// unit is "". Errors are *InputErrors listing the units that have one.
func (r *Registry) Picture(kind, unit string) (*Picture, error) {
	ps := r.pictures[kind]
	if len(ps) == 0 {
		return nil, &InputError{fmt.Sprintf("no picture is called %q (pictures: %s)", kind, strings.Join(r.PictureKinds(), ", "))}
	}
	var have []string
	for _, p := range ps {
		if p.Unit == unit || (unit == "" && p.Default) {
			return p, nil
		}
		have = append(have, p.Unit)
	}
	slices.Sort(have)
	if unit == "" {
		return nil, &InputError{fmt.Sprintf("-%s needs -unit (units with a %s picture: %s)", kind, kind, strings.Join(have, ", "))}
	}
	return nil, &InputError{fmt.Sprintf("-unit %s has no %s picture (units with one: %s)", unit, kind, strings.Join(have, ", "))}
}

// Resolve looks a configuration's unit up and resolves its values
// (Unit.Resolve).
func (r *Registry) Resolve(c Config) (*Unit, Values, error) {
	u, err := r.Unit(c.Unit)
	if err != nil {
		return nil, nil, err
	}
	v, err := u.Resolve(c.Values)
	if err != nil {
		return nil, nil, err
	}
	return u, v, nil
}

// Build elaborates a configuration of a registered unit with its top
// module called top.
func (r *Registry) Build(c Config, top string) (*hdl.Design, error) {
	u, v, err := r.Resolve(c)
	if err != nil {
		return nil, err
	}
	m, err := u.Build(v, top)
	if err != nil {
		return nil, err
	}
	return hdl.Elaborate(m)
}

// Lookup returns the registered unit called name.
func Lookup(name string) (*Unit, error) { return registered.Unit(name) }

// Resolve looks a configuration's registered unit up and resolves its
// values.
func (c Config) Resolve() (*Unit, Values, error) { return registered.Resolve(c) }

// Names lists the registered units, sorted.
func Names() []string { return registered.UnitNames() }

// LookupFamily returns the registered family called name.
func LookupFamily(name string) (*Family, error) { return registered.Family(name) }

// NewUnit is a unit whose parameters are those declare declares on a P
// (ParamsOf) and whose Build builds the P that the resolved values fill
// (Fill).
func NewUnit[P any](name, doc string, declare func(*P, *Decl), build func(p P, name string) *hdl.Module) *Unit {
	return &Unit{Name: name, Doc: doc, Params: ParamsOf(declare),
		Build: func(v Values, top string) (*hdl.Module, error) { return build(Fill(v, declare), top), nil }}
}
