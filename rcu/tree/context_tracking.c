// SPDX-License-Identifier: GPL-2.0
/*
 * Context tracking (rcu=tree), after Linux 6.12's kernel/context_tracking.c:
 * the hooks by which idle, IRQ and NMI entry and exit tell RCU whether it
 * must watch this CPU.  The step-for-step model is
 * tests/spin/dyntickRCU-atomic.spin, whose header names the function
 * behind each of its steps.
 *
 *   2008 (rcu/rcupreempt/dynticks.c)            here
 *   rcu_exit_nohz()                  ct_idle_exit()
 *   rcu_enter_nohz()                 ct_idle_enter()
 *   rcu_irq_enter(), IRQ and NMI     ct_irq_enter() -> ct_nmi_enter()
 *   rcu_irq_exit(), IRQ and NMI      ct_irq_exit()  -> ct_nmi_exit()
 *   rcu_update_flag                  nmi_nesting == 1
 *   in_interrupt() test              rcu_is_watching_curr_cpu()
 *   counter++ then smp_mb()          ct_state_inc(): atomic add-return
 */
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/trace.h"
#include "rcu/tree/context_tracking.h"

/* Every CPU starts in the kernel, watched, at process level. */
struct context_tracking context_tracking[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = {
		.state = CT_RCU_WATCHING | CT_STATE_KERNEL,
		.nesting = 1,
		.nmi_nesting = CT_NESTING_IRQ_NONIDLE,
	},
};

static inline struct context_tracking *this_ct(void)
{
	return &context_tracking[raw_smp_processor_id()];
}

/*
 * The one step: a fully ordered atomic add.  Orders this CPU's accesses
 * before it (the reader that ends as the CPU goes idle) before the new
 * value, and the new value before the accesses after it (the reader that
 * begins as it wakes), against the grace-period kthread's acquire load of
 * the counter (ct_rcu_watching_cpu_acquire()) and its full barriers.
 */
static inline int ct_state_inc(int incby)
{
	return __atomic_add_fetch(&this_ct()->state, incby, __ATOMIC_SEQ_CST);
}

bool rcu_is_watching_curr_cpu(void)
{
	return READ_ONCE(this_ct()->state) & CT_RCU_WATCHING;
}

void ct_init_cpu(int cpu)
{
	struct context_tracking *ct = &context_tracking[cpu];

	WRITE_ONCE(ct->nesting, 1);
	WRITE_ONCE(ct->nmi_nesting, CT_NESTING_IRQ_NONIDLE);
}

/*
 * Idle entry, IRQs off: the reader section of the idle task's process
 * level is over; from the step on, RCU need not wait for this CPU.
 */
void ct_idle_enter(void)
{
	struct context_tracking *ct = this_ct();
	int seq;

	lockdep_assert_irqs_disabled();
	WARN(READ_ONCE(ct->nmi_nesting) != CT_NESTING_IRQ_NONIDLE,
	     "ct_idle_enter: cpu %d nmi_nesting %ld", raw_smp_processor_id(),
	     READ_ONCE(ct->nmi_nesting));
	WRITE_ONCE(ct->nmi_nesting, 0);
	WRITE_ONCE(ct->nesting, 0);
	seq = ct_state_inc(CT_RCU_WATCHING + CT_STATE_IDLE);
	trace_event(TRACE_DYNTICKS, 0, (u32)seq);
}

/* Idle exit, IRQs off: from the step on, RCU watches this CPU again. */
void ct_idle_exit(void)
{
	struct context_tracking *ct = this_ct();
	int seq;

	lockdep_assert_irqs_disabled();
	seq = ct_state_inc(CT_RCU_WATCHING - CT_STATE_IDLE);
	trace_event(TRACE_DYNTICKS, 0, (u32)seq);
	WRITE_ONCE(ct->nesting, 1);
	WARN(READ_ONCE(ct->nmi_nesting) != 0,
	     "ct_idle_exit: cpu %d nmi_nesting %ld", raw_smp_processor_id(),
	     READ_ONCE(ct->nmi_nesting));
	WRITE_ONCE(ct->nmi_nesting, CT_NESTING_IRQ_NONIDLE);
}

/*
 * Handler entry, IRQ or NMI, before the hardirq count is raised.  If RCU
 * is not watching (the CPU is idle), step the counter to watching and
 * count 1; otherwise count 2.  Interrupts nest strictly, so nothing can
 * change the counter between the test and the step: by the time a nested
 * handler returns it has restored everything it changed.
 */
void ct_nmi_enter(void)
{
	struct context_tracking *ct = this_ct();
	long incby = 2;

	if (!rcu_is_watching_curr_cpu()) {
		int seq = ct_state_inc(CT_RCU_WATCHING);

		trace_event(TRACE_DYNTICKS, 1, (u32)seq);
		incby = 1;
	}
	WRITE_ONCE(ct->nmi_nesting, READ_ONCE(ct->nmi_nesting) + incby);
	/* The handler's readers stay after the count (compiler only). */
	barrier();
}

/*
 * Handler exit, after the hardirq count is dropped.  A nesting of 1 means
 * this handler woke RCU from idle: step the counter back to idle.
 * Otherwise undo this handler's 2.
 */
void ct_nmi_exit(void)
{
	struct context_tracking *ct = this_ct();
	long nesting = READ_ONCE(ct->nmi_nesting);
	int seq;

	WARN(nesting <= 0 || !rcu_is_watching_curr_cpu(),
	     "ct_nmi_exit: cpu %d nmi_nesting %ld state %d",
	     raw_smp_processor_id(), nesting, READ_ONCE(ct->state));
	/* The handler's readers stay before the count (compiler only). */
	barrier();
	if (nesting != 1) {
		WRITE_ONCE(ct->nmi_nesting, nesting - 2);
		return;
	}
	WRITE_ONCE(ct->nmi_nesting, 0);
	seq = ct_state_inc(CT_RCU_WATCHING);
	trace_event(TRACE_DYNTICKS, 2, (u32)seq);
}

/*
 * IRQs share the NMI path, as in Linux.  The IRQ entry points check that
 * IRQs are off, as Linux's do; the NMI ones need no check, since the
 * hardware masks IRQs for an NMI and nothing else calls them.
 */
void ct_irq_enter(void)
{
	lockdep_assert_irqs_disabled();
	ct_nmi_enter();
}

void ct_irq_exit(void)
{
	lockdep_assert_irqs_disabled();
	ct_nmi_exit();
}
