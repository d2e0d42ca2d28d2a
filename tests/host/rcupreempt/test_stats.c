// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of rcu/rcupreempt/rcupreempt_stats.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt/rcupreempt.h"
#include "rcu/rcu.h"
#include "tests/host/check.h"
#include "tests/host/rcupreempt/sim.h"
#include "tests/host/shim.h"

static void test_stats(void)
{
	struct rcu_stats_snapshot s;
	struct tcb c;
	int n, i;
	u64 total = 0;

	cur_test = "stats";
	sim_boot(2);
	for (n = 0; n < 20; n++) {
		tcb_queue(&c, 0);
		for (i = 0; i < 100 && !c.invoked; i++)
			sim_tick_all();
	}
	rcupreempt_stats_get(&s);
	CHECK(s.cb_invoked == 20, "callbacks invoked %llu",
	      (unsigned long long)s.cb_invoked);
	CHECK(s.gp_completed >= 20 && s.flips >= s.gp_completed,
	      "gp %llu flips %llu", (unsigned long long)s.gp_completed,
	      (unsigned long long)s.flips);
	CHECK(s.gp_lat_min_ns > 0 && s.gp_lat_min_ns <= s.gp_lat_median_ns &&
	      s.gp_lat_median_ns <= s.gp_lat_max_ns,
	      "latency min %llu median %llu max %llu",
	      (unsigned long long)s.gp_lat_min_ns,
	      (unsigned long long)s.gp_lat_median_ns,
	      (unsigned long long)s.gp_lat_max_ns);
	/*
	 * 1 ms per round of ticks; two CPUs can make two transitions per
	 * round, and a GP takes four.
	 */
	CHECK(s.gp_lat_min_ns >= 1000000, "min latency %llu ns",
	      (unsigned long long)s.gp_lat_min_ns);
	for (i = 0; i < RCU_TRY_FLIP_NR_STATES; i++)
		total += s.state_ns[i];
	CHECK(total > 0 && s.state_ns[rcu_try_flip_waitack_state] > 0,
	      "time in states accounted");
	shim_console_clear();
	rcupreempt_stats_print();
	CHECK(count_substr(shim_console(), "# rcu: ") == 4,
	      "four KTAP diagnostic lines:\n%s", shim_console());
	CHECK(strstr(shim_console(), "ticks (HZ=1000)") != NULL,
	      "latency in ticks");
	fputs(shim_console(), stdout);
}

void host_test_rcupreempt_stats(void)
{
	test_stats();
}
