/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sets of CPUs, as bitmaps of NR_CPUS bits.  Linux's names; only what
 * dynrcu uses.  Each word is read and written whole (READ_ONCE, atomic
 * OR/AND), so a reader racing with an update sees each CPU's bit either
 * before or after it, never torn; a reader that needs the whole set
 * consistent takes a copy under whatever lock serialises the updates.
 */
#ifndef KERNEL_CPUMASK_H
#define KERNEL_CPUMASK_H

#include "kernel/compiler.h"

#define CPUMASK_WORDS	(NR_CPUS / 64)

struct cpumask {
	u64 bits[CPUMASK_WORDS];
};

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return (READ_ONCE(m->bits[cpu / 64]) >> (cpu % 64)) & 1;
}

/* Atomic, fully ordered: other CPUs may test or set bits meanwhile. */
static inline void cpumask_set_cpu(int cpu, struct cpumask *m)
{
	__atomic_or_fetch(&m->bits[cpu / 64], 1ULL << (cpu % 64),
			  __ATOMIC_SEQ_CST);
}

/* Atomic, fully ordered, as cpumask_set_cpu(). */
static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	__atomic_and_fetch(&m->bits[cpu / 64], ~(1ULL << (cpu % 64)),
			   __ATOMIC_SEQ_CST);
}

#define for_each_cpu(c, m) \
	for ((c) = 0; (c) < NR_CPUS; (c)++) \
		if (!cpumask_test_cpu((c), (m))) {} else

/* Plain: for a mask only its owner writes (under a lock, or a task's own). */
static inline void __cpumask_set_cpu(int cpu, struct cpumask *m)
{
	m->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline void cpumask_clear(struct cpumask *m)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		WRITE_ONCE(m->bits[i], 0);
}

/* CPUs 0..n-1. */
static inline void cpumask_set_first(struct cpumask *m, int n)
{
	for (int i = 0; i < CPUMASK_WORDS; i++, n -= 64)
		WRITE_ONCE(m->bits[i], n >= 64 ? ~0ULL :
				       n > 0 ? (1ULL << n) - 1 : 0);
}

static inline unsigned int hweight64(u64 w)
{
	unsigned int n = 0;

	for (; w; w &= w - 1)	/* no libgcc: count bits by hand */
		n++;
	return n;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int n = 0;

	for (int i = 0; i < CPUMASK_WORDS; i++)
		n += hweight64(READ_ONCE(m->bits[i]));
	return n;
}

#endif
