package vec

import (
	"go/format"
	"strings"
	"testing"
)

// TestFilesAreOneWidthAndGofmtClean: each width's copy carries no vec32
// build constraint (it builds as that width with no tag) and is
// gofmt-clean, since make lint's gofmt -l reads the tool cache the copies
// land in.
func TestFilesAreOneWidthAndGofmtClean(t *testing.T) {
	for _, bits := range []int{64, 32} {
		files := Files(bits)
		if _, ok := files[map[int]string{64: "words64.go", 32: "words32.go"}[bits]]; !ok {
			t.Fatalf("Files(%d) lacks its width's words file", bits)
		}
		for name, src := range files {
			for _, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(line, "//go:build") && strings.Contains(line, "vec32") {
					t.Errorf("Files(%d): %s keeps the constraint %q", bits, name, line)
				}
			}
			formatted, err := format.Source(src)
			if err != nil {
				t.Fatalf("Files(%d): %s: %v", bits, name, err)
			}
			if string(formatted) != string(src) {
				t.Errorf("Files(%d): %s is not gofmt-clean", bits, name)
			}
		}
	}
}
