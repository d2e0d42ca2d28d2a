/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the two RCU flavours and rcu/update.c: the table
 * each flavour fills in, and the grace-period sequence helpers (after
 * Linux's kernel/rcu/rcu.h).  Not for use outside rcu/ and tests/.
 */
#ifndef RCU_RCU_H
#define RCU_RCU_H

#include "kernel/compiler.h"
#include "rcu/rcupdate.h"

/*
 * One flavour: everything but the read side (see rcu/update.c).  Every
 * member but synchronize_rcu_expedited, start_poll_synchronize_rcu,
 * note_context_switch and the cpuidle pair is required: what differs
 * between the flavours is here, what they share (synchronize_rcu(), the
 * rcu_barrier() counting) is in rcu/rcupdate_wait.c.
 */
struct rcu_flavor_ops {
	const char *name;		/* its rcu= value */
	void (*init)(void);
	void (*call_rcu)(struct rcu_head *head,
			 void (*func)(struct rcu_head *head));
	/*
	 * call_rcu() for a waiter (synchronize_rcu()): asks for its grace
	 * period at once.  NULL: call_rcu() already does.
	 */
	void (*call_rcu_hurry)(struct rcu_head *head,
			       void (*func)(struct rcu_head *head));
	void (*synchronize_rcu_expedited)(void);	/* NULL: normal GP */
	/*
	 * rcu_barrier()'s one flavour-specific step: queue head behind
	 * every callback on cpu's list, or return false (queueing nothing)
	 * if cpu has no callback queued or in hand.
	 */
	bool (*barrier_entrain)(int cpu, struct rcu_head *head);
	long (*batches_completed)(void);
	unsigned long (*get_state_synchronize_rcu)(void);
	/* NULL: it cannot start a grace period on request (get_state's) */
	unsigned long (*start_poll_synchronize_rcu)(void);
	bool (*poll_state_synchronize_rcu)(unsigned long cookie);
	void (*sched_clock_irq)(int cpu);
	int (*needs_cpu)(int cpu);
	long (*cb_count)(int cpu);	/* counted, not needs_cpu()'s word */
	void (*stall_report)(u64 now);	/* who holds the grace period */
	void (*note_context_switch)(bool preempt);	/* may be NULL */
	/*
	 * CPU hotplug (rcu_cpu_starting() and friends, rcu/rcupdate.h).
	 * cpu_starting and report_dead may be NULL; cpu_dead NULL means
	 * the flavour cannot take a CPU offline (cpu_down() refuses).
	 */
	void (*cpu_starting)(int cpu);
	void (*report_dead)(int cpu);
	void (*cpu_dead)(int cpu);
	void (*idle_enter)(void);
	void (*idle_exit)(void);
	/* Around a halt with the tick on (rcu_cpuidle_enter()): may be NULL. */
	void (*cpuidle_enter)(void);
	void (*cpuidle_exit)(void);
	void (*irq_enter)(void);
	void (*irq_exit)(void);
	void (*nmi_enter)(void);
	void (*nmi_exit)(void);
	bool (*cpu_watching)(int cpu);
	long (*cpu_watching_counter)(int cpu);
	bool (*entered_from_idle)(unsigned int depth);
	const char *(*gp_state_name)(void);
	void (*stats_print)(void);
	void (*stats_get)(struct rcu_stats_snapshot *s);
	/*
	 * rcu/torture.c's hooks.  read_lock_delay_set: the outermost
	 * rcu_read_lock() in task context calls hook (when non-NULL) at
	 * the point from which the grace-period machine must wait for the
	 * reader, before the reader's first access (docs/torture.md).
	 * torture_gp_passed: called inside a reader whose outermost
	 * rcu_read_lock() ran with IRQs off, right after g0 =
	 * rcu_batches_completed() under the same IRQs-off section: has the
	 * machine gone further than a correct one can while the reader
	 * holds on?
	 */
	void (*read_lock_delay_set)(void (*hook)(void));
	bool (*torture_gp_passed)(long g0);
};

/* The flavour chosen at boot (rcu/update.c), for rcu/torture.c. */
void rcu_read_lock_delay_set(void (*hook)(void));
bool rcu_torture_gp_passed(long g0);
/*
 * Does the flavour have these of its own?  If not, the API falls back:
 * synchronize_rcu_expedited() waits for a normal grace period, and
 * start_poll_synchronize_rcu() hands out get_state's cookie, starting
 * nothing.  The torture test says so instead of counting them as tested.
 */
bool rcu_has_expedited(void);
bool rcu_has_start_poll(void);
/* Callbacks queued on cpu, counted (not those being invoked). */
long rcu_cb_count(int cpu);

/*
 * rcu/rcupdate_wait.c, after Linux's wait_rcu_gp(): what both flavours
 * build from their own call_rcu() and barrier_entrain.
 */
void wait_rcu_gp(void (*crf)(struct rcu_head *head,
			     void (*func)(struct rcu_head *head)));
void wait_rcu_barrier(bool (*entrain)(int cpu, struct rcu_head *head));

/* rcu_cpu_stall_timeout=: seconds before a stall report (rcu/update.c). */
extern unsigned int rcu_cpu_stall_timeout;

/* make bench's GP machinery accounting (rcu/update.c). */
extern int rcu_account_gp_cycles;
extern u64 rcu_gp_kthread_cycles;	/* a flavour's GP kthread adds */
u64 rcu_gp_machinery_cycles(void);

extern const struct rcu_flavor_ops rcupreempt_flavor_ops;
extern const struct rcu_flavor_ops tree_flavor_ops;

/*
 * Grace-period sequence numbers (rcu=tree).  The low RCU_SEQ_CTR_SHIFT
 * bits are the phase (0: idle, 1: a grace period in progress), the rest
 * counts grace periods.
 */
#define RCU_SEQ_CTR_SHIFT	2
#define RCU_SEQ_STATE_MASK	((1UL << RCU_SEQ_CTR_SHIFT) - 1)

/* a is before b, with wrap-around. */
#define ULONG_CMP_GE(a, b)	(~0UL / 2 >= (a) - (b))
#define ULONG_CMP_LT(a, b)	(~0UL / 2 < (a) - (b))

static inline unsigned long rcu_seq_ctr(unsigned long s)
{
	return s >> RCU_SEQ_CTR_SHIFT;
}

static inline int rcu_seq_state(unsigned long s)
{
	return s & RCU_SEQ_STATE_MASK;
}

/*
 * Start a grace period.  Callers serialise: the root rcu_node's lock for
 * rcu_state.gp_seq, exp_mutex for the expedited sequence.
 */
static inline void rcu_seq_start(unsigned long *sp)
{
	WRITE_ONCE(*sp, *sp + 1);
	/* Orders the start before the grace period's accesses (the masks). */
	smp_mb();
}

/* End it: every access of the grace period is ordered before. */
static inline void rcu_seq_end(unsigned long *sp)
{
	/* Orders the grace period's accesses before the new value. */
	smp_mb();
	WRITE_ONCE(*sp, (*sp | RCU_SEQ_STATE_MASK) + 1);
}

/*
 * The value *sp will have once a full grace period has elapsed from now:
 * the end of the next grace period to start (if one is in progress, the
 * one after it).
 */
static inline unsigned long rcu_seq_snap(unsigned long *sp)
{
	unsigned long s;

	s = (READ_ONCE(*sp) + 2 * RCU_SEQ_STATE_MASK + 1) &
	    ~RCU_SEQ_STATE_MASK;
	/* Orders the load above before the caller's later accesses. */
	smp_mb();
	return s;
}

/* Has the grace period of snapshot s elapsed? */
static inline bool rcu_seq_done(unsigned long *sp, unsigned long s)
{
	return ULONG_CMP_GE(READ_ONCE(*sp), s);
}

#endif
