// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_polled_during_gp: a polled cookie taken while a grace period is in
 * progress is done only after a full grace period that begins after it,
 * not at the end of the one in progress, which need not wait for the
 * readers that began after it did (both flavours, for
 * get_state_synchronize_rcu() and start_poll_synchronize_rcu()).
 *
 * A reader R1 on another CPU holds a grace period G1 open (a callback of
 * ours asked for G1).  Once G1 is under way and this CPU has passed a
 * quiescent state for it, we begin reader R2 and take the cookie inside
 * it, then release R1: G1 may end while R2 holds on, and when it does
 * the cookie must still be undone, since R2 was running when it was
 * taken.  After R2's unlock the cookie is done within two more grace
 * periods.  A round in which no grace period ended while R2 held on
 * tested nothing; every kind of cookie needs one that did.
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
/* Long enough for G1 to begin and this CPU to report for it (ticks). */
#define POLLED_SETTLE_MS	20
/*
 * G1 ends within milliseconds of R1's unlock; a round whose host stalls
 * longer than this only goes uncovered (it judges nothing).
 */
#define POLLED_G1_MAX_MS	1000

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

/*
 * One round.  start: the cookie is start_poll's, else get_state's.
 * *covered counts the rounds in which a grace period ended under R2.
 */
static int polled_round(int round, bool start, int *covered)
{
	static struct rcu_head g1;
	const char *kind = start ? "start_poll" : "get_state";
	unsigned long cookie;
	int fail = 0;
	long g;
	u64 t0;

	WRITE_ONCE(polled_g1_done, 0);
	smp_store_release(&r1.round, round);
	if (KT_EXPECT(polled_wait(&r1.started, round), "R1 started"))
		return 1;
	call_rcu(&g1, polled_g1_cb);
	msleep(POLLED_SETTLE_MS);
	rcu_read_lock();
	g = rcu_batches_completed();
	cookie = start ? start_poll_synchronize_rcu() :
			 get_state_synchronize_rcu();
	smp_store_release(&r1.release, round);
	/* Inside R2: wait for a grace period to end (G1, once R1 is out). */
	t0 = ktime_get_ns();
	while (rcu_batches_completed() == g &&
	       ktime_get_ns() - t0 < POLLED_G1_MAX_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
	if (rcu_batches_completed() != g) {
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
	for (int k = 0; k < 2 && !fail; k++)
		for (int i = 0; i < POLLED_ROUNDS && !fail; i++)
			fail |= polled_round(++round, k, &covered[k]);
	WRITE_ONCE(r1.quit, 1);
	for (int k = 0; k < 2 && !fail; k++)
		fail |= KT_EXPECT(covered[k],
				  "no grace period ended under the reader in %d %s rounds: nothing tested",
				  POLLED_ROUNDS, k ? "start_poll" : "get_state");
	ktap_diag("R1 on cpu %d; rounds with a grace period ended under the cookie's reader: get_state %d of %d, start_poll %d of %d (rcu=%s%s)",
		  r1_cpu, covered[0], POLLED_ROUNDS, covered[1], POLLED_ROUNDS,
		  rcu_flavor_name(),
		  rcu_has_start_poll() ? "" : ": start_poll is get_state");
	return fail;
}
