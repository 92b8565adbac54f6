package sim

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/parmem/parmem/internal/kernel"
)

// Compiled Go's state is the interpreter's slots, one word each, but the
// compiled program reads far fewer of them: its locals, the constants it
// writes as literals and what it drops never reach the array. compactState
// renumbers the words the program does name, in their order, so that the
// array holds only those and big designs' state fits a core's L1 cache
// (DESIGN.md gives the figures).
//
// Two kinds keep the interpreter's numbering, slower compacted:
//   - a design with a priority crossbar (the SAMS InSwitch): the loads of
//     the dense state wait, likely on the scatters' stores at late-known
//     indices, whose low address bits the small state shares more often;
//   - the compiled streams, likely for the same reason (words 64 apart are
//     4 KB apart).

var (
	// stateRef is a word or a run of words of the state: st[i] or st[i:j].
	stateRef = regexp.MustCompile(`\bst\[(\d+)(?::(\d+))?\]`)
	// stateInit is an initial value of a word in NewDesign's body, which
	// initialValues finds (Step's resets write the same form).
	stateInit = regexp.MustCompile(`(?m)^\tst\[(\d+)\] = 0x[0-9a-f]+\n`)
	// stateDecl declares the array.
	stateDecl = regexp.MustCompile(`(?m)^var st \[(\d+)\]uint64$`)
	// slotEntry is a port's entry in the slots table.
	slotEntry = regexp.MustCompile(`(?m)^\t("[^"]*"): (\d+),$`)
)

// compactState renumbers the state words of compiled source src (before
// formatting): every word a statement names, every word of a run it
// slices (kept consecutive) and every word of every port (the harness
// writes a wide port's words after its first) keep their order and get
// consecutive indices; an initial value of a word nothing names goes. It
// returns the source and each old index's new one.
func (s *Sim) compactState(src []byte) ([]byte, map[int]int) {
	used := map[int]bool{}
	before, inits, after := initialValues(src)
	body := slices.Concat(before, stateInit.ReplaceAll(inits, nil), after) // (initial values alone keep no word)
	for _, m := range stateRef.FindAllSubmatch(body, -1) {
		from := atoi(m[1])
		to := from + 1
		if m[2] != nil {
			to = atoi(m[2])
		}
		for x := from; x < to; x++ {
			used[x] = true
		}
	}
	for name, slot := range s.byName {
		if s.isVisible(name) {
			for k := range kernel.NWords(s.width[name]) {
				used[int(slot)+k] = true
			}
		}
	}
	at := map[int]int{}
	for i, x := range slices.Sorted(maps.Keys(used)) {
		at[x] = i
	}
	src = slices.Concat(before, stateInit.ReplaceAllFunc(inits, func(line []byte) []byte {
		if _, ok := at[atoi(stateInit.FindSubmatch(line)[1])]; !ok {
			return nil
		}
		return line // (renumbered with every other reference)
	}), after)
	src = stateRef.ReplaceAllFunc(src, func(ref []byte) []byte {
		m := stateRef.FindSubmatch(ref)
		from := at[atoi(m[1])]
		if m[2] == nil {
			return fmt.Appendf(nil, "st[%d]", from)
		}
		return fmt.Appendf(nil, "st[%d:%d]", from, from+atoi(m[2])-atoi(m[1]))
	})
	src = slotEntry.ReplaceAllFunc(src, func(entry []byte) []byte {
		m := slotEntry.FindSubmatch(entry)
		return fmt.Appendf(nil, "\t%s: %d,", m[1], at[atoi(m[2])])
	})
	src = stateDecl.ReplaceAll(src, fmt.Appendf(nil, "var st [%d]uint64", max(1, len(at))))
	return src, at
}

// initialValues splits src around NewDesign's body, where the initial
// values are.
func initialValues(src []byte) (before, newDesign, after []byte) {
	from := bytes.Index(src, []byte("\nfunc NewDesign() *Design {\n"))
	to := from + bytes.Index(src[from:], []byte("\n}\n"))
	return src[:from:from], src[from:to:to], src[to:]
}

func atoi(b []byte) int {
	n, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil {
		panic(err) // (the patterns match digits only)
	}
	return n
}
