// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_tree_cbs_overload: a CPU's callback queue that grows by qhimark
 * takes call_rcu()'s overload step (rcu/tree/tree.c, after Linux 6.12's
 * __call_rcu_core()): its batch limit is lifted to DEFAULT_MAX_RCU_BLIMIT,
 * so that rcu_do_batch() works the pile off in big batches, and comes
 * back once the queue is down to qlowmark.
 *
 * 3 * qhimark + 3 callbacks are queued on this CPU inside a reader with
 * IRQs off: no grace period can end under it and no softirq runs, so none
 * is invoked and the queue grows by them all.  The step must fire once
 * per threshold crossing, as Linux's does: when the queue is longer than
 * its length at the last step plus qhimark, and not again until it has
 * grown by qhimark more.  The test counts the crossings from the CPU's
 * state before the flood (its queue length and last step's length), so
 * that 2 or 3 steps are wanted, never one per callback.  The step is
 * judged on the CPU's state right after (no timing), the batches once
 * rcu_barrier() has seen them all invoked: one of them must be larger
 * than an unlifted limit allows (max(blimit, queued >> rcu_divisor)), and
 * the limit must be back.
 */
#include "kernel/mm.h"
#include "kernel/preempt.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/tree/util.h"

static long overload_invoked;

static void overload_cb(struct rcu_head *head)
{
	(void)head;
	__atomic_add_fetch(&overload_invoked, 1, __ATOMIC_RELAXED);
}

KTEST(rcu_tree_cbs_overload)
{
	long n = 3 * (long)qhimark + 3, unlifted, len, last, want = 0;
	struct rcu_tree_data *rdp;
	struct rcu_head *heads;
	unsigned long flags;
	u64 steps0;
	int cpu, bad = 0;

	TREE_ONLY();
	heads = kmalloc((size_t)n * sizeof(*heads));
	if (!heads)
		return KT_EXPECT(0, "no memory for %ld callbacks", n);
	overload_invoked = 0;
	rcu_read_lock();
	local_irq_save(flags);
	cpu = smp_processor_id();
	rdp = &rcu_tree_data[cpu];
	steps0 = READ_ONCE(rdp->n_cbs_overload);
	len = READ_ONCE(rdp->cblist.len);
	last = READ_ONCE(rdp->qlen_last_fqs_check);
	WRITE_ONCE(rdp->n_batch_max, 0);
	for (long i = 0; i < n; i++) {
		call_rcu(&heads[i], overload_cb);
		/* Linux's rule, on the length this callback made. */
		if (++len > last + (long)qhimark) {
			last = len;
			want++;
		}
	}
	bad |= KT_EXPECT(READ_ONCE(rdp->n_cbs_overload) == steps0 + want,
			 "cpu%d queued %ld callbacks (qhimark %u): %lu overload steps, want %ld (one per crossing)",
			 cpu, n, qhimark,
			 (unsigned long)(READ_ONCE(rdp->n_cbs_overload) - steps0),
			 want);
	bad |= KT_EXPECT(READ_ONCE(rdp->blimit) == DEFAULT_MAX_RCU_BLIMIT,
			 "cpu%d's batch limit is %ld after qhimark was passed, want %d",
			 cpu, READ_ONCE(rdp->blimit), DEFAULT_MAX_RCU_BLIMIT);
	bad |= KT_EXPECT(READ_ONCE(overload_invoked) == 0,
			 "%ld callbacks invoked under the reader",
			 READ_ONCE(overload_invoked));
	local_irq_restore(flags);
	rcu_read_unlock();
	rcu_barrier();
	unlifted = max((long)blimit, n >> rcu_divisor);
	/*
	 * The barrier's callback may be in the last batch, whose end (the
	 * batch's count, the limit put back) follows its wake-up.
	 */
	for (u64 t0 = ktime_get_ns(); !bad &&
	     (READ_ONCE(rdp->n_batch_max) <= unlifted ||
	      READ_ONCE(rdp->blimit) != (long)blimit) &&
	     ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC;)
		msleep(1);
	bad |= KT_EXPECT(overload_invoked == n, "%ld of %ld callbacks invoked",
			 overload_invoked, n);
	bad |= KT_EXPECT(READ_ONCE(rdp->n_batch_max) > unlifted,
			 "cpu%d's largest batch was %ld, no more than an unlifted limit's %ld",
			 cpu, READ_ONCE(rdp->n_batch_max), unlifted);
	bad |= KT_EXPECT(READ_ONCE(rdp->blimit) == (long)blimit,
			 "cpu%d's batch limit is %ld with the queue drained, want blimit %u",
			 cpu, READ_ONCE(rdp->blimit), blimit);
	kfree(heads);
	return bad;
}
