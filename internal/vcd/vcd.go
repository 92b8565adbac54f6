// Package vcd reads Value Change Dump files, enough to check waveforms that
// parmem and RTL simulators write: scopes, variables and value changes.
package vcd

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Var is one variable: its hierarchical name (scopes joined with '.'), its
// width and its value changes in time order.
type Var struct {
	Path    string
	Width   int
	Changes []Change
}

// Change is a value taking effect at a time. Value is the binary digits as
// written (possibly with x or z), without leading zeros removed or added.
type Change struct {
	Time  uint64
	Value string
}

// File is a parsed VCD.
type File struct {
	Vars map[string]*Var // by path
	byID map[string][]*Var
}

// Parse reads a VCD. It fails on malformed headers, unknown identifiers and
// values that do not fit their variable.
func Parse(r io.Reader) (*File, error) {
	f := &File{Vars: map[string]*Var{}, byID: map[string][]*Var{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	sc.Split(bufio.ScanWords)
	var scopes []string
	var time uint64
	inDefs := true
	line := 0
	next := func() (string, bool) {
		ok := sc.Scan()
		line++
		return sc.Text(), ok
	}
	skipToEnd := func() error {
		for {
			t, ok := next()
			if !ok {
				return fmt.Errorf("vcd: unterminated section")
			}
			if t == "$end" {
				return nil
			}
		}
	}
	for {
		tok, ok := next()
		if !ok {
			break
		}
		switch {
		case inDefs && tok == "$scope":
			if _, ok := next(); !ok { // scope kind
				return nil, fmt.Errorf("vcd: truncated $scope")
			}
			name, _ := next()
			scopes = append(scopes, name)
			if err := skipToEnd(); err != nil {
				return nil, err
			}
		case inDefs && tok == "$upscope":
			if len(scopes) == 0 {
				return nil, fmt.Errorf("vcd: $upscope without $scope")
			}
			scopes = scopes[:len(scopes)-1]
			if err := skipToEnd(); err != nil {
				return nil, err
			}
		case inDefs && tok == "$var":
			fields := []string{}
			for {
				t, ok := next()
				if !ok {
					return nil, fmt.Errorf("vcd: truncated $var")
				}
				if t == "$end" {
					break
				}
				fields = append(fields, t)
			}
			if len(fields) < 4 {
				return nil, fmt.Errorf("vcd: $var needs type, width, id and name: %v", fields)
			}
			w, err := strconv.Atoi(fields[1])
			if err != nil || w < 1 {
				return nil, fmt.Errorf("vcd: bad width in $var %v", fields)
			}
			path := strings.Join(append(append([]string{}, scopes...), fields[3]), ".")
			v := &Var{Path: path, Width: w}
			f.Vars[path] = v
			f.byID[fields[2]] = append(f.byID[fields[2]], v)
		case inDefs && tok == "$enddefinitions":
			if err := skipToEnd(); err != nil {
				return nil, err
			}
			inDefs = false
		case inDefs && strings.HasPrefix(tok, "$"):
			if err := skipToEnd(); err != nil {
				return nil, err
			}
		case inDefs:
			return nil, fmt.Errorf("vcd: unexpected %q in header", tok)
		case tok == "$dumpvars" || tok == "$end" || tok == "$dumpall" || tok == "$dumpon" || tok == "$dumpoff":
		case tok == "$comment":
			if err := skipToEnd(); err != nil {
				return nil, err
			}
		case tok[0] == '#':
			t, err := strconv.ParseUint(tok[1:], 10, 64)
			if err != nil || t < time {
				return nil, fmt.Errorf("vcd: bad or decreasing time %q", tok)
			}
			time = t
		case tok[0] == 'b' || tok[0] == 'B':
			id, ok := next()
			if !ok {
				return nil, fmt.Errorf("vcd: value %q without identifier", tok)
			}
			if err := f.change(id, tok[1:], time); err != nil {
				return nil, err
			}
		case strings.ContainsRune("01xXzZ", rune(tok[0])):
			if err := f.change(tok[1:], tok[:1], time); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("vcd: unexpected %q", tok)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if inDefs {
		return nil, fmt.Errorf("vcd: no $enddefinitions")
	}
	return f, nil
}

func (f *File) change(id, value string, t uint64) error {
	vars, ok := f.byID[id]
	if !ok {
		return fmt.Errorf("vcd: value for undeclared identifier %q", id)
	}
	for _, v := range vars {
		if len(value) > v.Width || strings.Trim(value, "01xXzZ") != "" {
			return fmt.Errorf("vcd: value %q does not fit %s (%d bits)", value, v.Path, v.Width)
		}
		if n := len(v.Changes); n > 0 && v.Changes[n-1].Time == t {
			v.Changes[n-1].Value = value
		} else {
			v.Changes = append(v.Changes, Change{Time: t, Value: value})
		}
	}
	return nil
}

// At returns v's value at time t, zero-extended to the full width (x and z
// extend with themselves, as VCD does), or "" before the first change.
func (v *Var) At(t uint64) string {
	i := sort.Search(len(v.Changes), func(i int) bool { return v.Changes[i].Time > t })
	if i == 0 {
		return ""
	}
	val := v.Changes[i-1].Value
	pad := "0"
	if c := val[0]; c == 'x' || c == 'X' || c == 'z' || c == 'Z' {
		pad = string(c)
	}
	return strings.Repeat(pad, v.Width-len(val)) + val
}

// Paths returns every variable path, sorted.
func (f *File) Paths() []string {
	var ps []string
	for p := range f.Vars {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}
