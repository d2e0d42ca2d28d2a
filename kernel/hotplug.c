// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: cpu_down() takes a CPU (any but CPU 0) offline, cpu_up()
 * brings it back.  The design, and why the dying CPU parks in a halt
 * loop with IRQs off and comes back through INIT-SIPI-SIPI, is
 * docs/hotplug.md.  In short, for cpu_down(cpu), called from a task on
 * another CPU or on cpu itself:
 *
 *   caller                          cpu (its idle task, IRQs off)
 *   hp_state = GOING, kick it   ->  the scheduler sends its task away
 *                                   and runs idle; cpu_die():
 *                                   run queue offline, online bit clear,
 *                                   tasks and timers moved, tick off
 *                               <-  hp_state = OUT; IRQs on, waits
 *   sync: every online CPU
 *   answers an IPI with IRQs on
 *   hp_state = PARK             ->  IRQs off, last calls and softirqs,
 *                                   rcu_report_dead()
 *                               <-  hp_state = DEAD; cli; hlt for ever
 *   rcu_cpu_dead(): callbacks move
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/hotplug.h"
#include "kernel/irq.h"
#include "kernel/lockdep.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/softirq.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"

/*
 * One hotplug operation at a time: a binary semaphore (a completion
 * whose count is 1 while free).  The bring-up path has one argument
 * block, and the sync below assumes the set of CPUs going is one.
 */
static struct completion hotplug_sem;
static bool hotplug_sem_ready;
static struct spinlock hotplug_init_lock = SPINLOCK_INIT("hotplug_init");

static struct cpuhp_stats stats;

void (*cpuhp_out_hook)(int cpu);
void (*cpuhp_rcu_dead_hook)(int cpu);

static void hotplug_lock(void)
{
	unsigned long flags;

	spin_lock_irqsave(&hotplug_init_lock, flags);
	if (!hotplug_sem_ready) {
		init_completion(&hotplug_sem);
		complete(&hotplug_sem);
		hotplug_sem_ready = true;
	}
	spin_unlock_irqrestore(&hotplug_init_lock, flags);
	wait_for_completion(&hotplug_sem);
}

static void hotplug_unlock(void)
{
	complete(&hotplug_sem);
}

void cpus_read_lock(void)
{
	hotplug_lock();
}

void cpus_read_unlock(void)
{
	hotplug_unlock();
}

static int hotplug_check(int cpu)
{
	/* Task context: both sleep, and wait for other CPUs' answers. */
	BUG_ON(in_interrupt() || irqs_disabled() || preempt_count());
	if (cpu < 0 || cpu >= (int)nr_cpus_present || !per_cpu_area(cpu))
		return -EINVAL;
	if (cpu == 0)
		return -EBUSY;
	return 0;
}

/* Sleep until cpu's hp_state is st (acquire: its stores before it). */
static void hotplug_wait_state(int cpu, int st)
{
	u64 t0 = ktime_get_ns();
	bool warned = false;

	while (smp_load_acquire(&per_cpu_area(cpu)->hp_state) != st) {
		msleep(1);
		/* Guest time: a host that stalls the vCPU 30 s is broken. */
		if (!warned && ktime_get_ns() - t0 > 30 * NSEC_PER_SEC)
			warned = WARN(1, "cpu%d: hotplug state %d, waiting for %d for 30 s",
				      cpu, READ_ONCE(per_cpu_area(cpu)->hp_state),
				      st);
	}
}

static void hotplug_sync_fn(void *arg)
{
	(void)arg;
}

/*
 * Every IPI sender tests cpu_online() and sends with IRQs off
 * (kernel/smp.c, kernel/sched.c, the NMI senders).  A CPU that answers
 * this call had IRQs on after the dying CPU's online bit was cleared
 * (set_cpu_offline() is fully ordered, and OUT was read with acquire
 * before this call was queued), so a sender there that saw the bit set
 * has sent already, and a later one sees it clear.  This CPU is no such
 * sender: it runs no IRQs-off section across this call.
 */
static void hotplug_sync_senders(void)
{
	preempt_disable();
	smp_call_function(hotplug_sync_fn, NULL, true);
	preempt_enable();
}

static void stats_add(u64 *n, u64 *total, u64 *max, u64 ns)
{
	(*n)++;
	*total += ns;
	if (ns > *max)
		*max = ns;
}

int cpu_down(int cpu)
{
	struct percpu *pc;
	u64 t0;
	int err = hotplug_check(cpu);

	if (err)
		return err;
	if (!rcu_hotplug_supported())
		return -EOPNOTSUPP;
	pc = per_cpu_area(cpu);
	hotplug_lock();
	if (smp_load_acquire(&pc->hp_state) != CPUHP_ONLINE) {
		hotplug_unlock();
		return -EALREADY;
	}
	t0 = ktime_get_ns();
	WRITE_ONCE(pc->hp_state, CPUHP_GOING);
	/*
	 * Orders the GOING store before the need_resched store and the
	 * IPI.  Pairs with the interrupt's delivery on cpu (an interrupt
	 * is a full barrier on x86) before its __schedule() reads GOING
	 * (cpu_is_going()): the switch the IPI causes picks the idle task.
	 */
	smp_mb();
	WRITE_ONCE(pc->need_resched, 1);
	local_irq_disable();
	if (cpu != raw_smp_processor_id())
		arch_send_ipi(cpu, IRQ_RESCHEDULE);	/* still online */
	local_irq_enable();
	/* On cpu ourselves: the switch at preempt_enable() moves us. */
	preempt_disable();
	preempt_enable();
	hotplug_wait_state(cpu, CPUHP_OUT);
	hotplug_sync_senders();
	smp_store_release(&pc->hp_state, CPUHP_PARK);
	hotplug_wait_state(cpu, CPUHP_DEAD);
	rcu_cpu_dead(cpu);
	stats_add(&stats.n_offline, &stats.offline_ns_total,
		  &stats.offline_ns_max, ktime_get_ns() - t0);
	hotplug_unlock();
	return 0;
}

int cpu_up(int cpu)
{
	struct percpu *pc;
	u64 t0;
	int err = hotplug_check(cpu);

	if (err)
		return err;
	pc = per_cpu_area(cpu);
	hotplug_lock();
	if (READ_ONCE(pc->hp_state) != CPUHP_DEAD || !cpu_booted(cpu)) {
		hotplug_unlock();
		return -EALREADY;
	}
	t0 = ktime_get_ns();
	WRITE_ONCE(pc->hp_state, CPUHP_UP);
	if (!arch_cpu_up(cpu))
		panic("hotplug: cpu%d did not come back online", cpu);
	stats_add(&stats.n_online, &stats.online_ns_total,
		  &stats.online_ns_max, ktime_get_ns() - t0);
	hotplug_unlock();
	return 0;
}

/*
 * The dying CPU's idle task, from the top of its loop: preemption off
 * (the idle task's own), IRQs off.  Never returns: the CPU's next life
 * starts in cpu_start().
 */
__noreturn void cpu_die(void)
{
	struct percpu *pc = this_cpu();
	int cpu = pc->cpu;

	lockdep_assert_irqs_disabled();
	BUG_ON(READ_ONCE(pc->hp_state) != CPUHP_GOING);
	sched_cpu_dying(cpu);		/* online bit clear, tasks gone */
	timers_migrate(cpu, 0);		/* tick off, timers to CPU 0 */
	printk("cpu%d: offline\n", cpu);
	/*
	 * The test hook runs before OUT is published, not after: once it
	 * is, cpu_down() may sync and park us at any moment (a host that
	 * preempts this vCPU gives it all the time it needs), and an IPI
	 * the hook then sends here is one sent to a parked CPU.  With IRQs
	 * off, what it sends is taken once they are on, at OUT.
	 */
	call_test_hook(cpuhp_out_hook, cpu);
	smp_store_release(&pc->hp_state, CPUHP_OUT);
	/*
	 * IRQs on until cpu_down() lets us park: IPIs that senders sent
	 * before they could see us offline arrive and run here (calls,
	 * torture IRQs and NMIs: readers on a CPU about to go).
	 */
	local_irq_enable();
	while (smp_load_acquire(&pc->hp_state) != CPUHP_PARK)
		arch_cpu_relax();
	local_irq_disable();
	/* An IPI still in flight: its call runs now, not never. */
	smp_call_drain();
	/* ksoftirqd cannot run our bits from elsewhere: run them now. */
	while (local_softirq_pending())
		do_softirq();
	/*
	 * No NMI handler runs here from now on (handle_nmi()): an NMI sent
	 * before the sync may still arrive, and on rcu=tree its reader
	 * would begin after rcutree_report_cpu_dead() took this CPU out
	 * of every grace period.  Only NMIs on this CPU read the flag, so
	 * a compiler barrier is the order needed: set before the report's
	 * first access, an NMI landing inside the report runs nothing.
	 */
	WRITE_ONCE(pc->nmi_ignore, true);
	barrier();
	rcu_report_dead(cpu);		/* no reader here from now on */
	call_test_hook(cpuhp_rcu_dead_hook, cpu);
	/* A next life starts from a fresh idle loop: no count carried. */
	pc->preempt_count = 0;
	pc->need_resched = 0;
	/*
	 * Release: everything this life wrote, before cpu_down() reads
	 * DEAD and hands its RCU state to another CPU.
	 */
	smp_store_release(&pc->hp_state, CPUHP_DEAD);
	arch_cpu_park();
}

void cpuhp_stats_get(struct cpuhp_stats *s)
{
	*s = stats;
}
