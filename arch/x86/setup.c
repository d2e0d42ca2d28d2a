// SPDX-License-Identifier: GPL-2.0
/* x86 platform bring-up and the small arch_* services. */
#include "arch/x86/acpi.h"
#include "asm/arch.h"
#include "arch/x86/asm.h"
#include "arch/x86/lapic.h"
#include "arch/x86/setup.h"
#include "arch/x86/trap.h"
#include "kernel/boot.h"
#include "kernel/bug.h"
#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

#define DEBUG_EXIT_PORT	0xf4
#define DEBUG_EXIT_PASS	0x10	/* QEMU exits with (0x10 << 1) | 1 = 33 */
#define DEBUG_EXIT_FAIL	0x11	/* QEMU exits with 35 */


void arch_percpu_set_base(struct percpu *pc)
{
	pc->self = pc;
	wrmsr(MSR_GS_BASE, (u64)pc);
}

void arch_early_init(void)
{
	idt_init();
	idt_load();
}

__noreturn void arch_run_on_stack(void *top, void (*fn)(void))
{
	/* rbp = 0 ends backtraces here: the old stack is left for good. */
	__asm__ __volatile__("movq %0, %%rsp\n\t"
			     "xorl %%ebp, %%ebp\n\t"
			     "call *%1\n\t"
			     "ud2"
			     :: "r"(top), "r"(fn) : "memory");
	__builtin_unreachable();
}

void arch_init(struct boot_info *bi)
{
	acpi_init(bi->acpi_rsdp);	/* may read the BIOS data area */
	paging_unmap_null_page();	/* so NULL dereferences fault */
	pic_disable();
	ioapic_init();
	lapic_init_base(acpi_platform.lapic_addr);
	lapic_cpu_init();
	per_cpu_area(0)->apic_id = lapic_id();
	lapic_timer_calibrate();
}

void arch_cpu_init(struct percpu *pc)
{
	gdt_init_cpu(pc->cpu);		/* TSS with the IST stacks */
	idt_use_ist();
	idt_load();
	lapic_cpu_init();
	if (lapic_id() != pc->apic_id)
		panic("cpu%d: LAPIC ID %u, expected %u", pc->cpu, lapic_id(),
		      pc->apic_id);
}

void arch_exit(bool pass)
{
	/* Bounded: the console lock may never be free (see printk.c). */
	printk_flush_nmi_emergency();
	arch_console_flush();
	outl(DEBUG_EXIT_PORT, pass ? DEBUG_EXIT_PASS : DEBUG_EXIT_FAIL);
	/* No isa-debug-exit device: stop here. */
	arch_halt_forever();
}

void arch_halt_forever(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

void arch_idle_sleep(void)
{
	/* sti's one-instruction shadow makes "sti; hlt" atomic: an IRQ
	 * that is already pending wakes the hlt rather than slipping in
	 * between and leaving us asleep. */
	__asm__ __volatile__("sti; hlt" ::: "memory");
}

void arch_cpu_relax(void)
{
	cpu_relax();
}

static const int kind_vector[NR_IRQ_KINDS] = {
	[IRQ_TIMER] = VEC_TIMER,
	[IRQ_RESCHEDULE] = VEC_RESCHEDULE,
	[IRQ_CALL_FUNC] = VEC_CALL_FUNC,
	[IRQ_TEST_LOW] = VEC_TEST_LOW,
	[IRQ_TEST_HIGH] = VEC_TEST_HIGH,
	[IRQ_WORK] = VEC_IRQ_WORK,
};

int arch_irq_vector(enum irq_kind kind)
{
	return kind_vector[kind];
}

int arch_vector_kind(int vector)
{
	for (int k = 0; k < NR_IRQ_KINDS; k++)
		if (kind_vector[k] == vector)
			return k;
	return -1;
}

/*
 * An IPI or NMI to a parked CPU (kernel/hotplug.h) is a sender that did
 * not test cpu_online() with IRQs off: report it, and do not send (the
 * parked CPU would take an NMI in its halt loop, and an IPI would wait
 * in its APIC until the next bring-up's INIT clears it).
 */
static bool ipi_to_parked(int cpu, const char *what)
{
	return WARN(cpu_is_parked(cpu), "%s sent to offline cpu%d", what,
		    cpu);
}

void arch_send_ipi(int cpu, enum irq_kind kind)
{
	if (ipi_to_parked(cpu, "IPI"))
		return;
	/* Fixed delivery, physical destination, edge. */
	lapic_send_icr(per_cpu_area(cpu)->apic_id,
		       ICR_DELIVERY_FIXED | kind_vector[kind]);
}

void arch_send_nmi(int cpu)
{
	if (ipi_to_parked(cpu, "NMI"))
		return;
	lapic_send_icr(per_cpu_area(cpu)->apic_id, ICR_DELIVERY_NMI);
}

void arch_send_nmi_self(void)
{
	lapic_send_icr(this_cpu()->apic_id, ICR_DELIVERY_NMI);
}

/*
 * The all-excluding-self shorthand reaches every CPU in the system,
 * started or not; as Linux does, use it only once every present CPU is
 * online, and until then send one IPI per online CPU.
 */
void arch_send_ipi_allbutself(enum irq_kind kind)
{
	int self = smp_processor_id(), cpu;

	if (num_online_cpus() == nr_cpus_present) {
		lapic_send_icr(0, ICR_DEST_ALLBUT | ICR_DELIVERY_FIXED |
			       kind_vector[kind]);
		return;
	}
	for_each_online_cpu(cpu)
		if (cpu != self)
			arch_send_ipi(cpu, kind);
}

unsigned long arch_task_stack_init(void *top, void (*entry)(void))
{
	/*
	 * What arch_switch_to pops: r15 r14 r13 r12 rbx rbp, then ret.  After
	 * the ret, RSP == top (16-byte aligned), as a call wants.
	 */
	u64 *sp = (u64 *)top;

	*--sp = (u64)task_entry_trampoline;	/* ret target */
	*--sp = 0;				/* rbp */
	*--sp = (u64)entry;			/* rbx: the C entry */
	*--sp = 0;				/* r12 */
	*--sp = 0;				/* r13 */
	*--sp = 0;				/* r14 */
	*--sp = 0;				/* r15 */
	return (unsigned long)sp;
}

u32 arch_cpu_hw_id(void)
{
	return lapic_id();
}

int arch_firmware_cpu_count(void)
{
	return acpi_platform.nr_listed;
}

u64 arch_timer_expected_hz(void)
{
	/* QEMU's (and KVM's) LAPIC timer input is a 1 GHz clock. */
	return 1000000000ULL / TIMER_DIVIDER;
}

bool arch_on_nmi_stack(void)
{
	u64 top = arch_ist_top(raw_smp_processor_id(), IST_NMI);
	u64 sp = (u64)__builtin_frame_address(0);

	return sp < top && sp >= top - IST_STACK_SIZE;
}

void arch_halt_irqs_off(void)
{
	__asm__ __volatile__("hlt" ::: "memory");
}
