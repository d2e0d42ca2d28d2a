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

struct rcu_node;

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
	bool disturbed_at_unlock;	/* a tick or a switch came between */
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

/*
 * Has leaf rnp started (or already ended) the grace period that a
 * get_state/start_poll cookie c waits for?  Read without the lock: a
 * leaf's gp_seq only grows.
 */
bool leaf_has_gp(struct rcu_node *rnp, unsigned long c);

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
