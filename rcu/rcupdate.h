/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-copy update: the public API.
 *
 * The implementation is Linux 2.6.25's preemptable RCU (rcu/rcupreempt.c)
 * with its dynticks interface (rcu/dynticks.c); the specification is
 * shared/design/rcu.md.  Readers may be preempted, may migrate, may nest,
 * and may run in task, IRQ and NMI context.
 */
#ifndef RCU_RCUPDATE_H
#define RCU_RCUPDATE_H

#include "kernel/compiler.h"
#include "kernel/barrier.h"

/*
 * One queued callback.  Embed it in the object to be freed and recover the
 * object with container_of() in the callback.
 */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

/*
 * Read side.  Out of line: the outermost lock/unlock must run with local
 * interrupts disabled and in a careful order against NMIs (see
 * rcu/rcupreempt.c), which is not worth inlining into every caller.
 * Legal in task, softirq, hardirq and NMI context.
 */
void rcu_read_lock(void);
void rcu_read_unlock(void);

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

/* Wait until every callback queued before the call has run.  Task only. */
void rcu_barrier(void);

/*
 * The grace-period counter (the global `completed`): it rises by one at
 * every counter flip.  For tests and torture statistics.
 */
long rcu_batches_completed(void);

/* ---- Kernel hooks: see docs/rcu.md, "What the kernel calls". ---- */

/* Once, on the boot CPU, before other CPUs start and before any reader. */
void rcu_init(void);

/* From each CPU's scheduling-clock tick: hardirq context, IRQs off. */
void rcu_check_callbacks(int cpu);
/* True if RCU has work for this CPU now (a cheap tick-path filter). */
int rcu_pending(int cpu);
/* True while cpu has callbacks queued: keep its tick running. */
int rcu_needs_cpu(int cpu);

/* Dynticks interface (rcu/dynticks.c); also see rcu/rcupreempt.h. */
void rcu_enter_nohz(void);
void rcu_exit_nohz(void);
void rcu_irq_enter(void);
void rcu_irq_exit(void);

/* Print the RCU statistics as KTAP "# " diagnostics (rcu/stats.c). */
void rcu_stats_print(void);

#endif
