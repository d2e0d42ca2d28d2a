// SPDX-License-Identifier: GPL-2.0
/* The simulated machine of the rcu=rcupreempt host tests (sim.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "rcu/rcu.h"
#include "tests/host/rcupreempt/sim.h"
#include "tests/host/shim.h"

struct task tasks[NR_CPUS];	/* what each CPU runs at boot */
struct task extra[4];		/* test readers */
int sim_ncpus;
int sim_is_idle[NR_CPUS];
long sim_ticks[NR_CPUS];

/*
 * The interrupt flag of the code each handler interrupted, per CPU and
 * nesting level: entry clears IF (an interrupt gate), exit restores it
 * (iret), so the hooks run with IRQs off as in the kernel.
 */
#define SIM_MAX_IRQ_DEPTH	16
static int sim_irq_if_off[NR_CPUS][SIM_MAX_IRQ_DEPTH];
static int sim_irq_depth[NR_CPUS];

void sim_boot(int ncpus)
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
	memset(sim_irq_depth, 0, sizeof(sim_irq_depth));
	shim_now_ns = 1000000;
	rcu_cpu_stall_timeout = 0;	/* tests that want it turn it on */
	rcupreempt_init();
	/* Each CPU comes up as cpu_start() brings it: rcu_online_cpu(). */
	for (i = 0; i < ncpus; i++) {
		unsigned long flags;

		shim_cpu = i;
		local_irq_save(flags);
		rcupreempt_flavor_ops.cpu_starting(i);
		local_irq_restore(flags);
	}
	shim_cpu = 0;
	shim_warn_count = 0;
	shim_failed_count = 0;
	shim_wait_timeouts = 0;
	shim_console_clear();
}

void sim_irq_enter(int cpu)
{
	shim_cpu = cpu;
	if (sim_irq_depth[cpu] >= SIM_MAX_IRQ_DEPTH) {
		printf("sim_irq_enter: cpu %d nested deeper than %d\n", cpu,
		       SIM_MAX_IRQ_DEPTH);
		exit(2);
	}
	sim_irq_if_off[cpu][sim_irq_depth[cpu]++] = shim_irqs_disabled();
	shim_local_irq_disable();
	rcu_irq_enter();
	preempt_count_add(HARDIRQ_OFFSET);
}

void sim_irq_exit(int cpu)
{
	shim_cpu = cpu;
	preempt_count_sub(HARDIRQ_OFFSET);
	if (!in_interrupt() && shim_softirq_pending(cpu)) {
		shim_local_irq_enable();
		shim_run_softirqs(cpu);
		shim_local_irq_disable();
	}
	rcu_irq_exit();
	if (!sim_irq_if_off[cpu][--sim_irq_depth[cpu]])
		shim_local_irq_enable();
}

/*
 * The kernel's nmi_enter()/nmi_exit() around a handler: IRQs masked
 * inside, as the hardware does.  NMIs do not nest: one saved flag.
 */
static int sim_nmi_if_off;

void sim_nmi_enter(void)
{
	sim_nmi_if_off = shim_irqs_disabled();
	shim_local_irq_disable();
	rcu_irq_enter();
	preempt_count_add(NMI_OFFSET);
}

void sim_nmi_exit(void)
{
	preempt_count_sub(NMI_OFFSET);
	rcu_irq_exit();
	if (!sim_nmi_if_off)
		shim_local_irq_enable();
}

void sim_tick(int cpu)
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

void sim_tick_all(void)
{
	int cpu;

	for (cpu = 0; cpu < sim_ncpus; cpu++)
		if (!sim_is_idle[cpu])
			sim_tick(cpu);
	shim_now_ns += 1000000;
}

void sim_idle_enter(int cpu)
{
	shim_cpu = cpu;
	shim_local_irq_disable();
	rcu_enter_nohz();
	shim_local_irq_enable();
	sim_is_idle[cpu] = 1;
}

void sim_idle_exit(int cpu)
{
	shim_cpu = cpu;
	shim_local_irq_disable();
	rcu_exit_nohz();
	shim_local_irq_enable();
	sim_is_idle[cpu] = 0;
}

void on_cpu(int cpu, struct task *t)
{
	shim_cpu = cpu;
	if (t)
		shim_set_current(cpu, t);
}

long flipctr_sum(int idx)
{
	long sum = 0;
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		sum += rdp(cpu)->rcu_flipctr[idx];
	return sum;
}

u64 gps(void)
{
	struct rcu_stats_snapshot s;

	rcupreempt_stats_get(&s);
	return s.gp_completed;
}

int tcb_order;

void tcb_func(struct rcu_head *head)
{
	struct tcb *c = container_of(head, struct tcb, head);

	c->invoked++;
	c->cpu = shim_cpu;
	c->completed_at_invoke = rcupreempt_batches_completed();
	c->gps_at_invoke = gps();
	c->order = tcb_order++;
}

void tcb_queue(struct tcb *c, int cpu)
{
	memset(c, 0, sizeof(*c));
	on_cpu(cpu, NULL);
	c->completed_at_call = rcupreempt_batches_completed();
	c->gps_at_call = gps();
	rcupreempt_call_rcu(&c->head, tcb_func);
}
