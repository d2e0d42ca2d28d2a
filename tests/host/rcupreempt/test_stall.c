// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of rcu/rcupreempt/rcupreempt_stall.c. */
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

static void test_stall(void)
{
	struct tcb c;
	struct task *r = &extra[2];
	struct rcu_stats_snapshot s;
	const char *con;
	int i;

	cur_test = "stall_waitzero";
	sim_boot(2);
	rcu_cpu_stall_timeout = 2;
	snprintf(r->name, TASK_NAME_LEN, "stuck_reader");
	on_cpu(0, r);
	__rcu_read_lock();
	on_cpu(0, &tasks[0]);
	tcb_queue(&c, 0);
	for (i = 0; i < 1900; i++)
		sim_tick_all();
	CHECK(shim_failed_count == 0, "no report before the timeout");
	for (i = 0; i < 200; i++)
		sim_tick_all();
	con = shim_console();
	CHECK(shim_failed_count == 1, "run marked failed once (%d)",
	      shim_failed_count);
	CHECK(strncmp(con, "rcu: INFO: detected stall", 25) == 0,
	      "first line starts the report: %.60s", con);
	CHECK(strstr(con, "state waitzero") != NULL, "names the state");
	CHECK(strstr(con, "stuck_reader") != NULL, "names the reader task");
	CHECK(strstr(con, "sum 1") != NULL, "reports the flipctr sum");
	for (i = 0; i < 3000; i++)
		sim_tick_all();
	CHECK(count_substr(shim_console(), "detected stall") == 1,
	      "no repeat before 3x the timeout");
	for (i = 0; i < 3500; i++)
		sim_tick_all();
	CHECK(count_substr(shim_console(), "detected stall") == 2,
	      "repeats at the longer interval");
	on_cpu(0, r);
	__rcu_read_unlock();
	on_cpu(0, &tasks[0]);
	for (i = 0; i < 100 && !c.invoked; i++)
		sim_tick_all();
	CHECK(c.invoked == 1, "recovers after the unlock");
	rcupreempt_stats_get(&s);
	CHECK(s.stalls == 2, "stats count 2 reports (%llu)",
	      (unsigned long long)s.stalls);

	cur_test = "stall_waitack";
	sim_boot(3);
	rcu_cpu_stall_timeout = 1;
	tcb_queue(&c, 0);
	for (i = 0; i < 1500; i++) {	/* cpu 1 busy but never ticks */
		sim_tick(0);
		sim_tick(2);
		shim_now_ns += 1000000;
	}
	con = shim_console();
	CHECK(strstr(con, "rcu: INFO: detected stall") == con,
	      "report printed: %.60s", con);
	CHECK(strstr(con, "state waitack") != NULL, "names waitack");
	CHECK(strstr(con, "cpu 1 owes ack: dynticks_progress_counter 1 rcu_dyntick_snapshot 1") != NULL,
	      "names cpu 1 with counter and snapshot");
	CHECK(strstr(con, "cpu 2 owes") == NULL, "cpu 2 acked: not named");
	CHECK(shim_failed_count == 1, "marked failed");
	shim_console_clear();
	rcu_cpu_stall_timeout = 0;
}

void host_test_rcupreempt_stall(void)
{
	test_stall();
}
