// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel tests of the flip machine's per-CPU state (rcu=rcupreempt
 * only): the article's (snap, curr) table, and the per-CPU reader
 * counters balancing once every reader is done, and around one reader.
 */
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt/rcupreempt.h"

/*
 * The article's (snap, curr) cases, on the rcu_data of an offline CPU
 * slot: the flip machine only scans online CPUs, so nothing else reads it.
 */
KTEST(dynticks_needed_table)
{
	static const struct {
		long snap, curr;
		int ack, mb;
	} t[] = {
		{ 4, 4, 0, 0 }, { 4, 5, 1, 0 }, { 4, 6, 0, 0 }, { 4, 7, 0, 0 },
		{ 5, 5, 1, 1 }, { 5, 6, 0, 0 }, { 5, 7, 1, 0 }, { 5, 8, 0, 0 },
		{ 5, 9, 0, 0 }, { 1, 1, 1, 1 }, { 1, 2, 0, 0 }, { 6, 7, 1, 0 },
	};
	int cpu = NR_CPUS - 1;
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	long save_curr, save_snap;
	int fail = 0;

	if (cpu_online(cpu)) {
		ktap_diag("cpu %d is online: no spare slot, skipped", cpu);
		return 0;
	}
	save_curr = rdp->dynticks_progress_counter;
	save_snap = rdp->rcu_dyntick_snapshot;
	for (unsigned int i = 0; i < ARRAY_SIZE(t); i++) {
		rdp->rcu_dyntick_snapshot = t[i].snap;
		rdp->dynticks_progress_counter = t[i].curr;
		fail |= KT_EXPECT(rcu_try_flip_waitack_needed(cpu) == t[i].ack,
				  "waitack snap %ld curr %ld", t[i].snap,
				  t[i].curr);
		fail |= KT_EXPECT(rcu_try_flip_waitmb_needed(cpu) == t[i].mb,
				  "waitmb snap %ld curr %ld", t[i].snap,
				  t[i].curr);
	}
	rdp->dynticks_progress_counter = save_curr;
	rdp->rcu_dyntick_snapshot = save_snap;
	ktap_diag("%u cases, including snap=5 curr=6 (the snap bug)",
		  (unsigned int)ARRAY_SIZE(t));
	return fail;
}

/*
 * With no reader running, the rcu_flipctr[] of all CPUs sum to zero: each
 * rcu_read_unlock() undid its lock's increment, on whatever CPU it ran.
 * The shared tests before this one (link order: tests/kernel/rcu/ comes
 * first) leave readers that were preempted, and readers that migrated,
 * whose +1 and -1 fell on different CPUs.
 */
KTEST(rcupreempt_flipctr_balanced)
{
	long sum = 0;
	int cpu;

	if (rcu_flavor_is_tree()) {
		ktap_diag("rcu_flipctr[]: rcu=rcupreempt only");
		return KTEST_SKIP;
	}
	rcu_barrier();
	for_each_online_cpu(cpu)
		sum += READ_ONCE(RCU_DATA_CPU(cpu)->rcu_flipctr[0]) +
			READ_ONCE(RCU_DATA_CPU(cpu)->rcu_flipctr[1]);
	return KT_EXPECT(sum == 0, "rcu_flipctr sum %ld with no readers", sum);
}

/*
 * One reader on this CPU, lock to unlock with interrupts off, counts
 * itself on the index it recorded and leaves this CPU's rcu_flipctr[] as
 * it found them: no other reader of this CPU (task or IRQ handler) can
 * run meanwhile, and the unlock's index is the lock's, whatever flip came
 * in between.  An NMI's reader does a balanced increment and decrement.
 * The sums above balance only over all CPUs and readers, and a reader
 * that unlocks on the wrong index still balances them.
 */
static void flipctr_get(const struct rcu_data *rdp, long v[2])
{
	v[0] = READ_ONCE(rdp->rcu_flipctr[0]);
	v[1] = READ_ONCE(rdp->rcu_flipctr[1]);
}

KTEST(rcupreempt_reader_counters_balance)
{
	long before[2], mid[2], after[2];
	struct rcu_data *rdp;
	unsigned long flags;
	int idx, fail = 0;

	if (rcu_flavor_is_tree()) {
		ktap_diag("rcu_flipctr[]: rcu=rcupreempt only");
		return KTEST_SKIP;
	}
	local_irq_save(flags);
	rdp = RCU_DATA_CPU(raw_smp_processor_id());
	flipctr_get(rdp, before);
	rcu_read_lock();
	idx = READ_ONCE(current->rcu_flipctr_idx);
	flipctr_get(rdp, mid);
	rcu_read_unlock();
	flipctr_get(rdp, after);
	local_irq_restore(flags);
	fail |= KT_EXPECT(mid[idx] == before[idx] + 1 &&
			  mid[!idx] == before[!idx],
			  "rcu_read_lock() on index %d took rcu_flipctr[] from %ld, %ld to %ld, %ld",
			  idx, before[0], before[1], mid[0], mid[1]);
	fail |= KT_EXPECT(after[0] == before[0] && after[1] == before[1],
			  "rcu_read_unlock() of index %d left rcu_flipctr[] at %ld, %ld, not %ld, %ld",
			  idx, after[0], after[1], before[0], before[1]);
	return fail;
}
