; SPDX-License-Identifier: GPL-2.0
; arch_switch_to(&old->ksp, new->ksp): save the callee-saved registers on
; the old stack, store its RSP, load the new one, restore and return into
; the new task.  Caller-saved registers are the C caller's business.

bits 64
section .text

global arch_switch_to
global task_entry_trampoline

arch_switch_to:
	push	rbp
	push	rbx
	push	r12
	push	r13
	push	r14
	push	r15
	mov	[rdi], rsp
	mov	rsp, rsi
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	rbx
	pop	rbp
	ret

; A new task's stack is laid out so that arch_switch_to "returns" here,
; with the C entry point in rbx.  rbp = 0 ends backtraces.
task_entry_trampoline:
	xor	ebp, ebp
	call	rbx
	ud2
