// SPDX-License-Identifier: GPL-2.0
/*
 * Preemptible Tree RCU's readers (rcu=tree), after Linux 6.12's
 * kernel/rcu/tree_plugin.h.  A reader only counts its nesting on its task
 * (handlers' readers count on the task they interrupted).  A task
 * preempted inside a reader is queued on its leaf's blkd_tasks list
 * (rcu_preempt_ctxt_queue()), and the grace periods that were waiting on
 * its CPU then wait on it; its outermost rcu_read_unlock() takes the slow
 * path (rcu_read_unlock_special()) to leave the list.
 */
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/preempt.h"
#include "kernel/softirq.h"
#include "rcu/tree/tree.h"

/* Set only by a running torture test (torture_lock_delay_us). */
static void (*rcu_read_lock_delay_hook)(void);

void rcu_tree_read_lock_delay_set(void (*hook)(void))
{
	WRITE_ONCE(rcu_read_lock_delay_hook, hook);
}

void __rcu_tree_read_lock(void)
{
	struct task *t = current;
	int nesting = READ_ONCE(t->rcu_read_lock_nesting);

	/*
	 * A handler that interrupts the read-modify-write does a balanced
	 * inc/dec of its own; a preemption in the middle is a context switch
	 * before the reader began.
	 */
	WRITE_ONCE(t->rcu_read_lock_nesting, nesting + 1);
	/*
	 * The critical section stays after the count: a compiler barrier
	 * is enough, because only this CPU (the tick, a context switch, an
	 * IPI handler) reads the count to decide on a quiescent state, and
	 * those run between this CPU's instructions.  Other CPUs learn of
	 * the reader only through reports, which take rcu_node locks (full
	 * barriers on x86), or through the context-tracking counter.
	 */
	barrier();
	/*
	 * Torture hook (torture_lock_delay_us, rcu/torture.c), outermost
	 * lock only.  The count is set, so every grace period that starts
	 * from here waits for this reader: the spin holds them up as the
	 * 2008 reader's does between its load of completed and its counter
	 * increment.  Off (one predictable branch) otherwise.
	 */
	if (unlikely(READ_ONCE(rcu_read_lock_delay_hook)) && !nesting)
		rcu_read_lock_delay_hook();
}

void __rcu_tree_read_unlock(void)
{
	struct task *t = current;
	int nesting;

	/*
	 * The critical section stays before the count (compiler only, as in
	 * __rcu_tree_read_lock()): the quiescent state this unlock allows is
	 * reported later, under an rcu_node lock that orders the section's
	 * accesses before the report.
	 */
	barrier();
	nesting = READ_ONCE(t->rcu_read_lock_nesting) - 1;
	WRITE_ONCE(t->rcu_read_lock_nesting, nesting);
	if (nesting == 0) {
		/* The count's store before the load of special (compiler). */
		barrier();
		if (unlikely(READ_ONCE(t->rcu_read_unlock_special.s)))
			rcu_read_unlock_special(t);
	} else if (unlikely(nesting < 0)) {
		WARN(1, "rcu_read_unlock: task %s: unbalanced, nesting %d",
		     t->name, nesting);
		WRITE_ONCE(t->rcu_read_lock_nesting, 0);
	}
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
 * The outermost rcu_read_unlock() found work: leave blkd_tasks, report a
 * quiescent state that the grace period or the expedited one asked for.
 * Also called for work left over (deferred) by the tick and at context
 * switches.  In an NMI it does nothing: the flags stay set, and the next
 * tick, context switch or unlock on this task does it (Linux defers the
 * same way, rcu_preempt_deferred_qs()).  An IRQ handler that lands just
 * after the task's count reached 0 may do the task's work for it: IRQs
 * are off throughout, so the two never interleave.
 */
void rcu_read_unlock_special(struct task *t)
{
	struct rcu_tree_data *rdp;
	union rcu_special special;
	unsigned long flags;

	if (in_nmi())
		return;
	local_irq_save(flags);
	if (READ_ONCE(t->rcu_read_lock_nesting) != 0) {
		local_irq_restore(flags);	/* a new reader began */
		return;
	}
	rdp = &rcu_tree_data[raw_smp_processor_id()];
	special = READ_ONCE(t->rcu_read_unlock_special);
	WRITE_ONCE(t->rcu_read_unlock_special.b.need_qs, 0);
	WRITE_ONCE(t->rcu_read_unlock_special.b.exp_hint, 0);
	if (special.b.need_qs)
		rcu_report_qs_rdp(rdp);
	if (special.b.exp_hint && rdp->exp_deferred_qs)
		rcu_report_exp_rdp(rdp);
	if (special.b.blocked) {
		struct rcu_node *rnp = t->rcu_blocked_node;
		unsigned long rflags;
		bool gp, exp;

		WRITE_ONCE(t->rcu_read_unlock_special.b.blocked, 0);
		spin_lock_irqsave(&rnp->lock, rflags);
		/* Under the lock: rcu_gp_init() and tree_exp.c set them. */
		gp = t->rcu_blocks_gp;
		exp = t->rcu_blocks_exp;
		list_del_init(&t->rcu_node_entry);
		t->rcu_blocked_node = NULL;
		t->rcu_blocks_gp = 0;
		t->rcu_blocks_exp = 0;
		if (exp)
			WRITE_ONCE(rnp->n_exp_tasks, rnp->n_exp_tasks - 1);
		if (gp) {
			WRITE_ONCE(rnp->n_gp_tasks, rnp->n_gp_tasks - 1);
			/* Releases rnp->lock; IRQs stay off until flags. */
			rcu_report_unblock_qs_rnp(rnp, rflags);
		} else {
			spin_unlock_irqrestore(&rnp->lock, rflags);
		}
		if (exp)
			rcu_report_exp_cpu_mult(rnp, 0);
	}
	local_irq_restore(flags);
}

/*
 * The tick's part (hardirq, IRQs off): outside a reader, finish any work
 * an NMI left; inside one, ask the outermost unlock to report a
 * quiescent state if the grace period waits on this CPU.
 */
void rcu_flavor_sched_clock_irq(int cpu)
{
	struct task *t = current;
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];

	lockdep_assert_irqs_disabled();
	if (READ_ONCE(t->rcu_read_lock_nesting) == 0) {
		if (unlikely(READ_ONCE(t->rcu_read_unlock_special.s)))
			rcu_read_unlock_special(t);
		rdp->cpu_no_qs = false;
	} else if (rdp->core_needs_qs) {
		WRITE_ONCE(t->rcu_read_unlock_special.b.need_qs, 1);
	}
}

/*
 * From __schedule(), IRQs off, before the switch: a context switch is a
 * quiescent state for this CPU.  A task inside a reader is queued first,
 * so that the grace period waits for it wherever it runs next.  Only a
 * preemption may switch a reader out: one that sleeps (preempt false:
 * schedule(), a wait, yield()) holds every grace period for as long as
 * it sleeps, and is a bug, as in Linux 6.12; it is queued all the same.
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
	} else if (unlikely(READ_ONCE(t->rcu_read_unlock_special.s))) {
		rcu_read_unlock_special(t);
	}
	rcu_report_qs_rdp(rdp);
	if (rdp->exp_deferred_qs)
		rcu_report_exp_rdp(rdp);
}
