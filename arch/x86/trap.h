/* SPDX-License-Identifier: GPL-2.0 */
/* The frame arch/x86/entry.asm builds; keep the two in the same order. */
#ifndef ARCH_X86_TRAP_H
#define ARCH_X86_TRAP_H

#include "kernel/types.h"

struct trap_frame {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error;		/* pushed by the stub */
	u64 rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

#define VEC_NMI		2
#define VEC_DF		8
#define VEC_PF		14
#define VEC_MC		18

/* IST slots in the TSS (1-based, as the IDT encodes them). */
#define IST_NMI		1
#define IST_DF		2
#define IST_MC		3
#define IST_PF		4
#define NR_IST		4
#define IST_STACK_SIZE	16384	/* arch_alloc_stack()'s, with a guard */

/* Interrupt vectors.  Priority class = vector >> 4. */
#define VEC_TEST_LOW	0x30
#define VEC_TIMER	0x40
#define VEC_CALL_FUNC	0xd0
#define VEC_RESCHEDULE	0xd1
#define VEC_IRQ_WORK	0xd2
#define VEC_TEST_HIGH	0xe0
#define VEC_SPURIOUS	0xff

void idt_init(void);
void idt_use_ist(void);
void idt_load(void);
void gdt_init_cpu(int cpu);

/* Every exception and interrupt, from the stubs in entry.asm. */
void trap_dispatch(struct trap_frame *f);

#endif
