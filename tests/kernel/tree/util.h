/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-kernel rcu=tree tests. */
#ifndef TESTS_KERNEL_TREE_UTIL_H
#define TESTS_KERNEL_TREE_UTIL_H

#include "kernel/ktap.h"
#include "kernel/types.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

struct rcu_node;

/* The tests of this folder SKIP under rcu=rcupreempt. */
#define TREE_ONLY()							\
	do {								\
		if (!rcu_flavor_is_tree()) {				\
			ktap_diag("rcu=tree only");			\
			return KTEST_SKIP;				\
		}							\
	} while (0)

/* How the held reader's rcu_read_unlock() runs (held.unlock). */
enum held_unlock {
	HELD_UNLOCK,			/* fully enabled */
	HELD_UNLOCK_IRQS_OFF,		/* inside local_irq_save() */
	HELD_UNLOCK_PREEMPT_OFF,	/* inside preempt_disable() */
};

/*
 * The most a region around the unlock or the spin after it lasts if the
 * test never ends it: below watchdog_thresh (10 s) for IRQs off, above
 * what a test waits for a host stall (HOST_STALL_MS) before it looks.
 */
#define HELD_REGION_MAX_MS	8000

/* A reader held on one CPU until released (one at a time). */
struct held_reader {
	volatile int started, release, unlocked, done;
	volatile int region_release;	/* end the region around the unlock */
	volatile int exit;		/* end the spin after the region */
	bool preempt;		/* preempted inside the reader, again and again */
	enum held_unlock unlock;
	/*
	 * Read by the reader right after its unlock, before anything else
	 * could run on its CPU: HELD_UNLOCK, did the unlock take it off
	 * blkd_tasks?  The others, is it still on them (deferred)?
	 */
	bool left_at_unlock, blocked_in_region;
	/*
	 * The others: when the region ended (guest ns).  Then the reader
	 * spins, busy and preemptible, until exit: it neither switches nor
	 * exits by itself, so only a tick, an interrupt's return or a
	 * preemption can finish the work its unlock deferred.
	 */
	volatile u64 region_end_ns;
	struct task *task;
};

extern struct held_reader held;

/* Start the reader on cpu and return once it is inside its section. */
void held_start(int cpu, bool preempt);
/* Release it (and any region) and wait for its thread to end: 0, or 1. */
int held_stop(void);
/* Is held.task on rnp's blkd_tasks?  *holds: and does it hold the GP? */
bool held_queued(struct rcu_node *rnp, bool *holds);

/* Expedited IPIs taken by every online CPU but self: each counter rises. */
u64 exp_ipis_others(int self);
/*
 * Every online CPU but self took no tick, no interrupt and no expedited
 * IPI since before (kfree'd here) and ipis0: 0, or 1 (reported) if not.
 */
int idle_cpus_quiet(int self, struct cpu_counts *before, u64 ipis0,
		    const char *what);

#endif
