// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU areas and the online mask.  Memory that scales with the CPU
 * count is allocated only for CPUs the firmware lists (percpu_alloc()),
 * before each starts: a 255-slot kernel on 4 CPUs pays for 4.
 */
#include "kernel/bug.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"

/* CPU 0's area is in use from the first instruction, before mm_init(). */
static struct percpu boot_percpu;
struct percpu *percpu_areas[NR_CPUS] = { [0] = &boot_percpu };
unsigned int nr_cpu_ids;
unsigned int nr_cpus_present = 1;
struct cpumask cpu_online_mask;
/* CPUs that have been online at least once (their first life is over). */
struct cpumask cpu_booted_mask;
static size_t percpu_bytes[NR_CPUS];

void set_cpu_online(int cpu)
{
	/* nr_cpu_ids counts CPUs ever brought up: once each, not per life. */
	if (!cpumask_test_cpu(cpu, &cpu_booted_mask)) {
		cpumask_set_cpu(cpu, &cpu_booted_mask);
		__atomic_add_fetch(&nr_cpu_ids, 1, __ATOMIC_SEQ_CST);
	}
	cpumask_set_cpu(cpu, &cpu_online_mask);
}

void set_cpu_offline(int cpu)
{
	/* Fully ordered: see hotplug_sync_senders() for what it orders. */
	cpumask_clear_cpu(cpu, &cpu_online_mask);
}

/*
 * Zeroed, cache-line aligned memory for one present CPU, never freed
 * (a CPU that goes offline keeps it for its next life).  Counted
 * towards that CPU's footprint.
 */
void *percpu_alloc(int cpu, size_t size)
{
	char *p = kmalloc(size + L1_CACHE_BYTES);

	if (!p)
		panic("percpu: no memory for cpu%d's %lu bytes", cpu,
		      (unsigned long)size);
	percpu_bytes[cpu] += size + L1_CACHE_BYTES;
	return (void *)ALIGN_UP((unsigned long)p, L1_CACHE_BYTES);
}

/* Bytes percpu_alloc() gave cpu (its stacks are counted by the arch). */
size_t percpu_footprint(int cpu)
{
	return percpu_bytes[cpu];
}

void percpu_setup(unsigned int present)
{
	BUG_ON(present < 1 || present > NR_CPUS);
	nr_cpus_present = present;
	boot_percpu.self = &boot_percpu;
	for (unsigned int cpu = 1; cpu < present; cpu++) {
		struct percpu *pc = percpu_alloc(cpu, sizeof(*pc));

		pc->self = pc;
		pc->cpu = cpu;
		percpu_areas[cpu] = pc;
	}
}
