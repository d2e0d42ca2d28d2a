// SPDX-License-Identifier: GPL-2.0
/*
 * The RCU fault hook for the harness's expected-failure scenarios, both
 * flavours (tests/xfail/rcu_stall.scn, tree_rcu_stall.scn): a reader that
 * never unlocks.  Not in the default suite: it runs only when named in
 * tests=.  The substrate's hooks are in tests/kernel/kernel/test_hooks.c.
 */
#include "kernel/ktap.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

static int stuck_reader(void *arg)
{
	(void)arg;
	/*
	 * Never unlocked: the stall detector's prey.  Preempted, never
	 * asleep: sleeping in a reader is a bug of its own (rcu=tree WARNs).
	 */
	rcu_read_lock();
	for (;;)
		preempted_wait_ms(1000);
	return 0;
}

struct stall_wait {
	struct rcu_head head;
	struct completion done;
};

static void stall_cb(struct rcu_head *head)
{
	complete(&container_of(head, struct stall_wait, head)->done);
}

/*
 * A reader that never unlocks holds the flip machine in waitzero; the
 * stall detector must say so, naming the reader (tests/xfail/rcu_stall).
 * The grace period can never end: give up after 10 s, failing.
 */
KTEST_HOOK(hook_stuck_reader)
{
	static struct stall_wait w;

	init_completion(&w.done);
	kthread_run(stuck_reader, NULL, ANY_CPU, "stuck-reader");
	msleep(10);
	call_rcu(&w.head, stall_cb);
	if (wait_for_completion_timeout(&w.done, 10 * NSEC_PER_SEC)) {
		ktap_diag("a grace period ended despite a reader that never unlocked");
		return 1;
	}
	ktap_diag("no grace period in 10 s, as a stuck reader demands");
	return 1;
}
