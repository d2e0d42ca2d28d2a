// SPDX-License-Identifier: GPL-2.0
#include "tests/kernel/kernel/util.h"
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/mm.h"
#include "kernel/printk.h"
#include "kernel/sort.h"
#include "kernel/time.h"
#include "kernel/wait.h"

struct each_cpu {
	void (*fn)(int cpu, void *arg);
	void (*fn1)(void *arg);
	void *arg;
	int cpu;
	struct completion *done;
};

static int each_cpu_thread(void *p)
{
	struct each_cpu *e = p;

	if (e->fn)
		e->fn(e->cpu, e->arg);
	else
		e->fn1(e->arg);
	complete(e->done);
	return 0;
}

/*
 * Wait for a test's worker threads.  In bounded slices, so that the
 * hung-task check (kernel/watchdog.c) leaves the wait alone: a test may
 * legitimately run for minutes (litmus_sb_nohz: up to litmus_max_s), and
 * the ktap runner's test_timeout is what supervises it.
 */
static void wait_for_workers(struct completion *done)
{
	while (!wait_for_completion_timeout(done, 10 * NSEC_PER_SEC))
		;
}

/*
 * At most this many at once: 254 vCPUs busy together on 2 host cores
 * starve each other for seconds (the hard-lockup detector once saw a
 * vCPU take no interrupt for 10 s), and tests must not depend on how
 * many vCPUs share the host.
 */
#define EACH_CPU_BATCH	16

void run_on_each_cpu(void (*fn)(int cpu, void *arg), void *arg)
{
	/* Not on the stack: NR_CPUS of them would take most of it. */
	struct each_cpu *e = kmalloc(sizeof(*e) * NR_CPUS);
	struct completion done;
	int cpu, n = 0;

	BUG_ON(!e);
	init_completion(&done);
	for_each_online_cpu(cpu) {
		if (n == EACH_CPU_BATCH) {
			wait_for_workers(&done);	/* one finished */
			n--;
		}
		e[cpu] = (struct each_cpu){ fn, NULL, arg, cpu, &done };
		kthread_run(each_cpu_thread, &e[cpu], cpu, "test-each");
		n++;
	}
	while (n--)
		wait_for_workers(&done);
	kfree(e);
}

void run_on_cpu(int cpu, void (*fn)(void *arg), void *arg)
{
	struct completion done;
	struct each_cpu e = { NULL, fn, arg, cpu, &done };

	init_completion(&done);
	kthread_run(each_cpu_thread, &e, cpu, "test-on-cpu");
	wait_for_workers(&done);
}

bool wait_flag(volatile int *flag, unsigned int timeout_ms)
{
	u64 end = ktime_get_ns() + timeout_ms * NSEC_PER_MSEC;

	while (!READ_ONCE(*flag))
		if (ktime_get_ns() > end)
			return false;
	return true;
}

void preempt_self(void)
{
	preempt_disable();
	/* The switch happens in preempt_enable(): __schedule(true). */
	this_cpu_write(need_resched, 1);
	preempt_enable();
}

void preempted_wait_ms(unsigned int ms)
{
	u64 end = ktime_get_ns() + ms * NSEC_PER_MSEC;

	do {
		preempt_self();
		busy_wait_ns(50 * NSEC_PER_USEC);
	} while (ktime_get_ns() < end);
}

struct cpu_counts *cpu_counts_snap(void)
{
	struct cpu_counts *c = kmalloc(sizeof(*c) * NR_CPUS);
	int cpu;

	BUG_ON(!c);
	for_each_online_cpu(cpu) {
		struct cpu_stats *st = &per_cpu_area(cpu)->stats;

		c[cpu].ticks = READ_ONCE(st->ticks);
		c[cpu].wakeups = READ_ONCE(st->irqs) + READ_ONCE(st->nmis);
	}
	return c;
}

int idle_cpus_delta(const struct cpu_counts *before, int busy,
		    const char *what, struct cpu_counts *sum)
{
	bool all = num_online_cpus() <= 8;
	int cpu, noisy = 0;

	if (sum)
		*sum = (struct cpu_counts){ 0, 0 };
	for_each_online_cpu(cpu) {
		struct cpu_stats *st = &per_cpu_area(cpu)->stats;
		u64 t = READ_ONCE(st->ticks) - before[cpu].ticks;
		u64 w = READ_ONCE(st->irqs) + READ_ONCE(st->nmis) -
			before[cpu].wakeups;

		if (all || (cpu != busy && (t || w)))
			ktap_diag("%s: cpu %d: %lu ticks, %lu interrupts%s",
				  what, cpu, t, w,
				  cpu == busy ? " (busy)" : "");
		if (cpu == busy)
			continue;
		noisy += t || w;
		if (sum) {
			sum->ticks += t;
			sum->wakeups += w;
		}
	}
	return noisy;
}

int sample_online_cpus(int *cpus, int max, int exclude)
{
	static u64 offset_seed;
	int all[NR_CPUS], n = 0, cpu;
	u64 off;

	for_each_online_cpu(cpu)
		if (cpu != exclude)
			all[n++] = cpu;
	if (n <= max) {
		for (int i = 0; i < n; i++)
			cpus[i] = all[i];
		return n;
	}
	if (!offset_seed)
		offset_seed = arch_cycles() | 1;
	off = test_rand(&offset_seed) % (u64)(n / max);
	for (int i = 0; i < max; i++)
		cpus[i] = all[off + (u64)i * n / max];
	return max;
}

void ktap_diag_cpus(const char *what, const int *cpus, int n)
{
	char buf[400];
	int len = 0;

	for (int i = 0; i < n && len < (int)sizeof(buf) - 8; i++)
		len += snprintf(buf + len, sizeof(buf) - len, " %d", cpus[i]);
	ktap_diag("%s: %d of %u CPUs:%s", what, n, num_online_cpus(), buf);
}

u64 test_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

void tick_gaps_start(struct tick_gaps *g, int cpu)
{
	g->cpu = cpu;
	g->n = 0;
	g->timer_ns = 0;
	g->idx = READ_ONCE(per_cpu_area(cpu)->stats.tick_gap_idx);
}

void tick_gaps_harvest(struct tick_gaps *g)
{
	struct cpu_stats *st = &per_cpu_area(g->cpu)->stats;
	/*
	 * Not the newest entry: the tick may have advanced the index before
	 * its store to the slot is visible here; the next harvest takes it.
	 */
	u32 end = READ_ONCE(st->tick_gap_idx) - 1;

	/* Slots the tick may be overwriting now are lost, not misread. */
	if ((s32)(end - g->idx) > 60)
		g->idx = end - 60;
	for (; (s32)(end - g->idx) > 0 && g->n < TICK_GAPS_MAX; g->idx++)
		g->gap[g->n++] = READ_ONCE(st->tick_gap_us[g->idx % 64]);
}

u64 tick_period_us(const struct tick_gaps *g)
{
	/* Not on the stack (16 KB); tests run one at a time. */
	static u64 pair[TICK_GAPS_MAX];

	if (g->n < 2)
		return 0;
	for (u32 i = 0; i + 1 < g->n; i++)
		pair[i] = ((u64)g->gap[i] + g->gap[i + 1]) / 2;
	sort_u64(pair, g->n - 1);
	return pair[(g->n - 1) / 4];	/* lower quartile: see util.h */
}

u64 timer_period_measured(void)
{
	u64 ns = 0;

	/*
	 * 0 says no reload was timed in the window: at 255 vCPUs on two host
	 * cores the host ran this one in slices too short for two clean
	 * reloads (seen once, in half a second).  That is no period; measure
	 * again, a bounded number of times.
	 */
	for (int i = 0; i < TIMER_PERIOD_TRIES && !ns; i++)
		ns = arch_timer_period_ns();
	return ns;
}

static void timer_period_here(void *arg)
{
	*(u64 *)arg = timer_period_measured();
}

int check_tick_rate(const struct tick_gaps *g, u64 ticks, u64 window_ns)
{
	u64 want_us = 1000000 / tick_hz;
	u64 gap = tick_period_us(g);
	u64 expect = window_ns * tick_hz / NSEC_PER_SEC;
	u64 share = expect ? ticks * 100 / expect : 0;
	u64 hw_ns = g->timer_ns, hw;
	int bad;

	/* The CPU's own timer, as its hardware counts (IRQs off there). */
	if (!hw_ns)
		smp_call_function_single(g->cpu, timer_period_here, &hw_ns,
					 true);
	hw = hw_ns / NSEC_PER_USEC;
	ktap_diag("cpu%d: %lu ticks in %lu ms (%lu%% of HZ=%u), tick period %lu us (want %lu) from %u intervals, timer counts %lu us",
		  g->cpu, ticks, window_ns / NSEC_PER_MSEC, share, tick_hz,
		  gap, want_us, g->n, hw);
	/*
	 * The tick runs (a handful of ticks: a host that ran the vCPU for 5%
	 * of a second let 53 through), and at the period its timer counts.
	 */
	bad = KT_EXPECT(ticks >= 8 && hw * 10 >= want_us * 8 &&
			hw * 10 <= want_us * 12,
			"cpu%d: %lu ticks, tick interval %lu us, not within 20%% of %lu us (as the timer counts)",
			g->cpu, ticks, hw, want_us);
	/*
	 * A tick that runs fast shows in the count: a host that stalls the
	 * vCPU merges ticks, never adds one, so more than 120% of HZ is the
	 * kernel's doing whatever the host did.
	 */
	bad |= KT_EXPECT(share <= 120,
			 "cpu%d: %lu ticks in %lu ms, %lu%% of HZ=%u: the tick runs fast",
			 g->cpu, ticks, window_ns / NSEC_PER_MSEC, share,
			 tick_hz);
	/*
	 * A tick that runs slow shows in the intervals, when the host ran
	 * the vCPU for most of the window.  When it took fewer than
	 * TICK_SHARE_MIN percent of its ticks, the host merged them (guest
	 * time runs on while the vCPU waits) and the intervals measure the
	 * host: the timer's own count above still judges the period.  The
	 * intervals give no lower bound: late deliveries followed by ones on
	 * schedule pull the lower quartile down (2633 us for 4000, with 96%
	 * of the ticks taken, at 255 vCPUs on a loaded 2-core host).
	 */
	if (share < TICK_SHARE_MIN) {
		ktap_diag("cpu%d: %lu%% of its ticks taken: the host stalled the vCPU, intervals not judged",
			  g->cpu, share);
		return bad;
	}
	return bad | KT_EXPECT(gap * 10 <= want_us * 12,
			       "cpu%d: tick interval %lu us, over 120%% of %lu us",
			       g->cpu, gap, want_us);
}

void wait_others_tickless_idle(int self)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != self && !wait_tickless_idle(cpu))
			ktap_diag("cpu%d not tickless-idle after %d ms", cpu,
				  HOST_STALL_MS);
	msleep(20);
}

bool wait_tickless_idle(int cpu)
{
	struct percpu *pc = per_cpu_area(cpu);

	for (int t = 0; t < HOST_STALL_MS; t++) {
		if (READ_ONCE(pc->tick_stopped) && READ_ONCE(pc->in_idle))
			return true;
		msleep(1);
	}
	return READ_ONCE(pc->tick_stopped) && READ_ONCE(pc->in_idle);
}
