//go:build linux && amd64

#include "textflag.h"

// func callNative(fn uintptr, st, aux unsafe.Pointer)
//
// Calls the machine code at fn with the state's address in DI and aux in
// SI. The code uses AX, CX, DX, SI, DI, R11 and no stack beyond its
// return address.
TEXT ·callNative(SB), NOSPLIT, $0-24
	MOVQ fn+0(FP), AX
	MOVQ st+8(FP), DI
	MOVQ aux+16(FP), SI
	CALL AX
	RET
