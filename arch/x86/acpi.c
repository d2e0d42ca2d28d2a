// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI: RSDP -> RSDT/XSDT -> MADT, for the CPU list (enabled LAPICs,
 * de-duplicated), the IOAPIC and the interrupt source overrides.  A table
 * that is missing or fails its checksum stops the boot, naming the table.
 */
#include "arch/x86/acpi.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/string.h"

struct rsdp {
	char sig[8];
	u8 checksum;
	char oem[6];
	u8 revision;
	u32 rsdt;
	u32 length;		/* revision >= 2 from here */
	u64 xsdt;
	u8 xchecksum;
	u8 reserved[3];
} __packed;

struct sdt_header {
	char sig[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem[6];
	char oem_table[8];
	u32 oem_rev;
	u32 creator;
	u32 creator_rev;
} __packed;

struct madt {
	struct sdt_header h;
	u32 lapic_addr;
	u32 flags;
} __packed;

struct madt_entry {
	u8 type;
	u8 length;
} __packed;

struct madt_lapic {
	struct madt_entry e;
	u8 acpi_id;
	u8 apic_id;
	u32 flags;		/* bit 0: enabled */
} __packed;

struct madt_ioapic {
	struct madt_entry e;
	u8 id;
	u8 reserved;
	u32 addr;
	u32 gsi_base;
} __packed;

struct madt_iso {
	struct madt_entry e;
	u8 bus;
	u8 source;
	u32 gsi;
	u16 flags;
} __packed;

struct acpi_platform acpi_platform;

static bool checksum_ok(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += b[i];
	return sum == 0;
}

static const struct rsdp *find_rsdp(u64 hint)
{
	if (hint)
		return (const struct rsdp *)hint;
	/* Legacy BIOS: the EBDA's first KiB, then 0xe0000-0xfffff. */
	u64 bda = 0x40e;	/* BIOS data area: EBDA segment */

	/* Hide the constant address from gcc's array-bounds analysis. */
	__asm__("" : "+r"(bda));
	u64 ebda = (u64)(*(volatile u16 *)bda) << 4;
	u64 areas[2][2] = { { ebda, ebda + 1024 }, { 0xe0000, 0x100000 } };

	for (int a = 0; a < 2; a++)
		for (u64 p = areas[a][0]; p && p < areas[a][1]; p += 16)
			if (!memcmp((void *)p, "RSD PTR ", 8))
				return (const struct rsdp *)p;
	return NULL;
}

static const struct sdt_header *checked_table(u64 addr, const char *what)
{
	const struct sdt_header *h = (const struct sdt_header *)addr;

	if (!addr)
		panic("acpi: %s table missing", what);
	if (!checksum_ok(h, h->length))
		panic("acpi: %s table at %lx has a bad checksum", what, addr);
	return h;
}

static const struct madt *find_madt(const struct rsdp *rsdp)
{
	bool x = rsdp->revision >= 2 && rsdp->xsdt;
	const struct sdt_header *root = checked_table(
		x ? rsdp->xsdt : rsdp->rsdt, x ? "XSDT" : "RSDT");
	size_t esize = x ? 8 : 4;
	size_t n = (root->length - sizeof(*root)) / esize;
	const u8 *entries = (const u8 *)(root + 1);

	for (size_t i = 0; i < n; i++) {
		u64 addr = x ? *(const u64 *)(entries + i * 8) :
			       *(const u32 *)(entries + i * 4);
		const struct sdt_header *h = (const void *)addr;

		if (addr && !memcmp(h->sig, "APIC", 4))
			return (const struct madt *)checked_table(addr, "MADT");
	}
	panic("acpi: MADT (APIC) table missing from the %s", x ? "XSDT" : "RSDT");
}

static void add_cpu(u8 apic_id)
{
	struct acpi_platform *p = &acpi_platform;

	for (int i = 0; i < p->nr_cpus; i++)
		if (p->apic_ids[i] == apic_id)
			return;		/* duplicate: a firmware bug */
	p->nr_listed++;
	if (apic_id == 0xff) {
		/* xAPIC's broadcast ID: an IPI to it would reach every CPU. */
		printk("acpi: APIC ID 0xff is the broadcast ID, ignoring that CPU\n");
		return;
	}
	if (p->nr_cpus == ACPI_MAX_CPUS) {
		printk("acpi: more than %d CPUs, ignoring APIC %u\n",
		       ACPI_MAX_CPUS, apic_id);
		return;
	}
	p->apic_ids[p->nr_cpus++] = apic_id;
}

void acpi_init(u64 rsdp_hint)
{
	const struct rsdp *rsdp = find_rsdp(rsdp_hint);

	if (!rsdp || memcmp(rsdp->sig, "RSD PTR ", 8))
		panic("acpi: RSDP table missing");
	if (!checksum_ok(rsdp, 20))
		panic("acpi: RSDP table has a bad checksum");

	const struct madt *madt = find_madt(rsdp);
	const u8 *p = (const u8 *)(madt + 1);
	const u8 *end = (const u8 *)madt + madt->h.length;

	acpi_platform.lapic_addr = madt->lapic_addr;
	acpi_platform.has_pic = madt->flags & 1;
	while (p + 2 <= end) {
		const struct madt_entry *e = (const void *)p;

		if (e->length < 2 || p + e->length > end)
			panic("acpi: MADT entry at offset %lu is malformed",
			      (u64)(p - (const u8 *)madt));
		if (e->type == 0) {
			const struct madt_lapic *l = (const void *)e;

			if (l->flags & 1)
				add_cpu(l->apic_id);
		} else if (e->type == 9) {
			/* Processor Local x2APIC: flags at offset 8. */
			if (e->length >= 12 && (p[8] & 1)) {
				acpi_platform.nr_listed++;
				printk("acpi: an x2APIC CPU (MADT type 9): not supported, ignored\n");
			}
		} else if (e->type == 1 && !acpi_platform.ioapic_addr) {
			const struct madt_ioapic *io = (const void *)e;

			acpi_platform.ioapic_addr = io->addr;
			acpi_platform.ioapic_id = io->id;
		} else if (e->type == 2 &&
			   acpi_platform.nr_overrides < ACPI_MAX_OVERRIDES) {
			const struct madt_iso *iso = (const void *)e;
			int i = acpi_platform.nr_overrides++;

			acpi_platform.overrides[i].source = iso->source;
			acpi_platform.overrides[i].gsi = iso->gsi;
			acpi_platform.overrides[i].flags = iso->flags;
		}
		p += e->length;
	}
	if (!acpi_platform.nr_cpus)
		panic("acpi: MADT lists no enabled CPU");
	printk("acpi: MADT: %d CPUs, LAPIC %x, IOAPIC id %u at %x, %d overrides\n",
	       acpi_platform.nr_cpus, acpi_platform.lapic_addr,
	       acpi_platform.ioapic_id, acpi_platform.ioapic_addr,
	       acpi_platform.nr_overrides);
	for (int i = 0; i < acpi_platform.nr_overrides; i++)
		printk("acpi: override: ISA IRQ %u -> GSI %u (flags %x)\n",
		       acpi_platform.overrides[i].source,
		       acpi_platform.overrides[i].gsi,
		       acpi_platform.overrides[i].flags);
}
