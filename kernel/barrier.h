/* SPDX-License-Identifier: GPL-2.0 */
/* SMP memory barriers.  Every use must say in a comment what it orders. */
#ifndef KERNEL_BARRIER_H
#define KERNEL_BARRIER_H

#include "kernel/compiler.h"
#include "asm/barrier.h"

#define smp_mb()	arch_mb()
#define smp_rmb()	arch_rmb()
#define smp_wmb()	arch_wmb()
#define mb()		arch_mb()

/* Publish: all prior stores are visible before the pointer is. */
#define smp_store_release(p, v) \
	do { smp_wmb(); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p) \
	({ __typeof__(*(p)) ___v = READ_ONCE(*(p)); smp_rmb(); ___v; })

#endif
