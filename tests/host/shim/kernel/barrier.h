/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim for kernel/barrier.h.  The host tests are single-threaded
 * (simulated CPUs run one after another), so a compiler barrier orders
 * enough; smp_mb() is also a hook point for simulated NMIs and counts
 * executions so tests can check a barrier was executed.
 */
#ifndef KERNEL_BARRIER_H
#define KERNEL_BARRIER_H

#include "kernel/compiler.h"

void shim_hook(const char *where);
void shim_mb(void);

#define smp_mb()	shim_mb()
#define smp_rmb()	barrier()
#define smp_wmb()	barrier()
#define mb()		shim_mb()

#define smp_store_release(p, v) \
	do { smp_wmb(); WRITE_ONCE(*(p), (v)); } while (0)
#define smp_load_acquire(p) \
	({ __typeof__(*(p)) ___v = READ_ONCE(*(p)); smp_rmb(); ___v; })

#endif
