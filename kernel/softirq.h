/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deferred work, after Linux's softirqs: raised with IRQs off, run at the
 * outermost irq_exit() with IRQs on, or by the per-CPU ksoftirqd thread
 * when raised outside interrupt context.
 */
#ifndef KERNEL_SOFTIRQ_H
#define KERNEL_SOFTIRQ_H

enum {
	TIMER_SOFTIRQ,
	RCU_SOFTIRQ,
	NR_SOFTIRQS,
};

void open_softirq(int nr, void (*action)(void));
/* Raise on this CPU; safe from any context but NMI. */
void raise_softirq(int nr);

/* Boot: this CPU's softirq state. */
void softirq_init_cpu(int cpu);
/* Is a softirq raised on this CPU? */
bool local_softirq_pending(void);
/* Run this CPU's raised softirqs (IRQ exit and ksoftirqd). */
void do_softirq(void);

#endif
