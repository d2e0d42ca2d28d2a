/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk: "[seconds.micros] cpuN: " prefixed lines on the console,
 * serialised by a lock.  From NMI context it writes to a lock-free per-CPU
 * buffer instead, which is flushed from normal context later.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "kernel/compiler.h"

__printf(1, 2) void printk(const char *fmt, ...);
/* Raw console output, no prefix (for KTAP lines). */
__printf(1, 2) void cprintf(const char *fmt, ...);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);
/* Emit what NMI handlers left in the per-CPU buffers. */
void printk_prepare_cpu(int cpu);
void printk_flush_nmi(void);
void printk_flush_nmi_emergency(void);
/* Write without the console lock (a dying or NMI-interrupted CPU may hold it). */
void console_emergency_write(const char *s);

#endif
