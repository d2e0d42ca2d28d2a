// SPDX-License-Identifier: GPL-2.0
/*
 * bench_irq_cost (make bench, tools/bench.py): the cost of the 2008
 * dynticks entry and exit, rcu_irq_enter()/rcu_irq_exit(), from a busy
 * CPU and from dynticks idle.  A hook, as the other benchmarks
 * (tests/kernel/rcu/bench.c).
 */
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/trace.h"
#include "rcu/rcupreempt/rcupreempt.h"
#include "tests/kernel/kernel/util.h"
#include "tests/kernel/rcu/bench.h"

/*
 * rcu_irq_enter()/rcu_irq_exit() as an interrupt sees them: from a busy
 * CPU (counter odd: both are a flag test) and from dynticks idle (counter
 * even: each increments it around a memory barrier).  Called directly,
 * with interrupts off, so the interrupt's own cost is not in the figure.
 * For the idle case this CPU really enters dynticks idle for the loop;
 * it runs no reader meanwhile (interrupts are off), so RCU may excuse it.
 */
static void irq_cost(void *arg)
{
	u64 empty, busy, idle, idle_trace;
	unsigned long flags;
	unsigned int saved = trace_enabled;

	(void)arg;
	WRITE_ONCE(trace_enabled, 0);
	local_irq_save(flags);
	MEASURE(empty, (void)0);
	MEASURE(busy, rcu_irq_enter(); rcu_irq_exit());
	rcu_enter_nohz();
	MEASURE(idle, rcu_irq_enter(); rcu_irq_exit());
	trace_start();		/* allocates the rings if trace was off */
	MEASURE(idle_trace, rcu_irq_enter(); rcu_irq_exit());
	WRITE_ONCE(trace_enabled, 0);
	rcu_exit_nohz();
	local_irq_restore(flags);
	WRITE_ONCE(trace_enabled, saved);
	ktap_diag("bench irq_cost loop_c=%lu.%02lu busy_pair_c=%lu.%02lu idle_pair_c=%lu.%02lu idle_pair_trace_c=%lu.%02lu",
		  C100(empty), C100(busy), C100(idle), C100(idle_trace));
}

KTEST_HOOK(bench_irq_cost)
{
	bench_boot_time();
	run_on_cpu(0, irq_cost, NULL);
	return 0;
}
