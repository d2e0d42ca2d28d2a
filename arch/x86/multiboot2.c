// SPDX-License-Identifier: GPL-2.0
/* Multiboot2 boot information: command line, memory map, ACPI RSDP. */
#include "asm/arch.h"
#include "kernel/boot.h"
#include "kernel/bug.h"
#include "arch/x86/setup.h"

#define MB2_MAGIC		0x36d76289
#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_MODULE		3
#define MB2_TAG_MMAP		6
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15
#define MB2_MMAP_AVAILABLE	1

struct mb2_tag {
	u32 type;
	u32 size;
};

struct mb2_mmap_entry {
	u64 base;
	u64 len;
	u32 type;
	u32 reserved;
};



/* Multiboot2 (GRUB, the ISO) or PVH (QEMU -kernel): the magic says which. */
void arch_boot_info(struct boot_info *bi, u64 magic, u64 info_addr)
{
	static char empty[] = "";
	u32 total = *(u32 *)info_addr;

	if (pvh_boot_info(bi, magic, info_addr))
		return;
	if (magic != MB2_MAGIC)
		panic("not booted by a multiboot2 or PVH loader (magic %x)",
		      (unsigned int)magic);
	bi->cmdline = empty;
	bi->reserved_end = (u64)__kernel_end;
	if (info_addr + total > bi->reserved_end)
		bi->reserved_end = ALIGN_UP(info_addr + total, 4096);

	for (u64 p = info_addr + 8; p < info_addr + total;
	     p += ALIGN_UP(((struct mb2_tag *)p)->size, 8)) {
		struct mb2_tag *tag = (struct mb2_tag *)p;

		switch (tag->type) {
		case MB2_TAG_END:
			return;
		case MB2_TAG_CMDLINE:
			bi->cmdline = (const char *)(p + 8);
			break;
		case MB2_TAG_MODULE: {
			u32 end = *(u32 *)(p + 12);

			if (end > bi->reserved_end)
				bi->reserved_end = ALIGN_UP((u64)end, 4096);
			break;
		}
		case MB2_TAG_MMAP: {
			u32 esize = *(u32 *)(p + 8);

			for (u64 e = p + 16; e < p + tag->size; e += esize) {
				struct mb2_mmap_entry *m = (void *)e;

				if (m->type != MB2_MMAP_AVAILABLE ||
				    bi->nr_ram == MAX_MEM_RANGES)
					continue;
				bi->ram[bi->nr_ram].base = m->base;
				bi->ram[bi->nr_ram].len = m->len;
				bi->nr_ram++;
			}
			break;
		}
		case MB2_TAG_ACPI_OLD:
		case MB2_TAG_ACPI_NEW:
			/* The tag holds a copy of the RSDP itself. */
			if (!bi->acpi_rsdp || tag->type == MB2_TAG_ACPI_NEW)
				bi->acpi_rsdp = p + 8;
			break;
		}
	}
}
