// SPDX-License-Identifier: GPL-2.0
#include "tests/kernel/tree/util.h"
#include "asm/arch.h"
#include "kernel/irqflags.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/tree/tree.h"

struct held_reader held;

static int held_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	smp_store_release(&held.started, 1);
	while (!smp_load_acquire(&held.release)) {
		if (held.preempt)
			preempted_wait_ms(1);
		else
			arch_cpu_relax();
	}
	if (held.irqoff_ms) {
		unsigned long flags;
		u64 t0;

		/*
		 * No tick and no context switch from here: only the
		 * unlock itself can have taken the task off blkd_tasks.
		 * Until the test has looked, not for a fixed time: a host
		 * that stalls the test's vCPU must not end the spin first.
		 */
		local_irq_save(flags);
		rcu_read_unlock();
		smp_store_release(&held.unlocked, 1);
		t0 = ktime_get_ns();
		while (!smp_load_acquire(&held.irqoff_release) &&
		       ktime_get_ns() - t0 < held.irqoff_ms * NSEC_PER_MSEC)
			arch_cpu_relax();
		local_irq_restore(flags);
	} else {
		rcu_read_unlock();
		smp_store_release(&held.unlocked, 1);
	}
	smp_store_release(&held.done, 1);
	return 0;
}

void held_start(int cpu, bool preempt)
{
	held.started = held.release = held.unlocked = held.done = 0;
	held.irqoff_release = 0;
	held.preempt = preempt;
	held.task = kthread_run(held_reader, NULL, cpu, "held-reader");
	while (!smp_load_acquire(&held.started))
		msleep(1);
}

int held_stop(void)
{
	smp_store_release(&held.irqoff_release, 1);
	smp_store_release(&held.release, 1);
	return KT_EXPECT(wait_flag(&held.done, 5000), "held reader exits");
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
