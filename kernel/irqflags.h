/* SPDX-License-Identifier: GPL-2.0 */
/* Local interrupt enable/disable: a thin layer over the arch. */
#ifndef KERNEL_IRQFLAGS_H
#define KERNEL_IRQFLAGS_H

#include "asm/irqflags.h"

#define local_irq_disable()		arch_local_irq_disable()
#define local_irq_enable()		arch_local_irq_enable()
#define local_irq_save(flags)		((flags) = arch_local_irq_save())
#define local_irq_restore(flags)	arch_local_irq_restore(flags)
#define irqs_disabled()			arch_irqs_disabled()
/* Were interrupts off when local_irq_save() saved flags? */
#define irqs_disabled_flags(flags)	arch_irqs_disabled_flags(flags)

#endif
