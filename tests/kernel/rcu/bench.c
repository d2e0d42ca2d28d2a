// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks (issue 8), run by make bench (tools/bench.py).  Hooks, not in
 * the default suite, and they never fail on performance: a benchmark
 * fails only if it could not measure at all.  Every figure is printed as
 * one KTAP diagnostic "# bench NAME key=value ..." for the host tool, and
 * every comparison is made within one boot (busy vs idle, nohz on vs off,
 * trace on vs off), so that the host's load cancels out of the ratio.
 *
 * Cycle figures come from the TSC; under TCG it follows host time, so
 * they are host-time costs of emulated code, comparable only to each
 * other.
 */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/irqflags.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sort.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/trace.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/rcu.h"
#include "tests/kernel/kernel/util.h"
#include "tests/kernel/rcu/bench.h"
#include "tests/kernel/rcu/util.h"

#define GP_SAMPLES	200
#define IDLE_GPS	1000
/* nohz=off: fewer, since each GP waits for idle CPUs' ticks; per 1000. */
#define IDLE_GPS_OFF	300

void bench_boot_time(void)
{
	static int done;

	if (done++)
		return;
	ktap_diag("bench boot to_first_test_us=%lu",
		  ktime_get_ns() / NSEC_PER_USEC);
}

/* Tenths of a tick, so the table can show "3.4". */
static u64 ns_to_tick10(u64 ns)
{
	return (ns * tick_hz * 10 + NSEC_PER_SEC / 2) / NSEC_PER_SEC;
}

/* ------------------------------------------------------------------ */
/* synchronize_rcu() latency, with the other CPUs idle and all busy    */
/* ------------------------------------------------------------------ */

static u64 gp_samples[GP_SAMPLES];
static volatile int spin_stop;

static int spinner(void *arg)
{
	(void)arg;
	/* Preemptible busy loop: the CPU is busy (tick on, counter odd). */
	while (!READ_ONCE(spin_stop))
		busy_wait_ns(100 * NSEC_PER_USEC);
	return 0;
}

int bench_spin_start(int self)
{
	int cpu, n = 0;

	WRITE_ONCE(spin_stop, 0);
	for_each_online_cpu(cpu)
		if (cpu != self) {
			kthread_run(spinner, NULL, cpu, "bench-spin");
			n++;
		}
	msleep(20);		/* each spinner on its CPU */
	return n;
}

void bench_spin_stop(void)
{
	WRITE_ONCE(spin_stop, 1);
	msleep(20);		/* the spinners exit */
}

/* Idle-loop passes on all CPUs: those that halted, those that spun. */
static void idle_passes(u64 *halts, u64 *spins)
{
	int cpu;

	*halts = *spins = 0;
	for_each_online_cpu(cpu) {
		*halts += READ_ONCE(per_cpu_area(cpu)->stats.idle_halts);
		*spins += READ_ONCE(per_cpu_area(cpu)->stats.idle_spins);
	}
}

static void gp_latency(const char *mode)
{
	u64 med, p99, h0, s0, h1, s1;

	idle_passes(&h0, &s0);
	for (int i = 0; i < GP_SAMPLES; i++) {
		u64 t0 = ktime_get_ns();

		synchronize_rcu();
		gp_samples[i] = ktime_get_ns() - t0;
	}
	idle_passes(&h1, &s1);
	sort_u64(gp_samples, GP_SAMPLES);
	med = gp_samples[GP_SAMPLES / 2];
	p99 = gp_samples[GP_SAMPLES * 99 / 100];
	ktap_diag("bench gp_latency cpus=%u mode=%s n=%d median_us=%lu p99_us=%lu median_tick10=%lu p99_tick10=%lu hz=%u",
		  num_online_cpus(), mode, GP_SAMPLES, med / NSEC_PER_USEC,
		  p99 / NSEC_PER_USEC, ns_to_tick10(med), ns_to_tick10(p99),
		  tick_hz);
	/* Per 100 GPs: a spinning idle loop makes thousands per GP. */
	ktap_diag("bench idle_passes cpus=%u mode=%s gps=%d halts_per_100gp=%lu spins_per_100gp=%lu",
		  num_online_cpus(), mode, GP_SAMPLES,
		  (h1 - h0) * 100 / GP_SAMPLES, (s1 - s0) * 100 / GP_SAMPLES);
}

static void gp_latency_test(void *arg)
{
	int n;

	(void)arg;
	msleep(20);		/* let the other CPUs settle into idle */
	gp_latency("idle");
	n = bench_spin_start(raw_smp_processor_id());
	gp_latency("busy");
	bench_spin_stop();
	ktap_diag("bench gp_latency_note busy_cpus=%d", n);
}

KTEST_HOOK(bench_gp_latency)
{
	bench_boot_time();
	run_on_cpu(0, gp_latency_test, NULL);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Ticks and wake-ups of idle CPUs per 1000 GPs, nohz on vs off        */
/* ------------------------------------------------------------------ */

static void nop(void *arg)
{
	(void)arg;
}

static void idle_ticks(const char *mode, u64 gps)
{
	struct cpu_counts *before = cpu_counts_snap(), sum;
	int self = raw_smp_processor_id();
	u64 c0, t0, ns;

	c0 = rcu_batches_completed();
	t0 = ktime_get_ns();
	/* completed rises once per GP; bounded in case GPs crawl. */
	while (rcu_batches_completed() - c0 < gps &&
	       ktime_get_ns() - t0 < 120 * NSEC_PER_SEC)
		synchronize_rcu();
	ns = ktime_get_ns() - t0;
	c0 = rcu_batches_completed() - c0;
	idle_cpus_delta(before, self, "idle_ticks", &sum);
	kfree(before);
	ktap_diag("bench idle_ticks cpus=%u nohz=%s idle_cpus=%u gps=%lu ms=%lu ticks=%lu wakeups=%lu ticks_per_1000gp=%lu wakeups_per_1000gp=%lu",
		  num_online_cpus(), mode, num_online_cpus() - 1, c0,
		  ns / NSEC_PER_MSEC, sum.ticks, sum.wakeups,
		  c0 ? sum.ticks * 1000 / c0 : 0,
		  c0 ? sum.wakeups * 1000 / c0 : 0);
}

/* Make every other CPU leave hlt, so it re-reads nohz_enabled. */
static void kick_others(void)
{
	int self = raw_smp_processor_id();
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != self)
			smp_call_function_single(cpu, nop, NULL, true);
}

static void idle_ticks_test(void *arg)
{
	unsigned int saved = nohz_enabled;

	(void)arg;
	msleep(20);
	idle_ticks("on", IDLE_GPS);
	WRITE_ONCE(nohz_enabled, 0);
	kick_others();
	msleep(20);
	idle_ticks("off", IDLE_GPS_OFF);
	WRITE_ONCE(nohz_enabled, saved);
	kick_others();
	msleep(20);
}

KTEST_HOOK(bench_idle_ticks)
{
	bench_boot_time();
	if (num_online_cpus() < 2) {
		ktap_diag("bench idle_ticks cpus=1 skipped=no_idle_cpu");
		return 0;
	}
	run_on_cpu(0, idle_ticks_test, NULL);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Cycle costs                                                         */
/* ------------------------------------------------------------------ */

static void reader_cost(void *arg)
{
	u64 empty, irq, outer, nested, outer_trace;
	unsigned long flags;
	unsigned int saved = trace_enabled;

	(void)arg;
	WRITE_ONCE(trace_enabled, 0);
	MEASURE(empty, (void)0);
	MEASURE(irq, local_irq_save(flags); local_irq_restore(flags));
	MEASURE(outer, rcu_read_lock(); rcu_read_unlock());
	rcu_read_lock();
	MEASURE(nested, rcu_read_lock(); rcu_read_unlock());
	rcu_read_unlock();
	trace_start();		/* allocates the rings if trace was off */
	MEASURE(outer_trace, rcu_read_lock(); rcu_read_unlock());
	WRITE_ONCE(trace_enabled, saved);
	ktap_diag("bench reader_cost loop_c=%lu.%02lu irq_pair_c=%lu.%02lu outer_pair_c=%lu.%02lu nested_pair_c=%lu.%02lu outer_pair_trace_c=%lu.%02lu",
		  C100(empty), C100(irq), C100(outer), C100(nested),
		  C100(outer_trace));
}

KTEST_HOOK(bench_reader_cost)
{
	bench_boot_time();
	run_on_cpu(0, reader_cost, NULL);
	return 0;
}

/*
 * What an allocation adds to a call_rcu() post (make bench-linux's
 * allocating row): kmalloc() of the benchmark's 32-byte object and its
 * kfree(), with interrupts on, as the post makes them, and off; the
 * interrupt save/restore pair kmalloc() takes; and memset() of 64 bytes,
 * the class block (kmalloc() itself zeroes with an inline "rep stos").
 * Back to back, each kfree() puts the block where the next kmalloc()
 * takes it: this is the per-CPU list's fast path only.  Run by hand:
 * tests=bench_kmalloc_cost (docs/benchmarks.md).
 */
static void kmalloc_cost(void *arg)
{
	static u64 block[8];
	/* volatile: a size the compiler cannot see, so memset() is called */
	volatile size_t len = sizeof(block);
	u64 empty, irq, pair, pair_off, mset;
	unsigned long flags;

	(void)arg;
	MEASURE(empty, (void)0);
	MEASURE(irq, local_irq_save(flags); local_irq_restore(flags));
	MEASURE(pair, kfree(kmalloc(32)));
	local_irq_save(flags);
	MEASURE(pair_off, kfree(kmalloc(32)));
	local_irq_restore(flags);
	MEASURE(mset, memset(block, 0, len));
	ktap_diag("bench kmalloc_cost loop_c=%lu.%02lu irq_pair_c=%lu.%02lu kmalloc_kfree_c=%lu.%02lu kmalloc_kfree_irqs_off_c=%lu.%02lu memset64_c=%lu.%02lu cycles_per_us=%lu",
		  C100(empty), C100(irq), C100(pair), C100(pair_off),
		  C100(mset), (unsigned long)arch_cycles_per_us());
}

KTEST_HOOK(bench_kmalloc_cost)
{
	bench_boot_time();
	run_on_cpu(0, kmalloc_cost, NULL);
	return 0;
}

/* One trace site, off and on, against the same loop with no site. */
static void trace_cost(void *arg)
{
	u64 empty, off, on;
	unsigned int saved = trace_enabled;

	(void)arg;
	WRITE_ONCE(trace_enabled, 0);
	MEASURE(empty, (void)0);
	MEASURE(off, trace_event(TRACE_MARK, __i, 0));
	trace_start();		/* allocates the rings if trace was off */
	MEASURE(on, trace_event(TRACE_MARK, __i, 0));
	WRITE_ONCE(trace_enabled, saved);
	ktap_diag("bench trace_cost loop_c=%lu.%02lu off_c=%lu.%02lu on_c=%lu.%02lu",
		  C100(empty), C100(off), C100(on));
}

KTEST_HOOK(bench_trace_cost)
{
	bench_boot_time();
	run_on_cpu(0, trace_cost, NULL);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The two RCU flavours side by side (one boot per flavour)            */
/* ------------------------------------------------------------------ */

static u64 exp_samples[GP_SAMPLES];

static void flavor_gp(const char *mode)
{
	for (int i = 0; i < GP_SAMPLES; i++) {
		u64 t0 = ktime_get_ns();

		synchronize_rcu();
		gp_samples[i] = ktime_get_ns() - t0;
		t0 = ktime_get_ns();
		synchronize_rcu_expedited();
		exp_samples[i] = ktime_get_ns() - t0;
	}
	sort_u64(gp_samples, GP_SAMPLES);
	sort_u64(exp_samples, GP_SAMPLES);
	ktap_diag("bench flavor_gp rcu=%s cpus=%u mode=%s sync_median_us=%lu exp_median_us=%lu",
		  rcu_flavor_name(), num_online_cpus(), mode,
		  gp_samples[GP_SAMPLES / 2] / NSEC_PER_USEC,
		  exp_samples[GP_SAMPLES / 2] / NSEC_PER_USEC);
}

/* Ticks and wake-ups on the idle CPUs, and GP machinery cycles, per GP. */
static void flavor_idle(const char *kind, bool exp)
{
	struct cpu_counts *before, sum;
	int self = raw_smp_processor_id();
	u64 cyc0, cyc;

	msleep(20);
	before = cpu_counts_snap();
	WRITE_ONCE(rcu_account_gp_cycles, 1);
	cyc0 = rcu_gp_machinery_cycles();
	for (int i = 0; i < IDLE_GPS; i++) {
		if (exp)
			synchronize_rcu_expedited();
		else
			synchronize_rcu();
	}
	cyc = rcu_gp_machinery_cycles() - cyc0;
	WRITE_ONCE(rcu_account_gp_cycles, 0);
	idle_cpus_delta(before, self, "flavor_idle", &sum);
	kfree(before);
	ktap_diag("bench flavor_idle rcu=%s cpus=%u kind=%s gps=%d idle_ticks_per_1000gp=%lu idle_wakeups_per_1000gp=%lu machinery_cycles_per_gp=%lu",
		  rcu_flavor_name(), num_online_cpus(), kind, IDLE_GPS,
		  sum.ticks * 1000 / IDLE_GPS, sum.wakeups * 1000 / IDLE_GPS,
		  cyc / IDLE_GPS);
}

/*
 * Idle CPUs that keep their tick: N-1 idle CPUs that hold callbacks (a
 * chain each, cb_chain_start()), then nohz=off, in the same boot as the
 * tickless run before them.  rcu=tree's idle is an extended quiescent
 * state with the tick on as well; rcu=rcupreempt's is dynticks idle
 * only with the tick stopped (the flip machine then waits for the idle
 * CPUs' ticks to acknowledge).
 */
static struct cb_chain bench_chains[NR_CPUS];

static void flavor_tick_on(int self)
{
	unsigned int saved = nohz_enabled;
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != self)
			cb_chain_start(&bench_chains[cpu], cpu);
	msleep(20);
	flavor_gp("idle-cbs");
	for_each_online_cpu(cpu)
		if (cpu != self && !cb_chain_stop(&bench_chains[cpu]))
			ktap_diag("bench: cpu%d's callback chain did not end",
				  cpu);
	WRITE_ONCE(nohz_enabled, 0);
	kick_others();
	msleep(20);
	flavor_gp("nohz-off");
	WRITE_ONCE(nohz_enabled, saved);
	kick_others();
	msleep(20);
}

static void flavor_test(void *arg)
{
	int self = raw_smp_processor_id();
	u64 irq, outer, direct;
	unsigned long flags;

	(void)arg;
	/* The read side: the outermost pair against a bare IRQ pair. */
	MEASURE(irq, local_irq_save(flags); local_irq_restore(flags));
	MEASURE(outer, rcu_read_lock(); rcu_read_unlock());
	if (rcu_flavor_is_tree())
		MEASURE(direct, __rcu_tree_read_lock(); __rcu_tree_read_unlock());
	else
		MEASURE(direct, __rcu_read_lock(); __rcu_read_unlock());
	ktap_diag("bench flavor_read rcu=%s cpus=%u irq_pair_c=%lu.%02lu outer_pair_c=%lu.%02lu undispatched_pair_c=%lu.%02lu outer_over_irq=%lu.%02lu",
		  rcu_flavor_name(), num_online_cpus(), C100(irq), C100(outer),
		  C100(direct), C100(irq ? outer * 100 / irq : 0));
	msleep(20);
	flavor_gp("idle");
	if (num_online_cpus() > 1) {
		flavor_idle("normal", false);
		flavor_idle("expedited", true);
		flavor_tick_on(self);
	}
	bench_spin_start(self);
	if (num_online_cpus() > 1)
		flavor_gp("busy");
	bench_spin_stop();
}

KTEST_HOOK(bench_flavor)
{
	bench_boot_time();
	run_on_cpu(0, flavor_test, NULL);
	return 0;
}

/*
 * The scaling curve (make bench BENCH_CPUS=...,255): only what stays
 * affordable with 254 vCPUs on 2 host cores, which is everything measured
 * with the other CPUs idle: synchronize_rcu() latency, the idle CPUs'
 * ticks and wake-ups, and the GP machinery's cycles, per grace period.
 */
static void scale_test(void *arg)
{
	(void)arg;
	msleep(20);
	flavor_gp("idle");
	if (num_online_cpus() > 1)
		flavor_idle("normal", false);
}

KTEST_HOOK(bench_scale)
{
	bench_boot_time();
	run_on_cpu(0, scale_test, NULL);
	return 0;
}
