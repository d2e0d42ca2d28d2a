// SPDX-License-Identifier: GPL-2.0
/*
 * Preemptible Tree RCU's readers (rcu=tree), after Linux 6.12's
 * kernel/rcu/tree_plugin.h.  A reader only counts its nesting on its task
 * (handlers' readers count on the task they interrupted).  A task
 * preempted inside a reader is queued on its leaf's blkd_tasks list
 * (rcu_preempt_ctxt_queue()), and the grace periods that were waiting on
 * its CPU then wait on it; its outermost rcu_read_unlock() takes the slow
 * path (rcu_read_unlock_special()) to leave the list, or, inside a region
 * with interrupts, preemption or softirqs off, leaves that work deferred
 * to the region's end (rcu_preempt_deferred_qs()).  The tick reports a
 * quiescent state only outside every reader and every such region.
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/preempt.h"
#include "kernel/softirq.h"
#include "rcu/tree/tree.h"

/*
 * The torture test's hook (torture_lock_delay_us): set while a torture run
 * goes, and called from the outermost __rcu_tree_read_lock() (inline, in
 * rcu/tree/tree_read.h) only when rcu_tree_lock_delay_key is on, which
 * rcu_tree_init() decides at boot.
 */
DEFINE_STATIC_KEY_FALSE(rcu_tree_lock_delay_key);
static void (*rcu_read_lock_delay_hook)(void);

void rcu_tree_read_lock_delay_set(void (*hook)(void))
{
	/* A hook the read side would never call: the key was left off. */
	WARN(hook && !static_key_enabled(&rcu_tree_lock_delay_key),
	     "rcu=tree: a read-lock hook needs torture_lock_delay_us at boot");
	WRITE_ONCE(rcu_read_lock_delay_hook, hook);
}

void rcu_tree_read_lock_delay(void)
{
	call_test_hook(rcu_read_lock_delay_hook);
}

/* Do any blocked tasks on this leaf hold the current grace period? */
bool rcu_preempt_blocked_readers_cgp(struct rcu_node *rnp)
{
	return READ_ONCE(rnp->n_gp_tasks) != 0;
}

/*
 * Queue t, preempted in a reader on rdp's CPU, on its leaf.  It holds the
 * current grace period if that still waits on this CPU (the reader may
 * have begun before the grace period did), and likewise the expedited
 * one.  rnp->lock held, IRQs off.
 */
static void rcu_preempt_ctxt_queue(struct rcu_node *rnp,
				   struct rcu_tree_data *rdp, struct task *t)
{
	raw_lockdep_assert_held_rcu_node(rnp);
	lockdep_assert_irqs_disabled();
	list_add_tail(&t->rcu_node_entry, &rnp->blkd_tasks);
	t->rcu_blocked_node = rnp;
	WRITE_ONCE(t->rcu_read_unlock_special.b.blocked, 1);
	if (rcu_seq_state(rnp->gp_seq) && (rnp->qsmask & rdp->grpmask)) {
		t->rcu_blocks_gp = 1;
		WRITE_ONCE(rnp->n_gp_tasks, rnp->n_gp_tasks + 1);
	}
	if (rnp->expmask & rdp->grpmask) {
		t->rcu_blocks_exp = 1;
		WRITE_ONCE(rnp->n_exp_tasks, rnp->n_exp_tasks + 1);
	}
}

/*
 * A new grace period: every task already queued holds it (rnp->lock
 * held).
 */
void rcu_preempt_check_blocked_tasks_gp_init(struct rcu_node *rnp)
{
	struct task *t;

	raw_lockdep_assert_held_rcu_node(rnp);
	list_for_each_entry(t, &rnp->blkd_tasks, rcu_node_entry) {
		if (!t->rcu_blocks_gp) {
			t->rcu_blocks_gp = 1;
			rnp->n_gp_tasks++;
		}
	}
}

/*
 * Work an outermost unlock left for later, on a task now outside every
 * reader: its special bits, or an expedited quiescent state this CPU
 * owes (rcu_exp_handler() found it inside a reader, or inside a region
 * that consolidated RCU treats as one).  As Linux 6.12's
 * rcu_preempt_need_deferred_qs().  IRQs off or on: only this CPU's own
 * fields, which its handlers change with IRQs off.
 */
bool rcu_preempt_need_deferred_qs(struct task *t)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[raw_smp_processor_id()];

	return (READ_ONCE(rdp->exp_deferred_qs) ||
		READ_ONCE(t->rcu_read_unlock_special.s)) &&
	       READ_ONCE(t->rcu_read_lock_nesting) == 0;
}

/*
 * Do it now: leave blkd_tasks, report the quiescent states the grace
 * period and the expedited one asked this CPU for.  These reports take
 * rcu_node locks and may wake the grace-period kthread or an expedited
 * waiter, so the caller is outside every region that could hold a
 * scheduler lock or must not be interrupted by a wake-up: the unlock of
 * a fully enabled reader, the tick or RCU_SOFTIRQ on preemptible code,
 * or __schedule() before it takes the run queue's lock.  IRQs off (saved
 * in flags, restored on return), and the task outside every reader.
 */
static void rcu_preempt_deferred_qs_irqrestore(struct task *t,
					       unsigned long flags)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[raw_smp_processor_id()];
	union rcu_special special;

	lockdep_assert_irqs_disabled();
	WARN_ONCE(READ_ONCE(t->rcu_read_lock_nesting) != 0,
		  "rcu_preempt_deferred_qs: task %s still in a reader (nesting %d)",
		  t->name, READ_ONCE(t->rcu_read_lock_nesting));
	special = READ_ONCE(t->rcu_read_unlock_special);
	WRITE_ONCE(t->rcu_read_unlock_special.b.need_qs, 0);
	WRITE_ONCE(t->rcu_read_unlock_special.b.exp_hint, 0);
	if (special.b.need_qs)
		rcu_report_qs_rdp(rdp);
	/* Outside every reader: a quiescent state for the expedited GP. */
	if (READ_ONCE(rdp->exp_deferred_qs))
		rcu_report_exp_rdp(rdp);
	if (special.b.blocked) {
		struct rcu_node *rnp = t->rcu_blocked_node;
		unsigned long rflags;
		bool gp, exp, exp_emptied = false;

		WRITE_ONCE(t->rcu_read_unlock_special.b.blocked, 0);
		spin_lock_irqsave(&rnp->lock, rflags);
		/* Under the lock: rcu_gp_init() and tree_exp.c set them. */
		gp = t->rcu_blocks_gp;
		exp = t->rcu_blocks_exp;
		list_del_init(&t->rcu_node_entry);
		t->rcu_blocked_node = NULL;
		t->rcu_blocks_gp = 0;
		t->rcu_blocks_exp = 0;
		if (exp) {
			WRITE_ONCE(rnp->n_exp_tasks, rnp->n_exp_tasks - 1);
			/* Only the removal that empties the leaf reports it. */
			exp_emptied = sync_rcu_exp_done(rnp);
		}
		if (gp) {
			WRITE_ONCE(rnp->n_gp_tasks, rnp->n_gp_tasks - 1);
			/* Releases rnp->lock; IRQs stay off until flags. */
			rcu_report_unblock_qs_rnp(rnp, rflags);
		} else {
			spin_unlock_irqrestore(&rnp->lock, rflags);
		}
		if (exp) {
			rcu_exp_hook(RCU_EXP_HOOK_UNBLOCKED, rnp);
			if (exp_emptied)
				rcu_report_exp_rnp(rnp);
		}
	}
	local_irq_restore(flags);
}

/* Finish what t's readers left, if anything (t is outside them all). */
void rcu_preempt_deferred_qs(struct task *t)
{
	unsigned long flags;

	if (!rcu_preempt_need_deferred_qs(t))
		return;
	local_irq_save(flags);
	rcu_preempt_deferred_qs_irqrestore(t, flags);
}

/*
 * In a handler (the tick, the expedited IPI): did it interrupt a region
 * that consolidated RCU counts as a reader?  Preemption or softirqs off
 * (the softirq count is also raised while softirqs run), or another
 * handler's body (the hardirq count then holds ours and its).  A region
 * with interrupts off takes no interrupt, so it never gets here.
 */
bool rcu_preempt_interrupted_atomic(void)
{
	unsigned int pc = preempt_count();

	return (pc & (PREEMPT_MASK | SOFTIRQ_MASK)) ||
	       (pc & HARDIRQ_MASK) > HARDIRQ_OFFSET;
}

/*
 * May a deferral wait for the next tick, or is an expedited grace period
 * (or a boost, which this kernel has not) waiting on it?  As the
 * expboost test of Linux 6.12's rcu_read_unlock_special(); a racy hint,
 * read without the locks that order these fields.
 */
static bool rcu_preempt_expboost(struct task *t, struct rcu_tree_data *rdp)
{
	return READ_ONCE(t->rcu_blocks_exp) ||
	       (rdp->grpmask & READ_ONCE(rdp->mynode->expmask));
}

/*
 * The deferral's self-IPI (IRQ_WORK; Linux 6.12's defer_qs_iw irq_work),
 * hardirq, IRQs off.  It is no longer on its way, whatever reported the
 * quiescent state it was sent for: the context switch its return makes
 * (need_resched is set), one that came first, or the expedited IPI.  So
 * the flag is cleared here, as Linux does, not where the report is made:
 * a report made elsewhere (a switch inside a new reader reports the
 * CPU's expedited quiescent state without rcu_preempt_deferred_qs())
 * would leave it set, and the CPU's next IRQs-off deferral would send
 * nothing and wait for a tick.
 */
void rcu_preempt_deferred_qs_handler(void)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[raw_smp_processor_id()];

	lockdep_assert_irqs_disabled();
	rdp->defer_qs_iw_pending = false;
}

/*
 * The outermost rcu_read_unlock() found work (see
 * rcu_preempt_deferred_qs_irqrestore()).  With interrupts, preemption or
 * softirqs off, or in a handler, the unlock may sit inside code that
 * holds a run queue's lock or that a wake-up must not interrupt, so it
 * defers, as Linux 6.12 does: the flags stay set and the region's end
 * finishes the work.  In a handler, RCU_SOFTIRQ at the outermost
 * irq_exit() does (raise_softirq() wakes no thread there).  Elsewhere
 * a context switch does: need_resched makes the region's
 * preempt_enable(), the next interrupt's return or the idle loop switch,
 * and the next tick outside the region finishes it directly.  With
 * interrupts off and an expedited grace period waiting, a self-IPI (the
 * irq_work of Linux) lands as soon as they are back on.  Never a wake-up
 * in place.  In an NMI it does nothing: the same later paths finish it.
 */
void rcu_read_unlock_special(struct task *t)
{
	struct rcu_tree_data *rdp;
	unsigned long flags;
	bool irqs_were_disabled;

	if (in_nmi())
		return;
	local_irq_save(flags);
	if (READ_ONCE(t->rcu_read_lock_nesting) != 0) {
		local_irq_restore(flags);	/* a new reader began */
		return;
	}
	irqs_were_disabled = irqs_disabled_flags(flags);
	if (!irqs_were_disabled &&
	    !(preempt_count() & (PREEMPT_MASK | SOFTIRQ_MASK | HARDIRQ_MASK))) {
		rcu_preempt_deferred_qs_irqrestore(t, flags);
		return;
	}
	rdp = &rcu_tree_data[raw_smp_processor_id()];
	if (in_irq()) {
		raise_softirq(RCU_SOFTIRQ);
	} else {
		set_need_resched_current();
		/*
		 * Only while this CPU is online, as Linux: a dying CPU in
		 * its last window may be parked by cpu_down() at any
		 * moment, and an IPI to a parked CPU is a bug.  Its online
		 * bit holds still here (IRQs off; only the CPU itself
		 * changes it, docs/hotplug.md), and what it owes the
		 * expedited grace period rcutree_report_cpu_dead() reports.
		 */
		if (irqs_were_disabled && rcu_preempt_expboost(t, rdp) &&
		    !rdp->defer_qs_iw_pending && cpu_online(rdp->cpu)) {
			/*
			 * Its handler only clears the flag: its return,
			 * with need_resched set, preempts to __schedule().
			 */
			rdp->defer_qs_iw_pending = true;
			rdp->n_defer_qs_iw++;
			arch_send_ipi(rdp->cpu, IRQ_WORK);
		}
	}
	local_irq_restore(flags);
}

/*
 * The tick's part (hardirq, IRQs off): is this tick a quiescent state?
 * Not inside a reader, nor inside a region that consolidated RCU treats
 * as one (preemption or softirqs off, another handler; the idle task,
 * which runs with preemption off, included: idle is excused as an
 * extended quiescent state instead), as Linux 6.12's
 * rcu_flavor_sched_clock_irq().  There, work a reader left deferred asks
 * for a context switch at the region's end, and a reader that holds the
 * grace period is asked to report at its unlock.  Outside, the deferred
 * work is finished here.
 */
bool rcu_flavor_sched_clock_irq(int cpu)
{
	struct task *t = current;
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
	int nesting = READ_ONCE(t->rcu_read_lock_nesting);

	lockdep_assert_irqs_disabled();
	if (nesting > 0 || rcu_preempt_interrupted_atomic()) {
		if (rcu_preempt_need_deferred_qs(t))
			set_need_resched_current();
		if (nesting > 0 && rdp->core_needs_qs)
			WRITE_ONCE(t->rcu_read_unlock_special.b.need_qs, 1);
		return false;
	}
	rcu_preempt_deferred_qs(t);
	rdp->cpu_no_qs = false;
	return true;
}

/*
 * From __schedule(), IRQs off, before the switch and before the run
 * queue's lock: a context switch is a quiescent state for this CPU.  A
 * task inside a reader is queued first, so that the grace period waits
 * for it wherever it runs next.  Only a preemption may switch a reader
 * out: one that sleeps (preempt false: schedule(), a wait, yield()) holds
 * every grace period for as long as it sleeps, and is a bug, as in Linux
 * 6.12; it is queued all the same.  A task outside its readers finishes
 * what they deferred.
 */
void rcu_tree_note_context_switch(bool preempt)
{
	struct task *t = current;
	struct rcu_tree_data *rdp = &rcu_tree_data[raw_smp_processor_id()];
	struct rcu_node *rnp = rdp->mynode;

	lockdep_assert_irqs_disabled();
	WARN_ONCE(!preempt && READ_ONCE(t->rcu_read_lock_nesting) > 0,
		  "rcu_note_context_switch: task %s sleeps in an RCU reader (nesting %d)",
		  t->name, READ_ONCE(t->rcu_read_lock_nesting));
	if (READ_ONCE(t->rcu_read_lock_nesting) > 0) {
		if (!t->rcu_read_unlock_special.b.blocked) {
			spin_lock(&rnp->lock);
			rcu_preempt_ctxt_queue(rnp, rdp, t);
			spin_unlock(&rnp->lock);
		}
	} else {
		rcu_preempt_deferred_qs(t);
	}
	rcu_report_qs_rdp(rdp);
	if (rdp->exp_deferred_qs)
		rcu_report_exp_rdp(rdp);
}
