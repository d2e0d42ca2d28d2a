/* SPDX-License-Identifier: GPL-2.0 */
/* Time: a monotonic nanosecond clock (from the arch cycle counter). */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "kernel/types.h"

#define NSEC_PER_USEC	1000UL
#define NSEC_PER_MSEC	1000000UL
#define NSEC_PER_SEC	1000000000UL

/*
 * a * mul / div without a 128-bit product: (a / div) * mul + (a % div) *
 * mul / div.  Exact when neither term overflows, that is while
 * (div - 1) * mul and (a / div) * mul stay below 2^64.  The time
 * conversions keep to that by bounding their frequencies (calibration
 * rejects a TSC above 10 GHz or a LAPIC timer above 10 GHz) and their
 * spans (a one-shot timer is at most 60 s); tests/host checks the edges.
 */
static inline u64 mul_u64_div_u64(u64 a, u64 mul, u64 div)
{
	return a / div * mul + a % div * mul / div;
}

/* Nanoseconds since boot; consistent across CPUs. */
u64 ktime_get_ns(void);
/* Scheduling-clock frequency, from the hz= option (default 1000). */
extern unsigned int tick_hz;
/* Cheap raw cycle counter for benchmarks. */
u64 get_cycles(void);

#endif
