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
 */
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/kernel/util.h"

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
			 "leaf %d-%d: wait_blkd_tasks %d qsmaskinit %#lx, no CPU or task left",
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
			 "leaf %d-%d: qsmaskinit %#lx qsmaskinitnext %#lx back online",
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
