/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A simulated machine for the rcu=rcupreempt host tests: the helpers play
 * the kernel's tick, irq_enter/irq_exit and idle loop on simulated CPUs,
 * in the order docs/rcu.md asks of the real kernel.
 */
#ifndef TESTS_HOST_RCUPREEMPT_SIM_H
#define TESTS_HOST_RCUPREEMPT_SIM_H

#include "kernel/sched.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt/rcupreempt.h"

extern struct task tasks[NR_CPUS];	/* what each CPU runs at boot */
extern struct task extra[4];		/* test readers */
extern int sim_ncpus;
extern int sim_is_idle[NR_CPUS];
extern long sim_ticks[NR_CPUS];

static inline struct rcu_data *rdp(int cpu)
{
	return RCU_DATA_CPU(cpu);
}

static inline long ctr(int cpu)
{
	return rdp(cpu)->dynticks_progress_counter;
}

static inline int state(void)
{
	return rcu_ctrlblk.rcu_try_flip_state;
}

/* Reset the shim and RCU; ncpus busy CPUs, each running tasks[cpu]. */
void sim_boot(int ncpus);
/* The kernel's irq_enter(): rcu_irq_enter() before raising the count. */
void sim_irq_enter(int cpu);
/*
 * The kernel's irq_exit(): drop the count, run deferred work at the
 * outermost level (still "in" the interrupt for RCU), rcu_irq_exit() last.
 */
void sim_irq_exit(int cpu);
/* The kernel's nmi_enter()/nmi_exit() around an NMI handler on shim_cpu. */
void sim_nmi_enter(void);
void sim_nmi_exit(void);
/* One scheduling-clock tick on cpu. */
void sim_tick(int cpu);
/* Tick every CPU that is not dynticks-idle, then advance time 1 ms. */
void sim_tick_all(void);
void sim_idle_enter(int cpu);
void sim_idle_exit(int cpu);
/* Run code "on" a CPU as a given task (NULL: the one it runs). */
void on_cpu(int cpu, struct task *t);
/* rcu_flipctr[idx] summed over every CPU. */
long flipctr_sum(int idx);
/* Grace periods completed (the statistics' count). */
u64 gps(void);

/* Test callbacks: when each was queued and invoked, and in what order. */
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

extern int tcb_order;

void tcb_func(struct rcu_head *head);
/* Queue c on cpu with rcupreempt_call_rcu(). */
void tcb_queue(struct tcb *c, int cpu);

#endif
