/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-copy update: the public API.
 *
 * One API, two implementations ("flavours"), chosen at boot by rcu=:
 *   rcu=rcupreempt (default): Linux 2.6.25's preemptable RCU with its
 *     dynticks interface, the 2008 article's design (rcu/rcupreempt/;
 *     internals in rcu/rcupreempt/rcupreempt.h);
 *   rcu=tree: context tracking's atomic counter and preemptible Tree RCU,
 *     the article's conclusion as Linux 6.12 built it (rcu/tree/;
 *     internals in rcu/tree/tree.h).
 * rcu/update.c holds what both share: the rcu= option and the dispatch;
 * rcu/rcupdate_wait.c builds synchronize_rcu() and rcu_barrier() from
 * either flavour's operations.
 * Readers may be preempted, may migrate, may nest, and may run in task,
 * IRQ and NMI context, in either flavour.
 */
#ifndef RCU_RCUPDATE_H
#define RCU_RCUPDATE_H

#include "kernel/compiler.h"
#include "kernel/barrier.h"
#include "kernel/jump_label.h"
#include "rcu/tree/tree_read.h"

/*
 * One queued callback.  Embed it in the object to be freed and recover the
 * object with container_of() in the callback.
 */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

/*
 * Read side, inline in the caller.  A static key (kernel/jump_label.h),
 * set once at boot, picks the flavour with no load: rcu=tree's read side
 * runs inline here (rcu/tree/tree_read.h: a nesting count and one test
 * at the outermost unlock); rcu=rcupreempt's is a jump to a call of its
 * out-of-line functions, whose outermost lock and unlock run with local
 * interrupts disabled in a careful order against NMIs.  Legal in task,
 * softirq, hardirq and NMI context, in either flavour.  No reader may
 * run before rcu_init(), which sets the key.
 */
DECLARE_STATIC_KEY_FALSE(rcu_flavor_tree_key);
void __rcu_read_lock(void);		/* rcu/rcupreempt/rcupreempt.c */
void __rcu_read_unlock(void);

static __always_inline void rcu_read_lock(void)
{
	if (static_branch_likely(&rcu_flavor_tree_key))
		__rcu_tree_read_lock();
	else
		__rcu_read_lock();
}

static __always_inline void rcu_read_unlock(void)
{
	if (static_branch_likely(&rcu_flavor_tree_key))
		__rcu_tree_read_unlock();
	else
		__rcu_read_unlock();
}

/*
 * rcu_dereference() - fetch an RCU-protected pointer for dereferencing.
 *
 * Compiler: READ_ONCE() makes this exactly one load that the compiler may
 * neither repeat (a second load could see a different, newer pointer than
 * the one whose fields we then read) nor hoist out of the read-side
 * critical section.
 * CPU: the loads through the returned pointer carry an address dependency
 * on this load, which orders them after it on every CPU this kernel runs
 * on (all but DEC Alpha honour dependency ordering), so they see at least
 * the initialisation that rcu_assign_pointer() published.
 */
#define rcu_dereference(p) ({						\
	__typeof__(p) ___rcu_p = READ_ONCE(p);				\
	___rcu_p;							\
})

/*
 * rcu_assign_pointer() - publish a pointer to a fully initialised object.
 *
 * smp_store_release() puts smp_wmb() (CPU and compiler) between the
 * caller's stores that initialise *v and the store of the pointer, so a
 * reader that sees the new pointer through rcu_dereference() also sees the
 * initialised fields.  WRITE_ONCE() keeps the compiler from tearing the
 * pointer store.  Returns nothing (use it as a statement).
 */
#define rcu_assign_pointer(p, v)	smp_store_release(&(p), (v))

/*
 * Queue func(head) to run after every RCU read-side critical section that
 * is in progress now has finished.  Callable from task, softirq and hardirq
 * context (not NMI: it takes the per-CPU callback lock).  The callback runs
 * in RCU_SOFTIRQ context on the CPU that queued it.
 */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));

/* Wait for a full grace period.  Task context only (it sleeps). */
void synchronize_rcu(void);

/*
 * Wait for a full grace period, sooner, at the price of IPIs to CPUs that
 * are not idle.  rcu=rcupreempt has no expedited machinery and waits for a
 * normal grace period.  Task context only.
 */
void synchronize_rcu_expedited(void);

/*
 * The polled API.  get_state_synchronize_rcu() returns a cookie; once
 * poll_state_synchronize_rcu(cookie) returns true, a full grace period has
 * elapsed since the get.  start_poll_synchronize_rcu() also makes sure a
 * grace period will start (rcu=tree; rcu=rcupreempt's asks for nothing,
 * see rcu/rcupreempt/rcupreempt.c).  cond_synchronize_rcu(cookie) waits
 * only if the grace period has not elapsed yet.
 */
unsigned long get_state_synchronize_rcu(void);
unsigned long start_poll_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long cookie);
void cond_synchronize_rcu(unsigned long cookie);

/* Wait until every callback queued before the call has run.  Task only. */
void rcu_barrier(void);

/*
 * A grace-period counter that rises as grace periods complete: the 2008
 * flavour's `completed` (one per flip), the tree's completed grace periods
 * (gp_seq >> RCU_SEQ_CTR_SHIFT).  For tests and torture statistics.
 */
long rcu_batches_completed(void);

/* ---- Which flavour runs (rcu/update.c) ---- */

enum rcu_flavor_id {
	RCU_FLAVOR_RCUPREEMPT,		/* rcu=rcupreempt, the default */
	RCU_FLAVOR_TREE,		/* rcu=tree */
};
/* Set once from rcu= before rcu_init(); read on every reader. */
extern int rcu_flavor;
static inline bool rcu_flavor_is_tree(void)
{
	return rcu_flavor == RCU_FLAVOR_TREE;
}
const char *rcu_flavor_name(void);
/* Checks rcu= after the command line is parsed; false stops the boot. */
bool rcu_select_flavor(void);

/* ---- Kernel hooks: see docs/rcu.md, "What the kernel calls". ---- */

/* Once, on the boot CPU, before other CPUs start and before any reader. */
void rcu_init(void);

/*
 * CPU hotplug (kernel/hotplug.c).  rcu_cpu_starting(): on a CPU coming
 * up (at boot too), IRQs off, before it is online and before its first
 * reader.  rcu_report_dead(): on a dying CPU, IRQs off, after its last
 * reader.  rcu_cpu_dead(): on another CPU, task context, once the dead
 * one is parked: its callbacks move.  rcu_hotplug_supported(): false if
 * the flavour cannot take a CPU offline.
 */
void rcu_cpu_starting(int cpu);
void rcu_report_dead(int cpu);
void rcu_cpu_dead(int cpu);
bool rcu_hotplug_supported(void);

/* From each CPU's scheduling-clock tick: hardirq context, IRQs off. */
void rcu_sched_clock_irq(int cpu);
/* True while cpu has callbacks queued: keep its tick running. */
int rcu_needs_cpu(int cpu);
/* The watchdog: report RCU work stranded on tickless CPUs (rcu/update.c). */
void rcu_check_stranded(u64 now);
/*
 * From __schedule(), IRQs off, before the switch: a context switch is a
 * quiescent state, and a task preempted inside a reader must be queued
 * (rcu=tree; a no-op for rcu=rcupreempt, whose readers need nothing).
 */
void rcu_note_context_switch(bool preempt);

/*
 * The idle, IRQ and NMI hooks.  rcu=rcupreempt: rcu_enter_nohz(),
 * rcu_exit_nohz(), and rcu_irq_enter()/rcu_irq_exit() for both IRQs and
 * NMIs (rcu/rcupreempt/dynticks.c).  rcu=tree: ct_idle_enter(), ct_idle_exit(),
 * ct_irq_enter()/ct_irq_exit(), ct_nmi_enter()/ct_nmi_exit()
 * (rcu/tree/context_tracking.c).  The IRQ and NMI hooks run outside the
 * hardirq count (kernel/irq.c).
 */
void rcu_idle_enter(void);
void rcu_idle_exit(void);
/*
 * Around one halt with the tick still running (callbacks queued, a
 * softirq pending, a tick dependency, nohz=off), IRQs off.  rcu=tree:
 * ct_idle_enter()/ct_idle_exit(), as Linux 6.12 enters the extended
 * quiescent state around every idle period (ct_cpuidle_enter()), so that
 * FQS excuses the CPU instead of waiting for its tick.  rcu=rcupreempt:
 * nothing (2.6.25 entered dynticks idle only with the tick stopped).
 */
void rcu_cpuidle_enter(void);
void rcu_cpuidle_exit(void);
void rcu_hardirq_enter(void);
void rcu_hardirq_exit(void);
void rcu_nmi_enter(void);
void rcu_nmi_exit(void);

/* Is RCU watching cpu now (not in an extended quiescent state)? */
bool rcu_cpu_watching(int cpu);
/*
 * The per-CPU counter behind that answer, for diagnostics: the 2008
 * dynticks_progress_counter (odd: watching), the tree's ct->state.
 */
long rcu_cpu_watching_counter(int cpu);
/*
 * From a handler at hardirq depth `depth` (an NMI counts one): did the
 * outermost handler of this nest find the CPU idle to RCU and wake it?
 * The 2008 flavour's rcu_update_flag == depth; the tree's nmi_nesting ==
 * 2 * depth - 1 (1 for the handler that woke RCU, 2 for each nested one).
 */
bool rcu_entered_from_idle(unsigned int depth);
/* The grace-period machine's state, for diagnostics. */
const char *rcu_gp_state_name(void);

/* Print the RCU statistics as KTAP "# " diagnostics. */
void rcu_stats_print(void);

/* A snapshot of the statistics, for tests (fields a flavour lacks are 0). */
struct rcu_stats_snapshot {
	u64 gp_completed;		/* grace periods completed */
	u64 flips;			/* grace periods started */
	u64 gp_lat_min_ns;
	u64 gp_lat_median_ns;
	u64 gp_lat_max_ns;
	u64 state_ns[4];		/* rcu=rcupreempt: per flip state */
	u64 cb_invoked;
	u64 stalls;			/* stall reports printed */
	u64 exp_completed;		/* rcu=tree: expedited GPs */
	u64 fqs_scans;			/* rcu=tree: force_qs_rnp() passes */
};
void rcu_stats_get(struct rcu_stats_snapshot *s);

#endif
