/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-kernel tests reported as KTAP v1 on the console.  A test is a
 * function returning 0 for pass; it may print "# " diagnostics with
 * ktap_diag().  Tests register with KTEST() into the .ktests section and
 * run in link order.  tests= on the command line selects a subset.
 */
#ifndef KERNEL_KTAP_H
#define KERNEL_KTAP_H

#include "kernel/compiler.h"
#include "kernel/types.h"

struct ktest {
	const char *name;
	int (*fn)(void);
	unsigned int flags;
};

/* Return value of a test that cannot run here (reported "# SKIP"). */
#define KTEST_SKIP	(-1)

/* Not in the default suite: only run when named in tests= (fault hooks). */
#define KTEST_EXPLICIT	0x1
/* Runs after the other tests: long, and not where a broken kernel shows
 * first (fail fast: the quick, sensitive tests come first). */
#define KTEST_SLOW	0x2

#define __KTEST(n, fl)							\
	static int n(void);						\
	static const struct ktest __ktest_##n __used			\
	__section(".ktests") __aligned(8) = {				\
		.name = #n, .fn = n, .flags = (fl) };			\
	static int n(void)

#define KTEST(n)		__KTEST(n, 0)
#define KTEST_HOOK(n)		__KTEST(n, KTEST_EXPLICIT)
#define KTEST_LONG(n)		__KTEST(n, KTEST_SLOW)

__printf(1, 2) void ktap_diag(const char *fmt, ...);
/* Report a failed expectation as a diagnostic and return nonzero. */
#define KT_EXPECT(cond, fmt, ...) ({					\
	int __ok = !!(cond);						\
	if (!__ok)							\
		ktap_diag("%s:%d: expected %s: " fmt, __FILE__,		\
			  __LINE__, #cond, ##__VA_ARGS__);		\
	!__ok;								\
})

/* Boot: check tests= names a known test; false stops the boot. */
bool ktap_check_selection(void);
/* Start the KTAP runner (a kernel thread on the boot CPU). */
void ktap_start(void);
/* From the watchdog: fail the run if a test ran past test_timeout. */
void ktap_check_timeout(u64 now);
/* Per-CPU statistics as "# " diagnostics, at the end of the run. */
void ktap_print_stats(void);

#endif
