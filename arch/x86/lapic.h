/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Local APIC accessors.  All LAPIC access goes through lapic_read() and
 * lapic_write() so that x2APIC (MSRs) could replace xAPIC MMIO later
 * behind the same functions.  TCG has no x2APIC, so xAPIC it is.
 */
#ifndef ARCH_X86_LAPIC_H
#define ARCH_X86_LAPIC_H

#include "kernel/types.h"

#define LAPIC_ID	0x020
#define LAPIC_VERSION	0x030
#define LAPIC_TPR	0x080
#define LAPIC_PPR	0x0a0
#define LAPIC_EOI	0x0b0
#define LAPIC_SVR	0x0f0
#define LAPIC_ISR	0x100
#define LAPIC_ESR	0x280
#define LAPIC_ICR_LO	0x300
#define LAPIC_ICR_HI	0x310
#define LAPIC_LVT_TIMER	0x320
#define LAPIC_LVT_LINT0	0x350
#define LAPIC_LVT_LINT1	0x360
#define LAPIC_LVT_ERR	0x370
#define LAPIC_TIMER_ICR	0x380
#define LAPIC_TIMER_CCR	0x390
#define LAPIC_TIMER_DCR	0x3e0

#define LVT_MASKED		(1U << 16)
#define LVT_TIMER_PERIODIC	(1U << 17)
#define ICR_DELIVERY_FIXED	(0U << 8)
#define ICR_DELIVERY_NMI	(4U << 8)
#define ICR_DELIVERY_INIT	(5U << 8)
#define ICR_DELIVERY_STARTUP	(6U << 8)
#define ICR_LEVEL_ASSERT	(1U << 14)
#define ICR_TRIGGER_LEVEL	(1U << 15)
#define ICR_SEND_PENDING	(1U << 12)
#define ICR_DEST_SELF		(1U << 18)
#define ICR_DEST_ALLBUT		(3U << 18)	/* all excluding self */
#define TIMER_DIVIDER		16	/* DCR value 0x3 */

void lapic_init_base(u64 phys);
u32 lapic_read(u32 reg);
void lapic_write(u32 reg, u32 v);
u32 lapic_id(void);
void lapic_cpu_init(void);
void lapic_eoi(void);
/* Send to a physical APIC ID; waits (bounded) for the ICR to be idle. */
void lapic_send_icr(u32 apic_id, u32 low);
void lapic_timer_calibrate(void);
/* Record the calibrated timer input frequency (calibrate.c). */
void lapic_set_timer_freq(u64 hz);

#endif
