package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/stretchr/testify/require"
)

// workplaceSeeds is where the workplace keeps the seed papers' texts
// (the project at /work/main, the papers at /work/shared/seeds); a clone
// elsewhere (CI clones into a directory of its own) finds them here.
const workplaceSeeds = "/work/shared/seeds"

// seedsDir finds the seed papers' texts: $PARMEM_SEEDS, else shared/seeds
// beside the module or one of its parents, else workplaceSeeds.
func seedsDir(t *testing.T) string {
	if d := os.Getenv("PARMEM_SEEDS"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	dirs := []string{}
	for d := wd; ; d = filepath.Dir(d) {
		dirs = append(dirs, filepath.Join(d, "shared", "seeds"))
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range append(dirs, workplaceSeeds) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	t.Fatalf("no shared/seeds above %s nor %s: set PARMEM_SEEDS to the directory of the seed papers' texts", wd, workplaceSeeds)
	return ""
}

var numberRE = regexp.MustCompile(`\d+(?:,\d{3})*(?:\.\d+)?`)

// numbers are the numbers a text writes, commas dropped ("1,984" is 1984,
// "35.0" is 35).
func numbers(text string) []float64 {
	var out []float64
	for _, s := range numberRE.FindAllString(text, -1) {
		x, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		if err == nil {
			out = append(out, x)
		}
	}
	return out
}

// Every number a family prints as a paper's (a claim's Printed, the
// fidelity report's "paper, as printed" column) is a number the paper's
// text writes: the claims are listed without running anything (zero
// results, as sweep.Plan gives), so the test checks what each family
// declares, not what it measures.
func TestFidelityPrintsOnlyThePapersNumbers(t *testing.T) {
	dir := seedsDir(t)
	inPaper := map[verdict.Paper]map[float64]bool{}
	for p := verdict.Thesis; p <= verdict.Nakano; p++ {
		text, err := os.ReadFile(filepath.Join(dir, p.Seed()))
		require.NoError(t, err)
		inPaper[p] = map[float64]bool{}
		for _, x := range numbers(string(text)) {
			inPaper[p][x] = true
		}
	}
	families := 0
	for _, f := range reg.Families() {
		if f.Claims == nil {
			continue
		}
		families++
		t.Run(f.Name, func(t *testing.T) {
			var cs []verdict.Claim
			_, err := sweep.Plan(func(w io.Writer) error {
				var err error
				cs, err = f.Claims.Run(w)
				return err
			})
			require.NoError(t, err)
			require.NotEmpty(t, cs)
			checked := 0
			for _, c := range cs {
				for _, x := range numbers(c.Printed) {
					require.True(t, inPaper[c.Paper][x], "%s: %s: the paper's value %q writes %v, which %s does not",
						c.Source(), c.What, c.Printed, x, c.Paper.Seed())
					checked++
				}
			}
			t.Logf("%d claims, %d printed numbers found in the papers", len(cs), checked)
		})
	}
	require.Positive(t, families)
}

// The check can fail: a number the paper does not write is caught.
func TestFidelityNumbersOfAText(t *testing.T) {
	require.Equal(t, []float64{1984, 10.9, 35, 2, 15}, numbers("1,984 bytes, +10.9% and -35.0%, 2^15"))
}
