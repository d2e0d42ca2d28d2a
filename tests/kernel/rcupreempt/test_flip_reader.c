// SPDX-License-Identifier: GPL-2.0
/*
 * The flip machine waits for a reader (rcu=rcupreempt only), in the two
 * states where the article's design says it must:
 *
 * waitack: the reader's rcu_read_lock() has loaded completed, and has
 * not yet incremented its counter, with interrupts off, so its CPU cannot
 * acknowledge a flip.  A flip after that load must stay in waitack, or
 * the reader increments the old index after waitzero summed it.
 *
 * waitzero: the same reader, its counter now incremented on the index
 * that flip retired, holds its critical section.  The flip must stay in
 * waitzero until the reader unlocks.
 *
 * Each verdict is a count, not a time: the flip is still waiting after
 * FLIP_READER_TICKS ticks, in that state, of a CPU whose every tick tries
 * a step of the machine, however slowly the host runs those ticks.  The
 * torture test sees the same bugs only when a reader happens to straddle
 * a flip in the right place (torture_lock_delay_us widens the first).
 */
#include "asm/arch.h"
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "rcu/rcu.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt/rcupreempt.h"
#include "tests/kernel/kernel/util.h"

/* Ticks a state must last on its stepping CPU: each tick tries a step. */
#define FLIP_READER_TICKS	8
/* Rounds to find one that starts with the machine idle. */
#define FLIP_READER_ROUNDS	10
/*
 * The most the reader holds if the test never lets it go: below
 * watchdog_thresh (10 s), since the first hold has interrupts off.
 */
#define FLIP_READER_HOLD_MS	8000

static struct {
	struct task *task;		/* the reader */
	int hooked;			/* its outermost lock took the hook */
	volatile int in_hook;		/* it loaded completed, IRQs off */
	volatile int judge;		/* the round is judged: c is set */
	volatile int hook_release;	/* leave the hook */
	volatile int done;		/* it unlocked */
	long c;				/* completed before the flip held */
	long g1;			/* completed the reader's index is of */
	bool waitzero_judged;		/* waitzero lasted the ticks */
	bool waitzero_passed;		/* the flip got past waitzero */
	long bad_completed;
	struct rcu_head head;		/* the driver's callback */
	volatile int cb_done;
} fr;

/* Which state, and which flip: completed read on both sides of it. */
static int flip_state(long *completed)
{
	long a, b;
	int st;

	do {
		a = READ_ONCE(rcu_ctrlblk.completed);
		/*
		 * completed before the state, and the state before completed
		 * again: the machine stores completed, then the state, and x86
		 * keeps both loads in order; this orders them for the compiler.
		 */
		smp_rmb();
		st = READ_ONCE(rcu_ctrlblk.rcu_try_flip_state);
		smp_rmb();
		b = READ_ONCE(rcu_ctrlblk.completed);
	} while (a != b);
	*completed = a;
	return st;
}

/* Ticks a CPU took since a state was first seen by state_ticks(). */
struct state_ticks {
	bool seen;
	u64 ticks0;
};

/* Called while the state holds, on pc's own CPU or about it. */
static u64 state_ticks(struct state_ticks *s, struct percpu *pc)
{
	if (!s->seen) {
		s->seen = true;
		s->ticks0 = READ_ONCE(pc->stats.ticks);
	}
	return READ_ONCE(pc->stats.ticks) - s->ticks0;
}

/*
 * In the reader's outermost __rcu_read_lock(), between its load of
 * completed and its counter increment, interrupts off: hold there until
 * the driver has judged waitack.
 */
static void flip_reader_hook(void)
{
	u64 t0;

	/* The reader's own lock only: not an NMI's reader on its CPU. */
	if (current != READ_ONCE(fr.task) || in_interrupt() || fr.hooked)
		return;
	lockdep_assert_irqs_disabled();	/* or this CPU could acknowledge */
	fr.hooked = 1;
	/*
	 * Release: the caller's load of completed before the flag; pairs
	 * with the driver's acquire, after which it reads the machine.
	 */
	smp_store_release(&fr.in_hook, 1);
	t0 = ktime_get_ns();
	while (!smp_load_acquire(&fr.hook_release) &&
	       ktime_get_ns() - t0 < FLIP_READER_HOLD_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
}

/* The reader: pinned to its CPU, whose ticks it counts. */
static int flip_reader(void *arg)
{
	struct percpu *pc = this_cpu();
	struct state_ticks waitzero = { 0 };
	unsigned long flags;
	long g0, cc;
	u64 t0;

	(void)arg;
	/* Release: the task before the hook can match it. */
	smp_store_release(&fr.task, current);
	/* g0 with IRQs off, as rcu_torture_gp_passed() needs it. */
	local_irq_save(flags);
	g0 = rcu_batches_completed();
	rcu_read_lock();		/* flip_reader_hook() runs inside */
	local_irq_restore(flags);
	/* Our index is of g0, or of g0 + 1 if a flip came in between. */
	fr.g1 = g0 + ((g0 & 1) != READ_ONCE(current->rcu_flipctr_idx));
	/* fr.judge, fr.c: the hook's acquire of hook_release. */
	t0 = ktime_get_ns();
	while (fr.judge && fr.g1 == fr.c &&
	       ktime_get_ns() - t0 < FLIP_READER_HOLD_MS * NSEC_PER_MSEC) {
		if (rcu_torture_gp_passed(g0)) {
			fr.waitzero_passed = true;
			fr.bad_completed = READ_ONCE(rcu_ctrlblk.completed);
			break;
		}
		if (flip_state(&cc) == rcu_try_flip_waitzero_state &&
		    cc == fr.c + 1 &&
		    state_ticks(&waitzero, pc) >= FLIP_READER_TICKS) {
			fr.waitzero_judged = true;
			break;
		}
		arch_cpu_relax();
	}
	rcu_read_unlock();
	/* Release: the verdicts above before the flag. */
	smp_store_release(&fr.done, 1);
	return 0;
}

static void flip_reader_cb(struct rcu_head *head)
{
	(void)head;
	smp_store_release(&fr.cb_done, 1);
}

struct flip_round {
	int reader_cpu;
	int fail;
	bool judged;
};

/*
 * One round, on the driver's CPU: it holds a callback, so its ticks start
 * the flip, and it stays busy, so each of its ticks tries the next step.
 */
static void flip_round(void *arg)
{
	struct flip_round *r = arg;
	struct percpu *pc = this_cpu();
	int cpu = r->reader_cpu, st;
	struct state_ticks waitack = { 0 };
	bool waitack_passed = false;
	unsigned long flags;
	u64 held = 0, t0;
	long c, cc = 0;

	rcu_barrier();		/* no callback of ours from a round before */
	/*
	 * The flip that made the last callbacks done is still in progress
	 * when rcu_barrier() returns: let it finish (our ticks step it), or
	 * the reader's IRQs-off hold would stall it and the round would not
	 * be judged.
	 */
	t0 = ktime_get_ns();
	while (flip_state(&cc) != rcu_try_flip_idle_state &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
	fr = (typeof(fr)){ 0 };
	rcu_read_lock_delay_set(flip_reader_hook);
	kthread_run(flip_reader, NULL, cpu, "flip-reader");
	if (KT_EXPECT(wait_flag(&fr.in_hook, HOST_STALL_MS),
		      "cpu%d's reader never reached its rcu_read_lock()", cpu)) {
		r->fail = 1;
		goto out;
	}
	/* Acquire (wait_flag()'s load): the reader's load of completed. */
	smp_rmb();
	/*
	 * Under fliplock, no step is half done: idle here means the next
	 * flip comes after the reader's load of completed.
	 */
	spin_lock_irqsave(&rcu_ctrlblk.fliplock, flags);
	st = rcu_ctrlblk.rcu_try_flip_state;
	c = rcu_ctrlblk.completed;
	spin_unlock_irqrestore(&rcu_ctrlblk.fliplock, flags);
	if (st != rcu_try_flip_idle_state) {
		ktap_diag("a grace period was in progress (%s): not judged",
			  rcu_try_flip_state_name(st));
		smp_store_release(&fr.hook_release, 1);
		goto wait_reader;
	}
	call_rcu(&fr.head, flip_reader_cb);	/* we flip, at our tick */
	t0 = ktime_get_ns();
	for (;;) {
		st = flip_state(&cc);
		/* Every state from here on is of the flip to c + 1 or later. */
		if (cc >= c + 2 || st == rcu_try_flip_waitzero_state ||
		    st == rcu_try_flip_waitmb_state) {
			waitack_passed = true;
			break;
		}
		if (st == rcu_try_flip_waitack_state && cc == c + 1) {
			held = state_ticks(&waitack, pc);
			if (held >= FLIP_READER_TICKS)
				break;
		}
		if (ktime_get_ns() - t0 > HOST_STALL_MS * NSEC_PER_MSEC)
			break;
		arch_cpu_relax();
	}
	r->fail |= KT_EXPECT(!waitack_passed,
			     "the flip to completed %ld got past waitack (%s, completed %ld) while cpu%d's reader had loaded completed with interrupts off, unacknowledged",
			     c + 1, rcu_try_flip_state_name(st), cc, cpu);
	r->fail |= KT_EXPECT(waitack_passed || waitack.seen,
			     "the flip to completed %ld never reached waitack in %d ms (%s, completed %ld)",
			     c + 1, HOST_STALL_MS, rcu_try_flip_state_name(st),
			     cc);
	if (waitack.seen && !waitack_passed && held < FLIP_READER_TICKS)
		ktap_diag("this CPU took %llu ticks in %d ms: not judged",
			  (unsigned long long)held, HOST_STALL_MS);
	fr.c = c;
	fr.judge = !waitack_passed && held >= FLIP_READER_TICKS;
	/* Release: c and judge before the flag; the hook acquires it. */
	smp_store_release(&fr.hook_release, 1);
wait_reader:
	r->fail |= KT_EXPECT(wait_flag(&fr.done, FLIP_READER_HOLD_MS +
				       HOST_STALL_MS),
			     "cpu%d's reader never unlocked", cpu);
	if (!fr.judge)
		goto out;
	/* The reader's verdicts: wait_flag()'s acquire of fr.done. */
	smp_rmb();
	r->fail |= KT_EXPECT(fr.g1 == c,
			     "cpu%d's reader used the index of completed %ld, not %ld, though no flip was acknowledged",
			     cpu, fr.g1, c);
	r->fail |= KT_EXPECT(!fr.waitzero_passed,
			     "the flip to completed %ld got past waitzero (completed %ld) while cpu%d's reader held the index it retired",
			     c + 1, fr.bad_completed, cpu);
	r->fail |= KT_EXPECT(fr.waitzero_passed || fr.waitzero_judged,
			     "the flip to completed %ld never held in waitzero for %d of cpu%d's ticks in %d ms",
			     c + 1, FLIP_READER_TICKS, cpu,
			     FLIP_READER_HOLD_MS);
	r->judged = true;
	/* After the reader: the callback, three flips on, must come. */
	r->fail |= KT_EXPECT(wait_flag(&fr.cb_done, HOST_STALL_MS),
			     "the grace period did not end within %d ms after cpu%d's reader unlocked (%s, completed %ld)",
			     HOST_STALL_MS, cpu,
			     rcu_try_flip_state_name(flip_state(&cc)), cc);
	if (!r->fail)
		ktap_diag("the flip to completed %ld held in waitack for %d of cpu%d's ticks, and in waitzero for %d of cpu%d's",
			  c + 1, FLIP_READER_TICKS, raw_smp_processor_id(),
			  FLIP_READER_TICKS, cpu);
out:
	rcu_read_lock_delay_set(NULL);
}

KTEST(rcupreempt_flip_waits_for_reader)
{
	struct flip_round r = { .reader_cpu = -1 };
	int driver = -1, cpu, i;

	if (rcu_flavor_is_tree()) {
		ktap_diag("the flip machine: rcu=rcupreempt only");
		return KTEST_SKIP;
	}
	/* The first two online CPUs: the driver, then the reader. */
	for_each_online_cpu(cpu) {
		if (driver < 0)
			driver = cpu;
		else if (r.reader_cpu < 0)
			r.reader_cpu = cpu;
	}
	if (r.reader_cpu < 0) {
		ktap_diag("needs 2 CPUs");
		return KTEST_SKIP;
	}
	for (i = 0; i < FLIP_READER_ROUNDS && !r.judged && !r.fail; i++)
		run_on_cpu(driver, flip_round, &r);
	return r.fail | KT_EXPECT(r.fail || r.judged,
				  "in each of %d rounds a grace period was in progress when the reader loaded completed: nothing judged",
				  FLIP_READER_ROUNDS);
}
