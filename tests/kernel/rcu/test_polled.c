// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_polled_during_gp: a polled cookie taken while a grace period is in
 * progress is done only after a full grace period that begins after it,
 * not at the end of the one in progress, which need not wait for the
 * readers that began after it did (both flavours, for
 * get_state_synchronize_rcu() and start_poll_synchronize_rcu()).
 *
 * A reader R1 on another CPU holds a grace period G1 open: G1 is the
 * first to start after R1 began (a callback of ours asks for it), so it
 * must wait for R1.  Once G1 is under way and this CPU has passed a
 * quiescent state for it, we begin reader R2 and take the cookie inside
 * it, then release R1: G1 may end while R2 holds on, and when it does
 * the cookie must still be undone, since R2 was running when it was
 * taken.  After R2's unlock the cookie is done within two more grace
 * periods.  A round in which G1 did not end while R2 held on tested
 * nothing; every kind of cookie needs one that did.  G1 is told apart
 * by number (rcu_stats_get()): a grace period already under way when R1
 * began need not wait for R1 and may end under R2 too.
 */
#include "asm/arch.h"
#include "kernel/ktap.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcu.h"
#include "tests/kernel/kernel/util.h"

#define POLLED_ROUNDS		3	/* per kind of cookie */
/* Long enough, once G1 began, for this CPU to report for it (ticks). */
#define POLLED_SETTLE_MS	20

/*
 * R1, one thread for every round: a reader for each round it is given.
 * Each flag is stored with release and loaded with acquire by the other
 * side: round (the test's earlier accesses before R1's reader),
 * started (R1's rcu_read_lock() before the test asks for G1), release
 * (the test's cookie before R1's unlock), done (the unlock before the
 * test's polls).
 */
static struct {
	volatile int round, started, release, done, quit;
} r1;

static int polled_r1(void *arg)
{
	int last = 0;

	(void)arg;
	while (!READ_ONCE(r1.quit)) {
		int round = smp_load_acquire(&r1.round);

		if (round == last) {
			msleep(1);
			continue;
		}
		last = round;
		rcu_read_lock();
		smp_store_release(&r1.started, round);
		while (smp_load_acquire(&r1.release) != round)
			arch_cpu_relax();
		rcu_read_unlock();
		smp_store_release(&r1.done, round);
	}
	return 0;
}

static volatile int polled_g1_done;

static void polled_g1_cb(struct rcu_head *head)
{
	(void)head;
	WRITE_ONCE(polled_g1_done, 1);
}

/* Spin until *v == want or HOST_STALL_MS passes; false on timeout. */
static bool polled_wait(volatile int *v, int want)
{
	u64 t0 = ktime_get_ns();

	while (smp_load_acquire(v) != want)
		if (ktime_get_ns() - t0 > HOST_STALL_MS * NSEC_PER_MSEC)
			return false;
	return true;
}

/* Grace periods started (completed, if !started) so far. */
static u64 polled_gps(bool started)
{
	struct rcu_stats_snapshot st;

	rcu_stats_get(&st);
	return started ? st.flips : st.gp_completed;
}

/* Spin until grace period nr has started (completed), up to HOST_STALL_MS. */
static bool polled_gp_wait(u64 nr, bool started)
{
	u64 t0 = ktime_get_ns();

	while (polled_gps(started) < nr)
		if (ktime_get_ns() - t0 > HOST_STALL_MS * NSEC_PER_MSEC)
			return false;
	return true;
}

/*
 * One round.  start: the cookie is start_poll's, else get_state's.
 * *covered counts the rounds in which G1 ended under R2.
 */
static int polled_round(int round, bool start, int *covered)
{
	static struct rcu_head g1;
	const char *kind = start ? "start_poll" : "get_state";
	unsigned long cookie;
	int fail = 0;
	u64 g1_nr;
	long g;

	WRITE_ONCE(polled_g1_done, 0);
	smp_store_release(&r1.round, round);
	if (KT_EXPECT(polled_wait(&r1.started, round), "R1 started"))
		return 1;
	/* R1's reader began before this read: the next to start is G1. */
	g1_nr = polled_gps(true) + 1;
	call_rcu(&g1, polled_g1_cb);
	if (KT_EXPECT(polled_gp_wait(g1_nr, true),
		      "a grace period starts within %d ms of call_rcu()",
		      HOST_STALL_MS))
		return 1;
	msleep(POLLED_SETTLE_MS);
	rcu_read_lock();
	g = rcu_batches_completed();
	cookie = start ? start_poll_synchronize_rcu() :
			 get_state_synchronize_rcu();
	smp_store_release(&r1.release, round);
	/* Inside R2: wait for G1 to end, which it can once R1 is out. */
	if (polled_gp_wait(g1_nr, false)) {
		(*covered)++;
		fail |= KT_EXPECT(!poll_state_synchronize_rcu(cookie),
				  "%s cookie %lu, taken under a reader during a grace period, done once that grace period ended (completed %ld -> %ld), the reader still running",
				  kind, cookie, g, rcu_batches_completed());
	}
	rcu_read_unlock();
	fail |= KT_EXPECT(polled_wait(&r1.done, round), "R1 unlocked");
	for (int i = 0; i < 2 && !poll_state_synchronize_rcu(cookie); i++)
		synchronize_rcu();
	fail |= KT_EXPECT(poll_state_synchronize_rcu(cookie),
			  "%s cookie %lu not done two grace periods after the reader's unlock (completed %ld)",
			  kind, cookie, rcu_batches_completed());
	/* g1 is queued again next round: its callback must have run. */
	rcu_barrier();
	fail |= KT_EXPECT(READ_ONCE(polled_g1_done), "G1's callback ran");
	return fail;
}

KTEST(rcu_polled_during_gp)
{
	int self = raw_smp_processor_id();	/* the ktap thread is pinned */
	int cpu, r1_cpu = -1, fail = 0, round = 0, covered[2] = { 0, 0 };

	for_each_online_cpu(cpu)
		if (cpu != self && r1_cpu < 0)
			r1_cpu = cpu;
	if (r1_cpu < 0) {
		ktap_diag("one CPU: no other CPU to hold a grace period open");
		return KTEST_SKIP;
	}
	r1.round = r1.started = r1.release = r1.done = r1.quit = 0;
	kthread_run(polled_r1, NULL, r1_cpu, "rcu_polled_r1");
	/* A kind none of whose rounds was covered fails before the next. */
	for (int k = 0; k < 2 && !fail; k++) {
		for (int i = 0; i < POLLED_ROUNDS && !fail; i++)
			fail |= polled_round(++round, k, &covered[k]);
		if (!fail)
			fail |= KT_EXPECT(covered[k],
					  "G1 (first to start after R1 began) never ended under the reader in %d %s rounds: nothing tested",
					  POLLED_ROUNDS,
					  k ? "start_poll" : "get_state");
	}
	WRITE_ONCE(r1.quit, 1);
	ktap_diag("R1 on cpu %d; rounds in which G1 ended under the cookie's reader: get_state %d of %d, start_poll %d of %d (rcu=%s%s)",
		  r1_cpu, covered[0], POLLED_ROUNDS, covered[1], POLLED_ROUNDS,
		  rcu_flavor_name(),
		  rcu_has_start_poll() ? "" : ": start_poll is get_state");
	return fail;
}
