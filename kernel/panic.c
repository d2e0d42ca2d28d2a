// SPDX-License-Identifier: GPL-2.0
/* panic() and WARN(): the run's verdict on broken invariants. */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/param.h"
#include "kernel/printk.h"

volatile int kernel_failed;
static volatile int panicking;

/*
 * Linux's panic_on_warn and panic_on_rcu_stall, but on by default: a test
 * run ends at its first error, with the whole report on the console,
 * instead of running on into a pile of consequences and the harness's
 * timeout (docs/kernel.md, "Fail fast").  make run turns them off, to
 * watch what happens next.
 */
unsigned int panic_on_warn = 1;
kparam_bool("panic_on_warn", panic_on_warn,
	    "end the run at the first WARNING or test-detected error");
unsigned int panic_on_rcu_stall = 1;
kparam_bool("panic_on_rcu_stall", panic_on_rcu_stall,
	    "end the run after the first RCU stall or hung-task report");

void kernel_mark_failed(void)
{
	WRITE_ONCE(kernel_failed, 1);
}

void warn_slowpath(const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("WARNING: at %s:%d: %s\n", file, line, msg);
	kernel_mark_failed();
	if (READ_ONCE(panic_on_warn))
		panic("panic_on_warn set ...");
}

/*
 * A detector has printed its whole report: the run has failed, and it
 * ends here if panic_on_rcu_stall is set (stall: an RCU stall or a hung
 * task) or panic_on_warn is (otherwise: a torture error, a hard lockup).
 */
void kernel_report_done(const char *why, bool stall)
{
	kernel_mark_failed();
	if (stall ? READ_ONCE(panic_on_rcu_stall) : READ_ONCE(panic_on_warn))
		panic("%s", why);
}

void panic(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	local_irq_disable();
	/* A second panic (from the backtrace, say) must not recurse. */
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST))
		arch_halt_forever();
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* What NMIs printed (a WARN's report, say) comes before the panic. */
	printk_flush_nmi_emergency();
	console_emergency_write("\nKernel panic - not syncing: ");
	console_emergency_write(msg);
	console_emergency_write("\n");
	arch_backtrace((unsigned long)__builtin_frame_address(0));
	console_emergency_write("---[ end Kernel panic ]---\n");
	arch_exit(false);
}
