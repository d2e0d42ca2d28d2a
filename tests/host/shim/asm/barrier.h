/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim for arch/x86/barrier.h.  The host tests are single-threaded
 * (simulated CPUs take turns), so compiler barriers order enough.  The full
 * barrier is a function: a hook point for simulated NMIs, counted, and
 * optionally probed, so tests can see where a barrier executes.
 */
#ifndef ARCH_X86_BARRIER_H
#define ARCH_X86_BARRIER_H

void shim_mb(void);

#define arch_mb()	shim_mb()
#define arch_rmb()	__asm__ __volatile__("" ::: "memory")
#define arch_wmb()	__asm__ __volatile__("" ::: "memory")

#endif
