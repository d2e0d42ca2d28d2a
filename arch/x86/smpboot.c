// SPDX-License-Identifier: GPL-2.0
/*
 * Application-processor bring-up: copy the trampoline below 1 MiB, then
 * for each enabled CPU in the MADT fill in the bootstrap arguments, send
 * INIT-SIPI-SIPI and wait (bounded) for the AP to say it is alive.  One AP
 * at a time, so one argument block suffices.  CPU hotplug brings a CPU
 * back the same way (arch_cpu_up()): INIT resets a parked CPU whatever
 * it was doing, so the bring-up path is the only way in.
 */
#include "arch/x86/acpi.h"
#include "asm/arch.h"
#include "arch/x86/asm.h"
#include "arch/x86/lapic.h"
#include "kernel/barrier.h"
#include "kernel/boot.h"
#include "kernel/bug.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/string.h"

#define TRAMPOLINE_BASE	0x8000
#define ARGS_OFFSET	0x800		/* ARGS_OFFSET in boot/trampoline.asm */
/*
 * How long an AP may take to answer, and then to come online.  A real AP
 * answers within microseconds; under TCG a loaded host may not run the
 * new vCPU for seconds of guest time (which is host time), so this bounds
 * a host stall, as the tests' HOST_STALL_MS does.
 */
#define AP_TIMEOUT_MS	5000

/* Layout shared with boot/trampoline.asm; see the comment there. */
struct ap_boot_args {
	u64 cr3;		/* +0 */
	u64 stack;		/* +8 */
	u64 entry;		/* +16 */
	u32 cpu;		/* +24 */
	u32 alive;		/* +28: written by ap_entry() */
} __packed;

_Static_assert(sizeof(struct ap_boot_args) == 32, "trampoline args layout");

extern char __trampoline_start[], __trampoline_end[];

static struct ap_boot_args *const ap_args =
	(struct ap_boot_args *)(TRAMPOLINE_BASE + ARGS_OFFSET);


static void delay_us(u64 us)
{
	u64 end = rdtsc() + us * arch_cycles_per_us();

	while (rdtsc() < end)
		cpu_relax();
}

/* The AP's TSC at its handshake, for the BSP's synchronisation check. */
static u64 ap_tsc;

static __noreturn void ap_entry(u32 cpu)
{
	arch_percpu_set_base(per_cpu_area(cpu));
	WRITE_ONCE(ap_tsc, rdtsc());
	/* Handshake: the BSP may reuse the argument block from now on;
	 * release also publishes ap_tsc. */
	smp_store_release(&ap_args->alive, 1);
	cpu_start((int)cpu);
	panic("cpu_start returned on cpu%u", cpu);
}

/*
 * ktime_get_ns() reads the local TSC, so it assumes the TSCs agree.  The
 * AP read its TSC between our two reads (before INIT, after we saw its
 * handshake): if it lies outside that window, the TSCs disagree by more
 * than the window, and we say so rather than let times jump between CPUs.
 */
static int tsc_unsynced;

static void tsc_check(int cpu, u64 before, u64 after)
{
	u64 t = READ_ONCE(ap_tsc);

	if (t >= before && t <= after)
		return;
	tsc_unsynced++;
	printk("tsc: cpu%d's TSC is %ld cycles %s cpu0's bring-up window: TSCs not synchronised, ktime_get_ns() differs between CPUs\n",
	       cpu, t < before ? (long)(before - t) : (long)(t - after),
	       t < before ? "before" : "after");
}

/*
 * Each AP's idle stack, kept for its next life: the old life is over once
 * INIT is sent (a parked CPU halts in a loop that touches no stack).
 */
static void *ap_stacks[NR_CPUS];
static size_t ap_stack_size;

static bool start_ap(int cpu, u32 apic_id)
{
	size_t size = ap_stack_size;
	void *stack = ap_stacks[cpu];
	u64 before = rdtsc();

	if (!stack) {
		stack = ap_stacks[cpu] = arch_alloc_stack(&size);
		ap_stack_size = size;
	}

	ap_args->cr3 = read_cr3();
	ap_args->stack = (u64)stack + size;
	ap_args->entry = (u64)ap_entry;
	ap_args->cpu = (u32)cpu;
	WRITE_ONCE(ap_args->alive, 0);
	per_cpu_area(cpu)->apic_id = apic_id;

	lapic_send_icr(apic_id, ICR_DELIVERY_INIT | ICR_LEVEL_ASSERT |
		       ICR_TRIGGER_LEVEL);
	delay_us(10000);
	for (int i = 0; i < 2; i++) {
		lapic_send_icr(apic_id, ICR_DELIVERY_STARTUP |
			       (TRAMPOLINE_BASE >> 12));
		delay_us(200);
	}
	for (u64 t = 0; t < AP_TIMEOUT_MS * 10; t++) {
		if (smp_load_acquire(&ap_args->alive)) {
			tsc_check(cpu, before, rdtsc());
			return true;
		}
		delay_us(100);
	}
	return false;
}

void arch_start_secondaries(void)
{
	u32 self = lapic_id();
	int cpu = 1;

	memcpy((void *)TRAMPOLINE_BASE, __trampoline_start,
	       __trampoline_end - __trampoline_start);
	for (int i = 0; i < acpi_platform.nr_cpus; i++) {
		u32 id = acpi_platform.apic_ids[i];

		if (id == self)
			continue;
		if (cpu >= NR_CPUS) {
			printk("smp: NR_CPUS=%d reached, APIC %u left off\n",
			       NR_CPUS, id);
			break;
		}
		if (!start_ap(cpu, id))
			panic("smp: AP cpu%d (APIC %u) did not come up within %d ms",
			      cpu, id, AP_TIMEOUT_MS);
		/* Wait for it to be fully online before reusing the block. */
		for (u64 t = 0; !cpu_online(cpu); t++) {
			if (t > AP_TIMEOUT_MS * 10ULL)
				panic("smp: cpu%d (APIC %u) started but never came online",
				      cpu, id);
			delay_us(100);
		}
		cpu++;
	}
	printk("smp: %d application processors started, TSC %s\n", cpu - 1,
	       tsc_unsynced ? "NOT synchronised (see above)" :
	       "synchronised within each bring-up window");
}

/*
 * Bring a parked CPU back: the boot-time path, for one CPU.  The
 * trampoline is still below 1 MiB (nothing else uses that memory).
 * Caller serialises (cpu_up()): one argument block.
 */
bool arch_cpu_up(int cpu)
{
	if (!start_ap(cpu, per_cpu_area(cpu)->apic_id))
		return false;
	for (u64 t = 0; !cpu_online(cpu); t++) {
		if (t > AP_TIMEOUT_MS * 10ULL)
			return false;
		delay_us(100);
	}
	return true;
}

/*
 * The end of a CPU's life: IRQs off, halted.  Only INIT (arch_cpu_up())
 * gets it out; an NMI (which no correct sender sends) would return here.
 */
void arch_cpu_park(void)
{
	arch_halt_forever();	/* cli; hlt, over and over */
}

int arch_possible_cpus(void)
{
	return min(acpi_platform.nr_cpus, NR_CPUS);
}
