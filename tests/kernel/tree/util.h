/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-kernel rcu=tree tests. */
#ifndef TESTS_KERNEL_TREE_UTIL_H
#define TESTS_KERNEL_TREE_UTIL_H

#include "kernel/ktap.h"
#include "kernel/types.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

/* The tests of this folder SKIP under rcu=rcupreempt. */
#define TREE_ONLY()							\
	do {								\
		if (!rcu_flavor_is_tree()) {				\
			ktap_diag("rcu=tree only");			\
			return KTEST_SKIP;				\
		}							\
	} while (0)

/* A reader held on one CPU until released (one at a time). */
struct held_reader {
	volatile int started, release, unlocked, done;
	volatile int irqoff_release;	/* end the IRQs-off spin now */
	bool preempt;		/* preempted inside the reader, again and again */
	/*
	 * Then spin with IRQs off after unlock, until irqoff_release (the
	 * test has looked) or for at most this long (0: no spin).
	 */
	unsigned int irqoff_ms;
	struct task *task;
};

extern struct held_reader held;

/* Start the reader on cpu and return once it is inside its section. */
void held_start(int cpu, bool preempt);
/* Release it and wait for its thread to end: 0, or 1 if it did not. */
int held_stop(void);

/* Expedited IPIs taken by every online CPU but self: each counter rises. */
u64 exp_ipis_others(int self);
/*
 * Every online CPU but self took no tick, no interrupt and no expedited
 * IPI since before (kfree'd here) and ipis0: 0, or 1 (reported) if not.
 */
int idle_cpus_quiet(int self, struct cpu_counts *before, u64 ipis0,
		    const char *what);

#endif
