// SPDX-License-Identifier: GPL-2.0
/*
 * smp_call_function_single(): queue a function on another CPU's list and
 * kick it with an IPI; it runs in that CPU's IPI handler (hardirq).
 */
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/mm.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"

struct call_single {
	void (*fn)(void *);
	void *arg;
	int done;
	int owned;		/* freed by the target (no waiter) */
	struct call_single *next;
};

struct call_queue {
	struct spinlock lock;
	struct call_single *head, *tail;
} __cacheline_aligned;

static struct call_queue call_queues[NR_CPUS];

static void call_func_ipi(void)
{
	struct call_queue *q = &call_queues[raw_smp_processor_id()];
	struct call_single *c;

	spin_lock(&q->lock);
	c = q->head;
	q->head = q->tail = NULL;
	spin_unlock(&q->lock);
	while (c) {
		struct call_single *next = c->next;

		c->fn(c->arg);
		if (c->owned)
			kfree(c);
		else
			/* The waiter may free c as soon as it sees done. */
			smp_store_release(&c->done, 1);
		c = next;
	}
}

void smp_init(void)
{
	for (int i = 0; i < NR_CPUS; i++)
		spin_lock_init(&call_queues[i].lock, "call_single");
	request_irq(IRQ_CALL_FUNC, call_func_ipi);
}

void smp_call_function_single(int cpu, void (*fn)(void *), void *arg,
			      bool wait)
{
	struct call_single local, *c = wait ? &local : kmalloc(sizeof(*c));
	struct call_queue *q = &call_queues[cpu];
	unsigned long flags;

	BUG_ON(!cpu_online(cpu));
	/* Waiting for ourselves with IRQs off could never finish. */
	BUG_ON(wait && irqs_disabled() && cpu == raw_smp_processor_id());
	if (!c)
		panic("smp_call_function_single: out of memory");
	c->fn = fn;
	c->arg = arg;
	c->done = 0;
	c->owned = !wait;
	c->next = NULL;
	spin_lock_irqsave(&q->lock, flags);
	if (q->tail)
		q->tail->next = c;
	else
		q->head = c;
	q->tail = c;
	spin_unlock_irqrestore(&q->lock, flags);
	arch_send_ipi(cpu, IRQ_CALL_FUNC);
	/* Wait preemptibly: a waiter must not hold up the CPU it runs on. */
	while (wait && !smp_load_acquire(&c->done))
		arch_cpu_relax();
}
