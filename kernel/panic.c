// SPDX-License-Identifier: GPL-2.0
/* panic() and WARN(): the run's verdict on broken invariants. */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/printk.h"

volatile int kernel_failed;
static volatile int panicking;

void console_emergency_write(const char *s);

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
	console_emergency_write("\nKernel panic - not syncing: ");
	console_emergency_write(msg);
	console_emergency_write("\n");
	arch_backtrace((unsigned long)__builtin_frame_address(0));
	console_emergency_write("---[ end Kernel panic ]---\n");
	arch_exit(false);
}
