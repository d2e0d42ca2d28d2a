// SPDX-License-Identifier: GPL-2.0
#include "tests/kernel/rcu/util.h"
#include "asm/arch.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/irq.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

int find_idle_cpu(int not)
{
	int self = raw_smp_processor_id();

	for (int tries = 0; tries < 1000; tries++) {
		int cpu;

		for_each_online_cpu(cpu)
			if (cpu != self && cpu != not &&
			    READ_ONCE(per_cpu_area(cpu)->in_idle) &&
			    !rcu_cpu_watching(cpu))
				return cpu;
		msleep(1);
	}
	return -1;
}

/* RCU_SOFTIRQ on the chain's CPU: queue again there, until stopped. */
static void cb_chain_cb(struct rcu_head *head)
{
	struct cb_chain *c = container_of(head, struct cb_chain, head);

	c->invoked++;
	if (READ_ONCE(c->stop)) {
		/* Release: the count above before the waiter's read. */
		smp_store_release(&c->done, 1);
		return;
	}
	call_rcu(head, cb_chain_cb);
}

/* In the target's IPI handler: its first callback, on its own list. */
static void cb_chain_first(void *arg)
{
	struct cb_chain *c = arg;

	call_rcu(&c->head, cb_chain_cb);
}

void cb_chain_start(struct cb_chain *c, int cpu)
{
	*c = (struct cb_chain){ 0 };
	smp_call_function_single(cpu, cb_chain_first, c, true);
}

bool cb_chain_stop(struct cb_chain *c)
{
	u64 t0 = ktime_get_ns();

	WRITE_ONCE(c->stop, 1);
	/* Acquire: pairs with the last callback's release of done. */
	while (!smp_load_acquire(&c->done) &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	return c->done;
}
