// SPDX-License-Identifier: GPL-2.0
/*
 * Timers and the tick.  Each CPU keeps its pending timers sorted by
 * expiry, under its own lock (Linux's timer_base lock): the owning CPU
 * adds and runs them, and any CPU may take one off (del_timer() of a timer
 * armed by a task that has since moved).  The LAPIC timer interrupt does
 * two jobs: run expired timers,
 * and, if the periodic tick is on, the scheduling-clock work (RCU's
 * rcu_check_callbacks() and the scheduler's time slice).
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/lockdep.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "rcu/rcupdate.h"

unsigned int tick_hz = 1000;
kparam_uint("hz", tick_hz, 10, 10000, "scheduling-clock tick frequency");
unsigned int nohz_enabled = 1;
kparam_bool("nohz", nohz_enabled, "stop the tick in idle (tickless idle)");

static struct list_head timer_lists[NR_CPUS];
/* Each list's lock; t->cpu changes only under the lock of the list it
 * joins or leaves. */
static struct spinlock timer_locks[NR_CPUS];
/* The timer whose function each CPU is running, for del_timer_sync(). */
static struct timer *running_timer[NR_CPUS];

static void __tick_nohz_reprogram(int cpu);


void timer_init(struct timer *t, void (*fn)(struct timer *t))
{
	t->fn = fn;
	t->cpu = -1;
	INIT_LIST_HEAD(&t->node);
}

void add_timer(struct timer *t, u64 expires_ns)
{
	unsigned long flags;
	struct timer *pos;

	local_irq_save(flags);
	int cpu = raw_smp_processor_id();
	struct list_head *head = &timer_lists[cpu];

	spin_lock(&timer_locks[cpu]);
	BUG_ON(t->cpu != -1);
	t->expires_ns = expires_ns;
	WRITE_ONCE(t->cpu, cpu);
	list_for_each_entry(pos, head, node)
		if (pos->expires_ns > expires_ns)
			break;
	list_add_tail(&t->node, &pos->node);	/* before pos: sorted */
	if (this_cpu()->tick_stopped)
		__tick_nohz_reprogram(cpu);
	spin_unlock(&timer_locks[cpu]);
	local_irq_restore(flags);
}

/*
 * Take t off whichever CPU's list holds it.  A remote CPU's next one-shot
 * event may then come early: it finds nothing due and programs the next.
 */
bool del_timer(struct timer *t)
{
	unsigned long flags;

	for (;;) {
		int cpu = READ_ONCE(t->cpu);

		if (cpu == -1)
			return false;
		spin_lock_irqsave(&timer_locks[cpu], flags);
		if (READ_ONCE(t->cpu) == cpu) {	/* still pending there */
			list_del_init(&t->node);
			WRITE_ONCE(t->cpu, -1);
			spin_unlock_irqrestore(&timer_locks[cpu], flags);
			return true;
		}
		/* It fired, or was taken off and re-added: look again. */
		spin_unlock_irqrestore(&timer_locks[cpu], flags);
	}
}

/* IRQs off.  The function runs without the lock: it may add a timer. */
static void run_timers(int cpu)
{
	struct list_head *head = &timer_lists[cpu];
	u64 now = ktime_get_ns();

	spin_lock(&timer_locks[cpu]);
	while (!list_empty(head)) {
		struct timer *t = list_first_entry(head, struct timer, node);

		if (t->expires_ns > now)
			break;
		list_del_init(&t->node);
		WRITE_ONCE(running_timer[cpu], t);
		/*
		 * Orders running_timer before the cpu store: a
		 * del_timer_sync() that sees t no longer pending then sees
		 * it running, and waits; it reads them in the other order.
		 */
		smp_wmb();
		WRITE_ONCE(t->cpu, -1);
		spin_unlock(&timer_locks[cpu]);
		t->fn(t);
		/*
		 * Orders fn's accesses to t (a sleeper's stack timer)
		 * before the store that lets del_timer_sync() return.
		 */
		smp_store_release(&running_timer[cpu], NULL);
		spin_lock(&timer_locks[cpu]);
	}
	spin_unlock(&timer_locks[cpu]);
}

/*
 * Test hook (tests/kernel/kernel/test_timer.c), called when del_timer_sync()
 * finds t's function running and is about to wait for it.  The test's
 * timer function spins until the hook runs, so a del_timer_sync() that
 * returns without waiting finds it unfinished however fast the host is.
 * NULL unless a test sets it; one load and a not-taken branch otherwise.
 */
void (*del_timer_sync_hook)(struct timer *t);

/*
 * On return t is neither pending nor running anywhere: a timer pending on
 * another CPU is taken off there (not waited for: it may be seconds away),
 * and one whose function is running is waited for.
 */
void del_timer_sync(struct timer *t)
{
	int cpu;

	del_timer(t);
	/* Pairs with run_timers()'s smp_wmb(): running_timer after cpu. */
	smp_rmb();
	for_each_online_cpu(cpu) {
		if (smp_load_acquire(&running_timer[cpu]) != t)
			continue;
		call_test_hook(del_timer_sync_hook, t);
		while (smp_load_acquire(&running_timer[cpu]) == t)
			arch_cpu_relax();
	}
}

static void timer_interrupt(void)
{
	int cpu = raw_smp_processor_id();
	struct percpu *pc = this_cpu();

	run_timers(cpu);
	if (pc->tick_stopped) {
		tick_nohz_reprogram();
		return;
	}
	pc->stats.ticks++;
	u64 now = ktime_get_ns();

	/* Intervals, so tests can judge the rate without counting losses
	 * to a host that stalled the vCPU. */
	pc->stats.tick_gap_us[pc->stats.tick_gap_idx++ % 64] =
		(u32)((now - pc->stats.last_tick_ns) / NSEC_PER_USEC);
	pc->stats.last_tick_ns = now;
	rcu_sched_clock_irq(cpu);
	scheduler_tick();
}

void tick_init_cpu(int cpu)
{
	/* Back from offline: the list is empty (timers_migrate()) and its
	 * lock may be in a remote del_timer()'s hands: leave both be. */
	if (!cpu_booted(cpu)) {
		INIT_LIST_HEAD(&timer_lists[cpu]);
		spin_lock_init(&timer_locks[cpu], "timer_base");
	}
	if (cpu == 0)
		request_irq(IRQ_TIMER, timer_interrupt);
	this_cpu()->tick_stopped = 0;
	arch_timer_periodic(tick_hz);
}

/*
 * CPU hotplug, on the dying CPU with IRQs off: stop its tick for good
 * and move its pending timers, in expiry order, onto to's list.  Both
 * list locks are held (lower CPU first), as a change of t->cpu needs.
 * to is kicked with a reschedule IPI: an idle CPU leaves tickless idle
 * and restarts its tick, which runs the timers that came due.
 */
void timers_migrate(int cpu, int to)
{
	struct list_head *from = &timer_lists[cpu];
	struct spinlock *a = &timer_locks[min(cpu, to)];
	struct spinlock *b = &timer_locks[max(cpu, to)];
	int moved = 0;

	lockdep_assert_irqs_disabled();
	BUG_ON(cpu != raw_smp_processor_id() || cpu == to);
	this_cpu()->tick_stopped = 1;
	arch_timer_stop();
	spin_lock(a);
	spin_lock(b);
	while (!list_empty(from)) {
		struct timer *t = list_first_entry(from, struct timer, node);
		struct timer *pos;

		list_del_init(&t->node);
		WRITE_ONCE(t->cpu, to);
		list_for_each_entry(pos, &timer_lists[to], node)
			if (pos->expires_ns > t->expires_ns)
				break;
		list_add_tail(&t->node, &pos->node);
		moved++;
	}
	spin_unlock(b);
	spin_unlock(a);
	if (moved) {
		WRITE_ONCE(per_cpu_area(to)->need_resched, 1);
		arch_send_ipi(to, IRQ_RESCHEDULE);
	}
}

/* The local timer, one-shot at the first expiry; the list lock held. */
static void __tick_nohz_reprogram(int cpu)
{
	struct list_head *head = &timer_lists[cpu];

	if (list_empty(head)) {
		arch_timer_stop();
		return;
	}
	u64 now = ktime_get_ns();
	u64 exp = list_first_entry(head, struct timer, node)->expires_ns;

	arch_timer_oneshot(exp > now ? exp - now : 1);
}

/* IRQs off. */
void tick_nohz_reprogram(void)
{
	int cpu = raw_smp_processor_id();

	spin_lock(&timer_locks[cpu]);
	__tick_nohz_reprogram(cpu);
	spin_unlock(&timer_locks[cpu]);
}

void tick_dep_set_cpu(int cpu)
{
	WRITE_ONCE(per_cpu_area(cpu)->tick_dep, 1);
}

void tick_dep_clear_cpu(int cpu)
{
	WRITE_ONCE(per_cpu_area(cpu)->tick_dep, 0);
}

void tick_nohz_stop(void)
{
	this_cpu()->tick_stopped = 1;
	tick_nohz_reprogram();
}

void tick_nohz_restart(void)
{
	this_cpu()->tick_stopped = 0;
	arch_timer_periodic(tick_hz);
}
