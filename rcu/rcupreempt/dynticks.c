// SPDX-License-Identifier: GPL-2.0
/*
 * The interface between dynticks-idle and preemptable RCU, after Linux
 * 2.6.25 and the article "Integrating and Validating dynticks and
 * Preemptable RCU" (LWN, 2008, https://lwn.net/Articles/279077/; its map
 * onto this code is docs/article.md), with both of its fixes:
 * the barrier placement in rcu_enter_nohz()/rcu_exit_nohz() (seed patch)
 * and the parity test on curr, not snap, in rcu_try_flip_waitack_needed().
 *
 * dynticks_progress_counter is odd whenever this CPU may be executing an
 * RCU read-side critical section (running a task, or inside an interrupt
 * or NMI handler), and even while it is dynticks-idle.  The grace-period
 * machine (rcu/rcupreempt/rcupreempt.c) snapshots it when it asks every CPU for an
 * acknowledgement or a memory barrier, and excuses a CPU whose counter
 * shows that it cannot be holding on to the old state.
 *
 * NMI safety: everything that runs on the owning CPU touches only that
 * CPU's fields, one READ_ONCE()/WRITE_ONCE() at a time, so that an NMI
 * arriving between any two of those accesses (it runs rcu_irq_enter() and
 * rcu_irq_exit() itself) sees a consistent state.  The increments are not
 * atomic read-modify-writes; the article's Promela model covers an NMI
 * landing between the load and the store.  None of these functions take a
 * lock or print anything on their success path.
 */
#include "kernel/compiler.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/trace.h"
#include "rcu/rcupreempt/rcupreempt.h"

void rcu_dynticks_init_cpu(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);

	/* Odd: every CPU starts out running (the boot or bring-up code). */
	rdp->dynticks_progress_counter = 1;
	rdp->rcu_dyntick_snapshot = 0;
	rdp->rcu_update_flag = 0;
}

/*
 * The CPU is about to go dynticks-idle, from its idle task, with local
 * interrupts disabled.  Entering nohz *leaves* the mode in which this CPU
 * may run RCU readers.
 */
void rcu_enter_nohz(void)
{
	struct rcu_data *rdp = RCU_DATA_CPU(raw_smp_processor_id());
	long c;

	lockdep_assert_irqs_disabled();
	/*
	 * Orders every access of this CPU's prior RCU read-side critical
	 * sections before the store of the incremented
	 * dynticks_progress_counter below: a CPU that sees the new (even)
	 * value and so excuses us must also see those critical sections
	 * completed.  Seed patch: the mb goes before the increment.
	 */
	smp_mb();
	c = READ_ONCE(rdp->dynticks_progress_counter) + 1;
	WRITE_ONCE(rdp->dynticks_progress_counter, c);
	WARN(c & 0x1,
	     "rcu_enter_nohz: cpu %d dynticks_progress_counter %ld is odd after entering idle",
	     raw_smp_processor_id(), c);
	trace_event(TRACE_DYNTICKS, 0, c);
}

/*
 * The CPU leaves dynticks-idle to run a task, from its idle task, with
 * local interrupts disabled.  From here on it may run RCU readers.
 */
void rcu_exit_nohz(void)
{
	struct rcu_data *rdp = RCU_DATA_CPU(raw_smp_processor_id());
	long c;

	lockdep_assert_irqs_disabled();
	c = READ_ONCE(rdp->dynticks_progress_counter) + 1;
	WRITE_ONCE(rdp->dynticks_progress_counter, c);
	/*
	 * Orders the store of the incremented (odd)
	 * dynticks_progress_counter before every access of this CPU's
	 * subsequent RCU read-side critical sections (including their load
	 * of rcu_ctrlblk.completed): a CPU that sees the effects of those
	 * critical sections also sees that we left idle, and so does not
	 * excuse us.  Seed patch: the mb goes after the increment.
	 */
	smp_mb();
	WARN(!(c & 0x1),
	     "rcu_exit_nohz: cpu %d dynticks_progress_counter %ld is even after leaving idle",
	     raw_smp_processor_id(), c);
	trace_event(TRACE_DYNTICKS, 0, c);
}

/*
 * Interrupt or NMI entry.  Called *before* the hardirq (or NMI) count is
 * raised, so in_interrupt() is false exactly when this is the outermost
 * handler on this CPU (nothing else is on the interrupt stack).
 *
 * rcu_update_flag counts handler nesting, but only for a nest that began
 * while the CPU was dynticks-idle; it stays 0 when the handler interrupts
 * a running task, whose counter is already odd.
 *
 * The order is test-then-increment, and it matters because an NMI may
 * arrive between any two statements here and run this very function
 * (article, Quick Quiz 2).  The quiz proposes instead: a handler that
 * starts or continues a nest from idle increments rcu_update_flag first,
 * then the counter only if the flag's old value was 0.  Run that on an
 * idle CPU (counter even, flag 0): the interrupt sets the flag to 1, and
 * an NMI lands before its counter increment.
 * The NMI's own entry finds the old flag value 1, so it raises the flag
 * to 2 and leaves the counter alone: its handler's readers run on an
 * even counter, and the grace-period machine excuses this CPU under
 * them.  The NMI's exit drops the flag to 1 and returns; only then does
 * the interrupted entry make the counter odd (Spin: 7-qq2-quiz-order).
 *
 * A second order keeps both tests below but swaps the two increments of
 * the idle branch (flag, then counter).  The NMI then finds the flag at
 * 1 and the counter even: it raises the flag to 3 and makes the counter
 * odd; its exit leaves the flag at 2, so the counter stays odd; and the
 * interrupted entry's own increment makes it even, inside the interrupt
 * handler (Spin: 7-qq2-flag-before-counter).
 *
 * With test-then-increment, an NMI that arrives before the counter
 * increment does its own complete even->odd->even trip and leaves the
 * state as it found it; one that arrives after the increment finds the
 * counter odd and the flag 0 and does nothing at all.
 *
 * Quick Quiz 3: even the outermost handler need not always increment: if
 * it interrupted a running task the counter is already odd.
 */
void rcu_irq_enter(void)
{
	int cpu = raw_smp_processor_id();
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	int f = READ_ONCE(rdp->rcu_update_flag);

	/* Entered through an interrupt gate or the NMI: IF is clear. */
	lockdep_assert_irqs_disabled();
	/* Nested inside a handler that woke this CPU from idle: count it. */
	if (f)
		WRITE_ONCE(rdp->rcu_update_flag, f + 1);
	if (!in_interrupt() &&
	    (READ_ONCE(rdp->dynticks_progress_counter) & 0x1) == 0) {
		/* Outermost handler on a dynticks-idle CPU: leave idle. */
		WRITE_ONCE(rdp->dynticks_progress_counter,
			   READ_ONCE(rdp->dynticks_progress_counter) + 1);
		/*
		 * Orders the store of the now-odd
		 * dynticks_progress_counter before every access of the
		 * handler's RCU read-side critical sections: a CPU that sees
		 * their effects also sees that this CPU left idle.
		 */
		smp_mb();
		WRITE_ONCE(rdp->rcu_update_flag,
			   READ_ONCE(rdp->rcu_update_flag) + 1);
		trace_event(TRACE_DYNTICKS, 1, rdp->dynticks_progress_counter);
	}
}

/*
 * Interrupt or NMI exit.  Called *after* the hardirq (or NMI) count has
 * been dropped (and after deferred work has run at the outermost level).
 * Only a nest that started from idle has anything to undo: when its
 * outermost handler returns, the CPU goes back to dynticks-idle.
 *
 * An NMI arriving in here: before the decrement it sees a non-zero flag,
 * increments and later decrements it, returning early both times; between
 * the decrement and the counter increment it sees flag 0 and an odd
 * counter and does nothing.  Either way it leaves the state unchanged.
 */
void rcu_irq_exit(void)
{
	int cpu = raw_smp_processor_id();
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	int f = READ_ONCE(rdp->rcu_update_flag);
	long c;

	/* irq_exit() runs softirqs with IRQs on, but calls us with them off. */
	lockdep_assert_irqs_disabled();
	if (f) {
		WRITE_ONCE(rdp->rcu_update_flag, f - 1);
		if (f - 1)
			return;	/* still inside an outer handler */
		WARN(in_interrupt(),
		     "rcu_irq_exit: cpu %d rcu_update_flag reached 0 in interrupt, dynticks_progress_counter %ld",
		     cpu, READ_ONCE(rdp->dynticks_progress_counter));
		/*
		 * Orders every access of the handler's RCU read-side
		 * critical sections before the store of the incremented
		 * (even) dynticks_progress_counter: a CPU that sees this
		 * CPU back in idle also sees those critical sections done.
		 */
		smp_mb();
		c = READ_ONCE(rdp->dynticks_progress_counter) + 1;
		WRITE_ONCE(rdp->dynticks_progress_counter, c);
		WARN(c & 0x1,
		     "rcu_irq_exit: cpu %d dynticks_progress_counter %ld is odd after returning to idle",
		     cpu, c);
		trace_event(TRACE_DYNTICKS, 1, c);
	}
}

/*
 * Called by the flip machine, for every online CPU, just before it enters
 * a state that waits for that CPU (waitack or waitmb).
 */
void dyntick_save_progress_counter(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);

	WRITE_ONCE(rdp->rcu_dyntick_snapshot,
		   READ_ONCE(rdp->dynticks_progress_counter));
}

/*
 * Must the waitack state wait for cpu to acknowledge the flip?  0 if the
 * counter proves it cannot still be using the old rcu_flipctr index.
 */
int rcu_try_flip_waitack_needed(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	long curr;
	long snap;

	curr = READ_ONCE(rdp->dynticks_progress_counter);
	snap = READ_ONCE(rdp->rcu_dyntick_snapshot);
	/*
	 * Orders the loads of dynticks_progress_counter above before the
	 * flip machine's later loads (the rcu_flipctr sums of the waitzero
	 * state): if we excuse this CPU on the strength of an even counter,
	 * the counter sums we read afterwards include the critical
	 * sections it finished before going idle.  Pairs with the mbs in
	 * rcu_enter_nohz()/rcu_exit_nohz()/rcu_irq_enter()/rcu_irq_exit().
	 */
	smp_mb();

	/*
	 * Idle at the snapshot and untouched since (no handler of any
	 * kind stepped the counter): no reader of this CPU is in flight,
	 * and its next __rcu_read_lock() will load the flipped index.
	 * Count the flip as acknowledged.
	 */
	if ((curr == snap) && ((curr & 0x1) == 0))
		return 0;

	/*
	 * Gone through idle since the snapshot (more than one step), or
	 * idle with no handler running now: the same holds, so count the
	 * flip as acknowledged here too.  Test curr, not
	 * snap: an even snap means the CPU *started* idle, which says
	 * nothing about now; the article's liveness model found that
	 * testing snap waits forever for a CPU that went idle after the
	 * snapshot (snap = 5, curr = 6).
	 */
	if ((curr - snap) > 2 || (curr & 0x1) == 0)
		return 0;

	/* Running, or in a handler: wait for its own acknowledgement. */
	return 1;
}

/*
 * Must the waitmb state wait for cpu to execute a memory barrier?  Any
 * transition into or out of dynticks-idle executes one, so any change of
 * the counter since the snapshot will do.
 */
int rcu_try_flip_waitmb_needed(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	long curr;
	long snap;

	curr = READ_ONCE(rdp->dynticks_progress_counter);
	snap = READ_ONCE(rdp->rcu_dyntick_snapshot);
	/*
	 * Orders the loads of dynticks_progress_counter above before the
	 * flip machine's later accesses (the next flip's store to
	 * rcu_ctrlblk.completed): the barrier executed by the CPU's idle
	 * transition is then known to precede them.  Pairs with the mbs in
	 * rcu_enter_nohz()/rcu_exit_nohz()/rcu_irq_enter()/rcu_irq_exit().
	 */
	smp_mb();

	/*
	 * Idle at the snapshot and untouched since: the CPU ran no reader
	 * in that time, so it owes no memory barrier.
	 */
	if ((curr == snap) && ((curr & 0x1) == 0))
		return 0;

	/*
	 * Any step of the counter is an entry to or exit from idle or an
	 * outermost handler, each of which executes a memory barrier: the
	 * one owed has happened.
	 */
	if (curr != snap)
		return 0;

	/* Still in the same non-idle stretch: wait for its barrier. */
	return 1;
}
