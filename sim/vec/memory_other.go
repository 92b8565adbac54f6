//go:build !linux

package vec

// Memory returns n zero words for one lane's copy of a memory.
func Memory[T Element](n int) []T { return make([]T, n) }
