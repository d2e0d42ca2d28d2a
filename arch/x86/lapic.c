// SPDX-License-Identifier: GPL-2.0
/* Local APIC: the accessor layer, per-CPU setup, EOI, IPIs and the timer. */
#include "asm/arch.h"
#include "arch/x86/asm.h"
#include "asm/irqflags.h"
#include "arch/x86/lapic.h"
#include "arch/x86/trap.h"
#include "kernel/bug.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sort.h"
#include "kernel/time.h"

static volatile u32 *lapic_mmio;
/* Timer input ticks per second at our divider (set by calibration). */
static u64 lapic_timer_freq;

void lapic_init_base(u64 phys)
{
	/* The boot page tables map the top GiB uncached, 1:1. */
	lapic_mmio = (volatile u32 *)phys;
}

u32 lapic_read(u32 reg)
{
	return lapic_mmio[reg / 4];
}

void lapic_write(u32 reg, u32 v)
{
	lapic_mmio[reg / 4] = v;
}

u32 lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

void lapic_cpu_init(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	/*
	 * Firmware that left x2APIC on (EN and EXTD set): going straight to
	 * xAPIC (EXTD clear, EN set) is an illegal transition and #GPs.
	 * The legal path is through disabled (both clear), which resets the
	 * APIC's state; we program all of it below anyway.
	 */
	if (base & APIC_BASE_EXTD) {
		printk("lapic: firmware left x2APIC on: disabling, then xAPIC\n");
		base &= ~(APIC_BASE_EN | APIC_BASE_EXTD);
		wrmsr(MSR_APIC_BASE, base);
	}
	/* Global enable, in xAPIC mode (EXTD clear). */
	wrmsr(MSR_APIC_BASE, (base | APIC_BASE_EN) & ~APIC_BASE_EXTD);
	lapic_write(LAPIC_SVR, 0x100 | VEC_SPURIOUS);	/* software enable */
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | VEC_TIMER);
	lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, LVT_MASKED);
	lapic_write(LAPIC_LVT_ERR, LVT_MASKED);
	lapic_write(LAPIC_TIMER_DCR, 0x3);		/* divide by 16 */
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_TPR, 0);			/* accept every class */
	lapic_eoi();
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

void arch_eoi(void)
{
	lapic_eoi();
}

/*
 * Never from NMI context: an NMI that lands between our two ICR writes
 * and sends an IPI of its own would leave ICR_HI naming its destination
 * when we write ICR_LO (x2APIC's single 64-bit ICR write has no such
 * window; xAPIC's two 32-bit halves do).  Disabling IRQs covers
 * interrupts only.
 */
void lapic_send_icr(u32 apic_id, u32 low)
{
	BUG_ON(in_nmi() || this_cpu_read(nmi_path));
	unsigned long flags = arch_local_irq_save();

	lapic_write(LAPIC_ICR_HI, apic_id << 24);
	lapic_write(LAPIC_ICR_LO, low);
	/* Bounded: a wedged ICR is a bug to report, not to hang on. */
	for (int i = 0; lapic_read(LAPIC_ICR_LO) & ICR_SEND_PENDING; i++) {
		if (i > 10000000)
			panic("lapic: IPI to APIC %u stuck pending", apic_id);
		cpu_relax();
	}
	arch_local_irq_restore(flags);
}

void lapic_set_timer_freq(u64 hz)
{
	lapic_timer_freq = hz;
}

u64 arch_timer_hz(void)
{
	return lapic_timer_freq;
}

void arch_timer_periodic(unsigned int hz)
{
	/*
	 * Stop the count before the mode changes: the initial count may
	 * still be a one-shot's, as small as 1, and between the LVT write
	 * and the count write QEMU would run a periodic timer of (1 + 1) *
	 * 16 ns.  Its main loop then delivers that timer forever, behind
	 * and never catching up, with the big lock held: the vCPU never
	 * gets to write the real count and the guest freezes silently
	 * (seen in an 8-CPU torture soak, QEMU 7.2 TCG, main thread in
	 * apic_timer() for minutes).  With a zero count no timer runs.
	 */
	lapic_write(LAPIC_TIMER_ICR, 0);
	lapic_write(LAPIC_LVT_TIMER, LVT_TIMER_PERIODIC | VEC_TIMER);
	lapic_write(LAPIC_TIMER_ICR, (u32)(lapic_timer_freq / hz));
}

/*
 * The periodic timer's period as the hardware counts it, timed with the
 * TSC, IRQs off: the median of up to PERIOD_INTERVALS intervals between
 * reloads of the current count.  A reload is a read that finds the count
 * higher than the read before.  Two rules keep a host that stalls this
 * vCPU from faking an interval:
 *  - a reload is timed only if the reads around it are less than a tenth
 *    of the programmed period apart (the timestamp is that precise);
 *  - the chain from one timed reload to the next breaks at any gap of
 *    half a period or more between reads: only a gap longer than a period
 *    can hide a reload (the count wraps back below the last read), which
 *    would time two periods as one.
 * Both clocks are guest time, so the answer does not depend on how often
 * the host runs this vCPU, only on finding stretches it ran.  0 if the
 * timer is stopped, or no interval was seen in PERIOD_WINDOW_NS.
 */
#define PERIOD_WINDOW_NS	(500 * NSEC_PER_MSEC)
#define PERIOD_INTERVALS	15

u64 arch_timer_period_ns(void)
{
	unsigned long flags = arch_local_irq_save();
	u64 per_us = arch_cycles_per_us();
	u32 icr = lapic_read(LAPIC_TIMER_ICR);
	u64 nominal = icr && lapic_timer_freq ?
		mul_u64_div_u64(icr, NSEC_PER_SEC, lapic_timer_freq) *
		per_us / NSEC_PER_USEC : 0;	/* in TSC cycles */
	u64 t_prev = rdtsc(), end = t_prev + PERIOD_WINDOW_NS / 1000 * per_us;
	u64 iv[PERIOD_INTERVALS], last = 0;
	u32 prev = lapic_read(LAPIC_TIMER_CCR);
	int n = 0;

	while (nominal && n < PERIOD_INTERVALS) {
		u64 t_a = rdtsc();
		u32 cur = lapic_read(LAPIC_TIMER_CCR);
		u64 t_b = rdtsc();

		if (t_b > end)
			break;
		if (t_b - t_prev >= nominal / 2) {
			last = 0;	/* a reload may have gone unseen */
		} else if (cur > prev) {
			/* Reloaded between the last read and this one. */
			if (t_b - t_prev >= nominal / 10) {
				last = 0;	/* too vague to time */
			} else {
				if (last)
					iv[n++] = t_b - last;
				last = t_b;
			}
		}
		prev = cur;
		t_prev = t_a;
	}
	arch_local_irq_restore(flags);
	if (!n)
		return 0;
	sort_u64(iv, n);
	return arch_cycles_to_ns(iv[n / 2]);
}

void arch_timer_oneshot(u64 ns)
{
	u64 count;

	/*
	 * The 32-bit count tops out at 68 s at 62.5 MHz (an msleep() of
	 * minutes would ask for more): fire early instead, and the timer
	 * code finds nothing due and programs the rest.  The split
	 * multiplication holds up to the 10 GHz calibration accepts (ns *
	 * freq itself overflowed past 295 s at 62.5 MHz, and past 1.8 s at
	 * 10 GHz).
	 */
	if (ns > 60ULL * NSEC_PER_SEC)
		ns = 60ULL * NSEC_PER_SEC;
	count = mul_u64_div_u64(ns, lapic_timer_freq, NSEC_PER_SEC);

	if (count == 0)
		count = 1;
	if (count > 0xffffffffULL)
		count = 0xffffffffULL;
	lapic_write(LAPIC_LVT_TIMER, VEC_TIMER);	/* one-shot, unmasked */
	lapic_write(LAPIC_TIMER_ICR, (u32)count);
}

void arch_timer_stop(void)
{
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | VEC_TIMER);
	lapic_write(LAPIC_TIMER_ICR, 0);	/* a zero count stops it */
}
