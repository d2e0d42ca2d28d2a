// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stacks with guard pages.  RAM stays identity-mapped by the boot
 * page tables; stacks live in their own region of 4 KiB mappings, one slot
 * per stack, whose lowest page is never mapped.  Overflowing a stack
 * touches that page and faults (reported with "guard page hit") instead
 * of silently corrupting the neighbour.  Stacks are never unmapped (slots
 * are recycled), so no TLB shootdown is ever needed.
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/mm.h"
#include "kernel/spinlock.h"
#include "kernel/string.h"
#include "arch/x86/setup.h"

#define STACK_REGION	0xffff800000000000ULL	/* PML4 slot 256 */
#define STACK_SLOT	(64 * 1024)		/* guard + stack + gap */
#define KSTACK_SIZE	(16 * 1024)
#define MAX_STACKS	4096
#define PTE_P		0x1ULL
#define PTE_W		0x2ULL
#define PTE_ADDR	0x000ffffffffff000ULL

extern u64 boot_pml4[512];

static struct spinlock stack_lock = SPINLOCK_INIT("stacks");
static unsigned int nr_slots;

static u64 *next_table(u64 *table, int idx)
{
	if (!(table[idx] & PTE_P)) {
		u64 *t = page_alloc(1);

		if (!t)
			panic("paging: out of memory for page tables");
		table[idx] = (u64)t | PTE_P | PTE_W;
	}
	return (u64 *)(table[idx] & PTE_ADDR);
}

static void map_page(u64 va, u64 pa)
{
	u64 *pdpt = next_table(boot_pml4, (va >> 39) & 511);
	u64 *pd = next_table(pdpt, (va >> 30) & 511);
	u64 *pt = next_table(pd, (va >> 21) & 511);

	pt[(va >> 12) & 511] = pa | PTE_P | PTE_W;
}

void *arch_alloc_stack(size_t *size)
{
	unsigned long flags;

	spin_lock_irqsave(&stack_lock, flags);
	if (nr_slots == MAX_STACKS)
		panic("paging: out of kernel stack slots");
	u64 base = STACK_REGION + (u64)nr_slots++ * STACK_SLOT;

	/* Page 0 of the slot is the guard: left unmapped on purpose. */
	for (u64 off = PAGE_SIZE; off <= KSTACK_SIZE; off += PAGE_SIZE) {
		void *frame = page_alloc(1);

		if (!frame)
			panic("paging: out of memory for a kernel stack");
		map_page(base + off, (u64)frame);
	}
	spin_unlock_irqrestore(&stack_lock, flags);
	*size = KSTACK_SIZE;
	return (void *)(base + PAGE_SIZE);
}

bool arch_is_stack_guard(unsigned long addr)
{
	if (addr < STACK_REGION ||
	    addr >= STACK_REGION + (u64)MAX_STACKS * STACK_SLOT)
		return false;
	return (addr - STACK_REGION) % STACK_SLOT < PAGE_SIZE;
}

/*
 * Unmap page 0, so that a NULL dereference faults instead of reading or
 * writing low memory.  The boot tables map the low 2 MiB with one large
 * page: replace it with a page table of 4 KiB pages that leaves page 0
 * out (the AP trampoline at 0x8000 and the rest stay identity-mapped).
 * Boot CPU only, before the APs start (they load these tables) and after
 * the last read of the BIOS data area (ACPI's EBDA pointer, at 0x40e).
 */
void paging_unmap_null_page(void)
{
	u64 *pdpt = (u64 *)(boot_pml4[0] & PTE_ADDR);
	u64 *pd = (u64 *)(pdpt[0] & PTE_ADDR);
	u64 *pt = page_alloc(1);

	if (!pt)
		panic("paging: out of memory for the low page table");
	pt[0] = 0;
	for (int i = 1; i < 512; i++)
		pt[i] = (u64)i * PAGE_SIZE | PTE_P | PTE_W;
	pd[0] = (u64)pt | PTE_P | PTE_W;
	/* Drop the cached 2 MiB translation: reload CR3 (no PCID here). */
	__asm__ __volatile__("movq %%cr3, %%rax\n\tmovq %%rax, %%cr3"
			     ::: "rax", "memory");
}
