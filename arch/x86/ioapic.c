// SPDX-License-Identifier: GPL-2.0
/*
 * IOAPIC: we use no device interrupts, so every redirection entry is
 * masked.  The MADT's interrupt overrides are parsed (acpi.c) and printed
 * so that a device driver added later knows where ISA IRQs land.
 */
#include "arch/x86/acpi.h"
#include "kernel/printk.h"
#include "arch/x86/setup.h"

#define IOREGSEL	0x00
#define IOWIN		0x10
#define IOAPICVER	0x01
#define IOREDTBL(n)	(0x10 + 2 * (n))

static u32 ioapic_read(volatile u32 *base, u32 reg)
{
	base[IOREGSEL / 4] = reg;
	return base[IOWIN / 4];
}

static void ioapic_write(volatile u32 *base, u32 reg, u32 v)
{
	base[IOREGSEL / 4] = reg;
	base[IOWIN / 4] = v;
}

void ioapic_init(void)
{
	volatile u32 *base = (volatile u32 *)(u64)acpi_platform.ioapic_addr;

	if (!base) {
		printk("ioapic: none in the MADT\n");
		return;
	}
	u32 entries = ((ioapic_read(base, IOAPICVER) >> 16) & 0xff) + 1;

	for (u32 i = 0; i < entries; i++) {
		ioapic_write(base, IOREDTBL(i), 1U << 16);	/* masked */
		ioapic_write(base, IOREDTBL(i) + 1, 0);
	}
	printk("ioapic: %u redirection entries, all masked\n", entries);
}
