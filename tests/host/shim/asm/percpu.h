/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim for arch/x86/percpu.h, under the real kernel/percpu.h (so
 * struct percpu and the API stay the kernel's own).  "This CPU" is the
 * simulated CPU shim_cpu, which a test sets to run code "on" a CPU.
 * Every this_cpu_read() is a hook point where a test can inject a
 * simulated NMI (tests/host/shim.c).
 */
#ifndef ARCH_X86_PERCPU_H
#define ARCH_X86_PERCPU_H

extern int shim_cpu;
extern struct percpu shim_percpu[];
void shim_hook(const char *where);

static inline struct percpu *arch_this_cpu(void)
{
	return &shim_percpu[shim_cpu];
}

#define arch_this_cpu_read(f)	(shim_hook("this_cpu_read(" #f ")"),	\
				 shim_percpu[shim_cpu].f)
#define arch_this_cpu_write(f, v) \
	do { shim_percpu[shim_cpu].f = (v); } while (0)
#define arch_this_cpu_add(f, v) \
	do { shim_percpu[shim_cpu].f += (v); } while (0)

#endif
