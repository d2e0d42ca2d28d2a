// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_tree_ct_handlers: context tracking (rcu/tree/context_tracking.c)
 * across IRQs and NMIs on idle and busy CPUs: RCU watches inside every
 * handler, nmi_nesting is what ct_nmi_enter() promises, and the counter
 * steps (idle) or does not (busy).  rcu_tree_idle_tick_excused: an idle
 * CPU whose tick runs is idle to RCU all the same.  rcu=tree only.  The
 * host unit tests (tests/host/tree/) land NMIs between every two steps
 * of the same code.
 */
#include "rcu/tree/context_tracking.h"
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/rcu/util.h"
#include "tests/kernel/tree/util.h"

static struct {
	int state, state_after;
	long nmi_nesting;
	bool watching;
	volatile int done;
} cth;

static void ct_probe(void)
{
	int cpu = raw_smp_processor_id();

	cth.watching = rcu_is_watching_curr_cpu();
	cth.nmi_nesting = READ_ONCE(context_tracking[cpu].nmi_nesting);
	smp_store_release(&cth.done, 1);
}

static void ct_probe_ipi(void *arg)
{
	(void)arg;
	ct_probe();
}

static volatile int ct_nmi_target = -1;

static void ct_probe_nmi(void)
{
	if (raw_smp_processor_id() != READ_ONCE(ct_nmi_target))
		return;
	WRITE_ONCE(ct_nmi_target, -1);
	ct_probe();
}

/*
 * One handler on target: returns 0 if the handler saw RCU watching with
 * nmi_nesting want_nesting, and the counter moved by want_steps steps of
 * CT_RCU_WATCHING from before to after.
 */
static int ct_one(int target, bool nmi, long want_nesting, int want_steps,
		  const char *what)
{
	int before, after, fail = 0;

	cth.done = 0;
	before = READ_ONCE(context_tracking[target].state);
	if (nmi) {
		WRITE_ONCE(ct_nmi_target, target);
		arch_send_nmi(target);
	} else {
		smp_call_function_single(target, ct_probe_ipi, NULL, false);
	}
	if (KT_EXPECT(wait_flag(&cth.done, HOST_STALL_MS), "%s: handler ran",
		      what))
		return 1;
	/*
	 * Until the handler's exit path has run: nmi_nesting back to its
	 * value outside handlers and an even number of steps (up to
	 * HOST_STALL_MS).  A fixed 2 ms sleep read the counter mid-exit
	 * when the host stalled the target that long: a correct kernel
	 * failed on an idle target, and a busy target's wrong step on
	 * exit could be missed.
	 */
	long outside = want_steps ? 0 : CT_NESTING_IRQ_NONIDLE;
	u64 t0 = ktime_get_ns();

	do {
		after = READ_ONCE(context_tracking[target].state);
		if (READ_ONCE(context_tracking[target].nmi_nesting) ==
		    outside && (after - before) / CT_RCU_WATCHING % 2 == 0)
			break;
		arch_cpu_relax();
	} while (ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC);
	fail |= KT_EXPECT(cth.watching, "%s: RCU not watching in handler",
			  what);
	/*
	 * The handler may have landed inside another one (an NMI in a
	 * tick): each level under it adds 2.  So an idle CPU's handler sees
	 * 1 + 2k (odd: the outermost one woke RCU), a busy CPU's
	 * CT_NESTING_IRQ_NONIDLE + 2 + 2k.
	 */
	fail |= KT_EXPECT(cth.nmi_nesting >= want_nesting &&
			  (cth.nmi_nesting - want_nesting) % 2 == 0 &&
			  cth.nmi_nesting - want_nesting <= 8,
			  "%s: nmi_nesting 0x%lx in handler, want 0x%lx (+2k)",
			  what, cth.nmi_nesting, want_nesting);
	/*
	 * An idle CPU may take other interrupts meanwhile (each a whole
	 * pair of steps); a busy one takes no step at all.
	 */
	if (want_steps)
		fail |= KT_EXPECT(after - before >=
					  want_steps * CT_RCU_WATCHING &&
				  (after - before) / CT_RCU_WATCHING % 2 == 0,
				  "%s: counter 0x%x -> 0x%x, want %d or more steps, even",
				  what, before, after, want_steps);
	else
		fail |= KT_EXPECT(after == before,
				  "%s: counter 0x%x -> 0x%x, want no step", what,
				  before, after);
	return fail;
}

static volatile int spin_stop, spin_running;

static void spin_fn(void *arg)
{
	(void)arg;
	/* Release: the test reads the target's state only after this. */
	smp_store_release(&spin_running, 1);
	while (!READ_ONCE(spin_stop))
		arch_cpu_relax();
}

static int spinner(void *arg)
{
	spin_fn(arg);
	return 0;
}

KTEST(rcu_tree_ct_handlers)
{
	int fail = 0, idle, busy = -1, cpu, self;

	TREE_ONLY();
	if (num_online_cpus() < 2) {
		ktap_diag("needs 2 CPUs: skipped");
		return KTEST_SKIP;
	}
	register_nmi_handler(ct_probe_nmi);
	self = raw_smp_processor_id();
	/* Idle target: the handler wakes RCU (1) and steps it back. */
	for (int i = 0; i < 20 && !fail; i++) {
		idle = find_idle_cpu(-1);
		if (KT_EXPECT(idle >= 0, "an idle CPU"))
			break;
		fail |= ct_one(idle, i & 1, 1, 2,
			       i & 1 ? "NMI on idle cpu" : "IRQ on idle cpu");
	}
	/* Busy target: process level, the handler adds 2 and undoes it. */
	for_each_online_cpu(cpu)
		if (cpu != self) {
			busy = cpu;
			break;
		}
	spin_stop = 0;
	spin_running = 0;
	kthread_run(spinner, NULL, busy, "ct-spinner");
	/*
	 * Until the spinner runs: a fixed 5 ms sleep was too short for a
	 * host that stalled the target's vCPU, and the "busy" CPU was
	 * still idle to RCU (nmi_nesting 1, the counter stepped).
	 */
	if (KT_EXPECT(wait_flag(&spin_running, HOST_STALL_MS),
		      "the spinner ran on cpu%d", busy)) {
		WRITE_ONCE(spin_stop, 1);
		unregister_nmi_handler(ct_probe_nmi);
		return 1;
	}
	for (int i = 0; i < 20 && !fail; i++)
		fail |= ct_one(busy, i & 1, CT_NESTING_IRQ_NONIDLE + 2, 0,
			       i & 1 ? "NMI on busy cpu" : "IRQ on busy cpu");
	WRITE_ONCE(spin_stop, 1);
	unregister_nmi_handler(ct_probe_nmi);
	msleep(5);
	ktap_diag("40 handlers on idle and busy CPUs: nmi_nesting and the watching bit as ct_nmi_enter/exit promise");
	return fail;
}

/*
 * rcu_tree_idle_tick_excused: an idle CPU whose tick keeps running is
 * still idle to RCU while it halts (kernel/idle.c: idle_halt_tick(),
 * rcu_cpuidle_enter()), so the FQS scans excuse it in every grace period
 * and no grace period waits for its tick.  With tickless idle on, each
 * target CPU is kept ticking by callbacks of its own: a chain whose
 * callback queues itself again on the same CPU, so that the CPU always
 * has one queued (cb_chain_start()).  With nohz=off every idle CPU ticks
 * anyway.  The
 * idle task's tick is no quiescent state (it runs with preemption off),
 * and nothing else runs on the targets: an FQS excusal is the only way
 * their quiescent states come, so each must be excused about once per
 * grace period.  Without the extended quiescent state no grace period
 * ends at all: the first one is waited for HOST_STALL_MS, then reported.
 */
#define TICK_EXCUSED_GPS	100
#define TICK_EXCUSED_CPUS	4

static struct cb_chain chains[TICK_EXCUSED_CPUS];

KTEST(rcu_tree_idle_tick_excused)
{
	u64 excused0[TICK_EXCUSED_CPUS], ticks0[TICK_EXCUSED_CPUS];
	int cpus[TICK_EXCUSED_CPUS], n, self, fail = 0;
	bool cbs = READ_ONCE(nohz_enabled);
	u64 g0, lat0, gps, lat, t0;

	TREE_ONLY();
	self = raw_smp_processor_id();	/* the KTAP runner is pinned */
	n = sample_online_cpus(cpus, TICK_EXCUSED_CPUS, self);
	if (!n) {
		ktap_diag("needs a second CPU to be idle");
		return KTEST_SKIP;
	}
	ktap_diag_cpus(cbs ? "idle CPUs ticking for their callbacks" :
			     "idle CPUs ticking for nohz=off", cpus, n);
	if (cbs)
		for (int i = 0; i < n; i++)
			cb_chain_start(&chains[i], cpus[i]);
	for (int i = 0; i < n; i++) {
		excused0[i] = READ_ONCE(rcu_tree_data[cpus[i]].n_fqs_excused);
		ticks0[i] = READ_ONCE(per_cpu_area(cpus[i])->stats.ticks);
	}
	g0 = READ_ONCE(rcu_state.n_gp_completed);
	lat0 = READ_ONCE(rcu_state.gp_lat_sum_ns);
	t0 = ktime_get_ns();
	do {
		unsigned long c = start_poll_synchronize_rcu();

		while (!poll_state_synchronize_rcu(c) &&
		       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
			msleep(1);
		gps = READ_ONCE(rcu_state.n_gp_completed) - g0;
	} while (gps < TICK_EXCUSED_GPS &&
		 ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC);
	lat = READ_ONCE(rcu_state.gp_lat_sum_ns) - lat0;
	ktap_diag("%lu grace periods in %lu ms, %lu us each on average (a tick is %u us)",
		  gps, (ktime_get_ns() - t0) / NSEC_PER_MSEC,
		  gps ? lat / gps / NSEC_PER_USEC : 0,
		  (unsigned int)(NSEC_PER_SEC / NSEC_PER_USEC / tick_hz));
	fail |= KT_EXPECT(gps >= TICK_EXCUSED_GPS,
			  "%lu of %d grace periods in %d ms", gps,
			  TICK_EXCUSED_GPS, HOST_STALL_MS);
	for (int i = 0; i < n; i++) {
		int cpu = cpus[i];
		u64 ex = READ_ONCE(rcu_tree_data[cpu].n_fqs_excused) -
			 excused0[i];
		u64 tk = READ_ONCE(per_cpu_area(cpu)->stats.ticks) - ticks0[i];
		long cbq = READ_ONCE(rcu_tree_data[cpu].cblist.len);

		ktap_diag("cpu%d: %lu ticks, excused by FQS %lu times in %lu grace periods, %ld callbacks queued",
			  cpu, tk, ex, gps, cbq);
		fail |= KT_EXPECT(tk > 0,
				  "cpu%d took no tick: not the case under test",
				  cpu);
		fail |= KT_EXPECT(gps && ex * 10 >= gps * 9,
				  "cpu%d ticking in idle: excused %lu times in %lu grace periods",
				  cpu, ex, gps);
	}
	/*
	 * A chain ends with its next grace period: if they stopped coming,
	 * only ask it to (its head is static), not to wait HOST_STALL_MS
	 * for each one.
	 */
	for (int i = 0; cbs && i < n; i++)
		if (gps >= TICK_EXCUSED_GPS)
			fail |= KT_EXPECT(cb_chain_stop(&chains[i]),
					  "cpu%d's callback chain ended",
					  cpus[i]);
		else
			WRITE_ONCE(chains[i].stop, 1);
	return fail;
}
