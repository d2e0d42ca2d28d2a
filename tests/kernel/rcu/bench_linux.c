// SPDX-License-Identifier: GPL-2.0
/*
 * The dynrcu side of make bench-linux (tools/bench_linux.py), which boots
 * Linux 6.12 with its refscale and rcuscale modules under the same QEMU,
 * alternating with boots of this hook.  Each figure here is taken the
 * way Linux's benchmark takes it, so that the two are divided, not
 * compared by eye:
 *
 * - reader loops: one reader on CPU 0, the others idle; each run is
 *   loops + 1 iterations of the section with IRQs off, timed with the
 *   clock in ns, divided by loops; the median, fastest and slowest run
 *   are printed (refscale with nreaders=1 prints every run).  The tool
 *   takes the fastest on both sides, as make bench does: the host's
 *   other work only ever slows a run.  "empty" and "irq" are the baselines;
 *   "rcu_direct" calls the flavour's functions without the boot-time
 *   dispatch in rcu_read_lock() (Linux has none).
 * - grace periods: one thread on CPU 0 calls synchronize_rcu() (or the
 *   expedited one) back to back, the other CPUs idle, as rcuscale's one
 *   writer with no readers; each call timed; the idle CPUs' interrupts
 *   counted over the same calls, and before them over a control window
 *   of bench_lx_ctl_ms with no grace period requested (the background,
 *   which the tool subtracts).  Then synchronize_rcu() again with every
 *   other CPU running a preemptible busy loop.
 * - callbacks: one thread on CPU 0 posts bench_lx_cb_num callbacks with
 *   call_rcu(), each post timed, as rcuscale's gp_async=1: from a
 *   preallocated pool (the callback only counts itself back, as
 *   rcuscale's returns its block to a freelist), then each object
 *   allocated before its post and freed by its callback (rcuscale's
 *   bench-only gp_async_alloc=1).  Every duration is printed, and the
 *   tool reduces both sides' the same way.
 *
 * The sizes come from the command line, so the tool gives both sides the
 * same ones.  Never fails on performance.
 */
#include "asm/arch.h"
#include "asm/atomic.h"
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/sort.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcu.h"
#include "tests/kernel/kernel/util.h"
#include "tests/kernel/rcu/bench.h"

#define LX_MAX_RUNS	64
#define LX_MAX_GPS	1000
#define LX_MAX_CBS	1000	/* rcuscale's gp_async_max: its pool */
#define LX_NS_PER_LINE	20	/* durations per "lx_cb_ns" line */

static unsigned int bench_lx_loops = 20000;
static unsigned int bench_lx_runs = 15;
static unsigned int bench_lx_gps = 100;
static unsigned int bench_lx_cb_num = 100;
static unsigned int bench_lx_ctl_ms = 500;

kparam_uint("bench_lx_loops", bench_lx_loops, 1, 10000000,
	    "make bench-linux: iterations per reader run (refscale loops)");
kparam_uint("bench_lx_runs", bench_lx_runs, 1, LX_MAX_RUNS,
	    "make bench-linux: reader runs per mode (refscale nruns)");
kparam_uint("bench_lx_gps", bench_lx_gps, 1, LX_MAX_GPS,
	    "make bench-linux: grace periods per kind (rcuscale's 100)");
kparam_uint("bench_lx_cb_num", bench_lx_cb_num, 1, LX_MAX_CBS,
	    "make bench-linux: callbacks posted, each timed (rcuscale's 100)");
kparam_uint("bench_lx_ctl_ms", bench_lx_ctl_ms, 0, 10000,
	    "make bench-linux: control window of the idle CPUs' interrupts (rcuscale idle_ctl_ms)");

static struct spinlock lx_lock = SPINLOCK_INIT("bench_lx");
static int lx_refcnt;		/* an int, as Linux's atomic_t */
/* Each run's, grace period's or post's time: LX_MAX_GPS is the most. */
_Static_assert(LX_MAX_RUNS <= LX_MAX_GPS && LX_MAX_CBS <= LX_MAX_GPS,
	       "lx_samples holds every sample of a kind");
static u64 lx_samples[LX_MAX_GPS];

/* Each section as its own out-of-line function, as refscale's. */
static noinline void lx_empty(int n)
{
	for (int i = n; i >= 0; i--)
		barrier();
}

static noinline void lx_irq(int n)
{
	unsigned long flags;

	for (int i = n; i >= 0; i--) {
		local_irq_save(flags);
		local_irq_restore(flags);
	}
}

static noinline void lx_rcu(int n)
{
	for (int i = n; i >= 0; i--) {
		rcu_read_lock();
		rcu_read_unlock();
	}
}

/* The flavour's own functions, called directly: what the dispatch costs. */
static noinline void lx_rcu_direct(int n)
{
	if (rcu_flavor_is_tree()) {
		for (int i = n; i >= 0; i--) {
			__rcu_tree_read_lock();
			__rcu_tree_read_unlock();
		}
	} else {
		for (int i = n; i >= 0; i--) {
			__rcu_read_lock();
			__rcu_read_unlock();
		}
	}
}

static noinline void lx_refcnt_loop(int n)
{
	for (int i = n; i >= 0; i--) {
		arch_atomic_inc(&lx_refcnt);
		arch_atomic_dec(&lx_refcnt);
	}
}

static noinline void lx_lock_loop(int n)
{
	for (int i = n; i >= 0; i--) {
		spin_lock(&lx_lock);
		spin_unlock(&lx_lock);
	}
}

/* The median of bench_lx_runs runs, in thousandths of a ns per loop. */
static void lx_ref(const char *mode, void (*section)(int))
{
	unsigned int runs = bench_lx_runs, loops = bench_lx_loops;
	unsigned long flags;

	section(loops);			/* warm-up: TCG translates the loop */
	for (unsigned int r = 0; r < runs; r++) {
		u64 t0;

		local_irq_save(flags);
		t0 = ktime_get_ns();
		section(loops);
		lx_samples[r] = (ktime_get_ns() - t0) * 1000 / loops;
		local_irq_restore(flags);
	}
	sort_u64(lx_samples, runs);
	ktap_diag("bench lx_ref rcu=%s cpus=%u mode=%s loops=%u runs=%u median_ns=%lu.%03lu min_ns=%lu.%03lu max_ns=%lu.%03lu",
		  rcu_flavor_name(), num_online_cpus(), mode, loops, runs,
		  lx_samples[runs / 2] / 1000, lx_samples[runs / 2] % 1000,
		  lx_samples[0] / 1000, lx_samples[0] % 1000,
		  lx_samples[runs - 1] / 1000, lx_samples[runs - 1] % 1000);
}

/* The idle CPUs' interrupts over bench_lx_ctl_ms with nothing asked of RCU. */
static void lx_ctl(struct cpu_counts *sum, u64 *ns)
{
	struct cpu_counts *before = cpu_counts_snap();
	u64 t0 = ktime_get_ns();

	msleep(bench_lx_ctl_ms);
	*ns = ktime_get_ns() - t0;
	idle_cpus_delta(before, raw_smp_processor_id(), "lx_ctl", sum);
	kfree(before);
}

/* busy: the other CPUs run spinners, and their interrupts are not counted. */
static void lx_gp(const char *kind, bool exp, bool busy)
{
	unsigned int n = bench_lx_gps;
	int self = raw_smp_processor_id();
	struct cpu_counts *before, sum = { 0, 0 }, ctl = { 0, 0 };
	long c0;
	u64 t0, all, ctl_ns = 0;

	msleep(20);		/* the other CPUs back in idle */
	if (busy)
		bench_spin_start(self);
	else if (num_online_cpus() > 1 && bench_lx_ctl_ms)
		lx_ctl(&ctl, &ctl_ns);
	before = cpu_counts_snap();
	c0 = rcu_batches_completed();
	t0 = ktime_get_ns();
	for (unsigned int i = 0; i < n; i++) {
		u64 t = ktime_get_ns();

		if (exp)
			synchronize_rcu_expedited();
		else
			synchronize_rcu();
		lx_samples[i] = ktime_get_ns() - t;
	}
	all = ktime_get_ns() - t0;
	c0 = rcu_batches_completed() - c0;
	if (busy)
		bench_spin_stop();
	else if (num_online_cpus() > 1)
		idle_cpus_delta(before, self, "lx_gp", &sum);
	kfree(before);
	sort_u64(lx_samples, n);
	ktap_diag("bench lx_gp rcu=%s cpus=%u kind=%s gps=%u batches=%ld median_ns=%lu p90_ns=%lu total_ns=%lu idle_ticks=%lu idle_irqs=%lu ctl_ns=%lu ctl_irqs=%lu",
		  rcu_flavor_name(), num_online_cpus(), kind, n, c0,
		  lx_samples[n / 2], lx_samples[n * 9 / 10], all, sum.ticks,
		  sum.wakeups, ctl_ns, ctl.wakeups);
}

/* rcuscale's struct writer_mblock: an rcu_head, a list link, an owner. */
struct lx_obj {
	struct rcu_head rh;
	void *link, *owner;
};

static struct lx_obj *lx_pool;
static int lx_inflight;		/* rcuscale's ws_inflight */

static void lx_pool_cb(struct rcu_head *rh)
{
	(void)rh;
	__atomic_sub_fetch(&lx_inflight, 1, __ATOMIC_RELAXED);
}

static void lx_free_cb(struct rcu_head *rh)
{
	__atomic_sub_fetch(&lx_inflight, 1, __ATOMIC_RELAXED);
	kfree(container_of(rh, struct lx_obj, rh));
}

/*
 * pool: each post takes the next object of lx_pool; alloc: a fresh one.
 * Each post timed alone, as rcuscale's writer times each of its own.
 */
static void lx_cb(const char *kind, bool alloc)
{
	unsigned int n = bench_lx_cb_num;
	long c0 = rcu_batches_completed(), gps;

	for (unsigned int i = 0; i < n; i++) {
		u64 t = ktime_get_ns();
		struct lx_obj *p = alloc ? kmalloc(sizeof(*p)) : &lx_pool[i];

		if (!p) {
			ktap_diag("bench lx_cb: kmalloc failed after %u", i);
			n = i;
			break;
		}
		__atomic_add_fetch(&lx_inflight, 1, __ATOMIC_RELAXED);
		call_rcu(&p->rh, alloc ? lx_free_cb : lx_pool_cb);
		lx_samples[i] = ktime_get_ns() - t;
	}
	gps = rcu_batches_completed() - c0;
	rcu_barrier();		/* the pool is free again */
	ktap_diag("bench lx_cb rcu=%s cpus=%u kind=%s n=%u gps_while_posting=%ld",
		  rcu_flavor_name(), num_online_cpus(), kind, n, gps);
	for (unsigned int i = 0; i < n; i += LX_NS_PER_LINE) {
		char buf[LX_NS_PER_LINE * 12], *q = buf;

		for (unsigned int j = i; j < n && j < i + LX_NS_PER_LINE; j++)
			q += snprintf(q, buf + sizeof(buf) - q, "%s%lu",
				      j > i ? "," : "", lx_samples[j]);
		ktap_diag("bench lx_cb_ns kind=%s first=%u ns=%s", kind, i, buf);
	}
}

static void lx_test(void *arg)
{
	(void)arg;
	msleep(20);
	lx_ref("empty", lx_empty);
	lx_ref("irq", lx_irq);
	lx_ref("rcu", lx_rcu);
	lx_ref("rcu_direct", lx_rcu_direct);
	lx_ref("refcnt", lx_refcnt_loop);
	lx_ref("lock", lx_lock_loop);
	lx_gp("sync", false, false);
	lx_gp("exp", true, false);
	if (num_online_cpus() > 1)
		lx_gp("busy", false, true);
	lx_pool = kmalloc(LX_MAX_CBS * sizeof(*lx_pool));
	if (lx_pool)
		lx_cb("pool", false);
	else
		ktap_diag("bench lx_cb: no pool of %u", LX_MAX_CBS);
	kfree(lx_pool);
	lx_cb("alloc", true);
}

KTEST_HOOK(bench_linux)
{
	run_on_cpu(0, lx_test, NULL);
	return 0;
}
