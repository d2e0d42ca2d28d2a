// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rcu/rcupreempt/rcupreempt.c: the four-state flip
 * machine on simulated CPUs, idle CPUs excused, readers holding waitzero,
 * callbacks, rcu_needs_cpu(), synchronize_rcu() and rcu_barrier().
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
/* 8. CPU hotplug: rcu_offline_cpu() and rcu_online_cpu()              */
/* ------------------------------------------------------------------ */

/*
 * CPU 2 runs a reader and has callbacks queued, then dies: the kernel
 * clears its online bit, parks it, and calls the flavour's cpu_dead on a
 * live CPU (here CPU 0).  The reader's count moves to CPU 0, the
 * callbacks to CPU 0's lists, CPU 2 leaves the flip machine's map, and
 * the grace period still waits for the reader, which unlocks on CPU 1.
 */
static void test_offline_cpu(void)
{
	static struct tcb cb[3];
	struct task *r = &extra[0];
	unsigned long flags;
	int i;

	cur_test = "offline_cpu";
	sim_boot(3);
	on_cpu(2, r);
	__rcu_read_lock();
	for (i = 0; i < 3; i++)
		tcb_queue(&cb[i], 2);
	on_cpu(2, &tasks[2]);
	/* CPU 2 dies: no tick, no reader from now on. */
	cpumask_clear_cpu(2, &cpu_online_mask);
	sim_is_idle[2] = 1;
	on_cpu(0, NULL);
	rcupreempt_flavor_ops.cpu_dead(2);
	CHECK(!cpumask_test_cpu(2, &rcu_cpu_online_map),
	      "cpu 2 left rcu_cpu_online_map");
	CHECK(rdp(2)->rcu_flipctr[0] == 0 && rdp(2)->rcu_flipctr[1] == 0 &&
	      rdp(0)->rcu_flipctr[r->rcu_flipctr_idx] == 1,
	      "the reader's count moved to cpu 0 (%ld %ld -> %ld)",
	      rdp(2)->rcu_flipctr[0], rdp(2)->rcu_flipctr[1],
	      rdp(0)->rcu_flipctr[r->rcu_flipctr_idx]);
	CHECK(!rcupreempt_needs_cpu(2) && rcupreempt_needs_cpu(0),
	      "the callbacks moved to cpu 0");
	for (i = 0; i < 200; i++)
		sim_tick_all();
	CHECK(cb[0].invoked + cb[1].invoked + cb[2].invoked == 0,
	      "no callback runs under the reader (state %s)",
	      rcu_try_flip_state_name(state()));
	/* The reader migrated to CPU 1 and unlocks there. */
	r->cpu = 1;
	on_cpu(1, r);
	__rcu_read_unlock();
	on_cpu(1, &tasks[1]);
	for (i = 0; i < 200 && !cb[2].invoked; i++)
		sim_tick_all();
	for (i = 0; i < 3; i++)
		CHECK(cb[i].invoked == 1 && cb[i].cpu == 0 &&
		      (!i || cb[i].order > cb[i - 1].order),
		      "callback %d ran once, on cpu 0, in order (%d, cpu %d)",
		      i, cb[i].invoked, cb[i].cpu);
	CHECK(flipctr_sum(0) == 0 && flipctr_sum(1) == 0, "sums back to 0");
	/* CPU 2 comes back: rcu_online_cpu() on it, IRQs off. */
	on_cpu(2, NULL);
	local_irq_save(flags);
	rcupreempt_flavor_ops.cpu_starting(2);
	local_irq_restore(flags);
	cpumask_set_cpu(2, &cpu_online_mask);
	sim_is_idle[2] = 0;
	CHECK(cpumask_test_cpu(2, &rcu_cpu_online_map),
	      "cpu 2 back in rcu_cpu_online_map");
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

/*
 * The dead CPU's callbacks keep their call_rcu() order on the CPU that
 * adopts them: one queued a flip before another sits a stage further on
 * (waitlist[GP_STAGES - 1] before waitlist[0]) when the CPU dies, and
 * must still run first (rcu_barrier()'s callback counts on this order).
 */
static void test_offline_cpu_order(void)
{
	static struct tcb cb[2];
	int i;

	cur_test = "offline_cpu_order";
	sim_boot(3);
	tcb_queue(&cb[0], 2);
	for (i = 0; i < 200 && rdp(2)->waitlist[0] != &cb[0].head; i++)
		sim_tick_all();
	tcb_queue(&cb[1], 2);
	for (i = 0; i < 200 && rdp(2)->waitlist[0] != &cb[1].head; i++)
		sim_tick_all();
	CHECK(rdp(2)->waitlist[GP_STAGES - 1] == &cb[0].head &&
	      rdp(2)->waitlist[0] == &cb[1].head,
	      "cpu 2 dies with its callbacks a stage apart");
	on_cpu(2, &tasks[2]);
	cpumask_clear_cpu(2, &cpu_online_mask);
	sim_is_idle[2] = 1;
	on_cpu(0, NULL);
	rcupreempt_flavor_ops.cpu_dead(2);
	for (i = 0; i < 200 && !(cb[0].invoked && cb[1].invoked); i++)
		sim_tick_all();
	CHECK(cb[0].invoked == 1 && cb[1].invoked == 1 &&
	      cb[0].order < cb[1].order,
	      "the adopted callbacks ran once each, in call_rcu() order (%d, %d)",
	      cb[0].order, cb[1].order);
	CHECK(shim_warn_count == 0, "no WARN (%s)", shim_last_warn);
}

void host_test_rcupreempt(void)
{
	test_flip_machine();
	test_liveness_cpu_goes_idle();
	test_idle_cpus_excused();
	test_reader_blocks_waitzero();
	test_callbacks();
	test_needs_cpu_pending();
	test_sync_and_barrier();
	test_offline_cpu();
	test_offline_cpu_order();
}
