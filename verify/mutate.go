package verify

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Mutation testing of the checker: each mutant is the emitted Verilog with
// one deliberate change, so the Go golden model and the RTL no longer
// agree (unless the change happens not to alter behaviour). A checker that
// misses a behaviour-changing mutant cannot be trusted.

// Mutant is one changed copy of a Verilog text.
type Mutant struct {
	Kind    string // the rule that made it
	Line    int    // 1-based line of the change
	Before  string // the line as emitted
	After   string // the line as mutated
	Verilog []byte
}

func (m Mutant) String() string {
	return fmt.Sprintf("%s at line %d: %q -> %q", m.Kind, m.Line, strings.TrimSpace(m.Before), strings.TrimSpace(m.After))
}

// mutationRule rewrites one match of re in a line into the result of fix.
// Rules for operators apply to continuous assignments only, where "<=" is a
// comparison rather than a non-blocking assignment.
type mutationRule struct {
	kind       string
	re         *regexp.Regexp
	fix        func(match []string) string
	assignOnly bool
}

var literal = regexp.MustCompile(`(\d+)'([bdh])([0-9a-f]+)`)

// flipLiteral changes the lowest bit of a sized literal.
func flipLiteral(m []string) string {
	width, _ := strconv.Atoi(m[1])
	base := map[string]int{"b": 2, "d": 10, "h": 16}[m[2]]
	v, err := strconv.ParseUint(m[3], base, 64)
	if err != nil || width > 64 {
		v, base = 1, 16 // a wide literal becomes a small one
	} else {
		v ^= 1
	}
	return fmt.Sprintf("%d'%s%s", width, m[2], strconv.FormatUint(v, base))
}

var mutationRules = []mutationRule{
	{kind: "arith", assignOnly: true, re: regexp.MustCompile(` ([+-]) `), fix: func(m []string) string { return map[string]string{"+": " - ", "-": " + "}[m[1]] }},
	{kind: "logic", assignOnly: true, re: regexp.MustCompile(` ([&|^]) `), fix: func(m []string) string { return map[string]string{"&": " | ", "|": " ^ ", "^": " & "}[m[1]] }},
	{kind: "compare", assignOnly: true, re: regexp.MustCompile(` (==|!=|<=|>=|<|>) `), fix: func(m []string) string {
		return map[string]string{"==": " != ", "!=": " == ", "<": " <= ", "<=": " < ", ">": " >= ", ">=": " > "}[m[1]]
	}},
	{kind: "shift", assignOnly: true, re: regexp.MustCompile(` (<<|>>>|>>) `), fix: func(m []string) string { return map[string]string{"<<": " >> ", ">>": " << ", ">>>": " >> "}[m[1]] }},
	{kind: "mux", assignOnly: true, re: regexp.MustCompile(`\? (\S+) : (\S+);`), fix: func(m []string) string { return fmt.Sprintf("? %s : %s;", m[2], m[1]) }},
	{kind: "invert", assignOnly: true, re: regexp.MustCompile(`= ~`), fix: func([]string) string { return "= " }},
	{kind: "constant", re: literal, fix: flipLiteral},
	{kind: "enable", re: regexp.MustCompile(`else if \((\S+)\) `), fix: func([]string) string { return "else " }},
	{kind: "select", assignOnly: true, re: regexp.MustCompile(`\[(\d+):(\d+)\];`), fix: func(m []string) string {
		hi, _ := strconv.Atoi(m[1])
		lo, _ := strconv.Atoi(m[2])
		if lo == 0 {
			return m[0] // keeps a part-select in range: shift only down
		}
		return fmt.Sprintf("[%d:%d];", hi-1, lo-1)
	}},
}

// Mutants returns up to perKind mutants of each kind, chosen with seed
// among the lines that assign logic (assign statements and the bodies of
// always blocks; declarations and port lists are left alone).
func Mutants(verilog []byte, perKind int, seed uint64) []Mutant {
	lines := strings.Split(string(verilog), "\n")
	r := rand.New(rand.NewPCG(seed, 0x3a7a))
	var out []Mutant
	for _, rule := range mutationRules {
		type site struct{ line, at int }
		var sites []site
		for i, l := range lines {
			t := strings.TrimSpace(l)
			assign := strings.HasPrefix(t, "assign ")
			if !assign && (rule.assignOnly || !strings.HasPrefix(t, "if (") && !strings.HasPrefix(t, "else ") && !strings.Contains(t, "<=")) {
				continue
			}
			for _, loc := range rule.re.FindAllStringSubmatchIndex(l, -1) {
				sites = append(sites, site{i, loc[0]})
			}
		}
		r.Shuffle(len(sites), func(i, j int) { sites[i], sites[j] = sites[j], sites[i] })
		seen := map[string]bool{}
		for _, s := range sites {
			if len(seen) == perKind {
				break
			}
			l := lines[s.line]
			loc := rule.re.FindStringSubmatchIndex(l[s.at:])
			match := make([]string, len(loc)/2)
			for k := range match {
				match[k] = l[s.at+loc[2*k] : s.at+loc[2*k+1]]
			}
			repl := rule.fix(match)
			if repl == match[0] {
				continue
			}
			after := l[:s.at] + repl + l[s.at+loc[1]:]
			if seen[after] {
				continue
			}
			seen[after] = true
			mutated := append(append(append([]string{}, lines[:s.line]...), after), lines[s.line+1:]...)
			out = append(out, Mutant{Kind: rule.kind, Line: s.line + 1, Before: l, After: after, Verilog: []byte(strings.Join(mutated, "\n"))})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}
