// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred work.  Pending bits are per CPU.  They run at the outermost
 * irq_exit() with IRQs on and the softirq count raised (so in_interrupt()
 * is true and handlers that interrupt them count as nested), or in the
 * per-CPU ksoftirqd thread when raised from task context or when they
 * keep re-raising themselves.
 */
#include "kernel/irq.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/softirq.h"
#include "kernel/time.h"

#define MAX_SOFTIRQ_RESTART	10
#define MAX_SOFTIRQ_TIME_NS	(2 * NSEC_PER_MSEC)

static void (*softirq_vec[NR_SOFTIRQS])(void);
static u32 softirq_pending[NR_CPUS];
static struct task *ksoftirqd[NR_CPUS];

void open_softirq(int nr, void (*action)(void))
{
	softirq_vec[nr] = action;
}

bool local_softirq_pending(void)
{
	return READ_ONCE(softirq_pending[raw_smp_processor_id()]) != 0;
}

void raise_softirq(int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	int cpu = raw_smp_processor_id();

	softirq_pending[cpu] |= 1U << nr;
	/* Outside interrupt context nobody runs it at irq_exit: wake the
	 * thread. */
	if (!in_interrupt() && ksoftirqd[cpu])
		wake_up_process(ksoftirqd[cpu]);
	local_irq_restore(flags);
}

/* Called with IRQs off; returns with IRQs off. */
void do_softirq(void)
{
	int cpu = raw_smp_processor_id();
	u64 end = ktime_get_ns() + MAX_SOFTIRQ_TIME_NS;

	preempt_count_add(SOFTIRQ_OFFSET);
	for (int i = 0; i < MAX_SOFTIRQ_RESTART; i++) {
		u32 pending = softirq_pending[cpu];

		if (!pending)
			break;
		/*
		 * As Linux's __do_softirq(): past MAX_SOFTIRQ_TIME_NS, or
		 * with a switch asked for, the rest goes to ksoftirqd,
		 * which can be switched out between rounds.
		 */
		if (i && (ktime_get_ns() >= end ||
			  this_cpu_read(need_resched)))
			break;
		softirq_pending[cpu] = 0;
		local_irq_enable();
		for (int nr = 0; nr < NR_SOFTIRQS; nr++)
			if ((pending & (1U << nr)) && softirq_vec[nr])
				softirq_vec[nr]();
		local_irq_disable();
	}
	preempt_count_sub(SOFTIRQ_OFFSET);
	if (softirq_pending[cpu] && ksoftirqd[cpu])
		wake_up_process(ksoftirqd[cpu]);
}

static int ksoftirqd_fn(void *arg)
{
	int cpu = (int)(long)arg;

	for (;;) {
		local_irq_disable();
		if (cpu != raw_smp_processor_id() && cpu_online(cpu)) {
			/* Its CPU is back: a switch takes it home. */
			local_irq_enable();
			yield();
			continue;
		}
		/*
		 * Off its CPU (which went offline: a pinned task runs
		 * elsewhere meanwhile), do_softirq() would run this CPU's
		 * bits, not its own: sleep until it is home.  The dying CPU
		 * ran its own pending bits before it parked.
		 */
		if (!softirq_pending[cpu] || cpu != raw_smp_processor_id()) {
			set_current_state(TASK_SLEEPING);
			local_irq_enable();
			schedule();
			continue;
		}
		do_softirq();
		local_irq_enable();
		/*
		 * A switch point between rounds, as Linux's run_ksoftirqd()
		 * has: a call_rcu() flood keeps RCU_SOFTIRQ raised, every
		 * tick here lands in softirq context, and without it this
		 * thread would keep the CPU, and RCU would never see it
		 * pass a quiescent state, however often the tick or the
		 * time slice asked for a switch.
		 */
		if (this_cpu_read(need_resched))
			preempt_schedule();
	}
	return 0;
}

void softirq_init_cpu(int cpu)
{
	/* Back from offline: its thread is still there, pinned to it. */
	if (ksoftirqd[cpu])
		return;
	ksoftirqd[cpu] = kthread_run(ksoftirqd_fn, (void *)(long)cpu, cpu,
				     "ksoftirqd");
}
