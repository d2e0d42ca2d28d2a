// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for rcu/: the dynticks counter protocol, the (snap,
 * curr) tables of the article, the four-state flip machine on simulated
 * CPUs, readers (migrating, nested, in simulated NMIs), callbacks, the
 * stall detector and the statistics.
 *
 * Simulated CPUs run one at a time: shim_cpu says which CPU the code runs
 * on, and the helpers below play the kernel's tick, irq_enter/irq_exit and
 * idle loop in the order docs/rcu.md asks of the real kernel.  Prints
 * "N passed, N failed" last and exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt/rcupreempt.h"
#include "rcu/rcu.h"
#include "rcu/tree/rcu_segcblist.h"
#include "tests/host/shim.h"

static int n_pass, n_fail;
static const char *cur_test;

#define CHECK(cond, ...) check(!!(cond), __LINE__, #cond, __VA_ARGS__)

__attribute__((format(printf, 4, 5)))
static int check(int ok, int line, const char *expr, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		n_pass++;
		return 1;
	}
	n_fail++;
	printf("FAIL %s (line %d): %s: ", cur_test, line, expr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Simulated machine                                                  */
/* ------------------------------------------------------------------ */

static struct task tasks[NR_CPUS];	/* what each CPU runs at boot */
static struct task extra[4];		/* test readers */
static int sim_ncpus;
static int sim_is_idle[NR_CPUS];
static long sim_ticks[NR_CPUS];

static struct rcu_data *rdp(int cpu)
{
	return RCU_DATA_CPU(cpu);
}

static long ctr(int cpu)
{
	return rdp(cpu)->dynticks_progress_counter;
}

static int state(void)
{
	return rcu_ctrlblk.rcu_try_flip_state;
}

static void sim_boot(int ncpus)
{
	int i;

	shim_reset((unsigned int)ncpus);
	shim_reset_tasks();
	memset(tasks, 0, sizeof(tasks));
	memset(extra, 0, sizeof(extra));
	for (i = 0; i < NR_CPUS; i++) {
		snprintf(tasks[i].name, TASK_NAME_LEN, "task%d", i);
		tasks[i].pid = i + 1;
		tasks[i].cpu = i;
		shim_set_current(i, &tasks[i]);
		sim_is_idle[i] = 0;
		sim_ticks[i] = 0;
		if (i < ncpus)
			shim_register_task(&tasks[i]);
	}
	for (i = 0; i < 4; i++) {
		snprintf(extra[i].name, TASK_NAME_LEN, "reader%d", i);
		extra[i].pid = 100 + i;
		shim_register_task(&extra[i]);
	}
	sim_ncpus = ncpus;
	shim_now_ns = 1000000;
	rcu_cpu_stall_timeout = 0;	/* tests that want it turn it on */
	rcupreempt_init();
	shim_warn_count = 0;
	shim_failed_count = 0;
	shim_wait_timeouts = 0;
	shim_console_clear();
}

/* The kernel's irq_enter(): rcu_irq_enter() before raising the count. */
static void sim_irq_enter(int cpu)
{
	shim_cpu = cpu;
	rcu_irq_enter();
	preempt_count_add(HARDIRQ_OFFSET);
}

/*
 * The kernel's irq_exit(): drop the count, run deferred work at the
 * outermost level (still "in" the interrupt for RCU), rcu_irq_exit() last.
 */
static void sim_irq_exit(int cpu)
{
	shim_cpu = cpu;
	preempt_count_sub(HARDIRQ_OFFSET);
	if (!in_interrupt() && shim_softirq_pending(cpu)) {
		shim_local_irq_enable();
		shim_run_softirqs(cpu);
		shim_local_irq_disable();
	}
	rcu_irq_exit();
}

/* One scheduling-clock tick on cpu. */
static void sim_tick(int cpu)
{
	unsigned long flags;

	shim_cpu = cpu;
	flags = shim_local_irq_save();
	sim_irq_enter(cpu);
	rcu_check_callbacks(cpu);
	sim_irq_exit(cpu);
	shim_local_irq_restore(flags);
	sim_ticks[cpu]++;
}

/* Tick every CPU that is not dynticks-idle, then advance time 1 ms. */
static void sim_tick_all(void)
{
	int cpu;

	for (cpu = 0; cpu < sim_ncpus; cpu++)
		if (!sim_is_idle[cpu])
			sim_tick(cpu);
	shim_now_ns += 1000000;
}

static void sim_idle_enter(int cpu)
{
	shim_cpu = cpu;
	shim_local_irq_disable();
	rcu_enter_nohz();
	shim_local_irq_enable();
	sim_is_idle[cpu] = 1;
}

static void sim_idle_exit(int cpu)
{
	shim_cpu = cpu;
	shim_local_irq_disable();
	rcu_exit_nohz();
	shim_local_irq_enable();
	sim_is_idle[cpu] = 0;
}

/* Run code "on" a CPU as a given task. */
static void on_cpu(int cpu, struct task *t)
{
	shim_cpu = cpu;
	if (t)
		shim_set_current(cpu, t);
}

static long flipctr_sum(int idx)
{
	long sum = 0;
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		sum += rdp(cpu)->rcu_flipctr[idx];
	return sum;
}

static u64 gps(void)
{
	struct rcu_stats_snapshot s;

	rcupreempt_stats_get(&s);
	return s.gp_completed;
}

/* Test callbacks. */
struct tcb {
	struct rcu_head head;
	int invoked;
	int cpu;
	long completed_at_call;
	u64 gps_at_call;
	long completed_at_invoke;
	u64 gps_at_invoke;
	int order;
};

static int tcb_order;

static void tcb_func(struct rcu_head *head)
{
	struct tcb *c = container_of(head, struct tcb, head);

	c->invoked++;
	c->cpu = shim_cpu;
	c->completed_at_invoke = rcupreempt_batches_completed();
	c->gps_at_invoke = gps();
	c->order = tcb_order++;
}

static void tcb_queue(struct tcb *c, int cpu)
{
	memset(c, 0, sizeof(*c));
	on_cpu(cpu, NULL);
	c->completed_at_call = rcupreempt_batches_completed();
	c->gps_at_call = gps();
	rcupreempt_call_rcu(&c->head, tcb_func);
}

/* ------------------------------------------------------------------ */
/* 1. The (snap, curr) tables                                         */
/* ------------------------------------------------------------------ */

static void test_needed_tables(void)
{
	static const struct {
		long snap, curr;
		int ack, mb;
		const char *why;
	} t[] = {
		{ 4, 4, 0, 0, "idle the whole time" },
		{ 4, 5, 1, 0, "was idle, now running: ack (curr odd)" },
		{ 4, 6, 0, 0, "idle now" },
		{ 4, 7, 0, 0, "curr - snap = 3 > 2: passed through idle" },
		{ 5, 5, 1, 1, "running the whole time" },
		{ 5, 6, 0, 0, "went idle: the case that exposed the snap bug" },
		{ 5, 7, 1, 0, "idle and back: still asked to ack" },
		{ 5, 8, 0, 0, "idle now, after a full pass" },
		{ 5, 9, 0, 0, "curr - snap = 4 > 2" },
		{ 1, 1, 1, 1, "boot value, running" },
		{ 1, 2, 0, 0, "first idle entry after boot" },
		{ 6, 6, 0, 0, "idle the whole time (other even)" },
		{ 6, 7, 1, 0, "IRQ or task since an idle snapshot" },
		{ 7, 8, 0, 0, "went idle again" },
	};
	unsigned int i;
	long mbs;

	cur_test = "needed_tables";
	sim_boot(2);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		rdp(1)->rcu_dyntick_snapshot = t[i].snap;
		rdp(1)->dynticks_progress_counter = t[i].curr;
		mbs = shim_mb_count;
		CHECK(rcu_try_flip_waitack_needed(1) == t[i].ack,
		      "waitack_needed(snap=%ld, curr=%ld) != %d: %s",
		      t[i].snap, t[i].curr, t[i].ack, t[i].why);
		CHECK(shim_mb_count == mbs + 1,
		      "waitack_needed executes one smp_mb()");
		mbs = shim_mb_count;
		CHECK(rcu_try_flip_waitmb_needed(1) == t[i].mb,
		      "waitmb_needed(snap=%ld, curr=%ld) != %d: %s",
		      t[i].snap, t[i].curr, t[i].mb, t[i].why);
		CHECK(shim_mb_count == mbs + 1,
		      "waitmb_needed executes one smp_mb()");
	}
	/* The article's failing trail, explicitly: snap = 5, curr = 6. */
	rdp(1)->rcu_dyntick_snapshot = 5;
	rdp(1)->dynticks_progress_counter = 6;
	CHECK(rcu_try_flip_waitack_needed(1) == 0,
	      "snap=5 curr=6 must excuse the CPU (it went idle)");
	/* dyntick_save_progress_counter copies the counter. */
	rdp(1)->dynticks_progress_counter = 42;
	dyntick_save_progress_counter(1);
	CHECK(rdp(1)->rcu_dyntick_snapshot == 42, "snapshot %ld",
	      rdp(1)->rcu_dyntick_snapshot);
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/* ------------------------------------------------------------------ */
/* 2. Dynticks parity                                                 */
/* ------------------------------------------------------------------ */

static long probe_ctr;
static int probe_hits;

static void mb_probe_record(void)
{
	probe_ctr = ctr(shim_cpu);
	probe_hits++;
}

static void test_dynticks_parity(void)
{
	cur_test = "dynticks_parity";
	sim_boot(2);
	CHECK(ctr(0) == 1 && ctr(1) == 1, "counters start at 1: %ld %ld",
	      ctr(0), ctr(1));
	CHECK(rdp(0)->rcu_update_flag == 0, "flag starts at 0");

	/* Seed patch: rcu_enter_nohz's mb comes before the increment. */
	shim_mb_probe = mb_probe_record;
	probe_hits = 0;
	sim_idle_enter(1);
	CHECK(probe_hits == 1 && probe_ctr == 1,
	      "rcu_enter_nohz: mb before ++ (hits %d, counter at mb %ld)",
	      probe_hits, probe_ctr);
	CHECK(ctr(1) == 2, "even after rcu_enter_nohz: %ld", ctr(1));
	probe_hits = 0;
	sim_idle_exit(1);
	CHECK(probe_hits == 1 && probe_ctr == 3,
	      "rcu_exit_nohz: mb after ++ (hits %d, counter at mb %ld)",
	      probe_hits, probe_ctr);
	CHECK(ctr(1) == 3, "odd after rcu_exit_nohz: %ld", ctr(1));

	/* IRQ on a busy CPU: nothing to do. */
	probe_hits = 0;
	sim_irq_enter(1);
	CHECK(ctr(1) == 3 && rdp(1)->rcu_update_flag == 0,
	      "irq on busy cpu: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	sim_irq_exit(1);
	CHECK(ctr(1) == 3 && rdp(1)->rcu_update_flag == 0 && probe_hits == 0,
	      "irq exit on busy cpu: counter %ld flag %d mbs %d", ctr(1),
	      rdp(1)->rcu_update_flag, probe_hits);

	/* IRQ on an idle CPU, with a nested IRQ and an NMI inside it. */
	sim_idle_enter(1);
	CHECK(ctr(1) == 4, "idle: %ld", ctr(1));
	probe_hits = 0;
	sim_irq_enter(1);
	CHECK(ctr(1) == 5 && rdp(1)->rcu_update_flag == 1,
	      "outer irq from idle: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	CHECK(probe_hits == 1 && probe_ctr == 5,
	      "rcu_irq_enter: mb after the increment (counter at mb %ld)",
	      probe_ctr);
	CHECK(in_interrupt(), "in_interrupt inside the handler");
	sim_irq_enter(1);
	CHECK(ctr(1) == 5 && rdp(1)->rcu_update_flag == 2,
	      "nested irq: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	/* NMI inside the nested IRQ: the same path, NMI count. */
	rcu_irq_enter();
	preempt_count_add(NMI_OFFSET);
	CHECK(ctr(1) == 5 && rdp(1)->rcu_update_flag == 3,
	      "nmi in nested irq: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	preempt_count_sub(NMI_OFFSET);
	rcu_irq_exit();
	CHECK(ctr(1) == 5 && rdp(1)->rcu_update_flag == 2,
	      "after nmi: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	sim_irq_exit(1);
	CHECK(ctr(1) == 5 && rdp(1)->rcu_update_flag == 1,
	      "after nested irq: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	probe_hits = 0;
	sim_irq_exit(1);
	CHECK(ctr(1) == 6 && rdp(1)->rcu_update_flag == 0,
	      "back to idle: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	CHECK(probe_hits == 1 && probe_ctr == 5,
	      "rcu_irq_exit: mb before the increment (counter at mb %ld)",
	      probe_ctr);

	/* NMI straight into an idle CPU. */
	shim_cpu = 1;
	rcu_irq_enter();
	preempt_count_add(NMI_OFFSET);
	CHECK(ctr(1) == 7 && rdp(1)->rcu_update_flag == 1,
	      "nmi from idle: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	preempt_count_sub(NMI_OFFSET);
	rcu_irq_exit();
	CHECK(ctr(1) == 8 && rdp(1)->rcu_update_flag == 0,
	      "nmi exit to idle: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	shim_mb_probe = NULL;
	sim_idle_exit(1);
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/* A reader on a CPU that RCU believes idle is reported, once per CPU. */
static void test_idle_reader_reported(void)
{
	cur_test = "idle_reader_reported";
	sim_boot(2);
	sim_idle_enter(1);
	on_cpu(1, &extra[3]);	/* a task running while "idle": a bug */
	__rcu_read_lock();
	__rcu_read_unlock();
	CHECK(shim_warn_count == 1, "WARN once (%d)", shim_warn_count);
	CHECK(strstr(shim_last_warn, "reader while dynticks-idle") != NULL &&
	      strstr(shim_last_warn, "cpu 1") != NULL &&
	      strstr(shim_last_warn, "dynticks_progress_counter 2") != NULL,
	      "names cpu and counter: %s", shim_last_warn);
	__rcu_read_lock();
	__rcu_read_unlock();
	CHECK(shim_warn_count == 1, "not repeated (%d)", shim_warn_count);
	/* Inside an IRQ from idle the counter is odd: no report. */
	on_cpu(0, NULL);
	sim_idle_enter(0);
	shim_local_irq_disable();
	sim_irq_enter(0);
	__rcu_read_lock();
	__rcu_read_unlock();
	sim_irq_exit(0);
	shim_local_irq_enable();
	CHECK(shim_warn_count == 1, "irq reader on idle cpu is fine (%d)",
	      shim_warn_count);
	CHECK(flipctr_sum(0) == 0 && flipctr_sum(1) == 0, "balanced");
}

/*
 * A random walk over idle entry/exit, IRQ entry/exit (nested) and NMIs,
 * against a model: the counter is odd iff the CPU is running a task or
 * is inside a handler, and rcu_update_flag is the handler depth of a nest
 * that started in idle, else 0.
 */
static void test_dynticks_random(void)
{
	int idle = 0, depth = 0, nest_from_idle = 0;
	long steps, bad = 0, prev;
	unsigned int seed = 12345;

	cur_test = "dynticks_random";
	sim_boot(1);
	for (steps = 0; steps < 20000; steps++) {
		int op;

		seed = seed * 1103515245 + 12345;
		op = (int)((seed >> 16) % 5);
		prev = ctr(0);
		switch (op) {
		case 0:	/* idle entry/exit, only from task level */
			if (depth)
				break;
			if (idle)
				sim_idle_exit(0);
			else
				sim_idle_enter(0);
			idle = !idle;
			break;
		case 1:
		case 2:	/* irq entry */
			if (depth >= 6)
				break;
			if (depth == 0)
				nest_from_idle = idle;
			sim_irq_enter(0);
			depth++;
			break;
		case 3:	/* irq exit */
			if (!depth)
				break;
			sim_irq_exit(0);
			depth--;
			break;
		case 4:	/* NMI: enter and leave */
			shim_cpu = 0;
			rcu_irq_enter();
			preempt_count_add(NMI_OFFSET);
			if ((ctr(0) & 1) == 0)
				bad++;
			preempt_count_sub(NMI_OFFSET);
			rcu_irq_exit();
			break;
		}
		if ((ctr(0) & 1) != ((!idle || depth) ? 1 : 0))
			bad++;
		if (rdp(0)->rcu_update_flag !=
		    ((depth && nest_from_idle) ? depth : 0))
			bad++;
		if (ctr(0) < prev)
			bad++;
	}
	CHECK(bad == 0, "%ld parity/flag violations in 20000 steps", bad);
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/* ------------------------------------------------------------------ */
/* 3. NMIs landing between the steps of the dynticks functions        */
/* ------------------------------------------------------------------ */

static int nmi_saw_even;
static int nmi_runs;
static long nmi_flipctr_delta;

/* A simulated NMI handler: the kernel's nmi_enter/exit plus a reader. */
static void sim_nmi(void)
{
	long before = rdp(shim_cpu)->rcu_flipctr[0] +
		rdp(shim_cpu)->rcu_flipctr[1];

	nmi_runs++;
	rcu_irq_enter();
	preempt_count_add(NMI_OFFSET);
	if ((ctr(shim_cpu) & 1) == 0)
		nmi_saw_even++;
	__rcu_read_lock();
	__rcu_read_lock();
	__rcu_read_unlock();
	__rcu_read_unlock();
	preempt_count_sub(NMI_OFFSET);
	rcu_irq_exit();
	nmi_flipctr_delta += rdp(shim_cpu)->rcu_flipctr[0] +
		rdp(shim_cpu)->rcu_flipctr[1] - before;
}

static void test_nmi_interleave(void)
{
	int k, fired = 0, bad = 0;
	int irq_saw_even = 0;

	cur_test = "nmi_interleave";

	/* An IRQ that wakes an idle CPU, NMI at every hook point in it. */
	for (k = 1; k <= 40; k++) {
		sim_boot(1);
		sim_idle_enter(0);
		nmi_saw_even = nmi_runs = 0;
		shim_local_irq_disable();
		shim_nmi_arm(k, sim_nmi);
		sim_irq_enter(0);
		if ((ctr(0) & 1) == 0)
			irq_saw_even++;
		sim_irq_exit(0);
		shim_nmi_disarm();
		shim_local_irq_enable();
		if (nmi_runs)
			fired++;
		if (nmi_saw_even || (ctr(0) & 1) ||
		    rdp(0)->rcu_update_flag != 0 || shim_warn_count) {
			bad++;
			printf("  k=%d at %s: nmi saw even %d, counter %ld, flag %d, warns %d\n",
			       k, shim_nmi_fired_at ? shim_nmi_fired_at : "-",
			       nmi_saw_even, ctr(0), rdp(0)->rcu_update_flag,
			       shim_warn_count);
		}
	}
	CHECK(fired >= 6, "NMI landed at %d hook points in irq enter/exit",
	      fired);
	CHECK(bad == 0, "%d bad interleavings (irq from idle)", bad);
	CHECK(irq_saw_even == 0, "IRQ handler saw an even counter %d times",
	      irq_saw_even);

	/* The same inside a nested IRQ on an idle CPU. */
	fired = bad = 0;
	for (k = 1; k <= 40; k++) {
		sim_boot(1);
		sim_idle_enter(0);
		nmi_saw_even = nmi_runs = 0;
		shim_local_irq_disable();
		sim_irq_enter(0);
		shim_nmi_arm(k, sim_nmi);
		sim_irq_enter(0);
		sim_irq_exit(0);
		shim_nmi_disarm();
		if ((ctr(0) & 1) == 0 || rdp(0)->rcu_update_flag != 1)
			bad++;
		sim_irq_exit(0);
		shim_local_irq_enable();
		if (nmi_runs)
			fired++;
		if (nmi_saw_even || (ctr(0) & 1) ||
		    rdp(0)->rcu_update_flag != 0 || shim_warn_count)
			bad++;
	}
	CHECK(fired >= 4, "NMI landed at %d hook points (nested)", fired);
	CHECK(bad == 0, "%d bad interleavings (nested irq)", bad);

	/* IRQ on a busy CPU: the NMI changes nothing either. */
	fired = bad = 0;
	for (k = 1; k <= 30; k++) {
		sim_boot(1);
		nmi_saw_even = nmi_runs = 0;
		shim_local_irq_disable();
		shim_nmi_arm(k, sim_nmi);
		sim_irq_enter(0);
		sim_irq_exit(0);
		shim_nmi_disarm();
		shim_local_irq_enable();
		if (nmi_runs)
			fired++;
		if (nmi_saw_even || ctr(0) != 1 ||
		    rdp(0)->rcu_update_flag != 0 || shim_warn_count)
			bad++;
	}
	CHECK(fired >= 4, "NMI landed at %d hook points (busy)", fired);
	CHECK(bad == 0, "%d bad interleavings (busy cpu)", bad);

	/* NMIs inside rcu_enter_nohz() and rcu_exit_nohz(). */
	fired = bad = 0;
	for (k = 1; k <= 20; k++) {
		sim_boot(1);
		nmi_saw_even = nmi_runs = 0;
		shim_nmi_arm(k, sim_nmi);
		sim_idle_enter(0);
		if (ctr(0) != 2 || rdp(0)->rcu_update_flag)
			bad++;
		sim_idle_exit(0);
		shim_nmi_disarm();
		if (nmi_runs)
			fired++;
		if (ctr(0) < 3 || !(ctr(0) & 1) || rdp(0)->rcu_update_flag ||
		    shim_warn_count)
			bad++;
	}
	CHECK(fired >= 4, "NMI landed at %d hook points (nohz)", fired);
	CHECK(bad == 0, "%d bad interleavings (nohz enter/exit)", bad);
	CHECK(nmi_flipctr_delta == 0, "NMI readers left flipctr delta %ld",
	      nmi_flipctr_delta);
}

/* NMI readers at every point of a task's rcu_read_lock/unlock. */
static void test_nmi_reader_interleave(void)
{
	int k, fired = 0, bad = 0;

	cur_test = "nmi_reader_interleave";
	for (k = 1; k <= 30; k++) {
		sim_boot(1);
		nmi_runs = 0;
		on_cpu(0, &extra[0]);
		shim_nmi_arm(k, sim_nmi);
		__rcu_read_lock();
		if (extra[0].rcu_read_lock_nesting != 1 || flipctr_sum(0) != 1)
			bad++;
		__rcu_read_unlock();
		shim_nmi_disarm();
		if (nmi_runs)
			fired++;
		if (extra[0].rcu_read_lock_nesting != 0 ||
		    flipctr_sum(0) != 0 || flipctr_sum(1) != 0 ||
		    shim_warn_count) {
			bad++;
			printf("  k=%d at %s: nesting %d sums %ld %ld\n", k,
			       shim_nmi_fired_at ? shim_nmi_fired_at : "-",
			       extra[0].rcu_read_lock_nesting,
			       flipctr_sum(0), flipctr_sum(1));
		}
	}
	CHECK(fired >= 6, "NMI landed at %d points in lock/unlock", fired);
	CHECK(bad == 0, "%d bad reader interleavings", bad);
}

/* ------------------------------------------------------------------ */
/* 4. The flip machine on simulated CPUs                              */
/* ------------------------------------------------------------------ */

static void test_flip_machine(void)
{
	struct tcb c;
	int i;

	cur_test = "flip_machine";
	sim_boot(4);
	/* CPU 0 busy with callbacks, CPU 1 busy without, CPUs 2-3 idle. */
	sim_idle_enter(2);
	sim_idle_enter(3);
	CHECK(state() == rcu_try_flip_idle_state, "starts idle");
	for (i = 0; i < 5; i++)
		sim_tick_all();
	CHECK(state() == rcu_try_flip_idle_state && rcupreempt_batches_completed() == 0,
	      "no callbacks, no grace period (state %d)", state());

	tcb_queue(&c, 0);
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitack_state,
	      "idle -> waitack on the tick of a CPU with callbacks (%s)",
	      rcu_try_flip_state_name(state()));
	CHECK(rcupreempt_batches_completed() == 1, "completed++");
	for (i = 0; i < 4; i++)
		CHECK(rdp(i)->rcu_dyntick_snapshot == ctr(i),
		      "cpu %d snapshot taken", i);
	CHECK(rdp(0)->rcu_flip_flag == rcu_flip_seen,
	      "cpu 0 acked in its own tick");
	CHECK(rdp(1)->rcu_flip_flag == rcu_flipped, "cpu 1 asked to ack");
	CHECK(!rcu_try_flip_waitack_needed(2) && !rcu_try_flip_waitack_needed(3),
	      "idle cpus 2,3 excused from the ack");
	CHECK(rcu_try_flip_waitack_needed(1), "busy cpu 1 must ack");

	for (i = 0; i < 10; i++)
		sim_tick(0);
	CHECK(state() == rcu_try_flip_waitack_state,
	      "waitack waits for busy cpu 1 (%s)",
	      rcu_try_flip_state_name(state()));
	sim_tick(1);
	CHECK(rdp(1)->rcu_flip_flag == rcu_flip_seen, "cpu 1 acked");
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitzero_state, "waitack -> waitzero (%s)",
	      rcu_try_flip_state_name(state()));
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitmb_state, "waitzero -> waitmb (%s)",
	      rcu_try_flip_state_name(state()));
	CHECK(rdp(1)->rcu_mb_flag == rcu_mb_needed, "cpu 1 asked for mb");
	CHECK(!rcu_try_flip_waitmb_needed(2) && !rcu_try_flip_waitmb_needed(3),
	      "idle cpus excused from the mb");
	for (i = 0; i < 10; i++)
		sim_tick(0);
	CHECK(state() == rcu_try_flip_waitmb_state,
	      "waitmb waits for busy cpu 1 (%s)",
	      rcu_try_flip_state_name(state()));
	sim_tick(1);
	CHECK(rdp(1)->rcu_mb_flag == rcu_mb_done, "cpu 1 did its mb");
	/* cpu 1 is up to date, so its own tick may make the transition. */
	CHECK(state() == rcu_try_flip_idle_state, "waitmb -> idle (%s)",
	      rcu_try_flip_state_name(state()));
	CHECK(gps() == 1, "one grace period completed (%llu)",
	      (unsigned long long)gps());
	CHECK(c.invoked == 0, "callback not yet run after one GP");

	/* Wake idle CPU 2 after the next flip: now it must ack. */
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitack_state, "second flip");
	sim_tick(1);
	sim_idle_exit(2);
	CHECK(rcu_try_flip_waitack_needed(2), "cpu 2 woke: must ack");
	for (i = 0; i < 5; i++) {
		sim_tick(0);
		sim_tick(1);
	}
	CHECK(state() == rcu_try_flip_waitack_state,
	      "waits for woken cpu 2 (%s)", rcu_try_flip_state_name(state()));
	sim_tick(2);
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitzero_state,
	      "cpu 2's ack lets it go (%s)", rcu_try_flip_state_name(state()));
	sim_idle_enter(2);

	/* Idle CPU 3 inside an IRQ handler during waitmb must do its mb. */
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitmb_state, "waitmb (%s)",
	      rcu_try_flip_state_name(state()));
	sim_tick(1);
	CHECK(state() == rcu_try_flip_waitmb_state,
	      "cpu 0 has not done its mb yet (%s)",
	      rcu_try_flip_state_name(state()));
	shim_local_irq_disable();
	sim_irq_enter(3);	/* counter changed: excused from the mb */
	CHECK(!rcu_try_flip_waitmb_needed(3), "irq entry executed an mb");
	sim_irq_exit(3);
	shim_local_irq_enable();
	sim_tick(0);
	CHECK(state() == rcu_try_flip_idle_state, "second GP done (%s)",
	      rcu_try_flip_state_name(state()));

	/* Third flip: idle CPU 3 inside an IRQ during waitack. */
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitack_state, "third flip (%s)",
	      rcu_try_flip_state_name(state()));
	sim_tick(1);
	shim_local_irq_disable();
	sim_irq_enter(3);
	CHECK(rcu_try_flip_waitack_needed(3),
	      "idle cpu in an IRQ handler may hold a reader: must ack");
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitack_state, "waits while in IRQ");
	sim_irq_exit(3);
	shim_local_irq_enable();
	CHECK(!rcu_try_flip_waitack_needed(3), "back in idle: excused");
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitzero_state, "then proceeds (%s)",
	      rcu_try_flip_state_name(state()));

	for (i = 0; i < 50 && !c.invoked; i++)
		sim_tick_all();
	CHECK(c.invoked == 1, "callback invoked once (%d)", c.invoked);
	CHECK(c.cpu == 0, "on the CPU that queued it (%d)", c.cpu);
	CHECK(c.gps_at_invoke - c.gps_at_call >= 2,
	      "after two full grace periods (%llu)",
	      (unsigned long long)(c.gps_at_invoke - c.gps_at_call));
	for (i = 0; i < 50; i++)
		sim_tick_all();
	CHECK(c.invoked == 1, "still once (%d)", c.invoked);
	CHECK(sim_ticks[3] == 0, "idle cpu 3 never ticked");
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/*
 * The article's liveness model: a CPU that was busy at the snapshot
 * (snap odd) and then goes idle (curr = snap + 1, even) without ever
 * ticking again must be excused, in waitack and in waitmb.
 */
static void test_liveness_cpu_goes_idle(void)
{
	struct tcb c;
	int i;

	cur_test = "liveness_cpu_goes_idle";
	sim_boot(2);
	tcb_queue(&c, 0);
	sim_tick(0);
	CHECK(state() == rcu_try_flip_waitack_state, "flipped (%s)",
	      rcu_try_flip_state_name(state()));
	CHECK(rdp(1)->rcu_dyntick_snapshot == 1, "cpu 1 busy at the snapshot");
	sim_idle_enter(1);	/* snap = 1, curr = 2: never ticks again */
	for (i = 0; i < 3 && state() == rcu_try_flip_waitack_state; i++)
		sim_tick(0);
	CHECK(state() != rcu_try_flip_waitack_state,
	      "waitack must not wait for a CPU that went idle (%s)",
	      rcu_try_flip_state_name(state()));
	sim_idle_exit(1);
	sim_tick(1);		/* busy again, acks, catches up */
	for (i = 0; i < 10 && state() != rcu_try_flip_waitmb_state; i++)
		sim_tick(0);
	CHECK(state() == rcu_try_flip_waitmb_state, "reached waitmb (%s)",
	      rcu_try_flip_state_name(state()));
	CHECK(rdp(1)->rcu_mb_flag == rcu_mb_needed, "cpu 1 owes an mb");
	sim_idle_enter(1);	/* the idle entry's mb pays the debt */
	for (i = 0; i < 3 && state() == rcu_try_flip_waitmb_state; i++)
		sim_tick(0);
	CHECK(state() == rcu_try_flip_idle_state,
	      "waitmb must not wait for a CPU that went idle (%s)",
	      rcu_try_flip_state_name(state()));
	for (i = 0; i < 50 && !c.invoked; i++)
		sim_tick(0);
	CHECK(c.invoked == 1, "callback ran with cpu 1 idle (%d)", c.invoked);
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/* Many grace periods with only one CPU ticking: idle CPUs excused. */
static void test_idle_cpus_excused(void)
{
	struct tcb c;
	int i, n, rounds = 0;

	cur_test = "idle_cpus_excused";
	sim_boot(8);
	for (i = 1; i < 8; i++)
		sim_idle_enter(i);
	for (n = 0; n < 200; n++) {
		tcb_queue(&c, 0);
		for (i = 0; i < 100 && !c.invoked; i++, rounds++)
			sim_tick_all();
		if (!CHECK(c.invoked == 1, "callback %d invoked", n))
			break;
	}
	CHECK(gps() >= 200, "%llu grace periods", (unsigned long long)gps());
	for (i = 1; i < 8; i++)
		CHECK(sim_ticks[i] == 0, "idle cpu %d took %ld ticks", i,
		      sim_ticks[i]);
	printf("# idle_cpus_excused: %llu GPs in %d ticks of cpu 0 (%.1f ticks/GP)\n",
	       (unsigned long long)gps(), rounds, (double)rounds / (double)gps());
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/* ------------------------------------------------------------------ */
/* 5. Readers hold up waitzero                                        */
/* ------------------------------------------------------------------ */

static void test_reader_blocks_waitzero(void)
{
	struct tcb c;
	struct task *r = &extra[0];
	struct task *late = &extra[1];
	int i;

	cur_test = "reader_blocks_waitzero";
	sim_boot(3);
	sim_idle_enter(2);
	on_cpu(0, r);
	__rcu_read_lock();
	__rcu_read_lock();	/* nested */
	CHECK(r->rcu_read_lock_nesting == 2, "nesting 2");
	CHECK(rdp(0)->rcu_flipctr[0] == 1, "one count on cpu 0 idx 0");
	__rcu_read_unlock();
	CHECK(r->rcu_read_lock_nesting == 1 && flipctr_sum(0) == 1,
	      "inner unlock only drops nesting");
	tcb_queue(&c, 0);
	for (i = 0; i < 200; i++)
		sim_tick_all();
	CHECK(state() == rcu_try_flip_waitzero_state,
	      "held in waitzero by the reader (%s)",
	      rcu_try_flip_state_name(state()));
	CHECK(c.invoked == 0, "callback must not run under the reader");

	/* A reader that starts after the flip uses the new index. */
	on_cpu(1, late);
	__rcu_read_lock();
	CHECK(late->rcu_flipctr_idx == 1, "late reader idx %d",
	      late->rcu_flipctr_idx);

	/* The old reader migrates to CPU 1 and unlocks there. */
	r->cpu = 1;
	on_cpu(1, r);
	__rcu_read_unlock();
	CHECK(rdp(0)->rcu_flipctr[0] == 1 && rdp(1)->rcu_flipctr[0] == -1,
	      "per-cpu counts 1 and -1 (%ld, %ld)", rdp(0)->rcu_flipctr[0],
	      rdp(1)->rcu_flipctr[0]);
	CHECK(flipctr_sum(0) == 0, "sum 0");
	CHECK(r->rcu_read_lock_nesting == 0, "nesting 0");
	on_cpu(1, &tasks[1]);
	for (i = 0; i < 10 && state() == rcu_try_flip_waitzero_state; i++)
		sim_tick_all();
	CHECK(state() != rcu_try_flip_waitzero_state,
	      "waitzero ends after the migrated unlock (%s)",
	      rcu_try_flip_state_name(state()));
	CHECK(rcupreempt_batches_completed() == 1, "still the first GP");

	/* The late reader now holds up the *next* grace period. */
	for (i = 0; i < 200; i++)
		sim_tick_all();
	CHECK(state() == rcu_try_flip_waitzero_state &&
	      rcupreempt_batches_completed() == 2,
	      "late reader holds GP 2 in waitzero (%s, completed %ld)",
	      rcu_try_flip_state_name(state()), rcupreempt_batches_completed());
	/*
	 * Not a safety requirement (the late reader began after call_rcu),
	 * but what GP_STAGES = 2 implies: queued before GP 1's flip, the
	 * callback also waits out GP 2.
	 */
	CHECK(c.invoked == 0, "GP_STAGES=2: callback also waits out GP 2");
	on_cpu(1, late);
	__rcu_read_unlock();
	on_cpu(1, &tasks[1]);
	for (i = 0; i < 100 && !c.invoked; i++)
		sim_tick_all();
	CHECK(c.invoked == 1, "then the callback runs (%d)", c.invoked);
	CHECK(flipctr_sum(0) == 0 && flipctr_sum(1) == 0, "sums back to 0");
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/* ------------------------------------------------------------------ */
/* 6. Callbacks                                                       */
/* ------------------------------------------------------------------ */

static void test_callbacks(void)
{
	static struct tcb cb[3][10];
	int cpu, i, bad = 0, order_bad = 0;

	cur_test = "callbacks";
	sim_boot(3);
	for (i = 0; i < 10; i++) {
		for (cpu = 0; cpu < 3; cpu++)
			tcb_queue(&cb[cpu][i], cpu);
		sim_tick_all();
	}
	for (i = 0; i < 200; i++)
		sim_tick_all();
	for (cpu = 0; cpu < 3; cpu++) {
		for (i = 0; i < 10; i++) {
			struct tcb *c = &cb[cpu][i];

			if (c->invoked != 1 || c->cpu != cpu ||
			    c->gps_at_invoke - c->gps_at_call < 2)
				bad++;
			if (i && c->order < cb[cpu][i - 1].order)
				order_bad++;
		}
	}
	CHECK(bad == 0, "%d callbacks not run exactly once, after 2 GPs, on their cpu",
	      bad);
	CHECK(order_bad == 0, "%d per-cpu FIFO violations", order_bad);
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

static void test_needs_cpu_pending(void)
{
	struct tcb c;
	int i;

	cur_test = "needs_cpu_pending";
	sim_boot(2);
	CHECK(!rcupreempt_needs_cpu(0) && !rcupreempt_needs_cpu(1), "no callbacks: no need");
	CHECK(!rcu_pending(0) && !rcu_pending(1), "nothing pending");
	tcb_queue(&c, 0);
	CHECK(rcupreempt_needs_cpu(0) && !rcupreempt_needs_cpu(1), "cpu 0 needs its tick");
	CHECK(rcu_pending(0), "cpu 0 pending");
	sim_tick(0);
	CHECK(rcu_pending(1) && !rcupreempt_needs_cpu(1),
	      "cpu 1 owes an ack (pending) but has no callbacks");
	for (i = 0; i < 100 && !c.invoked; i++) {
		sim_tick_all();
		if (!c.invoked)
			CHECK(rcupreempt_needs_cpu(0), "needs cpu until invoked");
	}
	CHECK(c.invoked == 1, "invoked");
	CHECK(!rcupreempt_needs_cpu(0), "no callbacks left: tick may stop");
	for (i = 0; i < 20; i++)
		sim_tick_all();
	CHECK(!rcu_pending(0) && !rcu_pending(1), "quiet again");
	CHECK(state() == rcu_try_flip_idle_state, "machine idle");
}

/* ------------------------------------------------------------------ */
/* 7. synchronize_rcu and rcu_barrier                                 */
/* ------------------------------------------------------------------ */

static void driver_tick_all(void)
{
	sim_tick_all();
}

static void test_sync_and_barrier(void)
{
	struct tcb c[4];
	long before;
	int i;

	cur_test = "sync_and_barrier";
	sim_boot(4);
	sim_idle_enter(3);
	shim_wait_driver = driver_tick_all;
	for (i = 0; i < 3; i++) {
		before = (long)gps();
		on_cpu(i, NULL);
		wait_rcu_gp(rcupreempt_call_rcu);	/* synchronize_rcu() */
		CHECK(shim_wait_timeouts == 0, "synchronize_rcu returned");
		CHECK((long)gps() - before >= 1, "a full GP passed");
	}
	tcb_queue(&c[0], 0);
	tcb_queue(&c[1], 1);
	tcb_queue(&c[2], 1);
	on_cpu(2, NULL);
	wait_rcu_barrier(rcupreempt_barrier_entrain);	/* rcu_barrier() */
	CHECK(shim_wait_timeouts == 0, "rcu_barrier returned");
	CHECK(c[0].invoked == 1 && c[1].invoked == 1 && c[2].invoked == 1,
	      "all queued callbacks ran (%d %d %d)", c[0].invoked,
	      c[1].invoked, c[2].invoked);
	CHECK(!rcupreempt_needs_cpu(3), "idle cpu 3 got no barrier callback");
	on_cpu(0, NULL);
	/* Nothing queued: returns at once. */
	wait_rcu_barrier(rcupreempt_barrier_entrain);
	CHECK(shim_wait_timeouts == 0, "empty rcu_barrier returned");
	shim_wait_driver = NULL;
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/* ------------------------------------------------------------------ */
/* 8. Stall detector                                                  */
/* ------------------------------------------------------------------ */

static int count_substr(const char *s, const char *sub)
{
	int n = 0;

	while ((s = strstr(s, sub)) != NULL) {
		n++;
		s++;
	}
	return n;
}

static void test_stall(void)
{
	struct tcb c;
	struct task *r = &extra[2];
	struct rcu_stats_snapshot s;
	const char *con;
	int i;

	cur_test = "stall_waitzero";
	sim_boot(2);
	rcu_cpu_stall_timeout = 2;
	snprintf(r->name, TASK_NAME_LEN, "stuck_reader");
	on_cpu(0, r);
	__rcu_read_lock();
	on_cpu(0, &tasks[0]);
	tcb_queue(&c, 0);
	for (i = 0; i < 1900; i++)
		sim_tick_all();
	CHECK(shim_failed_count == 0, "no report before the timeout");
	for (i = 0; i < 200; i++)
		sim_tick_all();
	con = shim_console();
	CHECK(shim_failed_count == 1, "run marked failed once (%d)",
	      shim_failed_count);
	CHECK(strncmp(con, "rcu: INFO: detected stall", 25) == 0,
	      "first line starts the report: %.60s", con);
	CHECK(strstr(con, "state waitzero") != NULL, "names the state");
	CHECK(strstr(con, "stuck_reader") != NULL, "names the reader task");
	CHECK(strstr(con, "sum 1") != NULL, "reports the flipctr sum");
	for (i = 0; i < 3000; i++)
		sim_tick_all();
	CHECK(count_substr(shim_console(), "detected stall") == 1,
	      "no repeat before 3x the timeout");
	for (i = 0; i < 3500; i++)
		sim_tick_all();
	CHECK(count_substr(shim_console(), "detected stall") == 2,
	      "repeats at the longer interval");
	on_cpu(0, r);
	__rcu_read_unlock();
	on_cpu(0, &tasks[0]);
	for (i = 0; i < 100 && !c.invoked; i++)
		sim_tick_all();
	CHECK(c.invoked == 1, "recovers after the unlock");
	rcupreempt_stats_get(&s);
	CHECK(s.stalls == 2, "stats count 2 reports (%llu)",
	      (unsigned long long)s.stalls);

	cur_test = "stall_waitack";
	sim_boot(3);
	rcu_cpu_stall_timeout = 1;
	tcb_queue(&c, 0);
	for (i = 0; i < 1500; i++) {	/* cpu 1 busy but never ticks */
		sim_tick(0);
		sim_tick(2);
		shim_now_ns += 1000000;
	}
	con = shim_console();
	CHECK(strstr(con, "rcu: INFO: detected stall") == con,
	      "report printed: %.60s", con);
	CHECK(strstr(con, "state waitack") != NULL, "names waitack");
	CHECK(strstr(con, "cpu 1 owes ack: dynticks_progress_counter 1 rcu_dyntick_snapshot 1") != NULL,
	      "names cpu 1 with counter and snapshot");
	CHECK(strstr(con, "cpu 2 owes") == NULL, "cpu 2 acked: not named");
	CHECK(shim_failed_count == 1, "marked failed");
	shim_console_clear();
	rcu_cpu_stall_timeout = 0;
}

/* ------------------------------------------------------------------ */
/* 9. Statistics                                                      */
/* ------------------------------------------------------------------ */

static void test_stats(void)
{
	struct rcu_stats_snapshot s;
	struct tcb c;
	int n, i;
	u64 total = 0;

	cur_test = "stats";
	sim_boot(2);
	for (n = 0; n < 20; n++) {
		tcb_queue(&c, 0);
		for (i = 0; i < 100 && !c.invoked; i++)
			sim_tick_all();
	}
	rcupreempt_stats_get(&s);
	CHECK(s.cb_invoked == 20, "callbacks invoked %llu",
	      (unsigned long long)s.cb_invoked);
	CHECK(s.gp_completed >= 20 && s.flips >= s.gp_completed,
	      "gp %llu flips %llu", (unsigned long long)s.gp_completed,
	      (unsigned long long)s.flips);
	CHECK(s.gp_lat_min_ns > 0 && s.gp_lat_min_ns <= s.gp_lat_median_ns &&
	      s.gp_lat_median_ns <= s.gp_lat_max_ns,
	      "latency min %llu median %llu max %llu",
	      (unsigned long long)s.gp_lat_min_ns,
	      (unsigned long long)s.gp_lat_median_ns,
	      (unsigned long long)s.gp_lat_max_ns);
	/*
	 * 1 ms per round of ticks; two CPUs can make two transitions per
	 * round, and a GP takes four.
	 */
	CHECK(s.gp_lat_min_ns >= 1000000, "min latency %llu ns",
	      (unsigned long long)s.gp_lat_min_ns);
	for (i = 0; i < RCU_TRY_FLIP_NR_STATES; i++)
		total += s.state_ns[i];
	CHECK(total > 0 && s.state_ns[rcu_try_flip_waitack_state] > 0,
	      "time in states accounted");
	shim_console_clear();
	rcupreempt_stats_print();
	CHECK(count_substr(shim_console(), "# rcu: ") == 4,
	      "four KTAP diagnostic lines:\n%s", shim_console());
	CHECK(strstr(shim_console(), "ticks (HZ=1000)") != NULL,
	      "latency in ticks");
	fputs(shim_console(), stdout);
}

/*
 * rcu=tree's segmented callback list (rcu/tree/rcu_segcblist.c): callbacks
 * queued in two grace periods' time move to DONE only when the gp_seq
 * they wait for is done, in order, and acceleration merges what it can.
 */
static struct rcu_head seg_cbs[6];

static int seg_count(struct rcu_segcblist *l, int seg)
{
	struct rcu_head **p = seg ? l->tails[seg - 1] : &l->head;
	int n = 0;

	while (p != l->tails[seg]) {
		n++;
		p = &(*p)->next;
	}
	return n;
}

static void test_segcblist(void)
{
	struct rcu_segcblist l;
	unsigned long seq = 0, s1, s2;
	struct rcu_head *done;
	long n;

	cur_test = "segcblist";
	rcu_segcblist_init(&l);
	CHECK(rcu_segcblist_empty(&l), "starts empty");
	/* Two callbacks while idle: they need the next GP (ends at 4). */
	rcu_segcblist_enqueue(&l, &seg_cbs[0]);
	rcu_segcblist_enqueue(&l, &seg_cbs[1]);
	s1 = (seq + 2 * RCU_SEQ_STATE_MASK + 1) & ~RCU_SEQ_STATE_MASK;
	CHECK(s1 == 4, "snap of idle 0 is %lu", s1);
	CHECK(rcu_segcblist_accelerate(&l, s1), "accelerated");
	CHECK(seg_count(&l, RCU_WAIT_TAIL) == 2, "2 in WAIT: %d",
	      seg_count(&l, RCU_WAIT_TAIL));
	/* A GP starts (seq 1); one more callback needs the one after. */
	seq = 1;
	rcu_segcblist_enqueue(&l, &seg_cbs[2]);
	s2 = (seq + 2 * RCU_SEQ_STATE_MASK + 1) & ~RCU_SEQ_STATE_MASK;
	CHECK(s2 == 8, "snap during GP 1 is %lu", s2);
	CHECK(rcu_segcblist_accelerate(&l, s2), "accelerated again");
	CHECK(seg_count(&l, RCU_NEXT_READY_TAIL) == 1, "1 in NEXT_READY: %d",
	      seg_count(&l, RCU_NEXT_READY_TAIL));
	/* Nothing is done while GP 1 runs. */
	rcu_segcblist_advance(&l, seq);
	CHECK(!rcu_segcblist_ready_cbs(&l), "none ready during GP 1");
	/* GP 1 ends (seq 4): the first two are done, the third waits. */
	seq = 4;
	rcu_segcblist_advance(&l, seq);
	CHECK(rcu_segcblist_ready_cbs(&l), "ready after GP 1");
	done = rcu_segcblist_extract_done(&l, &n);
	CHECK(n == 2 && done == &seg_cbs[0] && done->next == &seg_cbs[1] &&
	      !seg_cbs[1].next, "extracted the first two in order (%ld)", n);
	CHECK(!rcu_segcblist_empty(&l) && l.len == 1, "one left, len %ld",
	      l.len);
	CHECK(seg_count(&l, RCU_WAIT_TAIL) == 1, "it moved to WAIT: %d",
	      seg_count(&l, RCU_WAIT_TAIL));
	/* GP 2 starts and ends: the third is done. */
	rcu_segcblist_advance(&l, 5);
	CHECK(!rcu_segcblist_ready_cbs(&l), "none ready during GP 2");
	rcu_segcblist_advance(&l, 8);
	done = rcu_segcblist_extract_done(&l, &n);
	CHECK(n == 1 && done == &seg_cbs[2], "the third after GP 2");
	CHECK(rcu_segcblist_empty(&l) && l.len == 0, "empty at the end");
}

/*
 * mul_u64_div_u64() (kernel/time.h) at the edges the time conversions
 * reach: arch_cycles_to_ns() with a TSC of 100 MHz to 10 GHz (what
 * calibrate.c accepts), arch_timer_oneshot() with up to 60 s and a LAPIC
 * timer of 1 MHz to 10 GHz.  Exact against a 128-bit reference; and the
 * plain product, which the code used to compute, is shown to overflow
 * there.
 */
static void test_time_conversions(void)
{
	static const struct { u64 mul, div; } conv[] = {
		{ 1000000000ULL, 100000000ULL },	/* cycles->ns, 100 MHz */
		{ 1000000000ULL, 2095977000ULL },	/* cycles->ns, TCG */
		{ 1000000000ULL, 10000000000ULL },	/* cycles->ns, 10 GHz */
		{ 1000000ULL, 1000000000ULL },		/* ns->count, 1 MHz */
		{ 62500000ULL, 1000000000ULL },		/* ns->count, QEMU */
		{ 10000000000ULL, 1000000000ULL },	/* ns->count, 10 GHz */
	};
	const u64 a[] = { 0, 1, 999999999ULL, 1000000000ULL,
			  9999999999ULL, 60000000000ULL, 1ULL << 32,
			  1ULL << 40, 1ULL << 50, 1ULL << 55 };

	cur_test = "time_conversions";
	for (unsigned int i = 0; i < sizeof(conv) / sizeof(conv[0]); i++) {
		for (unsigned int j = 0; j < sizeof(a) / sizeof(a[0]); j++) {
			unsigned __int128 want = (unsigned __int128)a[j] *
						 conv[i].mul / conv[i].div;

			if (want >> 64)
				continue;	/* beyond any uptime or timer */
			CHECK(mul_u64_div_u64(a[j], conv[i].mul, conv[i].div) ==
			      (u64)want, "%llu * %llu / %llu",
			      (unsigned long long)a[j],
			      (unsigned long long)conv[i].mul,
			      (unsigned long long)conv[i].div);
		}
	}
	/* The old one-shot arithmetic, 60 s at 10 GHz: wrong. */
	CHECK(60000000000ULL * 10000000000ULL / 1000000000ULL !=
	      mul_u64_div_u64(60000000000ULL, 10000000000ULL, 1000000000ULL),
	      "the plain product should overflow here");
	/* The old clock at a 20 GHz TSC (the bound calibrate.c had). */
	CHECK((u64)(19999999999ULL * 1000000000ULL / 20000000000ULL) !=
	      (u64)((unsigned __int128)19999999999ULL * 1000000000ULL /
		    20000000000ULL),
	      "(tsc_hz - 1) * 1e9 should overflow at 20 GHz");
}

int main(int argc, char **argv)
{
	(void)argv;
	shim_console_echo = argc > 1;
	test_needed_tables();
	test_dynticks_parity();
	test_dynticks_random();
	test_idle_reader_reported();
	test_nmi_interleave();
	test_nmi_reader_interleave();
	test_flip_machine();
	test_liveness_cpu_goes_idle();
	test_idle_cpus_excused();
	test_reader_blocks_waitzero();
	test_callbacks();
	test_needs_cpu_pending();
	test_sync_and_barrier();
	test_stall();
	test_stats();
	test_segcblist();
	test_time_conversions();
	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
