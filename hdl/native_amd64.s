//go:build linux && amd64

#include "textflag.h"

// func callNative(fn uintptr, st unsafe.Pointer)
//
// Calls the machine code at fn with the state's address in DI. The code
// uses AX, CX, DX, DI, R11 and no stack beyond its return address.
TEXT ·callNative(SB), NOSPLIT, $0-16
	MOVQ fn+0(FP), AX
	MOVQ st+8(FP), DI
	CALL AX
	RET
