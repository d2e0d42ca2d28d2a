// SPDX-License-Identifier: GPL-2.0
/* Tickless idle: idle CPUs take no ticks, IRQs do not restart the tick. */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/percpu.h"
#include "kernel/sort.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

struct tick_window {
	u64 before[NR_CPUS], after[NR_CPUS];
	u64 t0, t1;
	struct tick_gaps gaps;	/* the busy CPU's intervals */
};

static void snapshot_ticks(u64 *ticks)
{
	int cpu;

	for_each_online_cpu(cpu)
		ticks[cpu] = READ_ONCE(per_cpu_area(cpu)->stats.ticks);
}

/*
 * The busy CPU takes both snapshots itself, so that the CPU running the
 * test is asleep (idle) for the whole window, like the others.
 */
static void busy_1s(void *arg)
{
	struct tick_window *w = arg;
	int cpu, self = raw_smp_processor_id();

	/*
	 * Start once every other CPU (the test's own included, which is on
	 * its way to sleep in run_on_cpu()) is tickless-idle: on a slow host
	 * it may still be taking a tick or two of that transition.  Up to
	 * HOST_STALL_MS each (it was 200 ms): a CPU still ticking when the
	 * window opens fails the test on a correct kernel.
	 */
	for_each_online_cpu(cpu)
		for (int i = 0; i < HOST_STALL_MS && cpu != self &&
		     !READ_ONCE(per_cpu_area(cpu)->tick_stopped); i++)
			busy_wait_ns(NSEC_PER_MSEC);
	snapshot_ticks(w->before);
	w->t0 = ktime_get_ns();
	tick_gaps_start(&w->gaps, self);
	while (ktime_get_ns() - w->t0 < NSEC_PER_SEC) {
		busy_wait_ns(TICK_HARVEST_MS * NSEC_PER_MSEC);
		tick_gaps_harvest(&w->gaps);
	}
	w->t1 = ktime_get_ns();
	snapshot_ticks(w->after);
	/* While this CPU's tick still runs: it stops when we go idle. */
	w->gaps.timer_ns = timer_period_measured();
}

/*
 * One CPU busy for 1 s, the others idle: each idle CPU takes 0 ticks (1
 * at most, for the transition); the busy one takes about HZ.
 */
KTEST(tickless_idle)
{
	int busy = num_online_cpus() - 1, cpu, bad = 0;
	static struct tick_window w;

	msleep(50);	/* let everything from earlier tests settle */
	run_on_cpu(busy, busy_1s, &w);
	u64 t0 = w.t0, t1 = w.t1;

	for_each_online_cpu(cpu) {
		u64 n = w.after[cpu] - w.before[cpu];

		if (cpu == busy) {
			ktap_diag("tickless_idle: busy cpu%d took %lu ticks in %lu ms (HZ=%u)",
				  cpu, n, (t1 - t0) / NSEC_PER_MSEC, tick_hz);
			bad |= check_tick_rate(&w.gaps, n, t1 - t0);
		} else {
			ktap_diag("tickless_idle: idle cpu%d took %lu ticks", cpu,
				  n);
			bad |= KT_EXPECT(n <= 1, "idle cpu%d took %lu ticks",
					 cpu, n);
		}
	}
	return bad;
}

static volatile int stray_irqs;

static void stray_handler(void)
{
	stray_irqs++;
}

/*
 * An IPI to an idle CPU that wakes nothing leaves its tick stopped: no
 * idle exit, no tick.
 */
KTEST(idle_irq_stays_tickless)
{
	int bad = 0, tested = 0, cpu;

	request_irq(IRQ_TEST_LOW, stray_handler);
	for_each_online_cpu(cpu) {
		struct percpu *pc = per_cpu_area(cpu);

		if (cpu == raw_smp_processor_id())
			continue;
		/*
		 * Let it settle into tickless idle: at least 10 ms, and until
		 * it is there (up to HOST_STALL_MS), not 10 ms alone, which a
		 * host stall of that CPU could outlast on a correct kernel.
		 */
		msleep(10);
		wait_tickless_idle(cpu);
		u64 exits = READ_ONCE(pc->stats.idle_exit);
		u64 ticks = READ_ONCE(pc->stats.ticks);

		if (!READ_ONCE(pc->tick_stopped) || !READ_ONCE(pc->in_idle)) {
			ktap_diag("cpu%d is not tickless-idle", cpu);
			bad = 1;
			continue;
		}
		stray_irqs = 0;
		for (int i = 0; i < 10; i++) {
			/*
			 * One at a time: a second IPI sent while the first is
			 * still pending (a slow host) would merge with it.
			 */
			arch_send_ipi(cpu, IRQ_TEST_LOW);
			for (int t = 0; t < HOST_STALL_MS && stray_irqs == i;
			     t++)
				msleep(1);
		}
		msleep(2);
		bad |= KT_EXPECT(stray_irqs == 10, "cpu%d: %d of 10 IRQs", cpu,
				 stray_irqs);
		bad |= KT_EXPECT(READ_ONCE(pc->stats.idle_exit) == exits,
				 "cpu%d left idle", cpu);
		bad |= KT_EXPECT(READ_ONCE(pc->stats.ticks) == ticks,
				 "cpu%d took %lu ticks", cpu,
				 READ_ONCE(pc->stats.ticks) - ticks);
		bad |= KT_EXPECT(READ_ONCE(pc->tick_stopped),
				 "cpu%d restarted its tick", cpu);
		tested++;
	}
	request_irq(IRQ_TEST_LOW, NULL);
	if (!tested) {
		ktap_diag("needs a second CPU to be idle");
		return bad ? bad : KTEST_SKIP;
	}
	ktap_diag("%d idle CPUs took 10 IRQs each and stayed tickless", tested);
	return bad;
}

static volatile u64 woke_at;
static volatile int sleeper_ready;

static int sleeper(void *arg)
{
	struct task **self = arg;

	*self = current;
	for (;;) {
		set_current_state(TASK_SLEEPING);
		WRITE_ONCE(sleeper_ready, 1);
		schedule();
		woke_at = ktime_get_ns();
		if (READ_ONCE(sleeper_ready) == 2)
			return 0;
	}
}

/*
 * A wake-up IPI to a tickless-idle CPU gets the thread running.  With the
 * tick stopped nothing else would wake that CPU (the watchdog's timer is
 * on CPU 0), so a lost IPI shows as a latency without bound.  The median
 * is a figure (about 20 us under TCG on a quiet host); the bound, 50 ms,
 * only has to hold when the host's two cores are busy with other work
 * (1.7 ms seen beside a Linux build), not to measure anything.
 */
KTEST(idle_wake_latency)
{
	int cpu = num_online_cpus() - 1, bad = 0;
	struct task *t = NULL;
	u64 lat[21];

	if (cpu == raw_smp_processor_id()) {
		ktap_diag("needs a second CPU to wake");
		return KTEST_SKIP;
	}
	sleeper_ready = 0;
	kthread_run(sleeper, &t, cpu, "sleeper");
	for (int i = 0; i < 21; i++) {
		while (!READ_ONCE(sleeper_ready))
			msleep(1);
		/*
		 * Until the CPU is in its idle sleep: not a fixed 5 ms,
		 * which a host stall of that vCPU outlasts.
		 */
		bad |= KT_EXPECT(wait_flag(&per_cpu_area(cpu)->in_idle,
					   HOST_STALL_MS),
				 "cpu%d not idle before the wake-up", cpu);
		woke_at = 0;
		sleeper_ready = i == 20 ? 2 : 0;
		u64 t0 = ktime_get_ns();

		wake_up_process(t);
		while (!READ_ONCE(woke_at))
			;
		lat[i] = woke_at - t0;
	}
	sort_u64(lat, 21);
	ktap_diag("idle wake-up latency: median %lu us, max %lu us (21 trials)",
		  lat[10] / NSEC_PER_USEC, lat[20] / NSEC_PER_USEC);
	bad |= KT_EXPECT(lat[10] < 50 * NSEC_PER_MSEC, "median %lu us",
			 lat[10] / NSEC_PER_USEC);
	return bad;
}

/*
 * Callbacks mean "keep the tick", not "do not halt".  A thread waits in
 * synchronize_rcu() on the last CPU, so that CPU has a callback queued for
 * every grace period and its idle loop keeps the tick: it must still halt
 * between ticks.  No CPU's idle loop may pass without either halting or
 * scheduling (a spin) during 100 grace periods.
 */
static void sync_100(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++)
		synchronize_rcu();
}

KTEST(idle_no_spin)
{
	int cpu, last = 0, bad = 0;
	static u64 spins[NR_CPUS], halts[NR_CPUS];	/* not on the stack */

	for_each_online_cpu(cpu) {
		spins[cpu] = READ_ONCE(per_cpu_area(cpu)->stats.idle_spins);
		halts[cpu] = READ_ONCE(per_cpu_area(cpu)->stats.idle_halts);
		last = cpu;
	}
	run_on_cpu(last, sync_100, NULL);
	for_each_online_cpu(cpu) {
		struct cpu_stats *s = &per_cpu_area(cpu)->stats;
		u64 ds = READ_ONCE(s->idle_spins) - spins[cpu];
		u64 dh = READ_ONCE(s->idle_halts) - halts[cpu];

		ktap_diag("cpu%d: %lu idle-loop halts, %lu spins in 100 GPs",
			  cpu, dh, ds);
		bad |= KT_EXPECT(ds == 0, "cpu%d: the idle loop spun %lu times",
				 cpu, ds);
	}
	/* The waiter's CPU slept between ticks: the test saw a halt. */
	bad |= KT_EXPECT(READ_ONCE(per_cpu_area(last)->stats.idle_halts) >
			 halts[last], "cpu%d never halted", last);
	return bad;
}
