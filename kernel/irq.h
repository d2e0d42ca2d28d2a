/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interrupt core.  Every device interrupt and IPI runs between
 * irq_enter() and irq_exit(); the NMI handler between nmi_enter() and
 * nmi_exit().  RCU's dynticks hooks sit outside the hardirq count: see
 * the comments in irq.c.
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include "asm/arch.h"

typedef void (*irq_handler_t)(void);

void irq_enter(void);
void irq_exit(void);
void nmi_enter(void);
void nmi_exit(void);

void request_irq(enum irq_kind kind, irq_handler_t handler);
/* Up to NR_NMI_HANDLERS; each is called on every NMI. */
#define NR_NMI_HANDLERS	4
void register_nmi_handler(void (*fn)(void));
void unregister_nmi_handler(void (*fn)(void));

/* Called by the arch trap code. */
void handle_irq(int kind, bool interrupted_irqs_on);
void handle_nmi(void);

/* Run fn(arg) on cpu in hardirq context; wait for it if wait. */
void smp_call_function(void (*fn)(void *), void *arg, bool wait);
/* Run this CPU's queued calls now (a dying CPU, before it parks). */
void smp_call_drain(void);
/* 0, or -ENXIO if cpu is offline (fn not run, not queued). */
int smp_call_function_single(int cpu, void (*fn)(void *), void *arg,
			     bool wait);

/* Boot CPU: the SMP call-function machinery, before other CPUs start. */
void smp_init(void);

#endif
