/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim for kernel/irqflags.h: a simulated IF flag per simulated CPU. */
#ifndef KERNEL_IRQFLAGS_H
#define KERNEL_IRQFLAGS_H

unsigned long shim_local_irq_save(void);
void shim_local_irq_restore(unsigned long flags);
void shim_local_irq_disable(void);
void shim_local_irq_enable(void);
int shim_irqs_disabled(void);

#define local_irq_disable()		shim_local_irq_disable()
#define local_irq_enable()		shim_local_irq_enable()
#define local_irq_save(flags)		((flags) = shim_local_irq_save())
#define local_irq_restore(flags)	shim_local_irq_restore(flags)
#define irqs_disabled()			shim_irqs_disabled()

#endif
