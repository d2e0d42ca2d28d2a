/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preempt_count, laid out as in Linux:
 *   bits  0-7  preemption-disable depth
 *   bits  8-15 softirq (deferred work) depth
 *   bits 16-19 hardirq nesting
 *   bits 20-23 NMI nesting
 * It is per CPU; a task switch happens only at a fixed count, so the
 * value carries over correctly.
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

#include "kernel/irqflags.h"
#include "kernel/percpu.h"

#define PREEMPT_SHIFT	0
#define SOFTIRQ_SHIFT	8
#define HARDIRQ_SHIFT	16
#define NMI_SHIFT	20

#define PREEMPT_OFFSET	(1U << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET	(1U << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET	(1U << HARDIRQ_SHIFT)
#define NMI_OFFSET	(1U << NMI_SHIFT)

#define PREEMPT_MASK	(0xffU << PREEMPT_SHIFT)
#define SOFTIRQ_MASK	(0xffU << SOFTIRQ_SHIFT)
#define HARDIRQ_MASK	(0xfU << HARDIRQ_SHIFT)
#define NMI_MASK	(0xfU << NMI_SHIFT)

#define preempt_count()		this_cpu_read(preempt_count)
#define hardirq_count()		(preempt_count() & HARDIRQ_MASK)
#define softirq_count()		(preempt_count() & SOFTIRQ_MASK)
#define in_irq()		(hardirq_count() != 0)
#define in_nmi()		((preempt_count() & NMI_MASK) != 0)
#define in_softirq()		(softirq_count() != 0)
/* Any of hardirq, softirq or NMI context, as Linux's in_interrupt(). */
#define in_interrupt() \
	((preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK | NMI_MASK)) != 0)
#define preemptible()		(preempt_count() == 0 && !irqs_disabled())

#define preempt_count_add(v)	this_cpu_add(preempt_count, (v))
#define preempt_count_sub(v)	this_cpu_add(preempt_count, -(v))

/* Compiler barriers keep the critical section inside the count. */
#define preempt_disable() \
	do { preempt_count_add(PREEMPT_OFFSET); barrier(); } while (0)
#define preempt_enable_no_resched() \
	do { barrier(); preempt_count_sub(PREEMPT_OFFSET); } while (0)
/* Reschedules if the count reached zero and a reschedule is pending. */
#define preempt_enable() \
	do {								\
		barrier();						\
		preempt_count_sub(PREEMPT_OFFSET);			\
		if (unlikely(this_cpu_read(need_resched)) &&		\
		    preempt_count() == 0)				\
			preempt_schedule();				\
	} while (0)

void preempt_schedule(void);

#endif
