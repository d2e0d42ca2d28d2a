// SPDX-License-Identifier: GPL-2.0
/*
 * Consolidated readers and deferred quiescent states (rcu/tree/
 * tree_plugin.c, Linux 6.12's behaviour; they SKIP under rcu=rcupreempt
 * and on one CPU):
 *   rcu_tree_deferred_qs        a preempted reader whose unlock runs with
 *                               IRQs off, or preemption off, stays on
 *                               blkd_tasks and holds the grace period
 *                               while that region lasts (no report, no
 *                               wake-up in place), and the region's end
 *                               releases it soon after
 *   rcu_tree_preempt_off_region a CPU that spins with preemption off,
 *                               outside any reader, holds both a normal
 *                               and an expedited grace period until it
 *                               enables preemption: neither its tick nor
 *                               the expedited IPI reports a quiescent
 *                               state inside the region
 * rcu_tree_blocked_reader (test_tree.c) checks the fully enabled unlock.
 */
#include "asm/arch.h"
#include "kernel/ktap.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/rcu/util.h"
#include "tests/kernel/tree/util.h"

/* A CPU other than ours and CPU 0 (the grace-period kthread's), or -1. */
static int other_cpu(void)
{
	int cpu, self = raw_smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != self && cpu != 0)
			return cpu;
	return -1;
}

/*
 * Until the grace-period kthread has scanned three more times (a report
 * in place would have ended the grace period long before), or c is
 * done, or HOST_STALL_MS.
 */
static void wait_fqs_scans(unsigned long c)
{
	u64 scans0 = READ_ONCE(rcu_state.n_fqs_scans), t0 = ktime_get_ns();

	while (!poll_state_synchronize_rcu(c) &&
	       READ_ONCE(rcu_state.n_fqs_scans) - scans0 < 3 &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
}

/* An expedited grace period, in a thread of its own. */
struct exp_wait {
	volatile int done;
	volatile u64 end_ns;
};

static int exp_waiter(void *arg)
{
	struct exp_wait *w = arg;

	synchronize_rcu_expedited();
	w->end_ns = ktime_get_ns();
	/* Release: end_ns before done. */
	smp_store_release(&w->done, 1);
	return 0;
}

/*
 * Wait for c, up to HOST_STALL_MS after since, in 1 ms sleeps that
 * leave our CPU to the kthread and to the expedited waiter; *us: how
 * long after since it was seen done.  False if it never was.
 */
static bool gp_done_after(unsigned long c, u64 since, long long *us)
{
	while (!poll_state_synchronize_rcu(c) &&
	       ktime_get_ns() - since < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	*us = ((long long)ktime_get_ns() - (long long)since) /
	      (long long)NSEC_PER_USEC;
	return poll_state_synchronize_rcu(c);
}

/* The same for an expedited waiter. */
static bool exp_done_after(struct exp_wait *w, u64 since, long long *us)
{
	/* Acquire: pairs with the waiter's release (end_ns before done). */
	while (!smp_load_acquire(&w->done) &&
	       ktime_get_ns() - since < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	*us = w->done ? ((long long)w->end_ns - (long long)since) /
			(long long)NSEC_PER_USEC : -1;
	return w->done;
}

/*
 * One round: the held reader on cpu, preempted in its reader (queued on
 * blkd_tasks, holding a grace period), unlocks inside a region of kind
 * how.  While the region lasts, the task must still be queued and the
 * grace period must not end; once it ends, the grace period must.
 */
static int deferred_round(int cpu, enum held_unlock how, bool exp,
			  const char *what)
{
	struct rcu_node *rnp = rcu_tree_data[cpu].mynode;
	static struct exp_wait ew;
	int fail = 0;
	bool holds;
	unsigned long c;
	u64 t0, ipis0 = READ_ONCE(rcu_tree_data[cpu].exp_ipis);
	long long us;

	held.unlock = how;
	held_start(cpu, true);
	c = start_poll_synchronize_rcu();
	t0 = ktime_get_ns();
	while (!(held_queued(rnp, &holds) && holds) &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	fail |= KT_EXPECT(holds, "%s: the preempted reader does not hold the grace period",
			  what);
	if (exp) {
		/*
		 * It holds the expedited grace period too (queued), and its
		 * CPU owes it one (the IPI lands in the reader): the
		 * deferral sends the self-IPI, not only need_resched.
		 */
		ew = (struct exp_wait){ 0 };
		kthread_run(exp_waiter, &ew, raw_smp_processor_id(),
			    "exp-waiter");
		while (READ_ONCE(rcu_tree_data[cpu].exp_ipis) == ipis0 &&
		       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
			msleep(1);
	}
	/* Release: pairs with the reader's acquire (the flag alone). */
	smp_store_release(&held.release, 1);
	fail |= KT_EXPECT(wait_flag(&held.unlocked, HOST_STALL_MS),
			  "%s: unlocked", what);
	wait_fqs_scans(c);
	fail |= KT_EXPECT(held.blocked_in_region,
			  "%s: the unlock left blkd_tasks in place", what);
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c),
			  "%s: the grace period ended inside the region around the unlock",
			  what);
	fail |= KT_EXPECT(!exp || !READ_ONCE(ew.done),
			  "%s: the expedited grace period ended inside the region around the unlock",
			  what);
	/* Release/acquire with the reader: the flag, then its end time. */
	smp_store_release(&held.region_release, 1);
	while (!smp_load_acquire(&held.region_end_ns) && !held.done)
		arch_cpu_relax();
	fail |= KT_EXPECT(gp_done_after(c, held.region_end_ns, &us),
			  "%s: the grace period did not end within %d ms of the region's end",
			  what, HOST_STALL_MS);
	ktap_diag("%s: the grace period was seen ended %lld us after the region ended",
		  what, us);
	if (exp) {
		fail |= KT_EXPECT(exp_done_after(&ew, held.region_end_ns, &us),
				  "%s: the expedited grace period did not end within %d ms of the region's end",
				  what, HOST_STALL_MS);
		ktap_diag("%s: the expedited one %lld us after", what, us);
	}
	fail |= held_stop();
	return fail;
}

KTEST(rcu_tree_deferred_qs)
{
	int fail = 0, cpu;

	TREE_ONLY();
	cpu = other_cpu();
	if (cpu < 0) {
		ktap_diag("needs a CPU other than ours and the kthread's");
		return KTEST_SKIP;
	}
	fail |= deferred_round(cpu, HELD_UNLOCK_IRQS_OFF, false, "IRQs off");
	fail |= deferred_round(cpu, HELD_UNLOCK_PREEMPT_OFF, false,
			       "preemption off");
	fail |= deferred_round(cpu, HELD_UNLOCK_IRQS_OFF, true,
			       "IRQs off, expedited");
	return fail;
}

/* ------------------------------------------------------------------ */

static struct {
	volatile int started, release, done;
	volatile u64 region_end_ns;
	struct exp_wait ew;
} po;

/* Outside any reader, preemption off until released. */
static int preempt_off_spinner(void *arg)
{
	u64 t0;

	(void)arg;
	preempt_disable();
	/* Release/acquire: a flag each way, nothing else to order. */
	smp_store_release(&po.started, 1);
	t0 = ktime_get_ns();
	while (!smp_load_acquire(&po.release) &&
	       ktime_get_ns() - t0 < HELD_REGION_MAX_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
	/* Release: the region's end before the time the test reads. */
	smp_store_release(&po.region_end_ns, ktime_get_ns());
	preempt_enable();
	smp_store_release(&po.done, 1);
	return 0;
}

KTEST(rcu_tree_preempt_off_region)
{
	int fail = 0, cpu, self = raw_smp_processor_id();
	u64 ticks0, ipis0, t0, ticks, ipis;
	long long us, us_exp;
	unsigned long c;
	struct rcu_tree_data *rdp;
	struct rcu_node *rnp;

	TREE_ONLY();
	cpu = other_cpu();
	if (cpu < 0) {
		ktap_diag("needs a CPU other than ours and the kthread's");
		return KTEST_SKIP;
	}
	rdp = &rcu_tree_data[cpu];
	rnp = rdp->mynode;
	po = (typeof(po)){ 0 };
	kthread_run(preempt_off_spinner, NULL, cpu, "preempt-off");
	fail |= KT_EXPECT(wait_flag(&po.started, HOST_STALL_MS),
			  "the spinner started");
	ipis0 = READ_ONCE(rdp->exp_ipis);
	c = start_poll_synchronize_rcu();
	kthread_run(exp_waiter, &po.ew, self, "exp-waiter");
	/*
	 * Ticks count from the moment cpu's leaf has the grace period of c
	 * in progress: a tick that took the region for a quiescent state
	 * would clear cpu's bit in that leaf at once, in the tick itself
	 * (rcu_report_qs_rdp()), as the IPI would clear its bit in the
	 * leaf's expmask.  Judged on the leaf, not only on the grace
	 * periods' ends, which also wait for the kthread's and the
	 * waiter's vCPUs to run.
	 */
	fail |= KT_EXPECT(poll_until(leaf_has_gp(rnp, c)),
			  "cpu%d's leaf never started the grace period of cookie %lu (gp_seq %lu)",
			  cpu, c, READ_ONCE(rnp->gp_seq));
	ticks0 = READ_ONCE(per_cpu_area(cpu)->stats.ticks);
	t0 = ktime_get_ns();
	/*
	 * Until the region has taken three ticks in that grace period and
	 * the expedited IPI (each would have reported at once if it took
	 * the region for a quiescent state), and the kthread has scanned
	 * three times.
	 */
	do {
		msleep(1);
		ticks = READ_ONCE(per_cpu_area(cpu)->stats.ticks) - ticks0;
		ipis = READ_ONCE(rdp->exp_ipis) - ipis0;
	} while ((ticks < 3 || !ipis) &&
		 ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC);
	wait_fqs_scans(c);
	ktap_diag("cpu%d with preemption off: %lu ticks, %lu expedited IPIs",
		  cpu, ticks, ipis);
	fail |= KT_EXPECT(ticks >= 3 && ipis,
			  "cpu%d took %lu ticks in the grace period and %lu expedited IPIs in %d ms, fewer than 3 and 1",
			  cpu, ticks, ipis, HOST_STALL_MS);
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c) &&
			  (READ_ONCE(rnp->qsmask) & rdp->grpmask),
			  "cpu%d's tick reported a quiescent state with preemption off: %s",
			  cpu, poll_state_synchronize_rcu(c) ?
			  "the grace period ended" :
			  "its bit in its leaf is clear");
	fail |= KT_EXPECT(!READ_ONCE(po.ew.done) &&
			  (READ_ONCE(rnp->expmask) & rdp->grpmask),
			  "cpu%d's expedited IPI reported a quiescent state with preemption off: %s",
			  cpu, READ_ONCE(po.ew.done) ?
			  "the expedited grace period ended" :
			  "its bit in its leaf's expmask is clear");
	/* Release: pairs with the spinner's acquire (the flag alone). */
	smp_store_release(&po.release, 1);
	fail |= KT_EXPECT(wait_flag(&po.done, HOST_STALL_MS),
			  "the spinner ended its region");
	fail |= KT_EXPECT(gp_done_after(c, po.region_end_ns, &us),
			  "the grace period did not end within %d ms of the region's end",
			  HOST_STALL_MS);
	fail |= KT_EXPECT(exp_done_after(&po.ew, po.region_end_ns, &us_exp),
			  "the expedited grace period did not end within %d ms of the region's end",
			  HOST_STALL_MS);
	ktap_diag("after the region: the grace period was seen ended in %lld us, the expedited one in %lld us",
		  us, us_exp);
	return fail;
}
