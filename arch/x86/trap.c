// SPDX-License-Identifier: GPL-2.0
/*
 * The IDT and trap dispatch.  Exceptions are fatal: one report (vector,
 * error code, RIP/CS/RFLAGS/RSP, CR2 for a page fault, the general
 * registers, a backtrace), then QEMU exits with the fail status.  NMIs
 * and interrupts go to the arch-neutral handlers in kernel/irq.c.
 */
#include "asm/arch.h"
#include "arch/x86/asm.h"
#include "asm/irqflags.h"
#include "arch/x86/lapic.h"
#include "arch/x86/trap.h"
#include "kernel/irq.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

struct idt_entry {
	u16 off_lo;
	u16 sel;
	u8 ist;
	u8 type;
	u16 off_mid;
	u32 off_hi;
	u32 zero;
} __packed;

static struct idt_entry idt[256] __aligned(16);
extern const u64 trap_entry_table[256];

static const char *const exc_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range", "invalid opcode", "device not available",
	"double fault", "coprocessor overrun", "invalid TSS",
	"segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 FP", "alignment check",
	"machine check", "SIMD FP", "virtualization", "control protection",
};

static void set_gate(int v, int ist)
{
	u64 off = trap_entry_table[v];

	idt[v].off_lo = (u16)off;
	idt[v].sel = 0x08;
	idt[v].ist = (u8)ist;
	idt[v].type = 0x8e;	/* present, DPL 0, 64-bit interrupt gate */
	idt[v].off_mid = (u16)(off >> 16);
	idt[v].off_hi = (u32)(off >> 32);
	idt[v].zero = 0;
}

/*
 * Built and loaded first thing in kernel_main(), so that a fault in early
 * boot is reported rather than triple-faulting.  No gate uses an IST
 * stack yet: there is no TSS to hold them until gdt_init_cpu().
 */
void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, 0);
}

/*
 * Once this CPU's TSS holds its IST stacks.  NMI, #DF and #MC can arrive
 * on a broken or half-switched stack, so they get stacks of their own.
 * #PF too: a kernel-stack overflow faults on the guard page, and the CPU
 * could not push the #PF frame onto the overflowed stack.  The IDT is
 * shared: the boot CPU sets these before any AP starts, and every AP
 * loads its TSS before it loads the IDT.
 */
void idt_use_ist(void)
{
	set_gate(VEC_NMI, IST_NMI);
	set_gate(VEC_DF, IST_DF);
	set_gate(VEC_MC, IST_MC);
	set_gate(VEC_PF, IST_PF);
}

void idt_load(void)
{
	struct {
		u16 limit;
		u64 base;
	} __packed ptr = { sizeof(idt) - 1, (u64)idt };

	__asm__ __volatile__("lidt %0" :: "m"(ptr));
}

static void report(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_emergency_write(buf);
}

static __noreturn void exception_report(struct trap_frame *f)
{
	const char *name = f->vector < 32 && exc_names[f->vector] ?
			   exc_names[f->vector] : "unknown";

	__asm__ __volatile__("cli");
	report("\n!!! EXCEPTION: %s (vector %u) on cpu%d\n", name,
	       (unsigned int)f->vector, raw_smp_processor_id());
	report("error %lx  RIP %lx  CS %lx  RFLAGS %lx  RSP %lx\n",
	       f->error, f->rip, f->cs, f->rflags, f->rsp);
	if (f->vector == VEC_PF) {
		u64 cr2 = read_cr2();

		report("CR2 %lx (%s, %s)%s\n", cr2,
		       f->error & 1 ? "protection" : "not present",
		       f->error & 2 ? "write" : "read",
		       arch_is_stack_guard(cr2) ?
		       " -- kernel stack overflow: guard page hit" :
		       cr2 < PAGE_SIZE ? " -- NULL pointer dereference" : "");
	}
	report("RAX %016lx RBX %016lx RCX %016lx RDX %016lx\n",
	       f->rax, f->rbx, f->rcx, f->rdx);
	report("RSI %016lx RDI %016lx RBP %016lx R8  %016lx\n",
	       f->rsi, f->rdi, f->rbp, f->r8);
	report("R9  %016lx R10 %016lx R11 %016lx R12 %016lx\n",
	       f->r9, f->r10, f->r11, f->r12);
	report("R13 %016lx R14 %016lx R15 %016lx\n", f->r13, f->r14, f->r15);
	report("Backtrace:\n");
	arch_print_symbol(f->rip);
	arch_backtrace(f->rbp);
	report("---[ end trace ]---\n");
	arch_exit(false);
}

void trap_dispatch(struct trap_frame *f)
{
	u64 v = f->vector;

	if (v == VEC_NMI) {
		this_cpu()->nmi_interrupted_ip = f->rip;
		this_cpu()->nmi_interrupted_fp = f->rbp;
		handle_nmi();
		return;
	}
	if (v < 32)
		exception_report(f);
	if (v == VEC_SPURIOUS)
		return;		/* no EOI for the spurious vector */
	this_cpu()->stats.irq_by_vector[v]++;
	int kind = arch_vector_kind((int)v);

	if (kind < 0) {
		printk("unexpected interrupt vector %u\n", (unsigned int)v);
		lapic_eoi();
		return;
	}
	handle_irq(kind, (f->rflags & X86_RFLAGS_IF) != 0);
}
