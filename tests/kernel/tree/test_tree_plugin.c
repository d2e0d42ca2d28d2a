// SPDX-License-Identifier: GPL-2.0
/*
 * Consolidated readers and deferred quiescent states (rcu/tree/
 * tree_plugin.c, Linux 6.12's behaviour; they SKIP under rcu=rcupreempt
 * and on one CPU):
 *   rcu_tree_deferred_qs        a preempted reader whose unlock runs with
 *                               IRQs off, or preemption off, stays on
 *                               blkd_tasks and holds the grace period
 *                               while that region lasts (no report, no
 *                               wake-up in place), and the region's end
 *                               releases it soon after
 *   rcu_tree_preempt_off_region a CPU that spins with preemption off,
 *                               outside any reader, holds both a normal
 *                               and an expedited grace period until it
 *                               enables preemption: neither its tick nor
 *                               the expedited IPI reports a quiescent
 *                               state inside the region
 *   rcu_tree_reader_region      the same for a CPU that spins inside a
 *                               reader, normal grace period only: no
 *                               tick frees its bit before a context
 *                               switch queues it, holding the grace
 *                               period, on blkd_tasks
 *   rcu_tree_defer_qs_iw        two IRQs-off deferrals in a row that an
 *                               expedited grace period waits on each send
 *                               their self-IPI, the first one's landing
 *                               inside a new reader
 *   rcu_tree_softirq_reader     a reader in softirq context (an RCU
 *                               callback, over a preemptible task outside
 *                               any reader) that the tick asked for a
 *                               quiescent state leaves it to the end of
 *                               the softirq: the grace period that needs
 *                               its CPU does not end while the softirq
 *                               still runs
 * rcu_tree_blocked_reader (test_tree.c) checks the fully enabled unlock.
 */
#include "asm/arch.h"
#include "kernel/ktap.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/rcu/util.h"
#include "tests/kernel/tree/util.h"

/* A CPU other than ours and CPU 0 (the grace-period kthread's), or -1. */
static int other_cpu(void)
{
	int cpu, self = raw_smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != self && cpu != 0)
			return cpu;
	return -1;
}

/* rcu=tree and a CPU from other_cpu() in cpu, or the test is skipped. */
#define TREE_OTHER_CPU(cpu)						\
	do {								\
		TREE_ONLY();						\
		(cpu) = other_cpu();					\
		if ((cpu) < 0) {					\
			ktap_diag("needs a CPU other than ours and the kthread's"); \
			return KTEST_SKIP;				\
		}							\
	} while (0)

/*
 * Until the grace-period kthread has scanned three more times (a report
 * in place would have ended the grace period long before), or c is
 * done, or HOST_STALL_MS.
 */
static void wait_fqs_scans(unsigned long c)
{
	u64 scans0 = READ_ONCE(rcu_state.n_fqs_scans), t0 = ktime_get_ns();

	while (!poll_state_synchronize_rcu(c) &&
	       READ_ONCE(rcu_state.n_fqs_scans) - scans0 < 3 &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
}

/* An expedited grace period, in a thread of its own. */
struct exp_wait {
	volatile int done;
	volatile u64 end_ns;
};

static int exp_waiter(void *arg)
{
	struct exp_wait *w = arg;

	synchronize_rcu_expedited();
	w->end_ns = ktime_get_ns();
	/* Release: end_ns before done. */
	smp_store_release(&w->done, 1);
	return 0;
}

/*
 * Wait for c, up to HOST_STALL_MS after since, in 1 ms sleeps that
 * leave our CPU to the kthread and to the expedited waiter; *us: how
 * long after since it was seen done.  False if it never was.
 */
static bool gp_done_after(unsigned long c, u64 since, long long *us)
{
	while (!poll_state_synchronize_rcu(c) &&
	       ktime_get_ns() - since < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	*us = ((long long)ktime_get_ns() - (long long)since) /
	      (long long)NSEC_PER_USEC;
	return poll_state_synchronize_rcu(c);
}

/* The same for an expedited waiter. */
static bool exp_done_after(struct exp_wait *w, u64 since, long long *us)
{
	/* Acquire: pairs with the waiter's release (end_ns before done). */
	while (!smp_load_acquire(&w->done) &&
	       ktime_get_ns() - since < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	*us = w->done ? ((long long)w->end_ns - (long long)since) /
			(long long)NSEC_PER_USEC : -1;
	return w->done;
}

/*
 * One round: the held reader on cpu, preempted in its reader (queued on
 * blkd_tasks, holding a grace period), unlocks inside a region of kind
 * how.  While the region lasts, the task must still be queued and the
 * grace period must not end; once it ends, the grace period must.
 */
static int deferred_round(int cpu, enum held_unlock how, bool exp,
			  const char *what)
{
	struct rcu_node *rnp = rcu_tree_data[cpu].mynode;
	static struct exp_wait ew;
	int fail = 0;
	bool holds;
	unsigned long c;
	u64 t0, ipis0 = READ_ONCE(rcu_tree_data[cpu].exp_ipis);
	long long us;

	held.unlock = how;
	held_start(cpu, true);
	c = start_poll_synchronize_rcu();
	t0 = ktime_get_ns();
	while (!(held_queued(rnp, &holds) && holds) &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	fail |= KT_EXPECT(holds, "%s: the preempted reader does not hold the grace period",
			  what);
	if (exp) {
		/*
		 * It holds the expedited grace period too (queued), and its
		 * CPU owes it one (the IPI lands in the reader): the
		 * deferral sends the self-IPI, not only need_resched.
		 */
		ew = (struct exp_wait){ 0 };
		kthread_run(exp_waiter, &ew, raw_smp_processor_id(),
			    "exp-waiter");
		while (READ_ONCE(rcu_tree_data[cpu].exp_ipis) == ipis0 &&
		       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
			msleep(1);
	}
	/* Release: pairs with the reader's acquire (the flag alone). */
	smp_store_release(&held.release, 1);
	fail |= KT_EXPECT(wait_flag(&held.unlocked, HOST_STALL_MS),
			  "%s: unlocked", what);
	wait_fqs_scans(c);
	fail |= KT_EXPECT(held.blocked_in_region,
			  "%s: the unlock left blkd_tasks in place", what);
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c),
			  "%s: the grace period ended inside the region around the unlock",
			  what);
	fail |= KT_EXPECT(!exp || !READ_ONCE(ew.done),
			  "%s: the expedited grace period ended inside the region around the unlock",
			  what);
	/* Release/acquire with the reader: the flag, then its end time. */
	smp_store_release(&held.region_release, 1);
	while (!smp_load_acquire(&held.region_end_ns) && !held.done)
		arch_cpu_relax();
	fail |= KT_EXPECT(gp_done_after(c, held.region_end_ns, &us),
			  "%s: the grace period did not end within %d ms of the region's end",
			  what, HOST_STALL_MS);
	ktap_diag("%s: the grace period was seen ended %lld us after the region ended",
		  what, us);
	if (exp) {
		fail |= KT_EXPECT(exp_done_after(&ew, held.region_end_ns, &us),
				  "%s: the expedited grace period did not end within %d ms of the region's end",
				  what, HOST_STALL_MS);
		ktap_diag("%s: the expedited one %lld us after", what, us);
	}
	fail |= held_stop();
	return fail;
}

KTEST(rcu_tree_deferred_qs)
{
	int fail = 0, cpu;

	TREE_OTHER_CPU(cpu);
	fail |= deferred_round(cpu, HELD_UNLOCK_IRQS_OFF, false, "IRQs off");
	fail |= deferred_round(cpu, HELD_UNLOCK_PREEMPT_OFF, false,
			       "preemption off");
	fail |= deferred_round(cpu, HELD_UNLOCK_IRQS_OFF, true,
			       "IRQs off, expedited");
	return fail;
}

/* ------------------------------------------------------------------ */

/* A spinner's region: preemption off outside any reader, or a reader. */
enum region_kind { REGION_PREEMPT_OFF, REGION_READER };

/* What a reader saw once its leaf had the round's grace period. */
enum reader_seen {
	SEEN_NOTHING,		/* its bit stayed set, it was never queued */
	SEEN_QUEUED,		/* queued holding the grace period: its bit free */
	SEEN_CLEARED,		/* its bit cleared while it was not queued: a bug */
	SEEN_NOT_HOLDING,	/* queued after its bit cleared: a bug */
};

static struct {
	volatile int started, release, done;
	volatile int armed;	/* c is set: watch for it in the leaf */
	volatile u64 region_end_ns;
	enum region_kind kind;
	unsigned long c;	/* the round's grace period */
	enum reader_seen seen;
	bool queued_early;	/* queued before its leaf had c */
	u64 switches0;		/* the spinner's nr_switches as it began */
	struct exp_wait ew;
} po;

/*
 * A reader watches itself, from its own CPU, between interrupts.  Once
 * its leaf has the round's grace period, its bit there may be freed only
 * by a context switch that queues it on blkd_tasks first, holding that
 * grace period (FQS asks for such a switch once the grace period is
 * RCU_SCHED_QS_MS old).  A tick that wrongly reports frees the bit with
 * the reader unqueued, seen here right after the tick returns; if that
 * same tick also asked for the switch, the reader is queued after its
 * bit was freed and does not hold the grace period, also seen here.
 * Only a reader queued before its leaf had the grace period (it then
 * holds it from the start) leaves the tick unjudged.
 */
static void reader_watch(void)
{
	struct task *t = current;
	struct rcu_node *rnp = rcu_tree_data[raw_smp_processor_id()].mynode;
	unsigned long grpmask = rcu_tree_data[raw_smp_processor_id()].grpmask;
	bool has_gp, bit;

	if (po.seen != SEEN_NOTHING)
		return;
	/* Acquire: pairs with the test's release, c before armed. */
	has_gp = smp_load_acquire(&po.armed) && leaf_has_gp(rnp, po.c);
	/*
	 * The leaf's gp_seq before its qsmask: rcu_gp_init() sets qsmask,
	 * then gp_seq, and x86 keeps both stores and both loads in order;
	 * this orders our side for the compiler.
	 */
	smp_rmb();
	bit = READ_ONCE(rnp->qsmask) & grpmask;
	/*
	 * The bit before the queueing: a switch queues the reader before
	 * its report frees the bit, and both run on this CPU, between two
	 * of our loads at the most, so a free bit read first means the
	 * queueing, if there was one, is seen by the load after.
	 */
	barrier();
	if (!READ_ONCE(t->rcu_read_unlock_special.b.blocked)) {
		if (has_gp && !bit)
			po.seen = SEEN_CLEARED;
	} else if (!has_gp) {
		po.queued_early = true;
	} else {
		unsigned long flags;

		/* rcu_gp_init() marks the queued tasks after gp_seq, locked. */
		spin_lock_irqsave(&rnp->lock, flags);
		po.seen = t->rcu_blocks_gp ? SEEN_QUEUED : SEEN_NOT_HOLDING;
		spin_unlock_irqrestore(&rnp->lock, flags);
	}
}

/* Holds a region of kind po.kind until released. */
static int region_spinner(void *arg)
{
	u64 t0;

	(void)arg;
	if (po.kind == REGION_READER)
		rcu_read_lock();
	else
		preempt_disable();
	po.switches0 = current->nr_switches;
	/* Release/acquire: a flag each way, nothing else to order. */
	smp_store_release(&po.started, 1);
	t0 = ktime_get_ns();
	while (!smp_load_acquire(&po.release) &&
	       ktime_get_ns() - t0 < HELD_REGION_MAX_MS * NSEC_PER_MSEC) {
		if (po.kind == REGION_READER)
			reader_watch();
		arch_cpu_relax();
	}
	/* Release: the region's end before the time the test reads. */
	smp_store_release(&po.region_end_ns, ktime_get_ns());
	if (po.kind == REGION_READER)
		rcu_read_unlock();
	else
		preempt_enable();
	smp_store_release(&po.done, 1);
	return 0;
}

/*
 * One round: a spinner holds a region of kind on cpu, a normal grace
 * period (and an expedited one if exp) starts inside it, and none may
 * end before the region does, while the region takes three ticks (and
 * the expedited IPI).  A reader watches its own bit (reader_watch());
 * *judged says whether its round could show a tick's wrong report.  The
 * expedited IPI asks a reader's CPU for a switch at once, so a reader's
 * round has none.
 */
static int region_round(int cpu, enum region_kind kind, bool exp,
			const char *what, bool *judged)
{
	int fail = 0, self = raw_smp_processor_id();
	u64 ticks0, ipis0, t0, ticks, ipis;
	long long us, us_exp;
	unsigned long c;
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
	struct rcu_node *rnp = rdp->mynode;
	bool reader = kind == REGION_READER;
	struct task *t;

	/*
	 * A reader that began under an older grace period holds that one
	 * too, and FQS has it queued once it is RCU_SCHED_QS_MS old, before
	 * the round's own grace period starts: begin with none in flight.
	 */
	if (reader)
		synchronize_rcu();
	po = (typeof(po)){ .kind = kind };
	t = kthread_run(region_spinner, NULL, cpu, "region");
	fail |= KT_EXPECT(wait_flag(&po.started, HOST_STALL_MS),
			  "%s: the spinner started", what);
	ipis0 = READ_ONCE(rdp->exp_ipis);
	c = start_poll_synchronize_rcu();
	po.c = c;
	/* Release: pairs with the reader's acquire (c before the flag). */
	smp_store_release(&po.armed, 1);
	if (exp)
		kthread_run(exp_waiter, &po.ew, self, "exp-waiter");
	/*
	 * Ticks count from the moment cpu's leaf has the grace period of c
	 * in progress: a tick that took the region for a quiescent state
	 * would clear cpu's bit in that leaf at once, in the tick itself
	 * (rcu_report_qs_rdp()), as the IPI would clear its bit in the
	 * leaf's expmask.  Judged on the leaf, not only on the grace
	 * periods' ends, which also wait for the kthread's and the
	 * waiter's vCPUs to run.
	 */
	fail |= KT_EXPECT(poll_until(leaf_has_gp(rnp, c)),
			  "%s: cpu%d's leaf never started the grace period of cookie %lu (gp_seq %lu)",
			  what, cpu, c, READ_ONCE(rnp->gp_seq));
	ticks0 = READ_ONCE(per_cpu_area(cpu)->stats.ticks);
	t0 = ktime_get_ns();
	/*
	 * Until the region has taken three ticks in that grace period and
	 * the expedited IPI (each would have reported at once if it took
	 * the region for a quiescent state), and the kthread has scanned
	 * three times.
	 */
	do {
		msleep(1);
		ticks = READ_ONCE(per_cpu_area(cpu)->stats.ticks) - ticks0;
		ipis = READ_ONCE(rdp->exp_ipis) - ipis0;
	} while ((ticks < 3 || (exp && !ipis)) &&
		 ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC);
	wait_fqs_scans(c);
	ktap_diag("%s: cpu%d took %lu ticks and %lu expedited IPIs", what, cpu,
		  ticks, ipis);
	fail |= KT_EXPECT(ticks >= 3 && (!exp || ipis),
			  "%s: cpu%d took %lu ticks in the grace period and %lu expedited IPIs in %d ms, fewer than 3 and 1",
			  what, cpu, ticks, ipis, HOST_STALL_MS);
	/* A reader's bit is judged by the reader itself (reader_watch()). */
	fail |= KT_EXPECT(!poll_state_synchronize_rcu(c) &&
			  (reader || READ_ONCE(rnp->qsmask) & rdp->grpmask),
			  "cpu%d's tick reported a quiescent state %s: %s",
			  cpu, what, poll_state_synchronize_rcu(c) ?
			  "the grace period ended" :
			  "its bit in its leaf is clear");
	fail |= KT_EXPECT(!exp || (!READ_ONCE(po.ew.done) &&
			  READ_ONCE(rnp->expmask) & rdp->grpmask),
			  "cpu%d's expedited IPI reported a quiescent state %s: %s",
			  cpu, what, READ_ONCE(po.ew.done) ?
			  "the expedited grace period ended" :
			  "its bit in its leaf's expmask is clear");
	/* Release: pairs with the spinner's acquire (the flag alone). */
	smp_store_release(&po.release, 1);
	fail |= KT_EXPECT(wait_flag(&po.done, HOST_STALL_MS),
			  "%s: the spinner ended its region", what);
	/* po.seen, po.queued_early: wait_flag()'s acquire of po.done. */
	*judged = !reader || po.seen >= SEEN_CLEARED ||
		  (!po.queued_early && po.switches0 == t->nr_switches);
	if (reader)
		ktap_diag("%s: %s", what,
			  po.seen == SEEN_QUEUED ? "queued, holding the grace period" :
			  po.seen == SEEN_NOTHING ? "never queued" : "a bug");
	if (reader && !*judged)
		ktap_diag("%s: not judged: %s", what, po.queued_early ?
			  "queued before its leaf had the grace period" :
			  "switched out");
	fail |= KT_EXPECT(po.seen != SEEN_CLEARED,
			  "cpu%d's tick reported a quiescent state %s: its bit in its leaf cleared while the reader was not queued",
			  cpu, what);
	fail |= KT_EXPECT(po.seen != SEEN_NOT_HOLDING,
			  "cpu%d's tick reported a quiescent state %s: it was queued after its bit cleared, not holding the grace period",
			  cpu, what);
	fail |= KT_EXPECT(gp_done_after(c, po.region_end_ns, &us),
			  "%s: the grace period did not end within %d ms of the region's end",
			  what, HOST_STALL_MS);
	us_exp = -1;
	fail |= KT_EXPECT(!exp ||
			  exp_done_after(&po.ew, po.region_end_ns, &us_exp),
			  "%s: the expedited grace period did not end within %d ms of the region's end",
			  what, HOST_STALL_MS);
	ktap_diag("%s: after the region: the grace period was seen ended in %lld us",
		  what, us);
	if (exp)
		ktap_diag("%s: the expedited one in %lld us", what, us_exp);
	return fail;
}

KTEST(rcu_tree_preempt_off_region)
{
	int cpu;
	bool judged;

	TREE_OTHER_CPU(cpu);
	/* Nothing can switch a spinner with preemption off: always judged. */
	return region_round(cpu, REGION_PREEMPT_OFF, true,
			    "with preemption off", &judged);
}

/* Rounds of rcu_tree_reader_region, until one is judged. */
#define READER_REGION_ROUNDS	10

KTEST(rcu_tree_reader_region)
{
	int fail = 0, cpu, i;
	bool judged = false;

	TREE_OTHER_CPU(cpu);
	for (i = 0; i < READER_REGION_ROUNDS && !judged && !fail; i++)
		fail |= region_round(cpu, REGION_READER, false,
				     "inside a reader", &judged);
	fail |= KT_EXPECT(fail || judged,
			  "in each of %d rounds the reader was queued before its leaf had the grace period: nothing judged",
			  READER_REGION_ROUNDS);
	return fail;
}

/* ------------------------------------------------------------------ */

/*
 * rcu_tree_defer_qs_iw: two IRQs-off deferrals in a row on one CPU, each
 * owing an expedited grace period, must each send the self-IPI
 * (IRQ_WORK, Linux's defer_qs_iw).  The first one's IPI lands inside a
 * new reader: the switch its return makes queues the reader and reports
 * the CPU's expedited quiescent state itself, without
 * rcu_preempt_deferred_qs(), so only the IPI's handler can say the IPI
 * is no longer on its way (defer_qs_iw_pending).  Then the reader, which
 * now holds the expedited grace period from blkd_tasks, unlocks with
 * IRQs off: if the flag was left set, this deferral sends nothing, and
 * the grace period waits for the CPU's next tick.
 */
struct iw_round {
	volatile int in_reader, go, done;
	bool blocked;		/* queued by the first IPI's switch */
	u64 sent1, sent2;	/* self-IPIs sent by each deferral */
	u64 irqs_on_ns;		/* the second deferral's IRQs back on */
	u64 left_ns;		/* seen off blkd_tasks (0: never) */
	u64 ticks;		/* ticks on the CPU between the two */
};

static int iw_reader(void *arg)
{
	struct iw_round *r = arg;
	struct task *t = current;
	struct rcu_tree_data *rdp;
	struct cpu_stats *st;
	unsigned long flags;
	u64 n, t0, ticks0;

	rcu_read_lock();
	WRITE_ONCE(r->in_reader, 1);
	/* Acquire: the expedited IPI landed before go (the test saw it). */
	while (!smp_load_acquire(&r->go))
		arch_cpu_relax();
	/* Pinned: this CPU's data, read and changed here with IRQs off. */
	rdp = &rcu_tree_data[raw_smp_processor_id()];
	st = &this_cpu()->stats;
	/* Deferral 1: exp_hint is set, the CPU owes the expedited GP. */
	local_irq_save(flags);
	n = rdp->n_defer_qs_iw;
	rcu_read_unlock();
	r->sent1 = rdp->n_defer_qs_iw - n;
	/* A new reader before IRQs come on: the IPI lands inside it. */
	rcu_read_lock();
	t0 = ktime_get_ns();
	local_irq_restore(flags);
	/* Under TCG an interrupt is taken at a block's end: wait for it. */
	while (!READ_ONCE(t->rcu_read_unlock_special.b.blocked) &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
	r->blocked = READ_ONCE(t->rcu_read_unlock_special.b.blocked);
	/* Deferral 2: blocked, holding the expedited GP from the leaf. */
	local_irq_save(flags);
	n = rdp->n_defer_qs_iw;
	rcu_read_unlock();
	r->sent2 = rdp->n_defer_qs_iw - n;
	ticks0 = READ_ONCE(st->ticks);
	t0 = ktime_get_ns();
	r->irqs_on_ns = t0;
	local_irq_restore(flags);
	/* Busy and preemptible: only an interrupt's return switches us. */
	while (READ_ONCE(t->rcu_read_unlock_special.b.blocked) &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
	if (!READ_ONCE(t->rcu_read_unlock_special.b.blocked))
		r->left_ns = ktime_get_ns();
	r->ticks = READ_ONCE(st->ticks) - ticks0;
	/* Release: the round's results before done. */
	smp_store_release(&r->done, 1);
	return 0;
}

#define DEFER_QS_IW_ROUNDS	5

KTEST(rcu_tree_defer_qs_iw)
{
	int fail = 0, cpu;

	TREE_OTHER_CPU(cpu);
	for (int i = 0; i < DEFER_QS_IW_ROUNDS && !fail; i++) {
		static struct iw_round r;
		static struct exp_wait ew;
		struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
		u64 ipis0 = READ_ONCE(rdp->exp_ipis);
		long long us_left, us_exp;

		r = (struct iw_round){ 0 };
		ew = (struct exp_wait){ 0 };
		kthread_run(iw_reader, &r, cpu, "iw-reader");
		fail |= KT_EXPECT(wait_flag(&r.in_reader, HOST_STALL_MS),
				  "round %d: the reader began", i);
		kthread_run(exp_waiter, &ew, raw_smp_processor_id(),
			    "exp-waiter");
		/* The expedited IPI lands in the reader: it owes the GP. */
		fail |= KT_EXPECT(poll_until(READ_ONCE(rdp->exp_ipis) !=
					     ipis0),
				  "round %d: cpu%d took no expedited IPI", i,
				  cpu);
		/* Release: pairs with the reader's acquire of go. */
		smp_store_release(&r.go, 1);
		fail |= KT_EXPECT(wait_flag(&r.done, HOST_STALL_MS),
				  "round %d: the reader ended", i);
		fail |= KT_EXPECT(exp_done_after(&ew, r.irqs_on_ns, &us_exp),
				  "round %d: the expedited grace period did not end",
				  i);
		us_left = r.left_ns ? (long long)(r.left_ns - r.irqs_on_ns) /
				      (long long)NSEC_PER_USEC : -1;
		ktap_diag("round %d: self-IPIs sent %llu then %llu; off blkd_tasks %lld us and the expedited GP ended %lld us after IRQs on, %llu ticks between",
			  i, (unsigned long long)r.sent1,
			  (unsigned long long)r.sent2, us_left, us_exp,
			  (unsigned long long)r.ticks);
		fail |= KT_EXPECT(r.sent1 == 1,
				  "round %d: the first IRQs-off deferral sent no self-IPI",
				  i);
		fail |= KT_EXPECT(r.blocked,
				  "round %d: the first self-IPI's switch did not queue the new reader",
				  i);
		fail |= KT_EXPECT(r.sent2 == 1,
				  "round %d: the second IRQs-off deferral sent no self-IPI: defer_qs_iw_pending was left set",
				  i);
		fail |= KT_EXPECT(r.left_ns,
				  "round %d: the reader never left blkd_tasks",
				  i);
	}
	return fail;
}

/* ------------------------------------------------------------------ */

/*
 * rcu_tree_softirq_reader: the callback below runs in RCU_SOFTIRQ on a
 * CPU whose task spins preemptible, outside any reader: the only count
 * on the CPU is the softirq's.  It takes a reader, asks for a grace
 * period, and waits (bounded) until the tick asks the reader for a
 * quiescent state (need_qs: the grace period needs this CPU).  Its
 * unlock must defer the report, since the rest of the softirq is a
 * reader to consolidated RCU (Linux 6.12's rcu_read_unlock_special()
 * tests the softirq count too): for 100 ms of guest time afterwards,
 * still in the softirq, the grace period must not end.
 */
static struct {
	int cpu;
	volatile int done, judged, ended_in_softirq, context_ok;
	struct rcu_head head;
} sr;

static void sr_cb(struct rcu_head *head)
{
	struct task *t = current;
	unsigned long c;
	u64 t0;

	(void)head;
	sr.context_ok = raw_smp_processor_id() == sr.cpu &&
			(preempt_count() & SOFTIRQ_MASK) &&
			!(preempt_count() & (PREEMPT_MASK | HARDIRQ_MASK));
	if (sr.context_ok) {
		rcu_read_lock();
		c = start_poll_synchronize_rcu();
		t0 = ktime_get_ns();
		while (!READ_ONCE(t->rcu_read_unlock_special.b.need_qs) &&
		       ktime_get_ns() - t0 < 200 * NSEC_PER_MSEC)
			arch_cpu_relax();
		sr.judged = READ_ONCE(t->rcu_read_unlock_special.b.need_qs);
		rcu_read_unlock();
		t0 = ktime_get_ns();
		while (sr.judged && ktime_get_ns() - t0 < 100 * NSEC_PER_MSEC) {
			if (poll_state_synchronize_rcu(c)) {
				sr.ended_in_softirq = 1;
				break;
			}
			arch_cpu_relax();
		}
	}
	smp_store_release(&sr.done, 1);
}

/* On sr.cpu: queue the callback there, then spin outside any reader. */
static int sr_busy(void *arg)
{
	(void)arg;
	call_rcu(&sr.head, sr_cb);
	while (!smp_load_acquire(&sr.done))
		arch_cpu_relax();
	return 0;
}

/* Rounds until one is judged (the tick asked the reader, in context). */
#define SOFTIRQ_READER_ROUNDS	5

KTEST(rcu_tree_softirq_reader)
{
	int fail = 0, cpu, i;
	bool judged = false;

	TREE_OTHER_CPU(cpu);
	for (i = 0; i < SOFTIRQ_READER_ROUNDS && !judged && !fail; i++) {
		memset((void *)&sr, 0, sizeof(sr));
		sr.cpu = cpu;
		kthread_run(sr_busy, NULL, cpu, "softirq-busy");
		fail |= KT_EXPECT(poll_until(smp_load_acquire(&sr.done)),
				  "round %d: the callback never ran", i);
		judged = sr.context_ok && sr.judged;
		fail |= KT_EXPECT(!sr.ended_in_softirq,
				  "round %d: a grace period that needed cpu%d ended while a softirq there still ran, after its reader's unlock",
				  i, cpu);
	}
	fail |= KT_EXPECT(fail || judged,
			  "in each of %d rounds the callback ran out of context or the tick never asked its reader: nothing judged",
			  SOFTIRQ_READER_ROUNDS);
	return fail;
}
