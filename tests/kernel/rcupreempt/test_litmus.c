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
 * interleaved on two CPUs:
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
 * Each round A publishes a round number and waits a delay, B waits a
 * random 0-31 loop iterations once it sees the round, and both run their
 * part with interrupts off; A judges the outcome.  The forbidden outcome
 * needs both stores in flight at once, a window of nanoseconds whose
 * position depends on how fast B notices the round: on a quiet host
 * that is fast, on a loaded one slow.  So A's delay is steered per
 * variant: a round in which A's store came first (B saw it, A did not
 * see B's) lengthens it, one in which B's came first shortens it, and
 * the delay walks to the crossover where the stores race.
 *
 * The variants run interleaved, a block of rounds each in turn, so they
 * share the host's conditions.  The run lasts until the barrier-less
 * pattern has shown the forbidden outcome litmus_hits times and at least
 * litmus_min_s have passed, or until litmus_max_s.  The count is the
 * evidence that this host reorders at all, so a clean kernel-exit count
 * means something: with its barrier misplaced, the kernel's
 * rcu_exit_nohz() reorders at least as often as the bare pattern (B's
 * poll of the counter, in litmus_b(), keeps A's store waiting long
 * enough), so a bug there would have had litmus_hits chances or more.
 * A run short of litmus_hits at litmus_max_s is inconclusive and skips.
 * A forbidden outcome in a variant that must never show one ends the run
 * at once: the verdict is in.
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
#include "rcu/rcupreempt/rcupreempt.h"
#include "tests/kernel/kernel/util.h"

static unsigned int litmus_min_s = 10;
kparam_uint("litmus_min_s", litmus_min_s, 1, 3600,
	    "litmus_sb_nohz: least seconds of rounds");
static unsigned int litmus_hits = 1000;
kparam_uint("litmus_hits", litmus_hits, 1, 100000000,
	    "litmus_sb_nohz: barrier-less forbidden outcomes to wait for");
static unsigned int litmus_max_s = 240;
kparam_uint("litmus_max_s", litmus_max_s, 1, 3600,
	    "litmus_sb_nohz: seconds before giving up on litmus_hits");

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
static long litmus_b_polled;

/* Spin for n loop iterations: a delay short enough to sweep a race. */
static void litmus_spin(unsigned int n)
{
	while (n--)
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
	unsigned int polls = 0;
	long polled = 0;

	(void)arg;
	local_irq_save(flags);
	while (!litmus_b_exit) {
		long round = READ_ONCE(l_round.v), r1;

		if (round == seen) {
			/*
			 * No pause: under TCG it leaves the translated code,
			 * and the time B takes to see a round would vary by
			 * microseconds.  Let the tick in now and then (under
			 * a paravirtual KVM each irq toggle is a trap).
			 */
			if (!(++polls & 1023)) {
				local_irq_restore(flags);
				local_irq_save(flags);
			}
			continue;
		}
		seen = round;
		/*
		 * Poll A's counter once, as the flip machine polls every
		 * CPU's counter while it waits: the line is then shared, so
		 * A's counter store must take it back from this CPU and
		 * sits in A's store buffer for a cache-to-cache transfer.
		 * Without this A's own stores at the round's start leave
		 * the line in A's cache, the store drains at once, and the
		 * kernel's rcu_exit_nohz() (a call and two branches between
		 * its store and the reader's load) shows no window at all.
		 */
		polled += litmus_variant == LV_KERNEL_EXIT ?
			  litmus_kernel_counter() : READ_ONCE(l_counter.v);
		litmus_spin((unsigned int)(test_rand(&rng) & 31));
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
	litmus_b_polled = polled;	/* keeps the polling loads */
	litmus_b_live = 0;
	return 0;
}

/* The outcome of one round, as A judges it. */
enum litmus_outcome {
	LO_A_FIRST,	/* B saw A's store, A did not see B's */
	LO_B_FIRST,	/* A saw B's store, B did not see A's */
	LO_BOTH,	/* each saw the other's: the stores overlapped */
	LO_FORBIDDEN,	/* neither saw the other's */
};

/* One round on CPU A, waiting delay loop iterations before its part. */
static enum litmus_outcome litmus_a_round(long round, unsigned int delay)
{
	long c0, r0, r1;
	bool a_seen, b_seen;

	WRITE_ONCE(l_flip.v, 0);
	WRITE_ONCE(l_data.v, 0);
	if (litmus_variant == LV_KERNEL_EXIT)
		rcu_enter_nohz();	/* counter even: "idle" */
	c0 = litmus_variant == LV_KERNEL_EXIT ?
	     litmus_kernel_counter() : READ_ONCE(l_counter.v);
	/* Orders the resets above before B can start the round. */
	smp_store_release(&l_round.v, round);
	litmus_spin(delay);
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
		barrier();
	r1 = READ_ONCE(l_r1.v);
	if (litmus_variant != LV_KERNEL_EXIT)
		WRITE_ONCE(l_counter.v, c0 + 2);	/* even again */
	if (litmus_variant == LV_ENTER_MP) {
		/* Forbidden: B saw the new counter (c0 + 1) but not the
		 * data.  Only "B saw the counter" steers the delay. */
		if (r1 == (c0 + 1) * 2)
			return LO_FORBIDDEN;
		return r1 >= (c0 + 1) * 2 ? LO_A_FIRST : LO_B_FIRST;
	}
	a_seen = r0 != 0;
	b_seen = r1 != c0;
	if (a_seen && b_seen)
		return LO_BOTH;
	if (b_seen)
		return LO_A_FIRST;
	return a_seen ? LO_B_FIRST : LO_FORBIDDEN;
}

struct litmus_result {
	u64 rounds[NR_LV];
	u64 forbidden[NR_LV];
	u64 both[NR_LV];
	u64 ns[NR_LV];
	unsigned int delay[NR_LV];	/* A's delay, 1/16 loop iterations */
	u64 total_ns;
	bool timed_out;
};

#define LITMUS_BLOCK	1024	/* rounds of one variant, irqs off */
/*
 * A block also ends after this much guest time.  Each round waits for B,
 * and on a loaded host the two vCPUs may take turns on one host core
 * instead of running at once, a host time slice per round: 1024 rounds
 * then kept interrupts off for over 10 s, which the hard-lockup watchdog
 * rightly reports.  A block's interrupts-off time stays under this.
 */
#define LITMUS_BLOCK_NS	(100 * NSEC_PER_MSEC)

/* Run one block of a variant, steering its delay (see the top). */
static void litmus_block(struct litmus_result *res, int v, long *round,
			 u64 *rng)
{
	unsigned int *d = &res->delay[v];
	unsigned long flags;
	u64 t0 = ktime_get_ns();
	int i;

	litmus_variant = v;

	local_irq_save(flags);
	for (i = 0; i < LITMUS_BLOCK &&
	     ktime_get_ns() - t0 < LITMUS_BLOCK_NS; i++) {
		/* Jitter of +-8 loops around the steered delay. */
		unsigned int delay = *d / 16 + (test_rand(rng) & 15);

		switch (litmus_a_round(++*round, delay > 8 ? delay - 8 : 0)) {
		case LO_A_FIRST:
			*d += 16;
			break;
		case LO_B_FIRST:
			*d -= *d >= 16 ? 16 : *d;
			break;
		case LO_BOTH:
			res->both[v]++;
			break;
		case LO_FORBIDDEN:
			res->forbidden[v]++;
			break;
		}
		if (*d > 16 * 4096)	/* B far behind: do not run away */
			*d = 16 * 4096;
	}
	local_irq_restore(flags);
	res->rounds[v] += i;
	res->ns[v] += ktime_get_ns() - t0;
}

static void litmus_run_a(void *arg)
{
	struct litmus_result *res = arg;
	u64 rng = 0xda3e39cb94b95bdbULL;
	u64 t0 = ktime_get_ns();
	u64 limit = (u64)litmus_max_s * NSEC_PER_SEC;
	long round = 0;

	WRITE_ONCE(l_counter.v, 0);
	for (;;) {
		for (int v = 0; v < NR_LV; v++)
			litmus_block(res, v, &round, &rng);
		res->total_ns = ktime_get_ns() - t0;
		/* A forbidden outcome where none may be: the verdict is in. */
		if (res->forbidden[LV_EXIT_MB] ||
		    res->forbidden[LV_KERNEL_EXIT] ||
		    res->forbidden[LV_ENTER_MP])
			break;
		if (res->total_ns >= (u64)litmus_min_s * NSEC_PER_SEC &&
		    res->forbidden[LV_EXIT_NOMB] >= litmus_hits)
			break;
		if (res->total_ns >= limit) {
			res->timed_out = true;
			break;
		}
	}
}

KTEST_HOOK(litmus_sb_nohz)
{
	static struct litmus_result res;
	int self = raw_smp_processor_id(), cpu, fail = 0;

	if (rcu_flavor_is_tree()) {
		/* ct_state_inc() is one locked add: no barrier to misplace. */
		ktap_diag("rcu_exit_nohz()'s barrier placement: rcu=rcupreempt only");
		return KTEST_SKIP;
	}
	if (litmus_min_s > litmus_max_s) {
		ktap_diag("litmus_min_s=%u is above litmus_max_s=%u",
			  litmus_min_s, litmus_max_s);
		return 1;
	}
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
		printk("litmus_sb_nohz: %s: forbidden %lu of %lu\n", lv_name[v],
		       res.forbidden[v], res.rounds[v]);
	for (int v = 0; v < NR_LV; v++)
		ktap_diag("litmus %s: forbidden outcome %lu times in %lu rounds (%lu per million), overlapped %lu, A's delay %u loops, %lu ms",
			  lv_name[v], res.forbidden[v], res.rounds[v],
			  res.forbidden[v] * 1000000 / res.rounds[v],
			  res.both[v], res.delay[v] / 16,
			  res.ns[v] / NSEC_PER_MSEC);
	ktap_diag("litmus: %lu ms, cpus %d/%d, %s", res.total_ns / NSEC_PER_MSEC,
		  litmus_cpu_a, litmus_cpu_b,
		  res.timed_out ? "stopped at litmus_max_s" :
		  "stopped with litmus_hits barrier-less reorderings");
	fail |= KT_EXPECT(!res.forbidden[LV_EXIT_MB],
			  "exit pattern with its mb reordered");
	fail |= KT_EXPECT(!res.forbidden[LV_KERNEL_EXIT],
			  "rcu_exit_nohz(): a load passed the counter store (the mb is missing or misplaced)");
	fail |= KT_EXPECT(!res.forbidden[LV_ENTER_MP],
			  "a store passed a store: not x86-TSO");
	if (!fail && res.forbidden[LV_EXIT_NOMB] < litmus_hits) {
		/*
		 * Clean counts prove little on a host that seldom reorders:
		 * too few chances for the kernel's narrower window.
		 */
		ktap_diag("litmus: the barrier-less pattern reordered %lu times in %u s, short of litmus_hits=%u: inconclusive",
			  res.forbidden[LV_EXIT_NOMB], litmus_max_s,
			  litmus_hits);
		return KTEST_SKIP;
	}
	return fail;
}
