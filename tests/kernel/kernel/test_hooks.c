// SPDX-License-Identifier: GPL-2.0
/*
 * The substrate's fault hooks for the harness's expected-failure
 * scenarios.  None is in the default suite: each runs only when named in
 * tests=.  RCU's are in tests/kernel/rcu/test_hooks.c and
 * tests/kernel/tree/test_tree.c.
 */
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/irqflags.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "tests/kernel/kernel/util.h"

KTEST_HOOK(hook_not_ok)
{
	ktap_diag("this test fails on purpose");
	return 1;
}

KTEST_HOOK(hook_panic)
{
	panic("deliberate panic from hook_panic");
}

KTEST_HOOK(hook_page_fault)
{
	/* 4 GiB: just past the identity map, never mapped. */
	volatile u64 *p = (volatile u64 *)(4ULL << 30);

	return (int)*p;
}

static volatile int recurse_forever = 1;

static noinline int recurse(int depth)
{
	volatile char pad[256];

	pad[0] = (char)depth;
	/* The flag hides the endless recursion from the compiler. */
	return (recurse_forever ? recurse(depth + 1) : 0) + pad[0];
}

KTEST_HOOK(hook_stack_overflow)
{
	return recurse(0);
}

KTEST_HOOK(hook_null_deref)
{
	/* Page 0 is unmapped: this faults with CR2 0, it does not read. */
	volatile u64 *p = NULL;

	return (int)*p;
}

static void overflow_fn(void *arg)
{
	(void)arg;
	recurse(0);
}

/*
 * Overflow CPU 0's idle stack (the boot CPU's, set up by kernel_main()):
 * an interrupt handler runs on the stack it interrupted, so a cross-CPU
 * call to idle CPU 0 recurses there.  Sent from CPU 1, so that CPU 0 is
 * in its idle loop.
 */
static void send_overflow(void *arg)
{
	struct percpu *pc0 = per_cpu_area(0);

	(void)arg;
	/* Until the test thread on CPU 0 has gone to sleep. */
	for (int i = 0; i < 1000 && READ_ONCE(pc0->curr_task) != pc0->idle;
	     i++)
		busy_wait_ns(NSEC_PER_MSEC);
	ktap_diag("cpu0 runs %s", READ_ONCE(pc0->curr_task)->name);
	smp_call_function_single(0, overflow_fn, NULL, true);
}

KTEST_HOOK(hook_stack_overflow_cpu0)
{
	if (num_online_cpus() < 2) {
		ktap_diag("needs 2 CPUs");
		return 1;
	}
	run_on_cpu(1, send_overflow, NULL);
	return 1;
}

/*
 * The ktap runner is on CPU 0, the watchdog's own CPU: this hard lockup
 * silences the watchdog too, and only the harness's timeout and vCPU
 * dump can report it (tests/xfail/hang.scn).  hook_hard_lockup is the
 * case the kernel reports itself.
 */
KTEST_HOOK(hook_hang)
{
	local_irq_disable();
	for (;;)
		__asm__ __volatile__("pause");
	return 0;
}

static int lockup_spinner(void *arg)
{
	(void)arg;
	local_irq_disable();
	for (;;)
		__asm__ __volatile__("pause");
	return 0;
}

/* CPU 1 spins with IRQs off: the watchdog's hard-lockup report. */
KTEST_HOOK(hook_hard_lockup)
{
	if (num_online_cpus() < 2) {
		ktap_diag("needs 2 CPUs");
		return 1;
	}
	kthread_run(lockup_spinner, NULL, 1, "lockup-spinner");
	msleep(60 * 1000);
	ktap_diag("no hard-lockup report in 60 s");
	return 1;
}

static struct completion never_done;

static int hung_waiter(void *arg)
{
	(void)arg;
	wait_for_completion(&never_done);	/* no complete(): ever */
	return 0;
}

/* A task waits forever for a completion: the hung-task report. */
KTEST_HOOK(hook_hung_task)
{
	init_completion(&never_done);
	kthread_run(hung_waiter, NULL, ANY_CPU, "hung-waiter");
	msleep(60 * 1000);
	ktap_diag("no hung-task report in 60 s");
	return 1;
}
