// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel KTAP tests of the RCU API both flavours share (issues 3 and
 * 4): synchronize_rcu/call_rcu/rcu_barrier, nested, preempted and migrating
 * readers, readers in IPI and NMI handlers on dynticks-idle CPUs, and many
 * grace periods with idle CPUs excused.  The host unit tests
 * (tests/host/rcupreempt/, tests/host/tree/) cover the protocols in more
 * depth; these check them on the real kernel.
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/sort.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"
#include "tests/kernel/rcu/util.h"

#define SEC	NSEC_PER_SEC

/* ------------------------------------------------------------------ */

/*
 * The least rise of rcu_batches_completed() across one full grace period:
 * the 2008 counter counts flips (a grace period is two), the tree's
 * counts whole grace periods.
 */
static long gp_min_advance(void)
{
	return rcu_flavor_is_tree() ? 1 : 2;
}

struct sync_arg {
	struct completion done;
	int rounds_ok;
};

static struct sync_arg sync_args[NR_CPUS];

static int sync_thread(void *p)
{
	struct sync_arg *a = p;

	for (int i = 0; i < 5; i++) {
		long before = rcu_batches_completed();

		synchronize_rcu();
		if (rcu_batches_completed() - before >= gp_min_advance())
			a->rounds_ok++;
	}
	complete(&a->done);
	return 0;
}

KTEST(rcu_sync_basic)
{
	int cpu, fail = 0;

	for_each_online_cpu(cpu) {
		sync_args[cpu].rounds_ok = 0;
		init_completion(&sync_args[cpu].done);
		kthread_run(sync_thread, &sync_args[cpu], cpu, "rcu_sync");
	}
	for_each_online_cpu(cpu) {
		if (KT_EXPECT(wait_for_completion_timeout(&sync_args[cpu].done,
							  20 * SEC),
			      "synchronize_rcu on cpu %d returns", cpu))
			return 1;	/* threads still use sync_args */
		fail |= KT_EXPECT(sync_args[cpu].rounds_ok == 5,
				  "cpu %d: %d of 5 waited for a full GP", cpu,
				  sync_args[cpu].rounds_ok);
	}
	return fail;
}

/* ------------------------------------------------------------------ */

#define NR_ORDER_CBS	64

struct order_cb {
	struct rcu_head head;
	long completed_at_call;
	long completed_at_invoke;
	int invoked;
};

static struct order_cb order_cbs[NR_ORDER_CBS];

static void order_cb_func(struct rcu_head *head)
{
	struct order_cb *c = container_of(head, struct order_cb, head);

	c->completed_at_invoke = rcu_batches_completed();
	c->invoked++;
}

/* Queue from hardirq context on another CPU. */
static void order_cb_queue_ipi(void *p)
{
	struct order_cb *c = p;

	c->completed_at_call = rcu_batches_completed();
	call_rcu(&c->head, order_cb_func);
}

static int queue_order_cbs(void)
{
	int cpu = 0;

	for (int i = 0; i < NR_ORDER_CBS; i++) {
		struct order_cb *c = &order_cbs[i];

		c->invoked = 0;
		if (i % 2) {
			/* Task context, wherever we run. */
			c->completed_at_call = rcu_batches_completed();
			call_rcu(&c->head, order_cb_func);
		} else {
			do
				cpu = (cpu + 1) % NR_CPUS;
			while (!cpu_online(cpu));
			smp_call_function_single(cpu, order_cb_queue_ipi, c,
						 true);
		}
	}
	return 0;
}

KTEST(rcu_call_order)
{
	int fail = 0;

	queue_order_cbs();
	rcu_barrier();
	for (int i = 0; i < NR_ORDER_CBS; i++) {
		struct order_cb *c = &order_cbs[i];

		fail |= KT_EXPECT(c->invoked == 1, "cb %d invoked %d times", i,
				  c->invoked);
		/* Flip c+1's grace period completed before flip c+2. */
		fail |= KT_EXPECT(c->completed_at_invoke -
				  c->completed_at_call >= gp_min_advance(),
				  "cb %d ran after a full grace period (%ld -> %ld)",
				  i, c->completed_at_call,
				  c->completed_at_invoke);
	}
	rcu_barrier();
	for (int i = 0; i < NR_ORDER_CBS; i++)
		fail |= KT_EXPECT(order_cbs[i].invoked == 1,
				  "cb %d still invoked once", i);
	return fail;
}

/* Named rcu_barrier in issue 4; KTEST() names the function, which rcu_barrier() already is. */
KTEST(rcu_barrier_all)
{
	int fail = 0, n = 0;

	queue_order_cbs();
	rcu_barrier();
	for (int i = 0; i < NR_ORDER_CBS; i++)
		n += order_cbs[i].invoked == 1;
	fail |= KT_EXPECT(n == NR_ORDER_CBS, "%d of %d callbacks ran", n,
			  NR_ORDER_CBS);
	/* Nothing queued: returns at once. */
	rcu_barrier();
	return fail;
}

/* ------------------------------------------------------------------ */

static struct completion waiter_done;
static volatile u64 waiter_return_ns;

static int sync_waiter(void *p)
{
	(void)p;
	synchronize_rcu();
	waiter_return_ns = ktime_get_ns();
	complete(&waiter_done);
	return 0;
}

KTEST(rcu_nested_readers)
{
	int fail = 0;
	u64 unlock_ns;

	rcu_read_lock();
	rcu_read_lock();
	rcu_read_lock();
	fail |= KT_EXPECT(current->rcu_read_lock_nesting == 3, "nesting %d",
			  current->rcu_read_lock_nesting);
	init_completion(&waiter_done);
	waiter_return_ns = 0;
	kthread_run(sync_waiter, NULL, ANY_CPU, "rcu_waiter");
	/* Preempted, not asleep: a reader must not sleep. */
	preempted_wait_ms(20);
	rcu_read_unlock();
	rcu_read_unlock();
	preempted_wait_ms(20);
	fail |= KT_EXPECT(waiter_return_ns == 0,
			  "synchronize_rcu returned under the outer reader");
	unlock_ns = ktime_get_ns();
	rcu_read_unlock();
	fail |= KT_EXPECT(current->rcu_read_lock_nesting == 0, "nesting %d",
			  current->rcu_read_lock_nesting);
	if (KT_EXPECT(wait_for_completion_timeout(&waiter_done, 20 * SEC),
		      "synchronize_rcu returns after the unlock"))
		return 1;
	fail |= KT_EXPECT(waiter_return_ns >= unlock_ns, "returned before unlock");
	return fail;
}

/* ------------------------------------------------------------------ */

static struct completion reader_locked, reader_done;
static volatile u64 reader_lock_ns, reader_unlock_ns;

static int preempted_reader(void *p)
{
	(void)p;
	rcu_read_lock();
	reader_lock_ns = ktime_get_ns();
	complete(&reader_locked);
	/* Preempted again and again for 50 ms inside the reader. */
	preempted_wait_ms(50);
	reader_unlock_ns = ktime_get_ns();
	rcu_read_unlock();
	complete(&reader_done);
	return 0;
}

KTEST(rcu_preempted_reader)
{
	int fail = 0;
	u64 ret_ns;

	init_completion(&reader_locked);
	init_completion(&reader_done);
	kthread_run(preempted_reader, NULL, ANY_CPU, "rcu_preempted");
	if (KT_EXPECT(wait_for_completion_timeout(&reader_locked, 10 * SEC),
		      "reader started"))
		return 1;
	synchronize_rcu();
	ret_ns = ktime_get_ns();
	if (KT_EXPECT(wait_for_completion_timeout(&reader_done, 10 * SEC),
		      "reader finished"))
		return 1;
	fail |= KT_EXPECT(ret_ns >= reader_unlock_ns,
			  "synchronize_rcu returned %lld us before the unlock",
			  (long long)(reader_unlock_ns - ret_ns) / 1000);
	ktap_diag("reader held %llu us; synchronize_rcu returned %llu us after the lock",
		  (unsigned long long)(reader_unlock_ns - reader_lock_ns) / 1000,
		  (unsigned long long)(ret_ns - reader_lock_ns) / 1000);
	return fail;
}

/* ------------------------------------------------------------------ */

#define OBJ_LIVE	0x1157ULL
#define OBJ_POISON	0xdeadULL

struct obj {
	struct rcu_head head;
	volatile u64 magic;
};

static void obj_poison(struct rcu_head *head)
{
	struct obj *o = container_of(head, struct obj, head);

	o->magic = OBJ_POISON;
}

/*
 * Publish a fresh object from pool[] in *gpp and poison the old one from
 * a call_rcu() callback.  A reader that finds poison in the object it
 * dereferenced saw a grace period end under it.
 */
static bool obj_replace(struct obj **gpp, struct obj *pool, int n, int *next)
{
	struct obj *old = *gpp;

	if (*next >= n)
		return false;
	rcu_assign_pointer(*gpp, &pool[(*next)++]);
	call_rcu(&old->head, obj_poison);
	return true;
}

#define NR_ROAM_OBJS	512

static struct obj roam_objs[NR_ROAM_OBJS];
static struct obj *roam_gp;
static struct completion roamer_done;
static volatile int roamer_migrations, roamer_rounds, roamer_bad;

static int migrating_reader(void *p)
{
	u64 t0 = ktime_get_ns();

	(void)p;
	/*
	 * 40 readers, and more until one has migrated (up to HOST_STALL_MS):
	 * a host that stalls this vCPU can take every tick out of 40.
	 */
	for (int i = 0; i < 40 || (!roamer_migrations && ktime_get_ns() - t0 <
				       HOST_STALL_MS * NSEC_PER_MSEC); i++) {
		struct obj *o;
		int from, to;

		rcu_read_lock();
		o = rcu_dereference(roam_gp);
		from = raw_smp_processor_id();
		busy_wait_ns(3 * NSEC_PER_MSEC);	/* a few ticks: roams */
		to = raw_smp_processor_id();
		if (o->magic != OBJ_LIVE)
			roamer_bad++;
		rcu_read_unlock();
		roamer_migrations += from != to;
		roamer_rounds++;
	}
	complete(&roamer_done);
	return 0;
}

KTEST(rcu_migrating_reader)
{
	struct task *t;
	long before = rcu_batches_completed();
	int fail = 0, next = 0, replaced = 0;
	u64 t0;

	rcu_barrier();		/* roam_objs[] callbacks from a previous run */
	for (int i = 0; i < NR_ROAM_OBJS; i++)
		roam_objs[i].magic = OBJ_LIVE;
	rcu_assign_pointer(roam_gp, &roam_objs[next++]);
	init_completion(&roamer_done);
	roamer_migrations = roamer_rounds = roamer_bad = 0;
	t = kthread_run(migrating_reader, NULL, ANY_CPU, "rcu_roamer");
	kthread_set_roaming(t, 1);
	t0 = ktime_get_ns();
	while (roamer_rounds < 40 && ktime_get_ns() - t0 < 30 * SEC) {
		replaced += obj_replace(&roam_gp, roam_objs, NR_ROAM_OBJS,
					&next);
		msleep(1);
	}
	if (KT_EXPECT(wait_for_completion_timeout(&roamer_done, 30 * SEC),
		      "roaming reader finished"))
		return 1;
	rcu_barrier();
	fail |= KT_EXPECT(roamer_bad == 0,
			  "%d readers saw their object poisoned", roamer_bad);
	fail |= KT_EXPECT(rcu_batches_completed() - before >= gp_min_advance(),
			  "grace periods went on");
	if (num_online_cpus() > 1)
		fail |= KT_EXPECT(roamer_migrations > 0,
				  "no reader migrated in %d rounds",
				  roamer_rounds);
	ktap_diag("%d of %d readers unlocked on another CPU (ran on %u CPUs, %llu switches); %d objects replaced, %ld flips",
		  roamer_migrations, roamer_rounds,
		  cpumask_weight(&t->ran_on_mask),
		  (unsigned long long)t->nr_switches, replaced,
		  rcu_batches_completed() - before);
	return fail;
}

/* ------------------------------------------------------------------ */
/* Readers in IPI and NMI handlers on a dynticks-idle CPU             */
/* ------------------------------------------------------------------ */

#define NR_OBJS		256

static struct obj objs[NR_OBJS];
static struct obj *gp_obj;

static struct handler_result {
	int target;
	volatile int armed;
	volatile int done;
	int counter_odd;		/* dynticks counter odd inside */
	u64 bad_reads;
	u64 reads;
	long completed_start, completed_end;
	const char *state_end;
} hr;

/* The reader: 20 ms inside one read-side critical section. */
static void handler_reader(void)
{
	struct obj *p;
	u64 t0;

	rcu_read_lock();
	hr.completed_start = rcu_batches_completed();
	hr.counter_odd = rcu_cpu_watching(hr.target);
	p = rcu_dereference(gp_obj);
	t0 = ktime_get_ns();
	while (ktime_get_ns() - t0 < 20 * NSEC_PER_MSEC) {
		if (p->magic != OBJ_LIVE)
			hr.bad_reads++;
		hr.reads++;
	}
	hr.completed_end = rcu_batches_completed();
	hr.state_end = rcu_gp_state_name();
	rcu_read_unlock();
	smp_store_release(&hr.done, 1);
}

static void ipi_reader(void *p)
{
	(void)p;
	handler_reader();
}

static void nmi_reader(void)
{
	if (raw_smp_processor_id() != hr.target ||
	    !__atomic_exchange_n(&hr.armed, 0, __ATOMIC_ACQ_REL))
		return;
	handler_reader();
}

/*
 * Replace gp_obj over and over, poisoning each old object from a
 * call_rcu() callback, until the handler's reader is done.  A reader that
 * sees poison saw a grace period end under it.
 */
static int run_handler_reader(bool nmi)
{
	int next = 0, fail = 0, replaced = 0;
	u64 t0;

	if (num_online_cpus() < 2) {
		ktap_diag("needs 2 CPUs: skipped");
		return 0;
	}
	rcu_barrier();		/* objs[] callbacks from a previous run */
	for (int i = 0; i < NR_OBJS; i++)
		objs[i].magic = OBJ_LIVE;
	rcu_assign_pointer(gp_obj, &objs[next++]);
	hr.target = find_idle_cpu(-1);
	if (KT_EXPECT(hr.target >= 0, "no dynticks-idle CPU found"))
		return 1;
	hr.done = 0;
	hr.bad_reads = hr.reads = 0;
	if (nmi) {
		register_nmi_handler(nmi_reader);
		__atomic_store_n(&hr.armed, 1, __ATOMIC_RELEASE);
		arch_send_nmi(hr.target);
	} else {
		smp_call_function_single(hr.target, ipi_reader, NULL, false);
	}
	t0 = ktime_get_ns();
	while (!smp_load_acquire(&hr.done) &&
	       ktime_get_ns() - t0 < 5 * SEC) {
		replaced += obj_replace(&gp_obj, objs, NR_OBJS, &next);
		/* Keep this CPU busy (and its tick on) so GPs can run. */
		busy_wait_ns(200 * NSEC_PER_USEC);
	}
	if (nmi) {
		__atomic_store_n(&hr.armed, 0, __ATOMIC_RELEASE);
		unregister_nmi_handler(nmi_reader);
	}
	fail |= KT_EXPECT(hr.done, "handler reader ran");
	fail |= KT_EXPECT(hr.bad_reads == 0,
			  "%llu of %llu reads saw a poisoned object",
			  (unsigned long long)hr.bad_reads,
			  (unsigned long long)hr.reads);
	fail |= KT_EXPECT(hr.counter_odd, "cpu %d counter even in handler",
			  hr.target);
	/* One flip may happen under the reader; its GP cannot end. */
	fail |= KT_EXPECT(hr.completed_end - hr.completed_start <= 1,
			  "grace periods %ld -> %ld under one reader",
			  hr.completed_start, hr.completed_end);
	ktap_diag("%s reader on idle cpu %d: %llu reads, %d objects replaced, completed %ld -> %ld (state %s at its end), %ld after",
		  nmi ? "NMI" : "IPI", hr.target,
		  (unsigned long long)hr.reads, replaced, hr.completed_start,
		  hr.completed_end, hr.state_end,
		  rcu_batches_completed());
	rcu_barrier();
	return fail;
}

KTEST(rcu_irq_reader_on_idle_cpu)
{
	return run_handler_reader(false);
}

KTEST(rcu_nmi_reader_on_idle_cpu)
{
	return run_handler_reader(true);
}

/* ------------------------------------------------------------------ */

/*
 * Median synchronize_rcu() latency over n calls, in this CPU's ticks (the
 * flip machine advances once per tick) and in ns.  Ticks are what the
 * comparison uses: under TCG a loaded host stretches real time and loses
 * ticks, but a lost tick also advances no grace period.
 */
static void sync_latency_median(int n, u64 *ticks, u64 *ns)
{
	u64 *lat = kmalloc(2 * n * sizeof(*lat)), *tk = lat + n;
	u64 *my_ticks = &this_cpu()->stats.ticks;	/* the test is pinned */

	BUG_ON(!lat);
	for (int i = 0; i < n; i++) {
		u64 t = ktime_get_ns(), k = READ_ONCE(*my_ticks);

		synchronize_rcu();
		lat[i] = ktime_get_ns() - t;
		tk[i] = READ_ONCE(*my_ticks) - k;
	}
	sort_u64(lat, n);
	sort_u64(tk, n);
	*ns = lat[n / 2];
	*ticks = tk[n / 2];
	kfree(lat);
}

/*
 * One busy CPU, the others dynticks-idle: 1000 grace periods complete,
 * and the idle CPUs take no ticks and no interrupts at all meanwhile (so
 * no wake-up caused by RCU): the dynticks check excuses them.  Then, in
 * the same boot, a run on one CPU: the idle CPUs are taken out of the
 * online mask (they are idle and nothing is sent to them), so that RCU's
 * grace periods involve this CPU alone.  The latency with N-1 idle CPUs
 * must be within 20% of that.
 *
 * The first RCU test to run (it is defined last in this file, link order
 * puts it first, and the substrate tests before it hold no readers): its
 * one-CPU phase sums only this CPU's rcu_flipctr[], which is
 * zero only while no reader has migrated: after rcu_migrating_reader,
 * a reader that began on one CPU and ended on another leaves +1 and -1
 * that cancel only across CPUs, and waitzero on one CPU would wait for
 * ever (seen when this ran last).
 */
KTEST(rcu_idle_cpus_excused)
{
	struct cpu_counts *before, sum;
	struct rcu_stats_snapshot s0, s1;
	int self, noisy, fail = 0;
	u64 t0, gps, lat_n, lat_1, tk_n, tk_1;

	if (num_online_cpus() < 2) {
		ktap_diag("needs a second CPU to be idle");
		return KTEST_SKIP;
	}
	preempt_disable();
	self = raw_smp_processor_id();
	preempt_enable();
	/*
	 * Let the other CPUs settle into tickless idle: until they are there,
	 * not for a fixed 20 ms, which a loaded host outlasted (an idle CPU
	 * then took its last tick inside the window).
	 */
	wait_others_tickless_idle(self);
	before = cpu_counts_snap();
	rcu_stats_get(&s0);
	t0 = ktime_get_ns();
	sync_latency_median(1000, &tk_n, &lat_n);
	rcu_stats_get(&s1);
	gps = s1.gp_completed - s0.gp_completed;
	fail |= KT_EXPECT(gps >= 1000, "%llu grace periods",
			  (unsigned long long)gps);
	noisy = idle_cpus_delta(before, self, "during the GPs", &sum);
	kfree(before);
	ktap_diag("%u idle CPUs: %lu ticks, %lu interrupts in all during %llu GPs",
		  num_online_cpus() - 1, sum.ticks, sum.wakeups,
		  (unsigned long long)gps);
	fail |= KT_EXPECT(noisy == 0, "%d idle CPUs took ticks or interrupts",
			  noisy);
	ktap_diag("%llu GPs in %llu ms",
		  (unsigned long long)gps,
		  (unsigned long long)((ktime_get_ns() - t0) / 1000000));

	/* The same boot, RCU on one CPU. */
	struct cpumask saved = cpu_online_mask;

	cpumask_clear(&cpu_online_mask);
	cpumask_set_cpu(self, &cpu_online_mask);
	sync_latency_median(300, &tk_1, &lat_1);
	cpu_online_mask = saved;
	ktap_diag("synchronize_rcu median: %llu ticks (%llu us) with %u CPUs, %u idle; %llu ticks (%llu us) on one CPU; ratio %llu%% in ticks",
		  (unsigned long long)tk_n, (unsigned long long)lat_n / 1000,
		  num_online_cpus(), num_online_cpus() - 1,
		  (unsigned long long)tk_1, (unsigned long long)lat_1 / 1000,
		  (unsigned long long)(tk_1 ? tk_n * 100 / tk_1 : 0));
	if (tk_1 || !rcu_flavor_is_tree())
		fail |= KT_EXPECT(tk_1 && tk_n * 10 <= tk_1 * 12 &&
				  tk_n * 10 >= tk_1 * 8,
				  "latency with idle CPUs %llu ticks, one CPU %llu ticks",
				  (unsigned long long)tk_n,
				  (unsigned long long)tk_1);
	else
		/*
		 * rcu=tree ends a grace period within the tick when the
		 * other CPUs are idle (the kthread's first FQS scan excuses
		 * them): compare in time, 20% or 20 us of TCG noise.
		 */
		fail |= KT_EXPECT(lat_n * 10 <= lat_1 * 12 + 200000,
				  "latency with idle CPUs %llu us, one CPU %llu us",
				  (unsigned long long)lat_n / 1000,
				  (unsigned long long)lat_1 / 1000);
	/*
	 * rcu=tree: synchronize_rcu() asks for its grace period itself
	 * (call_rcu_hurry), so the median call sees no tick of this CPU; a
	 * call_rcu() that waited for the tick to ask would see one each.
	 * A median, so that a host stall inside a few calls does not count.
	 */
	if (rcu_flavor_is_tree())
		fail |= KT_EXPECT(tk_n == 0 && tk_1 == 0,
				  "median synchronize_rcu() waited %llu ticks (%llu on one CPU): it left its request to the tick",
				  (unsigned long long)tk_n,
				  (unsigned long long)tk_1);
	return fail;
}
