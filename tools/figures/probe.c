// SPDX-License-Identifier: GPL-2.0
/*
 * The host program behind three of the pictures (tools/figures/): it
 * links the real rcu/rcupreempt/ and rcu/tree/context_tracking.c with the
 * host shim and the simulated machine of the host unit tests (tests/host/)
 * and prints, one JSON object a line, what the code does:
 *
 *   probe timeline   CPU 1 through task, idle, an IRQ, a nested IRQ, and
 *                    an IRQ whose rcu_irq_enter() an NMI (with a reader)
 *                    interrupts between its two increments:
 *                    dynticks_progress_counter and rcu_update_flag after
 *                    every step
 *   probe grid       rcu_try_flip_waitack_needed() and
 *                    rcu_try_flip_waitmb_needed() for every (snap, curr)
 *   probe ct         context tracking's state word and nmi_nesting through
 *                    idle, IRQs, a nested IRQ and NMIs
 *
 * make figures builds it four times: from the tree as it is, and with a
 * patch applied to a copy of dynticks.c (Quick Quiz 2's order and a
 * related swap for the timeline, the article's snap-parity test for the
 * grid), so the same scenario runs against the right and the wrong
 * code.  Deterministic: simulated CPUs take turns, the NMI lands at a
 * chosen hook point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/irqflags.h"
#include "kernel/preempt.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt/rcupreempt.h"
#include "rcu/tree/context_tracking.h"
#include "tests/host/rcupreempt/sim.h"
#include "tests/host/shim.h"

#define PROBE_CPU	1

/* ---- timeline ---- */

static int tl_step;
static const char *tl_phase;	/* the scenario's part, for the picture */

/*
 * One step: what just ran, the state after it, and where the CPU is (ctx:
 * its context stack, outermost first, "irq entry" while rcu_irq_enter()
 * has not returned yet).
 */
static void tl_emit(const char *ctx, const char *what)
{
	printf("{\"step\": %d, \"phase\": \"%s\", \"ctx\": \"%s\", "
	       "\"what\": \"%s\", \"counter\": %ld, \"flag\": %d, "
	       "\"warns\": %d}\n", tl_step++, tl_phase, ctx, what,
	       ctr(PROBE_CPU), rdp(PROBE_CPU)->rcu_update_flag,
	       shim_warn_count);
}

/* An RCU reader in the current context, as a handler would run one. */
static void tl_reader(const char *ctx)
{
	__rcu_read_lock();
	__rcu_read_unlock();
	tl_emit(ctx, "rcu_read_lock/unlock");
}

/* The NMI: rcu_irq_enter()/rcu_irq_exit() around a handler's reader. */
static void tl_nmi(void)
{
	tl_emit("idle > irq entry", "IRQ entry; NMI arrives");
	sim_nmi_enter();
	tl_emit("idle > irq entry > NMI", "NMI: rcu_irq_enter()");
	/* The reader whose protection Quick Quiz 2's order loses. */
	tl_reader("idle > irq entry > NMI");
	sim_nmi_exit();
	tl_emit("idle > irq entry", "NMI: rcu_irq_exit()");
}

/* From boot to idle, with an IRQ and a nested IRQ on the idle CPU. */
static void tl_prefix(int emit)
{
	sim_boot(2);
	on_cpu(PROBE_CPU, NULL);
	tl_step = 0;
	tl_phase = "nest";
	if (emit)
		tl_emit("task", "boot: task running");
	sim_idle_enter(PROBE_CPU);
	if (emit)
		tl_emit("idle", "rcu_enter_nohz()");
	sim_irq_enter(PROBE_CPU);
	if (emit)
		tl_emit("idle > irq", "rcu_irq_enter()");
	sim_irq_enter(PROBE_CPU);
	if (emit)
		tl_emit("idle > irq > irq", "rcu_irq_enter()");
	sim_irq_exit(PROBE_CPU);
	if (emit)
		tl_emit("idle > irq", "rcu_irq_exit()");
	sim_irq_exit(PROBE_CPU);
	if (emit)
		tl_emit("idle", "rcu_irq_exit()");
}

/*
 * The hook point (k) at which an NMI lands inside rcu_irq_enter() after
 * its first increment and before its second: the first k at which the
 * state the NMI finds differs from the state before the entry.  0 if none.
 */
static long nmi_ctr, nmi_flag;

static void nmi_peek(void)
{
	nmi_ctr = ctr(PROBE_CPU);
	nmi_flag = rdp(PROBE_CPU)->rcu_update_flag;
}

static int tl_find_window(void)
{
	int k;

	for (k = 1; k < 100; k++) {
		long c0, f0;

		tl_prefix(0);
		c0 = ctr(PROBE_CPU);
		f0 = rdp(PROBE_CPU)->rcu_update_flag;
		shim_cpu = PROBE_CPU;
		shim_local_irq_disable();
		shim_nmi_arm(k, nmi_peek);
		rcu_irq_enter();
		if (!shim_nmi_fired_at)
			return 0;	/* past the end of rcu_irq_enter() */
		if (nmi_ctr != c0 || nmi_flag != f0)
			return k;
	}
	return 0;
}

static int probe_timeline(void)
{
	int k = tl_find_window();

	if (!k) {
		fprintf(stderr, "probe timeline: no hook point between the "
			"two increments of rcu_irq_enter()\n");
		return 1;
	}
	tl_prefix(1);
	tl_phase = "nmi";
	/* sim_irq_enter(), with the NMI armed for its rcu_irq_enter(). */
	shim_cpu = PROBE_CPU;
	shim_local_irq_disable();
	shim_nmi_arm(k, tl_nmi);
	sim_irq_enter(PROBE_CPU);
	shim_nmi_disarm();
	tl_emit("idle > irq", "rcu_irq_enter() returns");
	tl_reader("idle > irq");
	sim_irq_exit(PROBE_CPU);
	tl_emit("idle", "rcu_irq_exit()");
	sim_idle_exit(PROBE_CPU);
	tl_emit("task", "rcu_exit_nohz()");
	printf("{\"nmi_hook\": \"%s\", \"k\": %d, \"warn\": \"%s\"}\n",
	       shim_nmi_fired_at ? shim_nmi_fired_at : "", k,
	       shim_warn_count ? shim_last_warn : "");
	return 0;
}

/* ---- grid ---- */

static int probe_grid(void)
{
	long snap, curr;

	sim_boot(2);
	for (snap = 4; snap <= 7; snap++)
		for (curr = 4; curr <= 11; curr++) {
			rdp(PROBE_CPU)->rcu_dyntick_snapshot = snap;
			rdp(PROBE_CPU)->dynticks_progress_counter = curr;
			printf("{\"snap\": %ld, \"curr\": %ld, \"waitack\": %d, "
			       "\"waitmb\": %d}\n", snap, curr,
			       rcu_try_flip_waitack_needed(PROBE_CPU),
			       rcu_try_flip_waitmb_needed(PROBE_CPU));
		}
	return 0;
}

/* ---- context tracking ---- */

static struct context_tracking *ct0 = &context_tracking[0];

static void ct_emit(const char *ctx, const char *what)
{
	printf("{\"ctx\": \"%s\", \"what\": \"%s\", \"state\": %d, "
	       "\"nmi_nesting\": %ld, \"nesting\": %ld, \"watching\": %d, "
	       "\"warns\": %d}\n", ctx, what, ct0->state, ct0->nmi_nesting,
	       ct0->nesting, rcu_is_watching_curr_cpu(), shim_warn_count);
}

static int probe_ct(void)
{
	shim_reset(1);
	ct0->state = CT_RCU_WATCHING | CT_STATE_KERNEL;
	ct_init_cpu(0);
	shim_warn_count = 0;
	local_irq_disable();
	ct_emit("task", "boot");
	ct_irq_enter();
	ct_emit("task > irq", "ct_irq_enter()");
	ct_nmi_enter();
	ct_emit("task > irq > NMI", "ct_nmi_enter()");
	ct_nmi_exit();
	ct_emit("task > irq", "ct_nmi_exit()");
	ct_irq_exit();
	ct_emit("task", "ct_irq_exit()");
	ct_idle_enter();
	ct_emit("idle", "ct_idle_enter()");
	ct_irq_enter();
	ct_emit("idle > irq", "ct_irq_enter()");
	ct_irq_enter();
	ct_emit("idle > irq > irq", "ct_irq_enter()");
	ct_nmi_enter();
	ct_emit("idle > irq > irq > NMI", "ct_nmi_enter()");
	ct_nmi_exit();
	ct_emit("idle > irq > irq", "ct_nmi_exit()");
	ct_irq_exit();
	ct_emit("idle > irq", "ct_irq_exit()");
	ct_irq_exit();
	ct_emit("idle", "ct_irq_exit()");
	ct_nmi_enter();
	ct_emit("idle > NMI", "ct_nmi_enter()");
	ct_nmi_exit();
	ct_emit("idle", "ct_nmi_exit()");
	ct_idle_exit();
	ct_emit("task", "ct_idle_exit()");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "timeline"))
		return probe_timeline();
	if (argc == 2 && !strcmp(argv[1], "grid"))
		return probe_grid();
	if (argc == 2 && !strcmp(argv[1], "ct"))
		return probe_ct();
	fprintf(stderr, "usage: %s timeline|grid|ct\n", argv[0]);
	return 2;
}
