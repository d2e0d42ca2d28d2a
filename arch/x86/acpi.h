/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ARCH_X86_ACPI_H
#define ARCH_X86_ACPI_H

#include "kernel/percpu.h"

#define ACPI_MAX_CPUS		NR_CPUS
#define ACPI_MAX_OVERRIDES	16

struct acpi_override {
	u8 source;		/* ISA IRQ */
	u32 gsi;
	u16 flags;
};

struct acpi_platform {
	int nr_cpus;
	int nr_listed;			/* enabled in the MADT, kept or not */
	u8 apic_ids[ACPI_MAX_CPUS];	/* enabled, de-duplicated, MADT order */
	u32 lapic_addr;
	u32 ioapic_addr;
	u8 ioapic_id;
	bool has_pic;
	int nr_overrides;
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
};

extern struct acpi_platform acpi_platform;

void acpi_init(u64 rsdp_hint);

#endif
