// SPDX-License-Identifier: GPL-2.0
/*
 * The stall detector (rcu=tree), after Linux 6.12's kernel/rcu/
 * tree_stall.h.  A grace period older than rcu_cpu_stall_timeout seconds
 * gets a report naming what holds it: the CPUs that have not reported
 * (with their context-tracking state), the tasks blocked in readers that
 * hold it, and the grace-period kthread if it has not run (starved).
 * Checked from every tick and from the kthread's FQS loop; whoever swaps
 * the deadline first prints.  rcu_cpu_stall_timeout is the option both
 * flavours share (rcu/update.c defines it).
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "rcu/tree/tree.h"

void record_gp_stall_check_time(u64 now)
{
	u64 t = (u64)READ_ONCE(rcu_cpu_stall_timeout) * NSEC_PER_SEC;

	WRITE_ONCE(rcu_state.stall_next_ns, t ? now + t : 0);
}

void print_other_cpu_stall(u64 now)
{
	struct rcu_node *rnp;
	unsigned long flags;
	u64 activity = READ_ONCE(rcu_state.gp_activity_ns);
	int n = 0;

	printk("rcu: INFO: detected stall: rcu_preempt grace period %lu (gp_seq %lu) waited %llu ms, kthread %s; held by:\n",
	       rcu_seq_ctr(READ_ONCE(rcu_state.gp_seq)),
	       READ_ONCE(rcu_state.gp_seq),
	       (unsigned long long)((now - rcu_state.gp_start_ns) /
				    NSEC_PER_MSEC),
	       rcu_tree_gp_state_name());
	rcu_for_each_leaf_node(rnp) {
		struct task *t;

		spin_lock_irqsave(&rnp->lock, flags);
		for (int cpu = rnp->grplo; cpu <= rnp->grphi; cpu++) {
			struct context_tracking *ct = &context_tracking[cpu];

			if (!(rnp->qsmask & (1UL << (cpu - rnp->grplo))))
				continue;
			/* Waited for although offline: a hotplug bug. */
			printk("rcu:   cpu %d%s (leaf %d-%d): %s, ct->state 0x%x nmi_nesting 0x%lx, %lu reschedules asked for\n",
			       cpu, cpu_online(cpu) ? "" : " (offline)",
			       rnp->grplo, rnp->grphi,
			       READ_ONCE(ct->state) & CT_RCU_WATCHING ?
			       "watching" : "idle",
			       READ_ONCE(ct->state), READ_ONCE(ct->nmi_nesting),
			       (unsigned long)READ_ONCE(rcu_tree_data[cpu].n_urgent_qs));
			n++;
		}
		if (rnp->n_gp_tasks)
			printk("rcu:   leaf %d-%d: %d blocked tasks hold the grace period\n",
			       rnp->grplo, rnp->grphi, rnp->n_gp_tasks);
		list_for_each_entry(t, &rnp->blkd_tasks, rcu_node_entry) {
			if (!t->rcu_blocks_gp)
				continue;
			printk("rcu:   blocked task %s (pid %d) in a reader, preempted on leaf %d-%d: rcu_read_lock_nesting %d\n",
			       t->name, t->pid, rnp->grplo, rnp->grphi,
			       READ_ONCE(t->rcu_read_lock_nesting));
			n++;
		}
		spin_unlock_irqrestore(&rnp->lock, flags);
	}
	if (now - activity > (u64)rcu_cpu_stall_timeout * NSEC_PER_SEC / 2) {
		printk("rcu:   rcu_preempt kthread starved for %llu ms, state %s\n",
		       (unsigned long long)((now - activity) / NSEC_PER_MSEC),
		       rcu_tree_gp_state_name());
		n++;
	}
	if (!n)
		printk("rcu:   (nothing: the grace period is ending)\n");
	rcu_state.n_stalls++;
}

void check_cpu_stall(u64 now)
{
	u64 next = READ_ONCE(rcu_state.stall_next_ns);
	u64 t = (u64)READ_ONCE(rcu_cpu_stall_timeout) * NSEC_PER_SEC;

	if (!next || now < next || !rcu_seq_state(READ_ONCE(rcu_state.gp_seq)))
		return;
	if (!__atomic_compare_exchange_n(&rcu_state.stall_next_ns, &next,
					 now + RCU_STALL_REPEAT_FACTOR * t,
					 false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return;
	print_other_cpu_stall(now);
	kernel_report_done("RCU Stall", true);
}
