// SPDX-License-Identifier: GPL-2.0
/*
 * The RCU torture test, after Linux's rcutorture (kernel/rcutorture.c of
 * 2.6.25), aimed at what the article proved in Promela: RCU readers in
 * IRQ and NMI handlers that land on dynticks-idle CPUs while other CPUs
 * drive grace periods.
 *
 * Writers publish a new element with rcu_assign_pointer() and retire the
 * old one through an update-side primitive chosen at random among those
 * the torture_gp_* options allow (rcutorture's gp_* options): a chain of
 * call_rcu() callbacks, synchronize_rcu(), synchronize_rcu_expedited(),
 * cond_synchronize_rcu() on a get_state_synchronize_rcu() cookie, or
 * start_poll_synchronize_rcu() cookies that poll_state_synchronize_rcu()
 * releases later.  An element's pipe count becomes 1 when it is
 * retired and rises by one at every grace period after that; at
 * RCU_TORTURE_PIPE_LEN it is poisoned and freed.  A reader that leaves its
 * critical section holding an element whose pipe count is 2 or more (or
 * that is poisoned, or was reused) saw a grace period end under it: RCU
 * is broken.
 *
 * Readers run in every context at once: preemptible kthreads that migrate
 * at each preemption (kthread_set_roaming()) and preempt themselves inside
 * one critical section in TORTURE_PREEMPT_ONE_IN, IRQ handlers (a quarter of
 * them nest a higher-priority IRQ with its own reader) and NMI handlers.
 * One sender thread aims the IRQs and NMIs at CPUs that are dynticks-idle
 * at that moment; the handlers hold their reader for a random time
 * (log-uniform, 1 us to torture_hold_max_us).  Each handler records
 * whether its CPU's dynticks_progress_counter was even at its entry, so
 * the run can prove that it tested what it claims (coverage).
 *
 * Output follows rcutorture: a periodic "rcu-torture: ver: N ..." line,
 * the Reader Pipe and Reader Batch histograms, "!!!" on any error, and
 * "rcu-torture: End of test: SUCCESS|FAILURE".  docs/torture.md has the
 * options and the figures.
 *
 * NMI handlers stay minimal: no locks, no allocation, no call_rcu(), no
 * printk; they only touch this CPU's counters, and record errors in
 * atomics that the statistics thread prints.
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/compiler.h"
#include "kernel/hotplug.h"
#include "kernel/irq.h"
#include "kernel/ktap.h"
#include "kernel/lockdep.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcu.h"
#include "rcu/torture.h"

/* ---- Options ---------------------------------------------------------- */

static unsigned int torture_duration = 10;
kparam_uint("torture_duration", torture_duration, 1, 86400,
	    "rcu torture: seconds to run");
static unsigned int torture_readers;
kparam_uint("torture_readers", torture_readers, 0, 64,
	    "rcu torture: reader kthreads (0: one per two CPUs)");
static unsigned int torture_writers = 1;
kparam_uint("torture_writers", torture_writers, 1, 8,
	    "rcu torture: writer kthreads");
static unsigned int torture_irq_rate = 1000;
kparam_uint("torture_irq_rate", torture_irq_rate, 0, 100000,
	    "rcu torture: IRQ readers sent per second");
static unsigned int torture_nmi_rate = 500;
kparam_uint("torture_nmi_rate", torture_nmi_rate, 0, 100000,
	    "rcu torture: NMI readers sent per second");
static unsigned int torture_hold_max_us = 2000;
kparam_uint("torture_hold_max_us", torture_hold_max_us, 1, 100000,
	    "rcu torture: longest reader hold in a handler, us");
static unsigned int torture_reader_delay_ms = 5;
kparam_uint("torture_reader_delay_ms", torture_reader_delay_ms, 0, 60000,
	    "rcu torture: reader kthreads sleep up to this between bursts");
static unsigned int torture_writer_delay_ms = 1;
kparam_uint("torture_writer_delay_ms", torture_writer_delay_ms, 0, 1000,
	    "rcu torture: writers sleep this between updates");
static unsigned int torture_busy;
kparam_uint("torture_busy", torture_busy, 0, NR_CPUS - 1,
	    "rcu torture: CPUs 1..N kept busy by a spinning thread");
static unsigned int torture_lock_delay_us;
kparam_uint("torture_lock_delay_us", torture_lock_delay_us, 0, 100000,
	    "rcu torture: one outermost rcu_read_lock() in 16 in task context spins up to this long once the grace period must wait for it (rcupreempt: between its load of completed and its counter increment; tree: after its nesting count) (0: off)");
static unsigned int torture_onoff_window_irq;
kparam_uint("torture_onoff_window_irq", torture_onoff_window_irq, 0, 1,
	    "rcu torture: a CPU going offline sends itself a torture IRQ as it reaches OUT, so that one lands in each last window (kernel/hotplug.c)");
static unsigned int torture_stat_interval = 2;
kparam_uint("torture_stat_interval", torture_stat_interval, 1, 3600,
	    "rcu torture: seconds between statistics lines");
static unsigned int torture_stall_s = 10;
kparam_uint("torture_stall_s", torture_stall_s, 1, 3600,
	    "rcu torture: seconds without a new version that mean a hang");
/*
 * The update-side primitives the writers may use, after rcutorture's
 * gp_* options: all on by default, each update picks one of those on at
 * random (struct torture_gp_type below).
 */
#define TORTURE_GP_OPTION(var, what)					\
	static unsigned int var = 1;					\
	kparam_bool(#var, var, "rcu torture: writers may use " what)

TORTURE_GP_OPTION(torture_gp_sync, "synchronize_rcu()");
TORTURE_GP_OPTION(torture_gp_exp, "synchronize_rcu_expedited() (rcu=tree)");
TORTURE_GP_OPTION(torture_gp_async, "chains of call_rcu() callbacks");
TORTURE_GP_OPTION(torture_gp_cond, "get_state + cond_synchronize_rcu()");
TORTURE_GP_OPTION(torture_gp_poll, "start_poll + poll_state_synchronize_rcu()");

/* ---- Elements ------------------------------------------------------- */

#define RCU_TORTURE_PIPE_LEN	10
#define TORTURE_NR_ELEMS	4096
#define TORTURE_LIVE		0x5a5a5a5aL
/* Poison as Linux's POISON_FREE byte. */
#define TORTURE_POISON		0x6b6b6b6bL
/* Below this many idle hits per 100 handler readers the run fails. */
#define TORTURE_MIN_IDLE_PCT	10
/* One task reader in this many preempts itself inside its section. */
#define TORTURE_PREEMPT_ONE_IN	16
/* Fewer task readers than this: too few to require a preemption. */
#define TORTURE_MIN_SAMPLE	1024
/* Fewer polled updates than this: too few to require a cookie done. */
#define TORTURE_MIN_POLLS	10

struct rcu_torture {
	struct rcu_head rtort_rcu;
	int rtort_pipe_count;
	long rtort_mbtest;		/* LIVE, or POISON once freed */
	u64 rtort_id;			/* new at each allocation */
	unsigned long rtort_cookie;	/* on a polled list: its cookie */
	struct rcu_torture *rtort_next;	/* free queue or removed list */
};

static struct rcu_torture torture_pool[TORTURE_NR_ELEMS];
/* FIFO, so a freed element is reused as late as possible. */
static struct rcu_torture *torture_free_head, *torture_free_tail;
static struct spinlock torture_free_lock = SPINLOCK_INIT("torture_free");
static struct rcu_torture *rcu_torture_current;
static struct spinlock torture_pub_lock = SPINLOCK_INIT("torture_pub");

static u64 torture_version;		/* "ver": publications */
static u64 torture_id_seq;
static u64 n_alloc, n_alloc_fail, n_free, n_cb;
static long n_cb_pending;		/* elements in a call_rcu() chain */
/*
 * The end of the run (torture_end_chains()): chains stop requeueing and
 * park their element on torture_leftover, so that one rcu_barrier() must
 * leave none queued, and the writers leave there what they retired.
 * Both under torture_cb_lock.
 */
static struct spinlock torture_cb_lock = SPINLOCK_INIT("torture_cb");
static int torture_cb_parking;
static struct rcu_torture *torture_leftover;
/* Free-Block Circulation: elements by pipe count as the count rose. */
static u64 torture_wcount[RCU_TORTURE_PIPE_LEN + 1];

/* ---- Readers' statistics and errors ----------------------------------- */

enum torture_ctx {
	CTX_TASK,		/* preemptible, migrating kthread */
	CTX_IRQ,		/* IRQ handler */
	CTX_NESTED,		/* IRQ handler nested in the above */
	CTX_NMI,		/* NMI handler */
	NR_CTX,
};

static const char *const ctx_name[NR_CTX] = { "task", "irq", "nested", "nmi" };

enum torture_err_kind {
	ERR_POISON,		/* element poisoned (freed) under a reader */
	ERR_PIPE,		/* pipe count > 1 at the reader's exit */
	ERR_REUSED,		/* element reallocated under a reader */
	ERR_EVEN,		/* dynticks counter even inside a handler */
	ERR_ACK,		/* grace period advanced past a task reader */
	NR_ERR,
};

static const char *const err_name[NR_ERR] = {
	"poisoned element", "pipe count > 1", "element reused",
	"dynticks_progress_counter even in a handler",
	"a grace period passed a reader it had to wait for (rcupreempt: a flip passed waitzero while the reader held its index: no ack)",
};

/*
 * Per CPU, written only on that CPU: task readers with preemption off,
 * each handler context into its own row, so no two writers race and the
 * fast path needs no atomic instruction.
 */
struct torture_cpu {
	int irq_busy;		/* an IRQ is on its way or being handled */
	int nmi_armed;		/* the next NMI here runs a reader */
	int high_done;		/* the nested IRQ has run */
	int window_irq;		/* torture_window_irq() sent it */
	u64 rng_irq, rng_nmi;	/* handler contexts' own generators */
	u64 reads[NR_CTX];
	u64 idle_hits[NR_CTX];	/* entered with the counter even */
	u64 migrated;		/* task readers ending on another CPU */
	u64 preempted;		/* task readers that preempted themselves */
	u64 nmi_in_irq;		/* NMI readers nested in an IRQ reader */
	/* Hold: ns from before rcu_read_lock() to after rcu_read_unlock(). */
	u64 hold_ns[NR_CTX];
	u64 hold_max_ns[NR_CTX];
	u64 pipe[NR_CTX][RCU_TORTURE_PIPE_LEN + 1];
	u64 batch[NR_CTX][RCU_TORTURE_PIPE_LEN + 1];
} __cacheline_aligned;

static struct torture_cpu torture_cpus[NR_CPUS];
static u64 torture_errs[NR_ERR];
static u64 n_sent_idle[2], n_sent_busy[2];	/* [0] IRQ, [1] NMI */
/* torture_window_irq()'s IRQs: one dying CPU at a time changes it. */
static u64 n_window_irqs;
/* torture_lock_delay(): spins done and their total ns, from any CPU. */
static u64 n_lock_delays, lock_delay_ns;
/* Hook calls from a nested rcu_read_lock(), and the first one's depth. */
static u64 n_lock_delay_nested;
static int lock_delay_nested_depth;

/* The first error, for the report; claimed once, from any context. */
static struct {
	int claimed;
	int kind, ctx, cpu, pipe;
	u64 id;
	long mbtest;
	long counter;
} first_err;

static int torture_stop;		/* threads: finish up */
static int torture_running;		/* handlers: run readers */
static long torture_threads;		/* live torture kthreads */

static u64 torture_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Log-uniform in [1, max_ns]: as many short holds as long ones. */
static u64 torture_hold_ns(u64 *rng, u64 max_ns)
{
	u64 r = torture_rand(rng), v;
	unsigned int bits = 0, e;

	/* 2^bits <= max_ns < 2^(bits + 1) */
	while (bits < 62 && (2ULL << bits) <= max_ns)
		bits++;
	e = (unsigned int)(r % (bits + 1));
	v = (1ULL << e) + (r >> 8) % (1ULL << e);
	return v < max_ns ? v : max_ns;
}

/* Spin with the context's interrupt state unchanged (handlers, NMI). */
static void torture_spin_ns(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		arch_cpu_relax();
}

static void torture_error(int kind, int ctx, int cpu,
			  struct rcu_torture *p, int pipe, long mbtest)
{
	__atomic_fetch_add(&torture_errs[kind], 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&first_err.claimed, 1, __ATOMIC_ACQ_REL))
		return;
	first_err.kind = kind;
	first_err.ctx = ctx;
	first_err.cpu = cpu;
	first_err.pipe = pipe;
	first_err.id = p ? READ_ONCE(p->rtort_id) : 0;
	first_err.mbtest = mbtest;
	first_err.counter = rcu_cpu_watching_counter(cpu);
}

/* ---- The read side -------------------------------------------------- */

bool torture_lock_delay_wanted(void)
{
	return torture_lock_delay_us != 0;
}

/*
 * The rcu_read_lock() hook (rcu_read_lock_delay_set()): the flavour calls
 * it in the outermost lock at the point from which a correct grace period
 * waits for the reader (rcupreempt: IRQs off, completed loaded, the
 * counter not yet incremented, so this CPU cannot acknowledge a flip;
 * tree: the nesting count set, so this CPU cannot report a quiescent
 * state).  Task context only (handlers must stay short), one outermost
 * lock in 16.
 */
static void torture_lock_delay(void)
{
	static u64 rng = 0x1b873593ULL;
	u64 r, ns;

	/*
	 * Both flavours call the hook from an outermost lock only, with the
	 * count of the task (or of the task a handler interrupted) not yet
	 * set (rcupreempt) or just set to 1 (tree): any other count is a
	 * nested lock calling it, where holding grace periods up proves
	 * nothing.  Checked in every context, before any early return.
	 */
	int depth = READ_ONCE(current->rcu_read_lock_nesting);

	if (depth != (rcu_flavor_is_tree() ? 1 : 0) &&
	    !__atomic_fetch_add(&n_lock_delay_nested, 1, __ATOMIC_RELAXED))
		WRITE_ONCE(lock_delay_nested_depth, depth);
	if (in_interrupt() || !READ_ONCE(torture_running))
		return;
	/* A racy shared generator is fine: any value will do. */
	r = torture_rand(&rng);
	WRITE_ONCE(rng, r);
	if (r & 15)
		return;
	ns = (r >> 8) % (torture_lock_delay_us * NSEC_PER_USEC + 1);
	torture_spin_ns(ns);
	__atomic_fetch_add(&n_lock_delays, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&lock_delay_ns, ns, __ATOMIC_RELAXED);
}

struct torture_rd {
	struct rcu_torture *p;
	u64 id;
	u64 t0;				/* before rcu_read_lock() */
	long completed;
	int cpu;
	bool preempted;			/* task: called preempt_schedule() */
};

static void torture_read_begin(struct torture_rd *rd, int ctx)
{
	rd->t0 = ktime_get_ns();
	rd->preempted = false;
	rcu_read_lock();
	rd->cpu = raw_smp_processor_id();
	rd->completed = rcu_batches_completed();
	rd->p = rcu_dereference(rcu_torture_current);
	if (!rd->p)
		return;
	rd->id = READ_ONCE(rd->p->rtort_id);
	if (READ_ONCE(rd->p->rtort_mbtest) != TORTURE_LIVE)
		torture_error(ERR_POISON, ctx, rd->cpu, rd->p, -1,
			      READ_ONCE(rd->p->rtort_mbtest));
}

/* Ends the critical section and counts it on the CPU we are on now. */
static void torture_read_end(struct torture_rd *rd, int ctx, bool idle)
{
	struct rcu_torture *p = rd->p;
	int pipe = 0, cpu;
	long batch, mb = TORTURE_LIVE;
	u64 id = rd->id, hold;
	struct torture_cpu *tc;

	if (p) {
		/* The pipe count as we leave: at most 1 if RCU works. */
		pipe = READ_ONCE(p->rtort_pipe_count);
		mb = READ_ONCE(p->rtort_mbtest);
		id = READ_ONCE(p->rtort_id);
	}
	batch = rcu_batches_completed() - rd->completed;
	rcu_read_unlock();
	hold = ktime_get_ns() - rd->t0;

	if (ctx == CTX_TASK)
		preempt_disable();
	cpu = raw_smp_processor_id();
	if (p && mb != TORTURE_LIVE)
		torture_error(ERR_POISON, ctx, cpu, p, pipe, mb);
	else if (p && id != rd->id)
		torture_error(ERR_REUSED, ctx, cpu, p, pipe, mb);
	if (pipe > 1)
		torture_error(ERR_PIPE, ctx, cpu, p, pipe, mb);
	if (pipe > RCU_TORTURE_PIPE_LEN || pipe < 0)
		pipe = RCU_TORTURE_PIPE_LEN;
	if (batch > RCU_TORTURE_PIPE_LEN || batch < 0)
		batch = RCU_TORTURE_PIPE_LEN;
	tc = &torture_cpus[cpu];
	tc->reads[ctx]++;
	tc->idle_hits[ctx] += idle;
	tc->pipe[ctx][pipe]++;
	tc->batch[ctx][batch]++;
	tc->hold_ns[ctx] += hold;
	if (hold > tc->hold_max_ns[ctx])
		tc->hold_max_ns[ctx] = hold;
	if (ctx == CTX_TASK) {
		tc->migrated += cpu != rd->cpu;
		tc->preempted += rd->preempted;
		preempt_enable();
	}
}

/*
 * Did this handler's CPU have an even dynticks_progress_counter at entry?
 * We run after rcu_irq_enter(), which made it odd and set rcu_update_flag
 * to 1 exactly when it found it even at the outermost level; depth is the
 * hardirq nesting this handler expects if that was the case (an NMI counts
 * as one level, see nmi_enter()).  So flag == depth at that depth proves
 * the CPU was dynticks-idle until this handler's nest began (the same
 * reasoning as tests/kernel/rcupreempt/test_dynticks.c).
 */
static bool torture_entered_idle(int cpu, unsigned int depth)
{
	(void)cpu;
	return hardirq_count() == depth * HARDIRQ_OFFSET &&
	       rcu_entered_from_idle(depth);
}

/* Inside any handler the CPU may run readers: the counter must be odd. */
static void torture_check_odd(int cpu, int ctx)
{
	if (!rcu_cpu_watching(cpu))
		torture_error(ERR_EVEN, ctx, cpu, NULL, -1,
			      rcu_cpu_watching_counter(cpu));
}

static void torture_irq_high(void)
{
	int cpu = raw_smp_processor_id();
	struct torture_cpu *tc = &torture_cpus[cpu];
	struct torture_rd rd;
	bool idle = torture_entered_idle(cpu, 2);

	torture_check_odd(cpu, CTX_NESTED);
	torture_read_begin(&rd, CTX_NESTED);
	torture_spin_ns(torture_hold_ns(&tc->rng_irq, torture_hold_max_us *
					NSEC_PER_USEC / 8));
	torture_read_end(&rd, CTX_NESTED, idle);
	/* Orders the reader's accesses before the low handler sees done. */
	smp_store_release(&tc->high_done, 1);
}

/*
 * The longest a handler in a last window waits for PARK.  The sync it
 * waits for takes as long as the longest IRQs-off hold on an online CPU
 * (up to torture_hold_max_us) plus what a loaded host adds; nothing waits
 * on the offline CPU but cpu_down() and the grace periods, which do so
 * for any reader.
 */
#define TORTURE_WINDOW_HOLD_MS	200

static void torture_irq_low(void)
{
	int cpu = raw_smp_processor_id();
	struct torture_cpu *tc = &torture_cpus[cpu];
	struct torture_rd rd;
	bool idle = torture_entered_idle(cpu, 1);
	u64 hold = torture_hold_ns(&tc->rng_irq,
				   torture_hold_max_us * NSEC_PER_USEC);
	bool nest = (torture_rand(&tc->rng_irq) & 3) == 0;
	bool window = tc->window_irq;

	tc->window_irq = 0;
	if (!READ_ONCE(torture_running))
		goto out;
	torture_check_odd(cpu, CTX_IRQ);
	torture_read_begin(&rd, CTX_IRQ);
	if (window) {
		/*
		 * In the dying CPU's last window: hold until cpu_down()
		 * has stored PARK (at most TORTURE_WINDOW_HOLD_MS), then
		 * try to nest, the order that a handler here must survive.
		 */
		u64 t0 = ktime_get_ns();

		while (!cpu_is_parked(cpu) && ktime_get_ns() - t0 <
		       TORTURE_WINDOW_HOLD_MS * NSEC_PER_MSEC)
			arch_cpu_relax();
		nest = true;
	} else {
		torture_spin_ns(hold / 2);
	}
	/*
	 * Nest only while this CPU is online.  Only the CPU itself clears
	 * its online bit (sched_cpu_dying(), from cpu_die() in its idle
	 * task), and it cannot get there while this handler runs, so the
	 * bit holds still until we return.  Set: cpu_die() has not begun,
	 * so cpu_down() has not seen OUT and cannot store PARK before we
	 * return; the self-IPI lands inside us.  Clear: we run in the dying
	 * CPU's last window (kernel/hotplug.c), whose sync waits only for
	 * the online CPUs, so PARK may be stored at any moment, and an IPI
	 * to a parked CPU is a bug (arch_send_ipi() WARNs): do not send.
	 */
	if (nest && cpu_online(cpu)) {
		/*
		 * IRQ_TEST_HIGH outranks this vector (and the tick's), so
		 * with interrupts on it runs inside us: a nested handler
		 * on a CPU whose nest began in idle.  The tick may nest too.
		 */
		WRITE_ONCE(tc->high_done, 0);
		local_irq_enable();
		arch_send_ipi(cpu, IRQ_TEST_HIGH);
		/* Acquire: pairs with the nested handler's release. */
		for (u64 t0 = ktime_get_ns();
		     !smp_load_acquire(&tc->high_done) &&
		     ktime_get_ns() - t0 < 10 * NSEC_PER_MSEC;)
			arch_cpu_relax();
		local_irq_disable();
	}
	torture_spin_ns(hold - hold / 2);
	torture_read_end(&rd, CTX_IRQ, idle);
out:
	/* Orders the reader's accesses before the sender may aim again. */
	smp_store_release(&tc->irq_busy, 0);
}

static void torture_nmi(void)
{
	int cpu = raw_smp_processor_id();
	struct torture_cpu *tc = &torture_cpus[cpu];
	struct torture_rd rd;
	bool idle;

	/*
	 * Only the NMIs the sender aimed here run a reader.  Acquire pairs
	 * with the sender's release of the claim (nothing else to order:
	 * the claim is the whole message).
	 */
	if (!__atomic_exchange_n(&tc->nmi_armed, 0, __ATOMIC_ACQ_REL))
		return;
	idle = torture_entered_idle(cpu, 1);
	if (hardirq_count() > HARDIRQ_OFFSET && READ_ONCE(tc->irq_busy))
		tc->nmi_in_irq++;
	torture_check_odd(cpu, CTX_NMI);
	torture_read_begin(&rd, CTX_NMI);
	torture_spin_ns(torture_hold_ns(&tc->rng_nmi, torture_hold_max_us *
					NSEC_PER_USEC / 4));
	torture_read_end(&rd, CTX_NMI, idle);
}

/*
 * Release: orders the thread's last accesses (its counters, its drained
 * removed list) before the count the main thread reads with acquire.
 */
static void torture_thread_exit(void)
{
	__atomic_fetch_sub(&torture_threads, 1, __ATOMIC_RELEASE);
}

/*
 * Still inside a reader whose outermost rcu_read_lock() ran right after
 * g0 = rcu_batches_completed(), IRQs off across both: the flavour says
 * whether its grace-period machine went further than it may while the
 * reader holds on (rcu_torture_gp_passed(): the 2008 flip
 * acknowledgement, the tree's grace-period count).
 */
static void torture_check_ack(long g0)
{
	if (rcu_torture_gp_passed(g0))
		torture_error(ERR_ACK, CTX_TASK, raw_smp_processor_id(),
			      NULL, (int)(rcu_batches_completed() - g0), 0);
}

/*
 * Hold a task reader for hold ns, preemptibly.  If preempt, half way
 * through it preempts itself, as rcutorture's readers do
 * (torture_preempt_schedule()): a legal preemption, not a sleep, at a
 * moment no tick chose, so it often comes after a grace period has begun
 * and before this CPU's first tick of it.  Being roaming, the reader
 * leaves for another CPU (rcu=tree: on its leaf's blkd_tasks meanwhile).
 */
static void torture_hold_task(u64 hold, bool preempt)
{
	if (!preempt) {
		busy_wait_ns(hold);
		return;
	}
	busy_wait_ns(hold / 2);
	preempt_schedule();
	busy_wait_ns(hold - hold / 2);
}

static int torture_reader(void *arg)
{
	u64 rng = 0x9e3779b97f4a7c15ULL * ((unsigned long)arg + 1);
	u64 max = torture_hold_max_us * NSEC_PER_USEC;
	struct torture_rd rd;

	while (!READ_ONCE(torture_stop)) {
		u64 end = ktime_get_ns() + NSEC_PER_MSEC;

		/* A burst of reads, some nested, some long enough to be
		 * preempted (and so migrate) inside the critical section. */
		do {
			u64 r = torture_rand(&rng);
			bool nest = (r & 7) == 0;
			unsigned long flags;
			long g0;

			/*
			 * With interrupts off this CPU can neither
			 * acknowledge a flip nor report a quiescent state
			 * between the load of g0 and rcu_read_lock().
			 */
			local_irq_save(flags);
			g0 = rcu_batches_completed();
			torture_read_begin(&rd, CTX_TASK);
			local_irq_restore(flags);
			rd.preempted = (r >> 3) % TORTURE_PREEMPT_ONE_IN == 0;
			if (nest)
				rcu_read_lock();
			torture_hold_task(torture_hold_ns(&rng, max),
					  rd.preempted);
			if (nest)
				rcu_read_unlock();
			torture_check_ack(g0);
			torture_read_end(&rd, CTX_TASK, false);
		} while (ktime_get_ns() < end);
		if (torture_reader_delay_ms)
			msleep(1 + torture_rand(&rng) %
			       torture_reader_delay_ms);
		else
			yield();
	}
	torture_thread_exit();
	return 0;
}

/* ---- The update side ------------------------------------------------ */

static struct rcu_torture *torture_alloc(void)
{
	struct rcu_torture *p;
	unsigned long flags;

	spin_lock_irqsave(&torture_free_lock, flags);
	p = torture_free_head;
	if (p) {
		torture_free_head = p->rtort_next;
		if (!torture_free_head)
			torture_free_tail = NULL;
		n_alloc++;
	} else {
		n_alloc_fail++;
	}
	spin_unlock_irqrestore(&torture_free_lock, flags);
	if (!p)
		return NULL;
	p->rtort_pipe_count = 0;
	p->rtort_id = __atomic_add_fetch(&torture_id_seq, 1,
					 __ATOMIC_RELAXED);
	p->rtort_next = NULL;
	WRITE_ONCE(p->rtort_mbtest, TORTURE_LIVE);
	return p;
}

/* Poison, then queue at the tail. */
static void torture_free(struct rcu_torture *p)
{
	unsigned long flags;

	WRITE_ONCE(p->rtort_mbtest, TORTURE_POISON);
	p->rtort_next = NULL;
	spin_lock_irqsave(&torture_free_lock, flags);
	if (torture_free_tail)
		torture_free_tail->rtort_next = p;
	else
		torture_free_head = p;
	torture_free_tail = p;
	n_free++;
	spin_unlock_irqrestore(&torture_free_lock, flags);
}

/*
 * One more grace period has passed since p was retired (or p was just
 * retired).  Returns true once p has waited out the whole pipe.
 */
static bool torture_pipe_update_one(struct rcu_torture *p)
{
	int i = p->rtort_pipe_count;

	if (i > RCU_TORTURE_PIPE_LEN)
		i = RCU_TORTURE_PIPE_LEN;
	__atomic_fetch_add(&torture_wcount[i], 1, __ATOMIC_RELAXED);
	WRITE_ONCE(p->rtort_pipe_count, p->rtort_pipe_count + 1);
	return p->rtort_pipe_count >= RCU_TORTURE_PIPE_LEN;
}

/*
 * The update-side primitives a writer retires an element with, after
 * rcutorture's gp_* options: each update draws one at random among those
 * its torture_gp_* option allows and the flavour has, from a shuffled
 * deck (struct torture_deck), so that every one of them is used.
 */
enum torture_gp {
	GP_SYNC,		/* synchronize_rcu() */
	GP_EXP,			/* synchronize_rcu_expedited() */
	GP_ASYNC,		/* a chain of call_rcu() callbacks */
	GP_COND,		/* get_state + cond_synchronize_rcu() */
	GP_POLL,		/* start_poll, then poll_state later */
	NR_GP,
};

struct torture_gp_type {
	const char *name;	/* in the statistics */
	const char *option;
	const char *primitive;
	const unsigned int *enabled;
};

static const struct torture_gp_type gp_types[NR_GP] = {
	[GP_SYNC] = { "sync", "torture_gp_sync", "synchronize_rcu()",
		      &torture_gp_sync },
	[GP_EXP] = { "exp", "torture_gp_exp", "synchronize_rcu_expedited()",
		     &torture_gp_exp },
	[GP_ASYNC] = { "async", "torture_gp_async", "call_rcu()",
		       &torture_gp_async },
	[GP_COND] = { "cond", "torture_gp_cond", "cond_synchronize_rcu()",
		      &torture_gp_cond },
	[GP_POLL] = { "poll", "torture_gp_poll",
		      "poll_state_synchronize_rcu()", &torture_gp_poll },
};

static u64 n_gp[NR_GP];			/* elements retired by each */
static u64 n_cond_done;			/* cond cookies already done */
static u64 n_poll_done;			/* polled cookies found done */
static int torture_gps[NR_GP];		/* the primitives in use */
static int torture_nr_gps;

/*
 * A writer's deck of the primitives in use: random order, but each is
 * drawn once before any is drawn again.  Drawn independently, one of
 * five could go unused for the 60-odd updates of a short run under a
 * loaded host; this way a run of torture_nr_gps updates per writer uses
 * them all, and one that did not is a bug.
 */
struct torture_deck {
	int card[NR_GP];
	int left;
};

static int torture_draw(struct torture_deck *d, u64 *rng)
{
	int i, gp;

	if (!d->left) {
		memcpy(d->card, torture_gps, sizeof(d->card));
		d->left = torture_nr_gps;
	}
	i = (int)(torture_rand(rng) % (u64)d->left);
	gp = d->card[i];
	d->card[i] = d->card[--d->left];
	return gp;
}

/*
 * Put a list of retired elements (linked by rtort_next) on
 * torture_leftover, to wait out their pipes at the end of the run.
 */
static void torture_leave_locked(struct rcu_torture *list)
{
	lockdep_assert_held(&torture_cb_lock);
	while (list) {
		struct rcu_torture *next = list->rtort_next;

		list->rtort_next = torture_leftover;
		torture_leftover = list;
		list = next;
	}
}

/* Does the flavour have it of its own (not a fallback)? */
static bool torture_gp_available(int gp)
{
	return gp != GP_EXP || rcu_has_expedited();
}

static void torture_cb(struct rcu_head *head)
{
	struct rcu_torture *p = container_of(head, struct rcu_torture,
					     rtort_rcu);
	unsigned long flags;

	__atomic_fetch_add(&n_cb, 1, __ATOMIC_RELAXED);
	if (torture_pipe_update_one(p)) {
		torture_free(p);
		/* Release: the free above is done before the count drops
		 * (pairs with the acquire loads at the end of the run). */
		__atomic_fetch_sub(&n_cb_pending, 1, __ATOMIC_RELEASE);
		return;
	}
	/*
	 * Requeue or park under the lock that torture_park_chains() takes:
	 * a requeue before it is queued before the end's rcu_barrier()
	 * looks at this CPU, and a callback that runs after it parks.
	 */
	spin_lock_irqsave(&torture_cb_lock, flags);
	if (!torture_cb_parking) {
		call_rcu(&p->rtort_rcu, torture_cb);
	} else {
		p->rtort_next = NULL;
		torture_leave_locked(p);
		/* Relaxed: the end reads it after rcu_barrier(), whose
		 * completion orders every callback's accesses before. */
		__atomic_fetch_sub(&n_cb_pending, 1, __ATOMIC_RELAXED);
	}
	spin_unlock_irqrestore(&torture_cb_lock, flags);
}

/* The end of the run: from now on every chain's next callback parks. */
static void torture_park_chains(void)
{
	unsigned long flags;

	spin_lock_irqsave(&torture_cb_lock, flags);
	torture_cb_parking = 1;
	spin_unlock_irqrestore(&torture_cb_lock, flags);
}

/* The leftover elements, once no callback or writer can add any. */
static struct rcu_torture *torture_take_leftover(void)
{
	struct rcu_torture *list;
	unsigned long flags;

	spin_lock_irqsave(&torture_cb_lock, flags);
	list = torture_leftover;
	torture_leftover = NULL;
	spin_unlock_irqrestore(&torture_cb_lock, flags);
	return list;
}

/* Publish rp (NULL at the end) and retire the element it replaces. */
static struct rcu_torture *torture_publish(struct rcu_torture *rp)
{
	struct rcu_torture *old;
	unsigned long flags;

	spin_lock_irqsave(&torture_pub_lock, flags);
	old = rcu_torture_current;
	rcu_assign_pointer(rcu_torture_current, rp);
	if (rp)
		WRITE_ONCE(torture_version, torture_version + 1);
	if (old)
		torture_pipe_update_one(old);	/* 0 -> 1: retired */
	spin_unlock_irqrestore(&torture_pub_lock, flags);
	return old;
}

/* After a full grace period: advance this writer's removed list. */
static void torture_pipe_update(struct rcu_torture **removed)
{
	struct rcu_torture **pp = removed;

	while (*pp) {
		struct rcu_torture *p = *pp;

		if (torture_pipe_update_one(p)) {
			*pp = p->rtort_next;
			torture_free(p);
		} else {
			pp = &p->rtort_next;
		}
	}
}

/*
 * Advance each element of this writer's polled list whose cookie is done
 * (a full grace period since the cookie was taken) by one, and give it a
 * new cookie for the next; free it at the end of its pipe.
 */
static void torture_poll_update(struct rcu_torture **polled)
{
	struct rcu_torture **pp = polled;

	while (*pp) {
		struct rcu_torture *p = *pp;

		if (!poll_state_synchronize_rcu(p->rtort_cookie)) {
			pp = &p->rtort_next;
			continue;
		}
		__atomic_fetch_add(&n_poll_done, 1, __ATOMIC_RELAXED);
		if (torture_pipe_update_one(p)) {
			*pp = p->rtort_next;
			torture_free(p);
		} else {
			p->rtort_cookie = start_poll_synchronize_rcu();
			pp = &p->rtort_next;
		}
	}
}

/*
 * cond_synchronize_rcu() on a cookie taken now, sometimes after a sleep
 * of up to 15 ms (rcutorture's gp_cond waits up to 16 jiffies), so that
 * both of its paths run: the cookie already done, or a grace period.
 */
static void torture_cond_sync(u64 *rng)
{
	unsigned long cookie = get_state_synchronize_rcu();
	u64 r = torture_rand(rng);

	if (!(r & 3))
		msleep((unsigned int)(r >> 2) % 16);
	if (poll_state_synchronize_rcu(cookie))
		__atomic_fetch_add(&n_cond_done, 1, __ATOMIC_RELAXED);
	cond_synchronize_rcu(cookie);
}

static void torture_retire(struct rcu_torture *old,
			   struct rcu_torture **removed,
			   struct rcu_torture **polled,
			   struct torture_deck *deck, u64 *rng)
{
	int gp = torture_draw(deck, rng);

	__atomic_fetch_add(&n_gp[gp], 1, __ATOMIC_RELAXED);
	switch (gp) {
	case GP_ASYNC:
		__atomic_fetch_add(&n_cb_pending, 1, __ATOMIC_RELAXED);
		call_rcu(&old->rtort_rcu, torture_cb);
		return;
	case GP_POLL:
		/*
		 * Its full barrier orders the unpublication (in
		 * torture_publish()) before the snapshot it takes.
		 */
		old->rtort_cookie = start_poll_synchronize_rcu();
		old->rtort_next = *polled;
		*polled = old;
		return;
	}
	old->rtort_next = *removed;
	*removed = old;
	if (gp == GP_EXP)
		synchronize_rcu_expedited();
	else if (gp == GP_COND)
		torture_cond_sync(rng);
	else
		synchronize_rcu();
	torture_pipe_update(removed);
}

/* Wait out every element on a removed list, one grace period a pass. */
static void torture_drain(struct rcu_torture **removed)
{
	while (*removed) {
		synchronize_rcu();
		torture_pipe_update(removed);
	}
}

static int torture_writer(void *arg)
{
	u64 rng = 0xd1b54a32d192ed03ULL * ((unsigned long)arg + 1);
	struct rcu_torture *removed = NULL, *polled = NULL, *rp, *old;
	struct torture_deck deck = { .left = 0 };
	unsigned long flags;

	while (!READ_ONCE(torture_stop)) {
		torture_poll_update(&polled);
		rp = torture_alloc();
		if (!rp) {
			/* Pool empty: let grace periods free some. */
			synchronize_rcu();
			torture_pipe_update(&removed);
			continue;
		}
		old = torture_publish(rp);
		if (old)
			torture_retire(old, &removed, &polled, &deck, &rng);
		if (torture_writer_delay_ms)
			msleep(torture_writer_delay_ms);
		else
			yield();
	}
	/*
	 * Leave what this writer retired to the end of the run, which
	 * waits it out after its rcu_barrier() (a synchronize_rcu() a pipe
	 * stage, polled elements too): the writers stop at once.
	 */
	spin_lock_irqsave(&torture_cb_lock, flags);
	torture_leave_locked(removed);
	torture_leave_locked(polled);
	spin_unlock_irqrestore(&torture_cb_lock, flags);
	torture_thread_exit();
	return 0;
}

/* Keeps one CPU busy (preemptibly): the mix of busy and idle CPUs. */
static int torture_spinner(void *arg)
{
	(void)arg;
	while (!READ_ONCE(torture_stop))
		busy_wait_ns(NSEC_PER_MSEC);
	torture_thread_exit();
	return 0;
}

/* ---- The IRQ/NMI sender --------------------------------------------- */

/*
 * A CPU other than ours whose slot for kind is free and that is
 * dynticks-idle now (or any such CPU if any_cpu), or -1.  *idle says
 * which.  Claims the slot.
 */
static int torture_pick(int kind, bool any_cpu, u64 *rng, bool *idle)
{
	int self = raw_smp_processor_id();
	int n = (int)nr_cpu_ids;
	int start = (int)(torture_rand(rng) % (u64)n);

	for (int i = 0; i < n; i++) {
		int cpu = (start + i) % n;
		struct torture_cpu *tc = &torture_cpus[cpu];
		int *slot = kind ? &tc->nmi_armed : &tc->irq_busy;

		if (cpu == self || !cpu_online(cpu) || READ_ONCE(*slot))
			continue;
		*idle = READ_ONCE(per_cpu_area(cpu)->in_idle);
		if (!*idle && !any_cpu)
			continue;
		/* Publishes the claim before the IPI that the handler
		 * answers by clearing it (IRQ) or consuming it (NMI). */
		smp_store_release(slot, 1);
		return cpu;
	}
	return -1;
}

/*
 * cpuhp_out_hook (torture_onoff_window_irq): on the dying CPU, at OUT,
 * IRQs off.  It is offline already, so the sender no longer aims here;
 * claim its IRQ slot as the sender would and send a low IRQ to ourselves
 * (not parked: cpu_down() stores PARK only after it saw OUT and its
 * sync).  It is taken as cpu_die() turns IRQs on: a reader in the last
 * window, which holds until PARK and then tries to nest.
 */
static void torture_window_irq(int cpu)
{
	struct torture_cpu *tc = &torture_cpus[cpu];

	lockdep_assert_irqs_disabled();
	if (!READ_ONCE(torture_running) || READ_ONCE(tc->irq_busy))
		return;
	/* Publishes the claim before the IPI whose handler clears it. */
	smp_store_release(&tc->irq_busy, 1);
	/* Read by the handler on this CPU: program order is enough. */
	tc->window_irq = 1;
	arch_send_ipi(cpu, IRQ_TEST_LOW);
	n_window_irqs++;
}

/* Past due by this much with no idle CPU: send to a busy one. */
#define TORTURE_FALLBACK_NS	(20 * NSEC_PER_MSEC)

static int torture_sender(void *arg)
{
	u64 rng = 0xa0761d6478bd642fULL;
	u64 period[2] = {
		torture_irq_rate ? NSEC_PER_SEC / torture_irq_rate : 0,
		torture_nmi_rate ? NSEC_PER_SEC / torture_nmi_rate : 0,
	};
	u64 next[2];

	(void)arg;
	next[0] = next[1] = ktime_get_ns();
	while (!READ_ONCE(torture_stop)) {
		u64 now = ktime_get_ns();

		for (int k = 0; k < 2; k++) {
			unsigned long flags;
			bool idle;
			int cpu;

			if (!period[k] || now < next[k])
				continue;
			/*
			 * IRQs off from the online test to the send: a CPU
			 * going offline waits for this section to end before
			 * it parks (kernel/hotplug.c), so it still takes it.
			 * The sync covers senders on the online CPUs only;
			 * a handler already running on the dying CPU (the
			 * nested self-IPI of torture_irq_low()) tests its
			 * own online bit instead, which holds still under it.
			 */
			local_irq_save(flags);
			cpu = torture_pick(k, now - next[k] >
					   TORTURE_FALLBACK_NS, &rng, &idle);
			if (cpu >= 0) {
				if (k)
					arch_send_nmi(cpu);
				else
					arch_send_ipi(cpu, IRQ_TEST_LOW);
			}
			local_irq_restore(flags);
			if (cpu < 0)
				continue;
			if (idle)
				n_sent_idle[k]++;
			else
				n_sent_busy[k]++;
			next[k] += period[k];
			/* Fell far behind (a slow host): do not burst. */
			if (now - next[k] < (u64)1 << 62 &&
			    now - next[k] > 100 * NSEC_PER_MSEC)
				next[k] = now;
		}
		busy_wait_ns(2 * NSEC_PER_USEC);
	}
	torture_thread_exit();
	return 0;
}

/* ---- Statistics ----------------------------------------------------- */

struct torture_totals {
	u64 reads[NR_CTX], idle_hits[NR_CTX];
	u64 pipe[RCU_TORTURE_PIPE_LEN + 1], batch[RCU_TORTURE_PIPE_LEN + 1];
	u64 migrated, preempted, nmi_in_irq, errs;
	u64 gps;
	u64 hold_ns[NR_CTX], hold_max_ns[NR_CTX];
};

static u64 torture_gp_base;

static void torture_sum(struct torture_totals *t)
{
	struct rcu_stats_snapshot s;
	int cpu;

	memset(t, 0, sizeof(*t));
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct torture_cpu *tc = &torture_cpus[cpu];

		for (int c = 0; c < NR_CTX; c++) {
			t->reads[c] += READ_ONCE(tc->reads[c]);
			t->idle_hits[c] += READ_ONCE(tc->idle_hits[c]);
			t->hold_ns[c] += READ_ONCE(tc->hold_ns[c]);
			t->hold_max_ns[c] = max(t->hold_max_ns[c],
						READ_ONCE(tc->hold_max_ns[c]));
			for (int i = 0; i <= RCU_TORTURE_PIPE_LEN; i++) {
				t->pipe[i] += READ_ONCE(tc->pipe[c][i]);
				t->batch[i] += READ_ONCE(tc->batch[c][i]);
			}
		}
		t->migrated += READ_ONCE(tc->migrated);
		t->preempted += READ_ONCE(tc->preempted);
		t->nmi_in_irq += READ_ONCE(tc->nmi_in_irq);
	}
	for (int e = 0; e < NR_ERR; e++)
		t->errs += __atomic_load_n(&torture_errs[e], __ATOMIC_RELAXED);
	rcu_stats_get(&s);
	t->gps = s.gp_completed - torture_gp_base;
}

static u64 torture_handler_reads(struct torture_totals *t)
{
	return t->reads[CTX_IRQ] + t->reads[CTX_NESTED] + t->reads[CTX_NMI];
}

static u64 torture_handler_idle(struct torture_totals *t)
{
	return t->idle_hits[CTX_IRQ] + t->idle_hits[CTX_NESTED] +
	       t->idle_hits[CTX_NMI];
}

static void torture_hist(char *buf, size_t size, const u64 *h)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i <= RCU_TORTURE_PIPE_LEN && n < size; i++)
		n += snprintf(buf + n, size - n, " %lu", h[i]);
}

/* Mean and max hold per context, "task 12/345 irq ..." (ns). */
static void torture_holds(char *buf, size_t size, struct torture_totals *t)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < NR_CTX && n < size; c++)
		n += snprintf(buf + n, size - n, " %s %lu/%lu", ctx_name[c],
			      t->reads[c] ? t->hold_ns[c] / t->reads[c] : 0,
			      t->hold_max_ns[c]);
}

/*
 * Elements retired by each primitive, "sync 12 exp n/a ...": "off" for an
 * option set to 0, "n/a" for what the flavour does not have.
 */
static void torture_gp_counts(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int g = 0; g < NR_GP && n < size; g++) {
		if (!*gp_types[g].enabled)
			n += snprintf(buf + n, size - n, " %s off",
				      gp_types[g].name);
		else if (!torture_gp_available(g))
			n += snprintf(buf + n, size - n, " %s n/a",
				      gp_types[g].name);
		else
			n += snprintf(buf + n, size - n, " %s %lu",
				      gp_types[g].name,
				      __atomic_load_n(&n_gp[g],
						      __ATOMIC_RELAXED));
	}
}

/* The rcutorture stats block; diag also repeats it as KTAP "# " lines. */
static void torture_print(struct torture_totals *t, bool diag)
{
	char pipe[200], batch[200], circ[200], holds[200], gps[120];
	u64 nd = __atomic_load_n(&n_lock_delays, __ATOMIC_RELAXED);
	u64 dns = __atomic_load_n(&lock_delay_ns, __ATOMIC_RELAXED);
	u64 hr = torture_handler_reads(t), hi = torture_handler_idle(t);
	bool bad = t->errs != 0;
	u64 wc[RCU_TORTURE_PIPE_LEN + 1];

	for (int i = 2; i <= RCU_TORTURE_PIPE_LEN; i++)
		bad |= t->pipe[i] != 0;

	for (int i = 0; i <= RCU_TORTURE_PIPE_LEN; i++)
		wc[i] = READ_ONCE(torture_wcount[i]);
	torture_hist(pipe, sizeof(pipe), t->pipe);
	torture_hist(batch, sizeof(batch), t->batch);
	torture_hist(circ, sizeof(circ), wc);
	torture_holds(holds, sizeof(holds), t);
	torture_gp_counts(gps, sizeof(gps));
	printk("rcu-torture: ver: %lu gps: %lu tfle: %d rta: %lu rtaf: %lu rtf: %lu rtcb: %lu rtsync: %lu rtmbe: %lu rtpe: %lu rtre: %lu rtee: %lu rtae: %lu %s\n",
	       READ_ONCE(torture_version), t->gps, torture_free_head == NULL,
	       n_alloc, n_alloc_fail, n_free, n_cb, n_gp[GP_SYNC],
	       torture_errs[ERR_POISON], torture_errs[ERR_PIPE],
	       torture_errs[ERR_REUSED], torture_errs[ERR_EVEN],
	       torture_errs[ERR_ACK], bad ? "!!!" : "");
	printk("rcu-torture: gps by primitive:%s; cond cookies done at once: %lu; polled cookies done: %lu\n",
	       gps, n_cond_done, n_poll_done);
	printk("rcu-torture: readers task: %lu (migrated %lu, preempted %lu) irq: %lu (idle %lu) nested: %lu (idle %lu) nmi: %lu (idle %lu, in irq %lu) idle-hit: %lu%%\n",
	       t->reads[CTX_TASK], t->migrated, t->preempted, t->reads[CTX_IRQ],
	       t->idle_hits[CTX_IRQ], t->reads[CTX_NESTED],
	       t->idle_hits[CTX_NESTED], t->reads[CTX_NMI],
	       t->idle_hits[CTX_NMI], t->nmi_in_irq,
	       hr ? hi * 100 / hr : 0);
	printk("rcu-torture: reader hold ns mean/max:%s; lock delays: %lu (mean %lu ns)\n",
	       holds, nd, nd ? dns / nd : 0);
	printk("rcu-torture: Reader Pipe:%s\n", pipe);
	printk("rcu-torture: Reader Batch:%s\n", batch);
	printk("rcu-torture: Free-Block Circulation:%s\n", circ);
	torture_onoff_print(diag);
	if (!diag)
		return;
	ktap_diag("rcu-torture: ver %lu, %lu grace periods, %lu reads, %lu errors",
		  READ_ONCE(torture_version), t->gps,
		  t->reads[CTX_TASK] + hr, t->errs);
	for (int c = 0; c < NR_CTX; c++)
		ktap_diag("rcu-torture: %s readers: %lu, on idle CPUs: %lu",
			  ctx_name[c], t->reads[c], t->idle_hits[c]);
	ktap_diag("rcu-torture: gps by primitive:%s", gps);
	ktap_diag("rcu-torture: task readers that migrated: %lu, that preempted themselves: %lu; NMI readers inside IRQ readers: %lu",
		  t->migrated, t->preempted, t->nmi_in_irq);
	ktap_diag("rcu-torture: IRQ+NMI readers on idle CPUs: %lu of %lu (%lu%%)",
		  hi, hr, hr ? hi * 100 / hr : 0);
	ktap_diag("rcu-torture: sent IRQ to idle/busy CPUs: %lu/%lu, NMI: %lu/%lu; IRQs into a last window: %lu",
		  n_sent_idle[0], n_sent_busy[0], n_sent_idle[1],
		  n_sent_busy[1], n_window_irqs);
	ktap_diag("rcu-torture: reader hold ns mean/max:%s; lock delays: %lu (mean %lu ns)",
		  holds, nd, nd ? dns / nd : 0);
	ktap_diag("rcu-torture: Reader Pipe:%s", pipe);
	ktap_diag("rcu-torture: Reader Batch:%s", batch);
	ktap_diag("rcu-torture: Free-Block Circulation:%s", circ);
	ktap_diag("rcu-torture: allocated %lu (failed %lu), freed %lu, callbacks %lu; cond cookies done at once %lu, polled cookies done %lu",
		  n_alloc, n_alloc_fail, n_free, n_cb, n_cond_done,
		  n_poll_done);
}

/* ---- The run -------------------------------------------------------- */

/* The CPU on/off thread: rcu/torture_onoff.c does the work. */
static int torture_onoff(void *arg)
{
	(void)arg;
	torture_onoff_loop(&torture_stop);
	torture_thread_exit();
	return 0;
}

static void torture_start(int (*fn)(void *), long arg, int cpu,
			  const char *name, bool roam)
{
	struct task *t;

	__atomic_fetch_add(&torture_threads, 1, __ATOMIC_RELAXED);
	t = kthread_run(fn, (void *)arg, cpu, name);
	if (roam)
		kthread_set_roaming(t, 1);
}

static void torture_reset(void)
{
	memset(torture_cpus, 0, sizeof(torture_cpus));
	memset(torture_errs, 0, sizeof(torture_errs));
	memset(torture_wcount, 0, sizeof(torture_wcount));
	memset(&first_err, 0, sizeof(first_err));
	n_window_irqs = 0;
	memset(n_sent_idle, 0, sizeof(n_sent_idle));
	memset(n_sent_busy, 0, sizeof(n_sent_busy));
	n_lock_delays = lock_delay_ns = n_lock_delay_nested = 0;
	torture_version = n_alloc = n_alloc_fail = n_free = 0;
	memset(n_gp, 0, sizeof(n_gp));
	n_cond_done = n_poll_done = 0;
	n_cb = 0;
	n_cb_pending = 0;
	torture_cb_parking = 0;
	torture_leftover = NULL;
	torture_free_head = torture_free_tail = NULL;
	for (int i = 0; i < TORTURE_NR_ELEMS; i++)
		torture_free(&torture_pool[i]);
	n_free = 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		torture_cpus[cpu].rng_irq = 0x2545f4914f6cdd1dULL * (cpu + 1);
		torture_cpus[cpu].rng_nmi = 0x9fb21c651e98df25ULL * (cpu + 1);
	}
	rcu_torture_current = NULL;
	torture_onoff_reset();
	WRITE_ONCE(torture_stop, 0);
}

/*
 * The primitives the writers choose from: those on and in the flavour.
 * Returns 1, naming the options, if that leaves nothing to run.
 */
static int torture_gp_setup(void)
{
	char opts[200];
	size_t n = 0;

	torture_nr_gps = 0;
	for (int g = 0; g < NR_GP; g++) {
		if (*gp_types[g].enabled && torture_gp_available(g))
			torture_gps[torture_nr_gps++] = g;
		n += snprintf(opts + n, sizeof(opts) - n, " %s=%u%s",
			      gp_types[g].option, *gp_types[g].enabled,
			      torture_gp_available(g) ? "" : " (n/a)");
	}
	if (!torture_nr_gps) {
		printk("rcu-torture: !!! error: no update-side primitive to test:%s (rcu=%s)\n",
		       opts, rcu_flavor_name());
		return 1;
	}
	if (torture_nr_gps == 1 && torture_gps[0] == GP_POLL &&
	    !rcu_has_start_poll()) {
		printk("rcu-torture: !!! error: torture_gp_poll is the only primitive on, and rcu=%s has no start_poll_synchronize_rcu(): nothing would start the grace periods its cookies wait for\n",
		       rcu_flavor_name());
		return 1;
	}
	if (!rcu_has_expedited())
		printk("rcu-torture: rcu=%s has no expedited grace period (its synchronize_rcu_expedited() is synchronize_rcu()): exp n/a\n",
		       rcu_flavor_name());
	if (!rcu_has_start_poll())
		printk("rcu-torture: rcu=%s has no start_poll_synchronize_rcu(): poll takes get_state_synchronize_rcu() cookies, and the other primitives drive the grace periods\n",
		       rcu_flavor_name());
	return 0;
}

/*
 * The end, once every thread has stopped: one rcu_barrier(), no retry.
 * The last element retires through a call_rcu() chain of its own, so the
 * barrier always has a callback to wait for (and the writers' last
 * chains may be in flight too).  Every chain callback queued before the
 * barrier has run when it returns, and each either finished its element
 * or parked it (torture_park_chains() came first): a chain still pending
 * means the barrier returned early.  Then everything left waits out its
 * pipe.  Returns 1 on an early return.
 */
static int torture_end_chains(struct rcu_torture *last)
{
	struct rcu_torture *leftover;
	long chains, left;

	torture_park_chains();
	/*
	 * Queued last, after the parking, right before the barrier: a grace
	 * period and the callback's invocation would have to fit between
	 * the two calls for the barrier to find nothing to wait for (a
	 * host that stalls this vCPU long enough; the line below says so).
	 */
	if (last) {
		__atomic_fetch_add(&n_cb_pending, 1, __ATOMIC_RELAXED);
		call_rcu(&last->rtort_rcu, torture_cb);
	}
	chains = __atomic_load_n(&n_cb_pending, __ATOMIC_RELAXED);
	rcu_barrier();
	left = __atomic_load_n(&n_cb_pending, __ATOMIC_ACQUIRE);
	ktap_diag("rcu-torture: one rcu_barrier() at the end, %ld call_rcu() chains in flight: %ld left",
		  chains, left);
	if (!chains)
		ktap_diag("rcu-torture: the barrier had no callback to wait for: this run did not test it");
	if (left)
		printk("rcu-torture: !!! rcu_barrier() returned with %ld call_rcu() callbacks still queued\n",
		       left);
	leftover = torture_take_leftover();
	torture_drain(&leftover);
	return left != 0;
}

/*
 * Every primitive in use retired elements, and task readers preempted
 * themselves: a run that never did either did not test it.  Returns 1
 * after naming what is missing.
 */
static int torture_check_counts(struct torture_totals *t)
{
	u64 ver = READ_ONCE(torture_version);
	int fail = 0;

	/*
	 * ver - 1 retirements (the first publication retires nothing): with
	 * fewer than a deck per writer, none need have used every card.
	 */
	if (ver <= (u64)torture_writers * torture_nr_gps) {
		ktap_diag("rcu-torture: %lu updates: too few to require every primitive",
			  ver);
	} else {
		for (int g = 0; g < NR_GP; g++) {
			if (!*gp_types[g].enabled ||
			    !torture_gp_available(g) || n_gp[g])
				continue;
			printk("rcu-torture: !!! %s=1 but no writer used %s in %lu updates (rcu=%s)\n",
			       gp_types[g].option, gp_types[g].primitive, ver,
			       rcu_flavor_name());
			fail = 1;
		}
	}
	if (t->reads[CTX_TASK] >= TORTURE_MIN_SAMPLE && !t->preempted) {
		printk("rcu-torture: !!! none of %lu task readers was preempted inside its critical section\n",
		       t->reads[CTX_TASK]);
		fail = 1;
	}
	if (n_gp[GP_POLL] >= TORTURE_MIN_POLLS && !n_poll_done) {
		printk("rcu-torture: !!! poll_state_synchronize_rcu() never found one of %lu polled cookies done\n",
		       n_gp[GP_POLL]);
		fail = 1;
	}
	return fail;
}

/* For the report when threads do not stop: who is left, and where. */
static void torture_show_task(struct task *t, void *arg)
{
	(void)arg;
	if (strncmp(t->name, "torture_", 8) || t->state == TASK_DEAD)
		return;
	printk("rcu-torture: task %s pid %d state %d cpu %d rcu_read_lock_nesting %d\n",
	       t->name, t->pid, t->state, t->cpu, t->rcu_read_lock_nesting);
}

/* Wait (polling) until every torture kthread has returned. */
static bool torture_wait_threads(unsigned int secs)
{
	u64 t0 = ktime_get_ns();

	while (__atomic_load_n(&torture_threads, __ATOMIC_ACQUIRE)) {
		if (ktime_get_ns() - t0 > secs * NSEC_PER_SEC)
			return false;
		msleep(10);
	}
	return true;
}

/* Wait for the handlers in flight; an armed NMI slot is simply dropped. */
static void torture_wait_handlers(void)
{
	u64 t0 = ktime_get_ns();
	int cpu;

	for_each_online_cpu(cpu) {
		while (READ_ONCE(torture_cpus[cpu].irq_busy) &&
		       ktime_get_ns() - t0 < NSEC_PER_SEC)
			msleep(1);
		WRITE_ONCE(torture_cpus[cpu].nmi_armed, 0);
	}
}

int rcu_torture_run(void)
{
	int self = raw_smp_processor_id(), ncpus = (int)num_online_cpus();
	int nreaders = torture_readers ? (int)torture_readers :
		       (ncpus + 1) / 2;
	bool handlers = ncpus > 1 && (torture_irq_rate || torture_nmi_rate);
	u64 t0, last_stat, last_change, last_ver = 0, hr, hi;
	struct rcu_stats_snapshot s;
	struct torture_totals t;
	bool hang = false, stuck = false, early = false, fail = false;

	torture_reset();
	if (torture_gp_setup()) {
		printk("rcu-torture: End of test: FAILURE\n");
		ktap_diag("rcu-torture: End of test: FAILURE");
		return 1;
	}
	rcu_stats_get(&s);
	torture_gp_base = s.gp_completed;
	printk("rcu-torture: duration %u s, %d readers, %u writers, irq_rate %u/s, nmi_rate %u/s, hold_max %u us, lock_delay %u us, busy %u, %d CPUs, rcu=%s\n",
	       torture_duration, nreaders, torture_writers, torture_irq_rate,
	       torture_nmi_rate, torture_hold_max_us, torture_lock_delay_us,
	       torture_busy, ncpus, rcu_flavor_name());
	torture_publish(torture_alloc());

	WRITE_ONCE(torture_running, 1);
	if (torture_lock_delay_us)
		rcu_read_lock_delay_set(torture_lock_delay);
	if (handlers) {
		request_irq(IRQ_TEST_LOW, torture_irq_low);
		request_irq(IRQ_TEST_HIGH, torture_irq_high);
		register_nmi_handler(torture_nmi);
		torture_start(torture_sender, 0, self, "torture_sender",
			      false);
	}
	/*
	 * Writers stay on the busy CPUs (the sender's and the spinners'):
	 * a CPU with callbacks queued keeps its tick and never goes
	 * dynticks-idle (rcu_needs_cpu()), and call_rcu() chains requeue on
	 * the CPU that runs them, so a roaming writer would leave every CPU
	 * busy and no IRQ/NMI reader would find an idle one.
	 */
	for (int i = 0; i < (int)torture_writers; i++) {
		int nbusy = 1 + (int)min(torture_busy, (unsigned int)ncpus - 1);

		torture_start(torture_writer, i, i % nbusy ? i % nbusy : self,
			      "torture_writer", false);
	}
	for (int i = 0; i < nreaders; i++)
		torture_start(torture_reader, i, ANY_CPU, "torture_reader",
			      true);
	for (int i = 1; i <= (int)torture_busy && i < ncpus; i++)
		torture_start(torture_spinner, i, i, "torture_spinner", false);
	if (torture_onoff_wanted()) {
		if (handlers && torture_onoff_window_irq)
			WRITE_ONCE(cpuhp_out_hook, torture_window_irq);
		torture_start(torture_onoff, 0, self, "torture_onoff", false);
	}

	t0 = last_stat = last_change = ktime_get_ns();
	/*
	 * On past the duration (up to 8 times it) until the on/off thread
	 * has done the cycles asked for: a slow host makes each cycle take
	 * longer, and the count, not the clock, is what the run promises.
	 */
	while (ktime_get_ns() - t0 < torture_duration * NSEC_PER_SEC ||
	       (!torture_onoff_enough() &&
		ktime_get_ns() - t0 < 8ULL * torture_duration * NSEC_PER_SEC)) {
		u64 now, ver;

		msleep(100);
		now = ktime_get_ns();
		ver = READ_ONCE(torture_version);
		if (ver != last_ver) {
			last_ver = ver;
			last_change = now;
		} else if (now - last_change > torture_stall_s * NSEC_PER_SEC) {
			printk("rcu-torture: !!! ver stuck at %lu for %u s: grace-period hang\n",
			       ver, torture_stall_s);
			hang = true;
			break;
		}
		/*
		 * Fail fast: a reader has seen a freed or too-young element;
		 * stop now and report, rather than at torture_duration.
		 */
		if (READ_ONCE(panic_on_warn) &&
		    __atomic_load_n(&first_err.claimed, __ATOMIC_ACQUIRE)) {
			printk("rcu-torture: !!! a reader saw an error %llu ms in: stopping early (panic_on_warn); the report follows\n",
			       (unsigned long long)((now - t0) /
						    NSEC_PER_MSEC));
			break;
		}
		if (now - last_stat >= torture_stat_interval * NSEC_PER_SEC) {
			last_stat = now;
			torture_sum(&t);
			torture_print(&t, false);
		}
	}

	/* Stop: sender first, then readers and writers (they drain). */
	WRITE_ONCE(torture_stop, 1);
	if (!torture_wait_threads(hang ? 5 : 60)) {
		printk("rcu-torture: !!! %ld torture threads did not stop (a grace period never ends)\n",
		       __atomic_load_n(&torture_threads, __ATOMIC_RELAXED));
		sched_for_each_task(torture_show_task, NULL);
		stuck = true;
	}
	WRITE_ONCE(torture_running, 0);
	rcu_read_lock_delay_set(NULL);
	WRITE_ONCE(cpuhp_out_hook, NULL);
	if (handlers) {
		torture_wait_handlers();
		unregister_nmi_handler(torture_nmi);
		request_irq(IRQ_TEST_LOW, NULL);
		request_irq(IRQ_TEST_HIGH, NULL);
	}
	/* Retire the last element; end every callback chain. */
	if (!stuck)
		early = torture_end_chains(torture_publish(NULL));

	torture_sum(&t);
	torture_print(&t, true);
	hr = torture_handler_reads(&t);
	hi = torture_handler_idle(&t);
	fail = hang || stuck || early;
	fail |= torture_check_counts(&t);
	for (int e = 0; e < NR_ERR; e++) {
		if (!torture_errs[e])
			continue;
		printk("rcu-torture: !!! %lu readers saw: %s\n",
		       torture_errs[e], err_name[e]);
		ktap_diag("rcu-torture: %lu readers saw: %s", torture_errs[e],
			  err_name[e]);
		fail = true;
	}
	if (first_err.claimed) {
		printk("rcu-torture: !!! first error: %s, %s reader on cpu %d, element %lu pipe %d mbtest 0x%lx, dynticks_progress_counter %ld\n",
		       err_name[first_err.kind], ctx_name[first_err.ctx],
		       first_err.cpu, first_err.id, first_err.pipe,
		       first_err.mbtest, first_err.counter);
	}
	if (!stuck && n_alloc != n_free) {
		printk("rcu-torture: !!! %lu elements allocated, %lu freed\n",
		       n_alloc, n_free);
		fail = true;
	}
	/*
	 * One task reader in 16 should have spun: none over this many
	 * means the flavour never calls the hook (the option would be
	 * accepted and do nothing).
	 */
	if (torture_lock_delay_us && t.reads[CTX_TASK] >= 1024 &&
	    !n_lock_delays) {
		printk("rcu-torture: !!! torture_lock_delay_us=%u but none of %lu task readers' rcu_read_lock() ran the delay (rcu=%s)\n",
		       torture_lock_delay_us, t.reads[CTX_TASK],
		       rcu_flavor_name());
		fail = true;
	}
	if (n_lock_delay_nested) {
		printk("rcu-torture: !!! the rcu_read_lock() hook ran %lu times in a nested lock (the first at nesting %d, rcu=%s): only an outermost lock may run it\n",
		       (unsigned long)n_lock_delay_nested,
		       lock_delay_nested_depth, rcu_flavor_name());
		fail = true;
	}
	/* The option must have done something: one IRQ per few cycles. */
	if (torture_onoff_window_irq && handlers &&
	    torture_onoff_cycles() >= 8 && !n_window_irqs) {
		printk("rcu-torture: !!! torture_onoff_window_irq=1 but no IRQ was sent into a last window in %lu on/off cycles\n",
		       (unsigned long)torture_onoff_cycles());
		fail = true;
	}
	if (torture_onoff_failed()) {
		printk("rcu-torture: !!! CPU on/off: an error, or %lu cycles: fewer than asked\n",
		       (unsigned long)torture_onoff_cycles());
		fail = true;
	}
	if (READ_ONCE(torture_version) < 2) {
		printk("rcu-torture: !!! ver never rose\n");
		fail = true;
	}
	if (handlers && hi * 100 < hr * TORTURE_MIN_IDLE_PCT) {
		printk("rcu-torture: !!! only %lu of %lu IRQ/NMI readers hit a dynticks-idle CPU (< %d%%): the test does not test what it claims\n",
		       hi, hr, TORTURE_MIN_IDLE_PCT);
		ktap_diag("rcu-torture: coverage below %d%%",
			  TORTURE_MIN_IDLE_PCT);
		fail = true;
	}
	if (!handlers)
		ktap_diag("rcu-torture: no IRQ/NMI readers (%s): coverage not checked",
			  ncpus < 2 ? "one CPU: no other CPU to be idle" :
			  "irq and nmi rates are 0");
	printk("rcu-torture: End of test: %s\n", fail ? "FAILURE" : "SUCCESS");
	ktap_diag("rcu-torture: End of test: %s",
		  fail ? "FAILURE" : "SUCCESS");
	if (fail)
		kernel_report_done("rcu-torture: End of test: FAILURE", false);
	return fail;
}
