// SPDX-License-Identifier: GPL-2.0
/*
 * PVH boot information (QEMU's direct -kernel boot): struct hvm_start_info
 * from Xen's public arch-x86/hvm/start_info.h, version 1 or later.
 */
#include "asm/arch.h"
#include "kernel/boot.h"
#include "kernel/bug.h"
#include "arch/x86/setup.h"

#define PVH_MAGIC		0x336ec578
#define PVH_MEMMAP_RAM		1

struct hvm_start_info {
	u32 magic;
	u32 version;
	u32 flags;
	u32 nr_modules;
	u64 modlist_paddr;
	u64 cmdline_paddr;
	u64 rsdp_paddr;
	u64 memmap_paddr;		/* version >= 1 */
	u32 memmap_entries;
	u32 reserved;
} __packed;

struct hvm_memmap_entry {
	u64 addr;
	u64 size;
	u32 type;
	u32 reserved;
} __packed;


bool pvh_boot_info(struct boot_info *bi, u64 magic, u64 info_addr)
{
	static char empty[] = "";
	const struct hvm_start_info *si = (const void *)info_addr;

	if (magic != PVH_MAGIC)
		return false;
	if (si->magic != PVH_MAGIC)
		panic("pvh: start_info magic %x", si->magic);
	if (si->version < 1 || !si->memmap_paddr)
		panic("pvh: start_info version %u has no memory map",
		      si->version);
	bi->cmdline = si->cmdline_paddr ? (const char *)si->cmdline_paddr :
					  empty;
	bi->acpi_rsdp = si->rsdp_paddr;
	bi->reserved_end = (u64)__kernel_end;
	const struct hvm_memmap_entry *m = (const void *)si->memmap_paddr;

	for (u32 i = 0; i < si->memmap_entries; i++) {
		if (m[i].type != PVH_MEMMAP_RAM || bi->nr_ram == MAX_MEM_RANGES)
			continue;
		bi->ram[bi->nr_ram].base = m[i].addr;
		bi->ram[bi->nr_ram].len = m[i].size;
		bi->nr_ram++;
	}
	return true;
}
