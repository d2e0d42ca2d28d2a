// SPDX-License-Identifier: GPL-2.0
/*
 * Preemptible Tree RCU (rcu=tree), after Linux 6.12's kernel/rcu/tree.c:
 * the grace-period sequence, the rcu_node tree, the grace-period kthread
 * with its force-quiescent-state scans, quiescent-state reporting up the
 * tree, and the callbacks.  The readers and blocked-task lists are in
 * rcu/tree/tree_plugin.c, expedited grace periods in rcu/tree/tree_exp.c, the stall
 * detector in rcu/tree/tree_stall.c, the idle/IRQ/NMI hooks in
 * rcu/tree/context_tracking.c.
 *
 * A grace period, in the kthread (rcu_gp_kthread(), pinned to CPU 0):
 *   rcu_gp_init()     rcu_seq_start(gp_seq); CPU hotplug's qsmaskinitnext
 *                     applied to qsmaskinit; each node's qsmask from
 *                     qsmaskinit; tasks already on blkd_tasks hold it
 *   rcu_gp_fqs_loop() until the root's qsmask is 0 and no blocked task
 *                     holds it: force_qs_rnp() excuses CPUs that the
 *                     context-tracking counter shows idle now (first scan,
 *                     rcu_watching_snap_save()) or idle since
 *                     (rcu_watching_snap_recheck()); every few ms
 *   rcu_gp_cleanup()  rcu_seq_end(gp_seq) in every node, then the state
 * CPUs report their own quiescent states from the tick and at context
 * switches (rcu_report_qs_rdp()); the last report at the root wakes the
 * kthread.  The tick never drives the machine, and nothing here ever
 * sends anything to an idle CPU: the kthread's timer fires on CPU 0.
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/softirq.h"
#include "kernel/time.h"
#include "kernel/trace.h"
#include "rcu/torture.h"
#include "rcu/tree/tree.h"

struct rcu_state rcu_state;
struct rcu_tree_data rcu_tree_data[NR_CPUS];

unsigned int rcu_fanout_leaf = 16;
/* At most 64: a leaf's masks have one bit per CPU in an unsigned long. */
kparam_uint("rcu_fanout_leaf", rcu_fanout_leaf, 2, 64,
	    "rcu=tree: CPUs per leaf rcu_node");
/* 0: the same as rcu_fanout_leaf (with 2, eight CPUs make three levels). */
unsigned int rcu_fanout;
kparam_uint("rcu_fanout", rcu_fanout, 0, 64,
	    "rcu=tree: children per inner rcu_node (0: rcu_fanout_leaf)");

/*
 * Forward progress under a call_rcu() flood, Linux 6.12's knobs and
 * defaults (rcutree.blimit and friends): a softirq pass invokes at most
 * max(blimit, queued >> rcu_divisor) callbacks; a CPU whose queue grew
 * by qhimark since its last overload step lifts its limit to
 * DEFAULT_MAX_RCU_BLIMIT and forces quiescent states; the limit is back
 * once the queue is down to qlowmark.
 */
unsigned int blimit = 10;
kparam_uint("blimit", blimit, 1, DEFAULT_MAX_RCU_BLIMIT,
	    "rcu=tree: callbacks a softirq pass invokes, unless overloaded");
unsigned int qhimark = 10000;
kparam_uint("qhimark", qhimark, 1, 1000000,
	    "rcu=tree: queue growth that lifts the batch limit and forces quiescent states");
unsigned int qlowmark = 100;
kparam_uint("qlowmark", qlowmark, 0, 1000000,
	    "rcu=tree: queue length at which the batch limit comes back");
unsigned int rcu_divisor = 7;
kparam_uint("rcu_divisor", rcu_divisor, 0, 31,
	    "rcu=tree: a pass invokes at least queued >> rcu_divisor callbacks");
/* Linux 6.12 takes 3 ms (HZ=1000) and clamps it to 1 ms .. 1 s. */
static unsigned int rcu_resched_ns = 3 * NSEC_PER_MSEC;
kparam_uint("rcu_resched_ns", rcu_resched_ns, NSEC_PER_MSEC, NSEC_PER_SEC,
	    "rcu=tree: ns a batch of more than 100 callbacks may take");

/* Milliseconds between FQS scans; the first scan follows rcu_gp_init(). */
#define RCU_FQS_INTERVAL_MS	3
/*
 * A grace period this old asks its watching holdouts for a quiescent
 * state (rdp->rcu_urgent_qs): the first scan's interval plus two more, as
 * Linux 6.12's jiffies_to_sched_qs.
 */
#define RCU_SCHED_QS_MS		(3 * RCU_FQS_INTERVAL_MS)

#define RCU_GP_KTHREAD_CPU	0

static const char *const gp_state_names[] = {
	[RCU_GP_IDLE] = "RCU_GP_IDLE",
	[RCU_GP_INIT] = "RCU_GP_INIT",
	[RCU_GP_WAIT_FQS] = "RCU_GP_WAIT_FQS",
	[RCU_GP_DOING_FQS] = "RCU_GP_DOING_FQS",
	[RCU_GP_CLEANUP] = "RCU_GP_CLEANUP",
};

const char *rcu_tree_gp_state_name(void)
{
	int s = READ_ONCE(rcu_state.gp_state);

	return s >= 0 && s < RCU_GP_NR_STATES ? gp_state_names[s] : "?";
}

static void rcu_gp_set_state(int state)
{
	WRITE_ONCE(rcu_state.gp_state, state);
	trace_event(TRACE_TREE_GP, (u32)state, (u32)rcu_state.gp_seq);
}

/* ------------------------------------------------------------------ */
/* The tree                                                           */
/* ------------------------------------------------------------------ */

static void rcu_init_geometry(void)
{
	unsigned int leaf = rcu_fanout_leaf;
	unsigned int fan = rcu_fanout ? rcu_fanout : rcu_fanout_leaf;
	int ncpus = arch_possible_cpus();
	int count[RCU_MAX_LEVELS], levels = 0, n, i, l, idx = 0;
	int span[RCU_MAX_LEVELS];

	if (ncpus < 1)
		ncpus = 1;
	if (fan < 2)
		fan = 2;
	/* Bottom up: leaves, then each level above until one node. */
	n = DIV_ROUND_UP(ncpus, (int)leaf);
	for (;;) {
		BUG_ON(levels >= RCU_MAX_LEVELS);
		count[levels++] = n;
		if (n == 1)
			break;
		n = DIV_ROUND_UP(n, (int)fan);
	}
	rcu_state.num_levels = levels;
	rcu_state.ncpus = ncpus;
	/* Top down: level 0 is the root.  span: CPUs under one node. */
	for (l = 0; l < levels; l++) {
		int c = count[levels - 1 - l];
		int sp = leaf;

		for (i = l; i < levels - 1; i++)
			sp *= fan;
		span[l] = sp;
		rcu_state.level[l] = &rcu_state.node[idx];
		for (i = 0; i < c; i++, idx++) {
			struct rcu_node *rnp = &rcu_state.node[idx];

			BUG_ON(idx >= RCU_MAX_NODES);
			spin_lock_init(&rnp->lock, "rcu_node");
			INIT_LIST_HEAD(&rnp->blkd_tasks);
			rnp->level = l;
			rnp->grplo = i * span[l];
			rnp->grphi = min(rnp->grplo + span[l], ncpus) - 1;
			rnp->grpnum = l ? i % fan : 0;
			rnp->grpmask = l ? 1UL << rnp->grpnum : 0;
			rnp->parent = l ? rcu_state.level[l - 1] + i / fan :
					  NULL;
			rnp->gp_seq = rcu_state.gp_seq;
			n = rnp->grphi - rnp->grplo + 1;
			/*
			 * qsmaskinit starts empty: CPUs join as they come up
			 * (rcutree_report_cpu_starting()), and the first
			 * grace period applies them.
			 */
			if (l == levels - 1)
				rnp->expmaskinit = n == 64 ? ~0UL :
						   (1UL << n) - 1;
			if (rnp->parent)
				rnp->parent->expmaskinit |= rnp->grpmask;
		}
	}
	rcu_state.num_nodes = idx;
}

/* ------------------------------------------------------------------ */
/* Asking for grace periods                                           */
/* ------------------------------------------------------------------ */

void rcu_gp_kthread_wake(void)
{
	struct task *t = READ_ONCE(rcu_state.gp_kthread);

	WRITE_ONCE(rcu_state.gp_wake, true);
	if (t)
		wake_up_process(t);
}

/* Make sure the grace period ending at gp_seq value s will run. */
static void rcu_start_this_gp(unsigned long s)
{
	unsigned long old = READ_ONCE(rcu_state.gp_seq_needed);

	while (ULONG_CMP_LT(old, s)) {
		/*
		 * Fully ordered (a locked cmpxchg): the caller's enqueue of
		 * its callbacks (under rdp->lock) and its gp_seq snapshot
		 * come before the request, and the request before the
		 * wake-up's accesses.  Pairs with rcu_gp_kthread()'s
		 * set_current_state(), whose smp_mb() orders its state store
		 * before its load of gp_seq_needed: a store-buffering shape,
		 * so either the kthread sees this request, or
		 * wake_up_process() below sees it sleeping and wakes it.
		 */
		if (__atomic_compare_exchange_n(&rcu_state.gp_seq_needed, &old,
						s, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST)) {
			rcu_gp_kthread_wake();
			return;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Reporting quiescent states up the tree                             */
/* ------------------------------------------------------------------ */

/*
 * Clear mask in rnp for the grace period gps, and when that empties rnp
 * (no bit left and no blocked task holding the grace period), clear
 * rnp's bit in its parent, and so on up.  The root's last bit wakes the
 * kthread.  Called with rnp->lock held and IRQs saved in flags; returns
 * with them released.
 */
void rcu_report_qs_rnp(unsigned long mask, struct rcu_node *rnp,
		       unsigned long gps, unsigned long flags)
{
	/*
	 * Ordering: the locks taken hand over hand carry the quiescent
	 * state up.  Each spin_lock() is a locked xadd (a full barrier on
	 * x86) whose acquire pairs with the previous holder's release, so
	 * everything the reporting CPU did before its report (the end of
	 * its readers) happens before the child's bit is cleared, that
	 * before the parent's, and the root's last clearing before
	 * rcu_gp_cleanup() takes the root lock to end the grace period.
	 */
	for (;;) {
		/* Each level: the lock taken hand over hand below. */
		raw_lockdep_assert_held_rcu_node(rnp);
		lockdep_assert_irqs_disabled();
		/*
		 * mask 0: a leaf whose CPUs are all offline, reported by
		 * rcu_gp_init() so that it climbs once its blocked tasks
		 * are gone (Linux 6.12's test, the same).
		 */
		if ((!(rnp->qsmask & mask) && mask) || rnp->gp_seq != gps) {
			/* Already reported, or another grace period. */
			spin_unlock_irqrestore(&rnp->lock, flags);
			return;
		}
		WRITE_ONCE(rnp->qsmask, rnp->qsmask & ~mask);
		if (rnp->qsmask != 0 || rcu_preempt_blocked_readers_cgp(rnp)) {
			/* Others below this node still hold the GP. */
			spin_unlock_irqrestore(&rnp->lock, flags);
			return;
		}
		mask = rnp->grpmask;
		if (!rnp->parent)
			break;
		spin_unlock(&rnp->lock);
		rnp = rnp->parent;
		spin_lock(&rnp->lock);
	}
	/* The root is clear: the grace period may end. */
	spin_unlock_irqrestore(&rnp->lock, flags);
	rcu_gp_kthread_wake();
}

/*
 * The last task holding the grace period on leaf rnp left its reader.
 * If no CPU bit is left either, propagate as a CPU's last report would.
 * Called with rnp->lock held, IRQs saved in flags; releases them.
 */
void rcu_report_unblock_qs_rnp(struct rcu_node *rnp, unsigned long flags)
{
	unsigned long gps = rnp->gp_seq, mask;
	struct rcu_node *parent = rnp->parent;

	raw_lockdep_assert_held_rcu_node(rnp);
	lockdep_assert_irqs_disabled();
	if (!rcu_seq_state(gps) || rnp->qsmask != 0 ||
	    rcu_preempt_blocked_readers_cgp(rnp)) {
		spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	if (!parent) {
		spin_unlock_irqrestore(&rnp->lock, flags);
		rcu_gp_kthread_wake();
		return;
	}
	mask = rnp->grpmask;
	spin_unlock(&rnp->lock);
	spin_lock(&parent->lock);
	rcu_report_qs_rnp(mask, parent, gps, flags);
}

/*
 * Give the callbacks that have no grace period yet the earliest one that
 * covers them (a full grace period from now).  rdp->lock held.  Returns
 * the gp_seq value to ask for in *s, and true if it must be asked for.
 */
static bool rcu_accelerate_cbs(struct rcu_tree_data *rdp, unsigned long *s)
{
	lockdep_assert_held(&rdp->lock);
	if (rcu_segcblist_empty(&rdp->cblist))
		return false;
	/*
	 * rdp->lock, held here, was taken with a locked instruction (a
	 * full barrier on x86): the caller's earlier accesses (the
	 * updater's removal, then the enqueue) come before this load of
	 * gp_seq, so the snapshot cannot name a grace period that began
	 * before the removal was visible.  The snapshot's own smp_mb()
	 * orders the load before the request that follows
	 * (rcu_start_this_gp()).
	 */
	*s = rcu_seq_snap(&rcu_state.gp_seq);
	return rcu_segcblist_accelerate(&rdp->cblist, *s);
}

/*
 * Move to DONE the callbacks whose grace period leaf rnp has seen end.
 * rdp->lock held; returns true if callbacks are ready.
 */
static bool rcu_advance_cbs(struct rcu_node *rnp, struct rcu_tree_data *rdp)
{
	lockdep_assert_held(&rdp->lock);
	rcu_segcblist_advance(&rdp->cblist, rnp->gp_seq);
	return rcu_segcblist_ready_cbs(&rdp->cblist);
}

/*
 * This CPU noticing grace-period changes at its leaf: callbacks whose
 * grace period ended move to DONE; a new grace period asks this CPU for a
 * quiescent state.  rnp->lock held (IRQs off), rnp is rdp's leaf.  Returns
 * true if callbacks became ready.
 */
bool rcu_note_gp_changes_locked(struct rcu_node *rnp,
				struct rcu_tree_data *rdp)
{
	bool ready;

	raw_lockdep_assert_held_rcu_node(rnp);
	lockdep_assert_irqs_disabled();
	if (rdp->gp_seq == rnp->gp_seq)
		return false;
	spin_lock(&rdp->lock);
	ready = rcu_advance_cbs(rnp, rdp);
	spin_unlock(&rdp->lock);
	if (rcu_seq_state(rnp->gp_seq)) {
		/* A grace period we have not seen started. */
		rdp->cpu_no_qs = true;
		rdp->core_needs_qs = !!(rnp->qsmask & rdp->grpmask);
	} else {
		rdp->core_needs_qs = false;
	}
	WRITE_ONCE(rdp->gp_seq, rnp->gp_seq);
	return ready;
}

/*
 * This CPU passed a quiescent state now (a context switch, the tick
 * outside a reader, a reader's unlock that was asked for one): report it
 * if the current grace period still waits for it.  IRQs off.
 */
void rcu_report_qs_rdp(struct rcu_tree_data *rdp)
{
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;
	bool ready;

	lockdep_assert_irqs_disabled();
	lockdep_assert_not_in_nmi();	/* takes the rcu_node lock */
	/*
	 * Lockless filter: nothing new, and nothing owed.  A stale gp_seq
	 * here only delays the report to this CPU's next tick or context
	 * switch (liveness, not safety): whatever is reported is decided
	 * below under the leaf's lock, which orders this CPU's earlier
	 * readers before the report (see rcu_report_qs_rnp()).
	 */
	if (READ_ONCE(rnp->gp_seq) == rdp->gp_seq && !rdp->core_needs_qs) {
		rdp->cpu_no_qs = false;
		return;
	}
	spin_lock_irqsave(&rnp->lock, flags);
	ready = rcu_note_gp_changes_locked(rnp, rdp);
	rdp->cpu_no_qs = false;
	if (rdp->core_needs_qs && (rnp->qsmask & rdp->grpmask)) {
		rdp->core_needs_qs = false;
		rcu_report_qs_rnp(rdp->grpmask, rnp, rnp->gp_seq, flags);
	} else {
		rdp->core_needs_qs = false;
		spin_unlock_irqrestore(&rnp->lock, flags);
	}
	if (ready)
		raise_softirq(RCU_SOFTIRQ);
}

/* ------------------------------------------------------------------ */
/* The grace-period kthread                                           */
/* ------------------------------------------------------------------ */

/*
 * The first online CPU under leaf rnp_leaf (qsmaskinit was 0): set its
 * bit in its ancestors' qsmaskinit, up to the first that had one already.
 * Linux 6.12's rcu_init_new_rnp().  rnp_leaf->lock held (nested, child
 * before parent, as reports climb).
 */
static void rcu_init_new_rnp(struct rcu_node *rnp_leaf)
{
	unsigned long mask = rnp_leaf->grpmask, oldmask;
	struct rcu_node *rnp;

	raw_lockdep_assert_held_rcu_node(rnp_leaf);
	for (rnp = rnp_leaf->parent; rnp; rnp = rnp->parent) {
		spin_lock(&rnp->lock);
		oldmask = rnp->qsmaskinit;
		rnp->qsmaskinit |= mask;
		spin_unlock(&rnp->lock);
		if (oldmask)
			return;
		mask = rnp->grpmask;
	}
}

/*
 * Leaf rnp_leaf has no online CPU and no blocked task left: clear its
 * bit in its ancestors' qsmaskinit, up to the first that keeps another.
 * Linux 6.12's rcu_cleanup_dead_rnp().  rnp_leaf->lock held.
 */
static void rcu_cleanup_dead_rnp(struct rcu_node *rnp_leaf)
{
	unsigned long mask = rnp_leaf->grpmask;
	struct rcu_node *rnp;

	raw_lockdep_assert_held_rcu_node(rnp_leaf);
	WARN_ONCE(rnp_leaf->qsmaskinit || rnp_leaf->n_gp_tasks,
		  "rcu: cleaning up leaf %d-%d, which is in use",
		  rnp_leaf->grplo, rnp_leaf->grphi);
	for (rnp = rnp_leaf->parent; rnp; rnp = rnp->parent) {
		spin_lock(&rnp->lock);
		rnp->qsmaskinit &= ~mask;
		if (rnp->qsmaskinit) {
			spin_unlock(&rnp->lock);
			return;
		}
		spin_unlock(&rnp->lock);
		mask = rnp->grpmask;
	}
}

/*
 * rcu_gp_init()'s first pass, Linux 6.12's: bring each leaf's qsmaskinit
 * up to date with the CPUs that came and went (qsmaskinitnext), and the
 * inner nodes' with the leaves that gained their first CPU or lost their
 * last.  A leaf that lost its last CPU while tasks are blocked on it keeps
 * its bit upstairs (wait_blkd_tasks) so that those tasks still hold grace
 * periods; it is cleaned up at the first grace-period start that finds
 * them gone.  Under ofl_lock: no CPU comes or goes meanwhile.
 */
static void rcu_gp_init_apply_hotplug(void)
{
	struct rcu_node *rnp;
	unsigned long flags, oldmask;

	spin_lock_irqsave(&rcu_state.ofl_lock, flags);
	rcu_for_each_leaf_node(rnp) {
		spin_lock(&rnp->lock);
		if (rnp->qsmaskinit == rnp->qsmaskinitnext &&
		    !rnp->wait_blkd_tasks) {
			spin_unlock(&rnp->lock);
			continue;
		}
		oldmask = rnp->qsmaskinit;
		rnp->qsmaskinit = rnp->qsmaskinitnext;
		if (!oldmask != !rnp->qsmaskinit) {
			if (!oldmask)			/* first CPU online */
				rcu_init_new_rnp(rnp);
			else if (!list_empty(&rnp->blkd_tasks))
				rnp->wait_blkd_tasks = true;
			else				/* last CPU gone */
				rcu_cleanup_dead_rnp(rnp);
		}
		/* Its blocked tasks are gone, or a CPU is back: done. */
		if (rnp->wait_blkd_tasks &&
		    (list_empty(&rnp->blkd_tasks) || rnp->qsmaskinit)) {
			rnp->wait_blkd_tasks = false;
			if (!rnp->qsmaskinit)
				rcu_cleanup_dead_rnp(rnp);
		}
		spin_unlock(&rnp->lock);
	}
	spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
}

static void rcu_gp_init(void)
{
	struct rcu_node *rnp = rcu_get_root();
	unsigned long flags;
	u64 now = ktime_get_ns();

	rcu_gp_set_state(RCU_GP_INIT);
	/*
	 * The root's lock serialises the sequence (rcu_seq_start()'s
	 * caller rule); rcu_seq_start()'s smp_mb() orders the new gp_seq
	 * before the masks set below.  The request that woke us was read
	 * after the requester's callbacks were queued (rcu_start_this_gp()),
	 * so those callbacks wait for this grace period or a later one.
	 */
	spin_lock_irqsave(&rnp->lock, flags);
	rcu_seq_start(&rcu_state.gp_seq);
	rcu_state.gp_start_ns = now;
	rcu_state.n_gp_started++;
	record_gp_stall_check_time(now);
	spin_unlock_irqrestore(&rnp->lock, flags);
	trace_event(TRACE_TREE_GP, RCU_GP_INIT, (u32)rcu_state.gp_seq);
	rcu_gp_hook(RCU_GP_HOOK_STARTED, NULL);

	rcu_gp_init_apply_hotplug();

	/*
	 * Root first, so that a leaf that empties at once finds its
	 * parent's bit already set.
	 */
	rcu_for_each_node_breadth_first(rnp) {
		unsigned long mask;

		/*
		 * Under the node's lock: a CPU learns of the grace period by
		 * reading rnp->gp_seq under the same lock
		 * (rcu_note_gp_changes_locked()), so it sees the mask and
		 * the blocked-task marks set with it.
		 */
		spin_lock_irqsave(&rnp->lock, flags);
		WRITE_ONCE(rnp->qsmask, rnp->qsmaskinit);
		WRITE_ONCE(rnp->gp_seq, rcu_state.gp_seq);
		if (!rcu_is_leaf_node(rnp)) {
			spin_unlock_irqrestore(&rnp->lock, flags);
			continue;
		}
		rcu_preempt_check_blocked_tasks_gp_init(rnp);
		/*
		 * CPUs that went offline since the pass above (their
		 * report found no grace period waiting on them), and a
		 * leaf whose CPUs are all gone but whose blocked tasks
		 * hold this grace period: report them now.  The report
		 * stops at this leaf while a blocked task holds it.
		 */
		mask = rnp->qsmask & ~READ_ONCE(rnp->qsmaskinitnext);
		if (mask || rnp->wait_blkd_tasks) {
			rcu_report_qs_rnp(mask, rnp, rnp->gp_seq, flags);
			continue;
		}
		spin_unlock_irqrestore(&rnp->lock, flags);
	}

	/*
	 * The kthread itself is not in a reader, and no other task's
	 * reader runs on this CPU while it does (a preempted one is queued):
	 * a quiescent state for this CPU.
	 */
	local_irq_save(flags);
	rcu_report_qs_rdp(&rcu_tree_data[raw_smp_processor_id()]);
	local_irq_restore(flags);
}

/*
 * Is CPU rdp in an extended quiescent state now? (first FQS scan)
 *
 * The snapshot is the grace-period side of the article's protocol,
 * dyntick_save_progress_counter() and the waitack test in one, and its
 * ordering is the whole argument for excusing an idle CPU without
 * asking it:
 *
 * 1. rcu_gp_fqs() runs smp_mb() before this load, after the grace
 *    period started (rcu_gp_init()), and so after everything that
 *    happened before the grace period was asked for: the updater's
 *    removal of an element, then its call_rcu().
 * 2. The load is an acquire (ct_rcu_watching_cpu_acquire()): this
 *    kthread's later accesses (the report of the excused CPU under the
 *    leaf's lock, and from there the end of the grace period) stay after
 *    it.
 * 3. If the value read says idle (the CT_RCU_WATCHING bit clear), the
 *    CPU's last step into idle was a fully ordered atomic add
 *    (ct_state_inc()) placed after all its earlier readers: reading its
 *    value, with 2, orders those readers before the report, so none of
 *    them survives the grace period.
 * 4. Any step out of idle that this load did not see is, by 1 and that
 *    step's full ordering (the store-buffering pair), followed by readers
 *    that see the removal: they cannot hold the old element, so the
 *    grace period need not wait for them.
 *
 * A CPU seen watching is left to report for itself (tick, context
 * switch) or to rcu_watching_snap_recheck() on the next scan.  The
 * mutant tree-fqs-excuses-watching breaks step 3 and the torture test
 * catches it; tests/spin/dyntickRCU-tree.spin checks the same protocol
 * for every interleaving of idle, IRQ and NMI steps.
 */
static bool rcu_watching_snap_save(struct rcu_tree_data *rdp)
{
	rdp->watching_snap = ct_rcu_watching_cpu_acquire(rdp->cpu);
	return rcu_watching_snap_in_eqs(rdp->watching_snap);
}

/*
 * Has CPU rdp passed through one since the snapshot? (later scans)
 *
 * The snapshot showed the CPU watching.  A different value means it has
 * stepped at least once since, and its first step from watching went
 * into idle: a fully ordered add after the readers it was running at the
 * snapshot, which this acquire load (after rcu_gp_fqs()'s smp_mb())
 * orders before our report, as in rcu_watching_snap_save().  The
 * counter cannot wrap back to the snapshot in between in any run this
 * kernel makes (2^30 steps per scan interval).  The 2008 code needed
 * two tests for this, waitack's and waitmb's; one full barrier per
 * step makes them the same test.
 */
static bool rcu_watching_snap_recheck(struct rcu_tree_data *rdp)
{
	int snap = ct_rcu_watching_cpu_acquire(rdp->cpu);

	return snap != rdp->watching_snap || rcu_watching_snap_in_eqs(snap);
}

/*
 * Report, for every CPU that a leaf still waits on and that f() excuses,
 * a quiescent state on its behalf.  Runs in the kthread: nothing is sent
 * to the excused CPUs, which stay asleep.
 */
static void force_qs_rnp(bool (*f)(struct rcu_tree_data *rdp))
{
	struct rcu_node *rnp;
	unsigned long flags;
	u32 excused = 0;

	/*
	 * A holdout that is watching has been in the kernel, outside idle,
	 * for the whole grace period so far: past RCU_SCHED_QS_MS, ask it
	 * for a quiescent state.  Its tick then asks for a reschedule, and
	 * the context switch reports one (Linux 6.12's
	 * rcu_watching_snap_recheck() and rcu_sched_clock_irq()).  Without
	 * this a CPU whose ticks all land with preemption off (a flood that
	 * spins on a lock) holds the grace period until the stall report.
	 */
	bool urgent = f == rcu_watching_snap_recheck &&
		      ktime_get_ns() - READ_ONCE(rcu_state.gp_start_ns) >=
		      RCU_SCHED_QS_MS * NSEC_PER_MSEC;

	rcu_state.n_fqs_scans++;
	rcu_for_each_leaf_node(rnp) {
		unsigned long mask = 0;

		spin_lock_irqsave(&rnp->lock, flags);
		for (int cpu = rnp->grplo; cpu <= rnp->grphi; cpu++) {
			unsigned long bit = 1UL << (cpu - rnp->grplo);
			struct rcu_tree_data *rdp = &rcu_tree_data[cpu];

			if (!(rnp->qsmask & bit))
				continue;
			rdp->n_fqs_reads++;	/* the kthread's cost of us */
			if (f(rdp)) {
				mask |= bit;
				rdp->n_fqs_excused++;
				excused++;
			} else if (urgent) {
				WRITE_ONCE(rdp->rcu_urgent_qs, true);
			}
		}
		if (mask)
			rcu_report_qs_rnp(mask, rnp, rnp->gp_seq, flags);
		else
			spin_unlock_irqrestore(&rnp->lock, flags);
	}
	trace_event(TRACE_TREE_FQS, f == rcu_watching_snap_save, excused);
}

static void rcu_gp_fqs(bool first_time)
{
	rcu_gp_set_state(RCU_GP_DOING_FQS);
	/*
	 * Orders the grace period's start (and everything before it: the
	 * updaters' removals, the CPUs' entries into it) before the loads
	 * of their counters in the scan.  Pairs with the fully ordered step
	 * of a CPU leaving idle (ct_state_inc(), context_tracking.c): if the
	 * scan misses that step, the readers after it see the removals.
	 */
	smp_mb();
	force_qs_rnp(first_time ? rcu_watching_snap_save :
				  rcu_watching_snap_recheck);
}

static bool rcu_gp_done(void)
{
	struct rcu_node *rnp = rcu_get_root();

	return !READ_ONCE(rnp->qsmask) && !rcu_preempt_blocked_readers_cgp(rnp);
}

static void rcu_gp_fqs_loop(void)
{
	bool first = true;
	u64 t0;

	for (;;) {
		WRITE_ONCE(rcu_state.gp_activity_ns, ktime_get_ns());
		if (rcu_gp_done())
			break;
		if (!first) {
			rcu_gp_set_state(RCU_GP_WAIT_FQS);
			WRITE_ONCE(rcu_state.gp_wake, false);
			set_current_state(TASK_SLEEPING);
			if (!rcu_gp_done() && !READ_ONCE(rcu_state.gp_wake))
				schedule_deadline(ktime_get_ns() +
						  RCU_FQS_INTERVAL_MS *
						  NSEC_PER_MSEC);
			else
				set_current_state(TASK_RUNNING);
			WRITE_ONCE(rcu_state.gp_activity_ns, ktime_get_ns());
			if (rcu_gp_done())
				break;
		}
		t0 = get_cycles();
		rcu_gp_fqs(first);
		rcu_gp_kthread_cycles += get_cycles() - t0;
		first = false;
		check_cpu_stall(ktime_get_ns());
	}
	/*
	 * Orders every report we saw (rcu_gp_done() reads the root's mask
	 * without its lock) before the end of the sequence and the
	 * callbacks it releases.  The reports themselves reached the root
	 * under its lock, which rcu_gp_cleanup() takes next (see
	 * rcu_report_qs_rnp()).
	 */
	smp_mb();
}

void (*rcu_gp_test_hook)(enum rcu_gp_hook_point point,
			 struct rcu_node *rnp);

static void rcu_gp_cleanup(void)
{
	unsigned long new_gp_seq = rcu_state.gp_seq, flags;
	struct rcu_node *rnp;
	u64 lat = ktime_get_ns() - rcu_state.gp_start_ns;

	rcu_gp_set_state(RCU_GP_CLEANUP);
	rcu_seq_end(&new_gp_seq);
	/*
	 * rcu_state.gp_seq ends first: a CPU that sees its leaf's new gp_seq
	 * (through the leaf's lock, which orders it after this store) may
	 * invoke callbacks at once, and a synchronize_rcu() they wake must
	 * find the grace period ended in rcu_batches_completed() and the
	 * polled API.  Ending it last, after the leaves, left a window that
	 * 255 CPUs hit: 52 of 255 callers saw no full grace period.  The GP
	 * had ended already: the root's last quiescent state ended it.
	 */
	rnp = rcu_get_root();
	spin_lock_irqsave(&rnp->lock, flags);
	rcu_seq_end(&rcu_state.gp_seq);
	spin_unlock_irqrestore(&rnp->lock, flags);
	rcu_gp_hook(RCU_GP_HOOK_ENDED, NULL);
	rcu_for_each_node_breadth_first(rnp) {
		spin_lock_irqsave(&rnp->lock, flags);
		WRITE_ONCE(rnp->gp_seq, new_gp_seq);
		spin_unlock_irqrestore(&rnp->lock, flags);
		rcu_gp_hook(RCU_GP_HOOK_NODE_ENDED, rnp);
	}
	rnp = rcu_get_root();
	spin_lock_irqsave(&rnp->lock, flags);
	rcu_state.n_gp_completed++;
	rcu_state.gp_lat_sum_ns += lat;
	if (!rcu_state.gp_lat_min_ns || lat < rcu_state.gp_lat_min_ns)
		rcu_state.gp_lat_min_ns = lat;
	if (lat > rcu_state.gp_lat_max_ns)
		rcu_state.gp_lat_max_ns = lat;
	WRITE_ONCE(rcu_state.stall_next_ns, 0);
	spin_unlock_irqrestore(&rnp->lock, flags);
	trace_event(TRACE_TREE_GP, RCU_GP_IDLE, (u32)rcu_state.gp_seq);
}

static int rcu_gp_kthread(void *arg)
{
	u64 t0;

	(void)arg;
	for (;;) {
		rcu_gp_set_state(RCU_GP_IDLE);
		for (;;) {
			WRITE_ONCE(rcu_state.gp_activity_ns, ktime_get_ns());
			/*
			 * set_current_state()'s smp_mb() orders our state
			 * store before the load of gp_seq_needed below; pairs
			 * with rcu_start_this_gp()'s cmpxchg and the
			 * wake-up after it: a request is never missed.
			 */
			set_current_state(TASK_SLEEPING);
			if (ULONG_CMP_LT(READ_ONCE(rcu_state.gp_seq),
					 READ_ONCE(rcu_state.gp_seq_needed))) {
				set_current_state(TASK_RUNNING);
				break;
			}
			schedule();
		}
		t0 = get_cycles();
		rcu_gp_init();
		rcu_gp_kthread_cycles += get_cycles() - t0;
		rcu_gp_fqs_loop();
		t0 = get_cycles();
		rcu_gp_cleanup();
		rcu_gp_kthread_cycles += get_cycles() - t0;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The tick and callbacks                                             */
/* ------------------------------------------------------------------ */

/*
 * Every grace period that this CPU's callbacks wait for must have been
 * asked for (rcu_start_this_gp()); one that was not leaves them waiting
 * for ever with the tick running, and no stall warning covers that, as
 * no grace period is in progress.  The request follows the assignment
 * outside rdp->lock, so a call_rcu_hurry() this tick interrupted, or a
 * poster preempted there, leaves it briefly unasked: only a wait of
 * RCU_CBS_UNASKED_MS of guest time is reported.  This CPU's tick.
 */
#define RCU_CBS_UNASKED_MS	1000

static void rcu_check_cbs_requested(struct rcu_tree_data *rdp, bool waits,
				    unsigned long want)
{
	unsigned long needed = READ_ONCE(rcu_state.gp_seq_needed);
	u64 now;

	lockdep_assert_irqs_disabled();
	if (!waits || ULONG_CMP_GE(needed, want)) {
		rdp->cbs_unasked_since_ns = 0;
		return;
	}
	now = ktime_get_ns();
	if (!rdp->cbs_unasked_since_ns) {
		rdp->cbs_unasked_since_ns = now;
		return;
	}
	WARN(now - rdp->cbs_unasked_since_ns >
	     RCU_CBS_UNASKED_MS * NSEC_PER_MSEC,
	     "rcu: cpu%d's callbacks have waited %lu ms for grace period %lu, which nobody asked for (gp_seq_needed %lu, gp_seq %lu)",
	     rdp->cpu,
	     (unsigned long)((now - rdp->cbs_unasked_since_ns) /
			     NSEC_PER_MSEC),
	     want, needed, READ_ONCE(rcu_state.gp_seq));
}

/* The tick: hardirq context, IRQs off, on cpu. */
static void rcu_tree_sched_clock_irq(int cpu)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
	struct rcu_node *rnp = rdp->mynode;
	unsigned long s = 0, want;
	bool need_gp, ready, waits;

	lockdep_assert_irqs_disabled();
	/*
	 * Outside any reader (the interrupted task's and every handler's
	 * readers count on current) and any region that is one to
	 * consolidated RCU, the tick is a quiescent state.  Inside, the
	 * reader's unlock or the region's end reports (tree_plugin.c).
	 */
	if (rcu_flavor_sched_clock_irq(cpu)) {
		if (READ_ONCE(rnp->gp_seq) != rdp->gp_seq ||
		    rdp->core_needs_qs)
			rcu_report_qs_rdp(rdp);
	} else if (READ_ONCE(rnp->gp_seq) != rdp->gp_seq) {
		spin_lock(&rnp->lock);
		if (rcu_note_gp_changes_locked(rnp, rdp))
			raise_softirq(RCU_SOFTIRQ);
		spin_unlock(&rnp->lock);
	}
	/*
	 * Callbacks: only this CPU adds to its list locklessly-visible
	 * (rcu_barrier() entrains under the lock, and a list it found empty
	 * it leaves alone), so an empty list needs no lock.
	 */
	if (!rcu_segcblist_empty(&rdp->cblist)) {
		spin_lock(&rdp->lock);
		need_gp = rcu_accelerate_cbs(rdp, &s);
		ready = rcu_segcblist_ready_cbs(&rdp->cblist);
		/* Under the same lock: what the check below compares. */
		waits = rcu_segcblist_lastgp(&rdp->cblist, &want);
		spin_unlock(&rdp->lock);
		if (need_gp)
			rcu_start_this_gp(s);
		if (ready)
			raise_softirq(RCU_SOFTIRQ);
		/* After our own request: gp_seq_needed is read there. */
		rcu_check_cbs_requested(rdp, waits, want);
	} else {
		rdp->cbs_unasked_since_ns = 0;
	}
	/*
	 * FQS asked for a quiescent state (rdp->rcu_urgent_qs): a context
	 * switch reports one, so ask for a reschedule.  The interrupted
	 * code's next preempt_enable(), or this interrupt's return to
	 * preemptible code, takes it.
	 */
	if (READ_ONCE(rdp->rcu_urgent_qs)) {
		WRITE_ONCE(rdp->rcu_urgent_qs, false);
		rdp->n_urgent_qs++;
		set_need_resched_current();
	}
	/* A stall deadline is armed only while a grace period runs. */
	if (READ_ONCE(rcu_state.stall_next_ns))
		check_cpu_stall(ktime_get_ns());
}

/*
 * Invoke a batch of this CPU's ready callbacks, IRQs on (from rcu_core()):
 * at most max(rdp->blimit, queued >> rcu_divisor) of them, so that a long
 * list does not hold the CPU in softirq; the softirq comes back for the
 * rest.  A batch bigger than 100 (an overloaded CPU's) is also bounded by
 * time, rcu_resched_ns, as in Linux 6.12: what it has not invoked by then
 * goes back at the head of the list.
 */
static void rcu_do_batch(void)
{
	unsigned long flags;
	struct rcu_tree_data *rdp;
	struct rcu_head *list, *next, **tail;
	long n, bl, count, left = 0;
	u64 tlimit = 0;
	bool more;

	lockdep_assert_not_in_nmi();	/* takes rdp->lock */
	local_irq_save(flags);
	rdp = &rcu_tree_data[raw_smp_processor_id()];
	spin_lock(&rdp->lock);
	bl = max(rdp->blimit, rdp->cblist.len >> rcu_divisor);
	/*
	 * The DONE segment: callbacks moved there under rdp->lock by
	 * rcu_advance_cbs(), after rcu_note_gp_changes_locked() read the
	 * leaf's new gp_seq under the leaf's lock, which rcu_gp_cleanup()
	 * wrote after rcu_seq_end()'s smp_mb().  That chain of locks puts
	 * the whole grace period, every reader it waited for included,
	 * before the callbacks run below.
	 */
	list = rcu_segcblist_extract_done(&rdp->cblist, bl, &n);
	if (!list) {
		spin_unlock_irqrestore(&rdp->lock, flags);
		return;
	}
	rdp->invoking++;	/* rcu_barrier() must see them in our hands */
	spin_unlock_irqrestore(&rdp->lock, flags);
	if (bl > 100)
		tlimit = ktime_get_ns() + rcu_resched_ns;
	for (count = 0; list; count++) {
		/* The clock every 32 callbacks: it is not free either. */
		if (tlimit && count && !(count & 31) &&
		    ktime_get_ns() >= tlimit)
			break;
		next = list->next;
		trace_event(TRACE_CALLBACK, 0, (u32)(unsigned long)list->func);
		list->func(list);
		list = next;
	}
	/* Out of time: the rest goes back, first in line. */
	for (tail = &list; *tail; tail = &(*tail)->next)
		left++;
	spin_lock_irqsave(&rdp->lock, flags);
	rcu_segcblist_insert_done(&rdp->cblist, list, tail, left);
	rdp->invoking--;
	rdp->n_cb_invoked += count;
	if (count > rdp->n_batch_max)
		rdp->n_batch_max = count;
	count = rdp->cblist.len;
	/* The excess is worked down: the limit is back. */
	if (rdp->blimit >= DEFAULT_MAX_RCU_BLIMIT && count <= qlowmark)
		rdp->blimit = blimit;
	/* Drained, or shrunk by qhimark: the next overload step counts anew. */
	if (count == 0)
		rdp->qlen_last_fqs_check = 0;
	else if (count < rdp->qlen_last_fqs_check - (long)qhimark)
		rdp->qlen_last_fqs_check = count;
	more = rcu_segcblist_ready_cbs(&rdp->cblist);
	spin_unlock_irqrestore(&rdp->lock, flags);
	if (more)
		raise_softirq(RCU_SOFTIRQ);
}

/*
 * RCU_SOFTIRQ, IRQs on.  First the work a reader's unlock in a handler
 * deferred (rcu_read_unlock_special() raised us): the reader is over,
 * so unless the interrupted code has preemption off, finish it here; if
 * it has, its preempt_enable() switches and the switch finishes it, as
 * Linux 6.12's rcu_core() does.  Then the callbacks.
 */
static void rcu_core(void)
{
	struct task *t = current;

	if (!(preempt_count() & PREEMPT_MASK))
		rcu_preempt_deferred_qs(t);
	else if (rcu_preempt_need_deferred_qs(t))
		set_need_resched_current();
	rcu_do_batch();
}

/*
 * call_rcu()'s overload step (Linux 6.12's __call_rcu_core()), rdp->lock
 * held: once the queue has grown by qhimark since the last step, lift
 * the batch limit so that the softirq invokes in big batches, and say
 * that quiescent states are to be forced.  rcu_do_batch() undoes both.
 */
static bool rcu_call_rcu_overload(struct rcu_tree_data *rdp)
{
	lockdep_assert_held(&rdp->lock);
	if (rdp->cblist.len <= rdp->qlen_last_fqs_check + (long)qhimark)
		return false;
	rdp->blimit = DEFAULT_MAX_RCU_BLIMIT;
	rdp->qlen_last_fqs_check = rdp->cblist.len;
	rdp->n_cbs_overload++;
	return true;
}

/*
 * Queue a callback (Linux 6.12's __call_rcu_common()).  Its grace period
 * is asked for by this CPU's next tick (rcu_tree_sched_clock_irq()),
 * which gives every callback queued since the last one the same grace
 * period: a burst of call_rcu() costs one grace period, not one each.
 * The tick keeps running while callbacks are queued (rcu_tree_needs_cpu()),
 * so the request is at most a tick away.  Asked for at once: by a waiter
 * (hurry, from synchronize_rcu()), and when the queue has grown by
 * qhimark (the overload step).
 */
static void __call_rcu_common(struct rcu_head *head,
			      void (*func)(struct rcu_head *head), bool hurry)
{
	struct rcu_tree_data *rdp;
	unsigned long flags, s = 0;
	bool need_gp = false, overload;

	lockdep_assert_not_in_nmi();	/* takes rdp->lock */
	head->func = func;
	local_irq_save(flags);
	rdp = &rcu_tree_data[raw_smp_processor_id()];
	spin_lock(&rdp->lock);
	rcu_segcblist_enqueue(&rdp->cblist, head);
	overload = rcu_call_rcu_overload(rdp);
	if (hurry || overload)
		need_gp = rcu_accelerate_cbs(rdp, &s);
	spin_unlock_irqrestore(&rdp->lock, flags);
	if (need_gp)
		rcu_start_this_gp(s);
	/*
	 * A grace period under way is pushed along: its kthread scans now
	 * instead of at its next FQS interval (Linux's
	 * rcu_force_quiescent_state()).
	 */
	if (overload && rcu_seq_state(READ_ONCE(rcu_state.gp_seq)))
		rcu_gp_kthread_wake();
}

static void rcu_tree_call_rcu(struct rcu_head *head,
			      void (*func)(struct rcu_head *head))
{
	__call_rcu_common(head, func, false);
}

static void rcu_tree_call_rcu_hurry(struct rcu_head *head,
				    void (*func)(struct rcu_head *head))
{
	__call_rcu_common(head, func, true);
}

/*
 * rcu_barrier()'s step (rcu/rcupdate_wait.c): entrain head behind cpu's
 * callbacks.  A CPU with none queued or in hand is skipped, so nothing
 * lands on a CPU whose tick may be stopped.  The tick accelerates the
 * entrained callback with the rest of the list.
 */
static bool rcu_barrier_entrain(int cpu, struct rcu_head *head)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
	unsigned long flags;
	bool queued;

	spin_lock_irqsave(&rdp->lock, flags);
	queued = !rcu_segcblist_empty(&rdp->cblist) || rdp->invoking;
	if (queued)
		rcu_segcblist_enqueue(&rdp->cblist, head);
	spin_unlock_irqrestore(&rdp->lock, flags);
	return queued;
}

static long rcu_tree_batches_completed(void)
{
	return (long)rcu_seq_ctr(READ_ONCE(rcu_state.gp_seq));
}

static int rcu_tree_needs_cpu(int cpu)
{
	return !rcu_segcblist_empty(&rcu_tree_data[cpu].cblist);
}

static long rcu_tree_cb_count(int cpu)
{
	return READ_ONCE(rcu_tree_data[cpu].cblist.len);
}

/* ------------------------------------------------------------------ */
/* The polled API                                                     */
/* ------------------------------------------------------------------ */

static unsigned long rcu_tree_get_state_synchronize_rcu(void)
{
	/*
	 * Orders the caller's earlier accesses (its removal of the element
	 * that the cookie will free) before the load of gp_seq below, as
	 * Linux 6.12's get_state_synchronize_rcu() does.  rcu_seq_snap()'s
	 * own smp_mb() comes after the load, so without this one a removal
	 * still in this CPU's store buffer could be missed by the grace
	 * period that the cookie counts on.  Pairs with the smp_mb() in
	 * rcu_seq_start() (rcu_gp_init()): if our load missed that grace
	 * period's start, its scans of the CPUs and their readers come
	 * after our removal is visible, so the readers it waits for cannot
	 * find the removed element.
	 */
	smp_mb();
	return rcu_seq_snap(&rcu_state.gp_seq);
}

static unsigned long rcu_tree_start_poll_synchronize_rcu(void)
{
	unsigned long s = rcu_tree_get_state_synchronize_rcu();

	rcu_start_this_gp(s);
	return s;
}

static bool rcu_tree_poll_state_synchronize_rcu(unsigned long cookie)
{
	bool done = rcu_seq_done(&rcu_state.gp_seq, cookie);

	/*
	 * Orders the load of gp_seq before the caller's later frees.  Pairs
	 * with the smp_mb() in rcu_seq_end() (rcu_gp_cleanup()), which put
	 * every access of the grace period before the new value.
	 */
	smp_mb();
	return done;
}

/* ------------------------------------------------------------------ */
/* CPU hotplug, with Linux 6.12's names                               */
/* ------------------------------------------------------------------ */

/*
 * On cpu as it comes up, IRQs off, before its first reader (at boot
 * too).  It joins its leaf's qsmaskinitnext: grace periods that start
 * from now on wait for it.  The one under way does not (its qsmask bit
 * is clear: a CPU going offline reported its own), so the CPU starts in
 * step with its leaf, owing nothing.  A CPU back from offline left RCU's
 * watch when it died: it comes back watched first (Linux's
 * rcu_watching_online()).
 */
static void rcutree_report_cpu_starting(int cpu)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;

	lockdep_assert_irqs_disabled();
	if (!rcu_is_watching_curr_cpu())
		ct_idle_exit();		/* fully ordered: before its readers */
	spin_lock_irqsave(&rcu_state.ofl_lock, flags);
	spin_lock(&rnp->lock);
	WRITE_ONCE(rnp->qsmaskinitnext, rnp->qsmaskinitnext | rdp->grpmask);
	rdp->gp_seq = rnp->gp_seq;
	rdp->cpu_no_qs = false;
	rdp->core_needs_qs = false;
	if (WARN_ONCE(rnp->qsmask & rdp->grpmask,
		      "rcu: grace period waits on cpu %d, which was offline",
		      cpu)) {
		/* The grace period waits on a CPU that was offline. */
		spin_unlock(&rcu_state.ofl_lock);
		rcu_report_qs_rnp(rdp->grpmask, rnp, rnp->gp_seq, flags);
		return;
	}
	spin_unlock(&rnp->lock);
	spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
}

/*
 * On the dying CPU, IRQs off, after its last reader (its idle task is in
 * none, and it takes no more interrupts).  It reports its quiescent
 * state if the grace period under way waits for it, then leaves
 * qsmaskinitnext (in that order, as Linux: a grace period that starts in
 * between sees it still online and rcu_gp_init() reports it), then
 * leaves RCU's watch for good: an offline CPU is not watching.
 */
static void rcutree_report_cpu_dead(int cpu)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
	struct rcu_node *rnp = rdp->mynode;
	unsigned long flags;

	lockdep_assert_irqs_disabled();
	BUG_ON(cpu != raw_smp_processor_id());
	spin_lock_irqsave(&rcu_state.ofl_lock, flags);
	spin_lock(&rnp->lock);
	if (rnp->qsmask & rdp->grpmask) {
		rcu_report_qs_rnp(rdp->grpmask, rnp, rnp->gp_seq, flags);
		local_irq_save(flags);
		spin_lock(&rnp->lock);
	}
	WRITE_ONCE(rnp->qsmaskinitnext, rnp->qsmaskinitnext & ~rdp->grpmask);
	spin_unlock(&rnp->lock);
	spin_unlock_irqrestore(&rcu_state.ofl_lock, flags);
	/*
	 * An expedited grace period that selected us and whose IPI found
	 * us offline waits for this (rcu_exp_ipi_offline()), as Linux's
	 * rcutree_report_cpu_dead() reports with rcu_report_exp_rdp().
	 */
	rcu_report_exp_rdp(rdp);
	/* Fully ordered: everything this CPU did before "not watching". */
	ct_idle_enter();
}

/*
 * On a live CPU, once cpu is parked: its callbacks join ours, in order,
 * all as new ones (the done ones wait a grace period more: simple and
 * never early), and we ask for the grace period they need.  rcu_barrier()
 * cannot be between its entrains meanwhile (cpus_read_lock()).
 */
static void rcutree_migrate_callbacks(int cpu)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu], *my_rdp;
	struct rcu_head *list, *next;
	unsigned long flags, s = 0;
	bool need_gp;

	spin_lock_irqsave(&rdp->lock, flags);
	WARN_ONCE(rdp->invoking, "rcu: dead cpu %d invoking callbacks", cpu);
	list = rdp->cblist.head;
	rcu_segcblist_init(&rdp->cblist);
	rdp->blimit = blimit;		/* it comes back with nothing queued */
	rdp->qlen_last_fqs_check = 0;
	spin_unlock(&rdp->lock);
	/* IRQs stay off: my_rdp is this CPU's until the end. */
	my_rdp = &rcu_tree_data[raw_smp_processor_id()];
	spin_lock(&my_rdp->lock);
	for (; list; list = next) {
		next = list->next;
		rcu_segcblist_enqueue(&my_rdp->cblist, list);
	}
	need_gp = rcu_accelerate_cbs(my_rdp, &s);
	spin_unlock_irqrestore(&my_rdp->lock, flags);
	if (need_gp)
		rcu_start_this_gp(s);
}

/* ------------------------------------------------------------------ */
/* Boot, statistics, the table                                        */
/* ------------------------------------------------------------------ */

static void rcu_tree_init(void)
{
	/* The read side calls the torture hook only if it will be set. */
	if (torture_lock_delay_wanted())
		static_branch_enable(&rcu_tree_lock_delay_key);
	spin_lock_init(&rcu_state.ofl_lock, "rcu_ofl_lock");
	rcu_init_geometry();
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
		int leafcpu = cpu < rcu_state.ncpus ? cpu : 0;
		struct rcu_node *leaf =
			rcu_state.level[rcu_state.num_levels - 1];

		rdp->cpu = cpu;
		rdp->mynode = leaf + leafcpu / (int)rcu_fanout_leaf;
		rdp->grpmask = 1UL << (leafcpu - rdp->mynode->grplo);
		rdp->gp_seq = rcu_state.gp_seq;
		spin_lock_init(&rdp->lock, "rcu_tree_data");
		rcu_segcblist_init(&rdp->cblist);
		rdp->blimit = blimit;
		ct_init_cpu(cpu);
	}
	rcu_exp_init();
	open_softirq(RCU_SOFTIRQ, rcu_core);
	request_irq(IRQ_WORK, rcu_preempt_deferred_qs_handler);
	rcu_state.gp_kthread = kthread_run(rcu_gp_kthread, NULL,
					   RCU_GP_KTHREAD_CPU, "rcu_preempt");
	printk("rcu: preemptible Tree RCU: %d CPUs, %d levels, %d rcu_nodes, rcu_fanout_leaf=%u rcu_fanout=%u\n",
	       rcu_state.ncpus, rcu_state.num_levels, rcu_state.num_nodes,
	       rcu_fanout_leaf, rcu_fanout ? rcu_fanout : rcu_fanout_leaf);
}

static void rcu_tree_stats_get(struct rcu_stats_snapshot *s)
{
	u64 n = READ_ONCE(rcu_state.n_gp_completed);

	s->gp_completed = n;
	s->flips = READ_ONCE(rcu_state.n_gp_started);
	s->gp_lat_min_ns = READ_ONCE(rcu_state.gp_lat_min_ns);
	s->gp_lat_max_ns = READ_ONCE(rcu_state.gp_lat_max_ns);
	/* The mean stands in for the median: no per-GP samples kept. */
	s->gp_lat_median_ns = n ? READ_ONCE(rcu_state.gp_lat_sum_ns) / n : 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		s->cb_invoked += READ_ONCE(rcu_tree_data[cpu].n_cb_invoked);
	s->stalls = READ_ONCE(rcu_state.n_stalls);
	s->exp_completed = READ_ONCE(rcu_state.n_exp_completed);
	s->fqs_scans = READ_ONCE(rcu_state.n_fqs_scans);
}

static void rcu_tree_stats_print(void)
{
	struct rcu_stats_snapshot s;

	rcu_stats_get(&s);
	ktap_diag("rcu: tree: grace periods completed %llu, started %llu, gp_seq %lu, expedited %llu, fqs scans %llu",
		  (unsigned long long)s.gp_completed,
		  (unsigned long long)s.flips, READ_ONCE(rcu_state.gp_seq),
		  (unsigned long long)s.exp_completed,
		  (unsigned long long)s.fqs_scans);
	ktap_diag("rcu: tree: gp latency min/mean/max %llu/%llu/%llu us",
		  (unsigned long long)s.gp_lat_min_ns / 1000,
		  (unsigned long long)s.gp_lat_median_ns / 1000,
		  (unsigned long long)s.gp_lat_max_ns / 1000);
	ktap_diag("rcu: callbacks invoked %llu, stall reports %llu",
		  (unsigned long long)s.cb_invoked,
		  (unsigned long long)s.stalls);
}

static bool rcu_tree_cpu_watching(int cpu)
{
	/* An offline CPU is in the ultimate EQS (rcutree_report_cpu_dead()). */
	return !rcu_watching_snap_in_eqs(ct_rcu_watching_cpu_acquire(cpu));
}

static long rcu_tree_cpu_watching_counter(int cpu)
{
	return READ_ONCE(context_tracking[cpu].state);
}

/*
 * Did the interrupt we are in land in this CPU's extended quiescent state
 * (idle)?  True in the outermost handler that woke RCU (nmi_nesting 1),
 * or outside handlers in idle; not in a nested handler, whose outer one
 * may be in a reader.  As Linux 6.12's, IRQs off.
 */
bool rcu_is_cpu_rrupt_from_idle(void)
{
	struct context_tracking *ct =
		&context_tracking[raw_smp_processor_id()];

	lockdep_assert_irqs_disabled();
	if (READ_ONCE(ct->nmi_nesting) > 1)
		return false;
	return READ_ONCE(ct->nesting) == 0;
}

static bool rcu_tree_entered_from_idle(unsigned int depth)
{
	int cpu = raw_smp_processor_id();

	return READ_ONCE(context_tracking[cpu].nmi_nesting) ==
	       (long)(2 * depth - 1);
}

/*
 * rcu/torture.c's check, the tree's form of the 2008 flip-acknowledgement
 * check.  g0 was read with IRQs off just before the reader's outermost
 * lock, so this CPU reported no quiescent state in between: only the
 * grace period in progress at that read (which may have had this CPU's
 * report already) can end while the reader holds on.  Any later one
 * needs this CPU's report, which the reader's count withholds.
 */
static bool rcu_tree_torture_gp_passed(long g0)
{
	return rcu_tree_batches_completed() >= g0 + 2;
}

const struct rcu_flavor_ops tree_flavor_ops = {
	.name = "tree",
	.init = rcu_tree_init,
	.call_rcu = rcu_tree_call_rcu,
	.call_rcu_hurry = rcu_tree_call_rcu_hurry,
	.synchronize_rcu_expedited = rcu_tree_synchronize_rcu_expedited,
	.barrier_entrain = rcu_barrier_entrain,
	.batches_completed = rcu_tree_batches_completed,
	.get_state_synchronize_rcu = rcu_tree_get_state_synchronize_rcu,
	.start_poll_synchronize_rcu = rcu_tree_start_poll_synchronize_rcu,
	.poll_state_synchronize_rcu = rcu_tree_poll_state_synchronize_rcu,
	.sched_clock_irq = rcu_tree_sched_clock_irq,
	.needs_cpu = rcu_tree_needs_cpu,
	.cb_count = rcu_tree_cb_count,
	.stall_report = print_other_cpu_stall,
	.cpu_starting = rcutree_report_cpu_starting,
	.report_dead = rcutree_report_cpu_dead,
	.cpu_dead = rcutree_migrate_callbacks,
	.note_context_switch = rcu_tree_note_context_switch,
	.idle_enter = ct_idle_enter,
	.idle_exit = ct_idle_exit,
	.cpuidle_enter = ct_idle_enter,
	.cpuidle_exit = ct_idle_exit,
	.irq_enter = ct_irq_enter,
	.irq_exit = ct_irq_exit,
	.nmi_enter = ct_nmi_enter,
	.nmi_exit = ct_nmi_exit,
	.cpu_watching = rcu_tree_cpu_watching,
	.cpu_watching_counter = rcu_tree_cpu_watching_counter,
	.entered_from_idle = rcu_tree_entered_from_idle,
	.gp_state_name = rcu_tree_gp_state_name,
	.stats_print = rcu_tree_stats_print,
	.stats_get = rcu_tree_stats_get,
	.read_lock_delay_set = rcu_tree_read_lock_delay_set,
	.torture_gp_passed = rcu_tree_torture_gp_passed,
};
