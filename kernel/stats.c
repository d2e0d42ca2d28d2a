// SPDX-License-Identifier: GPL-2.0
/* Per-CPU statistics, printed as KTAP diagnostics at the end of a run. */
#include "asm/arch.h"
#include "kernel/ktap.h"
#include "kernel/percpu.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"

static const char *const kind_names[NR_IRQ_KINDS] = {
	[IRQ_TIMER] = "timer", [IRQ_RESCHEDULE] = "resched",
	[IRQ_CALL_FUNC] = "callfunc", [IRQ_TEST_LOW] = "test-low",
	[IRQ_TEST_HIGH] = "test-high", [IRQ_WORK] = "irq_work",
};

void ktap_print_stats(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct cpu_stats *s = &per_cpu_area(cpu)->stats;

		ktap_diag("stats cpu%d: ticks=%lu idle_enter=%lu idle_exit=%lu idle_ms=%lu irqs=%lu nmis=%lu irqs_from_idle=%lu nmis_from_idle=%lu max_irq_depth=%u idle_halts=%lu idle_spins=%lu",
			  cpu, s->ticks, s->idle_enter, s->idle_exit,
			  (u64)(s->idle_ns / NSEC_PER_MSEC), s->irqs, s->nmis,
			  s->irqs_from_idle, s->nmis_from_idle,
			  s->max_irq_depth, s->idle_halts, s->idle_spins);
		for (int k = 0; k < NR_IRQ_KINDS; k++) {
			u32 n = s->irq_by_vector[arch_irq_vector(k)];

			if (n)
				ktap_diag("stats cpu%d: vector 0x%x (%s): %u",
					  cpu, arch_irq_vector(k),
					  kind_names[k], n);
		}
	}
	rcu_stats_print();
}
