// SPDX-License-Identifier: GPL-2.0
/* Scheduler: time-slice preemption, migration, completions, msleep. */
#include "kernel/barrier.h"
#include "kernel/percpu.h"
#include "kernel/sort.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "tests/kernel/kernel/util.h"

#define SPIN_MS		300
/* Of about 15 turns each: 10 ms slices in 300 ms. */
#define SPIN_MIN_TURNS	3

static volatile u64 spins[2], turns[2];
static volatile int spin_stop, spin_last = -1;

static int spinner(void *arg)
{
	int me = (int)(long)arg;

	while (!READ_ONCE(spin_stop)) {
		/* never sleeps: only the tick can switch us */
		spins[me]++;
		if (READ_ONCE(spin_last) != me) {	/* the other ran */
			turns[me]++;
			WRITE_ONCE(spin_last, me);
		}
	}
	return 0;
}

/*
 * Judged by turns (how often each spinner got the CPU back from the
 * other), which only the guest's time slices decide, not by iteration
 * counts: those measure how much host CPU time each spinner's slices
 * got, and a host that stalls the vCPU through several of one
 * spinner's slices could push its share under the bound.
 */
KTEST(sched_preempt)
{
	int cpu = num_online_cpus() - 1;
	u64 total;

	spins[0] = spins[1] = turns[0] = turns[1] = 0;
	spin_stop = 0;
	spin_last = -1;
	kthread_run(spinner, (void *)0L, cpu, "spinner-a");
	kthread_run(spinner, (void *)1L, cpu, "spinner-b");
	msleep(SPIN_MS);
	/*
	 * A host that stalls the spinners' vCPU takes its slices with it:
	 * wait on (up to HOST_STALL_MS) while either has fewer turns.  A
	 * spinner that is never preempted keeps the other out for good.
	 */
	for (u64 t0 = ktime_get_ns();
	     (turns[0] < SPIN_MIN_TURNS || turns[1] < SPIN_MIN_TURNS) &&
	     ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC;)
		msleep(10);
	u64 a = spins[0], b = spins[1], ta = turns[0], tb = turns[1];

	spin_stop = 1;
	msleep(20);
	total = a + b;
	ktap_diag("cpu%d: %lu and %lu iterations in %d ms or more (%lu%% / %lu%%), %lu and %lu turns",
		  cpu, a, b, SPIN_MS, total ? a * 100 / total : 0,
		  total ? b * 100 / total : 0, ta, tb);
	return KT_EXPECT(ta >= SPIN_MIN_TURNS && tb >= SPIN_MIN_TURNS,
			 "one CPU-bound thread starved the other (%lu and %lu turns)",
			 ta, tb);
}

static int roamer(void *arg)
{
	struct task *self = current;

	kthread_set_roaming(self, 1);
	/*
	 * Run until a slice's end has moved it (up to HOST_STALL_MS), not
	 * a fixed 100 ms: a host that stalled this vCPU through all of it
	 * left no tick inside, and the task had run on one CPU.
	 */
	for (u64 t0 = ktime_get_ns();
	     cpumask_weight(&self->ran_on_mask) < 2 &&
	     ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC;)
		busy_wait_ns(NSEC_PER_MSEC);
	kthread_set_roaming(self, 0);
	/* The weight is settled: this task runs nowhere else now. */
	WRITE_ONCE(*(int *)arg, (int)cpumask_weight(&self->ran_on_mask));
	return 0;
}

KTEST(sched_migrate)
{
	int n = 0;

	if (num_online_cpus() < 2) {
		ktap_diag("needs 2 CPUs to migrate between");
		return KTEST_SKIP;
	}
	kthread_run(roamer, &n, ANY_CPU, "roamer");
	for (int i = 0; i < HOST_STALL_MS / 10 + 200 && !READ_ONCE(n); i++)
		msleep(10);
	ktap_diag("a roaming thread ran on %d CPUs", n);
	return KT_EXPECT(n >= 2, "ran on %d CPUs", n);
}

static struct completion comp;
static volatile u64 completed_at;

static int completer(void *arg)
{
	(void)arg;
	msleep(20);
	completed_at = ktime_get_ns();
	complete(&comp);
	return 0;
}

KTEST(completion_wait)
{
	init_completion(&comp);
	u64 t0 = ktime_get_ns();

	kthread_run(completer, NULL, ANY_CPU, "completer");
	wait_for_completion(&comp);
	u64 t1 = ktime_get_ns();

	ktap_diag("woken %lu us after complete(), %lu ms after the start",
		  (t1 - completed_at) / NSEC_PER_USEC,
		  (t1 - t0) / NSEC_PER_MSEC);
	int bad = KT_EXPECT(t1 >= completed_at && completed_at >= t0 +
			    20 * NSEC_PER_MSEC, "returned before complete()");

	/* A completion done before the wait does not block. */
	init_completion(&comp);
	complete(&comp);
	bad |= KT_EXPECT(wait_for_completion_timeout(&comp, NSEC_PER_SEC),
			 "pre-completed completion blocked");
	bad |= KT_EXPECT(!wait_for_completion_timeout(&comp,
						      5 * NSEC_PER_MSEC),
			 "a consumed completion did not time out");
	return bad;
}

/*
 * complete() must not touch a completion once its waiter can return: the
 * completion usually lives in the waiter's stack frame (run_on_each_cpu()).
 * One worker per CPU, the waiter's CPU included, completes the waiter's
 * on-stack completion each round.  The test forces the worst ordering
 * instead of hoping for it: the waiter does not sleep (it waits until
 * every completer has counted done, then consumes them), and a completer
 * that counted done without the wait-queue lock held waits in
 * complete_hook() until the waiter has returned and poisoned its frame.
 * A complete() that still works on the completion after
 * wait_for_completion() returned then changes the poison (the lock's
 * ticket) or faults on the poisoned list, in the first round, however
 * fast or loaded the host.  The correct complete() counts done under the
 * lock, so its hook returns at once.  Two waiters then race for one
 * complete(): only one may consume it.
 */
#define CSTRESS_ROUNDS		100
/* Completers, sampled on a big machine. */
#define CSTRESS_CPUS		8
#define CSTRESS_POISON		0x6b
/* Guest time a step may take before the test says which one hung. */
#define CSTRESS_WAIT_NS		(5 * NSEC_PER_SEC)

static struct {
	struct completion *comp;	/* this round's, on the waiter's stack */
	int round;
	int stop;
	unsigned int returned;		/* last round whose waiter returned */
	unsigned int completions;	/* complete() calls that returned */
	struct wait_queue_head wq;
	struct completion exited;
} cs;

/* Spin (preemptible) until *p reaches want; false after CSTRESS_WAIT_NS. */
static bool cs_wait_for(unsigned int *p, unsigned int want)
{
	u64 end = ktime_get_ns() + CSTRESS_WAIT_NS;

	/* Acquire: pairs with the release that set *p, and what it covers. */
	while ((int)(smp_load_acquire(p) - want) < 0)
		if (ktime_get_ns() > end)
			return false;
	return true;
}

/*
 * Between done++ and the wake-up.  With the lock held (the correct
 * complete()) no waiter can return yet: go on.  Without it, let the
 * waiter return and poison its frame first.
 */
static void cs_complete_hook(struct completion *c)
{
	if (spin_held(&c->wait.lock))
		return;
	cs_wait_for(&cs.returned, (unsigned int)READ_ONCE(cs.round));
}

static bool cs_news(void *arg)
{
	return smp_load_acquire(&cs.round) != *(int *)arg ||
	       READ_ONCE(cs.stop);
}

static int cs_worker(void *arg)
{
	int seen = 0;

	(void)arg;
	for (;;) {
		wait_event_fn(&cs.wq, cs_news, &seen);
		if (READ_ONCE(cs.stop))
			break;
		/* Acquire: pairs with the release of round, after comp. */
		seen = smp_load_acquire(&cs.round);
		complete(READ_ONCE(cs.comp));
		/* Release: the waiter reads the poison after this. */
		__atomic_add_fetch(&cs.completions, 1, __ATOMIC_RELEASE);
	}
	complete(&cs.exited);
	return 0;
}

/*
 * One round; the completion dies with this frame.  Returns 1 if a
 * complete() wrote to it after we returned, -1 if a step hung.
 */
static noinline int cs_round(unsigned int n)
{
	struct completion done;
	volatile u8 *p = (volatile u8 *)&done;
	unsigned int calls = READ_ONCE(cs.completions) + n;

	init_completion(&done);
	WRITE_ONCE(cs.comp, &done);
	smp_store_release(&cs.round, cs.round + 1);
	wake_up_all(&cs.wq);
	/* Every completer has counted: no wait below sleeps. */
	if (!cs_wait_for(&done.done, n))
		return -1;
	for (unsigned int i = 0; i < n; i++)
		wait_for_completion(&done);
	/* What the next call's frame would do to it: overwrite it. */
	for (size_t i = 0; i < sizeof(done); i++)
		p[i] = CSTRESS_POISON;
	/* Release: a completer waiting in the hook goes on after this. */
	smp_store_release(&cs.returned, (unsigned int)cs.round);
	if (!cs_wait_for(&cs.completions, calls))
		return -1;
	for (size_t i = 0; i < sizeof(done); i++)
		if (p[i] != CSTRESS_POISON)
			return 1;
	return 0;
}

static struct completion cs_pair;
static int cs_pair_got;

static int cs_pair_waiter(void *arg)
{
	(void)arg;
	if (wait_for_completion_timeout(&cs_pair,
					(u64)HOST_STALL_MS * NSEC_PER_MSEC))
		__atomic_add_fetch(&cs_pair_got, 1, __ATOMIC_SEQ_CST);
	complete(&cs.exited);
	return 0;
}

KTEST(completion_stress)
{
	int cpus[CSTRESS_CPUS], hits = 0, hung = 0, bad = 0, doubles = 0;
	unsigned int n = (unsigned int)sample_online_cpus(cpus, CSTRESS_CPUS,
							  -1);

	cs.round = 0;
	cs.stop = 0;
	cs.returned = 0;
	cs.completions = 0;
	init_waitqueue_head(&cs.wq);
	init_completion(&cs.exited);
	ktap_diag_cpus("completion_stress: completers on", cpus, (int)n);
	for (unsigned int i = 0; i < n; i++)
		kthread_run(cs_worker, NULL, cpus[i], "cstress");
	WRITE_ONCE(complete_hook, cs_complete_hook);
	for (int r = 0; r < CSTRESS_ROUNDS && !hung; r++) {
		int hit = cs_round(n);

		hits += hit > 0;
		hung += hit < 0;
	}
	WRITE_ONCE(complete_hook, NULL);
	WRITE_ONCE(cs.stop, 1);
	wake_up_all(&cs.wq);
	for (unsigned int i = 0; i < n; i++)
		wait_for_completion(&cs.exited);
	ktap_diag("%d rounds of %u completers, each waiter returning before a lockless wake-up could run: %d frames written after their waiter returned",
		  CSTRESS_ROUNDS, n, hits);
	bad |= KT_EXPECT(!hung,
			 "a round's completers or waiter did not finish in %llu s",
			 (unsigned long long)(CSTRESS_WAIT_NS / NSEC_PER_SEC));
	bad |= KT_EXPECT(hits == 0,
			 "complete() wrote to a completion after its waiter returned (%d rounds)",
			 hits);

	/*
	 * Two waiters, one complete(): exactly one returns.  The waiters'
	 * timeout is a host-stall bound, not a guess at when complete()
	 * comes (50 ms was outlasted under load: both timed out first); the
	 * second complete() releases the other waiter.
	 */
	for (int r = 0; r < 20; r++) {
		int got;

		init_completion(&cs_pair);
		init_completion(&cs.exited);
		cs_pair_got = 0;
		kthread_run(cs_pair_waiter, NULL, ANY_CPU, "cs-pair");
		kthread_run(cs_pair_waiter, NULL, ANY_CPU, "cs-pair");
		msleep(1);
		complete(&cs_pair);
		wait_for_completion(&cs.exited);	/* the one let through */
		msleep(10);		/* a second, wrong, return shows here */
		got = READ_ONCE(cs_pair_got);
		complete(&cs_pair);
		wait_for_completion(&cs.exited);
		if (got != 1 || cs_pair_got != 2 || cs_pair.done != 0)
			doubles++;
	}
	bad |= KT_EXPECT(doubles == 0,
			 "one complete() let %d pairs of waiters both (or neither) return",
			 doubles);
	return bad;
}

/*
 * msleep(n) sleeps at least n ms, and is ended by its own timer.  A lost
 * or late one-shot timer leaves a tickless CPU asleep until some other
 * interrupt (the watchdog's, once a second, on CPU 0) or for ever: every
 * sleep then overshoots, by up to a second.  A host that deschedules the
 * vCPU adds to some sleeps, not to all (guest time runs on while the
 * vCPU waits for a host core: 14 ms median seen beside two TCG torture
 * boots).  So the test bounds the lower quartile of the 15 overshoots
 * (the 4th smallest) by a tick plus 10 ms, which host noise does not
 * reach and a timer that is always late does, and the median by 100 ms,
 * which a timer lost half the time exceeds (its sleeps end on the
 * watchdog's tick, 500 ms late on average).  The overshoot itself is a
 * figure (0.1-0.3 ms on a quiet host).  An early wake-up fails outright.
 */
KTEST(msleep_accuracy)
{
	static const unsigned int ms[] = { 1, 5, 20 };
	const u64 tick_ns = NSEC_PER_SEC / tick_hz;
	int bad = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		u64 over[15];

		for (int t = 0; t < 15; t++) {
			u64 t0 = ktime_get_ns();

			msleep(ms[i]);
			u64 dt = ktime_get_ns() - t0;

			bad |= KT_EXPECT(dt >= ms[i] * NSEC_PER_MSEC,
					 "msleep(%u) took %lu us", ms[i],
					 dt / NSEC_PER_USEC);
			over[t] = dt - ms[i] * NSEC_PER_MSEC;
		}
		sort_u64(over, 15);
		ktap_diag("msleep(%u): overshoot lower quartile %lu us, median %lu us, max %lu us (tick %lu us)",
			  ms[i], over[3] / NSEC_PER_USEC,
			  over[7] / NSEC_PER_USEC, over[14] / NSEC_PER_USEC,
			  tick_ns / NSEC_PER_USEC);
		bad |= KT_EXPECT(over[3] <= tick_ns + 10 * NSEC_PER_MSEC,
				 "msleep(%u) lower-quartile overshoot %lu us",
				 ms[i], over[3] / NSEC_PER_USEC);
		bad |= KT_EXPECT(over[7] <= 100 * NSEC_PER_MSEC,
				 "msleep(%u) median overshoot %lu us", ms[i],
				 over[7] / NSEC_PER_USEC);
	}
	return bad;
}
