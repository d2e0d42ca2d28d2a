// SPDX-License-Identifier: GPL-2.0
/*
 * litmus_sb_nohz: the store-buffering litmus test behind the seed patch
 * (the mb in rcu_exit_nohz() goes *after* the counter increment).
 *
 * rcu_exit_nohz() and the grace-period side form the SB pattern:
 *
 *	CPU A (leaves idle)		CPU B (grace-period machine)
 *	counter = odd			completed = new   (the flip)
 *	[mb]				mb
 *	r0 = completed (a reader)	r1 = counter      (waitack_needed)
 *
 * Forbidden: r0 == old && r1 == even.  A's reader then uses the old
 * index while B excuses A as idle: the flip is never acknowledged and a
 * grace period may end under the reader.  x86-TSO lets a store be passed
 * by a later load (the store buffer), so without A's mb the outcome is
 * allowed, and this test counts how often it appears.  Variants, run on
 * two CPUs litmus_iterations times each:
 *
 *  exit-nomb:   the pattern with no mb on A (the code before the seed
 *               patch: its mb came before the increment); reported only.
 *  exit-mb:     the pattern with the mb: must never be forbidden.
 *  kernel-exit: A calls the kernel's own rcu_enter_nohz()/rcu_exit_nohz()
 *               and B reads A's real dynticks_progress_counter: must never
 *               be forbidden (a mutant that moves the mb shows up here).
 *  enter-mp:    rcu_enter_nohz() with the mb *after* the increment (issue
 *               5's mutant 10): A's critical-section store, then counter
 *               = even; B reads the counter, mb, then the store.  Forbidden
 *               (B sees A idle but not its critical section) needs a store
 *               to pass a store, which TSO forbids: expected 0 on x86.
 *
 * Each round both CPUs spin on a round number, wait a random number of
 * loop iterations (so the two sides' stores overlap in time), run their part
 * with interrupts off, and A judges the outcome.
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt.h"
#include "tests/kernel/util.h"

static unsigned int litmus_iterations = 1000000;
kparam_uint("litmus_iterations", litmus_iterations, 1000, 100000000,
	    "litmus_sb_nohz: rounds per variant");

enum litmus_variant {
	LV_EXIT_NOMB,
	LV_EXIT_MB,
	LV_KERNEL_EXIT,
	LV_ENTER_MP,
	NR_LV,
};

static const char *const lv_name[NR_LV] = {
	"exit-nomb (pre-patch rcu_exit_nohz)",
	"exit-mb (seed patch)",
	"kernel-exit (the kernel's rcu_exit_nohz)",
	"enter-mp (mb after the increment)",
};

/* Each shared variable on its own cache line. */
struct litmus_line {
	long v;
} __cacheline_aligned;

static struct litmus_line l_counter, l_flip, l_data;
static struct litmus_line l_round, l_done, l_r1;
static int litmus_variant, litmus_cpu_a, litmus_cpu_b;
static volatile int litmus_b_exit, litmus_b_live;

/*
 * B sees the new round a cache-line transfer after A published it, so A
 * waits a random 0-1023 loop iterations, B 0-31: over the rounds, A's
 * store sweeps across the moment B's lands.
 */
static void litmus_delay(u64 *rng, unsigned int mask)
{
	for (unsigned int i = (unsigned int)(test_rand(rng) & mask); i; i--)
		barrier();
}

/* CPU A's real dynticks_progress_counter (the kernel-exit variant). */
static long litmus_kernel_counter(void)
{
	return READ_ONCE(RCU_DATA_CPU(litmus_cpu_a)->dynticks_progress_counter);
}

/* CPU B: the grace-period side (or the enter-mp observer). */
static int litmus_b(void *arg)
{
	u64 rng = 0x853c49e6748fea9bULL;
	long seen = 0;
	unsigned long flags;

	(void)arg;
	local_irq_save(flags);
	while (!litmus_b_exit) {
		long round = READ_ONCE(l_round.v), r1;

		if (round == seen) {
			/* Let the tick run now and then. */
			local_irq_restore(flags);
			arch_cpu_relax();
			local_irq_save(flags);
			continue;
		}
		seen = round;
		litmus_delay(&rng, 31);
		if (litmus_variant == LV_ENTER_MP) {
			r1 = READ_ONCE(l_counter.v);
			/* Orders the counter load before the data load. */
			smp_mb();
			r1 = r1 * 2 + READ_ONCE(l_data.v);
		} else {
			WRITE_ONCE(l_flip.v, 1);
			/* Orders the flip store before the counter load, as
			 * the flip machine's mb after completed++. */
			smp_mb();
			r1 = litmus_variant == LV_KERNEL_EXIT ?
			     litmus_kernel_counter() : READ_ONCE(l_counter.v);
		}
		WRITE_ONCE(l_r1.v, r1);
		/* Publishes r1 before the round is reported done. */
		smp_store_release(&l_done.v, round);
	}
	local_irq_restore(flags);
	litmus_b_live = 0;
	return 0;
}

/* One round on CPU A; returns 1 if the outcome was the forbidden one. */
static int litmus_a_round(long round, u64 *rng)
{
	long c0, r0, r1;

	WRITE_ONCE(l_flip.v, 0);
	WRITE_ONCE(l_data.v, 0);
	if (litmus_variant == LV_KERNEL_EXIT)
		rcu_enter_nohz();	/* counter even: "idle" */
	c0 = litmus_variant == LV_KERNEL_EXIT ?
	     litmus_kernel_counter() : READ_ONCE(l_counter.v);
	/* Orders the resets above before B can start the round. */
	smp_store_release(&l_round.v, round);
	litmus_delay(rng, 1023);
	switch (litmus_variant) {
	case LV_EXIT_NOMB:
		WRITE_ONCE(l_counter.v, c0 + 1);
		r0 = READ_ONCE(l_flip.v);
		break;
	case LV_EXIT_MB:
		WRITE_ONCE(l_counter.v, c0 + 1);
		/* The seed patch's mb: counter store before the load. */
		smp_mb();
		r0 = READ_ONCE(l_flip.v);
		break;
	case LV_KERNEL_EXIT:
		rcu_exit_nohz();
		r0 = READ_ONCE(l_flip.v);
		break;
	default:	/* LV_ENTER_MP: critical section, ++, then mb */
		WRITE_ONCE(l_data.v, 1);
		WRITE_ONCE(l_counter.v, c0 + 1);
		/* Mutant 10's mb: after the increment, ordering nothing
		 * of the critical section before it. */
		smp_mb();
		r0 = 0;
		break;
	}
	/* Acquire: pairs with B's release, so r1 below is this round's. */
	while (smp_load_acquire(&l_done.v) != round)
		arch_cpu_relax();
	r1 = READ_ONCE(l_r1.v);
	if (litmus_variant == LV_ENTER_MP) {
		WRITE_ONCE(l_counter.v, c0 + 2);	/* even again */
		/* B saw the new counter (c0 + 1) but not the data. */
		return r1 == (c0 + 1) * 2;
	}
	if (litmus_variant != LV_KERNEL_EXIT)
		WRITE_ONCE(l_counter.v, c0 + 2);	/* even again */
	return r0 == 0 && r1 == c0;
}

struct litmus_result {
	u64 forbidden[NR_LV];
	u64 ns[NR_LV];
};

static void litmus_run_a(void *arg)
{
	struct litmus_result *res = arg;
	u64 rng = 0xda3e39cb94b95bdbULL;
	long round = 0;

	for (int v = 0; v < NR_LV; v++) {
		u64 t0 = ktime_get_ns();

		litmus_variant = v;
		WRITE_ONCE(l_counter.v, 0);
		for (unsigned int i = 0; i < litmus_iterations; i += 4096) {
			unsigned long flags;

			local_irq_save(flags);
			for (unsigned int j = 0; j < 4096 &&
			     i + j < litmus_iterations; j++)
				res->forbidden[v] +=
					litmus_a_round(++round, &rng);
			local_irq_restore(flags);
		}
		res->ns[v] = ktime_get_ns() - t0;
	}
}

KTEST_HOOK(litmus_sb_nohz)
{
	static struct litmus_result res;
	int self = raw_smp_processor_id(), cpu, fail = 0;

	if (num_online_cpus() < 2) {
		ktap_diag("needs 2 CPUs");
		return KTEST_SKIP;
	}
	litmus_cpu_a = -1;
	for_each_online_cpu(cpu)
		if (cpu != self) {
			if (litmus_cpu_a < 0)
				litmus_cpu_a = cpu;
			else
				litmus_cpu_b = cpu;
		}
	if (num_online_cpus() == 2)
		litmus_cpu_b = self;
	memset(&res, 0, sizeof(res));
	l_round.v = l_done.v = 0;
	litmus_b_exit = 0;
	litmus_b_live = 1;
	kthread_run(litmus_b, NULL, litmus_cpu_b, "litmus_b");
	run_on_cpu(litmus_cpu_a, litmus_run_a, &res);
	litmus_b_exit = 1;
	while (litmus_b_live)
		msleep(1);

	for (int v = 0; v < NR_LV; v++)
		printk("litmus_sb_nohz: %s: forbidden %lu of %u\n", lv_name[v],
		       res.forbidden[v], litmus_iterations);
	for (int v = 0; v < NR_LV; v++)
		ktap_diag("litmus %s: forbidden outcome %lu times in %u rounds (%lu per million), %lu ms, cpus %d/%d",
			  lv_name[v], res.forbidden[v], litmus_iterations,
			  res.forbidden[v] * 1000000 / litmus_iterations,
			  res.ns[v] / NSEC_PER_MSEC, litmus_cpu_a,
			  litmus_cpu_b);
	if (!res.forbidden[LV_EXIT_NOMB])
		ktap_diag("litmus: the store buffer was not caught reordering the barrier-less pattern this run");
	fail |= KT_EXPECT(!res.forbidden[LV_EXIT_MB],
			  "exit pattern with its mb reordered");
	fail |= KT_EXPECT(!res.forbidden[LV_KERNEL_EXIT],
			  "rcu_exit_nohz(): a load passed the counter store (the mb is missing or misplaced)");
	fail |= KT_EXPECT(!res.forbidden[LV_ENTER_MP],
			  "a store passed a store: not x86-TSO");
	return fail;
}
