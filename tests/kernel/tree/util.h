/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-kernel rcu=tree tests. */
#ifndef TESTS_KERNEL_TREE_UTIL_H
#define TESTS_KERNEL_TREE_UTIL_H

#include "kernel/ktap.h"
#include "kernel/sched.h"
#include "kernel/time.h"
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

/* ... and those that need a second CPU SKIP on one. */
#define TREE_SMP_ONLY()							\
	do {								\
		TREE_ONLY();						\
		if (num_online_cpus() < 2) {				\
			ktap_diag("needs 2 CPUs");			\
			return KTEST_SKIP;				\
		}							\
	} while (0)

/* A reader held on one CPU until released (one at a time). */
struct held_reader {
	volatile int started, release, unlocked, done;
	volatile int irqoff_release;	/* end the IRQs-off spin now */
	bool sleep;		/* sleep inside the reader (preempted) */
	/*
	 * Then spin with IRQs off after unlock, until irqoff_release (the
	 * test has looked) or for at most this long (0: no spin).
	 */
	unsigned int irqoff_ms;
	struct task *task;
};

extern struct held_reader held;

/* Start the reader on cpu and return once it is inside its section. */
void held_start(int cpu, bool sleep);
/* Release it and wait for its thread to end: 0, or 1 if it did not. */
int held_stop(void);

/*
 * Poll every millisecond (sleeping) until cond holds, at most
 * HOST_STALL_MS: a bound on a host stall, not a figure.  Its value: cond.
 */
#define poll_until(cond) ({						\
	u64 __t0 = ktime_get_ns();					\
	while (!(cond) &&						\
	       ktime_get_ns() - __t0 < HOST_STALL_MS * NSEC_PER_MSEC)	\
		msleep(1);						\
	!!(cond);							\
})

/*
 * t is asleep (switched out in TASK_SLEEPING), as a caller of
 * synchronize_rcu_expedited() is while its grace period waits.
 */
bool task_sleeping(struct task *t);

/*
 * A reader preempted, not asleep, on one CPU: the task takes
 * rcu_read_lock(), then asks for a reschedule and takes it at
 * preempt_enable() again and again, so that a hog (a spinner outside any
 * reader) runs on that CPU while the task waits on the run queue inside
 * its reader, on its leaf's blkd_tasks.  unlock ends it.
 */
struct preempted_reader {
	struct task *task;
	volatile int unlock, done;
	volatile u64 spins;	/* the hog's count */
	volatile int hog_stop;
};

/* Start p on cpu; return once it is on blkd_tasks: 0, or 1 (reported). */
int preempted_reader_start(struct preempted_reader *p, int cpu,
			   const char *name);
/* Let p unlock and wait for it, stop its hog: 0, or 1 if it hung. */
int preempted_reader_stop(struct preempted_reader *p);

/*
 * The expedited grace period waits on cpu's leaf alone, there on cpu's
 * bit if cpu_bit and on ntasks blocked tasks: every other node is done,
 * and each node above the leaf holds only the bit of its child on the
 * way.  Read without the locks: for a state that has settled.
 */
bool exp_waits_only_on(int cpu, bool cpu_bit, int ntasks);

/* Expedited IPIs taken by every online CPU but self: each counter rises. */
u64 exp_ipis_others(int self);
/*
 * Every online CPU but self took no tick, no interrupt and no expedited
 * IPI since before (kfree'd here) and ipis0: 0, or 1 (reported) if not.
 */
int idle_cpus_quiet(int self, struct cpu_counts *before, u64 ipis0,
		    const char *what);

#endif
