// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_tree_hotplug_leaf: a reader preempted on a CPU of the last leaf is
 * on that leaf's blkd_tasks; then every CPU of the leaf goes offline.
 * The grace periods that start afterwards find the leaf without a CPU
 * (rcu_gp_init() applies qsmaskinitnext) but with a blocked task: its
 * bit stays in its parent (wait_blkd_tasks), and a callback queued after
 * the CPUs left waits until the reader unlocks, on a CPU of another
 * leaf.  Then the leaf is cleaned up, and its CPUs come back.  Judged on
 * guest state: the callback's run against the reader's flag.
 * Needs a leaf without CPU 0: rcu_fanout_leaf=2 on 4 CPUs or more.
 *
 * rcu_tree_exp_hotplug: an expedited grace period races CPU hotplug on
 * that leaf.  A reader spins, preemptible, on the leaf's last CPU; the
 * expedited grace period selects the leaf (the CPU busy: it wants an
 * IPI), and at the test point between the selection and the IPIs
 * (RCU_EXP_HOOK_SELECTED) the CPU goes down: preempted off it at GOING,
 * the reader is queued on the leaf while the CPU's bit is in expmask, and
 * must hold the grace period.  Two rounds:
 *   - a CPU dying mid-selection: the test point returns once the CPU is
 *     in its last window (OUT), so its IPI finds it offline but still in
 *     qsmaskinitnext, is tried again until it has left, and its dead
 *     report (rcutree_report_cpu_dead()) must report it;
 *   - the leaf going fully offline: its other CPU is down already, and
 *     the test point returns once the CPU is dead, so the leaf has no CPU
 *     left, only the reader.
 * A dead CPU is reported by the selection (its counter moved), and a
 * reader ending on an all-offline leaf reports up from there.
 * The grace period must not end while the reader holds (200 ms of guest
 * time), and must end once it unlocks.
 */
#include "asm/arch.h"
#include "kernel/hotplug.h"
#include "kernel/ktap.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/kernel/util.h"
#include "tests/kernel/tree/util.h"

static struct {
	volatile int locked, release;
	volatile int cb_ran, cb_ran_while_locked;
	struct rcu_head head;
	struct completion done;
} lf;

static int lf_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	/* Preempted at once: queued on this CPU's leaf. */
	preempt_self();
	smp_store_release(&lf.locked, 1);
	while (!READ_ONCE(lf.release))
		preempted_wait_ms(1);
	rcu_read_unlock();
	complete(&lf.done);
	return 0;
}

static void lf_cb(struct rcu_head *head)
{
	(void)head;
	if (!READ_ONCE(lf.release))
		WRITE_ONCE(lf.cb_ran_while_locked, 1);
	smp_store_release(&lf.cb_ran, 1);
}

/*
 * One round; 1 if it failed, 0 if it passed, -1 if the path was not
 * exercised: a grace period that began before the CPUs left held on the
 * reader (rightly), so none began after with the leaf empty.
 */
static int lf_round(struct rcu_node *leaf, int lo, int hi)
{
	int cpu, bad = 0, err, exercised;
	unsigned long flags;
	u64 t0;

	memset(&lf, 0, sizeof(lf));
	init_completion(&lf.done);
	kthread_run(lf_reader, NULL, lo, "leaf-reader");
	while (!smp_load_acquire(&lf.locked))
		msleep(1);
	spin_lock_irqsave(&leaf->lock, flags);
	bad |= KT_EXPECT(!list_empty(&leaf->blkd_tasks),
			 "reader not blocked on leaf %d-%d", lo, hi);
	spin_unlock_irqrestore(&leaf->lock, flags);
	for (cpu = lo; cpu <= hi; cpu++) {
		err = cpu_down(cpu);
		bad |= KT_EXPECT(err == 0, "cpu_down(%d) = %d", cpu, err);
	}
	call_rcu(&lf.head, lf_cb);
	/*
	 * Until a grace period has begun with the leaf empty (or 2 s of
	 * guest time), and 200 ms at least: one that lost the blocked
	 * reader ends within a few ms.
	 */
	t0 = ktime_get_ns();
	while (!READ_ONCE(lf.cb_ran) &&
	       (ktime_get_ns() - t0 < 200 * NSEC_PER_MSEC ||
		(!READ_ONCE(leaf->wait_blkd_tasks) &&
		 ktime_get_ns() - t0 < 2 * NSEC_PER_SEC)))
		msleep(5);
	exercised = READ_ONCE(leaf->wait_blkd_tasks) || READ_ONCE(lf.cb_ran);
	bad |= KT_EXPECT(!READ_ONCE(lf.cb_ran),
			 "callback ran while a reader blocked on all-offline leaf %d-%d held on",
			 lo, hi);
	WRITE_ONCE(lf.release, 1);
	wait_for_completion(&lf.done);
	for (int i = 0; i < 12 && !smp_load_acquire(&lf.cb_ran); i++)
		synchronize_rcu();
	bad |= KT_EXPECT(READ_ONCE(lf.cb_ran) &&
			 !READ_ONCE(lf.cb_ran_while_locked),
			 "callback ran %s", lf.cb_ran ?
			 "while the reader held on" : "never");
	/* The next grace period's start cleans the empty leaf up. */
	synchronize_rcu();
	bad |= KT_EXPECT(!READ_ONCE(leaf->wait_blkd_tasks) &&
			 READ_ONCE(leaf->qsmaskinit) == 0,
			 "leaf %d-%d: wait_blkd_tasks %d qsmaskinit 0x%lx, no CPU or task left",
			 lo, hi, leaf->wait_blkd_tasks, leaf->qsmaskinit);
	for (cpu = lo; cpu <= hi; cpu++) {
		err = cpu_up(cpu);
		bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", cpu, err);
	}
	/* And the leaf is waited for again. */
	synchronize_rcu();
	synchronize_rcu();
	bad |= KT_EXPECT(READ_ONCE(leaf->qsmaskinit) ==
			 READ_ONCE(leaf->qsmaskinitnext) &&
			 leaf->qsmaskinit != 0,
			 "leaf %d-%d: qsmaskinit 0x%lx qsmaskinitnext 0x%lx back online",
			 lo, hi, leaf->qsmaskinit, leaf->qsmaskinitnext);
	return bad ? 1 : exercised ? 0 : -1;
}

KTEST_HOOK(rcu_tree_hotplug_leaf)
{
	struct rcu_node *leaf;
	int r = -1;

	if (!rcu_flavor_is_tree() || rcu_state.num_levels < 2)
		return KTEST_SKIP;
	leaf = &rcu_state.node[rcu_state.num_nodes - 1];
	if (leaf->grplo == 0)
		return KTEST_SKIP;
	for (int i = 0; i < 5 && r < 0; i++) {
		r = lf_round(leaf, leaf->grplo, leaf->grphi);
		if (r < 0)
			ktap_diag("round %d: a grace period from before held the reader; again",
				  i);
	}
	return r < 0 ? KTEST_SKIP : r;
}

/* ---- rcu_tree_exp_hotplug ------------------------------------------ */

static struct {
	struct rcu_node *leaf;
	int victim, down_err;
	bool until_dead;	/* test point: until DEAD, or only OUT */
	volatile int armed, hook_done, locked, release;
	volatile int exp_done, exp_done_while_locked;
	struct completion reader_done, down_done;
} xh;

static int xh_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	smp_store_release(&xh.locked, 1);
	/* Busy, so the selection wants an IPI; preemptible, so GOING moves us. */
	while (!READ_ONCE(xh.release))
		arch_cpu_relax();
	rcu_read_unlock();
	complete(&xh.reader_done);
	return 0;
}

static int xh_waiter(void *arg)
{
	(void)arg;
	synchronize_rcu_expedited();
	if (!READ_ONCE(xh.release))
		WRITE_ONCE(xh.exp_done_while_locked, 1);
	smp_store_release(&xh.exp_done, 1);
	return 0;
}

static int xh_down(void *arg)
{
	(void)arg;
	xh.down_err = cpu_down(xh.victim);
	complete(&xh.down_done);
	return 0;
}

/* In the expedited worker, the leaf selected, no IPI sent: may sleep. */
static void xh_hook(enum rcu_exp_hook_point point, struct rcu_node *rnp)
{
	if (point != RCU_EXP_HOOK_SELECTED || rnp != xh.leaf ||
	    !READ_ONCE(xh.armed))
		return;
	WRITE_ONCE(xh.armed, 0);
	kthread_run(xh_down, NULL, 0, "exp-hp-down");
	if (xh.until_dead)
		poll_until(READ_ONCE(per_cpu_area(xh.victim)->hp_state) ==
			   CPUHP_DEAD);
	else
		poll_until(READ_ONCE(per_cpu_area(xh.victim)->hp_state) >=
			   CPUHP_OUT);
	smp_store_release(&xh.hook_done, 1);
}

static int xh_round(struct rcu_node *leaf, int victim, bool until_dead,
		    const char *what)
{
	int bad = 0, err;
	u64 t0;

	memset(&xh, 0, sizeof(xh));
	xh.leaf = leaf;
	xh.victim = victim;
	xh.until_dead = until_dead;
	init_completion(&xh.reader_done);
	init_completion(&xh.down_done);
	kthread_run(xh_reader, NULL, victim, "exp-hp-reader");
	while (!smp_load_acquire(&xh.locked))
		msleep(1);
	WRITE_ONCE(xh.armed, 1);
	WRITE_ONCE(rcu_exp_test_hook, xh_hook);
	kthread_run(xh_waiter, NULL, 0, "exp-hp-waiter");
	bad |= KT_EXPECT(poll_until(xh.hook_done),
			 "%s: the expedited GP never selected leaf %d-%d",
			 what, leaf->grplo, leaf->grphi);
	WRITE_ONCE(rcu_exp_test_hook, NULL);
	wait_for_completion(&xh.down_done);
	bad |= KT_EXPECT(xh.down_err == 0, "%s: cpu_down(%d) = %d", what,
			 victim, xh.down_err);
	/* A grace period that lost the reader ends within a few ms. */
	t0 = ktime_get_ns();
	while (!READ_ONCE(xh.exp_done) &&
	       ktime_get_ns() - t0 < 200 * NSEC_PER_MSEC)
		msleep(5);
	WRITE_ONCE(xh.release, 1);
	wait_for_completion(&xh.reader_done);
	bad |= KT_EXPECT(poll_until(xh.exp_done),
			 "%s: the expedited GP never ended after the reader unlocked",
			 what);
	bad |= KT_EXPECT(!xh.exp_done_while_locked,
			 "%s: the expedited GP ended under a reader preempted off cpu%d as it went down",
			 what, victim);
	err = cpu_up(victim);
	bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", victim, err);
	return bad;
}

KTEST_HOOK(rcu_tree_exp_hotplug)
{
	struct rcu_node *leaf;
	int bad, err, lo;

	if (!rcu_flavor_is_tree() || rcu_state.num_levels < 2)
		return KTEST_SKIP;
	leaf = &rcu_state.node[rcu_state.num_nodes - 1];
	lo = leaf->grplo;
	if (lo == 0 || leaf->grphi == lo)
		return KTEST_SKIP;
	bad = xh_round(leaf, leaf->grphi, false, "a CPU dying mid-selection");
	if (bad)
		return bad;
	err = cpu_down(lo);
	if (KT_EXPECT(err == 0, "cpu_down(%d) = %d", lo, err))
		return 1;
	bad = xh_round(leaf, leaf->grphi, true,
		       "the leaf going fully offline");
	err = cpu_up(lo);
	bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", lo, err);
	return bad;
}
