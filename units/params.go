package units

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Kind is what sort of value a parameter takes, and so how its flag reads.
type Kind int

const (
	// Int is an integer in Range: -n 16.
	Int Kind = iota
	// Pow2 is a power of two in Range (the bounds are values, not
	// exponents): -ways 8.
	Pow2
	// Bool is a flag without a value; its value is 0 or 1: -matched.
	Bool
	// Choice is one of the names in Choices; its value is the name's
	// index: -policy mshr-s.
	Choice
)

var kindNames = [...]string{Int: "int", Pow2: "pow2", Bool: "bool", Choice: "choice"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Param describes one parameter of a unit, a report or a picture: its flag
// name, meaning, kind, default and valid values. Defaults and ranges may
// depend on earlier parameters (n's lower bound on q, say), so they are
// functions of the values chosen so far; parameters are listed in
// dependency order.
type Param struct {
	Name string
	Doc  string // one line
	Kind Kind
	// Default is the value when the flag is not given. It may be nil for
	// Bool (false) and Choice (the first choice), and must be nil when
	// Optional.
	Default func(v Values) int
	// Range bounds Int and Pow2 values (inclusive); nil for Bool and Choice.
	Range func(v Values) (min, max int)
	// Choices are the names a Choice takes, in value order.
	Choices []string
	// Optional parameters have no default: they are in the resolved
	// Values only when given.
	Optional bool
}

// Values maps parameter names to values.
type Values map[string]int

// Params is a parameter list in dependency order.
type Params []Param

// InputError is bad input from the user (a value out of range, an unknown
// name, a combination a picture cannot draw): gen prints it as one line
// and exits with status 2.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Inputf makes an *InputError; families return it from Run and Draw for
// input they reject.
func Inputf(format string, args ...any) error {
	return &InputError{fmt.Sprintf(format, args...)}
}

// IntParam is an Int parameter with a constant default and range.
func IntParam(name, doc string, def, lo, hi int) Param {
	return Param{Name: name, Doc: doc, Default: Const(def), Range: Fixed(lo, hi)}
}

// Fixed returns a constant range.
func Fixed(min, max int) func(Values) (int, int) {
	return func(Values) (int, int) { return min, max }
}

// Const returns a constant default.
func Const(x int) func(Values) int { return func(Values) int { return x } }

// Reserved are the flag names gen uses for itself; no parameter may take
// them. (Picture kinds are gen flags too; the registry checks those.)
var Reserved = []string{"bound", "canonical", "format", "h", "help", "list", "maxbits", "o", "portlist", "prove", "report", "top", "unit", "vcd"}

var (
	nameRE   = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	choiceRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.+-]*$`)
)

// Lookup returns the parameter called name, or nil.
func (ps Params) Lookup(name string) *Param {
	for i := range ps {
		if ps[i].Name == name {
			return &ps[i]
		}
	}
	return nil
}

// Flags lists the parameters as flags: "-q, -n, -w".
func (ps Params) Flags() string {
	var names []string
	for _, p := range ps {
		names = append(names, "-"+p.Name)
	}
	return strings.Join(names, ", ")
}

// Parse converts flag texts, by parameter name, to values (a Choice's name
// to its index). An unknown name or a text that is not a value of its
// parameter is an *InputError naming the flag; owner names the thing the
// parameters belong to in messages ("unit sams").
func (ps Params) Parse(owner string, texts map[string]string) (Values, error) {
	if err := ps.known(owner, slices.Collect(maps.Keys(texts))); err != nil {
		return nil, err
	}
	v := Values{}
	for _, p := range ps {
		text, ok := texts[p.Name]
		if !ok {
			continue
		}
		x, err := p.Value(text)
		if err != nil {
			return nil, &InputError{fmt.Sprintf("-%s=%s is not valid for %s: %v", p.Name, text, owner, err)}
		}
		v[p.Name] = x
	}
	return v, nil
}

// known checks that every name is a parameter.
func (ps Params) known(owner string, names []string) error {
	slices.Sort(names) // the same error every run
	for _, name := range names {
		if ps.Lookup(name) == nil {
			if len(ps) == 0 {
				return &InputError{fmt.Sprintf("%s has no parameter -%s (it has none)", owner, name)}
			}
			return &InputError{fmt.Sprintf("%s has no parameter -%s (it has %s)", owner, name, ps.Flags())}
		}
	}
	return nil
}

// Resolve fills in defaults for the parameters not given (Optional ones
// stay absent) and checks every value, in declaration order. An error is
// an *InputError naming the first bad parameter and its valid values; a
// value for a parameter that is not in the list is an error too. owner
// names the thing the parameters belong to ("unit sams").
func (ps Params) Resolve(owner string, given Values) (Values, error) {
	if err := ps.known(owner, slices.Collect(maps.Keys(given))); err != nil {
		return nil, err
	}
	v := Values{}
	for _, p := range ps {
		x, ok := given[p.Name]
		if !ok {
			if p.Optional {
				continue
			}
			x = p.defaultValue(v)
		}
		if !p.Valid(x, v) {
			verb := "is out of range for"
			if p.Kind == Pow2 || p.Kind == Choice {
				verb = "is not valid for"
			}
			msg := fmt.Sprintf("-%s=%d %s %s: valid %s", p.Name, x, verb, owner, p.RangeText(v))
			if deps := ps.DependsOn(p.Name); len(deps) > 0 {
				var at []string
				for _, d := range deps {
					if y, ok := v[d]; ok {
						at = append(at, fmt.Sprintf("-%s %s", d, ps.Lookup(d).Format(y)))
					} else {
						at = append(at, "no -"+d)
					}
				}
				msg += fmt.Sprintf(" (with %s)", strings.Join(at, ", "))
			}
			return nil, &InputError{msg}
		}
		v[p.Name] = x
	}
	return v, nil
}

// Defaults resolves no given values: every default, dependent ranges and
// defaults taken at the defaults of the parameters before.
func (ps Params) Defaults() Values {
	v, err := ps.Resolve("defaults", nil)
	if err != nil {
		panic(err) // checked at registration
	}
	return v
}

// rawDefaults are the defaults without any check (Optional ones absent).
func (ps Params) rawDefaults() Values {
	v := Values{}
	for _, p := range ps {
		if !p.Optional {
			v[p.Name] = p.defaultValue(v)
		}
	}
	return v
}

func (p *Param) defaultValue(v Values) int {
	if p.Default == nil {
		return 0 // Bool: false; Choice: the first
	}
	return p.Default(v)
}

// Valid reports whether x is a value of p given the earlier values v.
func (p *Param) Valid(x int, v Values) bool {
	switch p.Kind {
	case Bool:
		return x == 0 || x == 1
	case Choice:
		return x >= 0 && x < len(p.Choices)
	}
	lo, hi := p.Range(v)
	if x < lo || x > hi {
		return false
	}
	return p.Kind != Pow2 || (x > 0 && x&(x-1) == 0)
}

// Value converts a flag's text to a value of p: an integer for Int and
// Pow2 (checked against the range by Resolve), true or false (or 1 or 0)
// for Bool, one of the names for Choice.
func (p *Param) Value(text string) (int, error) {
	switch p.Kind {
	case Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return 0, fmt.Errorf("valid true or false")
		}
		if b {
			return 1, nil
		}
		return 0, nil
	case Choice:
		if i := slices.Index(p.Choices, text); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("valid %s", strings.Join(p.Choices, ", "))
	}
	x, err := strconv.Atoi(text)
	if err != nil {
		return 0, fmt.Errorf("not an integer")
	}
	return x, nil
}

// Format shows a value of p as its flag would take it: a Choice's name,
// true or false for Bool, the number otherwise.
func (p *Param) Format(x int) string {
	switch {
	case p.Kind == Bool && (x == 0 || x == 1):
		return strconv.FormatBool(x == 1)
	case p.Kind == Choice && x >= 0 && x < len(p.Choices):
		return p.Choices[x]
	}
	return strconv.Itoa(x)
}

// RangeText describes the valid values of p given the earlier values v:
// "1..6", "1, 2, 4, ..., 64", "true or false", "frfcfs, mshr-m".
func (p *Param) RangeText(v Values) string {
	switch p.Kind {
	case Bool:
		return "true or false"
	case Choice:
		return strings.Join(p.Choices, ", ")
	case Pow2:
		lo, hi := p.Range(v)
		var pows []string
		for x := 1; x > 0 && x <= hi; x <<= 1 {
			if x >= lo {
				pows = append(pows, strconv.Itoa(x))
			}
		}
		switch {
		case len(pows) == 0:
			return "none"
		case len(pows) > 4:
			pows = append(pows[:3], "...", pows[len(pows)-1])
		}
		return strings.Join(pows, ", ")
	}
	lo, hi := p.Range(v)
	return fmt.Sprintf("%d..%d", lo, hi)
}

// check reports a bad declaration.
func (ps Params) check(owner string) error {
	seen := map[string]bool{}
	for _, p := range ps {
		if err := p.check(); err != nil {
			return fmt.Errorf("%s: parameter -%s: %v", owner, p.Name, err)
		}
		if seen[p.Name] {
			return fmt.Errorf("%s: parameter -%s declared twice", owner, p.Name)
		}
		seen[p.Name] = true
	}
	// Every default is valid at the defaults before it.
	if _, err := ps.Resolve(owner, nil); err != nil {
		return fmt.Errorf("%s: a default is not valid: %v", owner, err)
	}
	return nil
}

func (p *Param) check() error {
	switch {
	case !nameRE.MatchString(p.Name):
		return fmt.Errorf("the name must match %s", nameRE)
	case slices.Contains(Reserved, p.Name):
		return fmt.Errorf("the name is one of gen's own flags (%s)", strings.Join(Reserved, ", "))
	case p.Doc == "":
		return fmt.Errorf("no Doc")
	case p.Optional && p.Default != nil:
		return fmt.Errorf("an Optional parameter has no Default")
	}
	switch p.Kind {
	case Int, Pow2:
		switch {
		case p.Range == nil:
			return fmt.Errorf("%s needs a Range", p.Kind)
		case p.Choices != nil:
			return fmt.Errorf("%s takes no Choices", p.Kind)
		case p.Default == nil && !p.Optional:
			return fmt.Errorf("%s needs a Default unless Optional", p.Kind)
		}
	case Bool:
		if p.Range != nil || p.Choices != nil {
			return fmt.Errorf("bool takes no Range or Choices")
		}
	case Choice:
		if p.Range != nil {
			return fmt.Errorf("choice takes no Range")
		}
		if len(p.Choices) == 0 {
			return fmt.Errorf("choice needs Choices")
		}
		for i, c := range p.Choices {
			if !choiceRE.MatchString(c) {
				return fmt.Errorf("choice %q must match %s", c, choiceRE)
			}
			if slices.Index(p.Choices, c) != i {
				return fmt.Errorf("choice %q listed twice", c)
			}
		}
	default:
		return fmt.Errorf("unknown kind %v", p.Kind)
	}
	return nil
}

// DependsOn lists the earlier parameters that p's default or valid values
// depend on, found by moving each of them, one at a time, from its
// default to the ends of its own valid values (and, when Optional, to
// absent). gen -list uses it to say which ranges it shows for the
// defaults.
func (ps Params) DependsOn(name string) []string {
	i := slices.IndexFunc(ps, func(p Param) bool { return p.Name == name })
	if i < 0 {
		return nil
	}
	p := &ps[i]
	base := ps.rawDefaults()
	look := func(v Values) (s string) {
		defer func() {
			if recover() != nil {
				s = "panic"
			}
		}()
		s = p.RangeText(v)
		if !p.Optional {
			s += fmt.Sprintf(" %d", p.defaultValue(v))
		}
		return s
	}
	at := look(base)
	var deps []string
	for _, e := range ps[:i] {
		var tries []int
		switch e.Kind {
		case Bool:
			tries = []int{0, 1}
		case Choice:
			for x := range e.Choices {
				tries = append(tries, x)
			}
		default:
			lo, hi := e.Range(base)
			tries = []int{lo, hi}
		}
		v := maps.Clone(base)
		moved := false
		for _, x := range tries {
			v[e.Name] = x
			moved = moved || look(v) != at
		}
		if e.Optional {
			delete(v, e.Name)
			moved = moved || look(v) != at
		}
		if moved {
			deps = append(deps, e.Name)
		}
	}
	return deps
}

// Typed parameters. A parameter struct P (a block's, or a report's or a
// picture's) declares its parameters in a declare function, usually a
// method (*P).Params: one call of Decl.Int, Pow2, Bool or Choice per
// parameter, in dependency order, with the address of the field it fills
// and its name, doc, default and range. A default or range that depends
// on earlier parameters is a Go expression of their fields, which hold
// their values when the later parameters are declared. A declare function
// may also set fields that are no parameters (a unit's fixed choices).
// The declaration is the one source of the parameters: ParamsOf derives
// the Params that gen's flags, help and messages and the registry's
// checks read, and Fill fills a P from resolved values, so a unit's
// Build reads fields, never values by name.

// Decl takes a parameter struct's declarations.
type Decl struct {
	v     Values // the values the declared fields take, by name
	decls []decl
}

// decl is one declared parameter: its Param without the functions, its
// default and range at the values before it, and its field.
type decl struct {
	Param
	def, lo, hi int
	ptr         any // the field's address, as declared
}

// Int declares an Int parameter filling the integer field *field.
func (d *Decl) Int(field any, name, doc string, def, lo, hi int) {
	d.add(field, Param{Name: name, Doc: doc, Kind: Int}, def, lo, hi)
}

// Pow2 declares a Pow2 parameter filling the integer field *field.
func (d *Decl) Pow2(field any, name, doc string, def, lo, hi int) {
	d.add(field, Param{Name: name, Doc: doc, Kind: Pow2}, def, lo, hi)
}

// Bool declares a Bool parameter filling *field.
func (d *Decl) Bool(field *bool, name, doc string) {
	d.add(field, Param{Name: name, Doc: doc, Kind: Bool}, 0, 0, 0)
}

// Choice declares a Choice parameter filling the integer field *field
// with the index of one of choices; def is the default's index.
func (d *Decl) Choice(field any, name, doc string, choices []string, def int) {
	d.add(field, Param{Name: name, Doc: doc, Kind: Choice, Choices: choices}, def, 0, 0)
}

// add records a declaration and sets its field to its value, when d has
// one. A field that is no pointer to a field of the parameter's kind, or
// that another parameter fills, is a programming error (it panics when
// the unit registers).
func (d *Decl) add(field any, p Param, def, lo, hi int) {
	f := reflect.ValueOf(field)
	if f.Kind() != reflect.Pointer || f.IsNil() {
		panic(fmt.Sprintf("units: parameter -%s: the field is %T, not a pointer to a field", p.Name, field))
	}
	f = f.Elem()
	fits := f.Kind() == reflect.Bool
	if p.Kind != Bool {
		fits = f.CanInt() || f.CanUint()
	}
	if !fits {
		panic(fmt.Sprintf("units: parameter -%s: the %s parameter does not fill a %s field", p.Name, p.Kind, f.Type()))
	}
	for _, e := range d.decls {
		if e.ptr == field {
			panic(fmt.Sprintf("units: parameters -%s and -%s fill one field", e.Name, p.Name))
		}
	}
	d.decls = append(d.decls, decl{p, def, lo, hi, field})
	if x, ok := d.v[p.Name]; ok {
		switch {
		case f.Kind() == reflect.Bool:
			f.SetBool(x != 0)
		case f.CanInt():
			f.SetInt(int64(x))
		default:
			f.SetUint(uint64(x))
		}
	}
}

// declared runs declare on a new P with the values v.
func declared[P any](declare func(*P, *Decl), v Values) []decl {
	d := &Decl{v: v}
	declare(new(P), d)
	return d.decls
}

// ParamsOf returns the parameters declare declares, in its order: their
// defaults and ranges run declare on the values before them. The names
// and kinds a declare function declares must not depend on values.
func ParamsOf[P any](declare func(*P, *Decl)) Params {
	first := declared(declare, nil)
	ps := make(Params, len(first))
	for i, e := range first {
		p := e.Param
		at := func(v Values) decl {
			ds := declared(declare, v)
			if len(ds) != len(first) || ds[i].Name != p.Name || ds[i].Kind != p.Kind {
				panic(fmt.Sprintf("units: parameter -%s: the parameters declared depend on the values", p.Name))
			}
			return ds[i]
		}
		switch p.Kind {
		case Int, Pow2:
			p.Default = func(v Values) int { return at(v).def }
			p.Range = func(v Values) (int, int) { a := at(v); return a.lo, a.hi }
		case Choice:
			p.Default = func(v Values) int { return at(v).def }
		}
		ps[i] = p
	}
	return ps
}

// Fill returns the P whose declared fields hold the values v, which has
// every declared parameter (values Resolve returned; names v has beyond
// them are not looked at). A declared parameter missing from v is a
// programming error and panics: never a silent 0.
func Fill[P any](v Values, declare func(*P, *Decl)) P {
	var p P
	d := &Decl{v: v}
	declare(&p, d)
	for _, e := range d.decls {
		if _, ok := v[e.Name]; !ok {
			panic(fmt.Sprintf("units: Fill: no value for -%s (values %v)", e.Name, v))
		}
	}
	return p
}

// FillConfig is Fill of c's values once resolved (defaults filled in,
// ranges checked): the block a configuration builds.
func FillConfig[P any](c Config, declare func(*P, *Decl)) (P, error) {
	_, v, err := c.Resolve()
	if err != nil {
		var none P
		return none, err
	}
	return Fill(v, declare), nil
}
