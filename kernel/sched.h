/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel threads and the per-CPU preemptive scheduler. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "kernel/list.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"

enum task_state {
	TASK_RUNNING,		/* on a run queue, or running */
	TASK_SLEEPING,		/* waiting for wake_up_process() */
	TASK_DEAD,
};

#define TASK_NAME_LEN	24

struct rcu_node;

/* rcu=tree: why a reader's outermost rcu_read_unlock() has work to do. */
union rcu_special {
	struct {
		u8 blocked;	/* preempted in the reader: on blkd_tasks */
		u8 need_qs;	/* the grace period waits on this CPU */
		u8 exp_hint;	/* an expedited grace period does */
		u8 pad;
	} b;
	u32 s;
};
#define ANY_CPU		(-1)

struct task {
	unsigned long ksp;		/* saved stack pointer (arch switch) */
	void *stack;			/* base of the kernel stack */
	int state;			/* enum task_state */
	int cpu;			/* CPU it runs on or is queued on */
	int pinned_cpu;			/* ANY_CPU, or the only CPU allowed */
	int roaming;			/* move CPU at each preemption */
	int on_rq;
	int on_cpu;			/* running, or not yet switched out */
	int pid;
	struct cpumask ran_on_mask;	/* CPUs it has run on */
	u64 nr_switches;
	u64 slice_end_ns;		/* time-slice end for tick preemption */
	int (*fn)(void *arg);
	void *arg;
	struct list_head run_list;	/* on a CPU's run queue */
	struct list_head all_list;	/* on the global task list */
	char name[TASK_NAME_LEN];

	/* RCU read side, both flavours: depth of rcu_read_lock(). */
	int rcu_read_lock_nesting;
	/* rcu=rcupreempt (rcu/rcupreempt/rcupreempt.c): rcu_flipctr[] of the outer lock */
	int rcu_flipctr_idx;
	/* rcu=tree (rcu/tree/tree_plugin.c): work for the outermost unlock, ... */
	union rcu_special rcu_read_unlock_special;
	struct list_head rcu_node_entry;	/* ... on blkd_tasks */
	struct rcu_node *rcu_blocked_node;	/* ... of this leaf */
	u8 rcu_blocks_gp;		/* holds the normal grace period */
	u8 rcu_blocks_exp;		/* holds the expedited grace period */

	/*
	 * When it began waiting in wait_for_completion() with no timeout (0:
	 * not waiting): the hung-task detector's clock (kernel/watchdog.c).
	 */
	u64 wait_since_ns;
};

#define current		(this_cpu_read(curr_task))

/* Create a kernel thread and make it runnable on cpu (or ANY_CPU). */
struct task *kthread_run(int (*fn)(void *), void *arg, int cpu,
			 const char *name);
void kthread_set_roaming(struct task *t, int roaming);
void schedule(void);
void yield(void);
/*
 * Ask for a context switch on this CPU at the next chance it has: the
 * outermost preempt_enable(), an interrupt's return to preemptible code,
 * the idle loop's top.  Any context but NMI, IRQs off or on.
 */
static inline void set_need_resched_current(void)
{
	this_cpu_write(need_resched, 1);
}
void set_current_state(int state);
/* Returns 1 if t was sleeping and is now runnable. */
int wake_up_process(struct task *t);
void msleep(unsigned int ms);
/* Sleep (state already SLEEPING) until woken or ktime deadline. */
void schedule_deadline(u64 deadline);
/* Busy-wait in task context (preemptible): spins on the clock. */
void busy_wait_ns(u64 ns);
/* Call fn(t, arg) for every task, under the task-list lock. */
void sched_for_each_task(void (*fn)(struct task *t, void *arg), void *arg);

/* Boot: the scheduler, then each CPU's run queue and idle task. */
void sched_init(void);
void sched_init_cpu(int cpu);
/* CPU hotplug: the dying CPU sends its queued tasks away (IRQs off). */
void sched_cpu_dying(int cpu);
/* From the scheduling-clock tick (hardirq, IRQs off): time slices. */
void scheduler_tick(void);
/* From IRQ exit with preemption allowed: switch if resched is needed. */
void preempt_schedule_irq(void);
/* Each CPU's idle loop (kernel/idle.c); never returns. */
__noreturn void cpu_idle_loop(void);
/* Boot: start the hard-lockup and hung-task watchdog (kernel/watchdog.c). */
void watchdog_start(void);
#endif
