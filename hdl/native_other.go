//go:build !(linux && amd64)

package hdl

import "unsafe"

// translate has no machine code to offer on this platform.
func translate(*kernel, []instr, []run, func(*instr) []int32, func(int32) bool, edgeRegs) *nativeCode {
	return nil
}

// callNative is never called here: translate returns nil.
func callNative(uintptr, unsafe.Pointer, unsafe.Pointer) {
	panic("hdl: no native code on this platform")
}
