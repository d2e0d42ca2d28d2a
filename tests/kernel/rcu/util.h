/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-kernel RCU tests, both flavours. */
#ifndef TESTS_KERNEL_RCU_UTIL_H
#define TESTS_KERNEL_RCU_UTIL_H

#include "rcu/rcupdate.h"

/*
 * An online CPU other than ours and other than not (-1: none) that is in
 * the idle loop with RCU not watching it right now, or -1 if none is
 * found within about a second.
 */
int find_idle_cpu(int not);

/*
 * Callbacks that keep a CPU holding callbacks: a chain whose callback
 * queues itself again, on the same CPU, until stopped.  The CPU keeps
 * its tick for them (rcu_needs_cpu()) and otherwise stays idle.
 */
struct cb_chain {
	struct rcu_head head;
	volatile int stop, done;
	u64 invoked;
};
/* Start c on cpu (its first call_rcu() from an IPI there). */
void cb_chain_start(struct cb_chain *c, int cpu);
/*
 * Stop c and wait (up to HOST_STALL_MS, sleeping) for its last callback:
 * false if it did not come.
 */
bool cb_chain_stop(struct cb_chain *c);

#endif
