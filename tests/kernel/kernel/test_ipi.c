// SPDX-License-Identifier: GPL-2.0
/* IPIs between pairs of CPUs, broadcast, nested, and NMIs by IPI. */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "tests/kernel/kernel/util.h"

/*
 * Every ordered pair among up to PAIR_CPUS sampled CPUs (all of them on a
 * small machine), each CPU to the next online one (so that every CPU
 * sends and receives), and one broadcast to all.  The pairs are O(N^2):
 * sampled, their cost does not grow with the machine.
 */
#define PAIR_CPUS	16

static int pair_cpus[PAIR_CPUS], nr_pair_cpus;
static u8 got[NR_CPUS][NR_CPUS];	/* [src][dst]: dst ran src's call */
static int broadcast_runs[NR_CPUS];

static void mark_pair(void *arg)
{
	WRITE_ONCE(got[(long)arg][raw_smp_processor_id()], 1);
}

static int next_online(int cpu)
{
	do
		cpu = (cpu + 1) % NR_CPUS;
	while (!cpu_online(cpu));
	return cpu;
}

static void send_pairs(int src, void *arg)
{
	(void)arg;
	for (int i = 0; i < nr_pair_cpus; i++)
		if (pair_cpus[i] != src)
			smp_call_function_single(pair_cpus[i], mark_pair,
						 (void *)(long)src, true);
	/* The ring: to the next online CPU. */
	if (next_online(src) != src)
		smp_call_function_single(next_online(src), mark_pair,
					 (void *)(long)src, true);
}

static void count_broadcast(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&broadcast_runs[raw_smp_processor_id()], 1,
			   __ATOMIC_RELAXED);
}

static void send_broadcast(void *arg)
{
	(void)arg;
	preempt_disable();
	smp_call_function(count_broadcast, NULL, true);
	preempt_enable();
}

KTEST(ipi_all_pairs)
{
	int src, dst, bad = 0, pairs = 0, ring = 0, last = 0;
	bool in_sample[NR_CPUS] = { false };

	memset(got, 0, sizeof(got));
	memset(broadcast_runs, 0, sizeof(broadcast_runs));
	nr_pair_cpus = sample_online_cpus(pair_cpus, PAIR_CPUS, -1);
	ktap_diag_cpus("ipi_all_pairs: every pair among", pair_cpus,
		       nr_pair_cpus);
	for (int i = 0; i < nr_pair_cpus; i++)
		in_sample[pair_cpus[i]] = true;
	run_on_each_cpu(send_pairs, NULL);
	for_each_online_cpu(src)
		for_each_online_cpu(dst) {
			bool want = (in_sample[src] && in_sample[dst]) ||
				    dst == next_online(src);

			if (src == dst || !want)
				continue;
			pairs += in_sample[src] && in_sample[dst];
			ring += dst == next_online(src);
			bad |= KT_EXPECT(READ_ONCE(got[src][dst]),
					 "cpu%d -> cpu%d lost", src, dst);
		}
	for_each_online_cpu(src)
		last = src;
	/* The broadcast, sent from the last CPU (CPU 0 is the usual sender). */
	run_on_cpu(last, send_broadcast, NULL);
	for_each_online_cpu(dst)
		bad |= KT_EXPECT(READ_ONCE(broadcast_runs[dst]) ==
				 (dst != last),
				 "broadcast from cpu%d ran %d times on cpu%d",
				 last, broadcast_runs[dst], dst);
	ktap_diag("%d ordered pairs, %d ring IPIs, one broadcast to %u CPUs (%s)",
		  pairs, ring, num_online_cpus() - 1,
		  num_online_cpus() == nr_cpus_present ?
		  "all-but-self shorthand" : "one IPI each");
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
	if (!wait_flag(&high_ran, HOST_STALL_MS))
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
		bad |= KT_EXPECT(wait_flag(&high_ran, HOST_STALL_MS),
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
				bad |= KT_EXPECT(wait_flag(&halted_ready,
							   HOST_STALL_MS),
						 "cpu%d: halter never ran", cpu);
			}
			msleep(5);	/* let it reach hlt */
			arch_send_nmi(cpu);
			bad |= KT_EXPECT(wait_flag(&nmi_seen, HOST_STALL_MS),
					 "cpu%d: NMI not handled (irqs_off=%d)",
					 cpu, irqs_off);
			bad |= KT_EXPECT(nmi_on_ist && nmi_in_nmi,
					 "cpu%d: NMI on IST %d, in_nmi %d", cpu,
					 nmi_on_ist, nmi_in_nmi);
			if (irqs_off)
				bad |= KT_EXPECT(wait_flag(&woke_from_halt,
							   HOST_STALL_MS),
						 "cpu%d: never left hlt", cpu);
		}
	}
	WRITE_ONCE(nmi_target, -1);
	unregister_nmi_handler(test_nmi_handler);
	ktap_diag("NMIs handled on the IST stack, IRQs on and off");
	return bad;
}
