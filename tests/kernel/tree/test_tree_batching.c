// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_tree_call_rcu_batched: call_rcu() queues and asks for nothing; the
 * poster's next tick asks for one grace period for every callback queued
 * since (rcu/tree/tree.c, __call_rcu_common(), as Linux 6.12's call_rcu()
 * leaves it to rcu_core()).
 *
 * A burst of BATCH_CBS callbacks is posted with IRQs off, so no tick of
 * this CPU can run inside it.  Right after it, with IRQs still off, every
 * one of them must still be in the list's NEXT segment, the one no grace
 * period has been asked for: a call_rcu() that accelerated its callback
 * would have moved it (and the burst before it) out.  The judgement reads
 * this CPU's own list, so other CPUs' grace periods cannot disturb it.
 * Then the tick must get them all invoked, within a bound far above a
 * tick (guest time), and the grace periods that took are reported.
 */
#include "kernel/irqflags.h"
#include "kernel/preempt.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/tree/util.h"

#define BATCH_CBS		200
#define BATCH_WAIT_MS		HOST_STALL_MS	/* thousands of ticks */

static struct rcu_head batch_heads[BATCH_CBS];
static long batch_invoked;

static void batch_cb(struct rcu_head *head)
{
	(void)head;
	__atomic_add_fetch(&batch_invoked, 1, __ATOMIC_RELAXED);
}

/* Callbacks in rdp's NEXT segment (no grace period asked for).  IRQs off. */
static long batch_unassigned(struct rcu_tree_data *rdp)
{
	struct rcu_head *p = *rdp->cblist.tails[RCU_NEXT_READY_TAIL];
	long n = 0;

	lockdep_assert_irqs_disabled();
	for (; p; p = p->next)
		n++;
	return n;
}

KTEST(rcu_tree_call_rcu_batched)
{
	long unassigned, gp0, gps;
	unsigned long flags;
	u64 t0, waited_ms;
	int bad = 0;

	TREE_ONLY();
	WRITE_ONCE(batch_invoked, 0);
	local_irq_save(flags);
	for (int i = 0; i < BATCH_CBS; i++)
		call_rcu(&batch_heads[i], batch_cb);
	unassigned = batch_unassigned(&rcu_tree_data[raw_smp_processor_id()]);
	gp0 = rcu_batches_completed();
	local_irq_restore(flags);
	bad |= KT_EXPECT(unassigned >= BATCH_CBS,
			 "only %ld of the %d callbacks still wait for a grace-period request: call_rcu() asked itself",
			 unassigned, BATCH_CBS);
	t0 = ktime_get_ns();
	while (READ_ONCE(batch_invoked) < BATCH_CBS &&
	       ktime_get_ns() - t0 < BATCH_WAIT_MS * NSEC_PER_MSEC)
		msleep(1);
	waited_ms = (ktime_get_ns() - t0) / NSEC_PER_MSEC;
	gps = rcu_batches_completed() - gp0;
	ktap_diag("%d callbacks posted with IRQs off: %ld left unrequested; all invoked after %lu ms and %ld grace periods",
		  BATCH_CBS, unassigned, (unsigned long)waited_ms, gps);
	bad |= KT_EXPECT(READ_ONCE(batch_invoked) == BATCH_CBS,
			 "%ld of %d callbacks invoked after %d ms",
			 READ_ONCE(batch_invoked), BATCH_CBS, BATCH_WAIT_MS);
	return bad;
}
