// SPDX-License-Identifier: GPL-2.0
#include "tests/kernel/tree/util.h"
#include "asm/arch.h"
#include "kernel/irqflags.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/preempt.h"
#include "kernel/time.h"
#include "rcu/tree/tree.h"

struct held_reader held;

/*
 * Spin until *flag or HELD_REGION_MAX_MS (the test never looked).  The
 * acquire pairs with the test's release of the flag (nothing else to
 * order: the flag is the whole message).
 */
static void held_spin(volatile int *flag)
{
	u64 t0 = ktime_get_ns();

	while (!smp_load_acquire(flag) &&
	       ktime_get_ns() - t0 < HELD_REGION_MAX_MS * NSEC_PER_MSEC)
		arch_cpu_relax();
}

/* The unlock inside the region, then hold the region until released. */
static void held_unlock_in_region(void)
{
	rcu_read_unlock();
	held.blocked_in_region =
		READ_ONCE(current->rcu_read_unlock_special.b.blocked);
	/* Release: the finding before the flag the test acquires. */
	smp_store_release(&held.unlocked, 1);
	held_spin(&held.region_release);
}

static int held_reader(void *arg)
{
	unsigned long flags;

	(void)arg;
	rcu_read_lock();
	smp_store_release(&held.started, 1);
	while (!smp_load_acquire(&held.release)) {
		if (held.preempt)
			preempted_wait_ms(1);
		else
			arch_cpu_relax();
	}
	switch (held.unlock) {
	case HELD_UNLOCK_IRQS_OFF:
		local_irq_save(flags);
		held_unlock_in_region();
		local_irq_restore(flags);
		break;
	case HELD_UNLOCK_PREEMPT_OFF:
		preempt_disable();
		held_unlock_in_region();
		preempt_enable();
		break;
	default: {
		/* The reader is pinned: this CPU's counts stay its own. */
		struct cpu_stats *st = &this_cpu()->stats;
		u64 irqs = READ_ONCE(st->irqs);
		u64 sw = READ_ONCE(current->nr_switches);

		rcu_read_unlock();
		held.left_at_unlock =
			!READ_ONCE(current->rcu_read_unlock_special.b.blocked);
		/*
		 * A tick or a context switch between the unlock and the
		 * look does the slow path's work itself (the deferred
		 * quiescent state): then the look proves nothing.
		 */
		held.disturbed_at_unlock = READ_ONCE(st->irqs) != irqs ||
					   READ_ONCE(current->nr_switches) != sw;
		/* Release: the finding before the flag the test acquires. */
		smp_store_release(&held.unlocked, 1);
		break;
	}
	}
	if (held.unlock != HELD_UNLOCK) {
		/* Release: the region's end before the time the test reads. */
		smp_store_release(&held.region_end_ns, ktime_get_ns());
		held_spin(&held.exit);
	}
	smp_store_release(&held.done, 1);
	return 0;
}

void held_start(int cpu, bool preempt)
{
	held.started = held.release = held.unlocked = held.done = 0;
	held.region_release = held.exit = 0;
	held.region_end_ns = 0;
	held.left_at_unlock = held.blocked_in_region = false;
	held.disturbed_at_unlock = false;
	held.preempt = preempt;
	held.task = kthread_run(held_reader, NULL, cpu, "held-reader");
	while (!smp_load_acquire(&held.started))
		msleep(1);
}

int held_stop(void)
{
	/* Releases: what the test did before, seen by the reader after. */
	smp_store_release(&held.region_release, 1);
	smp_store_release(&held.exit, 1);
	smp_store_release(&held.release, 1);
	if (KT_EXPECT(wait_flag(&held.done, HOST_STALL_MS),
		      "held reader exits"))
		return 1;
	held.unlock = HELD_UNLOCK;	/* the default for the next one */
	return 0;
}

bool held_queued(struct rcu_node *rnp, bool *holds)
{
	unsigned long flags;
	bool queued = false;
	struct task *t;

	*holds = false;
	spin_lock_irqsave(&rnp->lock, flags);
	list_for_each_entry(t, &rnp->blkd_tasks, rcu_node_entry)
		if (t == held.task) {
			queued = true;
			*holds = t->rcu_blocks_gp;
		}
	spin_unlock_irqrestore(&rnp->lock, flags);
	return queued;
}

bool leaf_has_gp(struct rcu_node *rnp, unsigned long c)
{
	/* c is the end of that grace period; in progress, it is c - 3. */
	return !ULONG_CMP_LT(READ_ONCE(rnp->gp_seq), c - RCU_SEQ_STATE_MASK);
}

bool task_sleeping(struct task *t)
{
	return READ_ONCE(t->state) == TASK_SLEEPING && !READ_ONCE(t->on_cpu);
}

static int preempted_reader_hog(void *arg)
{
	struct preempted_reader *p = arg;

	while (!smp_load_acquire(&p->hog_stop)) {
		WRITE_ONCE(p->spins, p->spins + 1);
		arch_cpu_relax();
	}
	return 0;
}

static int preempted_reader_fn(void *arg)
{
	struct preempted_reader *p = arg;

	rcu_read_lock();
	while (!smp_load_acquire(&p->unlock))
		preempt_self();		/* the hog runs while we wait */
	rcu_read_unlock();
	smp_store_release(&p->done, 1);
	return 0;
}

int preempted_reader_start(struct preempted_reader *p, int cpu,
			   const char *name)
{
	p->unlock = p->done = p->hog_stop = 0;
	p->spins = 0;
	kthread_run(preempted_reader_hog, p, cpu, "preempted-hog");
	p->task = kthread_run(preempted_reader_fn, p, cpu, name);
	return KT_EXPECT(poll_until(READ_ONCE(p->task->rcu_read_unlock_special
					      .b.blocked)),
			 "%s, preempted in its reader on cpu %d, is on blkd_tasks",
			 name, cpu);
}

int preempted_reader_stop(struct preempted_reader *p)
{
	int fail;

	smp_store_release(&p->unlock, 1);
	fail = KT_EXPECT(poll_until(p->done), "%s unlocked", p->task->name);
	smp_store_release(&p->hog_stop, 1);
	return fail;
}

/* The bit that rnp holds for leaf's path up the tree (0: not on it). */
static unsigned long exp_path_bit(struct rcu_node *rnp, struct rcu_node *leaf)
{
	for (struct rcu_node *n = leaf; n->parent; n = n->parent)
		if (n->parent == rnp)
			return n->grpmask;
	return 0;
}

bool exp_waits_only_on(int cpu, bool cpu_bit, int ntasks)
{
	struct rcu_tree_data *rdp = &rcu_tree_data[cpu];
	struct rcu_node *rnp;

	rcu_for_each_node_breadth_first(rnp) {
		bool leaf = rnp == rdp->mynode;
		unsigned long want = leaf ? (cpu_bit ? rdp->grpmask : 0) :
					    exp_path_bit(rnp, rdp->mynode);

		if (READ_ONCE(rnp->expmask) != want ||
		    READ_ONCE(rnp->n_exp_tasks) != (leaf ? ntasks : 0))
			return false;
	}
	return true;
}

u64 exp_ipis_others(int self)
{
	u64 n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != self)
			n += READ_ONCE(rcu_tree_data[cpu].exp_ipis);
	return n;
}

int idle_cpus_quiet(int self, struct cpu_counts *before, u64 ipis0,
		    const char *what)
{
	struct cpu_counts sum;
	int noisy = idle_cpus_delta(before, self, what, &sum);
	u64 ipis = exp_ipis_others(self) - ipis0;

	kfree(before);
	ktap_diag("%s: %u idle CPUs took %lu ticks, %lu interrupts, %lu expedited IPIs in all",
		  what, num_online_cpus() - 1, sum.ticks, sum.wakeups, ipis);
	return KT_EXPECT(noisy == 0 && ipis == 0,
			 "%s: %d idle CPUs took ticks or interrupts, %lu expedited IPIs",
			 what, noisy, ipis);
}
