// SPDX-License-Identifier: GPL-2.0
/*
 * Expedited grace periods (rcu=tree), after Linux 6.12's
 * kernel/rcu/tree_exp.h.  synchronize_rcu_expedited() does not wait for
 * quiescent states to come: it reads every CPU's context-tracking counter
 * and sends an IPI to each CPU that RCU is watching.  A CPU that is idle
 * (an extended quiescent state) gets nothing, so idle CPUs stay asleep.
 * The IPI handler (rcu_exp_handler()) reports at once unless it
 * interrupted a reader, whose outermost unlock (or preemption) reports
 * instead.  Tasks already blocked in readers hold the expedited grace
 * period too.  Reports clear expmask bits up the tree as the normal
 * grace period's do.
 */
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/irq.h"
#include "kernel/preempt.h"
#include "rcu/tree/tree.h"

void rcu_exp_init(void)
{
	init_waitqueue_head(&rcu_state.exp_wq);
}

/* rnp->lock held, IRQs saved in flags: propagate an empty node up. */
static void __rcu_report_exp_rnp(struct rcu_node *rnp, unsigned long flags)
{
	for (;;) {
		unsigned long mask;

		raw_lockdep_assert_held_rcu_node(rnp);
		lockdep_assert_irqs_disabled();
		if (rnp->expmask || rnp->n_exp_tasks) {
			spin_unlock_irqrestore(&rnp->lock, flags);
			return;
		}
		if (!rnp->parent) {
			struct completion *c = rcu_state.exp_done;

			rcu_state.exp_done = NULL;
			spin_unlock_irqrestore(&rnp->lock, flags);
			if (c)
				complete(c);
			return;
		}
		mask = rnp->grpmask;
		spin_unlock(&rnp->lock);
		rnp = rnp->parent;
		spin_lock(&rnp->lock);
		if (!(rnp->expmask & mask)) {
			spin_unlock_irqrestore(&rnp->lock, flags);
			return;
		}
		WRITE_ONCE(rnp->expmask, rnp->expmask & ~mask);
	}
}

/* Clear mask in leaf rnp (0: just recheck it) and propagate. */
void rcu_report_exp_cpu_mult(struct rcu_node *rnp, unsigned long mask)
{
	unsigned long flags;

	lockdep_assert_not_in_nmi();	/* takes the rcu_node lock */
	spin_lock_irqsave(&rnp->lock, flags);
	if (mask && !(rnp->expmask & mask)) {
		spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	WRITE_ONCE(rnp->expmask, rnp->expmask & ~mask);
	if (!rcu_state.exp_done) {
		/* No expedited grace period in progress. */
		spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	__rcu_report_exp_rnp(rnp, flags);
}

void rcu_report_exp_rdp(struct rcu_tree_data *rdp)
{
	WRITE_ONCE(rdp->exp_deferred_qs, false);
	rcu_report_exp_cpu_mult(rdp->mynode, rdp->grpmask);
}

/*
 * The IPI, on a CPU that was not idle when the expedited grace period
 * began.  Outside a reader: report now.  Inside one: its outermost
 * unlock, or its preemption (which queues the task), reports.
 */
static void rcu_exp_handler(void *unused)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[raw_smp_processor_id()];
	struct task *t = current;

	(void)unused;
	rdp->exp_ipis++;
	if (READ_ONCE(t->rcu_read_lock_nesting) == 0) {
		/*
		 * Preemption or softirqs off (or another handler) is a
		 * reader to consolidated RCU: its end reports, through the
		 * context switch need_resched brings (tree_plugin.c).
		 * Idle is an extended quiescent state.
		 */
		if (!rcu_preempt_interrupted_atomic() ||
		    rcu_is_cpu_rrupt_from_idle()) {
			rcu_report_exp_rdp(rdp);
		} else {
			WRITE_ONCE(rdp->exp_deferred_qs, true);
			set_need_resched_current();
		}
		return;
	}
	WRITE_ONCE(rdp->exp_deferred_qs, true);
	WRITE_ONCE(t->rcu_read_unlock_special.b.exp_hint, 1);
}

/*
 * Select the CPUs of leaf rnp that the expedited grace period must hear
 * from: those RCU is watching, except this CPU (its caller is not in a
 * reader, and no other reader runs here).  Returns the CPUs to send the
 * IPI to.  Every task already on blkd_tasks holds the grace period.
 */
static unsigned long sync_rcu_exp_select_node_cpus(struct rcu_node *rnp)
{
	unsigned long flags, mask_ipi = 0;
	int self = raw_smp_processor_id();
	struct task *t;

	spin_lock_irqsave(&rnp->lock, flags);
	for (int cpu = rnp->grplo; cpu <= rnp->grphi; cpu++) {
		unsigned long bit = 1UL << (cpu - rnp->grplo);
		int snap;

		if (!cpu_online(cpu) || cpu == self)
			continue;
		/*
		 * Acquire, after the caller's smp_mb(): the same argument as
		 * rcu_watching_snap_save() (tree.c).  A CPU read idle ended
		 * its readers before its fully ordered step into idle, and
		 * one that leaves idle after this load runs readers that see
		 * what preceded the expedited grace period.
		 */
		snap = ct_rcu_watching_cpu_acquire(cpu);
		if (rcu_watching_snap_in_eqs(snap))
			continue;	/* idle: no reader, no IPI */
		mask_ipi |= bit;
	}
	WRITE_ONCE(rnp->expmask, mask_ipi);
	list_for_each_entry(t, &rnp->blkd_tasks, rcu_node_entry) {
		if (!t->rcu_blocks_exp) {
			t->rcu_blocks_exp = 1;
			rnp->n_exp_tasks++;
		}
	}
	spin_unlock_irqrestore(&rnp->lock, flags);
	return mask_ipi;
}

/*
 * A sleeping lock that lets one synchronize_rcu_expedited() run at a time:
 * *busy is taken by an atomic exchange; waiters sleep on wq.
 */
static bool rcu_sleeplock_try(void *busy)
{
	/* Acquire: the holder's accesses after the lock is seen taken. */
	return __atomic_exchange_n((int *)busy, 1, __ATOMIC_ACQUIRE) == 0;
}

static void rcu_sleeplock_release(struct wait_queue_head *wq, int *busy)
{
	/* Release: the holder's accesses before the next holder's. */
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
	wake_up_all(wq);
}

void rcu_tree_synchronize_rcu_expedited(void)
{
	struct completion done;
	unsigned long flags;
	struct rcu_node *rnp;

	WARN(in_interrupt() || irqs_disabled() ||
	     current->rcu_read_lock_nesting,
	     "synchronize_rcu_expedited: cpu %d called from atomic context or a reader",
	     raw_smp_processor_id());
	wait_event_fn(&rcu_state.exp_wq, rcu_sleeplock_try,
		      &rcu_state.exp_busy);
	init_completion(&done);
	rcu_seq_start(&rcu_state.expedited_sequence);

	/* Inner nodes first: a leaf that empties finds its bit set above. */
	rcu_for_each_node_breadth_first(rnp) {
		if (rcu_is_leaf_node(rnp))
			break;
		spin_lock_irqsave(&rnp->lock, flags);
		WRITE_ONCE(rnp->expmask, rnp->qsmaskinit);
		spin_unlock_irqrestore(&rnp->lock, flags);
	}
	rnp = rcu_get_root();
	spin_lock_irqsave(&rnp->lock, flags);
	rcu_state.exp_done = &done;
	spin_unlock_irqrestore(&rnp->lock, flags);

	/*
	 * Orders the sequence start (and the caller's earlier accesses, its
	 * removal) before the loads of the counters in
	 * sync_rcu_exp_select_node_cpus().  Pairs with the fully ordered
	 * step of a CPU leaving idle (ct_state_inc()): a CPU seen idle
	 * starts its next reader after this point, and that reader sees the
	 * removal.
	 */
	smp_mb();
	preempt_disable();
	rcu_for_each_leaf_node(rnp)
		rnp->exp_ipimask = sync_rcu_exp_select_node_cpus(rnp);
	preempt_enable();
	rcu_for_each_leaf_node(rnp) {
		unsigned long m = rnp->exp_ipimask;

		/*
		 * The IPI is sent after the smp_mb() above; the handler runs
		 * on its CPU in hardirq context, between that CPU's
		 * instructions, so it sees the CPU's own reader state
		 * (rcu_read_lock_nesting) without a barrier, and its report
		 * takes the leaf's lock (rcu_report_exp_cpu_mult()).
		 */
		for (int cpu = rnp->grplo; cpu <= rnp->grphi; cpu++)
			if (m & (1UL << (cpu - rnp->grplo)))
				smp_call_function_single(cpu, rcu_exp_handler,
							 NULL, false);
		/* A leaf with nothing to wait for reports now. */
		rcu_report_exp_cpu_mult(rnp, 0);
	}
	wait_for_completion(&done);
	/*
	 * Orders the reports seen before the caller's later accesses (its
	 * free).  Each report cleared its bit under the rcu_node locks,
	 * hand over hand, and the last one's complete() woke us; this
	 * barrier keeps our later accesses after all of them, as the
	 * smp_mb() after Linux's expedited wait does.
	 */
	smp_mb();
	rcu_seq_end(&rcu_state.expedited_sequence);
	rcu_state.n_exp_completed++;
	rcu_sleeplock_release(&rcu_state.exp_wq, &rcu_state.exp_busy);
}
