// SPDX-License-Identifier: GPL-2.0
/*
 * The torture test's CPU on/off thread, after rcutorture's onoff kthread
 * (its onoff_interval and onoff_holdoff): during the run it takes a
 * random CPU other than 0 offline, or brings it back if it is offline,
 * every torture_onoff_interval_ms, so that readers in tasks, IRQs and
 * NMIs land on CPUs about to go and just back.  It counts the completed
 * cpu_down() and cpu_up() calls and their durations, and brings every
 * CPU back before it exits.  Off unless torture_onoff_interval_ms is set.
 */
#include "kernel/hotplug.h"
#include "kernel/ktap.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/torture.h"

static unsigned int torture_onoff_interval_ms;
kparam_uint("torture_onoff_interval_ms", torture_onoff_interval_ms, 0, 60000,
	    "rcu torture: ms between CPU offline/online operations (0: none)");
static unsigned int torture_onoff_holdoff_ms = 500;
kparam_uint("torture_onoff_holdoff_ms", torture_onoff_holdoff_ms, 0, 600000,
	    "rcu torture: ms before the first CPU offline/online operation");
static unsigned int torture_onoff_min_cycles;
kparam_uint("torture_onoff_min_cycles", torture_onoff_min_cycles, 0, 100000,
	    "rcu torture: offline/online cycles the run must do (it runs on, up to 8 times its duration, until it has)");

struct onoff_stat {
	u64 n, total_ns, max_ns;
};

static struct onoff_stat onoff_down, onoff_up;
static u64 onoff_errors;

bool torture_onoff_wanted(void)
{
	return torture_onoff_interval_ms && nr_cpus_present > 1;
}

void torture_onoff_reset(void)
{
	onoff_down = (struct onoff_stat){ 0 };
	onoff_up = (struct onoff_stat){ 0 };
	onoff_errors = 0;
}

/* Completed cycles: an offline counts once the CPU is back. */
u64 torture_onoff_cycles(void)
{
	return min(READ_ONCE(onoff_down.n), READ_ONCE(onoff_up.n));
}

bool torture_onoff_enough(void)
{
	return !torture_onoff_wanted() ||
	       torture_onoff_cycles() >= torture_onoff_min_cycles;
}

static void onoff_note(struct onoff_stat *st, u64 ns)
{
	WRITE_ONCE(st->n, st->n + 1);
	st->total_ns += ns;
	if (ns > st->max_ns)
		st->max_ns = ns;
}

/* One cpu_down() or cpu_up() of cpu, timed; whichever it needs. */
static void onoff_one(int cpu)
{
	bool down = cpu_online(cpu);
	u64 t0 = ktime_get_ns();
	int err = down ? cpu_down(cpu) : cpu_up(cpu);

	if (err) {
		onoff_errors++;
		printk("rcu-torture: !!! %s(%d) = %d\n",
		       down ? "cpu_down" : "cpu_up", cpu, err);
		return;
	}
	onoff_note(down ? &onoff_down : &onoff_up, ktime_get_ns() - t0);
}

/* Sleep ms in slices, so that a stop is seen within 10 ms. */
static void onoff_sleep(unsigned int ms, const int *stop)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (!READ_ONCE(*stop) && ktime_get_ns() < end)
		msleep(min(ms, 10U));
}

void torture_onoff_loop(const int *stop)
{
	u64 rng = 0x853c49e6748fea9bULL;
	int n = (int)nr_cpus_present;

	onoff_sleep(torture_onoff_holdoff_ms, stop);
	while (!READ_ONCE(*stop)) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		onoff_one(1 + (int)(rng % (u64)(n - 1)));
		onoff_sleep(torture_onoff_interval_ms, stop);
	}
	/* Every CPU back: what follows the run expects them all. */
	for (int cpu = 1; cpu < n; cpu++)
		if (!cpu_online(cpu))
			onoff_one(cpu);
}

static u64 onoff_mean_ms(const struct onoff_stat *st)
{
	return st->n ? st->total_ns / st->n / NSEC_PER_MSEC : 0;
}

void torture_onoff_print(bool diag)
{
	if (!torture_onoff_wanted())
		return;
	printk("rcu-torture: onoff: %lu cycles; %lu offline (mean %lu max %lu ms), %lu online (mean %lu max %lu ms), %lu errors\n",
	       (unsigned long)torture_onoff_cycles(),
	       (unsigned long)onoff_down.n, (unsigned long)onoff_mean_ms(&onoff_down),
	       (unsigned long)(onoff_down.max_ns / NSEC_PER_MSEC),
	       (unsigned long)onoff_up.n, (unsigned long)onoff_mean_ms(&onoff_up),
	       (unsigned long)(onoff_up.max_ns / NSEC_PER_MSEC),
	       (unsigned long)onoff_errors);
	if (diag)
		ktap_diag("rcu-torture: onoff: %lu cycles (at least %u asked), %lu errors",
			  (unsigned long)torture_onoff_cycles(),
			  torture_onoff_min_cycles,
			  (unsigned long)onoff_errors);
}

bool torture_onoff_failed(void)
{
	return onoff_errors || !torture_onoff_enough();
}
