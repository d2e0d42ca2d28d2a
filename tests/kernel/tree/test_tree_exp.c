// SPDX-License-Identifier: GPL-2.0
/*
 * Expedited grace periods (rcu/tree/tree_exp.c), rcu=tree only:
 *   rcu_tree_expedited   1000 expedited and 1000 normal grace periods
 *                        cost idle CPUs no tick, no wake-up and no
 *                        expedited IPI; an expedited grace period waits
 *                        for a reader on a busy CPU
 *   rcu_tree_exp_sharing callers that arrive while an expedited grace
 *                        period runs share the next one; callers looping
 *                        on every CPU run fewer grace periods than calls
 *   rcu_tree_exp_idle_since  a CPU that goes idle between the selection and
 *                        its IPI gets none: it is reported instead
 *   rcu_tree_exp_preempted_readers  tasks preempted inside readers hold an
 *                        expedited grace period until their unlocks
 *   rcu_tree_exp_reader_unlock  a reader the expedited IPI interrupts, and
 *                        that unlocks on the same CPU unpreempted, reports
 *                        the CPU's expedited quiescent state at the unlock;
 *                        one preempted after the IPI, at the switch
 * The interleavings of issue 23 are in test_tree_exp_races.c.
 */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/string.h"
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

	wait_others_tickless_idle(self);
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

/* ------------------------------------------------------------------ */

#define SHARE_MAX	64	/* callers of the sharing test */
#define SHARE_LOOPS	25	/* calls per caller in the free run */
#define SHARE_HANG_S	60	/* the free run has hung: not a figure */

static struct {
	struct task *task[SHARE_MAX];
	volatile int entered[SHARE_MAX];
	volatile int done;
	volatile int go;	/* the free run's start: all at once */
	int loops;
} share;

static int share_caller(void *arg)
{
	int i = (int)(long)arg;

	smp_store_release(&share.entered[i], 1);
	/* Spin, not sleep: every CPU busy, so each GP sends IPIs. */
	while (!smp_load_acquire(&share.go))
		arch_cpu_relax();
	for (int n = 0; n < share.loops; n++)
		synchronize_rcu_expedited();
	__atomic_add_fetch(&share.done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* Start caller i on cpu. */
static void share_start(int i, int cpu)
{
	share.entered[i] = 0;
	share.task[i] = kthread_run(share_caller, (void *)(long)i, cpu,
				    "exp-sharer");
}

static bool share_all_entered(int n)
{
	for (int i = 0; i < n; i++)
		if (!READ_ONCE(share.entered[i]))
			return false;
	return true;
}

/* Callers 0..n-1 have entered synchronize_rcu_expedited() and sleep. */
static bool share_all_asleep(int n)
{
	for (int i = 0; i < n; i++)
		if (!READ_ONCE(share.entered[i]) ||
		    !task_sleeping(share.task[i]))
			return false;
	return true;
}

/*
 * While a reader on a busy CPU holds expedited grace period k (its
 * caller, 0, asleep in it), two callers per other online CPU arrive.
 * Each takes its snapshot during k, so each needs k + 1: one of them
 * runs it once k ends and the others wait for it (exp_funnel_lock()).
 * Deterministic: every caller is asleep in the call before the reader
 * lets k go, so exactly two grace periods serve them all.  Each caller
 * running its own would take one per caller.
 */
static int exp_sharing_held(int self)
{
	struct rcu_tree_data *rdp;
	int busy, n = 1, cpu, fail = 0;
	u64 gps;

	busy = find_idle_cpu(-1);
	if (KT_EXPECT(busy >= 0, "a CPU for the reader"))
		return 1;
	rdp = &rcu_tree_data[busy];
	held_start(busy, false);
	share.done = 0;
	share.go = 1;
	share.loops = 1;
	gps = READ_ONCE(rcu_state.n_exp_completed);
	share_start(0, self);
	fail |= KT_EXPECT(poll_until(share_all_asleep(1) &&
				     (READ_ONCE(rdp->mynode->expmask) &
				      rdp->grpmask)),
			  "grace period k waits on the reader on cpu %d",
			  busy);
	for_each_online_cpu(cpu)
		for (int k = 0; k < 2 && cpu != busy && n < SHARE_MAX; k++)
			share_start(n++, cpu);
	fail |= KT_EXPECT(poll_until(share_all_asleep(n)),
			  "%d callers asleep in synchronize_rcu_expedited()",
			  n);
	fail |= held_stop();
	fail |= KT_EXPECT(poll_until(READ_ONCE(share.done) == n),
			  "%d of %d callers returned", share.done, n);
	gps = READ_ONCE(rcu_state.n_exp_completed) - gps;
	ktap_diag("sharing: %d callers (1 holding grace period k, %d arriving during it) returned after %llu expedited grace periods",
		  n, n - 1, (unsigned long long)gps);
	fail |= KT_EXPECT(gps == 2,
			  "%d callers that arrived during one grace period took %llu, not 2",
			  n, (unsigned long long)gps);
	return fail;
}

/*
 * Two callers per online CPU, SHARE_LOOPS calls each, let go at once
 * with every CPU busy: how many grace periods served how many calls.
 * A caller's calls follow one another, each snapshot taken after the
 * last return, so at least SHARE_LOOPS grace periods run, and no more
 * than there are calls.
 */
static int exp_sharing_free(void)
{
	int n = 0, cpu, fail;
	u64 gps, t0;

	share.done = 0;
	share.go = 0;
	share.loops = SHARE_LOOPS;
	for_each_online_cpu(cpu)
		for (int k = 0; k < 2 && n < SHARE_MAX; k++)
			share_start(n++, cpu);
	fail = KT_EXPECT(poll_until(share_all_entered(n)),
			 "%d callers at the start", n);
	gps = READ_ONCE(rcu_state.n_exp_completed);
	t0 = ktime_get_ns();
	smp_store_release(&share.go, 1);
	while (READ_ONCE(share.done) < n &&
	       ktime_get_ns() - t0 < SHARE_HANG_S * NSEC_PER_SEC)
		msleep(1);
	fail |= KT_EXPECT(READ_ONCE(share.done) == n,
			  "%d of %d callers returned", share.done, n);
	gps = READ_ONCE(rcu_state.n_exp_completed) - gps;
	ktap_diag("sharing: %d callers on %u CPUs, %d calls: %llu expedited grace periods in %llu ms",
		  n, num_online_cpus(), n * SHARE_LOOPS,
		  (unsigned long long)gps,
		  (unsigned long long)(ktime_get_ns() - t0) / NSEC_PER_MSEC);
	return fail | KT_EXPECT(gps >= SHARE_LOOPS &&
				gps <= (u64)n * SHARE_LOOPS,
				"%llu grace periods for %d callers of %d calls",
				(unsigned long long)gps, n, SHARE_LOOPS);
}

KTEST(rcu_tree_exp_sharing)
{
	int fail;

	TREE_SMP_ONLY();
	/* The ktap thread is pinned: its CPU stays its CPU. */
	fail = exp_sharing_held(smp_processor_id());
	/*
	 * Callers left asleep by the held phase would be counted again by
	 * the free run, which then waits out its 60 s hang bound: report
	 * now, so that the failure comes in seconds.
	 */
	if (fail)
		return fail;
	return exp_sharing_free();
}

/* ------------------------------------------------------------------ */

static struct {
	int x;
	struct rcu_node *leaf;
	int snap;		/* x's counter, spinning, before the GP */
	volatile int spinning, spin_stop;
	volatile int armed, seen;
	bool watching_then, idle_before_ipi;
} idl;

static int idle_since_spinner(void *arg)
{
	(void)arg;
	smp_store_release(&idl.spinning, 1);
	while (!smp_load_acquire(&idl.spin_stop))
		arch_cpu_relax();
	return 0;	/* x has nothing left to run: it goes idle */
}

/*
 * After the selection of x's leaf, before its IPIs: x's counter has not
 * moved since before the grace period (so the selection read it
 * watching); stop x's spinner and wait until x is idle.
 */
static void idle_since_hook(enum rcu_exp_hook_point point,
			    struct rcu_node *rnp)
{
	if (point != RCU_EXP_HOOK_SELECTED || rnp != idl.leaf ||
	    !READ_ONCE(idl.armed))
		return;
	WRITE_ONCE(idl.armed, 0);
	idl.watching_then = ct_rcu_watching_cpu_acquire(idl.x) == idl.snap;
	smp_store_release(&idl.spin_stop, 1);
	idl.idle_before_ipi = poll_until(rcu_watching_snap_in_eqs(
		ct_rcu_watching_cpu_acquire(idl.x)));
	smp_store_release(&idl.seen, 1);
}

/*
 * A CPU that goes idle between the selection, which reads it watching,
 * and its IPI gets none: the worker reads its counter again just before
 * and reports it instead (rcu_watching_snap_stopped_since()).  Forced:
 * the test point after the selection of x's leaf lets x's spinner end
 * and waits until x is idle.  The grace period cannot end without x's
 * report, so an IPI sent to x has run by the time it returns.
 */
KTEST(rcu_tree_exp_idle_since)
{
	u64 ipis0;
	int fail = 0, cpu;

	TREE_SMP_ONLY();
	idl.x = -1;
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id()) {
			idl.x = cpu;
			break;
		}
	idl.leaf = rcu_tree_data[idl.x].mynode;
	idl.spinning = idl.spin_stop = idl.seen = 0;
	kthread_run(idle_since_spinner, NULL, idl.x, "exp-idle-since");
	if (KT_EXPECT(poll_until(idl.spinning), "spinner on cpu %d", idl.x))
		return 1;
	idl.snap = ct_rcu_watching_cpu_acquire(idl.x);
	ipis0 = READ_ONCE(rcu_tree_data[idl.x].exp_ipis);
	WRITE_ONCE(idl.armed, 1);
	WRITE_ONCE(rcu_exp_test_hook, idle_since_hook);
	synchronize_rcu_expedited();
	WRITE_ONCE(rcu_exp_test_hook, NULL);
	fail |= KT_EXPECT(idl.seen && idl.watching_then &&
			  idl.idle_before_ipi,
			  "cpu %d watching at the selection (%d), idle before its IPI (%d)",
			  idl.x, idl.watching_then, idl.idle_before_ipi);
	ipis0 = READ_ONCE(rcu_tree_data[idl.x].exp_ipis) - ipis0;
	ktap_diag("cpu %d, watching when selected and idle before its IPI: %llu expedited IPIs",
		  idl.x, (unsigned long long)ipis0);
	fail |= KT_EXPECT(ipis0 == 0,
			  "cpu %d went idle after the selection and still took %llu expedited IPIs",
			  idl.x, (unsigned long long)ipis0);
	return fail;
}

/* ------------------------------------------------------------------ */

static volatile int stall_reader_in;

/* A reader on its CPU that never ends (the run ends at the stall). */
static int exp_stall_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	smp_store_release(&stall_reader_in, 1);
	for (;;)
		arch_cpu_relax();
	return 0;
}

/*
 * hook_exp_stall (tests/xfail/tree_exp_stall.scn): an expedited grace
 * period held by a CPU in a reader that never ends (cpu 2) and by a task
 * preempted in another (on cpu 1).  After rcu_cpu_stall_timeout the
 * expedited stall report must name both.  The grace period can never
 * end: give up after 10 s, failing.
 */
KTEST_HOOK(hook_exp_stall)
{
	static struct preempted_reader p;

	TREE_ONLY();
	if (num_online_cpus() < 3) {
		ktap_diag("needs 3 CPUs");
		return KTEST_SKIP;
	}
	if (preempted_reader_start(&p, 1, "exp-stall-preempted"))
		return 1;
	kthread_run(exp_stall_reader, NULL, 2, "exp-stall-reader");
	if (KT_EXPECT(poll_until(stall_reader_in), "reader on cpu 2"))
		return 1;
	exp_done_flag = 0;
	kthread_run(exp_waiter, NULL, 3 % num_online_cpus(),
		    "exp-stall-caller");
	for (int i = 0; i < 10000 && !exp_done_flag; i++)
		msleep(1);
	ktap_diag(exp_done_flag ?
		  "an expedited grace period ended under two readers" :
		  "no expedited grace period in 10 s, as the readers demand");
	return 1;
}

/* ------------------------------------------------------------------ */

/*
 * The expedited grace period started by exp_waiter() has ended (1), or
 * its caller sleeps while the tree waits on ntasks blocked tasks of
 * cpu's leaf alone (0), or neither came (-1).
 */
static int exp_waits_on_tasks(struct task *caller, int cpu, int ntasks)
{
	if (!poll_until(READ_ONCE(exp_done_flag) ||
			(task_sleeping(caller) &&
			 exp_waits_only_on(cpu, false, ntasks))))
		return -1;
	return READ_ONCE(exp_done_flag) ? 1 : 0;
}

/*
 * Readers preempted inside their critical sections (not asleep: each
 * gives its CPU to a hog at preempt_enable()) hold an expedited grace
 * period.  Two are queued on cpu x's leaf before it starts; their CPU's
 * bit is reported by the hogs, so it waits on the two tasks alone, still
 * on the second once the first unlocks, and ends at the second's unlock.
 */
KTEST(rcu_tree_exp_preempted_readers)
{
	static struct preempted_reader p[2];
	struct task *caller;
	int fail = 0, x = -1, cpu, w;

	TREE_SMP_ONLY();
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id()) {
			x = cpu;
			break;
		}
	fail |= preempted_reader_start(&p[0], x, "exp-preempted-0");
	fail |= preempted_reader_start(&p[1], x, "exp-preempted-1");
	if (fail)
		goto out;
	exp_done_flag = 0;
	caller = kthread_run(exp_waiter, NULL, smp_processor_id(),
			     "exp-waiter");
	for (int n = 2; n > 0; n--) {
		w = exp_waits_on_tasks(caller, x, n);
		fail |= KT_EXPECT(w != 1,
				  "expedited GP ended under %d readers preempted on cpu %d",
				  n, x);
		fail |= KT_EXPECT(w != -1,
				  "expedited GP neither ended nor waited on %d readers preempted on cpu %d alone",
				  n, x);
		if (!w)
			ktap_diag("expedited GP waits on the %d tasks preempted in readers on cpu %d alone",
				  n, x);
		fail |= KT_EXPECT(READ_ONCE(p[2 - n].task->rcu_blocks_exp),
				  "%s holds the expedited GP",
				  p[2 - n].task->name);
		fail |= preempted_reader_stop(&p[2 - n]);
	}
	fail |= KT_EXPECT(poll_until(exp_done_flag),
			  "expedited GP ends after the last unlock");
	return fail;
out:
	preempted_reader_stop(&p[0]);
	preempted_reader_stop(&p[1]);
	return fail;
}

/* ------------------------------------------------------------------ */

/*
 * A reader interrupted by the expedited IPI (rcu_exp_handler() finds it
 * inside: the CPU owes the grace period, the task gets exp_hint) and then
 * unlocked on the same CPU, never preempted, must report the CPU's
 * quiescent state at that unlock (rcu_read_unlock_special() with IRQs and
 * preemption on: in place), not at the CPU's next tick or switch.  Read
 * with IRQs off right after the unlock, so that no tick can have done it:
 * the CPU owes nothing and its bit in the leaf's expmask is clear.  The
 * grace period must not end before the unlock.  Every other round the
 * reader is preempted after the IPI, before its unlock: the context
 * switch, which queues it holding the grace period, must report what
 * the CPU itself owed (rcu_tree_note_context_switch()).
 */
static struct {
	bool preempt;		/* preempted after the IPI, then unlocked */
	volatile int locked, done;
	volatile int ipi_seen, blocked, exp_done_before_unlock;
	volatile int unlock_cpu, owed_after, bit_after;
	volatile int owed_after_switch, bit_after_switch;
} eu;

/* Does the reader's CPU still owe the expedited GP (IRQs off)? */
static void eu_owed(struct rcu_tree_data *rdp, volatile int *owed,
		    volatile int *bit)
{
	unsigned long flags;

	local_irq_save(flags);
	*owed = READ_ONCE(rdp->exp_deferred_qs);
	*bit = !!(READ_ONCE(rdp->mynode->expmask) & rdp->grpmask);
	local_irq_restore(flags);
}

static int eu_reader(void *arg)
{
	struct rcu_tree_data *rdp =
		&rcu_tree_data[raw_smp_processor_id()];	/* pinned */
	struct task *t = current;
	unsigned long flags;
	u64 ipis, t0;

	(void)arg;
	rcu_read_lock();
	ipis = READ_ONCE(rdp->exp_ipis);
	smp_store_release(&eu.locked, 1);
	/* Busy and preemptible, inside the reader, until the IPI lands. */
	t0 = ktime_get_ns();
	while (READ_ONCE(rdp->exp_ipis) == ipis &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
	eu.ipi_seen = READ_ONCE(rdp->exp_ipis) != ipis;
	if (eu.preempt) {
		/*
		 * The switch queues us, holding the grace period, and
		 * reports the CPU's own share, which the IPI left owed.
		 */
		preempt_self();
		eu_owed(rdp, &eu.owed_after_switch, &eu.bit_after_switch);
	}
	eu.blocked = READ_ONCE(t->rcu_read_unlock_special.b.blocked);
	eu.exp_done_before_unlock = smp_load_acquire(&exp_done_flag);
	rcu_read_unlock();
	local_irq_save(flags);
	eu.unlock_cpu = raw_smp_processor_id();
	local_irq_restore(flags);
	eu_owed(rdp, &eu.owed_after, &eu.bit_after);
	smp_store_release(&eu.done, 1);
	return 0;
}

KTEST(rcu_tree_exp_reader_unlock)
{
	int fail = 0, self, x = -1, cpu;

	TREE_SMP_ONLY();
	self = raw_smp_processor_id();
	for_each_online_cpu(cpu)
		if (cpu != self)
			x = cpu;
	for (int round = 0; round < 4 && !fail; round++) {
		memset((void *)&eu, 0, sizeof(eu));
		eu.preempt = round & 1;
		exp_done_flag = 0;
		kthread_run(eu_reader, NULL, x, "exp-unlock-reader");
		fail |= KT_EXPECT(poll_until(eu.locked), "reader on cpu%d", x);
		kthread_run(exp_waiter, NULL, self, "exp-waiter");
		fail |= KT_EXPECT(poll_until(eu.done) &&
				  poll_until(exp_done_flag),
				  "round %d: reader or expedited GP never done",
				  round);
		if (fail)
			break;
		/* Preempted unasked: the blocked path, not this one. */
		if (eu.blocked && !eu.preempt)
			continue;
		fail |= KT_EXPECT(!eu.preempt ||
				  (!eu.owed_after_switch && !eu.bit_after_switch),
				  "round %d: after the switch of the reader its IPI interrupted, cpu%d %s",
				  round, x, eu.owed_after_switch ?
				  "still owes the expedited GP" :
				  "still has its bit in the leaf's expmask");
		fail |= KT_EXPECT(eu.ipi_seen,
				  "round %d: no expedited IPI reached cpu%d's reader",
				  round, x);
		fail |= KT_EXPECT(!eu.exp_done_before_unlock,
				  "round %d: expedited GP ended under cpu%d's reader",
				  round, x);
		fail |= KT_EXPECT(eu.unlock_cpu == x, "round %d: unlocked on cpu%d",
				  round, eu.unlock_cpu);
		fail |= KT_EXPECT(!eu.owed_after && !eu.bit_after,
				  "round %d: right after the unlock of the reader its IPI interrupted, cpu%d %s",
				  round, x, eu.owed_after ?
				  "still owes the expedited GP" :
				  "still has its bit in the leaf's expmask");
	}
	return fail;
}
