// SPDX-License-Identifier: GPL-2.0
/*
 * Expedited grace periods (rcu=tree), after Linux 6.12's
 * kernel/rcu/tree_exp.h.  synchronize_rcu_expedited() does not wait for
 * quiescent states to come: it reads every CPU's context-tracking counter
 * and sends an IPI to each CPU that RCU is watching, reading the counter
 * again just before: a CPU that is idle (an extended quiescent state), or
 * has been since, gets nothing, so idle CPUs stay asleep.  The IPI
 * handler (rcu_exp_handler()) reports at once unless it interrupted a
 * reader, whose outermost unlock (or preemption) reports instead.  Tasks
 * already blocked in readers hold the expedited grace period too.
 * Reports clear expmask bits up the tree, each node's once: only whoever's
 * removal emptied a node reports it to the parent (__rcu_report_exp_rnp()).
 * Callers share grace periods through expedited_sequence
 * (exp_funnel_lock()); one that outlasts rcu_cpu_stall_timeout is
 * reported (synchronize_rcu_expedited_stall()).
 */
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/irq.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "rcu/tree/tree.h"

void (*rcu_exp_test_hook)(enum rcu_exp_hook_point point,
			  struct rcu_node *rnp);

/*
 * The caller runs the expedited grace period: it holds exp_mutex.  The
 * lock records no owner, so this tests only that someone holds it: a
 * worker that let it go too early, with no other caller about, is seen.
 */
#define rcu_exp_assert_mutex_held()					\
	WARN_ONCE(!READ_ONCE(rcu_state.exp_mutex),			\
		  "%s() called without exp_mutex held", __func__)

void rcu_exp_init(void)
{
	struct rcu_node *rnp;

	init_waitqueue_head(&rcu_state.exp_mutex_wq);
	rcu_for_each_node_breadth_first(rnp) {
		spin_lock_init(&rnp->exp_lock, "rcu_node_exp");
		rnp->exp_seq_rq = rcu_state.expedited_sequence;
		for (int i = 0; i < RCU_EXP_WQS; i++)
			init_waitqueue_head(&rnp->exp_wq[i]);
	}
}

/*
 * Has rnp nothing left to wait for in this expedited grace period: no bit
 * in expmask (CPUs of a leaf, children of an inner node) and no blocked
 * task holding it?  (Linux 6.12: sync_rcu_exp_done().)  rnp->lock held.
 */
bool sync_rcu_exp_done(struct rcu_node *rnp)
{
	raw_lockdep_assert_held_rcu_node(rnp);
	return !rnp->expmask && !rnp->n_exp_tasks;
}

/*
 * The caller's removal (under rnp->lock, held now with IRQs saved in
 * flags) may have emptied rnp: if it did, clear rnp's bit in its parent,
 * and so on up; the root's emptying ends the grace period.  Releases the
 * lock.
 *
 * A node is reported only on its transition to empty, by whoever's
 * removal (a CPU's bit, a child's, a blocked task) emptied it, once.
 * Reporting a node whenever it was found empty let a report left over
 * from one grace period clear the next one's bit and end it under a
 * reader (issue 23, rcu_tree_exp_stale_climb and _unblock).  So the
 * parent's bit is set when the report gets there: the grace period cannot
 * end without this report, and no bit is set before it ends.  A report
 * that finds it clear is a bug: WARN and drop it, rather than let it end
 * a grace period it does not belong to.
 */
static void __rcu_report_exp_rnp(struct rcu_node *rnp, unsigned long flags)
{
	for (;;) {
		struct rcu_node *child = rnp;
		unsigned long mask;

		raw_lockdep_assert_held_rcu_node(rnp);
		lockdep_assert_irqs_disabled();
		if (!sync_rcu_exp_done(rnp)) {
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
		/*
		 * The child's lock goes before the parent's is taken, as in
		 * rcu_report_qs_rnp(); the parent's acquire orders the
		 * child's removal (and what preceded it) before the clearing.
		 */
		spin_unlock(&rnp->lock);
		rcu_exp_hook(RCU_EXP_HOOK_CLIMB, rnp);
		rnp = rnp->parent;
		spin_lock(&rnp->lock);
		if (WARN_ONCE(!(rnp->expmask & mask),
			      "rcu: expedited report of rcu_node %d-%d: its bit is clear in the parent %d-%d (expmask 0x%lx)",
			      child->grplo, child->grphi, rnp->grplo,
			      rnp->grphi, rnp->expmask)) {
			spin_unlock_irqrestore(&rnp->lock, flags);
			return;
		}
		WRITE_ONCE(rnp->expmask, rnp->expmask & ~mask);
	}
}

/*
 * CPUs mask of leaf rnp passed a quiescent state: clear those of their
 * bits still set, and report rnp up if that emptied it.  Bits already
 * clear were reported by someone else, who reported the node too if it
 * emptied: nothing is left to do here (mask 0 included).
 */
void rcu_report_exp_cpu_mult(struct rcu_node *rnp, unsigned long mask)
{
	unsigned long flags;

	lockdep_assert_not_in_nmi();	/* takes the rcu_node lock */
	spin_lock_irqsave(&rnp->lock, flags);
	if (!(rnp->expmask & mask)) {
		spin_unlock_irqrestore(&rnp->lock, flags);
		return;
	}
	WRITE_ONCE(rnp->expmask, rnp->expmask & ~mask);
	__rcu_report_exp_rnp(rnp, flags);
}

/*
 * The last task holding the expedited grace period on leaf rnp left its
 * blkd_tasks, and that emptied rnp: the caller saw sync_rcu_exp_done()
 * under rnp->lock, then released the lock for the normal grace period's
 * report (rcu_read_unlock_special()).  Nothing can change rnp in between:
 * no bit is set again before the grace period ends, and it cannot end
 * without this report.  (Linux 6.12: rcu_report_exp_rnp().)
 */
void rcu_report_exp_rnp(struct rcu_node *rnp)
{
	unsigned long flags;

	lockdep_assert_not_in_nmi();	/* takes the rcu_node lock */
	spin_lock_irqsave(&rnp->lock, flags);
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
 * unlock, or its preemption (which queues the task), reports.  The CPU's
 * bit is still set: only this CPU clears the bit of a CPU sent an IPI.
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
 * Has the CPU of rdp passed through an extended quiescent state since its
 * counter read snap (watching)?  Its first step after snap was into idle,
 * a fully ordered add placed after the readers it ran then: this acquire
 * load orders them before the caller's report.  A CPU that left idle
 * again since runs only readers that began after the snapshot, which the
 * grace period need not wait for.  (Linux 6.12: the same name.)
 */
static bool rcu_watching_snap_stopped_since(struct rcu_tree_data *rdp,
					    int snap)
{
	return snap != ct_rcu_watching_cpu_acquire(rdp->cpu);
}

/*
 * Ask leaf rnp's CPUs and tasks for the expedited grace period.  Under
 * the leaf's lock: every online CPU's bit is set, and every task already
 * on blkd_tasks holds it.  CPUs that need no IPI (this one: its caller
 * is not in a reader, and no other reader runs here; those idle now, or
 * idle since by the time their IPI would go) are reported once the other
 * CPUs' IPIs are out, as Linux does: until then their bits keep the leaf
 * from emptying, so no handler can report it while the selection is
 * under way.  A leaf with nothing to ask (no online CPU, no task) is
 * reported by the selection, which emptied it.
 * (Linux 6.12: sync_rcu_exp_select_node_cpus().)
 */
/*
 * The IPI found the CPU of bit offline (Linux 6.12's "selectofl" case).
 * While it is still in qsmaskinitnext it is dying, and may be running IRQ
 * or NMI readers in its last window: wait a little and send again (true);
 * its rcutree_report_cpu_dead() reports it if no IPI gets there first.
 * Once it has left (false), that report is done or under way.  Called
 * with preemption off; returns with it off.
 */
static bool rcu_exp_ipi_offline(struct rcu_node *rnp, unsigned long bit)
{
	unsigned long flags;
	bool dying;

	spin_lock_irqsave(&rnp->lock, flags);
	dying = (rnp->qsmaskinitnext & bit) && (rnp->expmask & bit);
	spin_unlock_irqrestore(&rnp->lock, flags);
	if (!dying)
		return false;
	preempt_enable();
	msleep(1);
	return true;
}

static void sync_rcu_exp_select_node_cpus(struct rcu_node *rnp)
{
	unsigned long flags, mask = 0, mask_ofl = 0, mask_ipi;
	struct task *t;
	int cpu;

	rcu_exp_assert_mutex_held();
	spin_lock_irqsave(&rnp->lock, flags);
	for (cpu = rnp->grplo; cpu <= rnp->grphi; cpu++) {
		unsigned long bit = 1UL << (cpu - rnp->grplo);
		int snap;

		/*
		 * RCU's own view of online, as Linux 6.12's: a dying CPU
		 * stays in qsmaskinitnext (its IRQ and NMI readers with
		 * it) until rcutree_report_cpu_dead(), past its online bit.
		 */
		if (!(rnp->qsmaskinitnext & bit))
			continue;
		mask |= bit;
		/* IRQs off under the lock: this CPU stays this CPU. */
		if (cpu == raw_smp_processor_id()) {
			mask_ofl |= bit;
			continue;
		}
		/*
		 * Acquire, after the caller's smp_mb(): the same argument as
		 * rcu_watching_snap_save() (tree.c).  A CPU read idle ended
		 * its readers before its fully ordered step into idle, and
		 * one that leaves idle after this load runs readers that see
		 * what preceded the expedited grace period.
		 */
		snap = ct_rcu_watching_cpu_acquire(cpu);
		if (rcu_watching_snap_in_eqs(snap))
			mask_ofl |= bit;	/* idle: no reader, no IPI */
		else
			rcu_tree_data[cpu].exp_watching_snap = snap;
	}
	WRITE_ONCE(rnp->expmask, mask);
	list_for_each_entry(t, &rnp->blkd_tasks, rcu_node_entry) {
		if (!t->rcu_blocks_exp) {
			t->rcu_blocks_exp = 1;
			rnp->n_exp_tasks++;
		}
	}
	if (sync_rcu_exp_done(rnp)) {
		__rcu_report_exp_rnp(rnp, flags);
		return;
	}
	spin_unlock_irqrestore(&rnp->lock, flags);

	rcu_exp_hook(RCU_EXP_HOOK_SELECTED, rnp);
	mask_ipi = mask & ~mask_ofl;
	for (cpu = rnp->grplo; cpu <= rnp->grphi; cpu++) {
		unsigned long bit = 1UL << (cpu - rnp->grplo);
		struct rcu_tree_data *rdp = &rcu_tree_data[cpu];

		if (!(mask_ipi & bit))
			continue;
		/*
		 * Gone idle since the selection read it watching: report it
		 * with the idle ones instead of waking it with an IPI.
		 */
		if (rcu_watching_snap_stopped_since(rdp,
						    rdp->exp_watching_snap)) {
			mask_ofl |= bit;
			continue;
		}
		/*
		 * The IPI goes after the caller's smp_mb(); the handler runs
		 * on its CPU in hardirq context, between that CPU's
		 * instructions, so it sees the CPU's own reader state
		 * (rcu_read_lock_nesting) without a barrier, and its report
		 * takes the leaf's lock (rcu_report_exp_cpu_mult()).  Not to
		 * ourselves (we may have moved here since): we are not in a
		 * reader, so this CPU is reported with the idle ones.
		 */
retry_ipi:
		preempt_disable();
		if (cpu == raw_smp_processor_id())
			mask_ofl |= bit;
		else if (smp_call_function_single(cpu, rcu_exp_handler,
						  NULL, false) &&
			 rcu_exp_ipi_offline(rnp, bit))
			goto retry_ipi;
		preempt_enable();
	}
	rcu_exp_hook(RCU_EXP_HOOK_IPIS_SENT, rnp);
	if (mask_ofl)
		rcu_report_exp_cpu_mult(rnp, mask_ofl);
}

/*
 * Set up every inner node for a new expedited grace period: each child
 * owes it a report.  Root first, so that a child that empties finds its
 * bit set above; the root records the waiter its emptying completes.
 * (Linux 6.12: sync_exp_reset_tree().)
 */
static void sync_exp_reset_tree(struct completion *done)
{
	struct rcu_node *rnp;
	unsigned long flags;

	rcu_exp_assert_mutex_held();
	rcu_for_each_node_breadth_first(rnp) {
		if (rcu_is_leaf_node(rnp))
			break;
		spin_lock_irqsave(&rnp->lock, flags);
		WRITE_ONCE(rnp->expmask, rnp->expmaskinit);
		spin_unlock_irqrestore(&rnp->lock, flags);
	}
	rnp = rcu_get_root();
	spin_lock_irqsave(&rnp->lock, flags);
	rcu_state.exp_done = done;
	spin_unlock_irqrestore(&rnp->lock, flags);
}

/*
 * A sleeping lock that lets one expedited grace period run at a time
 * (Linux's exp_mutex): *busy is taken by an atomic exchange; waiters
 * sleep on wq.
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

/*
 * The expedited sequence's value once a full expedited grace period has
 * elapsed from now: the end of the next one to start.
 * (Linux 6.12: rcu_exp_gp_seq_snap().)
 */
static unsigned long rcu_exp_gp_seq_snap(void)
{
	/*
	 * Orders the caller's earlier accesses (its removal) before the
	 * load of the sequence.  Pairs with the smp_mb() of rcu_seq_start()
	 * (the worker's): a grace period that this load finds not started
	 * reads the counters and blkd_tasks after the removal is visible,
	 * so whatever it waits for cannot find the removed element.
	 */
	smp_mb();
	return rcu_seq_snap(&rcu_state.expedited_sequence);
}

/*
 * Has the expedited grace period of snapshot s ended?  If so, order that
 * before the caller's later accesses (its free): the smp_mb() pairs with
 * rcu_seq_end()'s, which put the whole grace period before the new
 * value.  (Linux 6.12: sync_exp_work_done().)
 */
static bool sync_exp_work_done(unsigned long s)
{
	if (!rcu_seq_done(&rcu_state.expedited_sequence, s))
		return false;
	smp_mb();
	return true;
}

/* wait_event_fn()'s form of it: s is carried in the pointer. */
static bool sync_exp_work_done_fn(void *s)
{
	return sync_exp_work_done((unsigned long)s);
}

/* The wait queue of snapshot s on rnp: four, so that s and s+1 differ. */
static struct wait_queue_head *rcu_exp_wq(struct rcu_node *rnp,
					  unsigned long s)
{
	return &rnp->exp_wq[rcu_seq_ctr(s) & (RCU_EXP_WQS - 1)];
}

/*
 * Share grace periods: climb from this CPU's leaf to the root, recording
 * s in each node's exp_seq_rq.  A node that already has s (or later)
 * recorded means another caller asked for a grace period that covers
 * ours and is on its way up: wait there for s to be done.  Whoever gets
 * past the root takes exp_mutex; if s is done by then (a grace period
 * ran while we waited for the lock), there is nothing to do.  Returns
 * true when s is done (nothing to do), false with exp_mutex held: the
 * caller runs the grace period.  (Linux 6.12: exp_funnel_lock().)
 */
static bool exp_funnel_lock(unsigned long s)
{
	/* Any leaf will do: a caller that has moved since starts aside. */
	struct rcu_node *rnp = rcu_tree_data[raw_smp_processor_id()].mynode;
	unsigned long flags;

	for (; rnp; rnp = rnp->parent) {
		if (sync_exp_work_done(s))
			return true;
		spin_lock_irqsave(&rnp->exp_lock, flags);
		if (ULONG_CMP_GE(rnp->exp_seq_rq, s)) {
			spin_unlock_irqrestore(&rnp->exp_lock, flags);
			wait_event_fn(rcu_exp_wq(rnp, s), sync_exp_work_done_fn,
				      (void *)s);
			return true;
		}
		WRITE_ONCE(rnp->exp_seq_rq, s);
		spin_unlock_irqrestore(&rnp->exp_lock, flags);
	}
	wait_event_fn(&rcu_state.exp_mutex_wq, rcu_sleeplock_try,
		      &rcu_state.exp_mutex);
	if (sync_exp_work_done(s)) {
		rcu_sleeplock_release(&rcu_state.exp_mutex_wq,
				      &rcu_state.exp_mutex);
		return true;
	}
	return false;
}

/*
 * The grace period of snapshot s has ended: wake every caller that waits
 * for it, on every node (a waiter sleeps on the node where it found s
 * recorded).  exp_mutex held, so wake-ups never overtake each other and
 * Linux's separate exp_wake_mutex is not needed.
 * (Linux 6.12: rcu_exp_wait_wake(), after the wait.)
 */
static void rcu_exp_wake(unsigned long s)
{
	struct rcu_node *rnp;

	rcu_exp_assert_mutex_held();
	rcu_for_each_node_breadth_first(rnp)
		wake_up_all(rcu_exp_wq(rnp, s));
}

/* The stall report's first line, with a CPU number or pid per entry. */
#define RCU_EXP_STALL_LINE	1024

/* Append to the stall line; " ..." ends one that would overflow. */
static __printf(3, 4) void rcu_exp_stall_add(char *buf, int *len,
					      const char *fmt, ...)
{
	int n, room = RCU_EXP_STALL_LINE - *len;
	va_list ap;

	if (room <= 5)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, room - 4, fmt, ap);
	va_end(ap);
	if (n >= room - 4) {
		snprintf(buf + RCU_EXP_STALL_LINE - 5, 5, " ...");
		*len = RCU_EXP_STALL_LINE;
		return;
	}
	*len += n;
}

/*
 * The expedited grace period has waited past the stall timeout: name
 * what holds it, on one line (the CPUs whose bits are still set, and
 * "P" and the pid of each blocked task holding it), then a line for
 * each.  Each leaf is read under its lock.  exp_mutex held: one report
 * at a time, so the line can be static.  (Linux 6.12:
 * synchronize_rcu_expedited_stall(), in other words.)
 */
static void synchronize_rcu_expedited_stall(u64 start)
{
	static char line[RCU_EXP_STALL_LINE];
	struct rcu_node *rnp;
	unsigned long flags;
	struct task *t;
	int len = 0, cpu;

	rcu_exp_assert_mutex_held();
	line[0] = 0;
	rcu_for_each_leaf_node(rnp) {
		spin_lock_irqsave(&rnp->lock, flags);
		for (cpu = rnp->grplo; cpu <= rnp->grphi; cpu++)
			if (rnp->expmask & (1UL << (cpu - rnp->grplo)))
				rcu_exp_stall_add(line, &len, " %d", cpu);
		list_for_each_entry(t, &rnp->blkd_tasks, rcu_node_entry)
			if (t->rcu_blocks_exp)
				rcu_exp_stall_add(line, &len, " P%d", t->pid);
		spin_unlock_irqrestore(&rnp->lock, flags);
	}
	printk("rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {%s } after %llu ms (expedited_sequence %lu, root expmask 0x%lx)\n",
	       line, (unsigned long long)(ktime_get_ns() - start) /
	       NSEC_PER_MSEC, READ_ONCE(rcu_state.expedited_sequence),
	       READ_ONCE(rcu_get_root()->expmask));
	rcu_for_each_leaf_node(rnp) {
		spin_lock_irqsave(&rnp->lock, flags);
		for (cpu = rnp->grplo; cpu <= rnp->grphi; cpu++) {
			struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
			int ct = READ_ONCE(context_tracking[cpu].state);

			if (!(rnp->expmask & rdp->grpmask))
				continue;
			printk("rcu:   expedited: cpu %d (leaf %d-%d): %s, ct->state 0x%x, %llu IPIs taken%s\n",
			       cpu, rnp->grplo, rnp->grphi,
			       ct & CT_RCU_WATCHING ? "watching" : "idle", ct,
			       (unsigned long long)READ_ONCE(rdp->exp_ipis),
			       READ_ONCE(rdp->exp_deferred_qs) ?
			       ", a reader there owes the report" : "");
		}
		list_for_each_entry(t, &rnp->blkd_tasks, rcu_node_entry)
			if (t->rcu_blocks_exp)
				printk("rcu:   expedited: task %s (pid %d) preempted in a reader on leaf %d-%d, rcu_read_lock_nesting %d\n",
				       t->name, t->pid, rnp->grplo, rnp->grphi,
				       READ_ONCE(t->rcu_read_lock_nesting));
		spin_unlock_irqrestore(&rnp->lock, flags);
	}
	rcu_state.n_stalls++;
	kernel_report_done("RCU Stall", true);
}

/*
 * Wait for the expedited grace period (done: the root's emptying
 * completes it).  Past rcu_cpu_stall_timeout seconds, the normal grace
 * period's timeout, report a stall, then again every
 * RCU_STALL_REPEAT_FACTOR timeouts; 0 means never.  (Linux 6.12:
 * synchronize_rcu_expedited_wait().)
 */
static void synchronize_rcu_expedited_wait(struct completion *done)
{
	u64 t = (u64)READ_ONCE(rcu_cpu_stall_timeout) * NSEC_PER_SEC;
	u64 start = ktime_get_ns();

	if (!t) {
		wait_for_completion(done);
		return;
	}
	if (wait_for_completion_timeout(done, t))
		return;
	do {
		synchronize_rcu_expedited_stall(start);
	} while (!wait_for_completion_timeout(done,
					      RCU_STALL_REPEAT_FACTOR * t));
}

/*
 * Wait for an expedited grace period that begins after the call: the
 * caller's own (one worker at a time, exp_mutex), or one that another
 * caller runs meanwhile and whose start follows our snapshot.  With
 * exp_mutex held and s not done, the sequence is idle at some c < s, and
 * s is c's snapshot or the one after: the single grace period run here
 * ends exactly at s.
 */
void rcu_tree_synchronize_rcu_expedited(void)
{
	struct completion done;
	struct rcu_node *rnp;
	unsigned long s;

	WARN(in_interrupt() || irqs_disabled() ||
	     current->rcu_read_lock_nesting,
	     "synchronize_rcu_expedited: cpu %d called from atomic context or a reader",
	     raw_smp_processor_id());
	s = rcu_exp_gp_seq_snap();
	if (exp_funnel_lock(s))
		return;
	init_completion(&done);
	rcu_seq_start(&rcu_state.expedited_sequence);

	sync_exp_reset_tree(&done);
	rcu_exp_hook(RCU_EXP_HOOK_STARTED, NULL);
	/*
	 * Orders the sequence start (and the caller's earlier accesses, its
	 * removal) before the loads of the counters in
	 * sync_rcu_exp_select_node_cpus().  Pairs with the fully ordered
	 * step of a CPU leaving idle (ct_state_inc()): a CPU seen idle
	 * starts its next reader after this point, and that reader sees the
	 * removal.
	 */
	smp_mb();
	rcu_for_each_leaf_node(rnp)
		sync_rcu_exp_select_node_cpus(rnp);
	synchronize_rcu_expedited_wait(&done);
	/*
	 * Orders the reports seen before the end of the sequence, which
	 * the callers sharing this grace period read (sync_exp_work_done()),
	 * and our own later accesses (the free).  Each report cleared its
	 * bit under the rcu_node locks, hand over hand, and the last one's
	 * complete() woke us; this barrier keeps what follows after all of
	 * them, as the smp_mb() after Linux's expedited wait does.
	 */
	smp_mb();
	rcu_seq_end(&rcu_state.expedited_sequence);
	rcu_state.n_exp_completed++;
	rcu_exp_wake(s);
	rcu_sleeplock_release(&rcu_state.exp_mutex_wq, &rcu_state.exp_mutex);
}
