// SPDX-License-Identifier: GPL-2.0
/*
 * smp_call_function_single(): queue a function on another CPU's list and
 * kick it with an IPI; it runs in that CPU's IPI handler (hardirq).
 * smp_call_function(): the same on every other online CPU, kicked by one
 * broadcast IPI where the arch has one.
 *
 * CPU hotplug: a sender tests cpu_online() and sends its IPI with IRQs
 * off, so that cpu_down()'s sync (an smp_call_function() that every
 * online CPU must answer with IRQs on) waits out any sender that saw the
 * dying CPU still online; only then may it park (kernel/hotplug.c).
 */
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/lockdep.h"
#include "kernel/mm.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

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

/* Run this CPU's queued calls: its IPI, or a dying CPU's last look. */
void smp_call_drain(void)
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

static void call_func_ipi(void)
{
	smp_call_drain();
}

void smp_init(void)
{
	for (int i = 0; i < NR_CPUS; i++)
		spin_lock_init(&call_queues[i].lock, "call_single");
	request_irq(IRQ_CALL_FUNC, call_func_ipi);
}

/* Queue c (filled in but for done and next) on cpu's list; no IPI. */
static void call_enqueue(int cpu, struct call_single *c)
{
	struct call_queue *q = &call_queues[cpu];
	unsigned long flags;

	/* The caller tested it with IRQs off, which they still are. */
	BUG_ON(!cpu_online(cpu));
	lockdep_assert_irqs_disabled();
	c->done = 0;
	c->next = NULL;
	spin_lock_irqsave(&q->lock, flags);
	if (q->tail)
		q->tail->next = c;
	else
		q->head = c;
	q->tail = c;
	spin_unlock_irqrestore(&q->lock, flags);
}

static struct call_single *call_alloc(void (*fn)(void *), void *arg)
{
	struct call_single *c = kmalloc(sizeof(*c));

	if (!c)
		panic("smp_call_function: out of memory");
	c->fn = fn;
	c->arg = arg;
	c->owned = 1;
	return c;
}

/*
 * Wait (if wait) until cpu has run call c, preemptibly: a waiter must not
 * hold up the CPU it runs on.  A call not run in 10 s of guest time is a
 * hang the kernel names (as Linux's CSD lock-wait check does): the CPU,
 * the function, and whether the CPU is still online.
 */
static void call_wait(struct call_single *c, int cpu, bool wait)
{
	u64 t0 = ktime_get_ns();
	bool warned = false;

	while (wait && !smp_load_acquire(&c->done)) {
		arch_cpu_relax();
		if (!warned && ktime_get_ns() - t0 > 10 * NSEC_PER_SEC)
			warned = WARN(1, "smp: cpu%d has not run call %p for 10 s (%s)",
				      cpu, (void *)c->fn,
				      cpu_online(cpu) ? "online" : "offline");
	}
}

int smp_call_function_single(int cpu, void (*fn)(void *), void *arg,
			     bool wait)
{
	struct call_single local = { fn, arg, 0, 0, NULL };
	struct call_single *c = wait ? &local : call_alloc(fn, arg);
	unsigned long flags;

	/* Waiting for ourselves with IRQs off could never finish. */
	BUG_ON(wait && irqs_disabled() && cpu == raw_smp_processor_id());
	/* IRQs off from the online test to the IPI: see the top. */
	local_irq_save(flags);
	if (!cpu_online(cpu)) {
		local_irq_restore(flags);
		if (!wait)
			kfree(c);
		return -ENXIO;
	}
	call_enqueue(cpu, c);
	arch_send_ipi(cpu, IRQ_CALL_FUNC);
	local_irq_restore(flags);
	call_wait(c, cpu, wait);
	return 0;
}

/*
 * fn(arg) on every online CPU but this one, in hardirq; with wait, return
 * once all of them have run it.  The caller keeps preemption off, so that
 * "this one" stays this one.  One IPI reaches them all
 * (arch_send_ipi_allbutself()): at 255 CPUs, one ICR write, not 254.
 */
void smp_call_function(void (*fn)(void *), void *arg, bool wait)
{
	int self = smp_processor_id(), cpu, n = 0;
	struct call_single *cs = NULL;
	struct cpumask sent;
	unsigned long flags;

	BUG_ON(wait && irqs_disabled());
	if (wait) {
		/* Not on the stack: NR_CPUS of them would take most of it. */
		cs = kmalloc(sizeof(*cs) * NR_CPUS);
		if (!cs)
			panic("smp_call_function: out of memory");
	}
	cpumask_clear(&sent);
	/* IRQs off from the online tests to the IPI: see the top. */
	local_irq_save(flags);
	for_each_online_cpu(cpu) {
		if (cpu == self)
			continue;
		if (wait)
			cs[cpu] = (struct call_single){ fn, arg, 0, 0, NULL };
		call_enqueue(cpu, wait ? &cs[cpu] : call_alloc(fn, arg));
		__cpumask_set_cpu(cpu, &sent);
		n++;
	}
	/*
	 * The IPIs go to the CPUs called, not to those online now: a CPU
	 * that cleared its online bit since (one going down) has a call
	 * queued and must be kicked too.  It cannot be parked meanwhile:
	 * cpu_down()'s sync waits for our IRQs-off section to end.  One
	 * broadcast when every other present CPU was called.
	 */
	if (n && n == (int)nr_cpus_present - 1) {
		arch_send_ipi_allbutself(IRQ_CALL_FUNC);
	} else {
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			if (cpumask_test_cpu(cpu, &sent))
				arch_send_ipi(cpu, IRQ_CALL_FUNC);
	}
	local_irq_restore(flags);
	if (!wait)
		return;
	/* The CPUs called, not those online now: one may be going. */
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		call_wait(&cs[cpu], cpu, cpumask_test_cpu(cpu, &sent));
	kfree(cs);
}
