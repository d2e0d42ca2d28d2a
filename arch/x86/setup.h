/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Platform bring-up pieces that arch/x86/setup.c and multiboot2.c call,
 * each defined in the file of its device or table.  Not part of the arch
 * interface (asm/arch.h): nothing outside arch/x86/ includes this.
 */
#ifndef ARCH_X86_SETUP_H
#define ARCH_X86_SETUP_H

#include "kernel/types.h"

struct boot_info;

/* The legacy 8259 PICs: masked, so only the local APIC delivers. */
void pic_disable(void);
/* The I/O APIC: every input masked (dynrcu uses no device interrupts). */
void ioapic_init(void);
/* Unmap page 0, so that a NULL dereference faults (paging.c). */
void paging_unmap_null_page(void);
/* A PVH start (QEMU -kernel): fill *bi and return true (pvh.c). */
bool pvh_boot_info(struct boot_info *bi, u64 magic, u64 info_addr);
/* Top of cpu's interrupt stack ist (gdt.c, which owns the TSS). */
u64 arch_ist_top(int cpu, int ist);
/* The kernel image's bounds, from linker.ld. */
extern char __kernel_start[], __kernel_end[];

/* Where a new task's first arch_switch_to() returns (switch.asm). */
void task_entry_trampoline(void);

#endif
