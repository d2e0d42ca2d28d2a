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
 *   writer with no readers; each call timed; the idle CPUs' ticks and
 *   interrupts counted over the same calls.
 * - callbacks: one thread on CPU 0 allocates an object and posts it with
 *   call_rcu() (whose callback frees it), bench_lx_cb_num times in
 *   batches of bench_lx_cb_batch, as rcuscale's kfree test with
 *   kfree_by_call_rcu=1 and one thread: the posting loop's time.  Then
 *   rcu_barrier(), timed too (Linux's figure has no counterpart).
 *
 * The sizes come from the command line, so the tool gives both sides the
 * same ones.  Never fails on performance.
 */
#include "asm/arch.h"
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/param.h"
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

static unsigned int bench_lx_loops = 20000;
static unsigned int bench_lx_runs = 15;
static unsigned int bench_lx_gps = 100;
static unsigned int bench_lx_cb_num = 8000;
static unsigned int bench_lx_cb_batch = 8000;

kparam_uint("bench_lx_loops", bench_lx_loops, 1, 10000000,
	    "make bench-linux: iterations per reader run (refscale loops)");
kparam_uint("bench_lx_runs", bench_lx_runs, 1, LX_MAX_RUNS,
	    "make bench-linux: reader runs per mode (refscale nruns)");
kparam_uint("bench_lx_gps", bench_lx_gps, 1, LX_MAX_GPS,
	    "make bench-linux: grace periods per kind (rcuscale's 100)");
kparam_uint("bench_lx_cb_num", bench_lx_cb_num, 1, 10000000,
	    "make bench-linux: callbacks posted (kfree_alloc_num x kfree_loops)");
kparam_uint("bench_lx_cb_batch", bench_lx_cb_batch, 1, 10000000,
	    "make bench-linux: callbacks between two yields (kfree_alloc_num)");

static struct spinlock lx_lock = SPINLOCK_INIT("bench_lx");
static unsigned long lx_refcnt;
static u64 lx_samples[LX_MAX_GPS > LX_MAX_RUNS ? LX_MAX_GPS : LX_MAX_RUNS];

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
		__atomic_add_fetch(&lx_refcnt, 1, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&lx_refcnt, 1, __ATOMIC_RELAXED);
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

static void lx_gp(const char *kind, bool exp)
{
	unsigned int n = bench_lx_gps;
	int self = raw_smp_processor_id();
	struct cpu_counts *before, sum = { 0, 0 };
	long c0;
	u64 t0, all;

	msleep(20);		/* the other CPUs back in idle */
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
	if (num_online_cpus() > 1)
		idle_cpus_delta(before, self, "lx_gp", &sum);
	kfree(before);
	sort_u64(lx_samples, n);
	ktap_diag("bench lx_gp rcu=%s cpus=%u kind=%s gps=%u batches=%ld median_ns=%lu p90_ns=%lu total_ns=%lu idle_ticks=%lu idle_irqs=%lu",
		  rcu_flavor_name(), num_online_cpus(), kind, n, c0,
		  lx_samples[n / 2], lx_samples[n * 9 / 10], all, sum.ticks,
		  sum.wakeups);
}

struct lx_obj {
	char pad[8];
	struct rcu_head rh;
};

static void lx_free(struct rcu_head *rh)
{
	kfree(container_of(rh, struct lx_obj, rh));
}

static void lx_cb(void)
{
	unsigned int n = bench_lx_cb_num, batch = bench_lx_cb_batch;
	u64 t0, post, drain;
	long c0 = rcu_batches_completed(), gps;

	t0 = ktime_get_ns();
	for (unsigned int i = 0; i < n; i++) {
		struct lx_obj *p = kmalloc(sizeof(*p));

		if (!p) {
			ktap_diag("bench lx_cb: kmalloc failed after %u", i);
			n = i;
			break;
		}
		call_rcu(&p->rh, lx_free);
		if ((i + 1) % batch == 0)
			yield();	/* rcuscale: cond_resched() */
	}
	post = ktime_get_ns() - t0;
	gps = rcu_batches_completed() - c0;
	rcu_barrier();
	drain = ktime_get_ns() - t0;
	ktap_diag("bench lx_cb rcu=%s cpus=%u n=%u post_ns=%lu gps_while_posting=%ld all_invoked_ns=%lu",
		  rcu_flavor_name(), num_online_cpus(), n, post, gps, drain);
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
	lx_gp("sync", false);
	lx_gp("exp", true);
	lx_cb();
}

KTEST_HOOK(bench_linux)
{
	run_on_cpu(0, lx_test, NULL);
	return 0;
}
