// SPDX-License-Identifier: GPL-2.0
/*
 * Calibrate the LAPIC timer and the TSC against PIT channel 2, which
 * counts a fixed 1.193182 MHz.  Channel 2 is gated through port 0x61 and
 * counts down from 0xffff with no interrupt.  Each window samples the
 * PIT count (latched), the LAPIC current count and the TSC back to back at
 * its start and its end, so the rates are ratios of counts read together:
 * the time it takes to notice the end of the window (an I/O exit under
 * emulation, or a descheduled vCPU) cancels out.  The LAPIC timer is
 * masked throughout.  Several windows of at least 10 ms; the median of
 * each rate is kept, so one window disturbed between two reads is outvoted.
 *
 * Channel 2 wraps every 55 ms (65536 counts), so a vCPU that the host
 * stalls that long between two reads sees the count come round and
 * measures a window short by 65536 counts: a TSC four to seven times too
 * fast (11 GHz was seen at a load average of 20).  Such a stall is one gap
 * between two consecutive reads that holds most of the window, so a
 * window where any one gap holds half of it or more is tried again.
 */
#include "asm/arch.h"
#include "arch/x86/asm.h"
#include "arch/x86/lapic.h"
#include "arch/x86/trap.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/sort.h"
#include "kernel/time.h"

#define PIT_HZ		1193182ULL
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PIT_GATE	0x61
#define WINDOW_MS	10
#define WINDOWS		7

static u64 tsc_hz;
static unsigned int calib_stalled_windows;	/* tried again: a host stall */


static u16 pit_read(void)
{
	outb(PIT_CMD, 0x80);		/* latch channel 2's count */
	u8 lo = inb(PIT_CH2);

	return (u16)(lo | (inb(PIT_CH2) << 8));
}

struct sample {
	u16 pit;
	u32 lapic;
	u64 tsc;
};

static void sample(struct sample *s)
{
	/* Same order at both ends, so the read latencies cancel. */
	s->pit = pit_read();
	s->lapic = lapic_read(LAPIC_TIMER_CCR);
	s->tsc = rdtsc();
}

/*
 * One window: rates of the LAPIC timer and TSC in Hz, from PIT ticks.
 * False if the PIT did not move, or if one gap between reads held half the
 * window or more (the count may have wrapped unseen in it).
 */
static bool pit_window(u64 *lapic_hz, u64 *tsc_hz_out)
{
	u16 window = (u16)(PIT_HZ * WINDOW_MS / 1000);
	struct sample a, b;
	u64 prev_tsc, max_gap = 0;
	u8 gate = inb(PIT_GATE);

	outb(PIT_GATE, gate & ~0x03);	/* speaker off, gate low */
	outb(PIT_CMD, 0xb0);		/* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, 0xff);
	outb(PIT_CH2, 0xff);
	outb(PIT_GATE, (gate & ~0x02) | 0x01);	/* gate high: count */
	lapic_write(LAPIC_TIMER_ICR, 0xffffffff);
	sample(&a);
	prev_tsc = a.tsc;
	/*
	 * Bounded by the TSC, not by a count of reads: on a loaded host a
	 * read of an emulated device can take tens of microseconds, and ten
	 * million of them outlasted a 40 s harness timeout with no word from
	 * the kernel.  2^33 cycles is at least 0.86 s at the 10 GHz the
	 * bounds below allow; the window is 10 ms.
	 */
	for (;;) {
		sample(&b);
		if (b.tsc - prev_tsc > max_gap)
			max_gap = b.tsc - prev_tsc;
		prev_tsc = b.tsc;
		if ((u16)(a.pit - b.pit) >= window)
			break;
		if (b.tsc - a.tsc > (1ULL << 33)) {
			printk("calibrate: PIT ch2 moved %u of %u counts in %lu TSC cycles\n",
			       (u16)(a.pit - b.pit), window, b.tsc - a.tsc);
			return false;
		}
	}
	lapic_write(LAPIC_TIMER_ICR, 0);
	/*
	 * The loop ends at the first read past the window, so a missed wrap
	 * means one gap of at least 65536 - window counts in a window of at
	 * most 65536 + window: 69% of it.  An honest window has its gaps
	 * far below half (microsecond reads), unless the host stalled it.
	 */
	if (max_gap * 2 >= b.tsc - a.tsc) {
		calib_stalled_windows++;
		return false;
	}
	u64 pit_ticks = (u16)(a.pit - b.pit);

	*lapic_hz = (u64)(a.lapic - b.lapic) * PIT_HZ / pit_ticks;
	*tsc_hz_out = (b.tsc - a.tsc) * PIT_HZ / pit_ticks;
	return true;
}

void lapic_timer_calibrate(void)
{
	u64 lapic[WINDOWS], tsc[WINDOWS];

	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | VEC_TIMER);
	lapic_write(LAPIC_TIMER_DCR, 0x3);
	for (int i = 0; i < WINDOWS; i++) {
		int tries = 0;

		/*
		 * A window the host stalled is tried again; each try is
		 * bounded (2^33 TSC cycles), and so is their number.
		 */
		while (!pit_window(&lapic[i], &tsc[i]))
			if (++tries == 20)
				panic("calibrate: no clean %d ms PIT channel 2 window in %d tries (%u stalled by the host)",
				      WINDOW_MS, tries, calib_stalled_windows);
	}
	sort_u64(lapic, WINDOWS);
	sort_u64(tsc, WINDOWS);
	u64 lhz = lapic[WINDOWS / 2];

	tsc_hz = tsc[WINDOWS / 2];
	/* Bounds: anything outside these is a broken reference. */
	if (lhz < 1000000 || lhz > 10000000000ULL)
		panic("calibrate: LAPIC timer %lu Hz is implausible", lhz);
	/* Above 10 GHz, (tsc_hz - 1) * 1e9 overflows in arch_cycles_to_ns(). */
	if (tsc_hz < 100000000ULL || tsc_hz > 10000000000ULL)
		panic("calibrate: TSC %lu Hz is implausible", tsc_hz);
	lapic_set_timer_freq(lhz);
	printk("calibrate: source PIT ch2 (latched counts), %d x %d ms windows, median; %u stalled windows tried again\n",
	       WINDOWS, WINDOW_MS, calib_stalled_windows);
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

void arch_mark_boot_time(void)
{
	tsc_boot = rdtsc();
}

u64 arch_cycles_to_ns(u64 cycles)
{
	if (!tsc_hz)
		return 0;
	/* cycles * 1e9 would overflow after ~18 s: split it. */
	return mul_u64_div_u64(cycles, NSEC_PER_SEC, tsc_hz);
}

u64 ktime_get_ns(void)
{
	return arch_cycles_to_ns(rdtsc() - tsc_boot);
}

u64 get_cycles(void)
{
	return rdtsc();
}
