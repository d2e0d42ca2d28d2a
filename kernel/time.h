/* SPDX-License-Identifier: GPL-2.0 */
/* Time: a monotonic nanosecond clock (from the arch cycle counter). */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "kernel/types.h"

#define NSEC_PER_USEC	1000UL
#define NSEC_PER_MSEC	1000000UL
#define NSEC_PER_SEC	1000000000UL

/* Nanoseconds since boot; consistent across CPUs. */
u64 ktime_get_ns(void);
/* Scheduling-clock frequency, from the hz= option (default 1000). */
extern unsigned int tick_hz;
/* Cheap raw cycle counter for benchmarks. */
u64 get_cycles(void);

#endif
