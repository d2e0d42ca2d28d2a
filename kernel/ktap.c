// SPDX-License-Identifier: GPL-2.0
/*
 * The KTAP v1 test runner.  Runs the selected tests in link order in a
 * kernel thread, prints "ok N name" / "not ok N name", then per-CPU
 * statistics as diagnostics, and leaves QEMU with the pass or fail status.
 * Tests marked KTEST_LONG run after the others.
 * A test that WARNs fails even if it returned 0 (with panic_on_warn, the
 * default, the WARN ends the run).  The watchdog (kernel/watchdog.c) fails
 * the run when one test exceeds test_timeout seconds.
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/ktap.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/trace.h"

extern const struct ktest __ktests_start[], __ktests_end[];

static const char *tests_opt = "default";
kparam_str("tests", tests_opt,
	   "comma-separated test names, or 'default' for the default suite");
static unsigned int test_timeout = 120;
kparam_uint("test_timeout", test_timeout, 1, 3600,
	    "seconds one test may run before the run fails");

static volatile u64 test_started_ns;
static const char *volatile test_running;
static volatile int test_number;

void ktap_diag(const char *fmt, ...)
{
	char buf[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cprintf("# %s\n", buf);
}

/* Is name in the comma-separated list? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (end ? 1 : 0);
	}
	return false;
}

static bool selected(const struct ktest *t)
{
	if (!strcmp(tests_opt, "default"))
		return !(t->flags & KTEST_EXPLICIT);
	return in_list(tests_opt, t->name);
}

/* Every name in tests= must exist: a typo must not pass as "0 tests". */
bool ktap_check_selection(void)
{
	bool ok = true;

	if (!strcmp(tests_opt, "default"))
		return true;
	for (const char *p = tests_opt; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool found = false;

		for (const struct ktest *t = __ktests_start;
		     t < __ktests_end; t++)
			if (strlen(t->name) == len && !strncmp(t->name, p, len))
				found = true;
		if (!found) {
			char name[64];

			strlcpy(name, p, min(len + 1, sizeof(name)));
			printk("cmdline: error: tests=: unknown test '%s'\n",
			       name);
			ok = false;
		}
		p += len + (end ? 1 : 0);
	}
	return ok;
}

/*
 * Called once a second by the watchdog (kernel/watchdog.c), whose timer
 * needs no tick: a test that hangs with every CPU idle is still caught.
 */
void ktap_check_timeout(u64 now)
{
	const char *name = READ_ONCE(test_running);
	u64 start = READ_ONCE(test_started_ns);

	if (name && now - start > test_timeout * NSEC_PER_SEC) {
		cprintf("not ok %d %s # timeout after %u s\n", test_number,
			name, test_timeout);
		printk("ktap: test %s timed out\n", name);
		arch_exit(false);
	}
}


/* Run test t as number n; true if it passed (or skipped). */
static bool run_one(const struct ktest *t, int n)
{
	int was_failed = kernel_failed;

	kernel_failed = 0;
	test_number = n;
	test_started_ns = ktime_get_ns();
	test_running = t->name;
	int rc = t->fn();

	test_running = NULL;
	printk_flush_nmi();
	bool ok = (rc == 0 || rc == KTEST_SKIP) && !kernel_failed;
	u64 ms = (ktime_get_ns() - test_started_ns) / NSEC_PER_MSEC;

	/* Timestamped, for the time to detection (tests/mutants). */
	if (!ok)
		printk("ktap: test %s failed after %llu ms\n", t->name,
		       (unsigned long long)ms);
	cprintf("%sok %d %s%s\n", ok ? "" : "not ", n, t->name,
		rc == KTEST_SKIP ? " # SKIP" : "");
	ktap_diag("%s: %llu ms", t->name, (unsigned long long)ms);
	kernel_failed |= was_failed;
	return ok;
}

static int runner_fn(void *arg)
{
	int planned = 0, n = 0, failed = 0;

	(void)arg;
	for (const struct ktest *t = __ktests_start; t < __ktests_end; t++)
		planned += selected(t);
	cprintf("KTAP version 1\n");
	cprintf("1..%d\n", planned);
	/* Two passes: the KTEST_SLOW tests last. */
	for (int slow = 0; slow < 2; slow++) {
		for (const struct ktest *t = __ktests_start;
		     t < __ktests_end; t++) {
			if (selected(t) && !!(t->flags & KTEST_SLOW) == slow)
				failed += !run_one(t, ++n);
		}
	}
	ktap_print_stats();
	trace_dump();		/* no-op unless trace=on */
	printk_flush_nmi();
	cprintf("# totals: pass:%d fail:%d\n", n - failed, failed);
	arch_exit(failed == 0 && !kernel_failed);
	return 0;
}

void ktap_start(void)
{
	kthread_run(runner_fn, NULL, 0, "ktap");
}
