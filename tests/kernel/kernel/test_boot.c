// SPDX-License-Identifier: GPL-2.0
/* Substrate tests: CPUs, per-CPU areas, timer calibration. */
#include "asm/arch.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "tests/kernel/kernel/util.h"

static u32 reported_id[NR_CPUS];
static struct percpu *seen_self[NR_CPUS];

static void report_id(int cpu, void *arg)
{
	(void)arg;
	preempt_disable();
	reported_id[cpu] = arch_cpu_hw_id();
	seen_self[cpu] = this_cpu();
	if (smp_processor_id() != cpu)
		seen_self[cpu] = NULL;	/* pinned thread on the wrong CPU */
	preempt_enable();
}

KTEST(boot_smp)
{
	int cpu, bad = 0;

	ktap_diag("firmware lists %d enabled CPUs, %u online",
		  arch_firmware_cpu_count(), num_online_cpus());
	bad |= KT_EXPECT((int)num_online_cpus() == arch_firmware_cpu_count(),
			 "not every enabled CPU came online");
	run_on_each_cpu(report_id, NULL);
	for_each_online_cpu(cpu) {
		ktap_diag("cpu%d: APIC ID %u", cpu, reported_id[cpu]);
		bad |= KT_EXPECT(reported_id[cpu] == per_cpu_area(cpu)->apic_id,
				 "cpu%d reports APIC %u, booted as %u", cpu,
				 reported_id[cpu], per_cpu_area(cpu)->apic_id);
	}
	return bad;
}

KTEST(percpu)
{
	int cpu, bad = 0;

	run_on_each_cpu(report_id, NULL);
	for_each_online_cpu(cpu) {
		bad |= KT_EXPECT(seen_self[cpu] == per_cpu_area(cpu),
				 "cpu%d: GS self pointer %p", cpu,
				 seen_self[cpu]);
		bad |= KT_EXPECT(per_cpu_area(cpu)->self == per_cpu_area(cpu),
				 "cpu%d: self field", cpu);
		bad |= KT_EXPECT(per_cpu_area(cpu)->cpu == cpu, "cpu%d: id", cpu);
		for (int o = 0; o < cpu; o++)
			bad |= KT_EXPECT(seen_self[o] != seen_self[cpu],
					 "cpu%d and cpu%d share a per-CPU area",
					 o, cpu);
	}
	return bad;
}

KTEST(lapic_timer_calibration)
{
	u64 hz = arch_timer_hz(), want = arch_timer_expected_hz();
	u64 dev = hz > want ? hz - want : want - hz;
	u64 mhz = arch_cycles_per_us();
	int bad = 0;

	ktap_diag("LAPIC timer %lu Hz, expected %lu Hz, off by %lu ppm",
		  hz, want, dev * 1000000 / want);
	ktap_diag("TSC %lu MHz", mhz);
	bad |= KT_EXPECT(dev * 100 <= want * 5, "LAPIC timer off by over 5%%");
	bad |= KT_EXPECT(mhz >= 100 && mhz <= 20000, "TSC %lu MHz", mhz);
	/* The clock runs forward at that rate: 20 ms of sleep is >= 20 ms. */
	u64 t0 = ktime_get_ns(), c0 = arch_cycles();

	msleep(20);
	u64 dt = ktime_get_ns() - t0, dc = arch_cycles() - c0;

	bad |= KT_EXPECT(dt >= 20 * NSEC_PER_MSEC, "slept %lu ns", dt);
	bad |= KT_EXPECT(dc / mhz >= 20000, "TSC advanced %lu cycles", dc);
	return bad;
}
