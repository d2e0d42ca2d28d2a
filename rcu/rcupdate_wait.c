// SPDX-License-Identifier: GPL-2.0
/*
 * What both flavours build the same way from their own operations, after
 * Linux's wait_rcu_gp() (kernel/rcu/update.c) and rcu_barrier()'s
 * counting (kernel/rcu/tree.c):
 *
 *   wait_rcu_gp(crf)           synchronize_rcu(): a callback queued with
 *                              the flavour's call_rcu() completes what we
 *                              wait on
 *   wait_rcu_barrier(entrain)  rcu_barrier(): one counted callback behind
 *                              each CPU's list; the last to run wakes us
 *
 * A flavour supplies only its call_rcu() and its barrier_entrain(), which
 * queues behind one CPU's callbacks (struct rcu_flavor_ops, rcu/rcu.h).
 */
#include "kernel/bug.h"
#include "kernel/hotplug.h"
#include "kernel/irqflags.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/wait.h"
#include "rcu/rcu.h"

struct rcu_synchronize {
	struct rcu_head head;
	struct completion completion;
};

static void wakeme_after_rcu(struct rcu_head *head)
{
	complete(&container_of(head, struct rcu_synchronize, head)->completion);
}

/*
 * The callback runs after every reader that was running at the call_rcu()
 * has finished, and the completion's lock orders that before our return.
 * Inside a reader this would wait for itself.
 */
void wait_rcu_gp(void (*crf)(struct rcu_head *head,
			     void (*func)(struct rcu_head *head)))
{
	struct rcu_synchronize rcu;

	WARN(in_interrupt() || irqs_disabled() ||
	     current->rcu_read_lock_nesting,
	     "synchronize_rcu: cpu %d called from atomic context or a reader",
	     raw_smp_processor_id());
	init_completion(&rcu.completion);
	crf(&rcu.head, wakeme_after_rcu);
	wait_for_completion(&rcu.completion);
}

/*
 * rcu_barrier(): a marker callback behind every CPU's list.  A flavour
 * invokes one CPU's callbacks in order, so when a marker runs, every
 * callback queued on that CPU before it has run.  The flavour's entrain
 * skips a CPU with nothing queued and nothing being invoked, so no
 * callback lands on a CPU whose tick may be stopped (its needs_cpu() was
 * false when it stopped it, and we add only to non-empty lists).  No
 * cross-CPU call is needed.
 */
struct rcu_barrier_cpu {
	struct rcu_head head;
	struct rcu_barrier_state *state;
};

struct rcu_barrier_state {
	struct spinlock lock;
	int count;		/* markers queued, plus our own reference */
	struct completion done;
	struct rcu_barrier_cpu cpu[NR_CPUS];
};

static void rcu_barrier_put(struct rcu_barrier_state *s)
{
	unsigned long flags;
	int last;

	spin_lock_irqsave(&s->lock, flags);
	last = --s->count == 0;
	spin_unlock_irqrestore(&s->lock, flags);
	if (last)
		complete(&s->done);
}

static void rcu_barrier_callback(struct rcu_head *head)
{
	rcu_barrier_put(container_of(head, struct rcu_barrier_cpu,
				     head)->state);
}

void wait_rcu_barrier(bool (*entrain)(int cpu, struct rcu_head *head))
{
	/* Not on the stack: NR_CPUS heads would take half of it. */
	struct rcu_barrier_state *s = kmalloc(sizeof(*s));
	unsigned long flags;
	int cpu;

	WARN(in_interrupt() || irqs_disabled(),
	     "rcu_barrier: cpu %d called from atomic context",
	     raw_smp_processor_id());
	BUG_ON(!s);
	spin_lock_init(&s->lock, "rcu_barrier");
	init_completion(&s->done);
	s->count = 1;		/* our own reference, dropped below */
	/*
	 * Every present CPU, not the online ones: a CPU going offline has
	 * cleared its online bit before its callbacks move (rcu_cpu_dead());
	 * a head entrained there moves with them, in order.  No CPU's
	 * callbacks move during the loop (cpus_read_lock()): they could
	 * land behind a head entrained already, from a CPU the loop then
	 * finds empty.
	 */
	cpus_read_lock();
	for_each_present_cpu(cpu) {
		struct rcu_barrier_cpu *bc = &s->cpu[cpu];

		bc->state = s;
		bc->head.func = rcu_barrier_callback;
		bc->head.next = NULL;
		/* Counted before it is queued: it may run at once. */
		spin_lock_irqsave(&s->lock, flags);
		s->count++;
		spin_unlock_irqrestore(&s->lock, flags);
		if (!entrain(cpu, &bc->head))
			rcu_barrier_put(s);	/* never the last: ours */
	}
	cpus_read_unlock();
	rcu_barrier_put(s);
	wait_for_completion(&s->done);
	kfree(s);
}
