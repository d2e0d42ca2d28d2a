/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemptible Tree RCU's read side (rcu=tree), inlined into every
 * rcu_read_lock() and rcu_read_unlock() (rcu/rcupdate.h): a nesting
 * increment, and a decrement with one test for work at the outermost
 * unlock, as Linux 6.12's __rcu_read_lock()/__rcu_read_unlock() in
 * kernel/rcu/tree_plugin.h, which are out of line there.  The slow
 * paths stay out of line in rcu/tree/tree_plugin.c.
 */
#ifndef RCU_TREE_TREE_READ_H
#define RCU_TREE_TREE_READ_H

#include "kernel/bug.h"
#include "kernel/jump_label.h"
#include "kernel/sched.h"

void rcu_read_unlock_special(struct task *t);

/*
 * On only when the torture test's torture_lock_delay_us was given at boot
 * (keys are set before the secondaries start), so that the lock's
 * torture hook costs nothing otherwise.
 */
DECLARE_STATIC_KEY_FALSE(rcu_tree_lock_delay_key);
void rcu_tree_read_lock_delay(void);

static __always_inline void __rcu_tree_read_lock(void)
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
	 * Torture hook, outermost lock only.  The count is set, so every
	 * grace period that starts from here waits for this reader: the
	 * delay holds them up as the 2008 reader's does between its load
	 * of completed and its counter increment.
	 */
	if (static_branch_unlikely(&rcu_tree_lock_delay_key) && !nesting)
		rcu_tree_read_lock_delay();
}

static __always_inline void __rcu_tree_read_unlock(void)
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

#endif
