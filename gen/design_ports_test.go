package main

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite DESIGN.md's generated port lists (make rtl)")

// portListBlock is one generated port list in DESIGN.md: the gen command
// line in an HTML comment, then the table, then an end marker.
var portListBlock = regexp.MustCompile(`(?s)<!-- gen (-unit (\S+) -portlist -format markdown) -->\n(.*?)<!-- end of generated port list -->\n`)

// portListOf is gen's markdown port list of a unit without its title, the
// table as DESIGN.md holds it.
func portListOf(t *testing.T, args string) string {
	t.Helper()
	code, out, errs := runGen(strings.Fields(args)...)
	require.Equal(t, 0, code, "gen %s: %s", args, errs)
	_, table, ok := strings.Cut(out, "\n\n")
	require.True(t, ok, "gen %s prints a title, a blank line and the table", args)
	return table + "\n" // a blank line ends the table before the end marker
}

// DESIGN.md's port contracts list each unit's ports as gen -portlist
// prints them from the unit's port record, so that the names, widths and
// docs there cannot drift from the blocks; go test ./gen -run
// TestDesignPortLists -update (make rtl) rewrites them. Every unit has
// one, at its defaults.
func TestDesignPortLists(t *testing.T) {
	const path = "../DESIGN.md"
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	listed := map[string]bool{}
	fresh := portListBlock.ReplaceAllStringFunc(string(text), func(block string) string {
		m := portListBlock.FindStringSubmatch(block)
		listed[m[2]] = true
		want := portListOf(t, m[1])
		if !*update {
			require.Equal(t, want, m[3], "DESIGN.md's port list of %s differs from gen %s (go test ./gen -run TestDesignPortLists -update rewrites it)", m[2], m[1])
		}
		return "<!-- gen " + m[1] + " -->\n" + want + "<!-- end of generated port list -->\n"
	})
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(fresh), 0o644))
	}
	for _, name := range reg.UnitNames() {
		require.True(t, listed[name], "DESIGN.md has no generated port list of %s: add\n<!-- gen -unit %s -portlist -format markdown -->\n<!-- end of generated port list -->\nunder its contract and run go test ./gen -run TestDesignPortLists -update", name, name)
	}
}
