/* SPDX-License-Identifier: GPL-2.0 */
/* x86-64 memory barriers. */
#ifndef ARCH_X86_BARRIER_H
#define ARCH_X86_BARRIER_H

/*
 * A locked RMW on the stack is a full barrier on x86 (it drains the
 * store buffer, which is the only reordering TSO allows: a later load
 * passing an earlier store) and is cheaper than mfence.
 */
#define arch_mb() \
	__asm__ __volatile__("lock; addl $0,-4(%%rsp)" ::: "memory", "cc")
/* TSO keeps load->load and store->store order: a compiler barrier will do. */
#define arch_rmb()	__asm__ __volatile__("" ::: "memory")
#define arch_wmb()	__asm__ __volatile__("" ::: "memory")

#endif
