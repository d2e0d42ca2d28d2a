// SPDX-License-Identifier: GPL-2.0
/*
 * Two interleavings that let synchronize_rcu_expedited() return under a
 * reader that began before it (issue 23), forced step by step through the
 * test points of rcu/tree/tree_exp.c (rcu_exp_test_hook).  A caller runs
 * two expedited grace periods, GP 1 and GP 2; a reader on CPU y begins
 * between them, and GP 2 must wait for it.  A report left over from GP 1
 * must not count for GP 2.
 *
 *   rcu_tree_exp_stale_climb    (A) CPU x's IPI handler reports during
 *                               GP 1 and is held after it released x's
 *                               leaf, before it locks the parent, until
 *                               GP 1 has ended and GP 2 has set the
 *                               parent's bit.  Needs a leaf apart from
 *                               this CPU's and the caller's: 4 or more
 *                               CPUs with rcu_fanout_leaf=2 (else SKIP).
 *   rcu_tree_exp_stale_unblock  (B) a reader preempted on x leaves
 *                               blkd_tasks during GP 1 and is held before
 *                               its expedited report, while y's reader
 *                               ends GP 1 and GP 2 starts; GP 2 is held
 *                               before its selection until the task has
 *                               finished.  4 or more CPUs, any tree.
 *
 * The cast: this test on CPU o, the caller on c, on x a spinner (and in B
 * the preempted reader), the reader on y; x and y share a leaf.  Every
 * step waits for the previous one's effect, bounded by HOST_STALL_MS, so
 * the verdict does not depend on the host's speed: GP 2 either returns
 * while y's reader runs (failure), or its caller sleeps while the tree
 * waits on y alone (pass).
 */
#include "asm/arch.h"
#include "kernel/ktap.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/tree/util.h"

/* Longest a test point holds a CPU with IRQs off: < watchdog_thresh. */
#define RACE_HOLD_MAX_MS	4000

enum race_mode {
	RACE_OFF,
	RACE_CLIMB,		/* A */
	RACE_UNBLOCK,		/* B */
};

static struct race {
	int mode;		/* enum race_mode: what the hook does */
	int o, c, x, y;
	struct rcu_node *leaf;	/* x's and y's */
	struct task *caller;	/* on c: GP 1, then GP 2 */
	struct preempted_reader t;	/* B: on x, with its hog */
	volatile int gp;	/* the caller's grace period: 1 or 2 */
	volatile int gp_done[3];
	volatile int go[3];	/* the caller may start GP n */
	volatile int sent[3];	/* GP n sent its IPIs to the leaf */
	volatile int caller_exit;

	/* A, on x: a spinner outside any reader. */
	volatile u64 spins;
	volatile int spin_stop;

	/* On y: reader n runs from r_go[n] until r_release[n]. */
	struct completion r_go[3];
	volatile int r_in, r_release[3], r_exited;

	/* A: x's handler, held between its leaf and the parent. */
	volatile int x_cleared;	/* the caller saw x's bit clear ... */
	volatile u64 spins_then; /* ... and the spinner's count then */
	volatile int climb_held, climb_go;

	/* B: the task, held after leaving blkd_tasks; GP 2, held unselected. */
	volatile int t_held, t_go;
	volatile int started, started_go;
} race;

/* Spin (IRQs as they are) until *flag is set, at most ms. */
static void race_hold(volatile int *flag, unsigned int ms)
{
	(void)wait_flag(flag, ms);
}

static void race_hook(enum rcu_exp_hook_point point, struct rcu_node *rnp)
{
	bool caller = current == race.caller;
	unsigned long xbit = rcu_tree_data[race.x].grpmask;

	switch (point) {
	case RCU_EXP_HOOK_CLIMB:
		/* A: x's own report leaving the leaf during GP 1, once. */
		if (race.mode == RACE_CLIMB && rnp == race.leaf &&
		    raw_smp_processor_id() == race.x && race.gp == 1 &&
		    !race.climb_held) {
			smp_store_release(&race.climb_held, 1);
			race_hold(&race.climb_go, RACE_HOLD_MAX_MS);
		}
		break;
	case RCU_EXP_HOOK_IPIS_SENT:
		if (!caller || rnp != race.leaf)
			break;
		if (race.mode == RACE_CLIMB && race.gp == 1) {
			/*
			 * The caller's own report for the leaf waits until
			 * x's handler has cleared x's bit: from then on the
			 * handler either climbs (and is held above) or
			 * returns to the spinner, whose count moves.
			 */
			u64 t0 = ktime_get_ns();

			while ((READ_ONCE(rnp->expmask) & xbit) &&
			       ktime_get_ns() - t0 <
			       HOST_STALL_MS * NSEC_PER_MSEC)
				arch_cpu_relax();
			race.spins_then = READ_ONCE(race.spins);
			smp_store_release(&race.x_cleared, 1);
		}
		smp_store_release(&race.sent[race.gp], 1);
		break;
	case RCU_EXP_HOOK_STARTED:
		/* B: GP 2, set up but not selected, waits for the task. */
		if (race.mode == RACE_UNBLOCK && caller && race.gp == 2) {
			smp_store_release(&race.started, 1);
			race_hold(&race.started_go, HOST_STALL_MS);
		}
		break;
	case RCU_EXP_HOOK_UNBLOCKED:
		/* B: the task left blkd_tasks, before any report it owes. */
		if (race.mode == RACE_UNBLOCK && current == race.t.task) {
			smp_store_release(&race.t_held, 1);
			race_hold(&race.t_go, RACE_HOLD_MAX_MS);
		}
		break;
	default:
		break;
	}
}

static int race_caller(void *arg)
{
	(void)arg;
	for (int n = 1; n <= 2; n++) {
		/* Not before the test stored race.caller: the hook's key. */
		while (!smp_load_acquire(&race.go[n]))
			msleep(1);
		WRITE_ONCE(race.gp, n);
		synchronize_rcu_expedited();
		smp_store_release(&race.gp_done[n], 1);
	}
	/* Alive until told: the test reads our state until then. */
	while (!smp_load_acquire(&race.caller_exit))
		msleep(1);
	return 0;
}

static int race_spinner(void *arg)
{
	(void)arg;
	while (!smp_load_acquire(&race.spin_stop)) {
		WRITE_ONCE(race.spins, race.spins + 1);
		arch_cpu_relax();
	}
	return 0;
}

/* Readers first..2 on y, each when told; asleep (y idle) in between. */
static int race_reader(void *arg)
{
	for (int n = (int)(long)arg; n <= 2; n++) {
		wait_for_completion(&race.r_go[n]);
		rcu_read_lock();
		smp_store_release(&race.r_in, n);
		while (!smp_load_acquire(&race.r_release[n]))
			arch_cpu_relax();
		rcu_read_unlock();
		smp_store_release(&race.r_in, 0);
	}
	smp_store_release(&race.r_exited, 1);
	return 0;
}

/*
 * Choose the cast: o is this CPU, c the first other online CPU, x and y
 * the first two online CPUs of one leaf that are neither; with apart,
 * that leaf must cover neither o nor c.  False if there is none.
 */
static bool race_cast(bool apart)
{
	struct rcu_node *rnp;
	int cpu;

	race.o = raw_smp_processor_id();
	race.c = -1;
	for_each_online_cpu(cpu)
		if (cpu != race.o) {
			race.c = cpu;
			break;
		}
	if (race.c < 0)
		return false;
	rcu_for_each_leaf_node(rnp) {
		int n = 0;

		if (apart && ((race.o >= rnp->grplo && race.o <= rnp->grphi) ||
			      (race.c >= rnp->grplo && race.c <= rnp->grphi)))
			continue;
		for (cpu = rnp->grplo; cpu <= rnp->grphi && n < 2; cpu++) {
			if (!cpu_online(cpu) || cpu == race.o || cpu == race.c)
				continue;
			if (n++ == 0)
				race.x = cpu;
			else
				race.y = cpu;
		}
		if (n == 2) {
			race.leaf = rnp;
			return true;
		}
	}
	return false;
}

static void race_begin(int mode)
{
	struct race fresh = { .o = race.o, .c = race.c, .x = race.x,
			      .y = race.y, .leaf = race.leaf };

	race = fresh;
	for (int n = 0; n < 3; n++)
		init_completion(&race.r_go[n]);
	race.mode = mode;
	WRITE_ONCE(rcu_exp_test_hook, race_hook);
	ktap_diag("cpus: test %d, caller %d, x %d, y %d (leaf %d-%d)",
		  race.o, race.c, race.x, race.y, race.leaf->grplo,
		  race.leaf->grphi);
}

/* Let every thread and held point go, wait for the threads, unhook. */
static int race_end(bool reader_started)
{
	int fail = 0;

	smp_store_release(&race.climb_go, 1);
	smp_store_release(&race.started_go, 1);
	smp_store_release(&race.t_go, 1);
	for (int n = 1; n <= 2; n++) {
		smp_store_release(&race.go[n], 1);
		smp_store_release(&race.r_release[n], 1);
		complete(&race.r_go[n]);
	}
	if (race.caller)
		fail |= KT_EXPECT(poll_until(race.gp_done[2]),
				  "the caller's GP 2 ended (GP 1 %d)",
				  race.gp_done[1]);
	smp_store_release(&race.caller_exit, 1);
	if (race.t.task)
		fail |= preempted_reader_stop(&race.t);
	if (reader_started)
		fail |= KT_EXPECT(poll_until(race.r_exited),
				  "the reader on cpu %d exited", race.y);
	smp_store_release(&race.spin_stop, 1);
	race.mode = RACE_OFF;
	WRITE_ONCE(rcu_exp_test_hook, NULL);
	return fail;
}

/*
 * GP 2's outcome once it has one: 1 if it returned (under y's reader), 0
 * if its caller sleeps while the tree waits on y alone, -1 if neither
 * came within HOST_STALL_MS.  Sleeping is the caller's state once it
 * waits for a grace period that has not ended: it sets gp_done[2] before
 * any later sleep, so a sleeping caller with gp_done[2] clear waits.
 */
static int gp2_outcome(void)
{
	u64 t0 = ktime_get_ns();

	for (;;) {
		if (smp_load_acquire(&race.gp_done[2]))
			return 1;
		if (task_sleeping(race.caller) &&
		    exp_waits_only_on(race.y, true, 0))
			return smp_load_acquire(&race.gp_done[2]) ? 1 : 0;
		if (ktime_get_ns() - t0 > HOST_STALL_MS * NSEC_PER_MSEC)
			return -1;
		msleep(1);
	}
}

static int gp2_verdict(const char *stale)
{
	int outcome = gp2_outcome(), fail;

	fail = KT_EXPECT(outcome != 1,
			 "expedited GP 2 ended under the reader on cpu %d that began before it (%s)",
			 race.y, stale);
	fail |= KT_EXPECT(outcome != -1,
			  "expedited GP 2 neither ended nor settled on cpu %d (root expmask 0x%lx)",
			  race.y, READ_ONCE(rcu_get_root()->expmask));
	if (!outcome)
		ktap_diag("GP 2 waits for the reader on cpu %d alone", race.y);
	smp_store_release(&race.r_release[2], 1);
	fail |= KT_EXPECT(poll_until(race.gp_done[2]),
			  "GP 2 ends after the reader on cpu %d", race.y);
	return fail;
}

KTEST(rcu_tree_exp_stale_climb)
{
	int fail = 0;
	bool held;
	u64 s;

	TREE_ONLY();
	if (num_online_cpus() < 4 || !race_cast(true)) {
		ktap_diag("needs a leaf apart from this CPU's and the caller's (rcu_fanout_leaf=2, 4+ CPUs)");
		return KTEST_SKIP;
	}
	race_begin(RACE_CLIMB);
	kthread_run(race_spinner, NULL, race.x, "race-spinner");
	kthread_run(race_reader, (void *)2L, race.y, "race-reader");
	fail |= KT_EXPECT(poll_until(READ_ONCE(race.spins) > 0),
			  "the spinner runs on cpu %d", race.x);
	/* y idle at GP 1: of the leaf's CPUs, GP 1 sends x alone an IPI. */
	fail |= KT_EXPECT(wait_tickless_idle(race.y), "cpu %d idle", race.y);
	if (fail)
		goto out;
	race.caller = kthread_run(race_caller, NULL, race.c, "race-caller");
	smp_store_release(&race.go[1], 1);
	if (KT_EXPECT(poll_until(race.gp_done[1]), "GP 1 ended"))
		goto out;
	fail |= KT_EXPECT(race.x_cleared, "GP 1 waited on cpu %d", race.x);
	/* x's handler: held between leaf and parent, or back to spinning. */
	fail |= KT_EXPECT(poll_until(race.climb_held ||
				    READ_ONCE(race.spins) != race.spins_then),
			  "cpu %d's handler came back or was held", race.x);
	held = READ_ONCE(race.climb_held);
	ktap_diag("GP 1 ended; cpu %d's report %s", race.x,
		  held ? "is held between its leaf and the parent" :
			 "did not leave the leaf (nothing left over)");
	complete(&race.r_go[2]);
	fail |= KT_EXPECT(poll_until(race.r_in == 2), "reader 2 began");
	smp_store_release(&race.go[2], 1);
	fail |= KT_EXPECT(poll_until(race.sent[2]), "GP 2 selected the leaf");
	if (fail)
		goto out;
	/* Let the held report go on; x's handlers are done when it spins. */
	s = READ_ONCE(race.spins);
	smp_store_release(&race.climb_go, 1);
	fail |= KT_EXPECT(poll_until(READ_ONCE(race.spins) != s),
			  "cpu %d back to its spinner", race.x);
	fail |= gp2_verdict(held ? "cpu x's report left over from GP 1 was let go" :
			    "no report left over");
out:
	return fail | race_end(true);
}

KTEST(rcu_tree_exp_stale_unblock)
{
	unsigned long ybit;
	int fail = 0;

	TREE_ONLY();
	if (num_online_cpus() < 4 || !race_cast(false)) {
		ktap_diag("needs 4 CPUs");
		return KTEST_SKIP;
	}
	race_begin(RACE_UNBLOCK);
	ybit = rcu_tree_data[race.y].grpmask;
	fail |= preempted_reader_start(&race.t, race.x, "race-preempted");
	kthread_run(race_reader, (void *)1L, race.y, "race-reader");
	complete(&race.r_go[1]);
	fail |= KT_EXPECT(poll_until(race.r_in == 1), "reader 1 began");
	if (fail)
		goto out;
	race.caller = kthread_run(race_caller, NULL, race.c, "race-caller");
	smp_store_release(&race.go[1], 1);
	/* GP 1 holds on the preempted task and on y; x has reported. */
	fail |= KT_EXPECT(poll_until(race.sent[1] &&
				    READ_ONCE(race.t.task->rcu_blocks_exp) &&
				    !(READ_ONCE(race.leaf->expmask) &
				      rcu_tree_data[race.x].grpmask)),
			  "GP 1 waits on the preempted task, not on cpu %d",
			  race.x);
	if (fail)
		goto out;
	smp_store_release(&race.t.unlock, 1);
	fail |= KT_EXPECT(poll_until(race.t_held),
			  "the task left blkd_tasks and was held");
	/* The task's exit did not empty the leaf: y still held GP 1. */
	fail |= KT_EXPECT(READ_ONCE(race.leaf->expmask) & ybit,
			  "cpu %d's bit set when the task left", race.y);
	smp_store_release(&race.r_release[1], 1);
	fail |= KT_EXPECT(poll_until(race.gp_done[1]), "GP 1 ended");
	complete(&race.r_go[2]);
	fail |= KT_EXPECT(poll_until(race.r_in == 2), "reader 2 began");
	smp_store_release(&race.go[2], 1);
	fail |= KT_EXPECT(poll_until(race.started), "GP 2 started");
	if (fail)
		goto out;
	/* The task finishes its unlock before GP 2 selects anything. */
	smp_store_release(&race.t_go, 1);
	fail |= KT_EXPECT(poll_until(race.t.done), "the task's unlock ended");
	smp_store_release(&race.started_go, 1);
	fail |= gp2_verdict("the preempted task's report of GP 1 was let go after GP 2 began");
out:
	return fail | race_end(true);
}

/*
 * hook_exp_stale_report (tests/xfail/tree_exp_stale_report.scn): a leaf's
 * report to its parent with no expedited grace period in progress, as a
 * report left over from an ended one would come.  The parent's bit is
 * clear: it must WARN (panic_on_warn ends the run there).  Getting past
 * the call means the report went by without a word.
 */
KTEST_HOOK(hook_exp_stale_report)
{
	struct rcu_node *leaf;

	TREE_ONLY();
	if (rcu_state.num_levels < 2) {
		ktap_diag("needs an inner rcu_node: rcu_fanout_leaf=2, 4+ CPUs");
		return KTEST_SKIP;
	}
	/* The last leaf: never this CPU's (CPU 0's) on a two-level tree. */
	leaf = &rcu_state.node[rcu_state.num_nodes - 1];
	ktap_diag("a report from leaf %d-%d, no expedited grace period running",
		  leaf->grplo, leaf->grphi);
	rcu_report_exp_rnp(leaf);
	ktap_diag("the report from leaf %d-%d reached its parent %d-%d, whose bit was clear, without a warning",
		  leaf->grplo, leaf->grphi, leaf->parent->grplo,
		  leaf->parent->grphi);
	return 1;
}
