package main

import (
	"encoding/csv"
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
// one, at its defaults, and every port a doc.
func TestDesignPortLists(t *testing.T) {
	const path = "../DESIGN.md"
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	held, fresh := map[string]string{}, map[string]string{}
	rewritten := portListBlock.ReplaceAllStringFunc(string(text), func(block string) string {
		m := portListBlock.FindStringSubmatch(block)
		held[m[2]], fresh[m[2]] = m[3], portListOf(t, m[1])
		return "<!-- gen " + m[1] + " -->\n" + fresh[m[2]] + "<!-- end of generated port list -->\n"
	})
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(rewritten), 0o644))
		return
	}
	for _, name := range reg.UnitNames() {
		t.Run(name, func(t *testing.T) {
			list, ok := held[name]
			require.True(t, ok, "DESIGN.md has no generated port list of %s: add\n<!-- gen -unit %s -portlist -format markdown -->\n<!-- end of generated port list -->\nunder its contract and run go test ./gen -run TestDesignPortLists -update", name, name)
			require.Equal(t, fresh[name], list, "DESIGN.md's port list of %s differs from gen -unit %s -portlist (go test ./gen -run TestDesignPortLists -update rewrites it)", name, name)
			code, out, errs := runGen("-unit", name, "-portlist", "-format", "csv")
			require.Equal(t, 0, code, errs)
			rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			require.NoError(t, err)
			for _, row := range rows[1:] {
				require.NotEmpty(t, row[3], "port %s of %s has no doc: give its port record's field a doc tag", row[0], name)
			}
		})
	}
}
