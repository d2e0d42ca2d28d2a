// SPDX-License-Identifier: GPL-2.0
/* The scheduling-clock tick and one-shot timers. */
#include "asm/arch.h"
#include "kernel/percpu.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "tests/kernel/kernel/util.h"

/*
 * Every CPU takes ticks at HZ, judged by check_tick_rate(): the period
 * its timer counts, no more ticks than HZ allows, and the period
 * measured from the intervals between its ticks when the host ran the
 * vCPU for most of the window.  Under
 * TCG a host that stalls a vCPU merges its ticks, which a plain count
 * (or, past a point, the intervals) would take for a slow tick.  The tick is kept on in idle (tick_dep_set_cpu()) for the
 * window: idle vCPUs then cost the host nothing between ticks.
 *
 * At most TICK_SAMPLE_CPUS CPUs tick at a time, in rounds over at most
 * TICK_SAMPLE_MAX of them (sample_online_cpus()): under TCG every ticking
 * vCPU costs the host time, and with 8 of them at 1000 Hz beside a kernel
 * build on a 2-core host, ticks merged to a 2 ms period.  The verdict
 * must not depend on how many vCPUs share the host's cores, and the
 * test's length must not grow with them.
 */
#define TICK_SAMPLE_CPUS	2
#define TICK_SAMPLE_MAX		8

static int tick_sample_round(const int *cpus, int n)
{
	/* Not on the stack: 8 KB each. */
	static struct tick_gaps gaps[TICK_SAMPLE_CPUS];
	u64 t0, t1, before[TICK_SAMPLE_CPUS];
	int bad = 0;

	for (int i = 0; i < n; i++) {
		tick_dep_set_cpu(cpus[i]);
		/* An idle CPU re-reads it when something wakes it. */
		if (cpus[i] != raw_smp_processor_id())
			arch_send_ipi(cpus[i], IRQ_RESCHEDULE);
	}
	msleep(100);
	t0 = ktime_get_ns();
	for (int i = 0; i < n; i++) {
		before[i] = READ_ONCE(per_cpu_area(cpus[i])->stats.ticks);
		tick_gaps_start(&gaps[i], cpus[i]);
	}
	/* The whole second's intervals, not the ring's last 64. */
	while (ktime_get_ns() - t0 < NSEC_PER_SEC) {
		msleep(TICK_HARVEST_MS);
		for (int i = 0; i < n; i++)
			tick_gaps_harvest(&gaps[i]);
	}
	t1 = ktime_get_ns();
	for (int i = 0; i < n; i++) {
		u64 d = READ_ONCE(per_cpu_area(cpus[i])->stats.ticks) -
			before[i];

		bad |= check_tick_rate(&gaps[i], d, t1 - t0);
	}
	for (int i = 0; i < n; i++) {
		tick_dep_clear_cpu(cpus[i]);
		if (cpus[i] != raw_smp_processor_id())
			arch_send_ipi(cpus[i], IRQ_RESCHEDULE);
	}
	return bad;
}

KTEST(timer_periodic)
{
	int cpus[TICK_SAMPLE_MAX], rounds = 0, bad = 0;
	int n = sample_online_cpus(cpus, TICK_SAMPLE_MAX, -1);

	ktap_diag_cpus("timer_periodic: sampled", cpus, n);
	for (int i = 0; i < n; i += TICK_SAMPLE_CPUS, rounds++)
		bad |= tick_sample_round(cpus + i,
					 min(n - i, TICK_SAMPLE_CPUS));
	ktap_diag("%d rounds of at most %d CPUs ticking at once", rounds,
		  TICK_SAMPLE_CPUS);
	return bad;
}

struct oneshot {
	struct timer timer;
	u64 expires;
	u64 fired_at;
	int fired;
};

static void oneshot_fn(struct timer *t)
{
	struct oneshot *o = container_of(t, struct oneshot, timer);

	o->fired_at = ktime_get_ns();
	o->fired++;
}

static int oneshot_bad[NR_CPUS];

/*
 * On each CPU: arm a timer 5 ms out and go idle (the tick stops, so the
 * LAPIC runs one-shot for it).  It must fire once, and not early.
 */
static void oneshot_on_cpu(int cpu, void *arg)
{
	struct oneshot o = { .fired = 0 };

	(void)arg;
	timer_init(&o.timer, oneshot_fn);
	preempt_disable();
	o.expires = ktime_get_ns() + 5 * NSEC_PER_MSEC;
	add_timer(&o.timer, o.expires);
	preempt_enable();
	msleep(30);
	/* o is on this stack: take it off if it never fired. */
	del_timer_sync(&o.timer);
	oneshot_bad[cpu] = KT_EXPECT(o.fired == 1, "cpu%d: fired %d times",
				     cpu, o.fired) ||
			   KT_EXPECT(o.fired_at >= o.expires,
				     "cpu%d: fired %lu ns early", cpu,
				     o.expires - o.fired_at);
	ktap_diag("cpu%d: one-shot fired %lu us after its expiry", cpu,
		  (o.fired_at - o.expires) / NSEC_PER_USEC);
}

KTEST(timer_oneshot)
{
	int cpu, bad = 0;

	run_on_each_cpu(oneshot_on_cpu, NULL);
	for_each_online_cpu(cpu)
		bad |= oneshot_bad[cpu];
	return bad;
}

/*
 * del_timer_sync() must not return while the timer's function still runs
 * on another CPU: a sleeper's timer lives on its stack (schedule_deadline()),
 * and the function reads it.  The function spins between its two marks
 * until del_timer_sync() says, through del_timer_sync_hook(), that it saw
 * the function running and waits for it: a del_timer_sync() that returned
 * on "no longer pending" alone sees started without finished, however
 * long the host stalls either vCPU (a fixed 20 ms spin let a vCPU stalled
 * that long by the host hide the bug).  The spin gives up after
 * SLOW_TIMER_MAX_NS so that a kernel that waits without the hook still
 * ends the test.  And a timer still pending on another CPU is taken off
 * there, not waited for: it may be seconds away.
 */
#define SLOW_TIMER_MAX_NS	(5 * NSEC_PER_SEC)

struct slow_timer {
	struct timer timer;
	u64 delay_ns;		/* arm_slow_timer() arms it this far ahead */
	int started, finished;
	int release;		/* the function may finish */
	int deleting;		/* the test is about to call del_timer_sync() */
};

static struct slow_timer slow;

static void slow_timer_fn(struct timer *t)
{
	struct slow_timer *s = container_of(t, struct slow_timer, timer);
	u64 now = ktime_get_ns(), end = 0;
	u64 backstop = now + 12 * SLOW_TIMER_MAX_NS;

	WRITE_ONCE(s->started, 1);
	/*
	 * The give-up clock starts when the test calls del_timer_sync(),
	 * not when the function starts: a host that stalled the test's
	 * vCPU for 5 s before the call let the function finish on its own,
	 * and a del_timer_sync() that did not wait passed (make
	 * test-under-load).  The backstop ends a test that never calls it.
	 */
	while (!READ_ONCE(s->release) && now < backstop) {
		if (!end && READ_ONCE(s->deleting))
			end = now + SLOW_TIMER_MAX_NS;
		if (end && now >= end)
			break;
		arch_cpu_relax();
		now = ktime_get_ns();
	}
	WRITE_ONCE(s->finished, 1);
}

/* del_timer_sync() found the function running: let it finish. */
static void slow_timer_release(struct timer *t)
{
	if (t == &slow.timer)
		WRITE_ONCE(slow.release, 1);
}

static void arm_slow_timer(void *arg)
{
	struct slow_timer *s = arg;

	preempt_disable();
	add_timer(&s->timer, ktime_get_ns() + s->delay_ns);
	preempt_enable();
}

static int arm_slow_timer_thread(void *arg)
{
	arm_slow_timer(arg);
	return 0;
}

KTEST(timer_del_sync)
{
	int other = -1, cpu, bad = 0;
	unsigned long flags;

	for_each_online_cpu(cpu)
		if (cpu != raw_smp_processor_id())
			other = cpu;
	if (other < 0) {
		ktap_diag("needs 2 CPUs");
		return KTEST_SKIP;
	}
	/* Running on another CPU: waits for the function to finish. */
	timer_init(&slow.timer, slow_timer_fn);
	slow.started = slow.finished = slow.release = slow.deleting = 0;
	slow.delay_ns = 2 * NSEC_PER_MSEC;
	WRITE_ONCE(del_timer_sync_hook, slow_timer_release);
	/*
	 * Armed by a thread of its own, not run_on_cpu(): the function
	 * spins in the timer interrupt on top of whatever armed it, and a
	 * run_on_cpu() helper that the host stalled past the 2 ms was
	 * still unfinished under it, so the test waited on the helper and
	 * never released the function (a hard lockup, quiet host).
	 */
	kthread_run(arm_slow_timer_thread, &slow, other, "arm-slow-timer");
	bad |= KT_EXPECT(wait_flag(&slow.started, HOST_STALL_MS),
			 "the 2 ms timer did not start on cpu%d in 5 s", other);
	WRITE_ONCE(slow.deleting, 1);
	del_timer_sync(&slow.timer);
	bad |= KT_EXPECT(READ_ONCE(slow.finished),
			 "returned with the function still running on cpu%d",
			 other);
	bad |= KT_EXPECT(slow.timer.cpu == -1, "still pending on cpu%d",
			 slow.timer.cpu);
	/* A del_timer_sync() that did not wait: end the function first. */
	WRITE_ONCE(slow.release, 1);
	while (!READ_ONCE(slow.finished))
		arch_cpu_relax();
	/* From here on only del_timer_sync_hook() lets the function finish. */
	WRITE_ONCE(slow.release, 0);
	/* Pending on another CPU, 5 s away: taken off there at once. */
	slow.started = slow.finished = 0;
	slow.delay_ns = 5 * NSEC_PER_SEC;
	run_on_cpu(other, arm_slow_timer, &slow);
	u64 t0 = ktime_get_ns();

	WRITE_ONCE(slow.deleting, 1);
	del_timer_sync(&slow.timer);
	u64 dt = ktime_get_ns() - t0;

	ktap_diag("del_timer_sync() of a timer pending on cpu%d 5 s away: %llu us",
		  other, (unsigned long long)(dt / NSEC_PER_USEC));
	bad |= KT_EXPECT(dt < NSEC_PER_SEC && !READ_ONCE(slow.started) &&
			 slow.timer.cpu == -1,
			 "waited %llu ms for a remote timer (started %d)",
			 (unsigned long long)(dt / NSEC_PER_MSEC),
			 READ_ONCE(slow.started));
	/*
	 * Pending on this CPU: taken off, its function never runs.  IRQs
	 * off from the arming to the deletion, so that the tick cannot run
	 * it in between: with preemption off only, a host that stalled the
	 * vCPU past the 2 ms let it fire first (a make test failure under
	 * load).  Local and not running, it needs no wait.
	 */
	slow.started = slow.finished = 0;
	slow.delay_ns = 2 * NSEC_PER_MSEC;
	local_irq_save(flags);
	arm_slow_timer(&slow);
	del_timer_sync(&slow.timer);	/* deleting is still 1 */
	local_irq_restore(flags);
	msleep(5);
	bad |= KT_EXPECT(!READ_ONCE(slow.started) && slow.timer.cpu == -1,
			 "a local timer ran after del_timer_sync()");
	WRITE_ONCE(del_timer_sync_hook, NULL);
	return bad;
}
