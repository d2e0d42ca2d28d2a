// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_barrier_invoking: one rcu_barrier() call, no retry, must return
 * only after every callback queued before it has run, including a batch
 * that a CPU has already taken off its list and is invoking at the moment
 * of the call (both flavours count those in rdp->invoking; a barrier that
 * looked only at the lists would skip that CPU and return early).
 *
 * Every online CPU queues a few callbacks, the target's last, once the
 * others' have run.  On one CPU other than ours (the target), the first of its batch holds the batch in the CPU's
 * hands: it spins until a callback is queued on its CPU after it began,
 * which only the barrier's marker can be, or until we say the barrier
 * returned.  So when we call rcu_barrier() the target's list is empty
 * and its batch is being invoked, for as long as a correct barrier needs
 * to see it: the check does not depend on timing.  A barrier that skips
 * the target returns with the batch unfinished, and we see it.
 */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/ktap.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcu.h"
#include "tests/kernel/kernel/util.h"

#define BARRIER_CBS	8		/* per CPU, one batch */

struct barrier_cb {
	struct rcu_head head;
	volatile int ran;
};

static struct barrier_cb barrier_cbs[NR_CPUS][BARRIER_CBS];
static int barrier_target;		/* its first callback holds on */
static volatile int barrier_held;	/* ... and has begun */
static volatile int barrier_returned;	/* rcu_barrier() came back */
static long barrier_left;		/* queued on the target meanwhile */

static void barrier_cb_ran(struct rcu_head *head)
{
	WRITE_ONCE(container_of(head, struct barrier_cb, head)->ran, 1);
}

/*
 * The target's first callback (softirq, IRQs on).  Its batch is off the
 * list and in the CPU's hands while it spins.  The barrier's marker is
 * the only callback queued here meanwhile (nothing else in this test
 * kernel queues on this CPU), so the count rising means the barrier saw
 * the batch; HOST_STALL_MS bounds a barrier that never comes.
 */
static void barrier_cb_hold(struct rcu_head *head)
{
	int cpu = raw_smp_processor_id();
	long n0 = rcu_cb_count(cpu);
	u64 t0 = ktime_get_ns();

	barrier_left = n0;
	/*
	 * Release: the batch was taken off our list (under our list lock)
	 * before the test sees this; its rcu_barrier() then takes that lock
	 * to look at this CPU, which orders the rest.
	 */
	smp_store_release(&barrier_held, 1);
	while (rcu_cb_count(cpu) <= n0 &&
	       !smp_load_acquire(&barrier_returned) &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
	barrier_cb_ran(head);
}

/* IPI on cpu: queue its batch in one go, so one invocation takes it all. */
static void barrier_queue(void *arg)
{
	int cpu = raw_smp_processor_id();

	(void)arg;
	for (int i = 0; i < BARRIER_CBS; i++) {
		struct barrier_cb *c = &barrier_cbs[cpu][i];

		c->ran = 0;
		call_rcu(&c->head, cpu == barrier_target && !i ?
			 barrier_cb_hold : barrier_cb_ran);
	}
}

/* How many queued callbacks had not run, and of those the target's. */
static int barrier_missing(int *target_missing)
{
	int cpu, n = 0;

	*target_missing = 0;
	for_each_online_cpu(cpu)
		for (int i = 0; i < BARRIER_CBS; i++) {
			if (READ_ONCE(barrier_cbs[cpu][i].ran))
				continue;
			n++;
			*target_missing += cpu == barrier_target;
		}
	return n;
}

/* The same, but for the target's: those of the other CPUs not yet run. */
static int barrier_missing_others(void)
{
	int target_missing, n = barrier_missing(&target_missing);

	return n - target_missing;
}

KTEST(rcu_barrier_invoking)
{
	int self = raw_smp_processor_id();	/* the ktap thread is pinned */
	int cpu, fail = 0, missing, target_missing;

	rcu_barrier();		/* nothing of earlier tests left queued */
	barrier_target = -1;
	for_each_online_cpu(cpu)
		if (cpu != self && barrier_target < 0)
			barrier_target = cpu;
	barrier_held = barrier_returned = 0;
	/*
	 * The other CPUs' callbacks first, and all of them run, before the
	 * target's batch starts to hold its CPU: a grace period that began
	 * after the hold waits for the target's softirq to end, so a
	 * callback of ours still needing one would hold the barrier up
	 * too (rcu=tree's call_rcu() leaves the request to the next tick,
	 * so when ours get a grace period depends on timing), and a barrier
	 * that wrongly skipped the target would then look correct.
	 */
	for_each_online_cpu(cpu)
		if (cpu != barrier_target)
			smp_call_function_single(cpu, barrier_queue, NULL,
						 true);
	for (u64 t0 = ktime_get_ns(); barrier_missing_others() &&
	     ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC;)
		msleep(1);
	missing = barrier_missing_others();
	if (KT_EXPECT(!missing, "%d callbacks of the other CPUs not invoked after %d ms",
		      missing, HOST_STALL_MS))
		return 1;
	if (barrier_target >= 0)
		smp_call_function_single(barrier_target, barrier_queue, NULL,
					 true);
	if (barrier_target >= 0 &&
	    KT_EXPECT(wait_flag(&barrier_held, HOST_STALL_MS),
		      "cpu %d never invoked its callbacks", barrier_target))
		return 1;
	rcu_barrier();
	missing = barrier_missing(&target_missing);
	/* Release: pairs with the holding callback's acquire. */
	smp_store_release(&barrier_returned, 1);
	fail |= KT_EXPECT(!missing,
			  "rcu_barrier() returned before %d callbacks ran, %d of them in the batch cpu %d was invoking",
			  missing, target_missing, barrier_target);
	if (missing)
		rcu_barrier();	/* let the rest run before we leave */
	if (barrier_target < 0)
		ktap_diag("one CPU: no batch in another CPU's hands, %d callbacks queued",
			  BARRIER_CBS);
	else
		ktap_diag("%d CPUs queued %d callbacks each; cpu %d was invoking its batch when rcu_barrier() was called, %ld callbacks left on its list",
			  num_online_cpus(), BARRIER_CBS, barrier_target,
			  barrier_left);
	return fail;
}
