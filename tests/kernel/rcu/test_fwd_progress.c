// SPDX-License-Identifier: GPL-2.0
/*
 * Forward progress, either flavour, after rcutorture's fwd_progress tests
 * (docs/torture.md): RCU keeps ending grace periods, and memory stays
 * bounded, however hard it is pushed.
 *
 * rcu_fwd_flood: a thread on every online CPU queues call_rcu() callbacks
 * as fast as it can allocate them, for fwd_flood_ms.  Grace periods must
 * keep ending meanwhile: the flood goes on until this task has seen at
 * least FWD_MIN_GPS of them end, each within FWD_GP_LIMIT_MS.  Then every
 * callback must be invoked.  The diagnostic line gives callbacks invoked
 * per second, the peak queued, the peak memory (the callbacks allocated,
 * each kept for reuse until the end, times what one kmalloc() block
 * takes) and grace periods per second, in
 * make bench's form: tools/bench.py turns it into docs/benchmarks.md's
 * forward-progress table.
 *
 * rcu_fwd_tight_loop: a thread spins in the kernel outside any reader, on
 * another CPU (ours on one CPU), with preemption off but for a moment
 * each pass, as a loop that takes a lock again and again.  Normal and
 * expedited grace periods must still end, while it spins.
 *
 * rcu_fwd_preempted_reader: a reader pinned to a CPU is preempted again
 * and again, by a thread spinning on the same CPU, for a long time, while
 * the flood runs.  No grace period that began after its rcu_read_lock()
 * may end, normal or expedited, so callbacks pile up: the flood must
 * throttle itself at fwd_max_inflight callbacks in flight (as
 * rcutorture's stops at its OOM notifier), and the reader is released
 * only once it has.  Then the grace periods end and the pile drains.
 *
 * The throttle: a flooder that finds fwd_max_inflight callbacks in flight
 * sleeps 1 ms instead of queueing.  It may overshoot by one callback per
 * flooder (the count is taken, then raised).  An allocation failure is
 * reported and stops the flood; it never crashes the kernel.
 */
#include "asm/arch.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

static unsigned int fwd_flood_ms = 1000;
kparam_uint("fwd_flood_ms", fwd_flood_ms, 100, 600000,
	    "rcu_fwd_flood: ms of call_rcu() flood (it runs on until grace periods were seen to end)");
static unsigned int fwd_max_inflight = 30000;
kparam_uint("fwd_max_inflight", fwd_max_inflight, 100, 10000000,
	    "rcu_fwd_*: callbacks in flight at which the flood throttles itself");

#define FWD_MIN_GPS	3	/* grace periods that must end in a flood */
/* A grace period's bound, a stall of the host included (the stall
 * detector's 5 s and a margin). */
#define FWD_GP_LIMIT_MS	(3 * HOST_STALL_MS)
#define FWD_HOLD_MS	500	/* the preempted reader's least hold */

struct fwd_cb {
	struct rcu_head head;		/* ->next links the free list too */
};

/*
 * One CPU's flooder: its counts, and the callbacks invoked on this CPU,
 * kept for its next call_rcu() (rcutorture's flood launders its
 * callbacks the same way).  Only this CPU touches the free list, with
 * interrupts off: its flooder, and the callbacks in its softirq.  Freeing
 * them instead would have every CPU's flooder and softirq contend for
 * kmalloc()'s one lock: at 8 vCPUs on 2 host cores a holder stalled by
 * the host held them all, and the flood measured that lock, not RCU.
 */
struct fwd_cpu {
	u64 queued;
	u64 throttled;			/* 1 ms sleeps at the cap */
	u64 allocated;			/* callbacks kmalloc()ed */
	struct rcu_head *free;
} __cacheline_aligned;

/* The flood under way: one at a time. */
static struct {
	struct fwd_cpu cpu[NR_CPUS];
	volatile int stop;
	int nthreads;
	int exited;			/* flooders gone (atomic) */
	long inflight;			/* queued, not yet invoked (atomic) */
	long peak;			/* the largest inflight seen (atomic) */
	u64 invoked;			/* (atomic) */
	long alloc_failed;		/* inflight at a failure, or 0 */
	size_t cb_bytes;		/* what one callback's block takes */
	u64 freed;			/* by fwd_free_all() */
} fwd;

static void fwd_cb_fn(struct rcu_head *head)
{
	struct fwd_cpu *fc = &fwd.cpu[raw_smp_processor_id()];
	unsigned long flags;

	__atomic_sub_fetch(&fwd.inflight, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&fwd.invoked, 1, __ATOMIC_RELAXED);
	local_irq_save(flags);
	head->next = fc->free;
	fc->free = head;
	local_irq_restore(flags);
}

/* A callback from this CPU's free list, or a new one (NULL: no memory). */
static struct fwd_cb *fwd_cb_get(struct fwd_cpu *fc)
{
	struct rcu_head *head;
	unsigned long flags;
	struct fwd_cb *cb;

	local_irq_save(flags);
	head = fc->free;
	if (head)
		fc->free = head->next;
	local_irq_restore(flags);
	if (head)
		return container_of(head, struct fwd_cb, head);
	cb = kmalloc(sizeof(*cb));
	if (cb)
		fc->allocated++;
	return cb;
}

static void fwd_note_peak(long n)
{
	long old = __atomic_load_n(&fwd.peak, __ATOMIC_RELAXED);

	while (n > old &&
	       !__atomic_compare_exchange_n(&fwd.peak, &old, n, false,
					    __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

/* True if the flood is over its cap: a flooder that overshot by more than
 * the one callback each may have in hand was not throttled. */
static bool fwd_over_cap(void)
{
	return __atomic_load_n(&fwd.inflight, __ATOMIC_RELAXED) >
	       (long)fwd_max_inflight + fwd.nthreads;
}

/* Pinned to its CPU until fwd.stop. */
static int fwd_flooder(void *arg)
{
	struct fwd_cpu *fc = arg;
	struct fwd_cb *cb;

	while (!READ_ONCE(fwd.stop)) {
		/* The throttle: at the cap, let grace periods catch up. */
		if (__atomic_load_n(&fwd.inflight, __ATOMIC_RELAXED) >=
		    (long)fwd_max_inflight) {
			fc->throttled++;
			msleep(1);
			continue;
		}
		cb = fwd_cb_get(fc);
		if (!cb) {
			fwd.alloc_failed = __atomic_load_n(&fwd.inflight,
							   __ATOMIC_RELAXED);
			WRITE_ONCE(fwd.stop, 1);
			break;
		}
		fwd_note_peak(__atomic_add_fetch(&fwd.inflight, 1,
						 __ATOMIC_RELAXED));
		if (!fwd.cb_bytes)
			fwd.cb_bytes = kmalloc_block_size(cb);
		fc->queued++;
		call_rcu(&cb->head, fwd_cb_fn);
	}
	__atomic_add_fetch(&fwd.exited, 1, __ATOMIC_RELEASE);
	return 0;
}

static void fwd_start(void)
{
	int cpu;

	for (int i = 0; i < NR_CPUS; i++)
		fwd.cpu[i] = (struct fwd_cpu){ 0 };
	fwd.stop = fwd.nthreads = fwd.exited = 0;
	fwd.inflight = fwd.peak = fwd.alloc_failed = 0;
	fwd.invoked = 0;
	for_each_online_cpu(cpu) {
		fwd.nthreads++;
		kthread_run(fwd_flooder, &fwd.cpu[cpu], cpu, "rcu_fwd_flood");
	}
}

/* True while the flood runs within its cap. */
static bool fwd_running(void)
{
	return !READ_ONCE(fwd.stop) && !fwd_over_cap();
}

/* One marker callback: its invocation is a grace period's end. */
static struct {
	struct rcu_head head;
	volatile int queued, done;
} fwd_marker;

static void fwd_marker_fn(struct rcu_head *head)
{
	(void)head;
	smp_store_release(&fwd_marker.done, 1);
}

/*
 * A grace period from now, driven by a callback (the 2008 flavour starts
 * none on request): true if it ended within FWD_GP_LIMIT_MS.  After a
 * false return the marker may still be queued, and every later call
 * fails at once.
 */
static bool fwd_gp_ends(void)
{
	u64 t0 = ktime_get_ns();

	if (fwd_marker.queued && !smp_load_acquire(&fwd_marker.done))
		return false;
	fwd_marker.queued = 1;
	fwd_marker.done = 0;
	call_rcu(&fwd_marker.head, fwd_marker_fn);
	while (!smp_load_acquire(&fwd_marker.done)) {
		if (ktime_get_ns() - t0 > FWD_GP_LIMIT_MS * NSEC_PER_MSEC)
			return false;
		msleep(1);
	}
	return true;
}

/* Wait until the grace period of cookie c ends: false if not within
 * FWD_GP_LIMIT_MS.  Only while the flood drives grace periods. */
static bool fwd_wait_gp(unsigned long c)
{
	u64 t0 = ktime_get_ns();

	while (!poll_state_synchronize_rcu(c)) {
		if (ktime_get_ns() - t0 > FWD_GP_LIMIT_MS * NSEC_PER_MSEC)
			return false;
		msleep(1);
	}
	return true;
}

/* One u64 field of struct fwd_cpu (its offsetof()), summed over the CPUs. */
static u64 fwd_sum(size_t field)
{
	u64 n = 0;

	for (int i = 0; i < NR_CPUS; i++)
		n += READ_ONCE(*(u64 *)((char *)&fwd.cpu[i] + field));
	return n;
}

static u64 fwd_allocated(void)
{
	return fwd_sum(offsetof(struct fwd_cpu, allocated));
}

/*
 * Free every CPU's kept callbacks, once all are invoked and the flooders
 * gone (nothing else touches the lists then); returns how many.
 */
static u64 fwd_free_all(void)
{
	fwd.freed = 0;
	for (int i = 0; i < NR_CPUS; i++) {
		while (fwd.cpu[i].free) {
			struct rcu_head *head = fwd.cpu[i].free;

			fwd.cpu[i].free = head->next;
			kfree(container_of(head, struct fwd_cb, head));
			fwd.freed++;
		}
	}
	return fwd.freed;
}

/*
 * Stop the flooders, then wait for every callback (rcu_barrier()).
 * Returns nonzero on a failed check.
 */
static int fwd_stop(void)
{
	int bad = 0;

	WRITE_ONCE(fwd.stop, 1);
	while (__atomic_load_n(&fwd.exited, __ATOMIC_ACQUIRE) < fwd.nthreads)
		msleep(1);
	rcu_barrier();
	bad |= KT_EXPECT(!fwd.alloc_failed,
			 "kmalloc failed with %ld callbacks in flight: the flood was not throttled",
			 fwd.alloc_failed);
	bad |= KT_EXPECT(fwd.peak <= (long)fwd_max_inflight + fwd.nthreads,
			 "%ld callbacks in flight at the peak, over the cap of %u (+%d flooders)",
			 fwd.peak, fwd_max_inflight, fwd.nthreads);
	bad |= KT_EXPECT(READ_ONCE(fwd.inflight) == 0,
			 "%ld callbacks not invoked after rcu_barrier()",
			 fwd.inflight);
	bad |= KT_EXPECT(fwd_free_all() == fwd_allocated(),
			 "%lu callbacks allocated, %lu back on the free lists",
			 (unsigned long)fwd_allocated(),
			 (unsigned long)fwd.freed);
	return bad;
}

static u64 fwd_queued(void)
{
	return fwd_sum(offsetof(struct fwd_cpu, queued));
}

static u64 fwd_throttled(void)
{
	return fwd_sum(offsetof(struct fwd_cpu, throttled));
}

static u64 per_s(u64 n, u64 ns)
{
	return ns ? n * NSEC_PER_SEC / ns : 0;
}

/* The figures, one line in make bench's form (tools/bench.py reads it). */
static void fwd_report(const char *what, u64 ns, u64 invoked, long gps)
{
	ktap_diag("bench fwd_%s rcu=%s cpus=%d cbs_per_s=%lu peak_queued=%ld peak_kib=%lu gps_per_s=%lu ms=%lu throttled=%lu",
		  what, rcu_flavor_name(), fwd.nthreads,
		  (unsigned long)per_s(invoked, ns), fwd.peak,
		  (unsigned long)(fwd_allocated() * fwd.cb_bytes / 1024),
		  (unsigned long)per_s((u64)gps, ns),
		  (unsigned long)(ns / NSEC_PER_MSEC),
		  (unsigned long)fwd_throttled());
}

KTEST_HOOK(rcu_fwd_flood)
{
	u64 t0, ns, flood_ns = (u64)fwd_flood_ms * NSEC_PER_MSEC;
	long g0, gps = 0;
	u64 invoked0;
	int bad = 0;

	fwd_start();
	t0 = ktime_get_ns();
	g0 = rcu_batches_completed();
	/* Grace periods must keep ending: wait for them, one after another. */
	while (ktime_get_ns() - t0 < flood_ns || gps < FWD_MIN_GPS) {
		if (!fwd_gp_ends()) {
			bad |= KT_EXPECT(0, "no grace period ended in %u ms of flood (%ld ended before)",
					 FWD_GP_LIMIT_MS, gps);
			break;
		}
		gps++;
		if (!fwd_running())
			break;
	}
	ns = ktime_get_ns() - t0;
	/* The rate while flooding: what was invoked up to now. */
	invoked0 = __atomic_load_n(&fwd.invoked, __ATOMIC_RELAXED);
	gps = rcu_batches_completed() - g0;
	bad |= fwd_stop();
	bad |= KT_EXPECT(fwd.invoked == fwd_queued(),
			 "%lu callbacks queued, %lu invoked",
			 (unsigned long)fwd_queued(),
			 (unsigned long)fwd.invoked);
	fwd_report("flood", ns, invoked0, gps);
	return bad;
}

/* ---- rcu_fwd_tight_loop ------------------------------------------ */

static volatile int spin_stop, spin_on;
static volatile u64 spin_loops;

/*
 * Preemption is off but for a moment each pass, as in a loop that takes
 * a lock again and again: its tick almost never lands where it could
 * report.  Not a reader to the 2008 design; to rcu=tree, whose readers
 * include such regions, a chain of short ones, each of which may end a
 * grace period only by a switch that its tick has to ask for.
 */
static int fwd_spinner(void *arg)
{
	(void)arg;
	WRITE_ONCE(spin_on, raw_smp_processor_id() + 1);
	preempt_disable();
	while (!READ_ONCE(spin_stop)) {
		/* A few ms: a tick in the moment between is one in thousands. */
		for (int i = 0; i < 1000000; i++)
			WRITE_ONCE(spin_loops, spin_loops + 1);
		preempt_enable();
		preempt_disable();
	}
	preempt_enable();
	WRITE_ONCE(spin_on, 0);
	return 0;
}

/* An online CPU other than ours, or ours on one CPU. */
static int fwd_other_cpu(void)
{
	int cpu, self = raw_smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != self)
			return cpu;
	return self;
}

KTEST_HOOK(rcu_fwd_tight_loop)
{
	int cpu = fwd_other_cpu(), bad = 0;
	u64 loops;

	spin_stop = spin_on = 0;
	spin_loops = 0;
	kthread_run(fwd_spinner, NULL, cpu, "rcu_fwd_spin");
	bad |= KT_EXPECT(wait_flag(&spin_on, HOST_STALL_MS),
			 "the spinner did not start on cpu%d", cpu);
	for (int i = 0; i < FWD_MIN_GPS && !bad; i++) {
		loops = READ_ONCE(spin_loops);
		bad |= KT_EXPECT(fwd_gp_ends(),
				 "grace period %d did not end in %u ms while cpu%d spun",
				 i, FWD_GP_LIMIT_MS, cpu);
		/* Expedited: the stall detector names a hang here. */
		synchronize_rcu_expedited();
		bad |= KT_EXPECT(READ_ONCE(spin_on) == cpu + 1 &&
				 READ_ONCE(spin_loops) > loops,
				 "the spinner on cpu%d did not spin through grace period %d",
				 cpu, i);
	}
	WRITE_ONCE(spin_stop, 1);
	while (READ_ONCE(spin_on))
		msleep(1);
	return bad;
}

/* ---- rcu_fwd_preempted_reader ------------------------------------ */

static struct {
	volatile int locked, release, unlocked;
	volatile int exp_done;
	volatile u64 hog_loops;		/* while the reader held */
} pr;

/* Pinned: holds a reader, preempted again and again, until released. */
static int fwd_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	smp_store_release(&pr.locked, 1);
	while (!READ_ONCE(pr.release))
		preempt_self();
	rcu_read_unlock();
	smp_store_release(&pr.unlocked, 1);
	return 0;
}

/* Pinned beside the reader: what preempts it, counted while it holds. */
static int fwd_hog(void *arg)
{
	(void)arg;
	while (!READ_ONCE(pr.unlocked))
		if (READ_ONCE(pr.locked) && !READ_ONCE(pr.release))
			WRITE_ONCE(pr.hog_loops, pr.hog_loops + 1);
	return 0;
}

static int fwd_exp_waiter(void *arg)
{
	(void)arg;
	synchronize_rcu_expedited();
	smp_store_release(&pr.exp_done, 1);
	return 0;
}

KTEST_HOOK(rcu_fwd_preempted_reader)
{
	int cpu = fwd_other_cpu(), bad = 0;
	unsigned long c;
	long g0, gps;
	u64 t0, ns, invoked;

	pr.locked = pr.release = pr.unlocked = pr.exp_done = 0;
	pr.hog_loops = 0;
	kthread_run(fwd_hog, NULL, cpu, "rcu_fwd_hog");
	kthread_run(fwd_reader, NULL, cpu, "rcu_fwd_reader");
	bad |= KT_EXPECT(wait_flag(&pr.locked, HOST_STALL_MS),
			 "the reader did not start on cpu%d", cpu);
	if (bad)
		return bad;
	/* Both begin after the reader's rcu_read_lock(): both wait for it. */
	c = start_poll_synchronize_rcu();
	kthread_run(fwd_exp_waiter, NULL, ANY_CPU, "rcu_fwd_exp");
	fwd_start();
	t0 = ktime_get_ns();
	g0 = rcu_batches_completed();
	/*
	 * Hold until the flood has met its cap (or broke it), at least
	 * FWD_HOLD_MS: the ordering, not the host's speed, decides.
	 */
	while ((ktime_get_ns() - t0 < FWD_HOLD_MS * NSEC_PER_MSEC ||
		!fwd_throttled()) &&
	       ktime_get_ns() - t0 < 2 * FWD_GP_LIMIT_MS * NSEC_PER_MSEC &&
	       fwd_running())
		msleep(1);
	bad |= KT_EXPECT(!fwd_over_cap(),
			 "%ld callbacks in flight under the reader, over the cap of %u: the flood was not throttled",
			 READ_ONCE(fwd.inflight), fwd_max_inflight);
	bad |= KT_EXPECT(fwd_throttled(),
			 "the flood never throttled in %lu ms under the reader (%ld in flight)",
			 (unsigned long)((ktime_get_ns() - t0) / NSEC_PER_MSEC),
			 READ_ONCE(fwd.inflight));
	bad |= KT_EXPECT(!poll_state_synchronize_rcu(c),
			 "a grace period ended under a reader preempted on cpu%d",
			 cpu);
	bad |= KT_EXPECT(!smp_load_acquire(&pr.exp_done),
			 "an expedited grace period ended under a reader preempted on cpu%d",
			 cpu);
	bad |= KT_EXPECT(READ_ONCE(pr.hog_loops),
			 "nothing ran on cpu%d while its reader held: it was never preempted",
			 cpu);
	WRITE_ONCE(pr.release, 1);
	bad |= KT_EXPECT(fwd_wait_gp(c),
			 "the grace period did not end within %u ms of the reader's release",
			 FWD_GP_LIMIT_MS);
	ns = ktime_get_ns() - t0;
	invoked = __atomic_load_n(&fwd.invoked, __ATOMIC_RELAXED);
	gps = rcu_batches_completed() - g0;
	bad |= fwd_stop();
	while (!smp_load_acquire(&pr.exp_done) ||
	       !smp_load_acquire(&pr.unlocked))
		msleep(1);
	fwd_report("held", ns, invoked, gps);
	return bad;
}
