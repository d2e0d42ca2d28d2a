// SPDX-License-Identifier: GPL-2.0
/*
 * RCU stall detector (beyond 2.6.25, which had none; see rcu.md).
 *
 * Each flip is timestamped.  If the flip machine has not come back to
 * rcu_try_flip_idle_state within rcu_cpu_stall_timeout seconds, print one
 * report saying what the machine is waiting for, mark the run failed, and
 * report again at three times that interval while the stall lasts.
 *
 * Everything here runs from rcu_try_flip() with fliplock held and
 * interrupts off, so one CPU at a time and no atomics are needed.  That
 * also means printk() and sched_for_each_task() are called from hardirq
 * context (see docs/rcu.md for what that asks of the kernel).
 */
#include "kernel/compiler.h"
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/rcu.h"
#include "rcu/rcupreempt/rcupreempt.h"

/* Later reports come at this multiple of the timeout. */
#define RCU_STALL_REPEAT_FACTOR	3

static u64 rcu_gp_start_ns;		/* when the current flip happened */
static u64 rcu_stall_next_ns;		/* when to report (again) */

void rcu_stall_gp_start(u64 now)
{
	lockdep_assert_held(&rcu_ctrlblk.fliplock);
	rcu_gp_start_ns = now;
	rcu_stall_next_ns = now + (u64)rcu_cpu_stall_timeout * NSEC_PER_SEC;
}

static void rcu_stall_print_task(struct task *t, void *arg)
{
	int nesting = READ_ONCE(t->rcu_read_lock_nesting);
	int *n = arg;

	if (nesting == 0)
		return;
	printk("rcu:   task %s (pid %d) on cpu %d in a reader: rcu_read_lock_nesting %d rcu_flipctr_idx %d\n",
	       t->name, t->pid, READ_ONCE(t->cpu), nesting,
	       READ_ONCE(t->rcu_flipctr_idx));
	(*n)++;
}

void rcu_stall_report(u64 now)
{
	int state = READ_ONCE(rcu_ctrlblk.rcu_try_flip_state);
	long completed = READ_ONCE(rcu_ctrlblk.completed);
	int lastidx = !(completed & 0x1);
	long sum = 0;
	int owing = 0;
	int tasks = 0;
	int cpu;

	printk("rcu: INFO: detected stall in grace period %ld: state %s for %llu ms (rcu_cpu_stall_timeout=%u s), reported by cpu %d\n",
	       completed, rcu_try_flip_state_name(state),
	       (unsigned long long)((now - rcu_gp_start_ns) / NSEC_PER_MSEC),
	       rcu_cpu_stall_timeout, raw_smp_processor_id());
	printk("rcu:   state %s\n", rcu_try_flip_state_name(state));

	for_each_cpu(cpu, &rcu_cpu_online_map) {
		struct rcu_data *rdp = RCU_DATA_CPU(cpu);
		const char *what = NULL;

		if (state == rcu_try_flip_waitack_state &&
		    READ_ONCE(rdp->rcu_flip_flag) != rcu_flip_seen &&
		    rcu_try_flip_waitack_needed(cpu))
			what = "ack";
		else if (state == rcu_try_flip_waitmb_state &&
			 READ_ONCE(rdp->rcu_mb_flag) != rcu_mb_done &&
			 rcu_try_flip_waitmb_needed(cpu))
			what = "mb";
		if (what) {
			/* A CPU the machine waits for although it is
			 * offline is a hotplug bug: say so. */
			printk("rcu:   cpu %d%s owes %s: dynticks_progress_counter %ld rcu_dyntick_snapshot %ld rcu_update_flag %d\n",
			       cpu, cpu_online(cpu) ? "" : " (offline)", what,
			       READ_ONCE(rdp->dynticks_progress_counter),
			       READ_ONCE(rdp->rcu_dyntick_snapshot),
			       READ_ONCE(rdp->rcu_update_flag));
			owing++;
		}
	}
	if (owing == 0)
		printk("rcu:   no cpu owes an ack or mb\n");

	for_each_cpu(cpu, &rcu_cpu_online_map) {
		long v = READ_ONCE(RCU_DATA_CPU(cpu)->rcu_flipctr[lastidx]);

		if (v)
			printk("rcu:   cpu %d rcu_flipctr[%d] = %ld\n",
			       cpu, lastidx, v);
		sum += v;
	}
	printk("rcu:   rcu_flipctr[%d] sum %ld (old index: readers from before the flip)\n",
	       lastidx, sum);

	sched_for_each_task(rcu_stall_print_task, &tasks);
	if (tasks == 0)
		printk("rcu:   no task has a non-zero rcu_read_lock_nesting\n");
	printk("rcu: end of stall report\n");
}

void rcu_stall_check(u64 now)
{
	lockdep_assert_held(&rcu_ctrlblk.fliplock);
	if (rcu_cpu_stall_timeout == 0 || now < rcu_stall_next_ns)
		return;
	rcu_stall_next_ns = now + (u64)rcu_cpu_stall_timeout *
		RCU_STALL_REPEAT_FACTOR * NSEC_PER_SEC;
	rcu_stall_report(now);
	rcu_stats_stall_reported();
	/* A stall is a failed run, whatever happens afterwards. */
	kernel_report_done("RCU Stall", true);
}
