/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemptable RCU internals shared by the files of rcu/ (and by the host
 * unit tests).  Not for use outside rcu/ and tests/.
 *
 * Names follow Linux 2.6.25 (kernel/rcupreempt.c, include/linux/
 * rcupreempt.h) and the article "Integrating and Validating dynticks and
 * Preemptable RCU", so the article can be read beside the code.
 */
#ifndef RCU_RCUPREEMPT_H
#define RCU_RCUPREEMPT_H

#include "kernel/compiler.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "rcu/rcupdate.h"

/*
 * Number of waitlist stages a callback passes through after nextlist.
 * One is not enough: CPUs see a flip at different times and readers carry
 * no memory barriers, so a callback must wait out two flips (rcu.md).
 */
#define GP_STAGES	2

enum rcu_flip_flag_values {
	rcu_flip_seen,		/* steady state: no ack owed */
	rcu_flipped,		/* flip done: this CPU must ack */
};

enum rcu_mb_flag_values {
	rcu_mb_done,		/* steady state: no mb owed */
	rcu_mb_needed,		/* waitzero done: this CPU owes an mb */
};

enum rcu_try_flip_states {
	rcu_try_flip_idle_state,	/* "I" */
	rcu_try_flip_waitack_state,	/* "A" */
	rcu_try_flip_waitzero_state,	/* "Z" */
	rcu_try_flip_waitmb_state,	/* "M" */
	RCU_TRY_FLIP_NR_STATES,
};

/*
 * Everything RCU keeps per CPU, in one cache-line-aligned struct per CPU
 * so that no two CPUs' hot fields share a line.
 */
struct rcu_data {
	/*
	 * Read side: the sum over all CPUs of rcu_flipctr[i] is the number
	 * of readers using index i.  One CPU's counter may go negative (a
	 * reader locked elsewhere and unlocked here).  Touched by this CPU's
	 * readers only (task, IRQ, NMI), with interrupts off except in NMI.
	 */
	long rcu_flipctr[2];

	/* Flip acknowledgement and memory-barrier request/response. */
	int rcu_flip_flag;		/* enum rcu_flip_flag_values */
	int rcu_mb_flag;		/* enum rcu_mb_flag_values */

	/*
	 * Dynticks interface (rcu/rcupreempt/dynticks.c).  Written only by this CPU
	 * (task, IRQ and NMI context); read remotely by the grace-period
	 * machine.  The counter is odd while the CPU may run readers and
	 * even while it is dynticks-idle; it starts at 1.
	 */
	long dynticks_progress_counter;
	long rcu_dyntick_snapshot;	/* written by the flip machine */
	int rcu_update_flag;		/* IRQ/NMI nesting begun in idle */

	/*
	 * Callbacks.  lock protects completed and the lists; only this CPU
	 * advances and invokes them; rcupreempt_barrier_entrain() may
	 * append remotely.
	 */
	struct spinlock lock;
	long completed;			/* last global completed seen */
	struct rcu_head *nextlist;
	struct rcu_head **nexttail;
	struct rcu_head *waitlist[GP_STAGES];
	struct rcu_head **waittail[GP_STAGES];
	struct rcu_head *donelist;
	struct rcu_head **donetail;
	int invoking;			/* softirq is running a donelist */

	/* Statistics (not read on any fast path). */
	u64 n_cb_invoked;
	int idle_reader_reported;	/* __rcu_read_lock() on idle CPU seen */
} __cacheline_aligned;

/* Global grace-period state. */
struct rcu_ctrlblk {
	struct spinlock fliplock;	/* trylock only: whoever wins flips */
	long completed;			/* the grace-period counter */
	int rcu_try_flip_state;		/* enum rcu_try_flip_states */
};

extern struct rcu_data rcu_data[NR_CPUS];
extern struct rcu_ctrlblk rcu_ctrlblk;
/* The CPUs the flip machine waits for (rcu/rcupreempt/rcupreempt.c). */
extern struct cpumask rcu_cpu_online_map;

#define RCU_DATA_CPU(cpu)	(&rcu_data[(cpu)])

/*
 * The 2008 flavour's entry points, under 2.6.25's names where it had them
 * (__rcu_read_lock, rcu_check_callbacks, rcu_pending, rcu_enter_nohz, ...)
 * and rcupreempt_ where the name is now the shared API's (rcu/update.c
 * dispatches to these when rcu=rcupreempt).
 */
void __rcu_read_lock(void);
void __rcu_read_unlock(void);
void rcupreempt_call_rcu(struct rcu_head *head,
			 void (*func)(struct rcu_head *head));
bool rcupreempt_barrier_entrain(int cpu, struct rcu_head *head);
long rcupreempt_batches_completed(void);
void rcupreempt_init(void);
void rcu_check_callbacks(int cpu);
int rcu_pending(int cpu);
int rcupreempt_needs_cpu(int cpu);
void rcupreempt_stats_print(void);
void rcupreempt_stats_get(struct rcu_stats_snapshot *s);

/* Dynticks interface (rcu/rcupreempt/dynticks.c). */
void rcu_enter_nohz(void);
void rcu_exit_nohz(void);
void rcu_irq_enter(void);
void rcu_irq_exit(void);

/* rcu/rcupreempt/dynticks.c */
void dyntick_save_progress_counter(int cpu);
int rcu_try_flip_waitack_needed(int cpu);
int rcu_try_flip_waitmb_needed(int cpu);
void rcu_dynticks_init_cpu(int cpu);

/* rcu/rcupreempt/rcupreempt.c */
const char *rcu_try_flip_state_name(int state);
void rcu_process_callbacks(void);

/* rcu/rcupreempt/rcupreempt_stall.c: both called with fliplock held. */
void rcu_stall_gp_start(u64 now);
void rcu_stall_check(u64 now);
/* The report alone, also for the watchdog's stranded-work check. */
void rcu_stall_report(u64 now);

/* rcu/rcupreempt/rcupreempt_stats.c: state_change with fliplock held. */
void rcu_stats_init(u64 now);
void rcu_stats_state_change(int from, int to, u64 now);
void rcu_stats_stall_reported(void);

#endif
