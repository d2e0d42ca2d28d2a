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
 * stalls that long inside a window sees the count come round unseen and
 * measures the window 65536 counts short: both rates at least 6.5 times
 * too high (a TSC of 11 GHz was seen at a load average of 20, when most
 * of the seven windows wrapped).  A wrap only ever raises a window's
 * rates, and honest windows agree within a few percent, so the reference
 * is the lowest LAPIC rate that a second window confirms; a window not
 * within a tenth of it is left out, and more windows are taken until
 * WINDOWS are clean (at most MAX_WINDOWS in all).  So is a window whose
 * TSC rate is over the 10 GHz this code accepts at all: when every window
 * wraps, no rate is a reference, but a TSC below 1.5 GHz times 6.5 is.
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
#define MAX_WINDOWS	100
#define TSC_MAX_HZ	10000000000ULL	/* see the bounds at the end */

static u64 tsc_hz;


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

/*
 * The three reads of a sample, taken again while a host stall split them
 * (their TSC span over SAMPLE_MAX_CYCLES: 50 us at 10 GHz, 190 us at the
 * 2.6 GHz seen here), a bounded number of times: a stall between the
 * PIT read and the LAPIC read would skew the window's rates.
 */
#define SAMPLE_MAX_CYCLES	500000
#define SAMPLE_TRIES		100

static void sample(struct sample *s)
{
	for (int i = 0; i < SAMPLE_TRIES; i++) {
		u64 t0 = rdtsc();

		/* Same order at both ends, so the read latencies cancel. */
		s->pit = pit_read();
		s->lapic = lapic_read(LAPIC_TIMER_CCR);
		s->tsc = rdtsc();
		if (s->tsc - t0 < SAMPLE_MAX_CYCLES)
			return;
	}
}

/* One window: rates of the LAPIC timer and TSC in Hz, from PIT ticks. */
static bool pit_window(u64 *lapic_hz, u64 *tsc_hz_out)
{
	u16 window = (u16)(PIT_HZ * WINDOW_MS / 1000);
	struct sample a, b;
	u8 gate = inb(PIT_GATE);

	outb(PIT_GATE, gate & ~0x03);	/* speaker off, gate low */
	outb(PIT_CMD, 0xb0);		/* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, 0xff);
	outb(PIT_CH2, 0xff);
	outb(PIT_GATE, (gate & ~0x02) | 0x01);	/* gate high: count */
	lapic_write(LAPIC_TIMER_ICR, 0xffffffff);
	sample(&a);
	/*
	 * Bounded by the TSC, not by a count of reads: on a loaded host a
	 * read of an emulated device can take tens of microseconds, and ten
	 * million of them outlasted a 40 s harness timeout with no word from
	 * the kernel.  2^33 cycles is at least 0.86 s at the 10 GHz the
	 * bounds below allow; the window is 10 ms.
	 */
	for (;;) {
		sample(&b);
		if ((u16)(a.pit - b.pit) >= window)
			break;
		if (b.tsc - a.tsc > (1ULL << 33)) {
			printk("calibrate: PIT ch2 moved %u of %u counts in %lu TSC cycles\n",
			       (u16)(a.pit - b.pit), window, b.tsc - a.tsc);
			return false;
		}
	}
	lapic_write(LAPIC_TIMER_ICR, 0);
	u64 pit_ticks = (u16)(a.pit - b.pit);

	*lapic_hz = (u64)(a.lapic - b.lapic) * PIT_HZ / pit_ticks;
	*tsc_hz_out = (b.tsc - a.tsc) * PIT_HZ / pit_ticks;
	return true;
}

/* Is a within a tenth of b? */
static bool calib_near(u64 a, u64 b)
{
	return a * 10 <= b * 11 && a * 11 >= b * 10;
}

/*
 * How many of the n windows are clean, with *ref their LAPIC rate: the
 * lowest rate that another window confirms (within a tenth).  Wrapped
 * windows are far above it; a lone low one (a stall inside a sample
 * that got past sample()) is confirmed by nothing.
 */
static int calib_clean(const u64 *lapic, int n, u64 *ref)
{
	int clean = 0;

	*ref = 0;
	for (int i = 0; i < n; i++) {
		int near = 0;

		for (int j = 0; j < n; j++)
			near += j != i && calib_near(lapic[j], lapic[i]);
		if (near && (!*ref || lapic[i] < *ref))
			*ref = lapic[i];
	}
	for (int i = 0; *ref && i < n; i++)
		clean += calib_near(lapic[i], *ref);
	return clean;
}

void lapic_timer_calibrate(void)
{
	/* Static: the boot CPU calibrates once, and 1.6 KB is a lot of stack. */
	static u64 lapic[MAX_WINDOWS], tsc[MAX_WINDOWS];
	u64 ref;
	int n = 0, tries = 0, clean = 0, too_fast = 0;

	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED | VEC_TIMER);
	lapic_write(LAPIC_TIMER_DCR, 0x3);
	while (clean < WINDOWS) {
		if (n + too_fast >= MAX_WINDOWS)
			panic("calibrate: only %d of %d PIT channel 2 windows agree within a tenth (%d too fast: wrapped by a host stall of 55 ms or more)",
			      clean, n + too_fast, too_fast);
		/*
		 * A window in which the count never moved enough is tried
		 * again; each try is bounded (2^33 TSC cycles), and so is
		 * their number.
		 */
		if (!pit_window(&lapic[n], &tsc[n])) {
			if (++tries == 10)
				panic("calibrate: PIT channel 2 never moved a %d ms window",
				      WINDOW_MS);
			continue;
		}
		if (tsc[n] > TSC_MAX_HZ) {
			too_fast++;	/* wrapped: no TSC runs this fast */
			continue;
		}
		clean = calib_clean(lapic, ++n, &ref);
	}
	/* Keep the clean windows only, in place. */
	for (int i = 0, j = 0; i < n; i++) {
		if (!calib_near(lapic[i], ref))
			continue;
		lapic[j] = lapic[i];
		tsc[j++] = tsc[i];
	}
	/* The median rates of the clean ones (n - clean left out). */
	sort_u64(lapic, clean);
	sort_u64(tsc, clean);
	u64 lhz = lapic[clean / 2];

	tsc_hz = tsc[clean / 2];
	/* Bounds: anything outside these is a broken reference. */
	if (lhz < 1000000 || lhz > 10000000000ULL)
		panic("calibrate: LAPIC timer %lu Hz is implausible", lhz);
	/* Above 10 GHz, (tsc_hz - 1) * 1e9 overflows in arch_cycles_to_ns(). */
	if (tsc_hz < 100000000ULL || tsc_hz > TSC_MAX_HZ)
		panic("calibrate: TSC %lu Hz is implausible", tsc_hz);
	lapic_set_timer_freq(lhz);
	printk("calibrate: source PIT ch2 (latched counts), %d x %d ms windows, median; %d wrapped windows left out\n",
	       clean, WINDOW_MS, n - clean + too_fast);
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
