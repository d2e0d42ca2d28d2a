// SPDX-License-Identifier: GPL-2.0
/*
 * The idle loop and tickless idle.  With nothing to run and no RCU
 * callbacks, the CPU stops its tick, tells RCU it is entering dynticks
 * idle (rcu_idle_enter(): from here on RCU need not wait for it), and
 * sleeps in hlt.  An interrupt that wakes nothing returns here and the
 * CPU goes back to sleep with the tick still stopped; only when there is
 * work (a runnable thread, or RCU callbacks queued by a handler) does it
 * leave: rcu_idle_exit(), then the tick restarts.  With callbacks queued,
 * a softirq pending or nohz=off it halts with the tick running instead;
 * rcu=tree counts that halt as idle too (rcu_cpuidle_enter()).
 */
#include "asm/arch.h"
#include "kernel/hotplug.h"
#include "kernel/irq.h"
#include "kernel/irqflags.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/softirq.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/trace.h"
#include "rcu/rcupdate.h"


/*
 * May the tick stop?  Not while RCU has callbacks here (the grace periods
 * they wait for need this CPU's tick: rcu_needs_cpu()), nor while a
 * softirq is pending (the next interrupt's irq_exit() runs it), nor while
 * something asked for this CPU's tick (tick_dep_set_cpu()).  None is a
 * reason not to halt: the running tick wakes us.
 */
static bool idle_keep_tick(int cpu)
{
	return !READ_ONCE(nohz_enabled) || READ_ONCE(this_cpu()->tick_dep) ||
	       local_softirq_pending() || rcu_needs_cpu(cpu);
}

static void idle_nohz(int cpu)
{
	struct percpu *pc = this_cpu();

	/* IRQs are off from the check to hlt: a wake-up cannot slip in. */
	tick_nohz_stop();
	pc->stats.idle_enter++;
	pc->idle_since_ns = ktime_get_ns();
	rcu_idle_enter();
	trace_event(TRACE_IDLE_ENTER, 0, 0);
	WRITE_ONCE(pc->in_idle, 1);
	while (!this_cpu_read(need_resched) && !idle_keep_tick(cpu)) {
		pc->stats.idle_halts++;
		arch_idle_sleep();	/* sti; hlt: handlers run here */
		local_irq_disable();
	}
	WRITE_ONCE(pc->in_idle, 0);
	trace_event(TRACE_IDLE_EXIT, 0, 0);
	rcu_idle_exit();
	pc->stats.idle_exit++;
	pc->stats.idle_ns += ktime_get_ns() - pc->idle_since_ns;
	tick_nohz_restart();
}

/*
 * One halt with the tick running, IRQs off on entry and on return.  The
 * halt is still an idle period: rcu=tree leaves RCU's watch around it
 * (rcu_cpuidle_enter()), as Linux 6.12 does around every idle period
 * whatever its tick does, so that a grace period excuses this CPU from
 * its counter instead of waiting for a tick.  The tick and every other
 * interrupt that ends the halt run their handlers watched (ct_irq_enter()
 * wakes RCU for them), before the exit below.
 */
static void idle_halt_tick(struct percpu *pc)
{
	pc->stats.idle_halts++;
	rcu_cpuidle_enter();
	arch_idle_sleep();	/* sti; hlt: handlers run here */
	/* The exit expects IRQs off, as rcu_idle_exit() does. */
	local_irq_disable();
	rcu_cpuidle_exit();
}

/*
 * The idle task runs with preemption disabled, as in Linux: an interrupt
 * that makes a thread runnable must not switch away from the middle of
 * idle_nohz() (the CPU would run the thread while RCU still counts it as
 * dynticks-idle).  It schedules only from the top of its loop.  Every pass
 * either schedules or halts: a CPU with callbacks queued halts with its
 * tick running, as nohz=off does, instead of spinning (which would steal
 * the host's time from the CPUs that drive the grace period), and under
 * rcu=tree it is idle to RCU while it halts, tick or no tick.
 */
__noreturn void cpu_idle_loop(void)
{
	int cpu = raw_smp_processor_id();
	struct percpu *pc = this_cpu();

	preempt_disable();
	for (;;) {
		u64 halts = pc->stats.idle_halts;

		local_irq_disable();
		/* cpu_down() asked: the scheduler left us only this task. */
		if (unlikely(cpu_is_going(cpu)))
			cpu_die();
		if (this_cpu_read(need_resched)) {
			local_irq_enable();
			preempt_enable_no_resched();
			schedule();
			preempt_disable();
			continue;
		}
		if (!idle_keep_tick(cpu))
			idle_nohz(cpu);
		else
			idle_halt_tick(pc);	/* tick keeps running */
		local_irq_enable();
		/*
		 * A pass that neither scheduled nor halted: a spin, unless a
		 * wake-up from another CPU set need_resched after the check
		 * at the top (with IRQs off, only its IPI waits): the next
		 * pass schedules.
		 */
		if (pc->stats.idle_halts == halts &&
		    !this_cpu_read(need_resched))
			pc->stats.idle_spins++;
		printk_flush_nmi();
	}
}
