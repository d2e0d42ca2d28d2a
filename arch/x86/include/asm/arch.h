/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface: everything kernel/ and rcu/ may ask of the CPU and
 * the platform.  Only arch/x86/ implements it.
 */
#ifndef ARCH_X86_ARCH_H
#define ARCH_X86_ARCH_H

#include "kernel/compiler.h"

struct boot_info;
struct percpu;

/* First thing on the boot CPU: exception handlers, so faults report. */
void arch_early_init(void);
/* Switch to the stack that ends at top and call fn there. */
__noreturn void arch_run_on_stack(void *top, void (*fn)(void));
/* Early boot: parse the boot loader's information into *bi. */
void arch_boot_info(struct boot_info *bi, u64 magic, u64 info_addr);
/* Boot-CPU platform bring-up: tables, traps, APIC, timer calibration. */
void arch_init(struct boot_info *bi);
/* Start every other CPU; each calls cpu_start(cpu) and then never returns. */
void arch_start_secondaries(void);
/*
 * CPU hotplug: bring a parked CPU back through the boot-time path (it
 * calls cpu_start(cpu)); true once it is online.  Park this CPU: IRQs
 * off, halted until the next arch_cpu_up(); never returns.
 */
bool arch_cpu_up(int cpu);
__noreturn void arch_cpu_park(void);
/* CPUs the firmware lists (capped at NR_CPUS): known once arch_init() ran. */
int arch_possible_cpus(void);
/* Point this CPU's per-CPU base at pc: before any per-CPU access. */
void arch_percpu_set_base(struct percpu *pc);
/* Take the boot timestamp that printk's clock counts from. */
void arch_mark_boot_time(void);
/* Per-CPU arch setup, run by every CPU (boot CPU first). */
void arch_cpu_init(struct percpu *pc);

void arch_console_init(void);
void arch_console_putc(char c);
/* Wait until everything written to the console has left the UART. */
void arch_console_flush(void);

/* Leave QEMU through isa-debug-exit: pass -> exit status 33. */
__noreturn void arch_exit(bool pass);
__noreturn void arch_halt_forever(void);
/* Enable interrupts and halt, atomically (sti; hlt). */
void arch_idle_sleep(void);
void arch_cpu_relax(void);

u64 arch_cycles(void);
u64 arch_cycles_to_ns(u64 cycles);
u64 arch_cycles_per_us(void);

/* Interrupt kinds the kernel uses; the arch maps each to a vector. */
enum irq_kind {
	IRQ_TIMER,		/* LAPIC timer: the scheduling-clock tick */
	IRQ_RESCHEDULE,		/* wake a CPU's scheduler */
	IRQ_CALL_FUNC,		/* smp_call_function_single() */
	IRQ_TEST_LOW,		/* test vectors: LOW < TIMER < HIGH priority */
	IRQ_TEST_HIGH,
	IRQ_WORK,		/* a self-IPI: work once IRQs are on */
	NR_IRQ_KINDS,
};
int arch_irq_vector(enum irq_kind kind);

void arch_send_ipi(int cpu, enum irq_kind kind);
void arch_send_nmi(int cpu);
/*
 * An NMI to this CPU whatever its hotplug state, not checked: the tests'
 * stand-in for a sender's NMI that the host delivers late.
 */
void arch_send_nmi_self(void);
/* To every online CPU but this one (preemption off): one IPI if it can. */
void arch_send_ipi_allbutself(enum irq_kind kind);
void arch_eoi(void);

/* Local timer: periodic at hz, one-shot after ns, or off. */
void arch_timer_periodic(unsigned int hz);
void arch_timer_oneshot(u64 ns);
void arch_timer_stop(void);
u64 arch_timer_hz(void);		/* calibrated timer input frequency */
/* The periodic timer's period as the hardware counts it now (0: none). */
u64 arch_timer_period_ns(void);

/* Task stacks and switching. */
void *arch_alloc_stack(size_t *size);	/* with an unmapped guard page */
unsigned long arch_task_stack_init(void *top, void (*entry)(void));
void arch_switch_to(unsigned long *save_ksp, unsigned long new_ksp);

/* Frame-pointer backtrace from a frame pointer, with symbol names. */
void arch_backtrace(unsigned long fp);
/* The same for a task switched out by arch_switch_to(), from its ksp. */
void arch_backtrace_task(unsigned long ksp);
/* For tests: facts about the hardware the kernel runs on. */
u32 arch_cpu_hw_id(void);		/* this CPU's APIC ID, read from it */
int arch_firmware_cpu_count(void);	/* enabled CPUs the firmware lists */
u64 arch_timer_expected_hz(void);	/* what QEMU emulates: 1 GHz / 16 */
bool arch_on_nmi_stack(void);		/* running on this CPU's NMI stack */
void arch_halt_irqs_off(void);		/* hlt with IRQs off: only NMI wakes */

/* Print "  [<addr>] symbol+off" for one code address. */
void arch_print_symbol(unsigned long addr);
bool arch_is_stack_guard(unsigned long addr);
/* The function containing addr, or NULL. */
const char *arch_symbol_name(unsigned long addr);
/* Map an interrupt vector to its enum irq_kind, or -1. */
int arch_vector_kind(int vector);

#endif
