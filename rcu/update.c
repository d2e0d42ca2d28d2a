// SPDX-License-Identifier: GPL-2.0
/*
 * What both RCU flavours share: the rcu= option, and the one API that
 * kernel/ and the tests call, dispatched to the flavour chosen at boot.
 *
 *   rcu=rcupreempt  the 2008 design (default): rcu/rcupreempt/rcupreempt.c,
 *                   rcu/rcupreempt/dynticks.c, rcu/rcupreempt/rcupreempt_stall.c,
 *                   rcu/rcupreempt/rcupreempt_stats.c
 *   rcu=tree        the modern design: rcu/tree/context_tracking.c,
 *                   rcu/tree/tree.c, rcu/tree/tree_plugin.c, rcu/tree/tree_exp.c,
 *                   rcu/tree/tree_stall.c, rcu/tree/rcu_segcblist.c
 *
 * Everything but the read side goes through one table of function
 * pointers, struct rcu_flavor_ops; what both build the same way from
 * their own operations (synchronize_rcu(), rcu_barrier()) is in
 * rcu/rcupdate_wait.c.  The read side is too hot for an
 * indirect call, or even a load: rcu_read_lock() is inline, and a static
 * key that rcu_init() sets picks the flavour (rcu/rcupdate.h).
 */
#include "kernel/bug.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcu.h"

static const char *rcu_opt = "rcupreempt";
kparam_str("rcu", rcu_opt, "RCU implementation: rcupreempt (2008) or tree");

/* Seconds; 0 disables the detector.  A few seconds suits test runs. */
unsigned int rcu_cpu_stall_timeout = 5;
kparam_uint("rcu_cpu_stall_timeout", rcu_cpu_stall_timeout, 0, 300,
	    "seconds a grace period may take before a stall report (0: off)");

/* Written once, before any other CPU starts; read by every reader. */
int rcu_flavor __read_mostly = RCU_FLAVOR_RCUPREEMPT;
static const struct rcu_flavor_ops *rcu_ops __read_mostly =
	&rcupreempt_flavor_ops;

static const struct rcu_flavor_ops *const rcu_flavors[] = {
	[RCU_FLAVOR_RCUPREEMPT] = &rcupreempt_flavor_ops,
	[RCU_FLAVOR_TREE] = &tree_flavor_ops,
};

bool rcu_select_flavor(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(rcu_flavors); i++) {
		if (!strcmp(rcu_opt, rcu_flavors[i]->name)) {
			rcu_flavor = i;
			rcu_ops = rcu_flavors[i];
			return true;
		}
	}
	printk("cmdline: error: rcu=%s: unknown RCU implementation (rcupreempt or tree)\n",
	       rcu_opt);
	return false;
}

const char *rcu_flavor_name(void)
{
	return rcu_ops->name;
}

/* rcu_read_lock()'s switch (rcu/rcupdate.h): on for rcu=tree, by rcu_init(). */
DEFINE_STATIC_KEY_FALSE(rcu_flavor_tree_key);

/* ---- Update side and hooks: through the table ---- */

void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	rcu_ops->call_rcu(head, func);
}

void synchronize_rcu(void)
{
	/* A task waits: its grace period is not left to the next tick. */
	wait_rcu_gp(rcu_ops->call_rcu_hurry ? rcu_ops->call_rcu_hurry :
		    rcu_ops->call_rcu);
}

void synchronize_rcu_expedited(void)
{
	if (rcu_ops->synchronize_rcu_expedited)
		rcu_ops->synchronize_rcu_expedited();
	else
		synchronize_rcu();
}

void rcu_barrier(void)
{
	wait_rcu_barrier(rcu_ops->barrier_entrain);
}

long rcu_batches_completed(void)
{
	return rcu_ops->batches_completed();
}

unsigned long get_state_synchronize_rcu(void)
{
	return rcu_ops->get_state_synchronize_rcu();
}

unsigned long start_poll_synchronize_rcu(void)
{
	if (rcu_ops->start_poll_synchronize_rcu)
		return rcu_ops->start_poll_synchronize_rcu();
	return get_state_synchronize_rcu();
}

bool poll_state_synchronize_rcu(unsigned long cookie)
{
	return rcu_ops->poll_state_synchronize_rcu(cookie);
}

void cond_synchronize_rcu(unsigned long cookie)
{
	if (!poll_state_synchronize_rcu(cookie))
		synchronize_rcu();
}

void rcu_init(void)
{
	rcu_ops->init();
	/*
	 * One CPU runs, interrupts off: the read sites can be rewritten.
	 * Until now every reader took rcupreempt's path, and none ran.
	 */
	if (rcu_flavor == RCU_FLAVOR_TREE)
		static_branch_enable(&rcu_flavor_tree_key);
}

/*
 * GP machinery accounting for make bench: cycles spent in the tick hook on
 * every CPU (all of the 2008 flavour's machine; the tree's QS noting and
 * callback advancing) plus the flavour's own (the tree's kthread).  Off
 * unless a benchmark turns it on: one load and a not-taken branch.
 */
int rcu_account_gp_cycles;
u64 rcu_gp_kthread_cycles;
static u64 rcu_tick_cycles[NR_CPUS];

u64 rcu_gp_machinery_cycles(void)
{
	u64 sum = READ_ONCE(rcu_gp_kthread_cycles);

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += READ_ONCE(rcu_tick_cycles[cpu]);
	return sum;
}

void rcu_sched_clock_irq(int cpu)
{
	u64 t0;

	if (likely(!READ_ONCE(rcu_account_gp_cycles))) {
		rcu_ops->sched_clock_irq(cpu);
		return;
	}
	t0 = get_cycles();
	rcu_ops->sched_clock_irq(cpu);
	rcu_tick_cycles[cpu] += get_cycles() - t0;
}

int rcu_needs_cpu(int cpu)
{
	return rcu_ops->needs_cpu(cpu);
}

void rcu_cpu_starting(int cpu)
{
	if (rcu_ops->cpu_starting)
		rcu_ops->cpu_starting(cpu);
}

void rcu_report_dead(int cpu)
{
	if (rcu_ops->report_dead)
		rcu_ops->report_dead(cpu);
}

void rcu_cpu_dead(int cpu)
{
	rcu_ops->cpu_dead(cpu);
}

bool rcu_hotplug_supported(void)
{
	return rcu_ops->cpu_dead != NULL;
}

void rcu_note_context_switch(bool preempt)
{
	if (rcu_ops->note_context_switch)
		rcu_ops->note_context_switch(preempt);
}

void rcu_idle_enter(void)
{
	rcu_ops->idle_enter();
}

void rcu_idle_exit(void)
{
	rcu_ops->idle_exit();
}

void rcu_cpuidle_enter(void)
{
	if (rcu_ops->cpuidle_enter)
		rcu_ops->cpuidle_enter();
}

void rcu_cpuidle_exit(void)
{
	if (rcu_ops->cpuidle_exit)
		rcu_ops->cpuidle_exit();
}

void rcu_hardirq_enter(void)
{
	rcu_ops->irq_enter();
}

void rcu_hardirq_exit(void)
{
	rcu_ops->irq_exit();
}

void rcu_nmi_enter(void)
{
	rcu_ops->nmi_enter();
}

void rcu_nmi_exit(void)
{
	rcu_ops->nmi_exit();
}

bool rcu_cpu_watching(int cpu)
{
	return rcu_ops->cpu_watching(cpu);
}

long rcu_cpu_watching_counter(int cpu)
{
	return rcu_ops->cpu_watching_counter(cpu);
}

bool rcu_entered_from_idle(unsigned int depth)
{
	return rcu_ops->entered_from_idle(depth);
}

const char *rcu_gp_state_name(void)
{
	return rcu_ops->gp_state_name();
}

void rcu_stats_print(void)
{
	rcu_ops->stats_print();
}

void rcu_stats_get(struct rcu_stats_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	rcu_ops->stats_get(s);
}

void rcu_read_lock_delay_set(void (*hook)(void))
{
	rcu_ops->read_lock_delay_set(hook);
}

bool rcu_torture_gp_passed(long g0)
{
	return rcu_ops->torture_gp_passed(g0);
}

bool rcu_has_expedited(void)
{
	return rcu_ops->synchronize_rcu_expedited != NULL;
}

bool rcu_has_start_poll(void)
{
	return rcu_ops->start_poll_synchronize_rcu != NULL;
}

long rcu_cb_count(int cpu)
{
	return rcu_ops->cb_count(cpu);
}

/*
 * The watchdog's question (kernel/watchdog.c, once a second, from the boot
 * CPU): is RCU work stranded?  Both stall detectors run from the tick.  If
 * a bug lets a CPU with callbacks stop its tick, and every other CPU is
 * idle too, no tick runs anywhere: the grace period those callbacks need
 * never starts or never ends, and nothing would ever say so.  Three
 * observations in a row of every CPU idle with its tick stopped, callbacks
 * queued and no grace period completed, and this names the CPUs that hold
 * them, then prints the flavour's stall report (which CPUs owe what).
 */
#define RCU_STRANDED_CHECKS	3

static unsigned int rcu_stranded_seen;
static long rcu_stranded_completed;

void rcu_check_stranded(u64 now)
{
	long completed = rcu_batches_completed();
	long total = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		struct percpu *pc = per_cpu_area(cpu);

		if (!READ_ONCE(pc->in_idle) || !READ_ONCE(pc->tick_stopped)) {
			rcu_stranded_seen = 0;	/* a tick runs somewhere */
			return;
		}
	}
	for_each_online_cpu(cpu)
		total += rcu_ops->cb_count(cpu);
	if (!total || completed != rcu_stranded_completed) {
		rcu_stranded_seen = 0;
		rcu_stranded_completed = completed;
		return;
	}
	if (++rcu_stranded_seen != RCU_STRANDED_CHECKS)
		return;		/* and once only, until things move again */
	printk("rcu: INFO: stranded callbacks: every CPU is idle with its tick stopped, %ld callbacks wait, and no grace period has completed (%s, completed %ld) for %u s\n",
	       total, rcu_ops->gp_state_name(), completed, RCU_STRANDED_CHECKS);
	for_each_online_cpu(cpu) {
		long n = rcu_ops->cb_count(cpu);

		if (n)
			printk("rcu:   cpu %d: %ld callbacks stranded: its tick is stopped, rcu_needs_cpu() says %d\n",
			       cpu, n, rcu_ops->needs_cpu(cpu));
	}
	rcu_ops->stall_report(now);
	kernel_report_done("RCU Stall", true);
}
