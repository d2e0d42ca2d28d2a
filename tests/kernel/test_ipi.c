// SPDX-License-Identifier: GPL-2.0
/* IPIs between every pair of CPUs, nested interrupts, and NMIs by IPI. */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/time.h"
#include "tests/kernel/util.h"

static volatile int got[NR_CPUS][NR_CPUS];

static void mark_pair(void *arg)
{
	int src = (int)(long)arg;

	got[src][raw_smp_processor_id()] = 1;
}

static void send_to_all(int src, void *arg)
{
	int dst;

	(void)arg;
	for_each_online_cpu(dst)
		if (dst != src)
			smp_call_function_single(dst, mark_pair,
						 (void *)(long)src, true);
}

KTEST(ipi_all_pairs)
{
	int src, dst, bad = 0, pairs = 0;

	run_on_each_cpu(send_to_all, NULL);
	for_each_online_cpu(src)
		for_each_online_cpu(dst) {
			if (src == dst)
				continue;
			pairs++;
			bad |= KT_EXPECT(got[src][dst], "cpu%d -> cpu%d lost",
					 src, dst);
		}
	ktap_diag("%d ordered pairs", pairs);
	return bad;
}

/*
 * ipi_nested: the low-priority test vector's handler re-enables
 * interrupts and sends itself the high-priority vector, whose handler
 * must run nested inside it (hardirq depth 2).
 */
static volatile int high_depth, high_ran, low_depth, low_timed_out;

static void test_high_handler(void)
{
	high_depth = (int)(hardirq_count() >> HARDIRQ_SHIFT);
	high_ran = 1;
}

static void test_low_handler(void)
{
	low_depth = (int)(hardirq_count() >> HARDIRQ_SHIFT);
	local_irq_enable();	/* let a higher priority class in */
	arch_send_ipi(raw_smp_processor_id(), IRQ_TEST_HIGH);
	if (!wait_flag(&high_ran, 1000))
		low_timed_out = 1;
	local_irq_disable();
}

static void nested_from(void *arg)
{
	int target = (int)(long)arg;

	arch_send_ipi(target, IRQ_TEST_LOW);
}

KTEST(ipi_nested)
{
	int cpu, bad = 0;

	request_irq(IRQ_TEST_LOW, test_low_handler);
	request_irq(IRQ_TEST_HIGH, test_high_handler);
	for_each_online_cpu(cpu) {
		u32 before = per_cpu_area(cpu)->stats.max_irq_depth;

		high_ran = high_depth = low_depth = low_timed_out = 0;
		/* Sent from a thread on the next CPU (or itself if alone). */
		run_on_cpu((cpu + 1) % num_online_cpus(), nested_from,
			   (void *)(long)cpu);
		bad |= KT_EXPECT(wait_flag(&high_ran, 2000),
				 "cpu%d: high vector never ran", cpu);
		msleep(2);
		bad |= KT_EXPECT(!low_timed_out, "cpu%d: low handler timed out",
				 cpu);
		bad |= KT_EXPECT(low_depth == 1 && high_depth == 2,
				 "cpu%d: depths %d/%d, expected 1/2", cpu,
				 low_depth, high_depth);
		bad |= KT_EXPECT(per_cpu_area(cpu)->stats.max_irq_depth >= 2,
				 "cpu%d: max depth %u (was %u)", cpu,
				 per_cpu_area(cpu)->stats.max_irq_depth,
				 before);
	}
	ktap_diag("every CPU saw a nested depth of 2");
	request_irq(IRQ_TEST_LOW, NULL);
	request_irq(IRQ_TEST_HIGH, NULL);
	return bad;
}

/*
 * nmi_ipi: an NMI reaches a CPU halted in hlt, both in the idle loop (IRQs
 * on) and halted with IRQs off, where nothing but an NMI can wake it; the
 * handler must find itself on the NMI IST stack, in NMI context.
 */
static volatile int nmi_target = -1, nmi_seen, nmi_on_ist, nmi_in_nmi;

static void test_nmi_handler(void)
{
	if (raw_smp_processor_id() != READ_ONCE(nmi_target))
		return;
	nmi_on_ist = arch_on_nmi_stack();
	nmi_in_nmi = in_nmi();
	WRITE_ONCE(nmi_seen, 1);
}

static volatile int halted_ready, woke_from_halt;

static void halt_irqs_off(void *arg)
{
	(void)arg;
	local_irq_disable();
	WRITE_ONCE(halted_ready, 1);
	while (!READ_ONCE(nmi_seen))	/* hlt; only the NMI breaks it */
		arch_halt_irqs_off();
	woke_from_halt = 1;
	local_irq_enable();
}

static int halt_thread(void *arg)
{
	halt_irqs_off(arg);
	return 0;
}

KTEST(nmi_ipi)
{
	int cpu, bad = 0;

	register_nmi_handler(test_nmi_handler);
	for_each_online_cpu(cpu) {
		for (int irqs_off = 0; irqs_off < 2; irqs_off++) {
			if (cpu == raw_smp_processor_id())
				continue;	/* the sender is not halted */
			nmi_seen = nmi_on_ist = nmi_in_nmi = 0;
			halted_ready = woke_from_halt = 0;
			WRITE_ONCE(nmi_target, cpu);
			if (irqs_off) {
				kthread_run(halt_thread, NULL, cpu, "test-halt");
				bad |= KT_EXPECT(wait_flag(&halted_ready, 2000),
						 "cpu%d: halter never ran", cpu);
			}
			msleep(5);	/* let it reach hlt */
			arch_send_nmi(cpu);
			bad |= KT_EXPECT(wait_flag(&nmi_seen, 2000),
					 "cpu%d: NMI not handled (irqs_off=%d)",
					 cpu, irqs_off);
			bad |= KT_EXPECT(nmi_on_ist && nmi_in_nmi,
					 "cpu%d: NMI on IST %d, in_nmi %d", cpu,
					 nmi_on_ist, nmi_in_nmi);
			if (irqs_off)
				bad |= KT_EXPECT(wait_flag(&woke_from_halt,
							   2000),
						 "cpu%d: never left hlt", cpu);
		}
	}
	WRITE_ONCE(nmi_target, -1);
	unregister_nmi_handler(test_nmi_handler);
	ktap_diag("NMIs handled on the IST stack, IRQs on and off");
	return bad;
}
