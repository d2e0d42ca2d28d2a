/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Context tracking (rcu=tree): the article's per-CPU dynticks counter as
 * Linux 6.12 keeps it (include/linux/context_tracking_state.h).  One atomic
 * int per CPU: the low two bits say which context the CPU is in (kernel or
 * idle here), the rest is a counter stepped by CT_RCU_WATCHING, and RCU
 * watches the CPU exactly while the CT_RCU_WATCHING bit is set.  Every
 * step is one fully ordered atomic add (ct_state_inc()), so there is no
 * separate barrier to misplace and no load-store window for an NMI to
 * land in: the article's Quick Quiz 2 cannot arise.
 */
#ifndef RCU_CONTEXT_TRACKING_H
#define RCU_CONTEXT_TRACKING_H

#include "kernel/compiler.h"
#include "kernel/percpu.h"

#define CT_STATE_KERNEL		0
#define CT_STATE_IDLE		1
#define CT_STATE_MASK		3
#define CT_RCU_WATCHING		4	/* the counter's unit and its bit */

/* nmi_nesting at process level, while the CPU is not idle. */
#define CT_NESTING_IRQ_NONIDLE	((~0UL >> 2) + 1)

struct context_tracking {
	/* Context bits and RCU-watching counter; written only by its CPU. */
	int state;
	/* Process-level nesting: 1 while running, 0 in idle. */
	long nesting;
	/*
	 * IRQ and NMI nesting: 0 in idle, CT_NESTING_IRQ_NONIDLE at process
	 * level, and ct_nmi_enter() adds 1 when its entry made an idle CPU
	 * watched, 2 otherwise: 1 means "the outermost handler, which woke
	 * RCU from idle".
	 */
	long nmi_nesting;
} __cacheline_aligned;

extern struct context_tracking context_tracking[NR_CPUS];

void ct_idle_enter(void);
void ct_idle_exit(void);
void ct_irq_enter(void);
void ct_irq_exit(void);
void ct_nmi_enter(void);
void ct_nmi_exit(void);
void ct_init_cpu(int cpu);

/* This CPU: is RCU watching?  (the modern in_interrupt() test) */
bool rcu_is_watching_curr_cpu(void);

/* Another CPU's counter, ordered before the caller's later accesses. */
static inline int ct_rcu_watching_cpu_acquire(int cpu)
{
	return __atomic_load_n(&context_tracking[cpu].state,
			       __ATOMIC_ACQUIRE) & ~CT_STATE_MASK;
}

/* A snapshot taken outside RCU's watch: an extended quiescent state. */
static inline bool rcu_watching_snap_in_eqs(int snap)
{
	return !(snap & CT_RCU_WATCHING);
}

#endif
