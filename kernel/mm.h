/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Physical page frames and kmalloc.  RAM is identity-mapped, so a frame's
 * physical address is also its kernel virtual address.  Both allocators
 * run with IRQs off (the frame allocator under a lock, kmalloc() on its
 * CPU's own lists, kernel/mm.c): usable from any CPU and from IRQ
 * handlers, never from NMI handlers.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include "kernel/types.h"

#define PAGE_SIZE	4096UL

struct boot_info;

void mm_init(struct boot_info *bi);
/* n contiguous zeroed pages, or NULL. */
void *page_alloc(size_t n);
void page_free(void *p, size_t n);
size_t mm_free_pages(void);

/*
 * kmalloc()'s size classes: 32 bytes to 2 KiB, powers of two; larger
 * requests take whole pages.
 */
#define KM_MIN_SHIFT	5
#define KM_MAX_SHIFT	11
#define KM_CLASSES	(KM_MAX_SHIFT - KM_MIN_SHIFT + 1)

/*
 * A CPU's own free blocks of each class, in struct percpu: kmalloc()
 * and kfree() take and give here with IRQs off and no lock.
 */
struct km_cpu_cache {
	struct km_free *head[KM_CLASSES];
	u32 count[KM_CLASSES];
};

void *kmalloc(size_t size);		/* zeroed; NULL on failure */
void kfree(void *p);
/* The memory a kmalloc() block takes, its header included. */
size_t kmalloc_block_size(const void *p);

#endif
