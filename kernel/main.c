// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_main: the boot CPU's C entry, and cpu_start(): the one per-CPU
 * init path that the boot CPU and every AP take, at boot and each time
 * CPU hotplug brings an AP back (cpu_up()).
 */
#include "asm/arch.h"
#include "kernel/boot.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/hotplug.h"
#include "kernel/irq.h"
#include "kernel/jump_label.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/softirq.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/trace.h"
#include "rcu/rcupdate.h"


static struct boot_info boot_info;

void cpu_start(int cpu)
{
	struct percpu *pc = per_cpu_area(cpu);

	pc->cpu = cpu;
	arch_cpu_init(pc);		/* GDT/TSS, IDT, local APIC */
	sched_init_cpu(cpu);		/* this context becomes idle/N */
	tick_init_cpu(cpu);		/* periodic scheduling-clock tick */
	rcu_cpu_starting(cpu);		/* RCU waits for it from here */
	/* NMI handlers may read again: RCU watches this CPU (cpu_die()). */
	WRITE_ONCE(pc->nmi_ignore, false);
	set_cpu_online(cpu);
	/*
	 * Release: this CPU's bring-up (its run queue, timers, RCU state)
	 * before ONLINE, which cpu_down() reads before it asks the CPU to
	 * go (kernel/hotplug.c; cpu_up() itself waits for the online bit).
	 */
	smp_store_release(&pc->hp_state, CPUHP_ONLINE);
	softirq_init_cpu(cpu);		/* ksoftirqd/N, in its first life */
	if (cpu == 0)
		watchdog_start();	/* kernel/watchdog.c: stays on CPU 0 */
	printk("cpu%d: online, APIC ID %u\n", cpu, pc->apic_id);
	local_irq_enable();
	cpu_idle_loop();
}

static void kernel_main_late(void);

void kernel_main(u64 magic, u64 mbi)
{
	arch_percpu_set_base(per_cpu_area(0));	/* before any lock */
	arch_early_init();			/* faults are reported */
	arch_mark_boot_time();
	arch_console_init();			/* COM1 */
	printk("dynrcu: booting\n");
	arch_boot_info(&boot_info, magic, mbi);	/* multiboot2 tags */
	if (!cmdline_parse(boot_info.cmdline) || !ktap_check_selection() ||
	    !rcu_select_flavor()) {
		printk("dynrcu: bad kernel command line, stopping\n");
		arch_exit(false);
	}
	mm_init(&boot_info);			/* frame allocator */
	/*
	 * Leave the boot stack, which has no guard page (it sits in .bss
	 * beside the boot page tables), for a guarded one: it becomes
	 * idle/0's stack, so an overflow there is reported too.
	 */
	size_t size;
	char *stack = arch_alloc_stack(&size);

	arch_run_on_stack(stack + size, kernel_main_late);
}

/* Per-CPU memory for every present CPU, before any AP starts. */
static void cpus_prepare(void)
{
	int cpu;

	percpu_setup(arch_possible_cpus());
	for_each_present_cpu(cpu) {
		printk_prepare_cpu(cpu);
		trace_prepare_cpu(cpu);
	}
}

/*
 * The count (the harness checks it against the CPUs it asked QEMU for),
 * the bring-up time, and what each AP cost: its percpu_alloc() memory,
 * its stacks and its threads, as pages taken from the allocator while
 * the APs were prepared and started.
 */
static void cpus_report(u64 ns, size_t pages)
{
	unsigned int aps = num_online_cpus();	/* cpu0 is not online yet */

	printk("smp: brought up %u CPUs in %lu ms; each AP took %lu KiB (%lu bytes of it percpu_alloc())\n",
	       aps + 1, ns / NSEC_PER_MSEC,
	       aps ? (unsigned long)(pages * PAGE_SIZE / aps / 1024) : 0,
	       aps ? (unsigned long)percpu_footprint(aps) : 0);
}

static void kernel_main_late(void)
{
	size_t free0, pages;
	u64 t0;

	arch_init(&boot_info);			/* ACPI, APIC, calibration */
	free0 = mm_free_pages();
	t0 = ktime_get_ns();
	cpus_prepare();				/* per-CPU memory */
	pages = free0 - mm_free_pages();
	sched_init();				/* run queues */
	smp_init();				/* cross-CPU function calls */
	rcu_init();
	ktap_start();				/* queued for cpu0 */
	jump_label_seal();			/* static keys are set */
	free0 = mm_free_pages();
	arch_start_secondaries();		/* INIT-SIPI-SIPI each AP */
	pages += free0 - mm_free_pages();
	cpus_report(ktime_get_ns() - t0, pages);
	cpu_start(0);				/* never returns */
}
