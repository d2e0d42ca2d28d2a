// SPDX-License-Identifier: GPL-2.0
/*
 * Calibrate the LAPIC timer and the TSC against PIT channel 2.  The PIT
 * counts a fixed 1.193182 MHz; gating channel 2 through port 0x61 gives a
 * one-shot window whose end we poll on OUT2, with no interrupts involved.
 * Several 10 ms windows, with the LAPIC timer masked and counting down
 * from the top; the median of each rate is taken, so one window stretched
 * by a host that descheduled the vCPU does not skew the result.
 */
#include "arch/x86/arch.h"
#include "arch/x86/asm.h"
#include "arch/x86/lapic.h"
#include "arch/x86/trap.h"
#include "kernel/bug.h"
#include "kernel/printk.h"

#define PIT_HZ		1193182ULL
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PIT_GATE	0x61
#define WINDOW_MS	10
#define WINDOWS		7

static u64 tsc_hz;

void lapic_set_timer_freq(u64 hz);

static void sort_u64(u64 *a, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
			u64 t = a[j];

			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

/* One window: returns LAPIC ticks and TSC cycles elapsed over it. */
static bool pit_window(u64 *lapic_ticks, u64 *tsc_cycles)
{
	u16 count = (u16)(PIT_HZ * WINDOW_MS / 1000);
	u8 gate = inb(PIT_GATE);

	outb(PIT_GATE, (gate & ~0x02) & ~0x01);	/* speaker off, gate low */
	outb(PIT_CMD, 0xb0);	/* channel 2, lobyte/hibyte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);

	lapic_write(LAPIC_TIMER_ICR, 0xffffffff);
	u64 t0 = rdtsc();
	u32 c0 = lapic_read(LAPIC_TIMER_CCR);

	outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) | 0x01);	/* gate high: go */
	/* OUT2 (bit 5) rises when the count expires.  Bounded wait. */
	for (u64 i = 0; !(inb(PIT_GATE) & 0x20); i++)
		if (i > 100000000ULL)
			return false;
	u32 c1 = lapic_read(LAPIC_TIMER_CCR);
	u64 t1 = rdtsc();

	lapic_write(LAPIC_TIMER_ICR, 0);
	*lapic_ticks = c0 - c1;
	*tsc_cycles = t1 - t0;
	return true;
}

void lapic_timer_calibrate(void)
{
	u64 lapic[WINDOWS], tsc[WINDOWS];

	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | VEC_TIMER);
	lapic_write(LAPIC_TIMER_DCR, 0x3);
	for (int i = 0; i < WINDOWS; i++)
		if (!pit_window(&lapic[i], &tsc[i]))
			panic("calibrate: PIT channel 2 never expired");
	sort_u64(lapic, WINDOWS);
	sort_u64(tsc, WINDOWS);
	u64 lhz = lapic[WINDOWS / 2] * 1000 / WINDOW_MS;

	tsc_hz = tsc[WINDOWS / 2] * 1000 / WINDOW_MS;
	/* Bounds: anything outside these is a broken reference. */
	if (lhz < 1000000 || lhz > 10000000000ULL)
		panic("calibrate: LAPIC timer %lu Hz is implausible", lhz);
	if (tsc_hz < 100000000ULL || tsc_hz > 20000000000ULL)
		panic("calibrate: TSC %lu Hz is implausible", tsc_hz);
	lapic_set_timer_freq(lhz);
	printk("calibrate: source PIT ch2, %d x %d ms windows (median)\n",
	       WINDOWS, WINDOW_MS);
	printk("calibrate: LAPIC timer %lu.%03lu MHz (divider %d), TSC %lu.%03lu MHz\n",
	       lhz / 1000000, lhz / 1000 % 1000, TIMER_DIVIDER,
	       tsc_hz / 1000000, tsc_hz / 1000 % 1000);
}

u64 arch_cycles(void)
{
	return rdtsc();
}

u64 arch_cycles_per_us(void)
{
	return tsc_hz / 1000000;
}

static u64 tsc_boot;

void tsc_mark_boot(void)
{
	tsc_boot = rdtsc();
}

u64 arch_cycles_to_ns(u64 cycles)
{
	if (!tsc_hz)
		return 0;
	/* Split to avoid overflow: cycles * 1e9 overflows after ~18 s. */
	return cycles / tsc_hz * 1000000000ULL +
	       cycles % tsc_hz * 1000000000ULL / tsc_hz;
}

u64 ktime_get_ns(void)
{
	return arch_cycles_to_ns(rdtsc() - tsc_boot);
}

u64 get_cycles(void)
{
	return rdtsc();
}
