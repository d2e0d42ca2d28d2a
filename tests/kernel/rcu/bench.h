/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark hooks share (tests/kernel/rcu/bench.c, both flavours;
 * tests/kernel/rcupreempt/bench_irq_cost.c): the cycle measurement, and
 * the boot-time figure the first of them prints.
 */
#ifndef TESTS_KERNEL_RCU_BENCH_H
#define TESTS_KERNEL_RCU_BENCH_H

#include "kernel/compiler.h"
#include "kernel/time.h"

#define LOOPS		5000
#define REPS		15

/*
 * The fastest of REPS runs of LOOPS iterations (after one warm-up run,
 * which under TCG also pays for translating the loop), in hundredths of
 * a cycle per iteration.  The minimum, not the median: a run that a tick
 * or the host's other work lands in is only ever slower, and on a loaded
 * shared host most runs are disturbed.
 */
#define MEASURE(result, body) do {					\
	u64 __best = ~0ULL;						\
	for (int __k = 0; __k <= REPS; __k++) {				\
		u64 __t0 = get_cycles();				\
		u64 __c;						\
		for (int __i = 0; __i < LOOPS; __i++) {			\
			body;						\
			barrier();					\
		}							\
		__c = (get_cycles() - __t0) * 100 / LOOPS;		\
		if (__k > 0 && __c < __best)				\
			__best = __c;					\
	}								\
	(result) = __best;						\
} while (0)

/* "12.34" from hundredths. */
#define C100(x)	(x) / 100, (x) % 100

/* The first benchmark to run reports how long the boot took. */
void bench_boot_time(void);

/*
 * A preemptible busy loop on every online CPU but self (so each takes its
 * tick and is never idle), until bench_spin_stop(); returns how many.
 */
int bench_spin_start(int self);
void bench_spin_stop(void);

#endif
