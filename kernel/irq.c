// SPDX-License-Identifier: GPL-2.0
/*
 * irq_enter/irq_exit and nmi_enter/nmi_exit, and interrupt dispatch.
 *
 * RCU's hooks (rcu_hardirq_enter/exit(), rcu_nmi_enter/exit(): the 2008
 * flavour's rcu_irq_enter/exit() for both, or the tree's ct_irq_enter/exit()
 * and ct_nmi_enter/exit()) run outside the hardirq count: the entry hook
 * runs before the count is raised, and the exit hook after it is dropped:
 * the 2008 rcu_irq_enter() uses in_interrupt()
 * to tell the outermost handler (which may have to mark the CPU non-idle
 * by making dynticks_progress_counter odd) from nested ones, and it could
 * not if the count were already raised.  Deferred work runs between the
 * two, so RCU still sees the CPU as non-idle while callbacks run.
 */
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/softirq.h"
#include "kernel/trace.h"
#include "rcu/rcupdate.h"

static irq_handler_t irq_handlers[NR_IRQ_KINDS];
static void (*nmi_handlers[NR_NMI_HANDLERS])(void);


void request_irq(enum irq_kind kind, irq_handler_t handler)
{
	WRITE_ONCE(irq_handlers[kind], handler);
}

void register_nmi_handler(void (*fn)(void))
{
	for (int i = 0; i < NR_NMI_HANDLERS; i++)
		if (__atomic_compare_exchange_n(&nmi_handlers[i],
						&(void (*)(void)){ NULL }, fn,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
	panic("register_nmi_handler: all %d slots taken", NR_NMI_HANDLERS);
}

void unregister_nmi_handler(void (*fn)(void))
{
	for (int i = 0; i < NR_NMI_HANDLERS; i++)
		if (READ_ONCE(nmi_handlers[i]) == fn)
			WRITE_ONCE(nmi_handlers[i], NULL);
}

static void count_entry(u64 *from_idle)
{
	/* Dynticks-idle: in the idle loop's sleep, and not in a handler. */
	if (this_cpu_read(in_idle) && !in_interrupt())
		(*from_idle)++;
}

void irq_enter(void)
{
	count_entry(&this_cpu()->stats.irqs_from_idle);
	rcu_hardirq_enter();
	preempt_count_add(HARDIRQ_OFFSET);
	/* The compiler must not hoist the handler above the count. */
	barrier();
	struct cpu_stats *st = &this_cpu()->stats;
	u32 depth = hardirq_count() >> HARDIRQ_SHIFT;

	st->irqs++;
	if (depth > st->max_irq_depth)
		st->max_irq_depth = depth;
}

void irq_exit(void)
{
	barrier();
	preempt_count_sub(HARDIRQ_OFFSET);
	/* Outermost level only: deferred work must not nest in a handler. */
	if (!in_interrupt() && local_softirq_pending())
		do_softirq();
	rcu_hardirq_exit();
}

void nmi_enter(void)
{
	this_cpu_inc(nmi_path);		/* first: printk's NMI test */
	barrier();
	count_entry(&this_cpu()->stats.nmis_from_idle);
	rcu_nmi_enter();
	/* NMIs count as hardirq too, so in_interrupt() is true inside. */
	preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
	barrier();
	this_cpu()->stats.nmis++;
}

void nmi_exit(void)
{
	barrier();
	preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
	rcu_nmi_exit();
	barrier();
	this_cpu_dec(nmi_path);		/* last */
}

void handle_irq(int kind, bool interrupted_irqs_on)
{
	irq_handler_t h = READ_ONCE(irq_handlers[kind]);

	irq_enter();
	trace_irq(TRACE_IRQ_ENTER, kind);
	if (h)
		h();
	arch_eoi();
	trace_irq(TRACE_IRQ_EXIT, kind);
	irq_exit();
	/*
	 * Preempt on the way out if the interrupted code could have been
	 * preempted anyway (IRQs on, count zero) and a reschedule is due.
	 */
	if (interrupted_irqs_on && preempt_count() == 0 &&
	    this_cpu_read(need_resched))
		preempt_schedule_irq();
}

void handle_nmi(void)
{
	/*
	 * A CPU past its last RCU step (kernel/hotplug.c:cpu_die()) may
	 * still take an NMI that was sent before cpu_down()'s sync and
	 * delivered late.  Its handlers would be readers that no grace
	 * period waits for (the tree has taken the CPU out of every one),
	 * so none runs: Linux's exc_nmi() likewise ignores NMIs on an
	 * offline CPU before irqentry_nmi_enter().  The flag is written
	 * by this CPU only, so an NMI sees it set or clear, never torn.
	 */
	if (unlikely(READ_ONCE(this_cpu()->nmi_ignore))) {
		this_cpu()->stats.nmis_ignored++;
		return;
	}
	nmi_enter();
	trace_event(TRACE_NMI_ENTER, 0, 0);
	for (int i = 0; i < NR_NMI_HANDLERS; i++) {
		void (*fn)(void) = READ_ONCE(nmi_handlers[i]);

		if (fn)
			fn();
	}
	trace_event(TRACE_NMI_EXIT, 0, 0);
	nmi_exit();
}
