// SPDX-License-Identifier: GPL-2.0
/* The per-CPU areas and the online mask. */
#include "kernel/percpu.h"

struct percpu percpu_area[NR_CPUS];
unsigned int nr_cpu_ids;
volatile u64 cpu_online_mask;

void set_cpu_online(int cpu)
{
	__atomic_or_fetch(&cpu_online_mask, 1ULL << cpu, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&nr_cpu_ids, 1, __ATOMIC_SEQ_CST);
}
