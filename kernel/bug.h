/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Invariant checks.  A failed WARN reports the CPU, the place and a
 * message, and marks the run failed (the test harness then reports fail);
 * BUG_ON and panic stop the machine.
 */
#ifndef KERNEL_BUG_H
#define KERNEL_BUG_H

#include "kernel/compiler.h"

__printf(3, 4) void warn_slowpath(const char *file, int line,
				  const char *fmt, ...);
__printf(1, 2) __noreturn void panic(const char *fmt, ...);
/* Mark the run failed without stopping it. */
void kernel_mark_failed(void);
/*
 * A detector's report is complete: mark the run failed, and panic with why
 * if panic_on_rcu_stall (stall true) or panic_on_warn (stall false) is set.
 */
void kernel_report_done(const char *why, bool stall);
extern volatile int kernel_failed;
extern unsigned int panic_on_warn, panic_on_rcu_stall;

#define WARN(cond, fmt, ...) ({						\
	int __c = !!(cond);						\
	if (unlikely(__c))						\
		warn_slowpath(__FILE__, __LINE__, fmt, ##__VA_ARGS__);	\
	unlikely(__c);							\
})
#define WARN_ON(cond)	WARN(cond, "WARN_ON(%s)", #cond)
/*
 * Reports the first failure at this site only (a check in the tick would
 * otherwise fill the console when panic_on_warn is off).  The flag is
 * per site and racy: two CPUs failing at once may both report.
 */
#define WARN_ONCE(cond, fmt, ...) ({					\
	static bool __warned;						\
	int __c = !!(cond);						\
	if (unlikely(__c) && !READ_ONCE(__warned)) {			\
		WRITE_ONCE(__warned, true);				\
		warn_slowpath(__FILE__, __LINE__, fmt, ##__VA_ARGS__);	\
	}								\
	unlikely(__c);							\
})
#define BUG_ON(cond) do {						\
	if (unlikely(cond))						\
		panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond);	\
} while (0)

#endif
