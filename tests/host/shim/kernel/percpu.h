/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim for kernel/percpu.h: the same API over simulated CPUs.  The
 * "current CPU" is shim_cpu, which a test sets to run code "on" a CPU.
 * this_cpu_read() of preempt_count and cpu is a hook point where a test
 * can inject a simulated NMI (see shim.h).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "kernel/compiler.h"

#define NR_CPUS		32
#define NR_VECTORS	256

struct task;

struct percpu {
	struct percpu *self;
	int cpu;
	u32 apic_id;
	unsigned int preempt_count;
	int need_resched;
	struct task *current;
	struct task *idle;
	void *arch;
	int tick_stopped;
	int in_idle;
	u64 idle_since_ns;
} __cacheline_aligned;

extern struct percpu percpu_area[NR_CPUS];
extern unsigned int nr_cpu_ids;
extern volatile u64 cpu_online_mask;

/* The simulated CPU the calling code runs on. */
extern int shim_cpu;
/* Hook point: may run the armed simulated NMI (tests/host/shim.c). */
void shim_hook(const char *where);

#define this_cpu()		(&percpu_area[shim_cpu])
#define this_cpu_read(f)	(shim_hook("this_cpu_read(" #f ")"),	\
				 percpu_area[shim_cpu].f)
#define this_cpu_write(f, v)	(percpu_area[shim_cpu].f = (v))
#define this_cpu_add(f, v)	(percpu_area[shim_cpu].f += (v))
#define this_cpu_inc(f)		this_cpu_add(f, 1)
#define this_cpu_dec(f)		this_cpu_add(f, -1)

#define per_cpu_area(cpu)	(&percpu_area[(cpu)])

#define raw_smp_processor_id()	this_cpu_read(cpu)
int smp_processor_id(void);

static inline bool cpu_online(int cpu)
{
	return (READ_ONCE(cpu_online_mask) >> cpu) & 1;
}

#define for_each_online_cpu(c) \
	for ((c) = 0; (c) < NR_CPUS; (c)++) if (!cpu_online(c)) {} else

static inline unsigned int num_online_cpus(void)
{
	return (unsigned int)__builtin_popcountll(READ_ONCE(cpu_online_mask));
}

#endif
