// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rcu/tree/context_tracking.c (rcu=tree's dynticks
 * counter): the nesting values handlers see, the WARN on an unbalanced
 * exit, and simulated NMIs landing between every two steps of
 * ct_nmi_enter()/ct_nmi_exit() (IRQs share them), ct_idle_enter() and
 * ct_idle_exit(), as test_nmi_interleave does for the 2008 code.
 *
 * The hook points are the CPU-number reads of this_ct() and, in this file
 * only, every READ_ONCE()/WRITE_ONCE() (tests/host/tree/ct_hooks.h).  An
 * NMI armed at the k-th hook point from now fires there; k runs from 1
 * until an NMI no longer fires, so every point of the path is covered.
 *
 * What must hold, wherever the NMI lands:
 *  - RCU watches inside every handler, IRQ and NMI;
 *  - a handler finds nmi_nesting 1 above its interrupted level if its
 *    entry woke RCU, 2 above it if RCU was watching already;
 *  - an NMI leaves nmi_nesting, the watching bit and the context bits as
 *    it found them, and the counter moved by whole pairs of steps;
 *  - after the outermost exit an idle CPU has nmi_nesting 0 and is seen
 *    not watching from another CPU (ct_rcu_watching_cpu_acquire()), a
 *    busy one has CT_NESTING_IRQ_NONIDLE and is watched; no WARN fired.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/irqflags.h"
#include "rcu/tree/context_tracking.h"
#include "tests/host/check.h"
#include "tests/host/shim.h"

static struct context_tracking *ct0 = &context_tracking[0];

/* CPU 0 at boot: in the kernel, watched, at process level. */
static void ct_boot(void)
{
	shim_reset(1);
	ct0->state = CT_RCU_WATCHING | CT_STATE_KERNEL;
	ct_init_cpu(0);
	shim_warn_count = 0;
}

static bool watching(int state)
{
	return state & CT_RCU_WATCHING;
}

/* What the grace-period kthread on another CPU sees of CPU 0. */
static bool seen_idle(void)
{
	return rcu_watching_snap_in_eqs(ct_rcu_watching_cpu_acquire(0));
}

/* ---- the simulated NMI handler ---- */

static int nmi_runs;
static int nmi_woke;		/* NMIs that found RCU not watching */
static int nmi_bad;		/* NMIs that broke one of the rules */
static const char *nmi_why;

static void nmi_fail(const char *why)
{
	if (!nmi_bad++)
		nmi_why = why;
}

static void ct_sim_nmi(void)
{
	int state0 = ct0->state;
	long nest0 = ct0->nmi_nesting;

	nmi_runs++;
	nmi_woke += !watching(state0);
	ct_nmi_enter();
	if (!rcu_is_watching_curr_cpu())
		nmi_fail("RCU not watching in the NMI handler");
	if (ct0->nmi_nesting != nest0 + (watching(state0) ? 2 : 1))
		nmi_fail("nmi_nesting in the handler not 1 (woke) or 2 above");
	ct_nmi_exit();
	if (ct0->nmi_nesting != nest0)
		nmi_fail("nmi_nesting not restored by the NMI");
	if ((ct0->state ^ state0) & (CT_RCU_WATCHING | CT_STATE_MASK))
		nmi_fail("watching or context bits not restored by the NMI");
	if ((ct0->state - state0) % (2 * CT_RCU_WATCHING))
		nmi_fail("the NMI moved the counter by an odd number of steps");
}

/* ---- the paths an NMI lands in ---- */

static int nmi_k;		/* the hook point this pass's NMI fires at */

/* From here on, the NMI may fire (at the nmi_k-th hook point). */
static void arm(void)
{
	shim_nmi_arm(nmi_k, ct_sim_nmi);
}

/*
 * Idle: not watching (and seen so from another CPU), nmi_nesting 0.
 * Busy at process level: watched, nmi_nesting CT_NESTING_IRQ_NONIDLE.
 * Returns 0 or what is wrong.
 */
static const char *level_ok(bool idle)
{
	if (watching(ct0->state) == idle || seen_idle() != idle)
		return idle ? "idle CPU seen watching" :
			      "busy CPU seen not watching";
	if (ct0->nmi_nesting != (idle ? 0 : (long)CT_NESTING_IRQ_NONIDLE) ||
	    ct0->nesting != !idle)
		return idle ? "idle CPU's nesting not 0" :
			      "busy CPU's nesting not process level";
	if ((ct0->state & CT_STATE_MASK) !=
	    (idle ? CT_STATE_IDLE : CT_STATE_KERNEL))
		return "context bits wrong";
	return NULL;
}

static const char *idle_ok(void)
{
	return level_ok(true);
}

static const char *busy_ok(void)
{
	return level_ok(false);
}

/*
 * One IRQ handler: RCU watches inside, and nmi_nesting is want above
 * the level it interrupted.  The checks read through hook points too, so
 * the NMI may also land in the handler.
 */
static const char *irq(long want)
{
	long level0 = ct0->nmi_nesting;
	const char *why = NULL;

	ct_irq_enter();
	if (!rcu_is_watching_curr_cpu())
		why = "RCU not watching in the IRQ handler";
	else if (ct0->nmi_nesting != level0 + want)
		why = "IRQ handler's nmi_nesting not 1 (woke) or 2 above";
	ct_irq_exit();
	return why;
}

/*
 * An IRQ at process level, busy or idle: its handler counts 2 above
 * CT_NESTING_IRQ_NONIDLE on a busy CPU, 1 (it woke RCU) on an idle one.
 */
static const char *outer_irq(void)
{
	long want = watching(ct0->state) ? 2 : 1;

	arm();
	return irq(want);
}

/* An IRQ that lands in another one on an idle CPU: 2 above its 1. */
static const char *nested_irq_on_idle(void)
{
	const char *why;

	ct_irq_enter();
	arm();
	why = irq(2);
	shim_nmi_disarm();
	if (!why && (!rcu_is_watching_curr_cpu() || ct0->nmi_nesting != 1))
		why = "outer IRQ's state not restored by the nested one";
	ct_irq_exit();
	return why;
}

/* Into idle and out again: seen idle in between. */
static const char *idle_enter_exit(void)
{
	const char *why;

	arm();
	ct_idle_enter();
	why = idle_ok();
	ct_idle_exit();
	return why;
}

/*
 * Run path with the NMI at hook point k = 1, 2, ... until it no longer
 * fires; idle: CPU 0 enters idle first (no NMI there).  after() judges
 * the state once the path is done.  Returns the hook points covered.
 */
static int interleave(const char *name, bool idle, const char *(*path)(void),
		      const char *(*after)(void), int *woke)
{
	int points = 0, bad = 0;

	*woke = 0;
	for (nmi_k = 1; nmi_k < 500; nmi_k++) {
		const char *why;
		int ran;

		ct_boot();
		shim_local_irq_disable();
		if (idle)
			ct_idle_enter();
		nmi_runs = nmi_bad = nmi_woke = 0;
		nmi_why = NULL;
		why = path();
		shim_nmi_disarm();
		ran = nmi_runs;
		if (!why && nmi_bad)
			why = nmi_why;
		if (!why)
			why = after();
		if (!why && shim_warn_count)
			why = shim_last_warn;
		shim_local_irq_enable();
		if (why && bad++ < 3)
			printf("  %s: NMI at hook %d (%s): %s\n", name, nmi_k,
			       ran ? shim_nmi_fired_at : "did not fire", why);
		if (!ran)
			break;
		points++;
		*woke += nmi_woke;
	}
	printf("# %s: NMIs at %d hook points, %d found RCU not watching\n",
	       name, points, *woke);
	CHECK(nmi_k < 500, "%s: the NMI still fires at hook %d", name, nmi_k);
	CHECK(bad == 0, "%s: %d of %d NMI placements broke a rule", name,
	      bad, points + 1);
	return points;
}

static void test_ct_nmi_interleave(void)
{
	int n, woke;

	cur_test = "ct_nmi_interleave";
	n = interleave("IRQ on idle CPU", true, outer_irq, idle_ok, &woke);
	CHECK(n >= 10, "NMI landed at %d hook points (IRQ on idle)", n);
	/* Before ct_nmi_enter()'s step, and after ct_nmi_exit()'s. */
	CHECK(woke >= 2, "%d NMIs found RCU not watching", woke);
	n = interleave("nested IRQ on idle CPU", true, nested_irq_on_idle,
		       idle_ok, &woke);
	CHECK(n >= 8, "NMI landed at %d hook points (nested IRQ)", n);
	n = interleave("IRQ on busy CPU", false, outer_irq, busy_ok, &woke);
	CHECK(n >= 8, "NMI landed at %d hook points (IRQ on busy)", n);
	CHECK(woke == 0, "%d NMIs on a busy CPU found RCU not watching",
	      woke);
	n = interleave("idle enter/exit", false, idle_enter_exit, busy_ok,
		       &woke);
	CHECK(n >= 10, "NMI landed at %d hook points (idle enter/exit)", n);
	CHECK(woke >= 1, "%d NMIs found the idle CPU not watching", woke);
}

/* The nesting values of docs/tree.md, without NMIs. */
static void test_ct_nesting(void)
{
	int s0;

	cur_test = "ct_nesting";
	ct_boot();
	shim_local_irq_disable();
	CHECK(!busy_ok(), "boot: %s", busy_ok());
	s0 = ct0->state;
	ct_irq_enter();
	CHECK(ct0->nmi_nesting == (long)CT_NESTING_IRQ_NONIDLE + 2,
	      "IRQ on busy CPU: nmi_nesting 0x%lx", ct0->nmi_nesting);
	ct_nmi_enter();
	CHECK(ct0->nmi_nesting == (long)CT_NESTING_IRQ_NONIDLE + 4,
	      "NMI in it: nmi_nesting 0x%lx", ct0->nmi_nesting);
	ct_nmi_exit();
	ct_irq_exit();
	CHECK(!busy_ok() && ct0->state == s0, "busy CPU: %s, state %d -> %d",
	      busy_ok() ? busy_ok() : "ok", s0, ct0->state);

	ct_idle_enter();
	CHECK(!idle_ok(), "idle: %s", idle_ok());
	CHECK(ct0->state == s0 + CT_RCU_WATCHING + CT_STATE_IDLE,
	      "one step into idle: %d -> %d", s0, ct0->state);
	s0 = ct0->state;
	ct_irq_enter();
	CHECK(ct0->nmi_nesting == 1 && rcu_is_watching_curr_cpu(),
	      "IRQ on idle CPU: nmi_nesting %ld, watching %d",
	      ct0->nmi_nesting, rcu_is_watching_curr_cpu());
	CHECK(!seen_idle(), "IRQ on idle CPU seen idle");
	ct_nmi_enter();
	CHECK(ct0->nmi_nesting == 3, "NMI in it: nmi_nesting %ld",
	      ct0->nmi_nesting);
	ct_nmi_exit();
	ct_irq_exit();
	CHECK(!idle_ok(), "back in idle: %s", idle_ok());
	CHECK(ct0->state == s0 + 2 * CT_RCU_WATCHING,
	      "two steps for the IRQ: %d -> %d", s0, ct0->state);
	ct_idle_exit();
	CHECK(!busy_ok(), "out of idle: %s", busy_ok());
	CHECK(shim_warn_count == 0, "%d WARNs: %s", shim_warn_count,
	      shim_last_warn);
	shim_local_irq_enable();
}

/* An exit with no entry, and idle entry inside a handler, WARN. */
static void test_ct_warn(void)
{
	cur_test = "ct_warn";
	ct_boot();
	shim_local_irq_disable();
	ct_idle_enter();
	ct_nmi_exit();
	CHECK(shim_warn_count == 1 && strstr(shim_last_warn, "ct_nmi_exit"),
	      "unbalanced ct_nmi_exit on an idle CPU: %d WARNs (%s)",
	      shim_warn_count, shim_last_warn);
	ct_boot();
	shim_local_irq_disable();	/* ct_boot() reset the flag */
	ct_irq_enter();
	ct_idle_enter();
	CHECK(shim_warn_count == 1 && strstr(shim_last_warn, "ct_idle_enter"),
	      "ct_idle_enter in an IRQ handler: %d WARNs (%s)",
	      shim_warn_count, shim_last_warn);
	shim_local_irq_enable();
}

void host_test_context_tracking(void)
{
	test_ct_nesting();
	test_ct_warn();
	test_ct_nmi_interleave();
}
