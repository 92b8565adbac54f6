package vec

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed vec.go vec_simd.go vec_portable.go memory.go memory_linux.go memory_other.go words64.go words64_simd.go words32.go words32_simd.go words32_portable.go
var files embed.FS

// Files is the package's source at one lane width, bits 64 or 32, by file
// name, without its tests and without the other width's files: what a
// compiled multi-stream simulator's build copies into the directory it
// imports that width from. The width's build tag is taken out of the
// copies, so they build as that width with no tag, and they stay
// gofmt-clean (make lint reads the tool cache they land in).
func Files(bits int) map[string][]byte {
	tag := map[int]string{64: "!vec32", 32: "vec32"}[bits]
	if tag == "" {
		panic(fmt.Sprintf("vec: no %d-bit lanes", bits))
	}
	names := []string{"vec.go", "vec_simd.go", "vec_portable.go", "memory.go", "memory_linux.go", "memory_other.go"}
	entries, err := files.ReadDir(".")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("words%d", bits)) {
			names = append(names, e.Name())
		}
	}
	out := map[string][]byte{}
	for _, name := range names {
		src, err := files.ReadFile(name)
		if err != nil {
			panic(err)
		}
		text := strings.Replace(string(src), "//go:build "+tag+"\n\n", "", 1)
		out[name] = []byte(strings.Replace(text, " && "+tag+"\n", "\n", 1))
	}
	return out
}
