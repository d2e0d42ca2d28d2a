// SPDX-License-Identifier: GPL-2.0
#include "tests/kernel/rcu/util.h"
#include "asm/arch.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "rcu/rcupdate.h"

int find_idle_cpu(int not)
{
	int self = raw_smp_processor_id();

	for (int tries = 0; tries < 1000; tries++) {
		int cpu;

		for_each_online_cpu(cpu)
			if (cpu != self && cpu != not &&
			    READ_ONCE(per_cpu_area(cpu)->in_idle) &&
			    !rcu_cpu_watching(cpu))
				return cpu;
		msleep(1);
	}
	return -1;
}
