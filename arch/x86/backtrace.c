// SPDX-License-Identifier: GPL-2.0
/*
 * Frame-pointer backtraces with symbol names.  The symbol table is made at
 * build time from the first link (nm), and linked into the second; its
 * section lies after .text, so the text addresses do not move between the
 * two links.  In the first link the table is absent (weak, NULL).
 */
#include "arch/x86/setup.h"
#include "asm/arch.h"
#include "kernel/printk.h"

extern const u64 ksym_addr[] __attribute__((weak));
extern const u32 ksym_name_off[] __attribute__((weak));
extern const char ksym_names[] __attribute__((weak));
extern const u64 ksym_count __attribute__((weak));

static const char *lookup(unsigned long addr, unsigned long *off)
{
	if (!&ksym_count || !ksym_count || addr < ksym_addr[0])
		return NULL;
	/* Binary search: the largest i with addr >= ksym_addr[i]. */
	u64 lo = 0, hi = ksym_count;

	while (hi - lo > 1) {
		u64 mid = (lo + hi) / 2;

		if (ksym_addr[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*off = addr - ksym_addr[lo];
	return ksym_names + ksym_name_off[lo];
}

const char *arch_symbol_name(unsigned long addr)
{
	unsigned long off;

	return lookup(addr, &off);
}

void arch_print_symbol(unsigned long addr)
{
	unsigned long off = 0;
	const char *name = lookup(addr, &off);
	char buf[160];

	if (name)
		snprintf(buf, sizeof(buf), "  [<%016lx>] %s+0x%lx\n", addr,
			 name, off);
	else
		snprintf(buf, sizeof(buf), "  [<%016lx>] ?\n", addr);
	console_emergency_write(buf);
}

static bool plausible_frame(unsigned long fp)
{
	/* Frames live on identity-mapped RAM or in the stack region. */
	return fp && !(fp & 7) &&
	       (fp >= 0xffff800000000000UL ||
		(fp >= 0x1000 && fp < (4UL << 30)));
}

/*
 * arch_switch_to() (switch.asm) pushed rbp, rbx, r12-r15 below its return
 * address: the saved rbp is the sixth word up from ksp, the return address
 * into __schedule() the seventh.
 */
void arch_backtrace_task(unsigned long ksp)
{
	unsigned long *sp = (unsigned long *)ksp;

	arch_print_symbol(sp[6]);
	arch_backtrace(sp[5]);
}

void arch_backtrace(unsigned long fp)
{
	for (int depth = 0; depth < 32 && plausible_frame(fp); depth++) {
		unsigned long ret = ((unsigned long *)fp)[1];

		if (ret < (unsigned long)__kernel_start ||
		    ret >= (unsigned long)__kernel_end)
			break;
		arch_print_symbol(ret);
		unsigned long next = ((unsigned long *)fp)[0];

		if (next <= fp)		/* stacks grow down: frames go up */
			break;
		fp = next;
	}
}
