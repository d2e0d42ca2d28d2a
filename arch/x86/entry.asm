; SPDX-License-Identifier: GPL-2.0
; Interrupt and exception entry.  Every vector has a stub that pushes a
; uniform frame (struct trap_frame in arch/x86/trap.h): an error code (0
; when the CPU pushes none), the vector, then the general registers.  The
; kernel never runs user code, so GS always holds the kernel per-CPU base
; and no swapgs is needed.

bits 64
section .text

extern trap_dispatch
global trap_entry_table

%macro TRAP_NOERR 1
trap_entry_%1:
	push	0
	push	%1
	jmp	trap_common
%endmacro

%macro TRAP_ERR 1
trap_entry_%1:
	push	%1
	jmp	trap_common
%endmacro

trap_common:
	push	rax
	push	rbx
	push	rcx
	push	rdx
	push	rsi
	push	rdi
	push	rbp
	push	r8
	push	r9
	push	r10
	push	r11
	push	r12
	push	r13
	push	r14
	push	r15
	cld
	mov	rdi, rsp
	; The frame is 22 words from an RSP the CPU aligned to 16 bytes, so
	; RSP is 16-byte aligned here, as the C ABI wants at the call.
	call	trap_dispatch
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	r11
	pop	r10
	pop	r9
	pop	r8
	pop	rbp
	pop	rdi
	pop	rsi
	pop	rdx
	pop	rcx
	pop	rbx
	pop	rax
	add	rsp, 16			; vector and error code
	iretq

; Vectors 8, 10-14, 17, 21, 29 and 30 come with a CPU-pushed error code.
%assign v 0
%rep 256
%if v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 || v == 29 || v == 30
	TRAP_ERR v
%else
	TRAP_NOERR v
%endif
%assign v v + 1
%endrep

section .rodata
align 8
trap_entry_table:
%assign v 0
%rep 256
	dq trap_entry_ %+ v
%assign v v + 1
%endrep
