package chart

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/parmem/parmem/internal/table"
)

// Find returns the first table whose title starts with prefix.
func Find(ts []*table.Table, prefix string) (*table.Table, error) {
	for _, t := range ts {
		if t != nil && strings.HasPrefix(t.Title, prefix) {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no table titled %q...", prefix)
}

// Col is the index of the first column headed name.
func Col(t *table.Table, name string) (int, error) { return ColAfter(t, "", name) }

// ColAfter is the index of the first column headed name after the one
// headed after ("" for the first column), for tables that head several
// columns alike ("IPC", "vs FR-FCFS", "avg latency", "vs FR-FCFS").
func ColAfter(t *table.Table, after, name string) (int, error) {
	from := 0
	if after != "" {
		k := slices.Index(t.Header, after)
		if k < 0 {
			return 0, fmt.Errorf("table %q has no column %q", t.Title, after)
		}
		from = k + 1
	}
	if k := slices.Index(t.Header[from:], name); k >= 0 {
		return from + k, nil
	}
	return 0, fmt.Errorf("table %q has no column %q", t.Title, name)
}

// Column reads the cells of column k.
func Column(t *table.Table, k int) []string {
	out := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		if k < len(r) {
			out[i] = r[k]
		}
	}
	return out
}

// Numbers reads column k as numbers (Number).
func Numbers(t *table.Table, k int) []float64 {
	cells := Column(t, k)
	out := make([]float64, len(cells))
	for i, c := range cells {
		out[i] = Number(c)
	}
	return out
}

var number = regexp.MustCompile(`^\s*[~]?([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)(?:\^([+-]?[0-9]+(?:\.[0-9]+)?))?`)

// Number reads the number a cell starts with, as the reports print it:
// "42", "+14.1%" (14.1), "1.31X", "0.96x", "2^10" (1024), "4 (2x2)",
// "3.043 / 3.042" (the first), "~78". A cell without one is NaN.
func Number(cell string) float64 {
	m := number.FindStringSubmatch(cell)
	if m == nil {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return math.NaN()
	}
	if m[2] != "" {
		e, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return math.NaN()
		}
		v = math.Pow(v, e)
	}
	return v
}

// Pivot reads a long table as series over categories: the distinct
// cells of column cat in order are the categories, those of column ser
// the series' names, and values[s][c] the number in column val of the
// row of series s at category c (NaN where there is none). Rows whose
// keep returns false (nil keeps all) are left out.
func Pivot(t *table.Table, cat, ser, val int, keep func(row []string) bool) (cats, names []string, values [][]float64) {
	type key struct{ s, c string }
	at := map[key]float64{}
	for _, r := range t.Rows {
		if max(cat, ser, val) >= len(r) || (keep != nil && !keep(r)) {
			continue
		}
		if !slices.Contains(cats, r[cat]) {
			cats = append(cats, r[cat])
		}
		if !slices.Contains(names, r[ser]) {
			names = append(names, r[ser])
		}
		at[key{r[ser], r[cat]}] = Number(r[val])
	}
	values = make([][]float64, len(names))
	for i, s := range names {
		values[i] = make([]float64, len(cats))
		for j, c := range cats {
			v, ok := at[key{s, c}]
			if !ok {
				v = math.NaN()
			}
			values[i][j] = v
		}
	}
	return cats, names, values
}

// NaNs is n NaNs: a series with no value yet.
func NaNs(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}

// Claim reads the paper's and our numbers (Number) of the first row of a
// claims table (columns "result", "paper, as printed" and "ours") whose
// result holds every one of keys.
func Claim(t *table.Table, keys ...string) (paper, ours float64, err error) {
	res, err := Col(t, "result")
	if err != nil {
		return 0, 0, err
	}
	pc, err := Col(t, "paper, as printed")
	if err != nil {
		return 0, 0, err
	}
	oc, err := Col(t, "ours")
	if err != nil {
		return 0, 0, err
	}
	for _, r := range t.Rows {
		if max(res, pc, oc) < len(r) && containsAll(r[res], keys) {
			return Number(r[pc]), Number(r[oc]), nil
		}
	}
	return 0, 0, fmt.Errorf("table %q has no result with %q", t.Title, strings.Join(keys, `", "`))
}

func containsAll(s string, keys []string) bool {
	for _, k := range keys {
		if !strings.Contains(s, k) {
			return false
		}
	}
	return true
}

// Reader reads a report's tables for a chart and keeps the first thing
// it could not find: a chart reads all it needs, then checks Err once.
// After an error every read returns nothing.
type Reader struct {
	ts  []*table.Table
	err error
}

// Read starts reading ts.
func Read(ts []*table.Table) *Reader { return &Reader{ts: ts} }

// Err is the first thing the reader could not find.
func (r *Reader) Err() error { return r.err }

// Table is the first table whose title starts with prefix (Find).
func (r *Reader) Table(prefix string) *table.Table {
	if r.err != nil {
		return nil
	}
	t, err := Find(r.ts, prefix)
	r.err = err
	return t
}

// col is the column headed name after the one headed after.
func (r *Reader) col(t *table.Table, after, name string) int {
	if r.err != nil || t == nil {
		return -1
	}
	k, err := ColAfter(t, after, name)
	r.err = err
	if err != nil {
		return -1
	}
	return k
}

// Numbers reads the column headed name as numbers (Number).
func (r *Reader) Numbers(t *table.Table, name string) []float64 {
	return r.NumbersAfter(t, "", name)
}

// NumbersAfter reads the first column headed name after the one headed
// after as numbers.
func (r *Reader) NumbersAfter(t *table.Table, after, name string) []float64 {
	if k := r.col(t, after, name); k >= 0 {
		return Numbers(t, k)
	}
	return nil
}

// Strings reads the column headed name as it is.
func (r *Reader) Strings(t *table.Table, name string) []string {
	if k := r.col(t, "", name); k >= 0 {
		return Column(t, k)
	}
	return nil
}

// Index is the column headed name, for Pivot.
func (r *Reader) Index(t *table.Table, name string) int { return r.col(t, "", name) }

// IndexAfter is the first column headed name after the one headed after.
func (r *Reader) IndexAfter(t *table.Table, after, name string) int { return r.col(t, after, name) }

// Claim reads a claims table's row (Claim).
func (r *Reader) Claim(t *table.Table, keys ...string) (paper, ours float64) {
	if r.err != nil || t == nil {
		return math.NaN(), math.NaN()
	}
	paper, ours, r.err = Claim(t, keys...)
	return paper, ours
}

// Notes is a table's notes as one text.
func Notes(t *table.Table) string {
	if t == nil {
		return ""
	}
	return strings.Join(t.Notes, "\n")
}

// Prefixed puts p before each of ss: category names ("q=" + "2").
func Prefixed(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// Distinct is the values of xs in order of first appearance.
func Distinct[T comparable](xs []T) []T {
	var out []T
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
