//go:build linux

package vec

import (
	"sync"
	"syscall"
	"unsafe"
)

// Memory returns n zero words for one lane's copy of a memory. The words
// come from regions the kernel is asked to back with 2 MB pages (madvise
// MADV_HUGEPAGE): the streams keep a copy of each memory a lane, so the
// memories take the lanes times their size, and reads at random addresses
// in them otherwise miss the TLB on most accesses. Where the kernel
// refuses, the words come from the Go heap.
func Memory[T Element](n int) []T {
	var word T
	size := (n*int(unsafe.Sizeof(word)) + lineBytes - 1) &^ (lineBytes - 1)
	b := hugePages.take(size)
	if b == nil {
		return make([]T, n)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

const (
	lineBytes   = 64      // a cache line: no two memories share one
	hugeBytes   = 2 << 20 // an x86-64 huge page
	regionBytes = 1 << 30 // reserved at a time; a page is backed when written
)

// regions hands out the words of the region it reserved last.
type regions struct {
	sync.Mutex // (each worker of a streams program makes its own designs)
	free       []byte
}

var hugePages regions

// take returns size > 0 bytes of the region, reserving a new one when
// they do not fit what is left, or nil where the kernel refuses.
func (r *regions) take(size int) []byte {
	if size == 0 {
		return nil
	}
	r.Lock()
	defer r.Unlock()
	if len(r.free) < size {
		b, err := syscall.Mmap(-1, 0, max(regionBytes, size)+hugeBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			return nil
		}
		if err := syscall.Madvise(b, syscall.MADV_HUGEPAGE); err != nil {
			syscall.Munmap(b)
			return nil
		}
		r.free = b[(hugeBytes-int(uintptr(unsafe.Pointer(&b[0]))%hugeBytes))%hugeBytes:]
	}
	b := r.free[:size:size]
	r.free = r.free[size:]
	return b
}
