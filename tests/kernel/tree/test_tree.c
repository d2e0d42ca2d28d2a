// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the tree itself (rcu/tree/tree.c, tree_plugin.c; they SKIP
 * under rcu=rcupreempt):
 *   rcu_tree_polled           the polled API against a held reader
 *   rcu_tree_blocked_reader   a preempted reader sits on blkd_tasks and
 *                             holds the grace period
 *   rcu_tree_idle_leaves      an idle leaf's CPUs: one counter read per
 *                             grace period each, no IPI, no tick
 *   rcu_tree_propagation      with rcu_fanout_leaf=2 on 8 CPUs (three
 *                             levels), a busy CPU's bit holds its leaf,
 *                             the leaf's bit its parent's, up to the root
 * Context tracking and expedited grace periods have their own files.
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

KTEST(rcu_tree_polled)
{
	unsigned long c1, c2;
	int fail = 0, cpu;
	u64 t0;

	TREE_ONLY();
	/* A cookie from get is done only after a grace period. */
	c1 = get_state_synchronize_rcu();
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c1),
			  "fresh cookie %lu already done (gp_seq %lu)", c1,
			  READ_ONCE(rcu_state.gp_seq));
	synchronize_rcu();
	fail |= KT_EXPECT(poll_state_synchronize_rcu(c1),
			  "cookie %lu not done after synchronize_rcu", c1);
	/* cond_synchronize_rcu() on a done cookie does not wait. */
	t0 = rcu_batches_completed();
	cond_synchronize_rcu(c1);
	fail |= KT_EXPECT(rcu_batches_completed() == (long)t0 ||
			  rcu_batches_completed() == (long)t0 + 1,
			  "cond_synchronize_rcu waited on a done cookie");

	/* A held reader keeps start_poll's cookie undone. */
	cpu = num_online_cpus() > 1 ? find_idle_cpu(-1) : -1;
	if (cpu < 0)
		cpu = raw_smp_processor_id();
	held_start(cpu, cpu == raw_smp_processor_id());
	u64 reads0 = READ_ONCE(rcu_tree_data[cpu].n_fqs_reads);

	c2 = start_poll_synchronize_rcu();
	/*
	 * Until an FQS scan has read the reader's CPU (up to 5 s, a bound
	 * on a host stall), not a fixed 50 ms: a scan that wrongly excuses
	 * it was caught only if the host ran one within those 50 ms.  Then
	 * 50 ms more for the GP it would wrongly end.  A reader on our own
	 * CPU is never scanned: there the 50 ms alone remain.
	 */
	t0 = ktime_get_ns();
	while (cpu != raw_smp_processor_id() &&
	       READ_ONCE(rcu_tree_data[cpu].n_fqs_reads) == reads0 &&
	       !poll_state_synchronize_rcu(c2) &&
	       ktime_get_ns() - t0 < 5 * NSEC_PER_SEC)
		msleep(1);
	msleep(50);
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c2),
			  "cookie %lu done under a reader held on cpu %d", c2,
			  cpu);
	fail |= held_stop();
	t0 = ktime_get_ns();
	while (!poll_state_synchronize_rcu(c2) &&
	       ktime_get_ns() - t0 < 2 * NSEC_PER_SEC)
		msleep(1);
	fail |= KT_EXPECT(poll_state_synchronize_rcu(c2),
			  "start_poll's grace period never came (cookie %lu, gp_seq %lu)",
			  c2, READ_ONCE(rcu_state.gp_seq));
	/* cond_synchronize_rcu() on a fresh cookie waits for a GP. */
	c2 = get_state_synchronize_rcu();
	cond_synchronize_rcu(c2);
	fail |= KT_EXPECT(poll_state_synchronize_rcu(c2),
			  "cond_synchronize_rcu returned early");
	ktap_diag("polled: cookies %lu, %lu; gp_seq %lu", c1, c2,
		  READ_ONCE(rcu_state.gp_seq));
	return fail;
}

/* ------------------------------------------------------------------ */

/* A bound on a host stall of the kthread's vCPU, not a figure. */
#define BLOCKED_GP_MAX_MS	2000

static int blocked_reader_round(int cpu)
{
	int fail = 0;
	unsigned long c, flags;
	struct rcu_node *rnp;
	bool queued, holds;
	u64 t0;

	/*
	 * It is preempted in its reader, again and again (a reader must
	 * not sleep): switched out, queued on its leaf.  Its unlock runs
	 * fully enabled, and it looks at once whether that unlock took it
	 * off the list: the slow path's own work, not a later tick's or
	 * switch's (those are rcu_tree_deferred_qs's).
	 */
	held_start(cpu, true);
	c = start_poll_synchronize_rcu();
	rnp = rcu_tree_data[cpu].mynode;
	/*
	 * Until the leaf has the grace period and the reader is queued
	 * holding it (up to a host stall of either vCPU), then 50 ms for
	 * a grace period that would wrongly end under it.  A fixed 50 ms
	 * alone left the grace period unstarted on a loaded host.
	 */
	poll_until(leaf_has_gp(rnp, c) && held_queued(rnp, &holds) && holds);
	msleep(50);
	queued = held_queued(rnp, &holds);
	fail |= KT_EXPECT(queued, "reader not on cpu %d's leaf blkd_tasks",
			  cpu);
	fail |= KT_EXPECT(holds, "queued reader does not hold the GP");
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c),
			  "grace period ended under a preempted reader");
	/* Release: pairs with the reader's acquire (the flag alone). */
	smp_store_release(&held.release, 1);
	fail |= KT_EXPECT(wait_flag(&held.unlocked, HOST_STALL_MS),
			  "unlocked");
	fail |= KT_EXPECT(held.left_at_unlock,
			  "the unlock left the task on blkd_tasks");
	t0 = ktime_get_ns();
	while (!poll_state_synchronize_rcu(c) &&
	       ktime_get_ns() - t0 < BLOCKED_GP_MAX_MS * NSEC_PER_MSEC)
		msleep(1);
	fail |= KT_EXPECT(poll_state_synchronize_rcu(c),
			  "grace period did not end at the reader's unlock (still held %lu ms later)",
			  (ktime_get_ns() - t0) / NSEC_PER_MSEC);
	fail |= held_stop();
	synchronize_rcu();
	spin_lock_irqsave(&rnp->lock, flags);
	fail |= KT_EXPECT(list_empty(&rnp->blkd_tasks) && !rnp->n_gp_tasks,
			  "blkd_tasks left non-empty (%d hold the GP)",
			  rnp->n_gp_tasks);
	spin_unlock_irqrestore(&rnp->lock, flags);
	ktap_diag("reader preempted on cpu %d: queued on leaf %d-%d, held the grace period until it unlocked",
		  cpu, rnp->grplo, rnp->grphi);
	return fail;
}

#define BLOCKED_ROUNDS	5

KTEST(rcu_tree_blocked_reader)
{
	int cpu;

	TREE_ONLY();
	cpu = num_online_cpus() > 1 ? find_idle_cpu(-1) : 0;
	if (cpu < 0)
		cpu = 0;
	/*
	 * A round whose unlock was followed at once by a tick or a switch
	 * proves nothing about the slow path (they do its work): again.
	 */
	for (int round = 1;; round++) {
		int fail = blocked_reader_round(cpu);

		if (fail || !held.disturbed_at_unlock)
			return fail;
		if (round == BLOCKED_ROUNDS) {
			ktap_diag("a tick or a switch came right after each of %d unlocks: the slow path's own work was never seen",
				  round);
			return KTEST_SKIP;
		}
		ktap_diag("round %d: a tick or a switch came between the unlock and the look: again",
			  round);
	}
}

/* ------------------------------------------------------------------ */

/*
 * What an idle leaf costs: with every CPU but this one idle, each CPU of
 * a leaf other than ours has its counter read exactly once per grace
 * period (the first FQS scan finds it in an extended quiescent state and
 * reports for it), and takes no IPI, no tick and no interrupt.  A leaf's
 * CPUs are read under the leaf's lock, in one pass, by the kthread.
 */
#define IDLE_LEAF_GPS	100

KTEST(rcu_tree_idle_leaves)
{
	static u64 reads0[NR_CPUS], excused0[NR_CPUS];
	struct cpu_counts *before;
	struct rcu_node *rnp, *mine;
	int self, fail = 0, leaves = 0;
	u64 ipis0, g0, gps;

	TREE_ONLY();
	if (rcu_state.num_levels < 2) {
		ktap_diag("one leaf (%d CPUs, rcu_fanout_leaf=%u): no idle leaf",
			  num_online_cpus(), rcu_fanout_leaf);
		return KTEST_SKIP;
	}
	preempt_disable();
	self = raw_smp_processor_id();
	preempt_enable();
	mine = rcu_tree_data[self].mynode;
	wait_others_tickless_idle(self);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		reads0[cpu] = READ_ONCE(rcu_tree_data[cpu].n_fqs_reads);
		excused0[cpu] = READ_ONCE(rcu_tree_data[cpu].n_fqs_excused);
	}
	before = cpu_counts_snap();
	ipis0 = exp_ipis_others(self);
	g0 = READ_ONCE(rcu_state.n_gp_completed);
	for (int i = 0; i < IDLE_LEAF_GPS; i++)
		synchronize_rcu();
	gps = READ_ONCE(rcu_state.n_gp_completed) - g0;
	fail |= idle_cpus_quiet(self, before, ipis0, "idle leaves");
	rcu_for_each_leaf_node(rnp) {
		u64 reads = 0, excused = 0, lo = ~0ULL, hi = 0;
		int n = 0;

		if (rnp == mine)
			continue;
		for (int cpu = rnp->grplo; cpu <= rnp->grphi; cpu++) {
			struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
			u64 r = READ_ONCE(rdp->n_fqs_reads) - reads0[cpu];

			if (!cpu_online(cpu))
				continue;
			n++;
			reads += r;
			excused += READ_ONCE(rdp->n_fqs_excused) -
				   excused0[cpu];
			lo = min(lo, r);
			hi = max(hi, r);
		}
		leaves++;
		ktap_diag("leaf %d-%d: %d idle CPUs, %lu GPs: %lu counter reads (%lu to %lu per CPU), %lu quiescent states reported for them",
			  rnp->grplo, rnp->grphi, n, gps, reads, lo, hi,
			  excused);
		fail |= KT_EXPECT(lo == gps && hi == gps && excused == reads,
				  "leaf %d-%d: each idle CPU read %lu to %lu times in %lu GPs, %lu of %lu reads excused it",
				  rnp->grplo, rnp->grphi, lo, hi, gps, excused,
				  reads);
	}
	ktap_diag("%d idle leaves of %d rcu_nodes (%d levels): one counter read per idle CPU per GP, in the kthread",
		  leaves, rcu_state.num_nodes, rcu_state.num_levels);
	return fail;
}

/*
 * cpu's leaf holds the grace period for cpu's reader alone: through cpu's
 * bit, or, once the reader was preempted and cpu reported (FQS asks a CPU
 * that holds a grace period 9 ms to reschedule: rcu_urgent_qs), through
 * the reader queued on the leaf's blkd_tasks.
 */
static bool leaf_held_by_reader(int cpu)
{
	struct rcu_node *leaf = rcu_tree_data[cpu].mynode;
	unsigned long mask = READ_ONCE(leaf->qsmask);
	bool holds;

	if (mask == rcu_tree_data[cpu].grpmask)
		return true;
	return !mask && held_queued(leaf, &holds) && holds;
}

/*
 * The state rcu_tree_propagation checks, reached: cpu's leaf waits for
 * cpu's reader alone, and every node that does not hold cpu has reported.
 */
static bool propagation_settled(int cpu)
{
	struct rcu_node *rnp;

	if (!leaf_held_by_reader(cpu))
		return false;
	rcu_for_each_node_breadth_first(rnp)
		if ((rnp->grplo > cpu || cpu > rnp->grphi) &&
		    READ_ONCE(rnp->qsmask))
			return false;
	return true;
}

KTEST(rcu_tree_propagation)
{
	int fail = 0, cpu = -1, self, lvl;
	unsigned long c;
	struct rcu_node *rnp, *leaf;

	TREE_ONLY();
	if (rcu_state.num_levels < 2 || num_online_cpus() < 4) {
		ktap_diag("one-level tree (%d CPUs, rcu_fanout_leaf=%u): propagation not exercised",
			  num_online_cpus(), rcu_fanout_leaf);
		return KTEST_SKIP;
	}
	self = raw_smp_processor_id();
	/* The last CPU: its leaf and every ancestor but the root differ
	 * from ours. */
	cpu = num_online_cpus() - 1;
	if (cpu == self)
		cpu--;
	held_start(cpu, false);
	c = start_poll_synchronize_rcu();
	/*
	 * Wait for the grace period to start and the other CPUs to report
	 * (up to 5 s, a bound on a host stall), not a fixed 30 ms: a host
	 * that delayed the kthread or the FQS scans that long failed a
	 * correct kernel.  Then 30 ms more, so that a report that would
	 * wrongly climb past cpu's leaf has long done so when we look.
	 */
	u64 t0 = ktime_get_ns();

	while (!propagation_settled(cpu) && !poll_state_synchronize_rcu(c) &&
	       ktime_get_ns() - t0 < 5 * NSEC_PER_SEC)
		msleep(1);
	msleep(30);
	leaf = rcu_tree_data[cpu].mynode;
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c),
			  "GP ended under a reader on busy cpu %d", cpu);
	fail |= KT_EXPECT(leaf_held_by_reader(cpu),
			  "leaf %d-%d qsmask 0x%lx, want only cpu %d's bit, or none with its reader queued holding the grace period",
			  leaf->grplo, leaf->grphi, READ_ONCE(leaf->qsmask),
			  cpu);
	lvl = 0;
	for (rnp = leaf; rnp->parent; rnp = rnp->parent, lvl++)
		fail |= KT_EXPECT(READ_ONCE(rnp->parent->qsmask) == rnp->grpmask,
				  "node %d-%d qsmask 0x%lx, want only child %d-%d's bit 0x%lx",
				  rnp->parent->grplo, rnp->parent->grphi,
				  READ_ONCE(rnp->parent->qsmask), rnp->grplo,
				  rnp->grphi, rnp->grpmask);
	rcu_for_each_node_breadth_first(rnp) {
		if (rnp->grplo <= cpu && cpu <= rnp->grphi)
			continue;
		fail |= KT_EXPECT(READ_ONCE(rnp->qsmask) == 0,
				  "node %d-%d (level %d) not reported: qsmask 0x%lx",
				  rnp->grplo, rnp->grphi, rnp->level,
				  READ_ONCE(rnp->qsmask));
	}
	fail |= held_stop();
	synchronize_rcu();
	fail |= KT_EXPECT(poll_state_synchronize_rcu(c), "GP after unlock");
	ktap_diag("%d levels, %d rcu_nodes: cpu %d's reader held leaf %d-%d and %d ancestors; every other node reported",
		  rcu_state.num_levels, rcu_state.num_nodes, cpu, leaf->grplo,
		  leaf->grphi, lvl);
	return fail;
}

/*
 * tests/xfail/tree_kthread_starved.scn: the grace-period kthread cannot
 * run (its CPU spins with preemption off) while a reader on another CPU
 * holds the grace period; the stall report must name both the CPU and
 * the starved kthread.  Fails by design.
 */
KTEST_HOOK(hook_starve_gp_kthread)
{
	unsigned long c;
	int cpu;
	u64 t0;

	TREE_ONLY();
	if (num_online_cpus() < 2)
		return KTEST_SKIP;
	cpu = find_idle_cpu(-1);
	if (cpu < 0)
		return 1;
	held_start(cpu, false);
	c = start_poll_synchronize_rcu();
	/*
	 * Until the grace period has reached the reader's leaf (up to
	 * HOST_STALL_MS), not a fixed 20 ms: under load the kthread was
	 * still in rcu_gp_init() when its CPU was taken, and the stall
	 * report then named no holdout at all.
	 */
	t0 = ktime_get_ns();
	while (!leaf_has_gp(rcu_tree_data[cpu].mynode, c) &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	preempt_disable();
	t0 = ktime_get_ns();
	while (ktime_get_ns() - t0 < 6 * NSEC_PER_SEC)
		arch_cpu_relax();
	preempt_enable();
	held_stop();
	ktap_diag("the grace-period kthread was kept off its CPU for 6 s");
	return 1;
}

/*
 * tests/xfail/tree_sleep_in_reader.scn: a task sleeps inside its reader,
 * which rcu_tree_note_context_switch() must report with a WARNING (and
 * panic_on_warn ends the run there).  Fails by design either way: if
 * the sleep ends with no WARNING, the hook says so and fails.
 */
KTEST_HOOK(hook_sleep_in_reader)
{
	TREE_ONLY();
	rcu_read_lock();
	msleep(10);
	rcu_read_unlock();
	ktap_diag("a task slept 10 ms in its reader and no WARNING came");
	return 1;
}
