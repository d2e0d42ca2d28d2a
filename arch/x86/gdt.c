// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU GDT and TSS.  The TSS matters only for its IST stacks: NMI,
 * double fault, machine check and page fault run on stacks of their own
 * (see idt_init()).  Each CPU needs its own TSS, hence its own GDT.
 */
#include "asm/arch.h"
#include "arch/x86/setup.h"
#include "arch/x86/trap.h"
#include "kernel/bug.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"


struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct cpu_tables {
	u64 gdt[5];		/* null, code 0x08, data 0x10, TSS 0x18 (2) */
	struct tss tss;
} __aligned(16);

static struct cpu_tables cpu_tables[NR_CPUS];

void gdt_init_cpu(int cpu)
{
	struct cpu_tables *t = &cpu_tables[cpu];
	u64 base = (u64)&t->tss;
	u64 limit = sizeof(t->tss) - 1;

	t->gdt[0] = 0;
	t->gdt[1] = 0x00af9a000000ffffULL;	/* 64-bit code */
	t->gdt[2] = 0x00cf92000000ffffULL;	/* data */
	/* Available 64-bit TSS descriptor, split over two slots. */
	t->gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		    (0x89ULL << 40) | (((base >> 24) & 0xff) << 56);
	t->gdt[4] = base >> 32;

	for (int i = 0; i < NR_IST; i++) {
		size_t size;
		void *stack;

		/* Back from offline: the stacks of its first life serve. */
		if (t->tss.ist[i])
			continue;
		/* Guarded: a handler that overflows faults, reported. */
		stack = arch_alloc_stack(&size);
		BUG_ON(size != IST_STACK_SIZE);
		t->tss.ist[i] = (u64)stack + size;
	}
	t->tss.iomap_base = sizeof(t->tss);

	struct {
		u16 limit;
		u64 base;
	} __packed ptr = { sizeof(t->gdt) - 1, (u64)t->gdt };

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"pushq $0x08\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"		/* reload CS from the new GDT */
		"1:\n\t"
		"movw $0x10, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"movw $0x18, %%ax\n\t"
		"ltr %%ax"
		:: "m"(ptr) : "rax", "memory");
}

/* The IST stack tops of a CPU, for the gdb helpers and NMI checks. */
u64 arch_ist_top(int cpu, int ist)
{
	return cpu_tables[cpu].tss.ist[ist - 1];
}
