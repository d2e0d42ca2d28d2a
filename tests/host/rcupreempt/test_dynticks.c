// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rcu/rcupreempt/dynticks.c: the (snap, curr) tables of
 * the article, the dynticks counter protocol on simulated CPUs, and
 * simulated NMIs landing between every two steps of rcu_irq_enter(),
 * rcu_irq_exit(), the nohz functions and the read side.
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
#include "tests/host/check.h"
#include "tests/host/rcupreempt/sim.h"
#include "tests/host/shim.h"

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
	sim_nmi_enter();
	CHECK(ctr(1) == 5 && rdp(1)->rcu_update_flag == 3,
	      "nmi in nested irq: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	sim_nmi_exit();
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
	sim_nmi_enter();
	CHECK(ctr(1) == 7 && rdp(1)->rcu_update_flag == 1,
	      "nmi from idle: counter %ld flag %d", ctr(1),
	      rdp(1)->rcu_update_flag);
	sim_nmi_exit();
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
			sim_nmi_enter();
			if ((ctr(0) & 1) == 0)
				bad++;
			sim_nmi_exit();
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
	sim_nmi_enter();
	if ((ctr(shim_cpu) & 1) == 0)
		nmi_saw_even++;
	__rcu_read_lock();
	__rcu_read_lock();
	__rcu_read_unlock();
	__rcu_read_unlock();
	sim_nmi_exit();
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

void host_test_dynticks(void)
{
	test_needed_tables();
	test_dynticks_parity();
	test_dynticks_random();
	test_idle_reader_reported();
	test_nmi_interleave();
	test_nmi_reader_interleave();
}
