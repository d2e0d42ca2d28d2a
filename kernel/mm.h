/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Physical page frames and kmalloc.  RAM is identity-mapped, so a frame's
 * physical address is also its kernel virtual address.  Both allocators
 * take a lock with IRQs off: usable from any CPU and from IRQ handlers,
 * never from NMI handlers.
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

void *kmalloc(size_t size);		/* zeroed; NULL on failure */
void kfree(void *p);
/* The memory a kmalloc() block takes, its header included. */
size_t kmalloc_block_size(const void *p);

#endif
