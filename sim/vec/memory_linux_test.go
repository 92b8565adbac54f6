//go:build linux

package vec

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestMemoryOnHugePages: each memory is zero, writable, its own cache
// lines, and inside a mapping advised for huge pages (VmFlags "hg" in
// /proc/self/smaps).
func TestMemoryOnHugePages(t *testing.T) {
	a, b := Memory[uint32](1<<15), Memory[uint8](3)
	c := Memory[uint64](1 << 10)
	if len(a) != 1<<15 || len(b) != 3 || len(c) != 1<<10 {
		t.Fatalf("lengths %d %d %d, want 32768 3 1024", len(a), len(b), len(c))
	}
	for i := range c {
		if c[i] != 0 {
			t.Fatalf("word %d is %#x, want 0", i, c[i])
		}
		c[i] = ^uint64(i)
	}
	a[len(a)-1], b[2] = 0xffffffff, 0xff
	if c[0] != ^uint64(0) || b[0] != 0 {
		t.Fatalf("memories overlap: c[0] %#x, b[0] %#x", c[0], b[0])
	}
	for _, at := range []uintptr{uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&c[0]))} {
		if at%lineBytes != 0 {
			t.Errorf("memory at %#x does not start a cache line", at)
		}
		if flags := vmFlags(t, at); !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("memory at %#x: mapping's VmFlags %q lack hg (MADV_HUGEPAGE)", at, flags)
		}
	}
}

// vmFlags is the VmFlags line of the mapping of this process that holds
// address at.
func vmFlags(t *testing.T, at uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	for s := bufio.NewScanner(f); s.Scan(); {
		line := s.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok { // a mapping's first line: its range
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(at) >= l && uint64(at) < h
				continue
			}
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds %#x", at)
	return ""
}
