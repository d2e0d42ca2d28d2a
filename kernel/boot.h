/* SPDX-License-Identifier: GPL-2.0 */
/* What the boot loader told us, in arch-neutral form. */
#ifndef KERNEL_BOOT_H
#define KERNEL_BOOT_H

#include "kernel/types.h"

#define MAX_MEM_RANGES	32

struct mem_range {
	u64 base;
	u64 len;
};

struct boot_info {
	const char *cmdline;
	struct mem_range ram[MAX_MEM_RANGES];	/* usable RAM */
	int nr_ram;
	u64 acpi_rsdp;			/* physical address of RSDP copy */
	u64 reserved_end;		/* end of the kernel and boot modules */
};

void cpu_start(int cpu);
/* The boot CPU's C entry, called from boot/entry.asm. */
void kernel_main(u64 magic, u64 mbi);

#endif
