// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_tree_expedited (rcu/tree/tree_exp.c): 1000 expedited and 1000
 * normal grace periods cost idle CPUs no tick, no wake-up and no
 * expedited IPI; an expedited grace period waits for a reader on a busy
 * CPU.  rcu=tree only.
 */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/rcu/util.h"
#include "tests/kernel/tree/util.h"

static volatile int exp_done_flag;

static int exp_waiter(void *arg)
{
	(void)arg;
	synchronize_rcu_expedited();
	smp_store_release(&exp_done_flag, 1);
	return 0;
}

/*
 * 1000 grace periods, expedited or normal, from this CPU with the others
 * idle: each one completes, and the idle CPUs take no tick, no interrupt
 * and no expedited IPI meanwhile.
 */
static int quiet_gps(int self, bool exp)
{
	const char *what = exp ? "expedited" : "normal";
	struct cpu_counts *before;
	struct rcu_stats_snapshot s0, s1;
	u64 ipis0, t0, n;
	int fail;

	msleep(20);	/* let the other CPUs settle into idle */
	before = cpu_counts_snap();
	ipis0 = exp_ipis_others(self);
	rcu_stats_get(&s0);
	t0 = ktime_get_ns();
	for (int i = 0; i < 1000; i++) {
		if (exp)
			synchronize_rcu_expedited();
		else
			synchronize_rcu();
	}
	rcu_stats_get(&s1);
	n = exp ? s1.exp_completed - s0.exp_completed :
		  s1.gp_completed - s0.gp_completed;
	ktap_diag("1000 %s GPs in %llu us (%llu completed)", what,
		  (unsigned long long)(ktime_get_ns() - t0) / 1000,
		  (unsigned long long)n);
	/* A normal GP may also end one that another CPU's request began. */
	fail = KT_EXPECT(exp ? n == 1000 : n >= 1000, "%s count %llu", what,
			 (unsigned long long)n);
	return fail | idle_cpus_quiet(self, before, ipis0, what);
}

KTEST(rcu_tree_expedited)
{
	int self, fail = 0, busy;

	TREE_ONLY();
	preempt_disable();
	self = raw_smp_processor_id();
	preempt_enable();
	fail |= quiet_gps(self, true);
	fail |= quiet_gps(self, false);

	/* A reader on a busy CPU holds an expedited grace period. */
	if (num_online_cpus() < 2)
		return fail;
	busy = find_idle_cpu(-1);
	if (KT_EXPECT(busy >= 0, "a CPU for the reader"))
		return 1;
	held_start(busy, false);
	exp_done_flag = 0;
	kthread_run(exp_waiter, NULL, self, "exp-waiter");
	/*
	 * Until the expedited GP has ended or waits on the reader's CPU
	 * (its bit in the leaf's expmask), not a fixed 50 ms: a GP that
	 * skipped the busy CPU was caught only if it ended within those
	 * 50 ms, which a stalled host vCPU could make it miss.  Then 50 ms
	 * more for a GP that wrongly ends under the reader after all.
	 */
	struct rcu_tree_data *rdp = &rcu_tree_data[busy];
	u64 t0 = ktime_get_ns();

	while (!READ_ONCE(exp_done_flag) &&
	       !(READ_ONCE(rdp->mynode->expmask) & rdp->grpmask) &&
	       ktime_get_ns() - t0 < 5 * NSEC_PER_SEC)
		msleep(1);
	msleep(50);
	fail |= KT_EXPECT(!READ_ONCE(exp_done_flag),
			  "expedited GP ended under a reader on busy cpu %d",
			  busy);
	fail |= held_stop();
	fail |= KT_EXPECT(wait_flag(&exp_done_flag, 5000),
			  "expedited GP ends after the reader");
	ktap_diag("expedited GP waited for the reader on busy cpu %d (%llu IPIs there)",
		  busy, (unsigned long long)rcu_tree_data[busy].exp_ipis);
	return fail;
}
