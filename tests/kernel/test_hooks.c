// SPDX-License-Identifier: GPL-2.0
/*
 * Fault hooks for the harness's expected-failure scenarios.  None is in
 * the default suite: each runs only when named in tests=.
 */
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "tests/kernel/util.h"

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

KTEST_HOOK(hook_hang)
{
	local_irq_disable();
	for (;;)
		__asm__ __volatile__("pause");
	return 0;
}
